/*
 * input.h: what the reading of records shares between input.c (one line)
 * and read.c (files, read in parts by two threads, and joined).
 */
#ifndef IL_INPUT_H
#define IL_INPUT_H

#include "il_stats.h"

/* Paths of one scan.  A metric side (the metric, or the numerator and the
 * denominator of NUM/DEN) has five: value, the event object, floor,
 * enabled_ns and running_ns. */
enum {
    P_SCHEMA,
    P_LABELS,
    P_VALUE,
    P_EVENT,
    P_FLOOR,
    P_ENABLED,
    P_RUNNING,
    P_VALUE2,
    P_EVENT2,
    P_FLOOR2,
    P_ENABLED2,
    P_RUNNING2,
    P_ENV,
    P_WALL,
    P_EVENTS,
    P_HOW,
    P_STATUS,
    P_HOST,
    P_COUNTED_IN,
    P_MAIN_SP,
    P_HEAP_START,
    P_OTHERS,
    P_ARGV,
    P_PID,
    P_START,
    P_SUPERSEDES,
    P_BUILD_ID,
    P_LAYOUT,
    P_LABEL0
};

#define IL_MAX_SHOWN 10      /* malformed lines named one by one */
#define IL_EVENT_SAMPLE 1000 /* records whose event names are collected */
#define IL_ARGS_CACHE 256    /* bytes of argv text whose args id is remembered */
#define IL_LV_HINTS 32       /* labels whose place is remembered (note_label) */
#define IL_LAUNCH_WINDOW 256 /* record lines a failed line looks back at (swept_line) */

/* Two texts (their JSON, at most IL_ARGS_CACHE bytes; n -1: none) and
 * their ids, the older one replaced next (input.c, args_id). */
struct il_args_cache {
    char t[2][IL_ARGS_CACHE];
    int n[2];
    uint32_t id[2];
    int old;
};

/* A bad line: where, and what. */
struct il_badline {
    const char *file;
    size_t line;
    char msg[512];
};

/* Lines kept for later, in order. */
struct il_kept {
    char **line;
    size_t *len, n;
};
void il_keep_line(struct il_kept *k, const char *s, size_t n);

/* A label value that followed another: its JSON text (n bytes, 0: none)
 * and its id. */
struct il_next {
    uint32_t id;
    uint8_t n;
    char s[11];
};

/* The state of reading one stream of lines into one struct il_data. */
/* Records that ended in an exec, whose next image has not been read yet
 * (input.c, chain_note): a hash of their host and labels, their pid, their
 * record; in the order read, looked up by a hash of the first two. */
struct il_chain_open {
    uint64_t h;
    uint64_t start; /* a hash of the image's start and argv (chain_note) */
    int64_t pid;
    size_t rec;
    size_t next; /* the one before it in its bucket, or SIZE_MAX */
    int live;
};
struct il_chains {
    struct il_chain_open *e;
    size_t n, cap, live; /* entries (given up ones too), room, not yet found */
    size_t *bucket;
    size_t nb;
};
void il_chains_add(struct il_chains *c, uint64_t h, uint64_t start, int64_t pid, size_t rec);
void il_chains_free(struct il_chains *c);

struct rd {
    const struct il_sel *sel;
    struct il_data *d;
    struct il_path paths[IL_SCAN_MAXPATHS];
    struct il_scan sc;
    struct il_tmpls tm;
    struct il_strtab events; /* event names seen, for the unknown-metric error */
    char *buf;               /* label decoding */
    size_t bufcap;
    uint32_t ids[IL_MAX_SLOTS];
    uint8_t *seen[IL_MAX_SLOTS]; /* per where slot: ids seen */
    size_t seencap[IL_MAX_SLOTS];
    int is_where[IL_MAX_SLOTS];
    size_t shown;            /* bad lines */
    struct il_badline first; /* the first bad line (file NULL: none) */
    size_t host_slot;        /* the slot named "host", or SIZE_MAX */
    size_t warm_slot;        /* the slot named "warmup", or SIZE_MAX */
    size_t args_slot;        /* the slot named "args", or SIZE_MAX */
    /* The pseudo-label args of the last two records' argv (whole), and of
     * the last two whose args were made (their argv after the program). */
    struct il_args_cache args_whole, args_rest;
    /* Per slot, and the host field last: the last two label values read
     * (their JSON text), the most recent first, and their ids. */
    char last[IL_MAX_SLOTS + 1][2][40];
    uint8_t nlast[IL_MAX_SLOTS + 1][2];
    uint32_t last_id[IL_MAX_SLOTS + 1][2];
    /* Per cache entry: the value that followed each id the last time
     * (indexed by that id), its JSON text and its id (input.c, next_id). */
    struct il_next *next[IL_MAX_SLOTS + 1];
    size_t nnext[IL_MAX_SLOTS + 1];
    /* Per template and slot: the id of its label value (when its number
     * is the template's: tmpl.c, same). */
    uint64_t tgen[IL_TMPL_N][IL_MAX_SLOTS + 1];
    uint32_t tid[IL_TMPL_N][IL_MAX_SLOTS + 1];
    /* with want_labels: the label names' places in d->lv, by their
     * place in the labels object */
    size_t lvhint[IL_LV_HINTS];
    /* and the key of each (from its opening quote to its colon) as the
     * last record wrote it (nlvkey bytes; 0: none kept) */
    char lvkey[IL_LV_HINTS][32];
    uint8_t nlvkey[IL_LV_HINTS];
    /* and per template (tmpl.c), the layout of its labels, made from
     * the first kept record that it matched (collect_labels): the
     * labels' values are its scalars from k0 on, one a label, unless walk
     * (then every record's labels are walked); of the n whose values are
     * kept (not il_numbers_runs'), each one's scalar (k0 + tok), its
     * place in d->lv and whether the template's own value counts it
     * present */
    struct il_lvlay {
        uint64_t gen; /* the template's number (tm.gen) it was made for; 0: none */
        uint32_t k0, n, cap;
        int walk;
        uint32_t *tok;
        size_t *at;
        uint8_t *counted;
    } lvlay[IL_TMPL_N];
    struct il_span *lvspan; /* scratch: the values of a record (lvcap) */
    uint8_t *lvrep;
    size_t lvcap;
    /* A part of a file after its first (read.c): line numbers count from
     * the part's start, and what would be said is kept for the join. */
    int defer;
    struct il_badline kept[IL_MAX_SHOWN]; /* its first bad lines */
    size_t nkept;
    int stopped;   /* --strict: it stopped at its first bad line */
    size_t *ev_at; /* per event name: records before the line that named it */
    size_t ev_cap;
    size_t schema_line;     /* the line of d->first_schema_other (its text only) */
    struct il_kept machine; /* the sweep's machine lines (disturb.c) */
    /* Records that ended in an exec, whose next image has not been read
     * yet: a hash of their host and labels, their pid, their record. */
    struct il_chains open;
    /* dry: a second look at a part's lines (read.c, join) for the next
     * images of open, which is then the records before the part's: each
     * record it would keep is counted in ndry, not kept, and a match is
     * linked in d->links with to its number in the part. */
    int dry;
    size_t ndry;
    /* The path of label launch: for the ring of launches (win), in the
     * dry look of il_read for the records of the launches a sweep's
     * failed line names and the ring did not hold (dry 2, their flags set
     * in mark), and in an input read once (in_stdin: the standard input
     * or any input not a regular file; stdin_launch: each record of it
     * kept, its number and a hash of its launch, for il_read to look at
     * once every line is read). */
    int launch_path;
    int ppid_path; /* the path of ppid, with want_pids (else 0) */
    struct il_data *mark;
    size_t stop_at; /* dry 2: the records read before, up to this file's end */
    int in_stdin;
    struct il_launch_hash {
        size_t rec;
        uint64_t h;
    } *stdin_launch;
    size_t nstdin_launch, capstdin_launch;
    /* The last IL_LAUNCH_WINDOW record lines read (not in a dry look), a
     * ring: a hash of each one's launch label as its JSON text (0: none)
     * and its record's number (SIZE_MAX: not kept).  The sweep writes a
     * failed line just after its launch's records, in the same write:
     * there the line finds them (swept_line), and only a launch whose
     * records are not all there is left to il_read's second look. */
    struct il_launch_hash win[IL_LAUNCH_WINDOW];
    size_t nwin;
    /* sweep_here: a sweep's line was read here; no_when: in a file read in
     * parts, one was read in some part (read.c, read_parts, at each take):
     * a sweep's file has no passes, and the records' starts (d->when) are
     * noted no more */
    int sweep_here, no_when;
    /* In a part after a file's first (defer): the failed lines read
     * before the ring filled whose records were not all there, which the
     * join looks for in the ring of the parts before (read.c, join):
     * their launch, its hash, the records the line says (want, -1 when it
     * does not) and those found. */
    struct il_pending {
        char *launch;
        uint64_t h;
        long long want;
        size_t found;
    } *pend;
    size_t npend;
};
/* The records of ring win (of nwin lines) whose launch hash is h flagged
 * IL_R_SWEPT in d; how many lines it has of h. */
size_t il_win_flag(const struct il_launch_hash *win, size_t nwin, uint64_t h, struct il_data *d);
/* A 64-bit hash of the n bytes at s (FNV-1a), never 0. */
uint64_t il_launch_hash(const char *s, size_t n);
void il_link_add(struct il_data *d, size_t from, size_t to, int sup);

void il_rd_init(struct rd *rd, const struct il_sel *sel, struct il_data *d);
void il_rd_free(struct rd *rd);
/* One line (without its newline) of file; line counts from 1. */
void il_rd_line(struct rd *rd, const char *file, size_t line, const char *s, size_t n);
/* The line at s (avail bytes read from there on: it and those after it)
 * when a template matches it whole: 1 with *n its length (s[*n] is its
 * newline, or the first of carriage returns before it, which are not the
 * line's), read as il_rd_line reads it; else 0, nothing done, and the
 * line is to be found (il_lines_next) and given to il_rd_line. */
int il_rd_line_nl(struct rd *rd, const char *file, size_t line, const char *s, size_t avail,
                  size_t *n);
/* Mark id in the array seen (of *cap bytes, grown as needed); 1 when it
 * was not marked yet. */
int il_seen_set(uint8_t **seen, size_t *cap, size_t id);
/* "file:line: msg" of a bad line. */
void il_badline_text(const struct il_badline *b, size_t line0, char *out, size_t n);

#endif
