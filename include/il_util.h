/*
 * il_util.h: the helpers every interloper C command shares (run, sweep,
 * record merge, link, cc): growing strings and string vectors, JSON and
 * sh quoting, UTF-8 (common/text.c), PATH lookup, whole reads and writes,
 * clocks (common/system.c), with allocation that cannot fail (il_xalloc.h).
 * One copy of each, for commands that need none of each other's types.
 * Not used by the library, which allocates nothing before main; these may
 * allocate and exit on failure.
 */
#ifndef IL_UTIL_H
#define IL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "il_xalloc.h"

/* ------------------------------------------------------------ text.c */
/* A growing string, always terminated. */
struct il_buf {
    char *p;
    size_t n, cap;
};
void il_buf_add(struct il_buf *b, const char *s, size_t n);
void il_buf_str(struct il_buf *b, const char *s);
void il_buf_printf(struct il_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string, quotes included (control bytes as \u00XX) */
void il_buf_json(struct il_buf *b, const char *s);
/* UTF-8: the length of the sequence at p (0: not one); whether s is all
 * UTF-8; a copy with every other byte taken as Latin-1. */
size_t il_utf8_len(const unsigned char *p);
int il_utf8_ok(const char *s);
char *il_utf8_fix(const char *s);
/* s as one sh word in single quotes, a quote in it as '\''; with nl, each
 * newline as nl instead (which ends and reopens the quotes, like '\'') */
void il_buf_shell(struct il_buf *b, const char *s, const char *nl);
/* s as one sh word, quoted only when it must be */
void il_buf_word(struct il_buf *b, const char *s);
void il_buf_free(struct il_buf *b);

/* A growing vector of strings it owns, NULL-terminated (usable as an
 * argv): a copy of str, or str itself (malloc'd). */
struct il_strv {
    char **v;
    size_t n, cap;
};
void il_strv_push(struct il_strv *s, const char *str);
void il_strv_push_own(struct il_strv *s, char *str);
void il_strv_free(struct il_strv *s);

/* ------------------------------------------------------------ system.c */
/* PROG as exec would find it: a path if it has a '/', else the first
 * executable regular file of that name in PATH (when PATH is not set,
 * /usr/bin:/bin; an empty entry is the current directory).  NULL if none. */
char *il_find_program(const char *prog);
/* The same made absolute, and NULL when a path with a '/' is not
 * executable. */
char *il_which(const char *name);

/* Write all of s, retrying short writes; 0 or -1 with errno. */
int il_write_full(int fd, const void *s, size_t n);
/* A file's contents, NUL-terminated, their length in *len (when len is
 * not NULL); NULL with errno when it cannot be read. */
char *il_slurp(const char *path, size_t *len);
/* Seconds since the epoch as "2026-11-22T14:20:45Z". */
void il_utc_now(char out[32]);
/* A monotonic clock in seconds. */
double il_now(void);
/* Exit with one line unless the file at path (absolute, or relative to
 * the current directory) can be written later: its directory exists and is
 * writable, and the file, if it exists, is writable and not a directory.
 * opt names the option in the message ("--output"). */
void il_check_writable(const char *opt, const char *path);

#endif
