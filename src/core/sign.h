/*
 * Signed skills: a signature covers a whole skill folder, not SKILL.md
 * alone, since an attack can live in a bundled script.
 *
 * The folder holds a manifest, SKILL.sha256, in sha256sum(1) format: one
 * "<64 hex digits>  <relative path>" line per file of the folder (every
 * regular file at any depth, dot files included, but not the manifest and
 * its signature), and SKILL.sha256.minisig, a minisign(1) signature of
 * the manifest. An author can make both with tools they already have:
 *
 *	find . -type f ! -name 'SKILL.sha256*' -printf '%P\0' |
 *	    LC_ALL=C sort -z | xargs -0 sha256sum > SKILL.sha256
 *	minisign -S -s KEY -m SKILL.sha256
 *
 * or with "skills-radar sign DIR --key KEY", which writes the same two
 * files. Verification needs the manifest to match the folder exactly: a
 * file added, removed or changed after signing breaks it, and so does a
 * symlink that leaves the folder.
 *
 * The keys come from trust.signers: "NAME=KEY" entries where KEY is a
 * minisign public key (the base64 line, "RW...") or the path of a .pub
 * file. The crypto is libsodium's (Ed25519, BLAKE2b, scrypt), never
 * written here.
 */
#ifndef SR_SIGN_H
#define SR_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include "base/strlist.h"

#define SIGN_MANIFEST		"SKILL.sha256"
#define SIGN_SIGNATURE		"SKILL.sha256.minisig"

/* Bounds on what a manifest may cover (files, bytes hashed). */
#define SIGN_MAX_FILES		4096
#define SIGN_MAX_BYTES		(256u << 20)

enum sign_status {
	SIGN_NONE = 0,		/* no SKILL.sha256.minisig */
	SIGN_VALID,		/* verified against a listed key */
	SIGN_UNKNOWN_KEY,	/* signed by a key trust.signers does not list */
	SIGN_CHANGED,		/* the folder no longer matches the manifest */
	SIGN_BAD		/* malformed, or the signature does not verify */
};

struct signer {
	char		*name;
	uint8_t		 keynum[8];
	uint8_t		 pk[32];
};

struct keyring {
	struct signer	*v;
	size_t		 n;
};

/*
 * Parses the trust.signers entries into kr. Returns 0, or -1 with *cause
 * "trust.signers: entry N: message" (free it); kr is then empty.
 */
int	 keyring_load(struct keyring *kr, const struct strlist *entries,
	    char **cause);
void	 keyring_done(struct keyring *);
/* Adds one "NAME=KEY" entry. Returns 0, or -1 with *why (static). */
int	 keyring_add(struct keyring *kr, const char *entry, const char **why);

struct sign_result {
	enum sign_status status;
	char		*signer;	/* SIGN_VALID: the key's name */
	char		 keyid[17];	/* the signature's key id, hex, or "" */
	char		*detail;	/* why it is not valid, or NULL */
};

/*
 * Checks the skill folder dir against kr. Never fails: problems are a
 * status and a detail. Free the result with sign_result_done().
 */
void	 sign_check(const struct keyring *kr, const char *dir,
	    struct sign_result *out);
void	 sign_result_done(struct sign_result *);

/* The rule id of a status other than SIGN_NONE/SIGN_VALID, else NULL. */
const char *sign_rule(enum sign_status);
const char *sign_status_name(enum sign_status);

/*
 * Writes dir/SKILL.sha256 and dir/SKILL.sha256.minisig with the minisign
 * secret key in keyfile (password from the environment variable
 * password_env when the key is encrypted; NULL: refuse encrypted keys).
 * comment is the trusted comment (NULL: a default). On success *keyid
 * gets the key id in hex (17 bytes). Returns an enum sr_status, with
 * *cause set on failure (free it).
 */
int	 sign_dir(const char *dir, const char *keyfile,
	    const char *password_env, const char *comment, char keyid[17],
	    char **cause);

/*
 * Builds the manifest text of dir (sorted, sha256sum format). Returns an
 * enum sr_status; *out is allocated on success, *cause on failure.
 */
int	 sign_manifest(const char *dir, char **out, size_t *len, char **cause);

#endif
