/*
 * il_lines.h: text files read line by line, plain or compressed, for the
 * commands that read records (report, plan, plot, record merge).  A file
 * that starts with gzip's magic bytes is inflated with zlib, one that
 * starts with zstd's with libzstd, whatever its name; "-" is the standard
 * input, which may be compressed too.  A plain regular file can be read
 * in parts (byte ranges, each extended as it is read), so that two
 * threads read one file.  Reads are 128 KiB at a time into a buffer that
 * stays in the cache (common/lines.c).
 */
#ifndef IL_LINES_H
#define IL_LINES_H

#include <stddef.h>
#include <sys/types.h>

enum il_lines_kind { IL_LINES_PLAIN, IL_LINES_GZIP, IL_LINES_ZSTD };

struct il_lines {
    const char *name; /* as given, for messages */
    int fd, own_fd;
    int regular; /* fd is a regular file (fstat at the open), which can be read again */
    enum il_lines_kind kind;
    char *buf; /* decoded text: [beg, end) not yet returned */
    size_t cap, beg, end;
    int eof;           /* no more text after end */
    off_t off;         /* plain: the next byte to read */
    off_t stop;        /* plain: read up to here (-1: to the end) */
    void *z;           /* the decompressor */
    unsigned char *in; /* compressed bytes: [inbeg, inend) not yet used */
    size_t incap, inbeg, inend;
    int ineof, zdone;
    int newline;   /* the line il_lines_next returned ended with a newline */
    char err[256]; /* why il_lines_next returned -1 */
};

/* Open PATH ("-": the standard input) and tell plain from compressed by
 * its first bytes; 0, or -1 with errno. */
int il_lines_open(struct il_lines *l, const char *path);
/* A second reader of the plain regular file that src reads (the same
 * descriptor, which stays src's to close), for il_lines_range. */
void il_lines_share(struct il_lines *dst, const struct il_lines *src);
/* Read only the bytes [from, to) of a plain regular file opened with
 * il_lines_open, before any line was read; 0, or -1 (not plain). */
int il_lines_range(struct il_lines *l, off_t from, off_t to);
/* Read on up to to (past the range's end, where the last line read
 * ended after its newline) in a range set with il_lines_range. */
void il_lines_extend(struct il_lines *l, off_t to);
/* The next line without its newline (the last one may have none): 1 with
 * *s and *n (valid until the next call), 0 at the end, -1 on an error,
 * which l->err says in a few words ("read error: ...", "corrupt gzip
 * data: ..."). */
int il_lines_next(struct il_lines *l, const char **s, size_t *n);
/* The text read and not yet returned: *s, *n bytes (0: none); it may end
 * within a line.  Valid until the next call. */
void il_lines_peek(const struct il_lines *l, const char **s, size_t *n);
/* Return the first n bytes that il_lines_peek showed, and the newline the
 * caller saw after them, as the next line: what il_lines_next would have
 * returned when they hold no newline. */
void il_lines_take(struct il_lines *l, size_t n);
void il_lines_close(struct il_lines *l);
/* The size of a plain regular file opened with il_lines_open, or -1. */
off_t il_lines_size(const struct il_lines *l);
/* The offset just past the first newline at or after off in a plain
 * regular file (reading from its descriptor), or -1 when none. */
off_t il_lines_cut(const struct il_lines *l, off_t off);

#endif
