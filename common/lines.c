/*
 * lines.c: text files read line by line, plain, gzip or zstd
 * (include/il_lines.h).
 *
 * Plain text is read 128 KiB at a time into a buffer that stays in the
 * cache (larger reads cost the kernel's copy more than they save in
 * calls: 0.6 s against 0.15 s per GB on the development VM), and lines
 * are found with memchr.  Compressed text is decoded into the same buffer
 * by zlib (every member of a concatenated gzip file) or libzstd (every
 * frame), so that a compressed file costs what its decompressor costs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "il_lines.h"
#include "il_xalloc.h"

#define IL_LINES_CHUNK (128 * 1024)

static const unsigned char gz_magic[2] = {0x1f, 0x8b};
static const unsigned char zst_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

static int
fail(struct il_lines *l, const char *what, const char *detail)
{
    snprintf(l->err, sizeof l->err, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
    return -1;
}

static ssize_t
read_some(int fd, void *p, size_t n)
{
    ssize_t r;
    do
        r = read(fd, p, n);
    while (r < 0 && errno == EINTR);
    return r;
}

/* More compressed bytes into in (after what is left); 0 or -1. */
static int
fill_in(struct il_lines *l)
{
    if (l->inbeg > 0) {
        memmove(l->in, l->in + l->inbeg, l->inend - l->inbeg);
        l->inend -= l->inbeg;
        l->inbeg = 0;
    }
    if (l->inend == l->incap || l->ineof)
        return 0;
    ssize_t r = read_some(l->fd, l->in + l->inend, l->incap - l->inend);
    if (r < 0)
        return fail(l, "read error", strerror(errno));
    if (r == 0)
        l->ineof = 1;
    l->inend += (size_t)r;
    return 0;
}

static int
start_decoder(struct il_lines *l)
{
    if (l->kind == IL_LINES_GZIP) {
        z_stream *zs = il_xcalloc(1, sizeof *zs);
        if (inflateInit2(zs, 16 + MAX_WBITS) != Z_OK) {
            free(zs);
            return fail(l, "cannot start zlib", NULL);
        }
        l->z = zs;
    } else {
        ZSTD_DStream *ds = ZSTD_createDStream();
        if (!ds)
            return fail(l, "cannot start libzstd", NULL);
        l->z = ds;
    }
    return 0;
}

/* Decode into buf[end, cap); sets eof at the end of the stream. */
static int
fill_gzip(struct il_lines *l)
{
    z_stream *zs = l->z;
    size_t before = l->end;
    while (l->end == before && !l->eof) {
        if (l->inbeg == l->inend && !l->ineof && fill_in(l) < 0)
            return -1;
        if (l->zdone) {
            /* a member ended: another may follow (gzip a b > c) */
            if (l->inbeg == l->inend && l->ineof) {
                l->eof = 1;
                break;
            }
            if (inflateReset(zs) != Z_OK)
                return fail(l, "corrupt gzip data", NULL);
            l->zdone = 0;
        }
        zs->next_in = l->in + l->inbeg;
        zs->avail_in = (uInt)(l->inend - l->inbeg);
        zs->next_out = (Bytef *)l->buf + l->end;
        zs->avail_out = (uInt)(l->cap - l->end);
        int r = inflate(zs, Z_NO_FLUSH);
        l->inbeg = l->inend - zs->avail_in;
        l->end = l->cap - zs->avail_out;
        if (r == Z_STREAM_END)
            l->zdone = 1;
        else if (r == Z_BUF_ERROR && l->inbeg == l->inend && l->ineof)
            return fail(l, "corrupt gzip data", "unexpected end of file");
        else if (r != Z_OK && r != Z_BUF_ERROR)
            return fail(l, "corrupt gzip data", zs->msg ? zs->msg : "inflate failed");
    }
    return 0;
}

static int
fill_zstd(struct il_lines *l)
{
    size_t before = l->end;
    while (l->end == before && !l->eof) {
        if (l->inbeg == l->inend) {
            if (!l->ineof && fill_in(l) < 0)
                return -1;
            if (l->inbeg == l->inend && l->ineof) {
                if (!l->zdone)
                    return fail(l, "corrupt zstd data", "unexpected end of file");
                l->eof = 1;
                break;
            }
        }
        ZSTD_inBuffer in = {l->in + l->inbeg, l->inend - l->inbeg, 0};
        ZSTD_outBuffer out = {l->buf + l->end, l->cap - l->end, 0};
        size_t r = ZSTD_decompressStream(l->z, &out, &in);
        if (ZSTD_isError(r))
            return fail(l, "corrupt zstd data", ZSTD_getErrorName(r));
        l->inbeg += in.pos;
        l->end += out.pos;
        l->zdone = r == 0; /* a frame ended here */
    }
    return 0;
}

static int
fill_plain(struct il_lines *l)
{
    size_t want = l->cap - l->end;
    if (l->stop >= 0 && (off_t)want > l->stop - l->off)
        want = (size_t)(l->stop - l->off);
    if (want == 0) {
        l->eof = 1;
        return 0;
    }
    ssize_t r;
    if (l->stop >= 0) {
        do
            r = pread(l->fd, l->buf + l->end, want, l->off);
        while (r < 0 && errno == EINTR);
    } else {
        r = read_some(l->fd, l->buf + l->end, want);
    }
    if (r < 0)
        return fail(l, "read error", strerror(errno));
    if (r == 0)
        l->eof = 1;
    l->end += (size_t)r;
    l->off += r;
    return 0;
}

int
il_lines_open(struct il_lines *l, const char *path)
{
    memset(l, 0, sizeof *l);
    l->name = path;
    l->stop = -1;
    if (strcmp(path, "-") == 0) {
        l->fd = 0;
    } else {
        l->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (l->fd < 0)
            return -1;
        l->own_fd = 1;
    }
    l->cap = IL_LINES_CHUNK;
    l->buf = il_xmalloc(l->cap);
    /* The first bytes tell the kind: peeked at in a regular file, read
     * into the compressed buffer from anything else. */
    unsigned char head[4];
    size_t nh = 0;
    struct stat st;
    l->regular = fstat(l->fd, &st) == 0 && S_ISREG(st.st_mode);
    if (l->regular) {
        ssize_t r;
        do
            r = pread(l->fd, head, sizeof head, 0);
        while (r < 0 && errno == EINTR);
        nh = r > 0 ? (size_t)r : 0;
        l->incap = IL_LINES_CHUNK / 2;
        l->in = il_xmalloc(l->incap);
    } else {
        l->incap = IL_LINES_CHUNK / 2;
        l->in = il_xmalloc(l->incap);
        while (l->inend < sizeof head && !l->ineof)
            if (fill_in(l) < 0) {
                int e = errno;
                il_lines_close(l);
                errno = e;
                return -1;
            }
        nh = l->inend < sizeof head ? l->inend : sizeof head;
        memcpy(head, l->in, nh);
    }
    if (nh >= 2 && memcmp(head, gz_magic, 2) == 0)
        l->kind = IL_LINES_GZIP;
    else if (nh >= 4 && memcmp(head, zst_magic, 4) == 0)
        l->kind = IL_LINES_ZSTD;
    if (l->kind != IL_LINES_PLAIN) {
        if (start_decoder(l) < 0) {
            il_lines_close(l);
            errno = ENOMEM;
            return -1;
        }
    } else if (l->inend) {
        /* plain text read from a pipe: it is the first text */
        memcpy(l->buf, l->in, l->inend);
        l->end = l->inend;
        l->eof = l->ineof;
    }
    return 0;
}

off_t
il_lines_size(const struct il_lines *l)
{
    struct stat st;
    if (l->kind != IL_LINES_PLAIN || fstat(l->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    return st.st_size;
}

off_t
il_lines_cut(const struct il_lines *l, off_t off)
{
    char b[4096];
    for (;;) {
        ssize_t r = pread(l->fd, b, sizeof b, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        const char *nl = memchr(b, '\n', (size_t)r);
        if (nl)
            return off + (nl - b) + 1;
        off += r;
    }
}

void
il_lines_share(struct il_lines *dst, const struct il_lines *src)
{
    memset(dst, 0, sizeof *dst);
    dst->name = src->name;
    dst->fd = src->fd;
    dst->stop = -1;
    dst->cap = IL_LINES_CHUNK;
    dst->buf = il_xmalloc(dst->cap);
}

int
il_lines_range(struct il_lines *l, off_t from, off_t to)
{
    if (l->kind != IL_LINES_PLAIN || il_lines_size(l) < 0)
        return -1;
    l->off = from;
    l->stop = to;
    l->beg = l->end = 0;
    l->eof = 0;
    return 0;
}

void
il_lines_extend(struct il_lines *l, off_t to)
{
    l->stop = to;
    l->eof = 0;
}

int
il_lines_next(struct il_lines *l, const char **s, size_t *n)
{
    size_t scanned = l->beg;
    for (;;) {
        const char *nl = scanned < l->end ? memchr(l->buf + scanned, '\n', l->end - scanned) : NULL;
        if (nl) {
            *s = l->buf + l->beg;
            *n = (size_t)(nl - *s);
            l->beg = (size_t)(nl - l->buf) + 1;
            l->newline = 1;
            return 1;
        }
        if (l->eof) {
            if (l->beg == l->end)
                return 0;
            *s = l->buf + l->beg;
            *n = l->end - l->beg;
            l->beg = l->end;
            l->newline = 0;
            return 1;
        }
        /* no newline in what is left: keep it, make room, read more */
        if (l->beg > 0) {
            memmove(l->buf, l->buf + l->beg, l->end - l->beg);
            l->end -= l->beg;
            l->beg = 0;
        }
        scanned = l->end;
        if (l->end == l->cap) {
            l->cap *= 2;
            l->buf = il_xrealloc(l->buf, l->cap);
        }
        int r = l->kind == IL_LINES_GZIP   ? fill_gzip(l)
                : l->kind == IL_LINES_ZSTD ? fill_zstd(l)
                                           : fill_plain(l);
        if (r < 0)
            return -1;
    }
}

void
il_lines_peek(const struct il_lines *l, const char **s, size_t *n)
{
    *s = l->buf + l->beg;
    *n = l->end - l->beg;
}

void
il_lines_take(struct il_lines *l, size_t n)
{
    l->beg += n + 1;
    l->newline = 1;
}

void
il_lines_close(struct il_lines *l)
{
    if (l->z && l->kind == IL_LINES_GZIP) {
        inflateEnd(l->z);
        free(l->z);
    } else if (l->z) {
        ZSTD_freeDStream(l->z);
    }
    if (l->own_fd)
        close(l->fd);
    free(l->buf);
    free(l->in);
    memset(l, 0, sizeof *l);
    l->fd = -1;
}
