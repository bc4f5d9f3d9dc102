/*
 * il_hset.h: the one hash set of the commands (common/hset.c): byte strings
 * (label values, run ids, group keys, link orders), each given a dense id,
 * 0, 1, ... in the order it was first added, and found again in constant
 * time.  Open addressing with linear probing over 64-bit FNV-1a hashes,
 * at most half full.  The set keeps a copy of each key, followed by a NUL
 * (so a string key reads back as a C string).  A zeroed struct is an
 * empty set; allocation failure ends the program (il_xalloc.h).
 */
#ifndef IL_HSET_H
#define IL_HSET_H

#include <stddef.h>
#include <stdint.h>

#define IL_HSET_NONE UINT32_MAX

struct il_hset {
    char **key;     /* id -> its bytes, NUL after them */
    size_t *len;    /* id -> its length */
    uint64_t *hash; /* id -> its hash */
    uint32_t *slot; /* the table: an id, or IL_HSET_NONE */
    size_t n, cap, nslot;
};

/* The id of the N bytes at K, added when new; *added (when not NULL) says
 * whether it was. */
uint32_t il_hset_add(struct il_hset *s, const void *k, size_t n, int *added);
/* The id of the N bytes at K, or IL_HSET_NONE. */
uint32_t il_hset_find(const struct il_hset *s, const void *k, size_t n);
void il_hset_free(struct il_hset *s);
/* 64-bit FNV-1a of N bytes. */
uint64_t il_fnv1a(const void *k, size_t n);

#endif
