/*
 * SHA-256 (FIPS 180-4), for the sha256:{hex} digests of the MCP Skills
 * extension (SEP-2640). An embedded context: sha256_init(), any number of
 * sha256_update() calls, then sha256_final(). Nothing is allocated.
 */
#ifndef SR_SHA256_H
#define SR_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN	32
#define SHA256_HEX_LEN		64

struct sha256 {
	uint32_t	 h[8];
	uint64_t	 nbytes;	/* total bytes hashed */
	uint8_t		 block[64];
	size_t		 fill;		/* bytes waiting in block */
};

void	 sha256_init(struct sha256 *);
void	 sha256_update(struct sha256 *, const void *, size_t);
/* Writes the 32-byte digest; the context must be re-initialised after. */
void	 sha256_final(struct sha256 *, uint8_t out[SHA256_DIGEST_LEN]);

/* Hashes data in one call and writes 64 lowercase hex digits plus NUL. */
void	 sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN + 1]);

#endif
