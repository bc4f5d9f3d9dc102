/*
 * il_resolve.h: how the library resolves and opens events, the part of
 * its private interface (interposer/il.h) that interloper events shares,
 * so that what the command says is what libinterloper.so does.  Declared
 * here, in include/, so that no command includes the library's own
 * header; the functions are the library's (interposer/names.c, pfm.c,
 * backend_perf.c, backend_papi.c, sigsafe.c), linked into the command
 * from the same objects.
 */
#ifndef IL_RESOLVE_H
#define IL_RESOLVE_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "interloper.h"

/* the library's functions are hidden from the programs it measures */
#define IL_HIDDEN __attribute__((visibility("hidden")))

#define IL_ERRSHORT 200 /* per-event error text */

struct il_event {
    char name[IL_EVENT_NAME_MAX]; /* as the user wrote it */
    size_t name_len;              /* strlen(name), set with it (backends.c); 0: not known */
    struct perf_event_attr attr;  /* perf: the encoding */
    int resolved;                 /* perf: attr is valid */
    int fd;                       /* perf: descriptor, -1 when not open */
    int grouped;                  /* perf: a member of the software group */
    int derived;                  /* perf: task-clock, the group's running time */
    uint64_t id;                  /* perf: its id, for the group's reading */
    int papi_code;
    int ok;                           /* counting */
    char error[IL_ERRSHORT];          /* why not, when !ok */
    uint64_t value, enabled, running; /* final raw reading */
    uint64_t carry;                   /* counted before a failed exec */
    uint64_t floor;
    int floor_ok;
};

/* names.c: generic event names */
IL_HIDDEN int il_event_generic(const char *name, struct perf_event_attr *attr);
IL_HIDDEN int il_event_is_papi_name(const char *name);
/* a generic name in lower case, however spelled (names.c) */
IL_HIDDEN int il_event_fold(char *name, size_t n);
IL_HIDDEN void il_events_fold(char *list, char sep);
IL_HIDDEN const char *il_generic_name(int i);

/* backend_perf.c: one counter opened as the library opens it */
IL_HIDDEN int il_perf_open_one(struct il_event *e, enum il_inherit inherit, int top);
IL_HIDDEN const char *il_perf_errno_text(int err, const struct perf_event_attr *a, char *buf,
                                         size_t n);
IL_HIDDEN int il_perf_paranoid(void);
IL_HIDDEN int il_perf_has_pmu(void);
/* Is fd open on an anonymous inode (a perf event, eventfd, epoll...),
 * which has no file type? */
IL_HIDDEN int il_fd_anon(int fd);

/* backends.c: the empty window calibrated once by a driver, with the
 * library's own code and the children's settings (the spec's "set"
 * lines in sets), as the run spec's floor line (il_names.h, IL_RUN_FLOOR);
 * its length, 0 for none (then each child calibrates itself) */
IL_HIDDEN size_t il_floor_line(const char *sets, char *out, size_t cap);

/* pfm.c: libpfm4 names, resolved in a short-lived child so that libpfm's
 * allocations never touch the program's heap */
struct il_pfm_result {
    int rc; /* 0, IL_ENOEVENT, IL_ENOLIB, IL_EINVAL */
    struct perf_event_attr attr;
    char error[IL_ERRSHORT];
};
IL_HIDDEN int il_pfm_resolve(const char *const *names, int n, struct il_pfm_result *out);

/* backend_papi.c */
IL_HIDDEN int il_papi_probe(char *info, size_t n);
IL_HIDDEN int il_papi_code(const char *name, int *code, char *err, size_t n);

/* sigsafe.c */
IL_HIDDEN size_t il_strlcpy(char *dst, const char *src, size_t n);

#endif
