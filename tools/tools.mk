# Build fragment for the C tools (tools/ -> build/libexec), included by
# the top-level Makefile.
TOOLS = $(B)/libexec/interloper-events $(B)/libexec/interloper-record \
	$(B)/libexec/interloper-run $(B)/libexec/interloper-sweep $(B)/libexec/interloper-hold \
	$(B)/libexec/interloper-link $(B)/libexec/interloper-cc $(B)/libexec/interloper-build \
	$(B)/libexec/interloper-check $(B)/libexec/interloper-compare

# What interloper run, sweep and record merge share (tools/il_tools.h).
IL_TOOL_COMMON = opts setupid elf launch
# The library's own machine facts (record_json.o) and its calibration of
# the empty window (backends.o), which the spec hands it.
IL_TOOL_COMMON_OBJ = $(IL_TOOL_COMMON:%=$(B)/tools/%.o) $(IL_UTIL_OBJ) $(IL_CORE_OBJ)
# The plan, results files and their lines: the sweep's, and merge's (which
# reads gzip and zstd too: link IL_PLAN_LIBS).
# (and objname.o: the systems' link orders, which sweep_cli.c compares)
IL_PLAN_OBJ = $(addprefix $(B)/tools/,sweep_plan.o results.o meta.o objname.o) $(IL_MACHINE_OBJ) \
	$(IL_PRNG_OBJ) $(IL_LINES_OBJ)
IL_PLAN_LIBS = -lz -lzstd
IL_SWEEP_OBJ = $(addprefix $(B)/tools/,sweep.o sweep_cli.o machine.o check.o until.o verdict.o \
	slurm.o holdev.o)

$(B)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(B)/libexec/interloper-events: $(B)/tools/events.o $(IL_CORE_OBJ) $(IL_OPT_OBJ) $(IL_XALLOC_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson -lpfm -ldl

$(B)/libexec/interloper-run: $(B)/tools/run.o $(B)/tools/run_draw.o $(IL_TOOL_COMMON_OBJ) \
		$(IL_PRNG_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

$(B)/libexec/interloper-sweep: $(B)/tools/sweep_main.o $(IL_SWEEP_OBJ) $(IL_PLAN_OBJ) \
		$(IL_TOOL_COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson -lm $(IL_PLAN_LIBS)

# interloper compare: the commands made systems of one sweep, its exports
$(B)/libexec/interloper-compare: $(addprefix $(B)/tools/,compare.o compare_systems.o \
		compare_export.o) $(IL_SWEEP_OBJ) $(IL_PLAN_OBJ) $(IL_CSV_OBJ) $(IL_TOOL_COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson -lm $(IL_PLAN_LIBS)

# interloper check: the machine's state (machine.c) judged (check.c)
$(B)/libexec/interloper-check: $(B)/tools/check_main.o $(B)/tools/check.o $(B)/tools/machine.o \
		$(IL_UTIL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson

$(B)/libexec/interloper-hold: $(B)/tools/hold.o $(B)/tools/holdev.o $(IL_OPT_OBJ) $(IL_XALLOC_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

# merge rebuilds a plan's runs with the sweep's own sweep_plan.c; meta.c's
# identity half needs the sweep's options, which are linked for it.
$(B)/libexec/interloper-record: $(B)/tools/record.o $(B)/tools/merge.o $(B)/tools/record_csv.o \
		$(IL_CSV_OBJ) $(IL_PLAN_OBJ) \
		$(B)/tools/sweep_cli.o $(B)/tools/machine.o $(IL_TOOL_COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson $(IL_PLAN_LIBS)

# interloper link and interloper cc share the link command model.
IL_LINK_OBJ = $(addprefix $(B)/tools/,link.o linkobj.o linkaux.o linkrun.o archive.o order.o \
	linkcmd.o linkopts.o) $(IL_PRNG_OBJ) $(IL_UTIL_OBJ)

$(B)/libexec/interloper-link: $(IL_LINK_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson

# interloper build runs make, interloper cc and interloper link per system.
$(B)/libexec/interloper-build: $(B)/tools/build.o $(B)/tools/linkopts.o $(B)/tools/linkcmd.o \
		$(B)/tools/objname.o $(IL_TOOL_COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson

$(B)/libexec/interloper-cc: $(B)/tools/cc.o $(B)/tools/linkcmd.o $(IL_UTIL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

$(B)/tests/unit/test_linkcmd: tests/unit/test_linkcmd.c $(B)/tools/linkcmd.o $(B)/tools/archive.o \
		$(B)/tools/order.o $(IL_PRNG_OBJ) $(IL_UTIL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Itools $(LDFLAGS) -o $@ $(filter %.c %.o,$^) -lcmocka

# The tools' own unit tests (tests/tools/).
TOOLS_UNIT = $(patsubst tests/tools/%.c,$(B)/tests/unit/%,$(wildcard tests/tools/test_*.c))
UNIT_TESTS += $(TOOLS_UNIT)

$(TOOLS_UNIT): $(B)/tests/unit/test_%: tests/tools/test_%.c $(IL_PLAN_OBJ) $(IL_TOOL_COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Itools $(LDFLAGS) -o $@ $(filter %.c %.o,$^) -lcmocka \
		-ljansson $(IL_PLAN_LIBS)
