/* Unit tests: buf, strlist, findings, skill helpers, files. */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "core/files.h"
#include "core/finding.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

#include "tap.h"

static char tmpdir[] = "/tmp/sr-unit-buf.XXXXXX";

static void
write_file(const char *rel, const char *data, size_t len)
{
	char	*p;
	FILE	*fp;

	xasprintf(&p, "%s/%s", tmpdir, rel);
	fp = fopen(p, "wb");
	fwrite(data, 1, len, fp);
	fclose(fp);
	free(p);
}

static void
test_buf(void)
{
	struct buf	 b;
	char		*s;

	buf_init(&b, 8);
	ok(buf_addstr(&b, "abcd") == 0, "buf: append under the cap");
	ok(buf_printf(&b, "%d", 123) == 0, "buf: printf under the cap");
	is_str(b.p, "abcd123", "buf: contents");
	ok(buf_addstr(&b, "xy") == -1, "buf: append over the cap fails");
	is_str(b.p, "abcd123", "buf: a failed append leaves the buffer as it was");
	s = buf_take(&b);
	is_str(s, "abcd123", "buf: take hands over the bytes");
	is_int(b.len, 0, "buf: take resets");
	free(s);
	s = buf_take(&b);
	is_str(s, "", "buf: take of an empty buffer is an empty string");
	free(s);
	buf_done(&b);
}

static void
test_read_file(void)
{
	char	*p, *out;
	size_t	 len;

	write_file("ten", "0123456789", 10);
	xasprintf(&p, "%s/ten", tmpdir);
	ok(buf_read_file(p, 0, &out, &len) == 0 && len == 10 &&
	    strcmp(out, "0123456789") == 0, "read_file: whole file");
	free(out);
	ok(buf_read_file(p, 9, &out, &len) == -1 && errno == EFBIG &&
	    out == NULL, "read_file: over max fails with EFBIG");
	free(p);
	ok(buf_read_file(tmpdir, 0, &out, &len) == -1 && errno == EISDIR,
	    "read_file: a directory fails with EISDIR");
	ok(buf_read_file("/nonexistent/x", 0, &out, &len) == -1 &&
	    errno == ENOENT, "read_file: a missing file fails with ENOENT");

	/* A FIFO with no writer: a blocking read would never return. */
	xasprintf(&p, "%s/fifo", tmpdir);
	if (mkfifo(p, 0600) == -1)
		ok(0, "read_file: mkfifo");
	alarm(20);		/* a regression fails instead of hanging */
	ok(buf_read_file(p, 0, &out, &len) == -1 && errno == BUF_ENOTREG &&
	    out == NULL, "read_file: a FIFO fails at once with BUF_ENOTREG");
	alarm(0);
	ok(strcmp(buf_strerror(p, BUF_ENOTREG),
	    "not a regular file (a FIFO)") == 0,
	    "read_file: the FIFO error says what the file is");
	ok(strcmp(buf_strerror(p, ENOENT), strerror(ENOENT)) == 0,
	    "read_file: other errors are strerror()");
	unlink(p);
	free(p);
}

static void
test_strlist(void)
{
	struct strlist	 l;
	char		*j;

	strlist_init(&l);
	strlist_split(&l, " a, b ,,c ", ",");
	is_int(l.n, 3, "strlist: split drops empty items");
	j = strlist_join(&l, "|");
	is_str(j, "a|b|c", "strlist: split trims blanks");
	free(j);
	ok(strlist_add_unique(&l, "B", 1) == 0, "strlist: unique is case-insensitive when asked");
	ok(strlist_add_unique(&l, "B", 0) == 1, "strlist: unique is case-sensitive otherwise");
	ok(strlist_contains(&l, "c", 0), "strlist: contains");
	strlist_done(&l);
	is_int(l.n, 0, "strlist: done empties the list");
}

static void
test_findings(void)
{
	struct findings	 f, g;

	findings_init(&f);
	is_int(findings_max(&f), -1, "findings: empty max is -1");
	findings_add(&f, "a", SEV_WARN, 3, "x %d", 1);
	findings_add(&f, "b", SEV_ERROR, 0, "bad");
	is_int(findings_max(&f), SEV_ERROR, "findings: max severity");
	is_int(findings_count(&f, SEV_WARN), 2, "findings: count at or above");
	is_str(findings_first_error(&f)->rule, "b", "findings: first error");
	findings_init(&g);
	findings_extend(&g, &f);
	is_str(g.v[0].message, "x 1", "findings: extend copies messages");
	is_str(severity_name(SEV_HIGH), "high", "findings: severity names");
	is_int(severity_from_name("warn"), SEV_WARN, "findings: severity from name");
	is_int(severity_from_name("nope"), -1, "findings: unknown severity");
	findings_done(&f);
	findings_done(&g);
}

static void
test_names(void)
{
	char	 h1[17], h2[17];

	is_str(kind_name(KIND_AGENT), "agent", "skill: kind names");
	is_int(kind_from_name("Command"), KIND_COMMAND, "skill: kind from name, any case");
	is_int(kind_from_name("plugin"), -1, "skill: unknown kind");
	is_str(tier_name(TIER_VERIFIED), "VERIFIED", "skill: tier names");
	is_int(tier_from_name("user"), TIER_USER, "skill: tier from name, any case");
	ok(TIER_TRUSTED > TIER_VERIFIED && TIER_VERIFIED > TIER_USER &&
	    TIER_USER > TIER_UNTRUSTED, "skill: tiers are ordered");
	skill_hash("abc", 3, h1);
	skill_hash("abd", 3, h2);
	ok(strlen(h1) == 16 && strcmp(h1, h2) != 0, "skill: hash is 16 hex digits and differs");
}

static void
test_files(void)
{
	char	*out = NULL, *cause = NULL, *sub, *outside;
	size_t	 len;
	int	 truncated, rv;
	cJSON	*arr;

	ok(files_is_text("plain ascii\n", 12), "files: ascii is text");
	ok(files_is_text("za\xc5\xbc\xc3\xb3\xc5\x82\xc4\x87", 10), "files: UTF-8 is text");
	ok(!files_is_text("a\0b", 3), "files: NUL is binary");
	ok(!files_is_text("\xc3", 1), "files: truncated sequence is not text");
	ok(!files_is_text("\xc0\xaf", 2), "files: overlong encoding is not text");
	ok(!files_is_text("\xed\xa0\x80", 3), "files: surrogate is not text");
	is_int(files_utf8_cut("a\xc5\xbc", 3, 2), 1, "files: cut never splits a character");
	is_int(files_utf8_cut("abc", 3, 10), 3, "files: cut past the end is the length");

	xasprintf(&sub, "%s/skill", tmpdir);
	mkdir(sub, 0755);
	free(sub);
	xasprintf(&sub, "%s/skill/references", tmpdir);
	mkdir(sub, 0755);
	free(sub);
	write_file("skill/SKILL.md", "---\nname: x\n---\n", 16);
	write_file("skill/notes.md", "hello\n", 6);
	write_file("skill/references/a.md", "A\n", 2);
	write_file("skill/bin.dat", "\x01\x00\x02", 3);
	write_file("secret.txt", "secret\n", 7);
	xasprintf(&sub, "%s/skill/escape.md", tmpdir);
	xasprintf(&outside, "%s/secret.txt", tmpdir);
	ok(symlink(outside, sub) == 0, "files: made a symlink out of the folder");
	free(sub);
	free(outside);

	xasprintf(&sub, "%s/skill", tmpdir);
	arr = files_list(sub, 10, &truncated);
	is_int(cJSON_GetArraySize(arr), 3, "files: list has the folder's files and references/, not SKILL.md or escapes");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 2), "path")),
	    "references/a.md", "files: nested paths are relative");
	ok(!truncated, "files: not truncated under the cap");
	cJSON_Delete(arr);
	arr = files_list(sub, 1, &truncated);
	ok(truncated && cJSON_GetArraySize(arr) == 1, "files: the cap truncates and says so");
	cJSON_Delete(arr);

	rv = files_read(sub, "notes.md", 8, 1024, &out, &len, &cause);
	ok(rv == 0 && len == 6 && strcmp(out, "hello\n") == 0, "files: read a bundled file");
	free(out);
#define REFUSE(path, plen, want, what) do {				\
	cause = NULL;							\
	rv = files_read(sub, path, plen, 1024, &out, &len, &cause);	\
	ok(rv == (want) && out == NULL && cause != NULL, "files: %s", what); \
	if (cause) diag("%s", cause);					\
	free(cause);							\
} while (0)
	REFUSE("", 0, SR_REFUSED, "empty path refused");
	REFUSE("/etc/passwd", 11, SR_REFUSED, "absolute path refused");
	REFUSE("../secret.txt", 13, SR_REFUSED, "'..' refused");
	REFUSE("references/../../secret.txt", 27, SR_REFUSED, "nested '..' refused");
	REFUSE("notes.md\0x", 10, SR_REFUSED, "NUL byte refused");
	REFUSE("escape.md", 9, SR_REFUSED, "symlink out of the folder refused");
	REFUSE("bin.dat", 7, SR_REFUSED, "binary file refused");
	REFUSE("references", 10, SR_REFUSED, "directory refused");
	REFUSE("missing.md", 10, SR_NOTFOUND, "missing file is not found");
	cause = NULL;
	rv = files_read(sub, "notes.md", 8, 3, &out, &len, &cause);
	ok(rv == SR_REFUSED && strstr(cause, "max_related_kb") != NULL, "files: file over the limit refused");
	free(cause);
	free(sub);
}

int
main(void)
{
	xmalloc_init();
	if (mkdtemp(tmpdir) == NULL)
		return 1;
	test_buf();
	test_read_file();
	test_strlist();
	test_findings();
	test_names();
	test_files();
	{
		static const char blob[] = "ab\0\0c";	/* "ab", "", "c" unended */
		size_t	 at = 0;
		const char *a = buf_cstr_at(blob, 5, &at);
		const char *e = buf_cstr_at(blob, 5, &at);

		ok(a != NULL && strcmp(a, "ab") == 0 && e != NULL &&
		    *e == '\0' && at == 4, "cstr_at: two strings, then at 4");
		ok(buf_cstr_at(blob, 5, &at) == NULL && at == 4,
		    "cstr_at: no NUL before the end: NULL, at unchanged");
		at = 5;
		ok(buf_cstr_at(blob, 5, &at) == NULL, "cstr_at: at the end");
	}
	{
		char	*cmd;

		xasprintf(&cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			diag("could not remove %s", tmpdir);
		free(cmd);
	}
	return done_testing();
}
