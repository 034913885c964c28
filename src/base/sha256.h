/*
 * SHA-256, for the sha256:{hex} digests of the MCP Skills extension
 * (SEP-2640), telemetry's HMAC and the embedding cache keys. A thin name
 * over libsodium's crypto_hash_sha256 (no hand-written crypto): an
 * embedded context, sha256_init(), any number of sha256_update() calls,
 * then sha256_final(). Nothing is allocated.
 */
#ifndef SR_SHA256_H
#define SR_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#define SHA256_DIGEST_LEN	32
#define SHA256_HEX_LEN		64

struct sha256 {
	crypto_hash_sha256_state st;
};

void	 sha256_init(struct sha256 *);
void	 sha256_update(struct sha256 *, const void *, size_t);
/* Writes the 32-byte digest; the context must be re-initialised after. */
void	 sha256_final(struct sha256 *, uint8_t out[SHA256_DIGEST_LEN]);

/* Hashes data in one call and writes 64 lowercase hex digits plus NUL. */
void	 sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN + 1]);

#endif
