/*
 * il_names.h: the names that cross a boundary between interloper's parts,
 * declared once.  The record schema interloper/1 is a contract (DESIGN.md,
 * libinterloper(7)): the library writes these fields, the tools and the
 * statistics read them, and so do users' own scripts.  Labels are written
 * by the drivers (interloper run, interloper sweep) and read by the
 * report.  Add names freely; never rename one.
 *
 * Plain string literals, so that they concatenate with other literals in
 * the signal-safe record writer ("\"" IL_F_EXIT "\":{").
 */
#ifndef IL_NAMES_H
#define IL_NAMES_H

/* ------------------------------------------------------------ the record */
#define IL_SCHEMA "interloper/1"

/* top level */
#define IL_F_SCHEMA "schema"
#define IL_F_VERSION "version"
#define IL_F_LABELS "labels"
#define IL_F_PID "pid"
#define IL_F_PPID "ppid"
#define IL_F_ARGV "argv"
/* the main program's GNU build-id (its NT_GNU_BUILD_ID note), lowercase
 * hex, or null where it has none: which image ran (outside15 H2; absent
 * from older records) */
#define IL_F_BUILD_ID "build_id"
#define IL_F_HOST "host"
#define IL_F_CPU "cpu"
#define IL_F_KERNEL "kernel"
#define IL_F_START "start"
#define IL_F_BACKEND "backend"
#define IL_F_INHERIT "inherit"
/* an exec'd child under INHERIT=all: the pid of the record whose counters
 * count it; it opens none of its own (events null, with the reason) */
#define IL_F_COUNTED_IN "counted_in"
/* true in the record of an image whose exec failed after its exec record
 * was written: this record covers the whole image, so the exec record of
 * the same pid, host and start is no measurement of its own */
#define IL_F_SUPERSEDES_EXEC "supersedes_exec"
#define IL_F_OTHERS "others_measured" /* another measured program ran meanwhile (others.c) */
#define IL_F_SETUP "setup"
#define IL_F_EXIT "exit"
#define IL_F_EVENTS "events"
#define IL_F_TIMES "times"
#define IL_F_MAXRSS "maxrss_kib"
#define IL_F_CTX "ctx_switches" /* context switches in the window */
#define IL_F_FLOOR "floor"
/* whose calibration the floor is: "process", the measured process's own
 * at its end, or "driver", the one interloper run or sweep did once with
 * the same events and backend and passed in the run spec (IL_RUN_FLOOR) */
#define IL_F_FLOOR_SOURCE "floor_source"
#define IL_FLOOR_SOURCE_PROCESS "process"
#define IL_FLOOR_SOURCE_DRIVER "driver"
#define IL_F_ERRORS "errors"

/* exit: how the image ended, with what */
#define IL_F_HOW "how"
#define IL_F_STATUS "status"
#define IL_F_SIGNAL "signal"
#define IL_F_EXEC "exec"
/* false: the record could not know the ending (libinterloper(7)) */
#define IL_F_CERTAIN "certain"
#define IL_HOW_NAME_RETURN "return"
#define IL_HOW_NAME_EXIT "exit"
#define IL_HOW_NAME__EXIT "_exit"
#define IL_HOW_NAME_EXEC "exec"
#define IL_HOW_NAME_SIGNAL "signal"

/* ctx_switches: getrusage deltas, like times (children's too under
 * INHERIT=all) */
#define IL_F_VOLUNTARY "voluntary"
#define IL_F_INVOLUNTARY "involuntary"

/* events.NAME */
#define IL_F_VALUE "value"
#define IL_F_ENABLED "enabled_ns"
#define IL_F_RUNNING "running_ns"
#define IL_F_SCOPE "scope"
#define IL_F_ERROR "error"

/* times */
#define IL_F_WALL "wall_ns"
#define IL_F_USER "user_ns"
#define IL_F_SYS "sys_ns"

/* setup */
#define IL_F_ENV_BYTES "env_bytes"
#define IL_F_ENV_VARS "env_vars"
#define IL_F_ARGV_BYTES "argv_bytes"
#define IL_F_ASLR "aslr"
#define IL_F_STACK_OFFSET "stack_offset"
#define IL_F_STACK_OFFSET_REQ "stack_offset_requested"
#define IL_F_STACK_PINNED "stack_pinned"
#define IL_F_STACK_PIN "stack_pin"
#define IL_F_MAIN_SP "main_sp"
/* how main was entered: "tail" (with the stack pointer glibc gave it; new
 * in 0.2.0), "call" (by a function of the library, main_sp_residue bytes
 * lower); records without it are 0.1.x, where main was always called */
#define IL_F_MAIN_ENTRY "main_entry"
#define IL_MAIN_ENTRY_TAIL "tail"
#define IL_MAIN_ENTRY_CALL "call"
#define IL_F_MAIN_RESIDUE "main_sp_residue"
#define IL_F_CPUS "cpus" /* CPU affinity before main, a list like "0-3,6" */
#define IL_F_STACK_TOP "stack_top"
#define IL_F_HEAP_OFFSET "heap_offset"
#define IL_F_HEAP_OFFSET_REQ "heap_offset_requested"
#define IL_F_HEAP_START "heap_start"
#define IL_F_HEAP_BASE "heap_base"

/* ------------------------------------------------------------ labels */
/* Written by interloper run and interloper sweep (interloper-sweep(1)),
 * read by interloper report and plot (interloper-report(1)). */
#define IL_L_BENCH "bench"
#define IL_L_SYSTEM "system"
#define IL_L_SETUP "setup"
#define IL_L_ENV_ADD "env_add"
#define IL_L_LAYOUT "layout"
#define IL_L_REP "rep"
#define IL_L_LAYOUT_KIND "layout_kind" /* original, alphabetical, random (the manifest's) */
#define IL_L_RUN "run"                 /* the run's id in the plan */
#define IL_L_PLAN "plan"               /* a short identity of the plan */
#define IL_L_SEED "seed"               /* the plan's seed */
#define IL_L_PASS "pass"               /* run --randomize: the invocation's pass, 0, 1, ... */
/* a warm-up run: kept in the results, left out by the report by default */
#define IL_L_WARMUP "warmup"
/* further factors of a setup, and how the run was made (interloper-sweep(1)) */
#define IL_L_STACK_OFFSET "stack_offset" /* bytes, decimal; a factor of the setup */
#define IL_L_HEAP_OFFSET "heap_offset"   /* bytes, decimal; a factor of the setup */
#define IL_L_PIN "pin"                   /* "on" or "off": the stack pin (section 7.2) */
#define IL_L_CPUS "cpus"                 /* the CPU list of --cpu, e.g. "0-1,3" */
#define IL_L_OUTPUT_CHECK "output_check" /* "off" with --no-check-output */
/* one launch of a run: every record of the launch (exec chains, children)
 * has it, and no other launch; interloper sweep's is NONCE-N */
#define IL_L_LAUNCH "launch"

/* ------------------------------------------------------------ variables */
/* The library's INTERLOPER_* variables (libinterloper(7)); the table that
 * reads them is interposer/config.c's.  Any other INTERLOPER_ name in a
 * measured environment is reported as unknown, but for the ones the
 * interloper command and its tools set for their own use, below. */
#define IL_V_PREFIX "INTERLOPER_"
#define IL_V_EVENTS "INTERLOPER_EVENTS"
#define IL_V_BACKEND "INTERLOPER_BACKEND"
#define IL_V_OUTPUT "INTERLOPER_OUTPUT"
#define IL_V_STACK_OFFSET "INTERLOPER_STACK_OFFSET"
#define IL_V_STACK_PIN "INTERLOPER_STACK_PIN"
#define IL_V_HEAP_OFFSET "INTERLOPER_HEAP_OFFSET"
#define IL_V_INHERIT "INTERLOPER_INHERIT"
#define IL_V_STRICT "INTERLOPER_STRICT"
#define IL_V_DEBUG "INTERLOPER_DEBUG"
#define IL_V_QUIET "INTERLOPER_QUIET"
#define IL_V_RUN "INTERLOPER_RUN" /* the run spec's path (below) */
/* set by interloper run and sweep: the environment's pad, always last */
#define IL_V_PAD "INTERLOPER_PAD"
/* set by the front command (scripts/interloper) for the programs it runs */
#define IL_V_LIBRARY "INTERLOPER_LIBRARY"
#define IL_V_LIBEXEC "INTERLOPER_LIBEXEC"
#define IL_V_FRONT "INTERLOPER_FRONT"
/* ... and, where its shell is bash, which execs the subcommand without the
 * shell's "_", the value "_" had in the front's environment, for the
 * drivers' --keep _ (scripts/interloper; review12b L2) */
#define IL_V_UNDERSCORE "INTERLOPER_UNDERSCORE"
/* read and set by interloper cc (interloper-cc(1)) */
#define IL_V_CC "INTERLOPER_CC"
#define IL_V_CC_LINKS "INTERLOPER_CC_LINKS"
#define IL_V_CC_ACTIVE "INTERLOPER_CC_ACTIVE"

/* ------------------------------------------------------------ the run spec */
/* The hand-over from interloper run and sweep to the library, a file named
 * by INTERLOPER_RUN (DESIGN.md, "Labels"): its first line, then one
 * "KEY VALUE" line each. */
#define IL_RUN_SCHEMA "interloper-run/1"
#define IL_RUN_PID "pid"
/* after the pid line, where the pid is the driver's own (interloper run):
 *     started TICKS TIMENS BOOT
 * when that process started, in clock ticks since boot (/proc/PID/stat's
 * starttime, -1 unknown), which no change of the wall clock moves; the
 * inode of the time namespace they were read in (0 unknown), whose boot
 * offset shifts them; and the boot of the machine, its boot id or
 * "host:NODENAME" (at most IL_BOOT_WORD_MAX bytes).  A later driver tells
 * a pid taken by another process since from the owner by them, and
 * judges only its own boot's specs (tools/launch.c, il_spec_clean_stale;
 * a sweep's owner file says the same after its pid and pid namespace).
 * An older build wrote "started TICKS" alone.  The library ignores it. */
#define IL_RUN_STARTED "started"
#define IL_BOOT_WORD_MAX 72
#define IL_RUN_OUTPUT "output"
#define IL_RUN_SUMMARY "summary"
#define IL_RUN_LABELS "labels"
/* the record's host, cpu and kernel, as the library writes them (JSON
 * members, "host":...,"cpu":...,"kernel":...), taken once by the driver on
 * the machine it runs the program on: the library then reads neither
 * uname nor /proc/cpuinfo in each measured process */
#define IL_RUN_MACHINE "machine"
/* one of the library's settings, "set INTERLOPER_X=value", as the variable
 * would say it (libinterloper(7)): the drivers' per-run settings (strict,
 * the stack and heap offsets, the pin, events, backend) travel here, not
 * in the measured program's environment, which then holds only
 * LD_PRELOAD, INTERLOPER_RUN and the pad; read by config.c's one table,
 * after the environment (a setting here wins) */
#define IL_RUN_SET "set"
/* "strict default": the spec's strictness (its set line) is the driver's
 * default (sweep's and compare's, which --no-strict turns off), not an
 * option the user gave: the library's stop line says so (review12b L1:
 * it said "--strict", an option sweep and compare refuse).  A library
 * that does not know the line ignores it. */
#define IL_RUN_STRICT "strict"
#define IL_RUN_STRICT_DEFAULT "default"
/* the floor the driver calibrated once, with the library's own code and
 * the children's settings (backends.c, il_floor_line):
 *     floor perf default|spec N FLAGS VALUE ...
 * for the default events or those of the spec's own events line, N of
 * them in the library's order, each the settings its empty window
 * depends on (one hex digit: exclude_kernel 1, exclude_user 2, inherit 4,
 * inherit_thread 8) and its floor.  A child whose backend is that, whose events are that
 * very list (the defaults, or this spec's events line: not its
 * environment's), with those settings and all counting, records this
 * floor ("floor_source":"driver") and skips its own calibration; any
 * other calibrates itself (run_spec.c, il_run_floor) */
#define IL_RUN_FLOOR "floor"
#define IL_RUN_FLOOR_DEFAULT "default"
#define IL_RUN_FLOOR_SPEC "spec"

/* interloper run's spec file, in TMPDIR behind "/./" (tools/launch.c):
 *     interloper-run.PPPPPPP.NNNNNNNNNN.XXXXXX.spec
 * the run's pid (the process the program is exec'd in) and the inode of
 * its pid namespace, zero-padded to a constant length (the environment's
 * size must not move with the pid), then mkstemp's six characters.  The
 * library reads them from INTERLOPER_RUN when the spec is gone, to tell
 * a descendant exec'd after the run ended, which stands aside, from a
 * spec lost during a live run, which it says (run_spec.c).  A sweep's
 * spec directories share the prefix. */
#define IL_RUN_FILE_PREFIX "interloper-run."
#define IL_RUN_FILE_SUFFIX ".spec"
#define IL_RUN_FILE_PID 7 /* digits: Linux's pids stay below 2^22 (PID_MAX_LIMIT) */
#define IL_RUN_FILE_NS 10 /* digits: an inode number of 32 bits */
#define IL_RUN_FILE_RANDOM 6

/* The default events (without INTERLOPER_EVENTS), as the drivers and
 * interloper events name them; the library's own tables of them, with
 * their encodings, are in interposer/backends.c (events_setup). */
#define IL_DEFAULT_EVENTS_HW "cycles,instructions" /* where there is a PMU */
#define IL_DEFAULT_EVENTS_SW "task-clock,page-faults,context-switches"
#define IL_DEFAULT_EVENTS_PAPI "perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES"

/* ------------------------------------------------------------ sweep lines */
/* interloper sweep's own lines in a results file, beside the records:
 * {"schema":"interloper-sweep/1","kind":"plan"|"machine"|"output"|"extent",
 *  "plan":ID,...}.  Readers of records skip them (interloper-sweep(1)). */
#define IL_SWEEP_SCHEMA "interloper-sweep/1"
#define IL_M_KIND "kind"
#define IL_M_KIND_PLAN "plan"
#define IL_M_KIND_MACHINE "machine"
#define IL_M_KIND_OUTPUT "output"
#define IL_M_KIND_EXTENT "extent"
#define IL_M_PLAN "plan"
#define IL_M_IDENTITY "identity"
#define IL_M_EXTENT "extent"
#define IL_M_SHARD "shard"
#define IL_M_SYSTEMS "systems"
#define IL_M_COMMAND "command"
#define IL_M_TIME "time"
#define IL_M_WHEN "when"
#define IL_M_RUN "run"
#define IL_M_STDOUT_SHA256 "stdout_sha256"
#define IL_M_STDOUT_BYTES "stdout_bytes"
/* the start's machine line: interloper check's findings, [{check, level, text}] */
#define IL_M_FINDINGS "findings"
/* the start's machine line: how many kinds of software event the driver
 * held switched on for its runs (interloper-hold(1)), 0 when it did not:
 * the library cannot tell, and its cost per process differs by a few
 * hundred microseconds on a VM */
#define IL_M_HELD "held"
/* a machine line's snapshot (tools/machine.c), the facts its readers judge:
 * interloper check (tools/check.c), report's [disturbed] (stats/disturb.c),
 * record merge's and report's comparisons (common/machfacts.c) */
#define IL_M_MACHINE "machine"
#define IL_MF_CPUS_ONLINE "cpus_online"      /* a CPU list, "0-1" */
#define IL_MF_GOVERNOR "governor"            /* the distinct values over the CPUs, or null */
#define IL_MF_BOOST "boost"                  /* "on", "off" or null */
#define IL_MF_THP "thp"                      /* "always", "madvise", "never" */
#define IL_MF_ASLR "randomize_va_space"      /* "0", "1", "2" */
#define IL_MF_PARANOID "perf_event_paranoid" /* "-1" ... "4" */
#define IL_MF_LOADAVG "loadavg"              /* [1, 5, 15 minutes] */
#define IL_MF_STEAL_TICKS "steal_ticks"      /* steal so far, all CPUs */
#define IL_MF_ALL_TICKS "all_ticks"          /* CPU time so far, all CPUs */
#define IL_MF_SMT "smt"                      /* "on", "off" or null */
#define IL_MF_MEM_TOTAL "mem_total_kib"      /* MemTotal */
/* the facts that make two machines' runs not comparable (record merge and
 * report, il_machine.h): IL_F_CPU, IL_F_KERNEL, governor, boost, SMT,
 * memory and IL_F_VERSION */
#define IL_M_STATUS "status"
/* kind "failed": the launch of a run whose records (if any: "records" says
 * how many) precede it in the same write failed, why, and its "status" or
 * "signal"; a rerun retries the run */
#define IL_M_KIND_FAILED "failed"
#define IL_M_SIGNAL "signal"
#define IL_M_RECORDS "records"
/* kind "failed" of a run killed at --timeout: the limit, in seconds */
#define IL_M_TIMEOUT "timeout"
/* the plan line: the environment's size, in bytes, of the setup with
 * env_add 0; every setup's is this plus its env_add (--env-base) */
#define IL_M_ENV_BASE "env_base"
/* the plan line: the number of environment strings of every run, the pad
 * and fillers included (--env-vars); absent in files before 0.2.1 */
#define IL_M_ENV_VARS "env_vars"
/* the plan line's: each variable of this start's runs' environment, but
 * the pad, and its bytes (names only, never values) */
#define IL_M_ENV_NAMES "env_names"
#define IL_M_LAUNCH "launch"
#define IL_M_WHY "why"
/* kind "machine": a snapshot (IL_M_MACHINE) when the sweep starts, every
 * --snapshot-every while it runs, and when it ends ("when"); "sweep_id"
 * names the sweep process (the same in its snapshots), "shard" its shard;
 * the end's "sweep" counts its runs */
#define IL_M_SWEEP "sweep_id"
#define IL_M_WHEN_START "start"
#define IL_M_WHEN_DURING "during"
#define IL_M_WHEN_END "end"
/* labels the sweep adds from the scheduler that started it (its own
 * environment, never the measured program's): Slurm's job and array task
 * and node, GNU parallel's job slot and sequence number */
#define IL_L_SLURM_JOB "slurm_job"
#define IL_L_SLURM_TASK "slurm_task"
#define IL_L_SLURM_NODE "slurm_node"
#define IL_L_PARALLEL_SLOT "parallel_slot"
#define IL_L_PARALLEL_SEQ "parallel_seq"
/* the scheduler's labels above, as one list: the sweep sets them itself,
 * and they say where and in which job a run ran, not what it measured:
 * report and plot take them as they take the run's own number (stats/
 * input.c, il_numbers_runs), never as a design label */
#define IL_L_SCHEDULER \
    IL_L_SLURM_JOB, IL_L_SLURM_TASK, IL_L_SLURM_NODE, IL_L_PARALLEL_SLOT, IL_L_PARALLEL_SEQ

/* ------------------------------------------------------------ the link manifest
 * DIR/manifest.json, written by interloper link (interloper-link(1)), read
 * by interloper sweep: one JSON object, schema interloper-link/1. */
#define IL_LINK_SCHEMA "interloper-link/1"
#define IL_M_SCHEMA "schema"
#define IL_M_VERSION "version"
#define IL_M_PROGRAM "program"
#define IL_M_SEED "seed"
#define IL_M_SEED_GIVEN "seed_given"
#define IL_M_PRNG "prng"
#define IL_M_ORDERS "orders"
#define IL_M_GRANULARITY "granularity"
#define IL_M_CWD "cwd"
#define IL_M_COMMAND "command"
#define IL_M_OBJECTS "objects"           /* names, in the original order */
#define IL_M_OBJECT_FILES "object_files" /* what the linker was given for each */
#define IL_M_ARCHIVE_MODE "archive_mode" /* keep, used, all (--archives) */
#define IL_M_ARCHIVES "archives"         /* the archives replaced by their members */
#define IL_M_ARGUMENT "argument"         /* archives[]: the argument(s) replaced */
#define IL_M_PATH "path"                 /* archives[]: the archive's path */
#define IL_M_MEMBERS "members"           /* archives[]: names of the members linked */
#define IL_M_FILES "files"               /* archives[]: their extracted files, in DIR */
#define IL_M_LEFT_OUT "left_out"         /* archives[]: members not linked */
#define IL_M_REPRODUCIBLE "reproducible"
#define IL_M_BINARIES "binaries"
/* binaries[] */
#define IL_M_ID "id"
#define IL_M_FILE "file"
#define IL_M_KIND "kind"
#define IL_M_FINGERPRINT "fingerprint"
#define IL_M_TEXT_FINGERPRINT "text_fingerprint"
#define IL_M_SHA256 "sha256"
#define IL_M_SYMBOL_ORDER "symbol_order"
#define IL_M_ORDER "order"
/* binaries[].kind */
#define IL_KIND_ORIGINAL "original"
#define IL_KIND_ALPHABETICAL "alphabetical"
#define IL_KIND_RANDOM "random"

#endif
