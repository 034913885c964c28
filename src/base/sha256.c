/*
 * SHA-256 through libsodium (sha256.h). crypto_hash_sha256 needs no
 * sodium_init(): it uses no random numbers and no CPU dispatch state.
 */
#include "autoconfig.h"

#include "base/sha256.h"

void
sha256_init(struct sha256 *c)
{
	crypto_hash_sha256_init(&c->st);
}

void
sha256_update(struct sha256 *c, const void *data, size_t len)
{
	crypto_hash_sha256_update(&c->st, data, len);
}

void
sha256_final(struct sha256 *c, uint8_t out[SHA256_DIGEST_LEN])
{
	crypto_hash_sha256_final(&c->st, out);
}

void
sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	uint8_t	 d[SHA256_DIGEST_LEN];

	crypto_hash_sha256(d, data, len);
	sodium_bin2hex(out, SHA256_HEX_LEN + 1, d, sizeof d);
}
