/*
 * linkaux.c: the parts of interloper link around the links themselves
 * (link.h): running programs, layout fingerprints, function orders for
 * lld, and the manifest.
 */
#include <elf.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il_version.h" /* generated from VERSION (Makefile) */
#include "il_names.h"
#include "il_sha256.h"
#include "link.h"

void
il_link_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(ME ": warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void
il_id(const struct il_link *l, size_t j, char *buf, size_t len)
{
    snprintf(buf, len, "%0*zu", l->width, j);
}

/* ---------------------------------------------------------------- fingerprints */
static int
by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b); /* bytes, as LC_ALL=C sort */
}

/* The first three blank-separated fields of LINE, as awk's print $1, $2, $3. */
static char *
three_fields(const char *line, char *type, size_t typelen)
{
    struct il_buf b = {0};
    const char *p = line;
    il_buf_add(&b, "", 0);
    type[0] = 0;
    for (int f = 0; f < 3; f++) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t");
        if (f)
            il_buf_str(&b, " ");
        il_buf_add(&b, p, n);
        if (f == 1)
            snprintf(type, typelen, "%.*s", (int)n, p);
        p += n;
    }
    return b.p;
}

/* Binary FILE's fingerprints from LINES (nm's, as read; freed): the
 * SHA-256 of "name type address\n" for every symbol, sorted, in FP, and
 * of the text symbols' in TFP, 16 hex digits each; the file's own in SHA. */
static void
fingerprint(const struct il_link *l, const char *file, struct il_strv *lines, char fp[17],
            char tfp[17], char sha[65])
{
    struct il_buf all = {0}, txt = {0};
    il_buf_add(&all, "", 0);
    il_buf_add(&txt, "", 0);
    if (lines->n)
        qsort(lines->v, lines->n, sizeof *lines->v, by_str);
    for (size_t i = 0; i < lines->n; i++) {
        char type[8];
        free(three_fields(lines->v[i], type, sizeof type));
        il_buf_str(&all, lines->v[i]);
        il_buf_add(&all, "\n", 1);
        if (strlen(type) == 1 && strchr("TtWw", type[0])) {
            il_buf_str(&txt, lines->v[i]);
            il_buf_add(&txt, "\n", 1);
        }
    }
    if (!txt.n)
        errx(1, "%s has no symbols to fingerprint (stripped?); remove -s from the link command",
             file);
    char hex[65];
    il_sha256_hex(all.p, all.n, hex);
    snprintf(fp, 17, "%.16s", hex);
    il_sha256_hex(txt.p, txt.n, hex);
    snprintf(tfp, 17, "%.16s", hex);
    char *path = il_xasprintf("%s/%s", l->tmp, file);
    if (il_sha256_file(path, sha) < 0)
        err(1, "cannot read %s", path);
    free(path);
    il_buf_free(&all);
    il_buf_free(&txt);
    il_strv_free(lines);
}

void
il_fingerprints(const struct il_link *l, size_t first, size_t n, char (*fp)[17], char (*tfp)[17],
                char (*sha)[65])
{
    /* One nm for the batch (nm costs ~30 ms to start, a link about as
     * much); with several files it prints "FILE:" before each. */
    struct il_strv files = {0}, argv = {0}, lines = {0};
    for (size_t j = 0; j < n; j++) {
        char id[32];
        il_id(l, first + j, id, sizeof id);
        il_strv_push_own(&files, il_xasprintf("%s.%s", l->prog, id));
    }
    il_strv_push(&argv, "nm");
    il_strv_push(&argv, "-P");
    il_strv_push(&argv, "--defined-only");
    il_strv_push(&argv, "--");
    for (size_t j = 0; j < n; j++)
        il_strv_push(&argv, files.v[j]);
    char *nm = il_xasprintf("%s/nm", l->tmp);
    if (il_run_to(argv.v, l->tmp, nm, NULL) != 0)
        errx(1, "nm cannot read %s", files.v[0]);
    il_strv_free(&argv);
    char *text = il_slurp(nm, NULL);
    if (!text)
        err(1, "cannot read %s", nm);
    unlink(nm);
    long cur = n > 1 ? -1 : 0;
    for (char *s = text, *e; *s; s = e + (*e != 0)) {
        e = strchrnul(s, '\n');
        char c = *e, type[8];
        *e = 0;
        size_t len = strlen(s);
        const char *next = n > 1 && cur + 1 < (long)n ? files.v[cur + 1] : NULL;
        if (next && len == strlen(next) + 1 && s[len - 1] == ':' && !memcmp(s, next, len - 1)) {
            if (cur >= 0)
                fingerprint(l, files.v[cur], &lines, fp[cur], tfp[cur], sha[cur]);
            cur++;
        } else if (cur >= 0) {
            il_strv_push_own(&lines, three_fields(s, type, sizeof type));
        }
        *e = c;
    }
    free(text);
    if (cur != (long)n - 1)
        errx(1, "nm printed something unexpected for %s", files.v[cur + 1]);
    fingerprint(l, files.v[cur], &lines, fp[cur], tfp[cur], sha[cur]);
    free(nm);
    il_strv_free(&files);
}

/* ---------------------------------------------------------------- function orders */
static uint64_t
rd(const unsigned char *p, int n, int big)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
    return v;
}

/* 1 when the ELF object PATH has code in a section named .text, 0 when
 * not, -1 when it is not an ELF file that can be read. */
static int
plain_text(const char *path)
{
    size_t n;
    unsigned char *d = (unsigned char *)il_slurp(path, &n);
    int rc = -1;
    if (!d || n < EI_NIDENT || memcmp(d, ELFMAG, SELFMAG))
        goto out;
    int c64 = d[EI_CLASS] == ELFCLASS64, big = d[EI_DATA] == ELFDATA2MSB;
    if (!c64 && d[EI_CLASS] != ELFCLASS32)
        goto out;
    size_t ehsize = c64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    if (n < ehsize)
        goto out;
    uint64_t shoff = c64 ? rd(d + 40, 8, big) : rd(d + 32, 4, big);
    uint64_t shentsize = rd(d + (c64 ? 58 : 46), 2, big);
    uint64_t shnum = rd(d + (c64 ? 60 : 48), 2, big);
    uint64_t shstrndx = rd(d + (c64 ? 62 : 50), 2, big);
    if (shoff == 0 || shentsize < (c64 ? 64u : 40u) || shoff > n)
        goto out;
    const unsigned char *sh0 = d + shoff;
    if (shoff + shentsize > n)
        goto out;
    if (shnum == 0) /* more than 0xff00 sections: the count is in section 0 */
        shnum = c64 ? rd(sh0 + 32, 8, big) : rd(sh0 + 20, 4, big);
    if (shstrndx == SHN_XINDEX)
        shstrndx = rd(sh0 + (c64 ? 40 : 24), 4, big);
    if (shnum > (n - shoff) / shentsize || shstrndx >= shnum)
        goto out;
    const unsigned char *strsh = sh0 + shstrndx * shentsize;
    uint64_t stroff = c64 ? rd(strsh + 24, 8, big) : rd(strsh + 16, 4, big);
    uint64_t strsize = c64 ? rd(strsh + 32, 8, big) : rd(strsh + 20, 4, big);
    if (stroff > n || strsize > n - stroff)
        goto out;
    rc = 0;
    for (uint64_t i = 0; i < shnum && !rc; i++) {
        const unsigned char *sh = sh0 + i * shentsize;
        uint64_t name = rd(sh, 4, big);
        uint64_t size = c64 ? rd(sh + 32, 8, big) : rd(sh + 20, 4, big);
        if (name + 6 <= strsize && !memcmp(d + stroff + name, ".text", 6) && size > 0)
            rc = 1;
    }
out:
    free(d);
    return rc;
}

void
il_symorder_write(const struct il_link *l)
{
    /* lld offers two ways to move functions: --shuffle-sections=GLOB=SEED
     * and --symbol-ordering-file.  The ordering file is ours: the order
     * then comes from our generator (lld's shuffle is std::mt19937 fed to
     * llvm::shuffle, free to change between lld versions), the object order
     * still means something (functions are shuffled within each object and
     * objects follow the binary's object order), and the file is kept. */
    if (l->raw_ld) {
        const char *b = strrchr(l->cmd.v[0], '/');
        b = b ? b + 1 : l->cmd.v[0];
        if (strncmp(b, "ld.lld", 6))
            errx(1,
                 "--granularity function needs lld; the link command runs '%s' directly; "
                 "use ld.lld or a compiler driver",
                 l->cmd.v[0]);
    } else {
        char *lld = il_which("ld.lld");
        if (!lld)
            errx(1, "--granularity function needs lld: ld.lld not found in PATH");
        free(lld);
    }
    /* Code in a plain .text section cannot be moved function by function. */
    for (size_t i = 0; i < l->nobj; i++) {
        const char *p = l->obj[i].path;
        char *full = il_xmalloc(strlen(l->cwd) + strlen(p) + 2);
        sprintf(full, "%s/%s", p[0] == '/' ? "" : l->cwd, p);
        int rc = plain_text(p[0] == '/' ? p : full);
        free(full);
        if (rc < 0)
            errx(1, "--granularity function needs ELF objects; '%s' is not one", l->obj[i].name);
        if (rc > 0)
            errx(1,
                 "--granularity function needs objects compiled with -ffunction-sections; "
                 "'%s' has its code in one .text section",
                 l->obj[i].name);
    }
    /* One nm over all the objects (a fork per object costs seconds on large
     * programs).  With several files, nm prints "FILE:" before each. */
    struct il_strv argv = {0};
    il_strv_push(&argv, "nm");
    il_strv_push(&argv, "-P");
    il_strv_push(&argv, "--defined-only");
    il_strv_push(&argv, "--");
    for (size_t i = 0; i < l->nobj; i++)
        il_strv_push(&argv, l->obj[i].path);
    char *out = il_xasprintf("%s/nm", l->tmp), *log = il_xasprintf("%s/nm.log", l->tmp);
    if (il_run_to(argv.v, l->cwd, out, log) != 0) {
        char *m = il_slurp(log, NULL);
        if (m)
            m[strcspn(m, "\n")] = 0;
        errx(1, "nm cannot read the objects: %s", m ? m : "(no message)");
    }
    il_strv_free(&argv);
    char *text = il_slurp(out, NULL);
    if (!text)
        err(1, "cannot read %s", out);
    unlink(out);
    unlink(log);
    free(out);
    free(log);
    /* Each object's functions (types T t W), sorted by name, once each. */
    struct il_strv *fn = il_xcalloc(l->nobj, sizeof *fn);
    size_t cur = 0, *nfn = il_xcalloc(l->nobj, sizeof *nfn);
    uint32_t **perm = il_xcalloc(l->nobj, sizeof *perm);
    /* cur: the object whose lines these are; before the first header, none
     * (only one object: nm prints no header) */
    long hdr = l->nobj > 1 ? -1 : 0;
    for (char *s = text, *e; *s; s = e + (*e != 0)) {
        e = strchrnul(s, '\n');
        char c = *e;
        *e = 0;
        size_t n = strlen(s);
        const char *next = hdr + 1 < (long)l->nobj ? l->obj[hdr + 1].path : NULL;
        if (l->nobj > 1 && next && n == strlen(next) + 1 && s[n - 1] == ':' &&
            !memcmp(s, next, n - 1)) {
            hdr++;
        } else {
            cur = hdr < 0 ? 0 : (size_t)hdr;
            char type[8];
            char *line = three_fields(s, type, sizeof type);
            line[strcspn(line, " ")] = 0;
            if (!strcmp(type, "T") || !strcmp(type, "t") || !strcmp(type, "W"))
                il_strv_push_own(&fn[cur], line);
            else
                free(line);
        }
        *e = c;
    }
    free(text);
    for (size_t i = 0; i < l->nobj; i++) {
        if (fn[i].n)
            qsort(fn[i].v, fn[i].n, sizeof *fn[i].v, by_str);
        size_t u = 0;
        for (size_t j = 0; j < fn[i].n; j++)
            if (!u || strcmp(fn[i].v[u - 1], fn[i].v[j]))
                fn[i].v[u++] = fn[i].v[j];
            else
                free(fn[i].v[j]);
        fn[i].n = u;
        nfn[i] = u;
        perm[i] = il_xmalloc((u ? u : 1) * sizeof **perm);
    }
    out = il_xasprintf("%s/symorder", l->tmp);
    if (mkdir(out, 0777) < 0)
        err(1, "cannot create %s", out);
    free(out);
    /* Function orders for binary k: stream k; draws go through the objects
     * in alphabetical order, so they do not depend on the object order. */
    for (size_t k = 2; k < l->k; k++) {
        il_functions_shuffle(l->seed, (uint32_t)k, il_order(&l->ord, 1), l->nobj, nfn, perm);
        char id[32];
        il_id(l, k, id, sizeof id);
        out = il_xasprintf("%s/symorder/%s", l->tmp, id);
        FILE *f = fopen(out, "w");
        if (!f)
            err(1, "cannot create %s", out);
        const uint32_t *o = il_order(&l->ord, k);
        for (size_t i = 0; i < l->nobj; i++)
            for (size_t j = 0; j < nfn[o[i]]; j++)
                fprintf(f, "%s\n", fn[o[i]].v[perm[o[i]][j]]);
        if (fclose(f) != 0)
            err(1, "cannot write %s", out);
        free(out);
    }
    for (size_t i = 0; i < l->nobj; i++) {
        il_strv_free(&fn[i]);
        free(perm[i]);
    }
    free(fn);
    free(nfn);
    free(perm);
}

/* ---------------------------------------------------------------- manifest */
static json_t *
jstr(const char *s)
{
    json_t *j = json_string(s);
    if (!j)
        errx(1, "'%s' is not valid UTF-8: the manifest cannot record it; rename it", s);
    return j;
}

static json_t *
jlist(char *const *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, jstr(v[i]));
    return a;
}

/* "  "KEY": VALUE,\n" into B; VALUE is consumed. */
static void
field(struct il_buf *b, const char *key, json_t *v)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY);
    if (!s)
        errx(1, "cannot encode the manifest's %s", key);
    il_buf_str(b, "  \"");
    il_buf_str(b, key);
    il_buf_str(b, "\": ");
    il_buf_str(b, s);
    il_buf_str(b, ",\n");
    free(s);
    json_decref(v);
}

void
il_manifest_begin(struct il_link *l)
{
    struct il_buf b = {0};
    il_buf_str(&b, "{\n");
    field(&b, IL_M_SCHEMA, json_string(IL_LINK_SCHEMA));
    field(&b, IL_M_VERSION, jstr(IL_VERSION));
    field(&b, IL_M_PROGRAM, jstr(l->prog));
    field(&b, IL_M_SEED, json_integer(l->seed));
    field(&b, IL_M_SEED_GIVEN, json_boolean(l->seed_given));
    field(&b, IL_M_PRNG,
          json_string("xoshiro128** seeded through murmur3 fmix32; "
                      "Fisher-Yates from the alphabetical order"));
    field(&b, IL_M_ORDERS, json_integer((json_int_t)l->k));
    field(&b, IL_M_GRANULARITY, json_string(l->function ? "function" : "object"));
    field(&b, IL_M_CWD, jstr(l->cwd));
    field(&b, IL_M_COMMAND, jlist(l->cmd.v, l->cmd.n));
    json_t *names = json_array(), *files = json_array();
    for (size_t i = 0; i < l->nobj; i++) {
        json_array_append_new(names, jstr(l->obj[i].name));
        json_array_append_new(files, jstr(l->obj[i].path));
    }
    field(&b, IL_M_OBJECTS, names);
    field(&b, IL_M_OBJECT_FILES, files);
    field(&b, IL_M_ARCHIVE_MODE, json_string(l->mode));
    json_t *ars = json_array();
    for (size_t i = 0; i < l->nar; i++) {
        const struct il_expanded *e = &l->ar[i];
        json_t *a = json_object();
        json_object_set_new(a, IL_M_ARGUMENT, jstr(e->argument));
        json_object_set_new(a, IL_M_PATH, jstr(e->path));
        json_object_set_new(a, IL_M_MEMBERS, jlist(e->members.v, e->members.n));
        json_object_set_new(a, IL_M_FILES, jlist(e->files.v, e->files.n));
        json_object_set_new(a, IL_M_LEFT_OUT, jlist(e->left.v, e->left.n));
        json_array_append_new(ars, a);
    }
    field(&b, IL_M_ARCHIVES, ars);
    l->manifest_head = b.p;
}

void
il_manifest_binary(struct il_link *l, size_t j, const char *fp, const char *tfp, const char *sha)
{
    char id[32];
    if (j == 0) {
        char *path = il_xasprintf("%s/manifest.json", l->tmp);
        l->manifest = fopen(path, "w");
        if (!l->manifest)
            err(1, "cannot create %s", path);
        free(path);
        fprintf(l->manifest, "%s  \"%s\": %s,\n  \"%s\": [\n", l->manifest_head, IL_M_REPRODUCIBLE,
                l->reproducible ? "true" : "false", IL_M_BINARIES);
    }
    il_id(l, j, id, sizeof id);
    char *file = il_xasprintf("%s.%s", l->prog, id), *so = il_xasprintf("symorder/%s", id);
    char *path = il_xasprintf("%s/%s", l->tmp, so);
    json_t *b = json_object();
    json_object_set_new(b, IL_M_ID, json_string(id));
    json_object_set_new(b, IL_M_FILE, jstr(file));
    json_object_set_new(b, IL_M_KIND, json_string(l->ord.kind[j]));
    json_object_set_new(b, IL_M_FINGERPRINT, json_string(fp));
    json_object_set_new(b, IL_M_TEXT_FINGERPRINT, json_string(tfp));
    json_object_set_new(b, IL_M_SHA256, json_string(sha));
    if (l->function && access(path, F_OK) == 0)
        json_object_set_new(b, IL_M_SYMBOL_ORDER, json_string(so));
    json_t *order = json_array();
    const uint32_t *o = il_order(&l->ord, j);
    for (size_t i = 0; i < l->nobj; i++)
        json_array_append_new(order, jstr(l->obj[o[i]].name));
    json_object_set_new(b, IL_M_ORDER, order);
    char *s = json_dumps(b, JSON_PRESERVE_ORDER);
    if (!s)
        errx(1, "cannot encode the manifest's binary %s", id);
    fprintf(l->manifest, "    %s%s\n", s, j + 1 < l->k ? "," : "");
    free(s);
    free(file);
    free(so);
    free(path);
    json_decref(b);
}

void
il_manifest_end(struct il_link *l)
{
    fprintf(l->manifest, "  ]\n}\n");
    if (fclose(l->manifest) != 0)
        err(1, "cannot write the manifest in %s", l->tmp);
    l->manifest = NULL;
}
