/* Unit tests: index.db schema, round trip, atomic replace, versions. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/skill.h"
#include "base/status.h"
#include "store/store.h"
#include "base/xmalloc.h"

#include "tap.h"

static char tmp[] = "/tmp/sr-unit-store.XXXXXX";

static struct skill *
mk(const char *name, const char *path)
{
	struct skill	*s = skill_new();

	s->uid = xstrdup(name);
	s->name = xstrdup(name);
	s->path = xstrdup(path);
	s->realpath = xstrdup(path);
	s->root = xstrdup("/root");
	s->scope = xstrdup("user");
	s->trust = TIER_USER;
	s->description = xstrdup("Zażółć \"quoted\" description");
	s->when_to_use = xstrdup("");
	strlist_add(&s->tags, "pdf");
	strlist_add(&s->tags, "a,b");
	strlist_add(&s->requires_tools, "qpdf");
	s->size = 123;
	s->mtime_ns = 1700000000123456789LL;
	skill_hash("x", 1, s->hash);
	s->frontmatter = xstrdup("{\"name\":\"x\"}");
	return s;
}

int
main(void)
{
	struct store		*st;
	struct skill_set	 set, back;
	struct store_rejects	 rej, rback;
	char			*db, *cause = NULL, *v;
	sqlite3			*raw;
	int			 rv;

	xmalloc_init();
	if (mkdtemp(tmp) == NULL)
		return 1;
	xasprintf(&db, "%s/sub/dir/index.db", tmp);

	rv = store_open(db, 1, &st, &cause);
	ok(rv == SR_NOTFOUND && st == NULL && cause != NULL, "open: readonly on a missing file is not found");
	free(cause);
	cause = NULL;

	rv = store_open(db, 0, &st, &cause);
	ok(rv == 0 && st != NULL, "open: creates the file and its directories");

	skill_set_init(&set);
	skill_set_add(&set, mk("alpha", "/r/alpha/SKILL.md"));
	skill_set_add(&set, mk("beta", "/r/beta/SKILL.md"));
	set.v[1]->shadowed_by = xstrdup("/r/alpha/SKILL.md");
	set.v[1]->disable_model_invocation = 1;
	store_rejects_init(&rej);
	store_rejects_add(&rej, "/r/bad/SKILL.md", 10, 20, "00", "name-invalid", "bad name", 0);
	rv = store_replace(st, &set, &rej, "digest1", &cause);
	ok(rv == 0, "replace: writes entries and rejects");

	skill_set_init(&back);
	rv = store_load(st, &back, &cause);
	ok(rv == 0 && back.n == 2, "load: both entries come back");
	is_str(back.v[0]->description, "Zażółć \"quoted\" description", "load: UTF-8 and quotes survive");
	is_int(back.v[0]->tags.n, 2, "load: lists survive");
	is_str(back.v[0]->tags.v[1], "a,b", "load: a list item with a comma is not split");
	is_int(back.v[0]->mtime_ns, 1700000000123456789LL, "load: nanosecond mtimes survive");
	is_str(back.v[1]->shadowed_by, "/r/alpha/SKILL.md", "load: shadowed_by survives");
	is_int(back.v[1]->disable_model_invocation, 1, "load: flags survive");
	is_str(back.v[0]->hash, set.v[0]->hash, "load: hash survives");
	store_rejects_init(&rback);
	ok(store_load_rejects(st, &rback, &cause) == 0 && rback.n == 1 &&
	    strcmp(rback.v[0].rule, "name-invalid") == 0, "load: rejects survive");
	store_rejects_done(&rback);
	v = store_meta_get(st, "digest");
	is_str(v, "digest1", "meta: the digest is stored with the content");
	free(v);
	skill_set_done(&back);

	/* A failing replace (duplicate path) leaves the old content intact. */
	skill_set_add(&set, mk("gamma", "/r/alpha/SKILL.md"));
	rv = store_replace(st, &set, &rej, "digest2", &cause);
	ok(rv == SR_IO && cause != NULL, "replace: a constraint failure is an error");
	free(cause);
	cause = NULL;
	skill_set_init(&back);
	store_load(st, &back, &cause);
	is_int(back.n, 2, "replace: the previous index is intact after a failure");
	v = store_meta_get(st, "digest");
	is_str(v, "digest1", "replace: the digest is not changed by a failure");
	free(v);
	skill_set_done(&back);
	store_close(st);

	/* A database from a newer version is refused, not clobbered. */
	ok(sqlite3_open(db, &raw) == SQLITE_OK, "version: raw open");
	sqlite3_exec(raw, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(raw);
	rv = store_open(db, 0, &st, &cause);
	ok(rv == SR_IO && cause != NULL && strstr(cause, "newer") != NULL,
	    "version: a newer schema is refused with a clear message");
	free(cause);
	cause = NULL;

	/* A file that is not a database is an error, not a crash. */
	{
		FILE	*fp;
		char	*junk;

		xasprintf(&junk, "%s/junk.db", tmp);
		fp = fopen(junk, "w");
		fputs("this is not sqlite\n", fp);
		fclose(fp);
		rv = store_open(junk, 0, &st, &cause);
		ok(rv == SR_IO && cause != NULL, "open: a corrupt file is a clear error");
		diag("%s", cause ? cause : "");
		free(cause);
		free(junk);
	}

	skill_set_done(&set);
	store_rejects_done(&rej);
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
