/*
 * The skill model: one indexed entry (a skill, agent or command) and a set
 * of entries. struct skill owns all its strings and lists; skill_free()
 * releases them. struct skill_set owns its entries.
 *
 * An entry may be shared by several sets (the engine's snapshots share
 * the entries a hot-reload update did not touch): skill_ref() adds an
 * owner and skill_free() drops one, freeing the entry with the last. A
 * shared entry is read-only; skill_dup() makes a private copy to change.
 */
#ifndef SR_SKILL_H
#define SR_SKILL_H

#include <stddef.h>
#include <stdint.h>

#include "base/strlist.h"

enum skill_kind {
	KIND_SKILL = 0,
	KIND_AGENT,
	KIND_COMMAND
};

/* Ordered: a higher value is more trusted. */
enum trust_tier {
	TIER_UNTRUSTED = 0,
	TIER_USER,
	TIER_VERIFIED,
	TIER_TRUSTED
};

struct skill {
	int64_t		 id;		/* index.db rowid, 0 when not stored */
	enum skill_kind	 kind;
	char		*uid;		/* name | agent:name | cmd:[dir:]name */
	char		*name;		/* bare name: the id part of uid */
	char		*display;	/* the name as written when it is not
					   the id (name-normalised), or NULL */
	char		*path;		/* absolute path as discovered */
	char		*realpath;	/* resolved path of the file */
	char		*root;		/* the scan root it was found under */
	char		*scope;		/* user | project:<dir> | plugin:<name> | other */
	int		 is_project;	/* found under the current project */
	enum trust_tier	 trust;
	char		*description;	/* sanitised for display, never NULL */
	char		*when_to_use;	/* never NULL, may be "" */
	struct strlist	 tags;		/* lower-cased hub-tags */
	struct strlist	 platforms;
	struct strlist	 requires_tools;
	struct strlist	 fallback_for_tools;
	int		 disable_model_invocation;
	int		 user_invocable;
	int64_t		 size;		/* bytes of the file */
	int64_t		 mtime_ns;
	char		 hash[17];	/* 64-bit content hash, hex */
	int		 n_warnings;	/* validation + sanitiser warnings */
	int		 n_flags;	/* sanitiser findings at warn or above */
	int		 max_flag_sev;	/* highest sanitiser severity, -1 none */
	char		*flag_ids;	/* comma-separated sanitiser rule ids */
	double		 risk;		/* risk score (assess.h), 0 none */
	int		 risk_sev;	/* enum severity of the risk score */
	char		*findings;	/* every finding, stored JSON text
					   (assess_findings_json()), or NULL */
	char		 bundle[17];	/* stamp of the bundled files
					   (assess_stamp()), "" none */
	char		*shadowed_by;	/* path of the winning duplicate, or NULL */
	char		*frontmatter;	/* the frontmatter as JSON text */
	char		*signature;	/* the folder's signature check as JSON
					   {status, signer, key_id, detail},
					   NULL: unsigned (sign.h) */
	char		*signer;	/* its trust.signers name when it
					   verified, else NULL */
	int		 lean;		/* read by a lean load (STORE_LEAN,
					   store.h): findings, frontmatter and
					   what only the indexer reads were
					   not read; never written back */
	unsigned	 refs;		/* owners besides the first (atomic) */
};

struct skill_set {
	struct skill	**v;
	size_t		  n;
	size_t		  cap;
};

struct skill	*skill_new(void);
void		 skill_free(struct skill *);
struct skill	*skill_ref(struct skill *);	/* returns its argument */
struct skill	*skill_dup(const struct skill *);	/* one owner */

void		 skill_set_init(struct skill_set *);
void		 skill_set_done(struct skill_set *);
void		 skill_set_add(struct skill_set *, struct skill *);

/*
 * Sets s->signature to a copy of json (NULL: unsigned) and s->signer to
 * the signer it names when its status is "valid".
 */
void		 skill_set_signature(struct skill *, const char *json);

const char	*kind_name(enum skill_kind);
/* Returns the kind for "skill", "agent" or "command", or -1. */
int		 kind_from_name(const char *);
const char	*tier_name(enum trust_tier);	/* "TRUSTED" ... */
/* Case-insensitive; returns the tier or -1. */
int		 tier_from_name(const char *);

/*
 * Duplicate precedence, the order every set of entries is kept in: by
 * uid, then the winner of entries sharing a uid first. The winner is the
 * explicitly trusted entry, else the current project's, then user, then
 * verified, then the rest; then the newest mtime; then the path that
 * sorts first. Returns < 0 when a sorts before b (a wins over a
 * duplicate b), > 0 after, 0 for the same uid, rank, mtime and path. It
 * lives with the entry it reads so the indexer, the store and the engine
 * order sets the same way without depending on each other.
 */
int		 skill_cmp_precedence(const struct skill *a,
		    const struct skill *b);

/*
 * 1 when the sanitiser flags s: a finding at warn or above, or a risk
 * score that sums to warn or above (list --flagged, the index summary).
 */
int		 skill_flagged(const struct skill *);

/*
 * The id a name that breaks the naming rule is indexed under: the name
 * normalised as text_normalize() does (NFKC, case folded, marks
 * stripped: "Größe Über" -> "grosse uber"), apostrophes dropped, every
 * run of characters other than [a-z0-9] turned into one hyphen, edge
 * hyphens dropped, and cut to SKILL_NAME_MAX bytes at the last hyphen
 * that fits (else hard). Returns an allocated string, or NULL when nothing of [a-z0-9]
 * is left (a name written only in CJK, say); the caller then falls back
 * on the directory name or file stem.
 */
#define SKILL_NAME_MAX	64
char		*skill_name_id(const char *name);

/* The name to show: the display name when there is one, else the name. */
const char	*skill_display(const struct skill *);

/*
 * The name column of the store holds the name as written (the display
 * name); the bare id is the uid without its "agent:" or "cmd:[dir:]"
 * prefix. Called on an entry read back from a store: when the column
 * differs from the uid's id, moves it to s->display and sets s->name to
 * the id. Rows written before display names existed are unchanged.
 */
void		 skill_split_display(struct skill *);

/* FNV-1a 64 of data, written as 16 hex digits plus NUL into out. */
void		 skill_hash(const void *data, size_t len, char out[17]);

#endif
