/*
 * il_sha256.h: SHA-256 (FIPS 180-4) for the commands (common/sha256.c):
 * the identity of the measured binaries, of a sweep's plan, and of each
 * run's output.
 */
#ifndef IL_SHA256_H
#define IL_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct il_sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t nbuf;
};
void il_sha256_init(struct il_sha256 *c);
void il_sha256_update(struct il_sha256 *c, const void *p, size_t n);
void il_sha256_final(struct il_sha256 *c, unsigned char out[32]);
/* The hex digest of n bytes, of an open descriptor read from offset 0
 * (its size in *size), of a file.  0, or -1 with errno. */
void il_sha256_hex(const void *p, size_t n, char hex[65]);
int il_sha256_fd(int fd, char hex[65], unsigned long long *size);
int il_sha256_file(const char *path, char hex[65]);

#endif
