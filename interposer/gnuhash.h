/*
 * gnuhash.h: one object's dynamic symbols, looked up in its GNU hash
 * table (bind.c; tests/unit/test_gnuhash.c, which builds tables the
 * loader never would).
 */
#ifndef IL_GNUHASH_H
#define IL_GNUHASH_H

#include <elf.h>
#include <link.h>
#include <stdint.h>

#include "interloper.h"

/* One object's dynamic symbol table, its string table's size, and its GNU
 * hash table's parts. */
struct dso {
    uintptr_t base;
    const ElfW(Sym) * sym;
    const char *str;
    size_t strsz;        /* DT_STRSZ: no byte at or past str + strsz is read */
    const uint32_t *gnu; /* DT_GNU_HASH */
    const uint16_t *versym;
    uint32_t nbuckets, symoffset, bloom_mask, shift;
    const ElfW(Addr) * bloom;
    const uint32_t *buckets, *chain;
};

/* A hash's word in the Bloom filter, before the mask: a constant for a
 * constant hash (bind.c's table), not worked out again in each object. */
#define DSO_BLOOM_BITS (8 * sizeof(ElfW(Addr)))
#define DSO_BLOOM_WORD(h) ((uint32_t)((h) / DSO_BLOOM_BITS))

/* A defined, exported function or object named name (len bytes with its
 * NUL, hash h, Bloom word hword = DSO_BLOOM_WORD(h)), its default
 * version (the hidden bit clear), or 0.  A chain entry
 * is looked at only when its hash matches, which is one entry in most
 * chains.  A name compares a word at a time, len bytes of both (a string
 * shorter than the name differs within them), and only where the string
 * table holds len bytes from the entry's name on: a string that starts
 * fewer than len bytes before the table's end ends there too, so it is
 * shorter than the name, and nothing past the table is read. */
static inline uintptr_t
dso_lookup(const struct dso *d, const char *name, size_t len, uint32_t h, uint32_t hword)
{
    const unsigned bits = DSO_BLOOM_BITS;
    ElfW(Addr) word = d->bloom[hword & d->bloom_mask];
    if (!((word >> (h % bits)) & (word >> ((h >> d->shift) % bits)) & 1))
        return 0;
    uint32_t i = d->buckets[h % d->nbuckets];
    if (i < d->symoffset)
        return 0;
    for (const uint32_t *c = d->chain + (i - d->symoffset);; i++, c++) {
        uint32_t h2 = *c;
        if (!((h ^ h2) >> 1)) {
            const ElfW(Sym) *s = &d->sym[i];
            int type = ELF64_ST_TYPE(s->st_info), bind = ELF64_ST_BIND(s->st_info);
            if (s->st_shndx != SHN_UNDEF && (type == STT_FUNC || type == STT_OBJECT) &&
                (bind == STB_GLOBAL || bind == STB_WEAK) &&
                !(d->versym && (d->versym[i] & 0x8000)) && s->st_name + len <= d->strsz &&
                il_same_bytes(d->str + s->st_name, name, len))
                return d->base + s->st_value;
        }
        if (h2 & 1)
            return 0;
    }
}

#endif
