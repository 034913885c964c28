/*
 * Unit tests of the store interface, backend-neutral: the same checks on
 * SQLite (a temporary index.db) and, when SR_TEST_DSN is set (by
 * tests/pg/store.sh, which starts a throwaway cluster), on PostgreSQL:
 * the round trip, the diff a replace writes, the change counter, the
 * tombstones and their pruning, a failed write, the replicas table, the
 * counts store_count() returns, and on postgres the notification a write
 * sends.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "core/config.h"
#include "core/skill.h"
#include "base/status.h"
#include "store/store.h"
#include "base/xmalloc.h"

#include "tap.h"

static char tmp[] = "/tmp/sr-unit-store-api.XXXXXX";

static struct skill *
mk(const char *name, const char *desc)
{
	struct skill	*s = skill_new();
	char		*path;

	xasprintf(&path, "/r/%s/SKILL.md", name);
	s->uid = xstrdup(name);
	s->name = xstrdup(name);
	s->path = path;
	s->realpath = xstrdup(path);
	s->root = xstrdup("/r");
	s->scope = xstrdup("user");
	s->trust = TIER_USER;
	s->description = xstrdup(desc);
	s->when_to_use = xstrdup("");
	strlist_add(&s->tags, "t");
	s->size = 10;
	s->mtime_ns = 1700000000123456789LL;
	skill_hash(desc, strlen(desc), s->hash);
	s->max_flag_sev = -1;
	if (strcmp(name, "beta") == 0) {
		/* The assessment columns (schema 3). */
		s->risk = 12.5;
		s->risk_sev = 2;
		s->findings = xstrdup("[{\"id\":\"r\",\"severity\":\"high\","
		    "\"line\":4,\"file\":\"scripts/x.sh\",\"weight\":12.5,"
		    "\"excerpt\":\"e\"}]");
		snprintf(s->bundle, sizeof s->bundle, "0123456789abcdef");
		s->frontmatter = xstrdup("{\"name\":\"beta\"}");
	}
	return s;
}

/* A set of the named entries, each with description "<name> v<ver>". */
static void
mkset(struct skill_set *set, const char *names, int ver)
{
	char	 buf[256], desc[300], *p, *save = NULL;

	skill_set_init(set);
	snprintf(buf, sizeof buf, "%s", names);
	for (p = strtok_r(buf, " ", &save); p != NULL;
	    p = strtok_r(NULL, " ", &save)) {
		snprintf(desc, sizeof desc, "%s v%d", p, ver);
		skill_set_add(set, mk(p, desc));
	}
}

static int
replace(struct store *st, const char *names, int ver, const char *digest)
{
	struct skill_set	 set;
	char			*cause = NULL;
	int			 rv;

	mkset(&set, names, ver);
	rv = store_replace(st, &set, NULL, digest, &cause);
	if (rv != 0)
		diag("replace: %s", cause ? cause : "?");
	free(cause);
	skill_set_done(&set);
	return rv;
}

static int64_t
counter(struct store *st)
{
	int64_t	 c = -1;

	store_counter(st, &c, NULL);
	return c;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "name name" of the upserts (sorted by uid) and "path path" removed. */
static int
changes(struct store *st, int64_t since, char *up, size_t upn, char *rm,
    size_t rmn, int64_t *c)
{
	struct skill_set	 set;
	struct strlist		 removed;
	char			*cause = NULL;
	size_t			 i;
	int			 rv;

	skill_set_init(&set);
	strlist_init(&removed);
	rv = store_changes(st, since, &set, &removed, c, &cause);
	store_order(&set);
	if (removed.n > 1)
		qsort(removed.v, removed.n, sizeof *removed.v, cmp_str);
	up[0] = rm[0] = '\0';
	for (i = 0; i < set.n; i++)
		snprintf(up + strlen(up), upn - strlen(up), "%s%s",
		    i ? " " : "", set.v[i]->name);
	for (i = 0; i < removed.n; i++)
		snprintf(rm + strlen(rm), rmn - strlen(rm), "%s%s",
		    i ? " " : "", removed.v[i]);
	if (rv != 0 && rv != STORE_GAP)
		diag("changes: %s", cause ? cause : "?");
	free(cause);
	skill_set_done(&set);
	strlist_done(&removed);
	return rv;
}

/*
 * STORE_LEAN: the same entries without findings and frontmatter, marked
 * lean; store_get() reads the whole entry; a lean entry is never written.
 * Called with the content "alpha beta" v1 at counter 1.
 */
static void
lean(struct store *st)
{
	struct skill_set	 set;
	struct store_delta	 d;
	struct skill		*full = NULL, *b;
	char			*cause = NULL;
	int			 stale = 0;

	skill_set_init(&set);
	ok(store_load_flags(st, &set, STORE_LEAN, &cause) == 0 && set.n == 2,
	    "lean load: both entries");
	b = set.n == 2 ? set.v[1] : NULL;
	ok(b != NULL && b->lean && b->findings == NULL &&
	    b->frontmatter == NULL && set.v[0]->lean,
	    "lean load: no findings, no frontmatter, marked lean");
	ok(b != NULL && strcmp(b->name, "beta") == 0 &&
	    strcmp(b->description, "beta v1") == 0 && b->risk == 12.5 &&
	    b->risk_sev == 2 && b->mtime_ns == 1700000000123456789LL && b->max_flag_sev == -1 &&
	    b->trust == TIER_USER && b->tags.n == 1 &&
	    strcmp(b->scope, "user") == 0,
	    "lean load: what search and list show, as a full load reads it");
	ok(b != NULL && b->size == 0 && b->hash[0] == '\0' &&
	    b->bundle[0] == '\0' && strcmp(b->realpath, b->path) == 0 &&
	    b->root[0] == '\0',
	    "lean load: not what only the indexer reads (size, hash, bundle)");
	ok(b != NULL && store_get(st, b->path, &full, &cause) == 0 &&
	    full != NULL && !full->lean && full->findings != NULL &&
	    strstr(full->findings, "scripts/x.sh") != NULL &&
	    full->frontmatter != NULL && full->risk == 12.5 &&
	    full->size == 10 && strcmp(full->bundle, "0123456789abcdef") == 0,
	    "get: the whole entry by its path");
	skill_free(full);
	ok(store_get(st, "/r/none/SKILL.md", &full, &cause) == SR_NOTFOUND &&
	    full == NULL && cause != NULL, "get: a path not stored is not found");
	free(cause);
	cause = NULL;
	ok(store_replace(st, &set, NULL, "lean", &cause) == SR_IO &&
	    cause != NULL && strstr(cause, "lean") != NULL,
	    "replace: a lean entry is refused");
	free(cause);
	cause = NULL;
	memset(&d, 0, sizeof d);
	d.up = &set.v[0];
	d.nup = b != NULL ? 1 : 0;
	ok(store_update(st, &d, NULL, "lean", &stale, &cause) == SR_IO,
	    "update: a lean entry is refused");
	free(cause);
	cause = NULL;
	skill_set_done(&set);
	skill_set_init(&set);
	ok(counter(st) == 1 && store_load(st, &set, &cause) == 0 &&
	    set.n == 2 && set.v[1]->findings != NULL &&
	    set.v[1]->frontmatter != NULL,
	    "refused writes leave the stored findings");
	skill_set_done(&set);
	free(cause);
}

int
main(void)
{
	struct store		*st, *st2 = NULL;
	struct skill_set	 back;
	struct store_replica	*rv_v;
	const char		*dsn = getenv("SR_TEST_DSN");
	char			*db, *cause = NULL, *v, up[256], rm[256];
	int64_t			 c;
	size_t			 n;
	int			 rv, pg = dsn != NULL && *dsn != '\0';
	double			 t0;

	xmalloc_init();
	if (mkdtemp(tmp) == NULL)
		return 1;
	xasprintf(&db, "%s/index.db", tmp);
	diag("backend: %s", pg ? "postgres" : "sqlite");
	rv = pg ? store_open_pg(dsn, &st, &cause) : store_open(db, 0, &st,
	    &cause);
	ok(rv == 0 && st != NULL, "open");
	if (rv != 0) {
		diag("%s", cause);
		return done_testing();
	}
	is_str(store_backend(st), pg ? "postgres" : "sqlite", "the backend names itself");
	ok(strstr(store_where(st), "password") == NULL, "where: no password");
	is_int(counter(st), 0, "counter: 0 before any write");
	v = store_meta_get(st, "schema");
	{
		char	 want[16];

		snprintf(want, sizeof want, "%d", STORE_SCHEMA_VERSION);
		is_str(v, want, "meta: the schema version, on both backends");
	}
	free(v);

	ok(replace(st, "alpha beta", 1, "d1") == 0, "replace: the first content");
	is_int(counter(st), 1, "counter: a write that changes bumps it");
	skill_set_init(&back);
	ok(store_load(st, &back, &cause) == 0 && back.n == 2 &&
	    strcmp(back.v[0]->name, "alpha") == 0 &&
	    strcmp(back.v[1]->description, "beta v1") == 0,
	    "load: the entries come back, in uid order");
	ok(back.n == 2 && back.v[0]->mtime_ns == 1700000000123456789LL &&
	    back.v[0]->tags.n == 1 && back.v[0]->max_flag_sev == -1 &&
	    back.v[0]->shadowed_by == NULL, "load: fields survive");
	ok(back.n == 2 && back.v[0]->risk == 0 && back.v[0]->findings == NULL &&
	    back.v[0]->bundle[0] == '\0' && back.v[1]->risk == 12.5 &&
	    back.v[1]->risk_sev == 2 && back.v[1]->findings != NULL &&
	    strstr(back.v[1]->findings, "scripts/x.sh") != NULL &&
	    strcmp(back.v[1]->bundle, "0123456789abcdef") == 0,
	    "load: the risk, findings and bundle stamp survive");
	skill_set_done(&back);
	lean(st);
	rv = changes(st, 0, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && c == 1, "changes since 0: the counter it reaches");
	is_str(up, "alpha beta", "changes since 0: both entries");
	rv = changes(st, 1, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && up[0] == '\0' && rm[0] == '\0', "changes since the counter: nothing");

	ok(replace(st, "alpha beta", 1, "d2") == 0, "replace: the same content again");
	is_int(counter(st), 1, "counter: a write that changes nothing keeps it");
	v = store_meta_get(st, "digest");
	is_str(v, "d2", "meta: the digest is written anyway");
	free(v);

	ok(replace(st, "alpha beta gamma", 2, "d3") == 0, "replace: edit two, add one");
	is_int(counter(st), 2, "counter: bumped once per write");
	rv = changes(st, 1, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && c == 2, "changes since 1");
	is_str(up, "alpha beta gamma", "changes since 1: the edited and the new entries");
	{
		struct skill_set	 s3;

		/* Only beta changes now: only it is written. */
		skill_set_init(&s3);
		skill_set_add(&s3, mk("alpha", "alpha v2"));
		skill_set_add(&s3, mk("beta", "beta v3"));
		skill_set_add(&s3, mk("gamma", "gamma v2"));
		ok(store_replace(st, &s3, NULL, "d4", &cause) == 0, "replace: edit one");
		skill_set_done(&s3);
	}
	rv = changes(st, 2, up, sizeof up, rm, sizeof rm, &c);
	is_str(up, "beta", "changes: only the entry that differs has a new version");

	ok(replace(st, "alpha gamma", 2, "d5") == 0, "replace: beta is deleted");
	rv = changes(st, 3, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && c == 4 && up[0] == '\0', "delete: no upserts");
	is_str(rm, "/r/beta/SKILL.md", "delete: a tombstone for the path");
	rv = changes(st, 0, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && strcmp(up, "alpha gamma") == 0 &&
	    strcmp(rm, "/r/beta/SKILL.md") == 0, "changes since 0: upserts and tombstones");
	rv = changes(st, -1, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && c == 4 && strcmp(up, "alpha gamma") == 0 && rm[0] == '\0',
	    "changes since -1: everything, no tombstones");

	ok(replace(st, "alpha beta gamma", 2, "d6") == 0, "replace: beta comes back");
	rv = changes(st, 4, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && strcmp(up, "beta") == 0 && rm[0] == '\0',
	    "re-created: an upsert, and its tombstone is gone");

	/* A failing write (two entries with one path) changes nothing. */
	{
		struct skill_set	 bad;

		mkset(&bad, "alpha alpha", 9);
		rv = store_replace(st, &bad, NULL, "dx", &cause);
		ok(rv == SR_IO && cause != NULL, "replace: a duplicate path is an error");
		free(cause);
		cause = NULL;
		skill_set_done(&bad);
	}
	is_int(counter(st), 5, "failed write: the counter is unchanged");
	v = store_meta_get(st, "digest");
	is_str(v, "d6", "failed write: the digest is unchanged");
	free(v);
	rv = changes(st, -1, up, sizeof up, rm, sizeof rm, &c);
	is_str(up, "alpha beta gamma", "failed write: the content is intact");

	/* Tombstones kept for one write only: an older reader must reload. */
	store_set_tomb_versions(st, 1);
	ok(replace(st, "alpha", 2, "d7") == 0, "replace: two deleted");
	ok(replace(st, "alpha", 3, "d8") == 0, "replace: one more write");
	rv = changes(st, 5, up, sizeof up, rm, sizeof rm, &c);
	is_int(rv, STORE_GAP, "pruned: a reader behind the tombstones gets STORE_GAP");
	rv = changes(st, 6, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == 0 && c == 7 && strcmp(up, "alpha") == 0,
	    "pruned: a reader within the kept writes gets the delta");
	rv = changes(st, 99, up, sizeof up, rm, sizeof rm, &c);
	ok(rv == STORE_GAP && up[0] == '\0',
	    "a reader ahead of the counter (a recreated store) gets STORE_GAP");

	/* A row-level update counts like a replace. */
	{
		struct skill_set	 set;
		struct store_delta	 d;
		struct store_rejects	 rej;
		const char		*gone[] = { "/r/alpha/SKILL.md" };
		const char		*rgone[] = { "/r/old/SKILL.md" };
		int			 stale = -1;

		mkset(&set, "delta", 1);
		store_rejects_init(&rej);
		store_rejects_add(&rej, "/r/old/SKILL.md", 1, 2, "00", "r", "x", 0);
		memset(&d, 0, sizeof d);
		d.rej = &rej;
		ok(store_update(st, &d, NULL, "u0", &stale, &cause) == 0 && !stale,
		    "update: a reject only");
		is_int(counter(st), 7, "update: no entry changed, the counter stays");
		d.rej = NULL;
		d.gone = gone;
		d.ngone = 1;
		d.up = set.v;
		d.nup = set.n;
		d.rej_gone = rgone;
		d.nrej_gone = 1;
		ok(store_update(st, &d, "wrong", "u1", &stale, &cause) == 0 && stale == 1,
		    "update: a stale expectation writes nothing");
		is_int(counter(st), 7, "update: stale, the counter stays");
		ok(store_update(st, &d, "u0", "u1", &stale, &cause) == 0 && stale == 0,
		    "update: one added, one gone");
		is_int(counter(st), 8, "update: the counter moves once");
		rv = changes(st, 7, up, sizeof up, rm, sizeof rm, &c);
		ok(rv == 0 && c == 8 && strcmp(up, "delta") == 0 &&
		    strcmp(rm, "/r/alpha/SKILL.md") == 0, "update: changes since show both");
		{
			struct store_rejects	 rb;

			store_rejects_init(&rb);
			ok(store_load_rejects(st, &rb, &cause) == 0 && rb.n == 0,
			    "update: the gone reject is deleted");
			store_rejects_done(&rb);
		}
		store_rejects_done(&rej);
		skill_set_done(&set);
	}

	/* Rejects and meta. */
	{
		struct skill_set	 set;
		struct store_rejects	 rej, rback;

		mkset(&set, "alpha", 3);
		store_rejects_init(&rej);
		store_rejects_add(&rej, "/r/bad/SKILL.md", 10, 20, "00",
		    "name-invalid", "bad name", 0);
		ok(store_replace(st, &set, &rej, "d9", &cause) == 0,
		    "replace: with a rejected file");
		store_rejects_init(&rback);
		ok(store_load_rejects(st, &rback, &cause) == 0 && rback.n == 1 &&
		    strcmp(rback.v[0].rule, "name-invalid") == 0 &&
		    rback.v[0].mtime_ns == 20, "rejects: round trip");
		store_rejects_done(&rback);
		store_rejects_done(&rej);
		skill_set_done(&set);
	}
	ok(store_meta_set(st, "k", "v1", &cause) == 0 &&
	    store_meta_set(st, "k", "v2", &cause) == 0, "meta: set twice");
	v = store_meta_get(st, "k");
	is_str(v, "v2", "meta: the last value wins");
	free(v);
	ok(store_meta_get(st, "nope") == NULL, "meta: unset is NULL");

	/* The replicas table. */
	ok(store_report(st, "host:1", 3, &cause) == 0 &&
	    store_report(st, "host:1", 7, &cause) == 0 &&
	    store_report(st, "host:2", 6, &cause) == 0, "replicas: report");
	rv = store_replicas(st, &rv_v, &n, &cause);
	ok(rv == 0 && n == 2, "replicas: one row per name");
	ok(n == 2 && ((strcmp(rv_v[0].name, "host:1") == 0 && rv_v[0].counter == 7) ||
	    (strcmp(rv_v[1].name, "host:1") == 0 && rv_v[1].counter == 7)),
	    "replicas: the last counter reported");
	store_replicas_free(rv_v, n);

	/*
	 * store_count(): the numbers the dashboard shows, by GROUP BY,
	 * equal to counting a store_load() the way it used to.
	 */
	{
		struct skill_set	 set;
		struct store_counts	 sc, lc;
		struct skill		*s;
		size_t			 i;

		mkset(&set, "ta tb tc td te tf", 1);
		set.v[0]->trust = TIER_TRUSTED;
		set.v[1]->disable_model_invocation = 1;
		set.v[3]->trust = TIER_VERIFIED;
		set.v[4]->trust = TIER_UNTRUSTED;
		set.v[4]->disable_model_invocation = 1;
		for (i = 2; i < 6; i += 3) {	/* tc and tf shadowed by ta */
			free(set.v[i]->uid);
			set.v[i]->uid = xstrdup("ta");
			set.v[i]->shadowed_by = xstrdup(set.v[0]->path);
		}
		set.v[5]->disable_model_invocation = 1;
		ok(store_replace(st, &set, NULL, "c1", &cause) == 0,
		    "count: a content with tiers, duplicates, user-only");
		skill_set_done(&set);
		memset(&sc, 0xff, sizeof sc);
		rv = store_count(st, &sc, &cause);
		ok(rv == 0 && sc.entries == 6 &&
		    sc.winners == 4 && sc.user_only == 2,
		    "count: entries %zu, winners %zu, user-only %zu", sc.entries,
		    sc.winners, sc.user_only);
		ok(sc.tiers[TIER_TRUSTED] == 1 && sc.tiers[TIER_VERIFIED] == 1 &&
		    sc.tiers[TIER_USER] == 1 && sc.tiers[TIER_UNTRUSTED] == 1,
		    "count: winners per tier");
		memset(&lc, 0, sizeof lc);
		skill_set_init(&set);
		store_load(st, &set, &cause);
		for (i = 0; i < set.n; i++) {
			s = set.v[i];
			lc.entries++;
			if (s->shadowed_by != NULL)
				continue;
			lc.winners++;
			lc.user_only += s->disable_model_invocation != 0;
			lc.tiers[s->trust]++;
		}
		skill_set_done(&set);
		ok(memcmp(&sc, &lc, sizeof sc) == 0,
		    "count: the same as counting the loaded entries");
	}

	/* Notifications: postgres wakes a listener; sqlite says it cannot. */
	if (pg) {
		ok(store_open_pg(dsn, &st2, &cause) == 0 &&
		    store_listen(st2, &cause) == 0, "listen: a second connection");
		t0 = clock_ms();
		is_int(store_wait(st2, 100, -1, &cause), 0, "wait: times out without a write");
		ok(clock_ms() - t0 >= 90, "wait: waited for the timeout");
		ok(replace(st, "alpha omega", 4, "d10") == 0, "replace: a change");
		t0 = clock_ms();
		is_int(store_wait(st2, 5000, -1, &cause), 1, "wait: the write notifies");
		ok(clock_ms() - t0 < 1000, "wait: at once, not at the timeout");
		ok(replace(st, "alpha omega", 4, "d11") == 0, "replace: no change");
		is_int(store_wait(st2, 200, -1, &cause), 0, "wait: a write that changes nothing does not notify");
		store_close(st2);
		/* A newer schema is refused, with a clear message. */
		ok(store_meta_set(st, "schema", "99", &cause) == 0, "schema: pretend newer");
		rv = store_open_pg(dsn, &st2, &cause);
		ok(rv == SR_IO && cause != NULL && strstr(cause, "newer") != NULL,
		    "schema: a newer version is refused");
		free(cause);
		cause = NULL;
		{
			char	 cur[16];

			snprintf(cur, sizeof cur, "%d", STORE_SCHEMA_VERSION);
			store_meta_set(st, "schema", cur, NULL);
		}
		rv = store_open_pg("host=/nonexistent/dir user=u password=s3cret dbname=x",
		    &st2, &cause);
		ok(rv == SR_IO && cause != NULL && strstr(cause, "s3cret") == NULL &&
		    strstr(cause, "/nonexistent/dir") != NULL,
		    "connect: an error names the server, never the password");
		free(cause);
		cause = NULL;
	} else {
		rv = store_listen(st, &cause);
		ok(rv == SR_IO && cause != NULL, "listen: sqlite has none, clearly");
		free(cause);
		cause = NULL;
	}
	store_close(st);

	/* store.tombstone_writes reaches the store through store_open_cfg(). */
	{
		struct config	*cfg = config_defaults();
		int64_t		 c0;

		cfg->store_tomb_writes = 1;
		if (pg) {
			cfg->store_backend = STORE_BACKEND_POSTGRES;
			free(cfg->store_dsn);
			cfg->store_dsn = xstrdup(dsn);
		}
		free(cfg->index_path);
		xasprintf(&cfg->index_path, "%s/cfg.db", tmp);
		rv = store_open_cfg(cfg, 0, &st, &cause);
		ok(rv == 0, "open_cfg: %s", cause != NULL ? cause : "opened");
		ok(replace(st, "one two three", 1, "t1") == 0, "tombstones: a write");
		c0 = counter(st);
		ok(replace(st, "one two", 1, "t2") == 0 &&
		    replace(st, "one", 1, "t3") == 0, "tombstones: two deletes");
		rv = changes(st, c0, up, sizeof up, rm, sizeof rm, &c);
		is_int(rv, STORE_GAP, "tombstone_writes 1: a reader two writes behind reloads");
		rv = changes(st, c0 + 1, up, sizeof up, rm, sizeof rm, &c);
		ok(rv == 0 && strstr(rm, "two") != NULL && strstr(rm, "three") == NULL,
		    "tombstone_writes 1: a reader one write behind gets the delete (%s)", rm);
		store_close(st);

		/* What retrying cannot fix is SR_CONFIG, not SR_IO. */
		if (pg) {
			free(cfg->store_dsn);
			cfg->store_dsn = xstrdup("host=/tmp password=s3cret bogus_key=1");
			rv = store_open_cfg(cfg, 0, &st, &cause);
			ok(rv == SR_CONFIG && cause != NULL &&
			    strstr(cause, "store.dsn") != NULL &&
			    strstr(cause, "bogus_key") != NULL &&
			    strstr(cause, "s3cret") == NULL,
			    "a DSN libpq cannot parse is SR_CONFIG, named, no password: %s",
			    cause != NULL ? cause : "(none)");
			free(cause);
			cause = NULL;
		}
		free(cfg->store_dsn);
		cfg->store_dsn = xstrdup("");
		cfg->store_backend = STORE_BACKEND_POSTGRES;
		rv = store_open_cfg(cfg, 0, &st, &cause);
		ok(rv == SR_CONFIG && cause != NULL, "postgres without a DSN is SR_CONFIG");
		free(cause);
		cause = NULL;
		config_free(cfg);
	}

	{
		char	*cmd;

		xasprintf(&cmd, "rm -rf '%s'", tmp);
		if (system(cmd) != 0)
			diag("cleanup failed");
		free(cmd);
	}
	free(db);
	return done_testing();
}
