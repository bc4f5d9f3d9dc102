/*
 * input.c: read .jsonl record files into a column store.
 *
 * Any line with a "schema" string, a "labels" object and the chosen metric
 * is a record, whoever wrote it (DESIGN.md, schema interloper/1).  Metric
 * paths: an event NAME is events.NAME.value (null = unsupported on that
 * machine), wall/user/sys are times.{wall,user,sys}_ns, maxrss is
 * maxrss_kib; --subtract-floor subtracts floor.NAME from the same record.
 * Label values are strings; any other JSON value counts as its text.
 */
#include <err.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

enum { P_SCHEMA, P_LABELS, P_VALUE, P_EVENT, P_FLOOR, P_ENV, P_WALL, P_EVENTS, P_LABEL0 };

#define IL_MAX_SHOWN 10      /* malformed lines named one by one */
#define IL_EVENT_SAMPLE 1000 /* records whose event names are collected */

struct rd {
    const struct il_sel *sel;
    struct il_data *d;
    struct il_path paths[IL_SCAN_MAXPATHS];
    struct il_scan sc;
    struct il_strtab events; /* event names seen, for the unknown-metric error */
    char *buf;               /* label decoding */
    size_t bufcap;
    uint32_t ids[IL_MAX_SLOTS];
    uint8_t *seen[IL_MAX_SLOTS]; /* per where slot: ids seen */
    size_t seencap[IL_MAX_SLOTS];
    int is_where[IL_MAX_SLOTS];
    size_t shown;
};

int
il_metric_parse(const char *name, enum il_metric_kind *kind)
{
    static const struct {
        const char *name;
        enum il_metric_kind kind;
    } fixed[] = {
        {"wall", IL_M_WALL}, {"user", IL_M_USER}, {"sys", IL_M_SYS}, {"maxrss", IL_M_MAXRSS}};
    if (!name || !*name)
        return -1;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(name, fixed[i].name) == 0) {
            *kind = fixed[i].kind;
            return 0;
        }
    *kind = IL_M_EVENT;
    return 0;
}

const char *
il_metric_unit(const char *metric, enum il_metric_kind kind)
{
    if (kind == IL_M_MAXRSS)
        return "KiB";
    if (kind != IL_M_EVENT || strcmp(metric, "task-clock") == 0 || strcmp(metric, "cpu-clock") == 0)
        return "ns";
    return "";
}

int
il_metric_is_time(const char *metric, enum il_metric_kind kind)
{
    static const char *const timelike[] = {"task-clock",  "cpu-clock",  "cycles",
                                           "cpu-cycles",  "ref-cycles", "PAPI_TOT_CYC",
                                           "PAPI_REF_CYC"};
    if (kind == IL_M_WALL || kind == IL_M_USER || kind == IL_M_SYS)
        return 1;
    if (kind != IL_M_EVENT)
        return 0;
    for (size_t i = 0; i < sizeof timelike / sizeof timelike[0]; i++)
        if (strcmp(metric, timelike[i]) == 0)
            return 1;
    return 0;
}

size_t
il_sel_slot(struct il_sel *sel, const char *name)
{
    for (size_t i = 0; i < sel->nslots; i++)
        if (strcmp(sel->slot_name[i], name) == 0)
            return i;
    if (sel->nslots == IL_MAX_SLOTS)
        errx(1,
             "too many label names (at most %d across --where, --by, --compare, --setup "
             "and --levels)",
             IL_MAX_SLOTS);
    sel->slot_name[sel->nslots] = name;
    return sel->nslots++;
}

static void
collect_event(void *ctx, const char *k, size_t n, int esc)
{
    struct rd *rd = ctx;
    char tmp[256];
    if (esc) {
        if (n >= sizeof tmp)
            return;
        n = il_json_unescape(k, n, tmp);
        k = tmp;
    }
    il_strtab_intern(&rd->events, k, n);
}

static void
setup_paths(struct rd *rd)
{
    const struct il_sel *sel = rd->sel;
    static const char *const times[] = {NULL, "wall_ns", "user_ns", "sys_ns"};
    struct il_path *p = rd->paths;
    il_path_set(&p[P_SCHEMA], "schema", NULL, NULL);
    il_path_set(&p[P_LABELS], "labels", NULL, NULL);
    switch (sel->kind) {
    case IL_M_EVENT:
        il_path_set(&p[P_VALUE], "events", sel->metric, "value");
        break;
    case IL_M_MAXRSS:
        il_path_set(&p[P_VALUE], "maxrss_kib", NULL, NULL);
        break;
    default:
        il_path_set(&p[P_VALUE], "times", times[sel->kind], NULL);
        break;
    }
    if (sel->kind == IL_M_EVENT)
        il_path_set(&p[P_EVENT], "events", sel->metric, NULL);
    else
        p[P_EVENT] = p[P_VALUE];
    il_path_set(&p[P_FLOOR], "floor", sel->metric, NULL);
    il_path_set(&p[P_ENV], "setup", "env_bytes", NULL);
    il_path_set(&p[P_WALL], "times", "wall_ns", NULL);
    il_path_set(&p[P_EVENTS], "events", NULL, NULL);
    for (size_t i = 0; i < sel->nslots; i++)
        il_path_set(&p[P_LABEL0 + i], "labels", sel->slot_name[i], NULL);
    rd->sc.paths = p;
    rd->sc.npaths = P_LABEL0 + (int)sel->nslots;
    rd->sc.keys_of = P_EVENTS;
    rd->sc.key_cb = collect_event;
    rd->sc.key_ctx = rd;
    for (size_t i = 0; i < sel->nwhere; i++)
        rd->is_where[sel->where[i].slot] = 1;
}

static uint32_t
label_id(struct rd *rd, struct il_span sp)
{
    if (!sp.p || (sp.n == 4 && memcmp(sp.p, "null", 4) == 0))
        return IL_MISSING_ID;
    const char *s = sp.p;
    size_t n = sp.n;
    if (*s == '"') {
        s++;
        n -= 2;
        if (memchr(s, '\\', n)) {
            if (rd->bufcap < n + 1) {
                rd->bufcap = 2 * n + 1;
                free(rd->buf);
                rd->buf = il_xmalloc(rd->bufcap);
            }
            n = il_json_unescape(s, n, rd->buf);
            s = rd->buf;
        }
    }
    return il_strtab_intern(&rd->d->st, s, n);
}

static void
mark_seen(struct rd *rd, size_t slot, uint32_t id)
{
    if (id >= rd->seencap[slot]) {
        size_t cap = 2 * (size_t)id + 64;
        rd->seen[slot] = realloc(rd->seen[slot], cap);
        if (!rd->seen[slot])
            err(1, "out of memory");
        memset(rd->seen[slot] + rd->seencap[slot], 0, cap - rd->seencap[slot]);
        rd->seencap[slot] = cap;
    }
    rd->seen[slot][id] = 1;
}

static int
where_ok(struct rd *rd)
{
    const struct il_sel *sel = rd->sel;
    for (size_t s = 0; s < sel->nslots; s++) {
        if (!rd->is_where[s])
            continue;
        mark_seen(rd, s, rd->ids[s]);
        /* A record without the label matches neither = nor !=. */
        if (rd->ids[s] == IL_MISSING_ID)
            return 0;
        int any = 0, incl = 0;
        const char *v = il_str(&rd->d->st, rd->ids[s]);
        for (size_t w = 0; w < sel->nwhere; w++) {
            if (sel->where[w].slot != s)
                continue;
            int eq = strcmp(sel->where[w].value, v) == 0;
            if (sel->where[w].neg) {
                if (eq)
                    return 0;
            } else {
                incl = 1;
                any |= eq;
            }
        }
        if (incl && !any)
            return 0;
    }
    return 1;
}

static void
bad_line(struct rd *rd, const char *file, size_t line, const char *what, const char *s, size_t n)
{
    struct il_data *d = rd->d;
    char msg[512];
    if (!what) {
        /* Let jansson explain; it is the reference parser. */
        json_error_t je;
        json_t *j = json_loadb(s, n, 0, &je);
        if (j) {
            json_decref(j);
            snprintf(msg, sizeof msg, "malformed JSON at byte %zu: %s", rd->sc.errpos + 1,
                     rd->sc.err);
        } else {
            snprintf(msg, sizeof msg, "malformed JSON at column %d: %s", je.column, je.text);
        }
        d->malformed++;
    } else {
        snprintf(msg, sizeof msg, "%s", what);
    }
    if (rd->sel->strict)
        errx(1, "%s:%zu: %s (stopped by --strict; remove --strict to skip such lines)", file, line,
             msg);
    if (rd->shown++ < IL_MAX_SHOWN)
        il_warn(IL_W_LINE, file, line, msg);
}

static void
push(struct il_data *d, double v, double env, double wall, const uint32_t *ids)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 4096;
        d->val = realloc(d->val, d->cap * sizeof *d->val);
        d->env = realloc(d->env, d->cap * sizeof *d->env);
        d->wall = realloc(d->wall, d->cap * sizeof *d->wall);
        d->lab = realloc(d->lab, d->cap * (d->nslots ? d->nslots : 1) * sizeof *d->lab);
        if (!d->val || !d->env || !d->wall || !d->lab)
            err(1, "out of memory");
    }
    d->val[d->n] = v;
    d->env[d->n] = env;
    d->wall[d->n] = wall;
    memcpy(d->lab + d->n * d->nslots, ids, d->nslots * sizeof *ids);
    d->n++;
}

static const char *
skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* The end of the JSON value at p, which the scanner has validated. */
static const char *
skip_value(const char *p, const char *e)
{
    int depth = 0;
    do {
        if (*p == '"') {
            for (p++; p < e && *p != '"'; p++)
                if (*p == '\\')
                    p++;
            p++;
        } else if (*p == '{' || *p == '[') {
            depth++;
            p++;
        } else if (*p == '}' || *p == ']') {
            depth--;
            p++;
        } else if (depth == 0) {
            while (p < e && !strchr(",}] \t\r\n", *p))
                p++;
        } else {
            p++;
        }
    } while (depth > 0 && p < e);
    return p;
}

static void
note_label(struct rd *rd, const char *k, size_t kn, int esc, struct il_span v)
{
    struct il_data *d = rd->d;
    char *name = il_xmalloc(kn + 1);
    if (esc) {
        kn = il_json_unescape(k, kn, name);
    } else {
        memcpy(name, k, kn);
    }
    name[kn] = '\0';
    struct il_labvals *l = NULL;
    for (size_t i = 0; i < d->nlv && !l; i++)
        if (strcmp(d->lv[i].name, name) == 0)
            l = &d->lv[i];
    if (l) {
        free(name);
    } else {
        d->lv = realloc(d->lv, (d->nlv + 1) * sizeof *d->lv);
        if (!d->lv)
            err(1, "out of memory");
        l = &d->lv[d->nlv++];
        memset(l, 0, sizeof *l);
        l->name = name;
    }
    uint32_t id = label_id(rd, v);
    if (id == IL_MISSING_ID)
        return;
    l->present++;
    if (id >= l->seencap) {
        size_t cap = 2 * (size_t)id + 64;
        l->seen = realloc(l->seen, cap);
        if (!l->seen)
            err(1, "out of memory");
        memset(l->seen + l->seencap, 0, cap - l->seencap);
        l->seencap = cap;
    }
    if (!l->seen[id]) {
        l->seen[id] = 1;
        l->nval++;
    }
}

/* Every label of a kept record, for want_labels. */
static void
collect_labels(struct rd *rd, struct il_span sp)
{
    const char *p = sp.p + 1, *e = sp.p + sp.n;
    for (;;) {
        p = skip_ws(p, e);
        if (p >= e || *p != '"')
            break;
        const char *k = ++p;
        int esc = 0;
        while (p < e && *p != '"') {
            esc |= *p == '\\';
            p += *p == '\\' ? 2 : 1;
        }
        size_t kn = (size_t)(p - k);
        p = skip_ws(p + 1, e); /* at the colon */
        p = skip_ws(p + 1, e);
        const char *v = p;
        p = skip_value(p, e);
        note_label(rd, k, kn, esc, (struct il_span){v, (size_t)(p - v)});
        p = skip_ws(p, e);
        if (p < e && *p == ',')
            p++;
    }
}

static void
one_line(struct rd *rd, const char *file, size_t line, const char *s, size_t n)
{
    struct il_data *d = rd->d;
    const struct il_sel *sel = rd->sel;
    char msg[256];
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return; /* blank */
    d->lines++;
    rd->sc.keys_of = d->records < IL_EVENT_SAMPLE ? P_EVENTS : -1;
    if (il_scan_line(&rd->sc, s, n) < 0) {
        bad_line(rd, file, line, NULL, s, n);
        return;
    }
    struct il_span *f = rd->sc.found;
    if (!f[P_SCHEMA].p || f[P_SCHEMA].p[0] != '"' || !f[P_LABELS].p || f[P_LABELS].p[0] != '{') {
        d->notrecord++;
        bad_line(rd, file, line,
                 "not a record: expected a \"schema\" string and a \"labels\" object", s, n);
        return;
    }
    d->records++;
    if (!d->first_schema_other &&
        !(f[P_SCHEMA].n == 14 && memcmp(f[P_SCHEMA].p, "\"interloper/1\"", 14) == 0)) {
        d->first_schema_other = il_xmalloc(f[P_SCHEMA].n + 64);
        snprintf(d->first_schema_other, f[P_SCHEMA].n + 64, "%s:%zu: schema %.*s", file, line,
                 (int)f[P_SCHEMA].n, f[P_SCHEMA].p);
    }
    for (size_t k = 0; k < sel->nslots; k++)
        rd->ids[k] = label_id(rd, f[P_LABEL0 + k]);
    if (!where_ok(rd))
        return;
    d->selected++;
    double v, fl = 0, env = 0;
    if (!f[P_EVENT].p) {
        d->missing++;
        return;
    }
    if (!f[P_VALUE].p || (f[P_VALUE].n == 4 && memcmp(f[P_VALUE].p, "null", 4) == 0)) {
        d->unsupported++;
        return;
    }
    if (il_span_number(f[P_VALUE], &v) < 0 || !(v - v == 0)) {
        d->badvalue++;
        snprintf(msg, sizeof msg, "the value of metric '%s' is %.*s, not a finite number",
                 sel->metric, (int)(f[P_VALUE].n > 40 ? 40 : f[P_VALUE].n), f[P_VALUE].p);
        bad_line(rd, file, line, msg, s, n);
        return;
    }
    if (sel->subtract_floor) {
        if (il_span_number(f[P_FLOOR], &fl) < 0) {
            d->nofloor++;
            return;
        }
        v -= fl;
    }
    if (sel->want_env) {
        if (il_span_number(f[P_ENV], &env) < 0) {
            d->noenv++;
            return;
        }
    }
    double wall = NAN;
    if (sel->want_wall && il_span_number(f[P_WALL], &wall) < 0)
        wall = NAN;
    push(d, v, env, wall, rd->ids);
    if (sel->want_labels)
        collect_labels(rd, f[P_LABELS]);
}

static void
read_file(struct rd *rd, const char *file)
{
    FILE *fp = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
    if (!fp)
        err(1, "%s", file);
    static char *line;
    static size_t cap;
    ssize_t len;
    size_t lineno = 0;
    errno = 0;
    while ((len = getline(&line, &cap, fp)) > 0)
        one_line(rd, file, ++lineno, line, (size_t)len);
    if (ferror(fp))
        err(1, "%s: read error", file);
    if (fp != stdin)
        fclose(fp);
    rd->d->files++;
}

/* "a, b, c" from the ids marked in seen (at most 12 named). */
static void
list_seen(const struct rd *rd, size_t slot, char *out, size_t cap)
{
    size_t o = 0, k = 0;
    out[0] = '\0';
    for (size_t id = 0; id < rd->seencap[slot] && o < cap; id++) {
        if (!rd->seen[slot][id])
            continue;
        if (k++ == 12) {
            o += (size_t)snprintf(out + o, cap - o, ", ...");
            break;
        }
        o += (size_t)snprintf(out + o, cap - o, "%s%s", k > 1 ? ", " : "",
                              il_str(&rd->d->st, (uint32_t)id));
    }
}

static void
explain_empty(struct rd *rd)
{
    const struct il_sel *sel = rd->sel;
    struct il_data *d = rd->d;
    char buf[1024];
    if (d->records == 0)
        errx(1,
             "empty selection: no records in the input (%zu non-blank lines, %zu malformed, "
             "%zu without \"schema\" and \"labels\"); expected one interloper/1 record "
             "per line",
             d->lines, d->malformed, d->notrecord);
    if (d->selected == 0) {
        for (size_t w = 0; w < sel->nwhere; w++) {
            size_t s = sel->where[w].slot;
            if (rd->seen[s] && rd->seen[s][IL_MISSING_ID] && rd->seencap[s] &&
                !memchr(rd->seen[s] + 1, 1, rd->seencap[s] - 1))
                errx(1,
                     "empty selection: no record has the label '%s' named in --where (%zu "
                     "records read)",
                     sel->slot_name[s], d->records);
        }
        size_t s = sel->where[0].slot;
        list_seen(rd, s, buf, sizeof buf);
        errx(1,
             "empty selection: no record matches every --where (%zu records read; label "
             "'%s' takes the values: %s)",
             d->records, sel->slot_name[s], buf);
    }
    if (d->missing == d->selected) {
        size_t o = (size_t)snprintf(buf, sizeof buf, "wall, user, sys, maxrss");
        for (uint32_t id = 1; id < rd->events.n && o < sizeof buf; id++)
            o += (size_t)snprintf(buf + o, sizeof buf - o, ", %s", il_str(&rd->events, id));
        errx(1, "unknown metric '%s': no selected record has it; known metrics: %s", sel->metric,
             buf);
    }
    if (d->unsupported + d->missing == d->selected)
        errx(1,
             "metric '%s' is unsupported (value null) in all %zu selected records that "
             "have it, so this machine could not count it; choose another --metric",
             sel->metric, d->unsupported);
    if (d->nofloor)
        errx(1,
             "--subtract-floor: no selected record has floor.%s; drop --subtract-floor or "
             "record with a calibrated floor",
             sel->metric);
    if (d->noenv)
        errx(1, "no selected record has setup.env_bytes, which this plot needs");
    errx(1, "empty selection: none of the %zu selected records has a usable value for '%s'",
         d->selected, sel->metric);
}

void
il_read(const struct il_sel *sel, char **files, int nfiles, struct il_data *d)
{
    struct rd rd;
    memset(&rd, 0, sizeof rd);
    memset(d, 0, sizeof *d);
    rd.sel = sel;
    rd.d = d;
    d->nslots = sel->nslots;
    memcpy(d->slot_name, sel->slot_name, sizeof d->slot_name);
    il_strtab_init(&d->st);
    il_strtab_init(&rd.events);
    setup_paths(&rd);
    for (int i = 0; i < nfiles; i++)
        read_file(&rd, files[i]);
    if (rd.shown > IL_MAX_SHOWN)
        il_warn(IL_W_MORE_LINES, rd.shown - IL_MAX_SHOWN);
    if (d->n == 0)
        explain_empty(&rd);
    if (d->first_schema_other)
        il_warn(IL_W_SCHEMA, d->first_schema_other);
    if (d->unsupported)
        il_warn(IL_W_UNSUPPORTED, d->unsupported, sel->metric, d->n);
    if (d->missing)
        il_warn(IL_W_MISSING, d->missing, sel->metric, d->n);
    if (d->nofloor)
        il_warn(IL_W_NOFLOOR, d->nofloor, sel->metric);
    if (d->noenv)
        il_warn(IL_W_NOENV, d->noenv);
    for (size_t s = 0; s < IL_MAX_SLOTS; s++)
        free(rd.seen[s]);
    free(rd.buf);
    il_strtab_free(&rd.events);
}

void
il_data_free(struct il_data *d)
{
    free(d->val);
    free(d->env);
    free(d->wall);
    free(d->lab);
    free(d->first_schema_other);
    for (size_t i = 0; i < d->nlv; i++) {
        free(d->lv[i].name);
        free(d->lv[i].seen);
    }
    free(d->lv);
    il_strtab_free(&d->st);
    memset(d, 0, sizeof *d);
}
