/*
 * archive.h: static archives (ar(1) files) for interloper link's
 * --archives: find one named by -lNAME, list and extract its members, and
 * read from a linker's trace which members a link used.
 */
#ifndef IL_ARCHIVE_H
#define IL_ARCHIVE_H

#include <stddef.h>

#include "linkcmd.h"

struct il_member {
    char *name;       /* as the archive names it (a path in a thin archive) */
    size_t off, size; /* the data, in the archive's bytes (not thin) */
    int object;       /* an ELF object or LLVM bitcode: something to link */
    int dup;          /* 1 for the first member of its name, 2 the second... */
};

struct il_archive {
    char *path; /* as the link command names it or as found (dir/libNAME.a) */
    char *real; /* its canonical absolute path */
    int thin;   /* !<thin>: members are files beside it */
    unsigned char *data;
    size_t size;
    struct il_member *m;
    size_t n;
};

/* The static archive that -lSPEC (SPEC without the -l; ":FILE" names a file)
 * names through the -L directories DIRS, relative to CWD: the first
 * libSPEC.so or libSPEC.a in a directory, in order, .so first unless
 * STATIC_ONLY.  Returns its path (malloc'd), or NULL when DIRS hold none or
 * a shared library comes first. */
char *il_ar_find(const char *spec, const struct il_strv *dirs, int static_only, const char *cwd);

/* Read the archive at PATH (relative to CWD).  Returns 0, or -1 with a
 * message in ERR (ERRLEN bytes). */
int il_ar_open(struct il_archive *a, const char *path, const char *cwd, char *err, size_t errlen);
void il_ar_close(struct il_archive *a);

/* Write member M's bytes to the file OUT.  Returns 0, or -1 with errno. */
int il_ar_extract(const struct il_archive *a, const struct il_member *m, const char *out);

/* Which members of A did a link load?  TRACE is the linker's output with
 * --trace given twice: GNU ld writes "(ARCHIVE)MEMBER", lld and gold
 * "ARCHIVE(MEMBER)", ARCHIVE as the linker opened it, relative to CWD.
 * Sets USED[i] for each member i loaded.  Returns the number of members
 * loaded, or -1 when a name that several members share was loaded fewer
 * times than it occurs (which of them is unknown); NAME is then that name. */
long il_ar_used(const struct il_archive *a, const char *trace, const char *cwd, char *used,
                const char **name);

#endif
