/* sha256.h - SHA-256 for the block probe. */
#ifndef SHA256_H
#define SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	size_t fill;
	unsigned char buf[64];
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const unsigned char *p, size_t n);
void sha256_hex(struct sha256 *s, char out[65]); /* finishes s */

#endif
