/*
 * Signed skills (sign.h): the minisign file formats, the folder manifest,
 * and the check that earns a skill the VERIFIED tier.
 *
 * minisign's formats, as its tool writes them:
 *   public key  "untrusted comment: ..." then base64 of
 *               "Ed" | key id (8) | Ed25519 public key (32)
 *   secret key  base64 of "Ed" | kdf "Sc" or "\0\0" | "B2" | salt (32) |
 *               opslimit (8, LE) | memlimit (8, LE) | then, XORed with an
 *               scrypt stream when kdf is "Sc": key id (8) | secret key
 *               (64) | BLAKE2b-256 of "Ed" | key id | secret key
 *   signature   "untrusted comment: ...", base64 of "Ed" or "ED" | key id
 *               | signature (64) of the file ("Ed") or of its BLAKE2b-512
 *               ("ED"); "trusted comment: TEXT"; base64 of the signature
 *               of (signature | TEXT), the global signature.
 */
#include "autoconfig.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "base/text.h"
#include "base/buf.h"
#include "core/config.h"
#include "core/sign.h"
#include "base/status.h"
#include "base/xmalloc.h"

#define PK_LEN		42	/* "Ed" | key id | pk */
#define SK_LEN		158
#define SIG_LEN		74	/* alg | key id | signature */
#define KEYFILE_MAX	4096
#define SIGFILE_MAX	8192
#define MANIFEST_MAX	(4u << 20)
#define WALK_DEPTH	32

/* ---- helpers -------------------------------------------------------- */

static int
sodium_ready(void)
{
	return sodium_init() >= 0;
}

/* Decodes base64 s (length n) into exactly want bytes. Returns 0 or -1. */
static int
b64_exact(const char *s, size_t n, uint8_t *bin, size_t want)
{
	uint8_t	 tmp[256];
	size_t	 got = 0;

	if (want > sizeof tmp)
		return -1;
	if (sodium_base642bin(tmp, sizeof tmp, s, n, " \t\r", &got, NULL,
	    sodium_base64_VARIANT_ORIGINAL) != 0 || got != want)
		return -1;
	memcpy(bin, tmp, want);
	sodium_memzero(tmp, sizeof tmp);
	return 0;
}

static char *
b64_encode(const uint8_t *bin, size_t n)
{
	size_t	 len = sodium_base64_ENCODED_LEN(n,
		    sodium_base64_VARIANT_ORIGINAL);
	char	*s = xmalloc(len);

	sodium_bin2base64(s, len, bin, n, sodium_base64_VARIANT_ORIGINAL);
	return s;
}

/* minisign prints a key id as the hex of its little-endian value. */
static void
keyid_hex(const uint8_t keynum[8], char out[17])
{
	static const char	 hex[] = "0123456789ABCDEF";
	int			 i;

	for (i = 0; i < 8; i++) {
		out[2 * i] = hex[keynum[7 - i] >> 4];
		out[2 * i + 1] = hex[keynum[7 - i] & 0xf];
	}
	out[16] = '\0';
}

/*
 * Splits text into at most max lines (without their "\r\n" or "\n").
 * Returns the number of lines; line i is text + off[i], length len[i].
 */
static size_t
split_lines(const char *text, size_t n, size_t max, size_t *off,
    size_t *len)
{
	size_t	 i = 0, k = 0, e;

	while (i < n && k < max) {
		for (e = i; e < n && text[e] != '\n'; e++)
			;
		off[k] = i;
		len[k] = e - i;
		if (len[k] > 0 && text[i + len[k] - 1] == '\r')
			len[k]--;
		k++;
		i = e + 1;
	}
	return k;
}

static int
starts(const char *s, size_t n, const char *prefix)
{
	size_t	 p = strlen(prefix);

	return n >= p && memcmp(s, prefix, p) == 0;
}

/* The base64 line of a key file's text: the first that is no comment. */
static int
key_line(const char *text, size_t n, const char **line, size_t *len)
{
	size_t	 off[8], lens[8], k, i;

	k = split_lines(text, n, 8, off, lens);
	for (i = 0; i < k; i++) {
		if (lens[i] == 0 || starts(text + off[i], lens[i],
		    "untrusted comment:"))
			continue;
		*line = text + off[i];
		*len = lens[i];
		return 0;
	}
	return -1;
}

static int
parse_pubkey(const char *b64, size_t n, uint8_t keynum[8], uint8_t pk[32])
{
	uint8_t	 raw[PK_LEN];

	if (b64_exact(b64, n, raw, sizeof raw) != 0 ||
	    memcmp(raw, "Ed", 2) != 0)
		return -1;
	memcpy(keynum, raw + 2, 8);
	memcpy(pk, raw + 10, 32);
	return 0;
}

/* ---- the keyring ---------------------------------------------------- */

void
keyring_done(struct keyring *kr)
{
	size_t	 i;

	for (i = 0; i < kr->n; i++)
		free(kr->v[i].name);
	free(kr->v);
	kr->v = NULL;
	kr->n = 0;
}

/* Reads one "NAME=KEY" entry. Returns 0 or -1 with *why (static). */
static int
load_entry(struct signer *sg, const char *entry, const char **why)
{
	const char	*eq = strchr(entry, '='), *key, *line;
	char		*path, *text = NULL;
	size_t		 n, len;
	int		 rv;

	if (eq == NULL || eq == entry) {
		*why = "expected NAME=KEY (a minisign public key or the path "
		    "of a .pub file)";
		return -1;
	}
	key = eq + 1;
	while (*key == ' ')
		key++;
	if (strncmp(key, "RW", 2) == 0 &&
	    parse_pubkey(key, strlen(key), sg->keynum, sg->pk) == 0) {
		sg->name = xstrndup(entry, (size_t)(eq - entry));
		return 0;
	}
	path = config_expand_tilde(key);
	rv = buf_read_file(path, KEYFILE_MAX, &text, &n);
	free(path);
	if (rv == -1) {
		*why = errno == ENOENT ? "the key is neither a minisign public "
		    "key nor an existing .pub file" : "cannot read the key file";
		return -1;
	}
	if (key_line(text, n, &line, &len) != 0 ||
	    parse_pubkey(line, len, sg->keynum, sg->pk) != 0) {
		free(text);
		*why = "the file is not a minisign public key";
		return -1;
	}
	free(text);
	sg->name = xstrndup(entry, (size_t)(eq - entry));
	return 0;
}

int
keyring_add(struct keyring *kr, const char *entry, const char **why)
{
	struct signer	 sg;

	memset(&sg, 0, sizeof sg);
	if (load_entry(&sg, entry, why) != 0)
		return -1;
	kr->v = xreallocarray(kr->v, kr->n + 1, sizeof *kr->v);
	kr->v[kr->n++] = sg;
	return 0;
}

int
keyring_load(struct keyring *kr, const struct strlist *entries, char **cause)
{
	const char	*why;
	size_t		 i;

	kr->v = NULL;
	kr->n = 0;
	*cause = NULL;
	for (i = 0; i < entries->n; i++) {
		if (keyring_add(kr, entries->v[i], &why) != 0) {
			xasprintf(cause, "trust.signers: entry %zu (%s): %s",
			    i + 1, entries->v[i], why);
			keyring_done(kr);
			return -1;
		}
	}
	return 0;
}

static const struct signer *
keyring_find(const struct keyring *kr, const uint8_t keynum[8])
{
	size_t	 i;

	for (i = 0; kr != NULL && i < kr->n; i++) {
		if (memcmp(kr->v[i].keynum, keynum, 8) == 0)
			return &kr->v[i];
	}
	return NULL;
}

/* ---- the manifest --------------------------------------------------- */

struct walk {
	char		 root[PATH_MAX];	/* real path of the folder */
	struct strlist	 files;			/* relative paths */
	const char	*why;			/* static; set on failure */
	char		*where;			/* the path it is about */
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
skip_name(const char *rel)
{
	return strcmp(rel, SIGN_MANIFEST) == 0 ||
	    strcmp(rel, SIGN_SIGNATURE) == 0;
}

/* 1 when name holds a C0 control character or DEL. */
static int
has_control(const char *name)
{
	for (; *name != '\0'; name++)
		if ((unsigned char)*name < 0x20 || *name == 0x7f)
			return 1;
	return 0;
}

static int
walk_dir(struct walk *w, const char *rel, int depth)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		 path[PATH_MAX], sub[PATH_MAX], real[PATH_MAX];
	int		 rv = 0;

	if (depth > WALK_DEPTH) {
		w->why = "folders nested too deep";
		w->where = xstrdup(rel);
		return -1;
	}
	if ((size_t)snprintf(path, sizeof path, "%s%s%s", w->root,
	    *rel ? "/" : "", rel) >= sizeof path ||
	    (d = opendir(path)) == NULL) {
		w->why = "cannot open a folder";
		w->where = xstrdup(*rel ? rel : ".");
		return -1;
	}
	while (rv == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", rel,
		    *rel ? "/" : "", de->d_name) >= sizeof sub ||
		    (size_t)snprintf(path, sizeof path, "%s/%s", w->root,
		    sub) >= sizeof path) {
			w->why = "a path too long";
			w->where = xstrdup(de->d_name);
			rv = -1;
			break;
		}
		if (lstat(path, &st) != 0)
			continue;	/* gone meanwhile */
		if (has_control(de->d_name)) {
			/*
			 * One manifest line a file: a newline in a name would
			 * split it. Refused when signing and verifying alike.
			 */
			w->why = "a name with a newline or another control "
			    "character, which a manifest line cannot hold "
			    "(rename it)";
			w->where = text_escape_controls(sub);
			rv = -1;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			/* A link is followed only while it stays inside. */
			if (realpath(path, real) == NULL ||
			    strncmp(real, w->root, strlen(w->root)) != 0 ||
			    real[strlen(w->root)] != '/' ||
			    stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
				w->why = "a symlink that leaves the folder or "
				    "is not a file";
				w->where = xstrdup(sub);
				rv = -1;
				break;
			}
		}
		if (S_ISDIR(st.st_mode))
			rv = walk_dir(w, sub, depth + 1);
		else if (S_ISREG(st.st_mode)) {
			if (depth == 0 && skip_name(sub))
				continue;
			if (w->files.n >= SIGN_MAX_FILES) {
				w->why = "more files than a signature may cover";
				w->where = xstrdup(sub);
				rv = -1;
			} else
				strlist_add(&w->files, sub);
		} else {
			w->why = "a file that is not a regular file";
			w->where = xstrdup(sub);
			rv = -1;
		}
	}
	closedir(d);
	return rv;
}

/* SHA-256 of a file, in hex. Returns 0, or -1 (*budget exceeded too). */
static int
hash_file(const char *path, size_t *budget, char hex[65])
{
	crypto_hash_sha256_state	 st;
	uint8_t				 d[32], chunk[16384];
	ssize_t				 n;
	int				 fd;

	if ((fd = buf_open_regular(path, NULL)) == -1)
		return -1;
	crypto_hash_sha256_init(&st);
	while ((n = read(fd, chunk, sizeof chunk)) > 0) {
		if ((size_t)n > *budget) {
			close(fd);
			return -1;
		}
		*budget -= (size_t)n;
		crypto_hash_sha256_update(&st, chunk, (size_t)n);
	}
	close(fd);
	if (n < 0)
		return -1;
	crypto_hash_sha256_final(&st, d);
	sodium_bin2hex(hex, 65, d, sizeof d);
	return 0;
}

static int
walk_folder(struct walk *w, const char *dir)
{
	memset(w, 0, sizeof *w);
	strlist_init(&w->files);
	if (realpath(dir, w->root) == NULL) {
		w->why = "cannot resolve the folder";
		w->where = xstrdup(dir);
		return -1;
	}
	if (walk_dir(w, "", 0) != 0)
		return -1;
	if (w->files.n > 1)
		qsort(w->files.v, w->files.n, sizeof *w->files.v,
		    cmp_str);
	return 0;
}

static void
walk_done(struct walk *w)
{
	strlist_done(&w->files);
	free(w->where);
}

int
sign_manifest(const char *dir, char **out, size_t *len, char **cause)
{
	struct walk	 w;
	struct buf	 b;
	char		 path[PATH_MAX], hex[65];
	size_t		 i, budget = SIGN_MAX_BYTES;

	*out = NULL;
	*cause = NULL;
	if (!sodium_ready()) {
		*cause = xstrdup("libsodium failed to initialise");
		return SR_ERR;
	}
	if (walk_folder(&w, dir) != 0) {
		xasprintf(cause, "%s: %s: %s", dir, w.why, w.where);
		walk_done(&w);
		return SR_REFUSED;
	}
	buf_init(&b, 0);
	for (i = 0; i < w.files.n; i++) {
		if ((size_t)snprintf(path, sizeof path, "%s/%s", w.root,
		    w.files.v[i]) >= sizeof path ||
		    hash_file(path, &budget, hex) != 0) {
			xasprintf(cause, "%s: cannot hash (unreadable, or over "
			    "%u MiB in all)", path, SIGN_MAX_BYTES >> 20);
			buf_done(&b);
			walk_done(&w);
			return SR_IO;
		}
		buf_printf(&b, "%s  %s\n", hex, w.files.v[i]);
	}
	walk_done(&w);
	*len = b.len;
	*out = buf_take(&b);
	return SR_OK;
}

/*
 * Compares manifest text with the folder. Returns 0 when they match, or
 * -1 with *detail (allocated) naming the first difference.
 */
static int
manifest_matches(const char *dir, const char *text, size_t n, char **detail)
{
	struct walk	 w;
	struct strlist	 listed;
	char		 path[PATH_MAX], hex[65], *rel;
	size_t		 i, e, budget = SIGN_MAX_BYTES, p;
	int		 rv = -1;

	*detail = NULL;
	strlist_init(&listed);
	if (walk_folder(&w, dir) != 0) {
		xasprintf(detail, "%s: %s", w.why, w.where);
		walk_done(&w);
		return -1;
	}
	for (i = 0; i < n; i = e + 1) {
		for (e = i; e < n && text[e] != '\n'; e++)
			;
		if (e == i)
			continue;
		if (e - i < 67 || text[i + 64] != ' ' ||
		    (text[i + 65] != ' ' && text[i + 65] != '*')) {
			xasprintf(detail, "the manifest has a malformed line");
			goto out;
		}
		memcpy(hex, text + i, 64);
		hex[64] = '\0';
		for (p = 0; p < 64; p++) {
			if (hex[p] >= 'A' && hex[p] <= 'F')
				hex[p] += 'a' - 'A';
		}
		rel = xstrndup(text + i + 66, e - i - 66);
		if (rel[0] != '\0' && rel[strlen(rel) - 1] == '\r')
			rel[strlen(rel) - 1] = '\0';
		if (strncmp(rel, "./", 2) == 0)
			memmove(rel, rel + 2, strlen(rel + 2) + 1);
		if (!strlist_contains(&w.files, rel, 0)) {
			xasprintf(detail, "%s is signed but missing", rel);
			free(rel);
			goto out;
		}
		if (strlist_contains(&listed, rel, 0)) {
			xasprintf(detail, "%s is listed twice", rel);
			free(rel);
			goto out;
		}
		{
			char	 got[65];

			if ((size_t)snprintf(path, sizeof path, "%s/%s",
			    w.root, rel) >= sizeof path ||
			    hash_file(path, &budget, got) != 0 ||
			    strcmp(got, hex) != 0) {
				xasprintf(detail, "%s changed after signing",
				    rel);
				free(rel);
				goto out;
			}
		}
		strlist_add(&listed, rel);
		free(rel);
	}
	for (i = 0; i < w.files.n; i++) {
		if (!strlist_contains(&listed, w.files.v[i], 0)) {
			xasprintf(detail, "%s was added after signing",
			    w.files.v[i]);
			goto out;
		}
	}
	rv = 0;
out:
	strlist_done(&listed);
	walk_done(&w);
	return rv;
}

/* ---- checking ------------------------------------------------------- */

const char *
sign_status_name(enum sign_status s)
{
	static const char *names[] = {
		"unsigned", "valid", "unknown-key", "changed", "bad"
	};

	return (unsigned)s < sizeof names / sizeof *names ? names[s] : "bad";
}

const char *
sign_rule(enum sign_status s)
{
	switch (s) {
	case SIGN_UNKNOWN_KEY:
		return "signature-unknown-key";
	case SIGN_CHANGED:
		return "signature-mismatch";
	case SIGN_BAD:
		return "signature-invalid";
	default:
		return NULL;
	}
}

void
sign_result_done(struct sign_result *r)
{
	free(r->signer);
	free(r->detail);
	r->signer = r->detail = NULL;
}

static void
set(struct sign_result *r, enum sign_status s, const char *detail)
{
	r->status = s;
	free(r->detail);
	r->detail = detail != NULL ? xstrdup(detail) : NULL;
}

/* Verifies the minisig text over msg; fills keyid. 0, or -1 (+ status). */
static int
verify_sig(const struct keyring *kr, const char *sig, size_t sn,
    const char *msg, size_t mn, struct sign_result *r,
    const struct signer **who)
{
	uint8_t			 raw[SIG_LEN], global[64], h[64];
	size_t			 off[4], len[4], k;
	const char		*tc;
	size_t			 tcn;
	uint8_t			*gm;
	int			 ok;

	k = split_lines(sig, sn, 4, off, len);
	if (k < 4 || !starts(sig + off[0], len[0], "untrusted comment:") ||
	    b64_exact(sig + off[1], len[1], raw, sizeof raw) != 0 ||
	    !starts(sig + off[2], len[2], "trusted comment: ") ||
	    b64_exact(sig + off[3], len[3], global, sizeof global) != 0 ||
	    (memcmp(raw, "Ed", 2) != 0 && memcmp(raw, "ED", 2) != 0)) {
		set(r, SIGN_BAD, "SKILL.sha256.minisig is not a minisign "
		    "signature");
		return -1;
	}
	keyid_hex(raw + 2, r->keyid);
	if ((*who = keyring_find(kr, raw + 2)) == NULL) {
		set(r, SIGN_UNKNOWN_KEY, "signed by a key trust.signers does "
		    "not list");
		return -1;
	}
	if (memcmp(raw, "ED", 2) == 0) {
		crypto_generichash(h, sizeof h, (const uint8_t *)msg, mn,
		    NULL, 0);
		ok = crypto_sign_verify_detached(raw + 10, h, sizeof h,
		    (*who)->pk) == 0;
	} else
		ok = crypto_sign_verify_detached(raw + 10,
		    (const uint8_t *)msg, mn, (*who)->pk) == 0;
	if (!ok) {
		set(r, SIGN_BAD, "the signature does not verify: "
		    "SKILL.sha256 changed after signing, or a forged signature");
		return -1;
	}
	tc = sig + off[2] + strlen("trusted comment: ");
	tcn = len[2] - strlen("trusted comment: ");
	gm = xmalloc(64 + tcn);
	memcpy(gm, raw + 10, 64);
	memcpy(gm + 64, tc, tcn);
	ok = crypto_sign_verify_detached(global, gm, 64 + tcn,
	    (*who)->pk) == 0;
	free(gm);
	if (!ok) {
		set(r, SIGN_BAD, "the trusted comment does not verify");
		return -1;
	}
	return 0;
}

void
sign_check(const struct keyring *kr, const char *dir, struct sign_result *r)
{
	const struct signer	*who = NULL;
	char			 path[PATH_MAX], *sig = NULL, *man = NULL;
	char			*detail;
	size_t			 sn, mn;
	struct stat		 st;

	memset(r, 0, sizeof *r);
	snprintf(path, sizeof path, "%s/%s", dir, SIGN_SIGNATURE);
	if (lstat(path, &st) != 0) {
		r->status = SIGN_NONE;
		return;
	}
	if (!sodium_ready()) {
		set(r, SIGN_BAD, "libsodium failed to initialise");
		return;
	}
	if (buf_read_file(path, SIGFILE_MAX, &sig, &sn) != 0) {
		set(r, SIGN_BAD, "SKILL.sha256.minisig cannot be read");
		return;
	}
	snprintf(path, sizeof path, "%s/%s", dir, SIGN_MANIFEST);
	if (buf_read_file(path, MANIFEST_MAX, &man, &mn) != 0) {
		set(r, SIGN_BAD, "SKILL.sha256.minisig without a readable "
		    "SKILL.sha256");
		goto out;
	}
	if (verify_sig(kr, sig, sn, man, mn, r, &who) != 0)
		goto out;
	if (manifest_matches(dir, man, mn, &detail) != 0) {
		set(r, SIGN_CHANGED, detail);
		free(detail);
		goto out;
	}
	r->status = SIGN_VALID;
	r->signer = xstrdup(who->name);
out:
	free(sig);
	free(man);
}

/* ---- signing -------------------------------------------------------- */

static uint64_t
le64(const uint8_t *p)
{
	uint64_t	 v = 0;
	int		 i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Reads a minisign secret key into keynum and sk. Returns sr_status. */
static int
read_seckey(const char *keyfile, const char *password_env, uint8_t keynum[8],
    uint8_t sk[64], char **cause)
{
	static const uint8_t zero[32];
	uint8_t		 raw[SK_LEN], chk[32], stream[104];
	int		 plain = 0;
	char		*text = NULL;
	const char	*line, *pw;
	size_t		 n, len, i;
	crypto_generichash_state hs;

	if (buf_read_file(keyfile, KEYFILE_MAX, &text, &n) != 0) {
		xasprintf(cause, "%s: %s", keyfile, buf_strerror(keyfile,
		    errno));
		return SR_NOTFOUND;
	}
	if (key_line(text, n, &line, &len) != 0 ||
	    b64_exact(line, len, raw, sizeof raw) != 0 ||
	    memcmp(raw, "Ed", 2) != 0 || memcmp(raw + 4, "B2", 2) != 0) {
		free(text);
		xasprintf(cause, "%s: not a minisign secret key", keyfile);
		return SR_USAGE;
	}
	free(text);
	if (memcmp(raw + 2, "Sc", 2) == 0) {
		pw = password_env != NULL ? getenv(password_env) : NULL;
		if (pw == NULL) {
			xasprintf(cause, "%s: the key is encrypted: give its "
			    "password in an environment variable named by "
			    "--password-env", keyfile);
			sodium_memzero(raw, sizeof raw);
			return SR_USAGE;
		}
		if (crypto_pwhash_scryptsalsa208sha256(stream, sizeof stream,
		    pw, strlen(pw), raw + 6, le64(raw + 38),
		    (size_t)le64(raw + 46)) != 0) {
			xasprintf(cause, "%s: cannot derive the key (out of "
			    "memory?)", keyfile);
			sodium_memzero(raw, sizeof raw);
			return SR_ERR;
		}
		for (i = 0; i < sizeof stream; i++)
			raw[54 + i] ^= stream[i];
		sodium_memzero(stream, sizeof stream);
	} else if (raw[2] != 0 || raw[3] != 0) {
		xasprintf(cause, "%s: unknown key derivation", keyfile);
		return SR_USAGE;
	} else
		plain = 1;
	/* minisign -W leaves the checksum of an unencrypted key zero. */
	if (plain && sodium_memcmp(raw + 126, zero, sizeof zero) == 0)
		goto take;
	crypto_generichash_init(&hs, NULL, 0, sizeof chk);
	crypto_generichash_update(&hs, raw, 2);
	crypto_generichash_update(&hs, raw + 54, 8);
	crypto_generichash_update(&hs, raw + 62, 64);
	crypto_generichash_final(&hs, chk, sizeof chk);
	if (sodium_memcmp(chk, raw + 126, sizeof chk) != 0) {
		sodium_memzero(raw, sizeof raw);
		xasprintf(cause, "%s: wrong password, or a damaged key",
		    keyfile);
		return SR_USAGE;
	}
take:
	memcpy(keynum, raw + 54, 8);
	memcpy(sk, raw + 62, 64);
	sodium_memzero(raw, sizeof raw);
	return SR_OK;
}

int
sign_dir(const char *dir, const char *keyfile, const char *password_env,
    const char *comment, char keyid[17], char **cause)
{
	uint8_t		 keynum[8], sk[64], h[64], raw[SIG_LEN], global[64];
	uint8_t		*gm;
	char		*man = NULL, *tc = NULL, *s1, *s2, *sig, path[PATH_MAX];
	size_t		 mn, tcn;
	int		 rv;

	*cause = NULL;
	if (!sodium_ready()) {
		*cause = xstrdup("libsodium failed to initialise");
		return SR_ERR;
	}
	if ((rv = read_seckey(keyfile, password_env, keynum, sk, cause)) !=
	    SR_OK)
		return rv;
	if ((rv = sign_manifest(dir, &man, &mn, cause)) != SR_OK)
		goto out;
	if (comment != NULL)
		tc = xstrdup(comment);
	else
		xasprintf(&tc, "timestamp:%lld\tfile:%s\thashed",
		    (long long)time(NULL), SIGN_MANIFEST);
	if (strpbrk(tc, "\r\n") != NULL) {
		*cause = xstrdup("--comment: a trusted comment is one line");
		rv = SR_USAGE;
		goto out;
	}
	memcpy(raw, "ED", 2);
	memcpy(raw + 2, keynum, 8);
	crypto_generichash(h, sizeof h, (const uint8_t *)man, mn, NULL, 0);
	crypto_sign_detached(raw + 10, NULL, h, sizeof h, sk);
	tcn = strlen(tc);
	gm = xmalloc(64 + tcn);
	memcpy(gm, raw + 10, 64);
	memcpy(gm + 64, tc, tcn);
	crypto_sign_detached(global, NULL, gm, 64 + tcn, sk);
	free(gm);
	s1 = b64_encode(raw, sizeof raw);
	s2 = b64_encode(global, sizeof global);
	keyid_hex(keynum, keyid);
	xasprintf(&sig, "untrusted comment: signature from skills-radar, "
	    "key %s\n%s\ntrusted comment: %s\n%s\n", keyid, s1, tc, s2);
	free(s1);
	free(s2);
	snprintf(path, sizeof path, "%s/%s", dir, SIGN_MANIFEST);
	rv = buf_save(path, man, mn, 0644, 0, cause);
	if (rv == SR_OK) {
		snprintf(path, sizeof path, "%s/%s", dir, SIGN_SIGNATURE);
		rv = buf_save(path, sig, strlen(sig), 0644, 0, cause);
	}
	free(sig);
out:
	sodium_memzero(sk, sizeof sk);
	free(man);
	free(tc);
	return rv;
}
