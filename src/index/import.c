/*
 * Imported collections (import.h): fetching a source, finding and
 * assessing its skills, and writing a collection under the data dir.
 */
#include "autoconfig.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "index/assess.h"
#include "base/buf.h"
#include "core/config.h"
#include "core/frontmatter.h"
#include "index/import.h"
#include "base/sha256.h"
#include "core/sign.h"
#include "core/skill.h"
#include "base/status.h"
#include "core/trust.h"
#include "base/xmalloc.h"

#define RECORD		".import.json"
#define GIT_TIMEOUT_S	600

/* ---- names and places ----------------------------------------------- */

char *
import_root(void)
{
	char	*d = config_data_dir(), *r;

	xasprintf(&r, "%s/imports", d);
	free(d);
	return r;
}

/* Where sources are cloned and skills staged: beside imports, not in it. */
static char *
tmp_root(void)
{
	char	*d = config_data_dir(), *r;

	xasprintf(&r, "%s/import-tmp", d);
	free(d);
	return r;
}

int
import_name_valid(const char *s)
{
	size_t	 n = strlen(s);

	if (n == 0 || n > 64 || s[0] == '.' || s[0] == '-')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

char *
import_name_from_source(const char *source)
{
	char	*s = xstrdup(source), *b, *p;
	size_t	 n;

	while ((n = strlen(s)) > 1 && s[n - 1] == '/')
		s[n - 1] = '\0';
	b = strrchr(s, '/');
	b = b != NULL ? b + 1 : s;
	if ((p = strrchr(b, ':')) != NULL)
		b = p + 1;
	n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".git") == 0)
		b[n - 4] = '\0';
	for (p = b; *p != '\0'; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p += 'a' - 'A';
		else if (strchr("abcdefghijklmnopqrstuvwxyz0123456789._-",
		    *p) == NULL)
			*p = '-';
	}
	p = import_name_valid(b) ? xstrdup(b) : NULL;
	free(s);
	return p;
}

static int
is_git_url(const char *s)
{
	const char	*colon = strchr(s, ':'), *slash = strchr(s, '/');
	size_t		 n = strlen(s);
	struct stat	 st;

	if (strstr(s, "://") != NULL)
		return 1;
	/* scp-like user@host:path */
	if (colon != NULL && strchr(s, '@') != NULL &&
	    (slash == NULL || colon < slash))
		return 1;
	/* a bare repository on disk */
	return n > 4 && strcmp(s + n - 4, ".git") == 0 &&
	    stat(s, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- removing and copying trees ------------------------------------- */

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return (flag == FTW_DP ? rmdir(p) : unlink(p)) == -1 &&
	    errno != ENOENT ? -1 : 0;
}

static int
rm_tree(const char *path)
{
	struct stat	 st;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Copies the regular files and folders of src into dst (created), never
 * following a symlink and skipping .git; at most *budget bytes. Returns
 * 0, or -1 with errno (EFBIG over the budget).
 */
static int
copy_tree(const char *src, const char *dst, size_t *budget, int depth)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		 s[PATH_MAX], t[PATH_MAX], *data;
	size_t		 len;
	int		 rv = 0;

	if (depth > IMPORT_MAX_DEPTH) {
		errno = ELOOP;
		return -1;
	}
	if (mkdir(dst, 0755) == -1 && errno != EEXIST)
		return -1;
	if ((d = opendir(src)) == NULL)
		return -1;
	while (rv == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, ".git") == 0)
			continue;
		if ((size_t)snprintf(s, sizeof s, "%s/%s", src, de->d_name) >=
		    sizeof s || (size_t)snprintf(t, sizeof t, "%s/%s", dst,
		    de->d_name) >= sizeof t) {
			errno = ENAMETOOLONG;
			rv = -1;
			break;
		}
		if (lstat(s, &st) == -1)
			continue;
		if (S_ISDIR(st.st_mode))
			rv = copy_tree(s, t, budget, depth + 1);
		else if (S_ISREG(st.st_mode)) {
			if ((size_t)st.st_size > *budget) {
				errno = EFBIG;
				rv = -1;
				break;
			}
			if (buf_read_file(s, *budget, &data, &len) == -1) {
				rv = -1;
				break;
			}
			*budget -= len;
			rv = buf_write_atomic(t, data, len,
			    (st.st_mode & 0111) ? 0755 : 0644);
			free(data);
		}
		/* symlinks, FIFOs and devices are not copied */
	}
	closedir(d);
	return rv;
}

/* ---- fetching ------------------------------------------------------- */

/*
 * Runs git with argv (argv[0] "git"), stdin from /dev/null, output kept
 * for the error message; git's prompts are off. Returns 0, or -1 with
 * *cause. out (may be NULL) gets the first line of its standard output.
 */
static int
run_git(char *const argv[], char **out, char **cause)
{
	struct buf	 b;
	char		 chunk[1024];
	int		 p[2], status, fd;
	pid_t		 pid;
	ssize_t		 n;
	time_t		 deadline = time(NULL) + GIT_TIMEOUT_S;

	if (pipe(p) == -1) {
		xasprintf(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		xasprintf(cause, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if ((fd = open("/dev/null", O_RDONLY)) != -1)
			dup2(fd, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		setenv("GIT_TERMINAL_PROMPT", "0", 1);
		setenv("GIT_ASKPASS", "/bin/false", 1);
		execvp("git", argv);
		fprintf(stderr, "cannot run git: %s (install the Debian "
		    "package 'git')\n", strerror(errno));
		_exit(127);
	}
	close(p[1]);
	buf_init(&b, 1 << 16);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		n = read(p[0], chunk, sizeof chunk);
		if (n > 0) {
			buf_add(&b, chunk, (size_t)n);
			continue;
		}
		if (n == 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			break;
		if (time(NULL) > deadline) {
			kill(pid, SIGKILL);
			break;
		}
		usleep(20000);
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	buf_addc(&b, '\0');
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char	*msg = b.p != NULL ? b.p : "";

		msg[strcspn(msg, "\n")] = '\0';
		xasprintf(cause, "git %s failed: %s", argv[1],
		    *msg ? msg : "killed or timed out");
		buf_done(&b);
		return -1;
	}
	if (out != NULL) {
		char	*s = b.p != NULL ? b.p : "";

		s[strcspn(s, "\r\n")] = '\0';
		*out = xstrdup(s);
	}
	buf_done(&b);
	return 0;
}

int
import_fetch(const char *source, const char *ref, char **dir, char **commit,
    int *temporary, char **cause)
{
	char		*tmp, *base, real[PATH_MAX], *clone;
	struct stat	 st;

	*dir = *commit = *cause = NULL;
	*temporary = 0;
	if (!is_git_url(source)) {
		if (stat(source, &st) == -1 || !S_ISDIR(st.st_mode) ||
		    realpath(source, real) == NULL) {
			xasprintf(cause, "%s: not a folder, and not a git URL "
			    "(scheme://..., user@host:path or a .git folder)",
			    source);
			return SR_NOTFOUND;
		}
		if (ref != NULL) {
			xasprintf(cause, "--ref needs a git source, not the "
			    "folder %s", source);
			return SR_USAGE;
		}
		*dir = xstrdup(real);
		return SR_OK;
	}
	base = tmp_root();
	if (buf_mkparents(base, 0700) == -1 ||
	    (mkdir(base, 0700) == -1 && errno != EEXIST)) {
		xasprintf(cause, "%s: %s", base, strerror(errno));
		free(base);
		return SR_IO;
	}
	xasprintf(&tmp, "%s/fetch.XXXXXX", base);
	free(base);
	if (mkdtemp(tmp) == NULL) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return SR_IO;
	}
	xasprintf(&clone, "%s/src", tmp);
	{
		char	*argv[12], *cargv[] = { "git", "-C", clone,
			    "rev-parse", "HEAD", NULL };
		int	 i = 0;

		argv[i++] = "git";
		argv[i++] = "clone";
		argv[i++] = "--quiet";
		argv[i++] = "--depth";
		argv[i++] = "1";
		argv[i++] = "--no-tags";
		if (ref != NULL) {
			argv[i++] = "--branch";
			argv[i++] = (char *)ref;
		}
		argv[i++] = "--";
		argv[i++] = (char *)source;
		argv[i++] = clone;
		argv[i] = NULL;
		if (run_git(argv, NULL, cause) != 0 ||
		    run_git(cargv, commit, cause) != 0) {
			rm_tree(tmp);
			free(tmp);
			free(clone);
			return SR_IO;
		}
	}
	*dir = clone;
	*temporary = 1;
	free(tmp);
	return SR_OK;
}

void
import_cleanup(const char *dir, int temporary)
{
	char	*parent, *slash;

	if (!temporary || dir == NULL)
		return;
	parent = xstrdup(dir);
	if ((slash = strrchr(parent, '/')) != NULL)
		*slash = '\0';
	rm_tree(parent);
	free(parent);
}

/* ---- discovering and assessing -------------------------------------- */

void
import_set_done(struct import_set *set)
{
	size_t	 i;

	for (i = 0; i < set->n; i++) {
		struct import_skill	*k = &set->v[i];

		free(k->name);
		free(k->dir);
		free(k->src);
		free(k->rel);
		free(k->signer);
		free(k->sign_status);
		findings_done(&k->findings);
	}
	free(set->v);
	set->v = NULL;
	set->n = 0;
}

static struct import_skill *
add_skill(struct import_set *set)
{
	struct import_skill	*k;

	set->v = xreallocarray(set->v, set->n + 1, sizeof *set->v);
	k = &set->v[set->n++];
	memset(k, 0, sizeof *k);
	findings_init(&k->findings);
	k->old_sev = -1;
	return k;
}

/*
 * The risk of one skill folder (path: its SKILL.md), as the index would
 * assess it below USER trust: frontmatter, body and bundled files.
 */
static void
assess(const struct config *cfg, const struct sanitizer *san,
    struct import_skill *k, const char *path, const char *text, size_t len,
    const struct fm *fm)
{
	struct assess_limits	 lim;
	struct assess_entry	 ae;

	assess_limits_init(&lim, cfg);
	memset(&ae, 0, sizeof ae);
	ae.path = path;
	ae.bundled = 1;
	ae.text = text;
	ae.len = len;
	ae.fm = fm;
	ae.trust = TIER_UNTRUSTED;
	assess_skill(san, &lim, &ae, &k->findings, &k->risk);
}

static void
examine(const struct config *cfg, const struct sanitizer *san,
    const struct trust *tr, struct import_set *set, const char *root,
    const char *dir)
{
	struct import_skill	*k;
	struct sign_result	 sr;
	struct fm		 fm;
	char			*path, *text = NULL, *man = NULL, *cause = NULL;
	const char		*base;
	size_t			 len, mlen, max, i;
	int			 n;

	xasprintf(&path, "%s/SKILL.md", dir);
	max = (size_t)cfg->max_skill_size_kb * 1024;
	k = add_skill(set);
	k->src = xstrdup(dir);
	k->rel = xstrdup(strcmp(dir, root) == 0 ? "." :
	    dir + strlen(root) + 1);
	base = strrchr(dir, '/') != NULL ? strrchr(dir, '/') + 1 : dir;
	if (buf_read_file(path, max, &text, &len) == -1) {
		k->name = xstrdup(base);
		findings_add(&k->findings, errno == EFBIG ? "file-too-large" :
		    "file-unreadable", SEV_HIGH, 0, "SKILL.md: %s",
		    errno == EFBIG ? "over limits.max_skill_size_kb" :
		    buf_strerror(path, errno));
		k->risk.score = 0;
		k->risk.sev = SEV_HIGH;
	} else {
		memset(&fm, 0, sizeof fm);
		fm_parse(text, len, &fm);
		k->name = xstrdup(fm.name != NULL && *fm.name != '\0' ?
		    fm.name : base);
		assess(cfg, san, k, path, text, len, &fm);
		fm_done(&fm);
	}
	/* The folder name inside the collection: unique, from the source. */
	k->dir = xstrdup(base[0] != '.' && strcmp(base, "") != 0 ? base :
	    "skill");
	for (n = 2; ; n++) {
		for (i = 0; i + 1 < set->n; i++) {
			if (strcmp(set->v[i].dir, k->dir) == 0)
				break;
		}
		if (i + 1 >= set->n)
			break;
		free(k->dir);
		xasprintf(&k->dir, "%s-%d", base, n);
	}
	trust_signed(tr, dir, TIER_UNTRUSTED, &sr);
	k->sign_status = xstrdup(sign_status_name(sr.status));
	k->signer = sr.signer != NULL ? xstrdup(sr.signer) : NULL;
	sign_result_done(&sr);
	if (sign_manifest(dir, &man, &mlen, &cause) == SR_OK)
		sha256_hex(man, mlen, k->digest);
	else {
		/* Not copyable as a whole (a symlink out, say): no digest. */
		findings_add(&k->findings, "import-folder", SEV_WARN, 0, "%s",
		    cause);
		free(cause);
	}
	free(man);
	free(text);
	free(path);
}

static int
walk(const struct config *cfg, const struct sanitizer *san,
    const struct trust *tr, struct import_set *set, const char *root,
    const char *dir, int depth)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*p;

	if (depth > IMPORT_MAX_DEPTH || set->n >= IMPORT_MAX_SKILLS)
		return 0;
	xasprintf(&p, "%s/SKILL.md", dir);
	if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		free(p);
		examine(cfg, san, tr, set, root, dir);
		return 0;	/* a skill's own folders are its files */
	}
	free(p);
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, ".git") == 0 ||
		    strlist_contains(&cfg->exclude_dirs, de->d_name, 0))
			continue;
		xasprintf(&p, "%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			walk(cfg, san, tr, set, root, p, depth + 1);
		free(p);
	}
	closedir(d);
	return 0;
}

int
import_discover(const struct config *cfg, const struct sanitizer *san,
    const struct trust *tr, const char *root, const char *subpath,
    struct import_set *out, char **cause)
{
	char		*start, real[PATH_MAX];
	struct stat	 st;

	out->v = NULL;
	out->n = 0;
	*cause = NULL;
	if (subpath != NULL && (subpath[0] == '/' ||
	    strstr(subpath, "..") != NULL)) {
		xasprintf(cause, "--subpath %s: a path inside the source, "
		    "without '..'", subpath);
		return SR_USAGE;
	}
	if (subpath != NULL && *subpath != '\0')
		xasprintf(&start, "%s/%s", root, subpath);
	else
		start = xstrdup(root);
	if (stat(start, &st) == -1 || !S_ISDIR(st.st_mode) ||
	    realpath(start, real) == NULL ||
	    strncmp(real, root, strlen(root)) != 0) {
		xasprintf(cause, "--subpath %s: no such folder in the source",
		    subpath != NULL ? subpath : ".");
		free(start);
		return SR_NOTFOUND;
	}
	walk(cfg, san, tr, out, root, real, 0);
	free(start);
	return SR_OK;
}

/* ---- the record ----------------------------------------------------- */

static char *
coll_dir(const char *name)
{
	char	*r = import_root(), *d;

	xasprintf(&d, "%s/%s", r, name);
	free(r);
	return d;
}

int
import_record(const char *name, cJSON **out, char **cause)
{
	char	*d = coll_dir(name), *p, *text;
	size_t	 len;

	*out = NULL;
	*cause = NULL;
	xasprintf(&p, "%s/%s", d, RECORD);
	free(d);
	if (buf_read_file(p, 4u << 20, &text, &len) == -1) {
		int	 e = errno;

		if (e == ENOENT) {
			free(p);
			return SR_NOTFOUND;
		}
		xasprintf(cause, "%s: %s", p, buf_strerror(p, e));
		free(p);
		return SR_IO;
	}
	if ((*out = cJSON_Parse(text)) == NULL ||
	    !cJSON_IsArray(cJSON_GetObjectItem(*out, "skills"))) {
		xasprintf(cause, "%s: not an import record (remove the "
		    "collection and import it again)", p);
		cJSON_Delete(*out);
		*out = NULL;
		free(text);
		free(p);
		return SR_IO;
	}
	free(text);
	free(p);
	return SR_OK;
}

static const char *
jstr(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(o, k));
}

void
import_plan(struct import_set *set, const cJSON *record)
{
	const cJSON	*a = cJSON_GetObjectItem(record, "skills"), *it, *r;
	size_t		 i, n = set->n;
	int		 found;

	for (i = 0; i < n; i++) {
		struct import_skill	*k = &set->v[i];

		k->change = IMPORT_NEW;
		cJSON_ArrayForEach(it, a) {
			const char	*rel = jstr(it, "source_path");

			if (rel == NULL || strcmp(rel, k->rel) != 0)
				continue;
			k->change = jstr(it, "digest") != NULL &&
			    strcmp(jstr(it, "digest"), k->digest) == 0 ?
			    IMPORT_SAME : IMPORT_CHANGED;
			/* it keeps its place in the collection */
			if (jstr(it, "dir") != NULL) {
				free(k->dir);
				k->dir = xstrdup(jstr(it, "dir"));
			}
			r = cJSON_GetObjectItem(it, "risk");
			k->old_score = cJSON_GetNumberValue(
			    cJSON_GetObjectItem(r, "score"));
			k->old_sev = jstr(r, "severity") != NULL ?
			    severity_from_name(jstr(r, "severity")) : -1;
			break;
		}
	}
	cJSON_ArrayForEach(it, a) {
		const char	*rel = jstr(it, "source_path");

		found = 0;
		for (i = 0; i < n && rel != NULL; i++) {
			if (strcmp(set->v[i].rel, rel) == 0)
				found = 1;
		}
		if (!found && rel != NULL && jstr(it, "dir") != NULL) {
			struct import_skill	*k = add_skill(set);

			k->change = IMPORT_REMOVED;
			k->name = xstrdup(jstr(it, "name") != NULL ?
			    jstr(it, "name") : jstr(it, "dir"));
			k->dir = xstrdup(jstr(it, "dir"));
			k->rel = xstrdup(rel);
			k->src = xstrdup("");
			k->sign_status = xstrdup("unsigned");
			r = cJSON_GetObjectItem(it, "risk");
			k->old_score = cJSON_GetNumberValue(
			    cJSON_GetObjectItem(r, "score"));
			k->old_sev = jstr(r, "severity") != NULL ?
			    severity_from_name(jstr(r, "severity")) : -1;
		}
	}
}

static cJSON *
record_entry(const struct import_skill *k)
{
	cJSON	*o = cJSON_CreateObject(), *r;

	cJSON_AddStringToObject(o, "name", k->name);
	cJSON_AddStringToObject(o, "dir", k->dir);
	cJSON_AddStringToObject(o, "source_path", k->rel);
	cJSON_AddStringToObject(o, "digest", k->digest);
	r = cJSON_AddObjectToObject(o, "risk");
	cJSON_AddNumberToObject(r, "score", k->risk.score);
	cJSON_AddStringToObject(r, "severity", severity_name(k->risk.sev));
	if (k->signer != NULL)
		cJSON_AddStringToObject(o, "signer", k->signer);
	return o;
}

/* The record's entry for k (still in place when k is held back). */
static const cJSON *
old_entry(const cJSON *record, const char *rel)
{
	const cJSON	*it;

	cJSON_ArrayForEach(it, cJSON_GetObjectItem(record, "skills")) {
		if (jstr(it, "source_path") != NULL &&
		    strcmp(jstr(it, "source_path"), rel) == 0)
			return it;
	}
	return NULL;
}

static int
install_one(const char *coll, const struct import_skill *k, char **cause)
{
	char	*tmpb = tmp_root(), *stage, *dst;
	size_t	 budget = IMPORT_MAX_COPY;
	int	 rv = SR_OK;

	xasprintf(&stage, "%s/stage.XXXXXX", tmpb);
	free(tmpb);
	xasprintf(&dst, "%s/%s", coll, k->dir);
	if (mkdtemp(stage) == NULL) {
		xasprintf(cause, "%s: %s", stage, strerror(errno));
		rv = SR_IO;
	} else if (copy_tree(k->src, stage, &budget, 0) == -1) {
		xasprintf(cause, "copying %s: %s", k->rel, errno == EFBIG ?
		    "over 64 MiB" : strerror(errno));
		rv = SR_IO;
	} else if (rm_tree(dst) == -1 || rename(stage, dst) == -1) {
		xasprintf(cause, "%s: %s", dst, strerror(errno));
		rv = SR_IO;
	}
	if (rv != SR_OK)
		rm_tree(stage);
	free(stage);
	free(dst);
	return rv;
}

int
import_apply(const char *name, const struct import_set *set,
    const char *source, const char *subpath, const char *ref,
    const char *commit, const cJSON *record, char **cause)
{
	cJSON		*rec, *arr;
	const cJSON	*old;
	char		*coll = coll_dir(name), *tmpb = tmp_root(), *p, *text;
	char		 when[32];
	size_t		 i;
	time_t		 now = time(NULL);
	int		 rv = SR_OK;

	*cause = NULL;
	if (buf_mkparents(coll, 0755) == -1 ||
	    (mkdir(coll, 0755) == -1 && errno != EEXIST) ||
	    (mkdir(tmpb, 0700) == -1 && errno != EEXIST)) {
		xasprintf(cause, "%s: %s", coll, strerror(errno));
		free(coll);
		free(tmpb);
		return SR_IO;
	}
	free(tmpb);
	rec = cJSON_CreateObject();
	cJSON_AddStringToObject(rec, "source", source);
	if (subpath != NULL)
		cJSON_AddStringToObject(rec, "subpath", subpath);
	if (ref != NULL)
		cJSON_AddStringToObject(rec, "ref", ref);
	if (commit != NULL)
		cJSON_AddStringToObject(rec, "commit", commit);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	cJSON_AddStringToObject(rec, "updated", when);
	arr = cJSON_AddArrayToObject(rec, "skills");
	for (i = 0; rv == SR_OK && i < set->n; i++) {
		const struct import_skill	*k = &set->v[i];

		switch (k->change) {
		case IMPORT_NEW:
		case IMPORT_CHANGED:
			if (k->accept && k->digest[0] != '\0') {
				rv = install_one(coll, k, cause);
				cJSON_AddItemToArray(arr, record_entry(k));
			} else if (k->change == IMPORT_CHANGED &&
			    (old = old_entry(record, k->rel)) != NULL)
				cJSON_AddItemToArray(arr,
				    cJSON_Duplicate(old, 1));
			break;
		case IMPORT_SAME:
			cJSON_AddItemToArray(arr, record_entry(k));
			break;
		case IMPORT_REMOVED:
			xasprintf(&p, "%s/%s", coll, k->dir);
			if (strchr(k->dir, '/') == NULL && k->dir[0] != '.' &&
			    rm_tree(p) == -1) {
				xasprintf(cause, "%s: %s", p, strerror(errno));
				rv = SR_IO;
			}
			free(p);
			break;
		}
	}
	text = cJSON_Print(rec);
	cJSON_Delete(rec);
	xasprintf(&p, "%s/%s", coll, RECORD);
	if (rv == SR_OK && buf_write_atomic(p, text, strlen(text), 0644) ==
	    -1) {
		xasprintf(cause, "%s: %s", p, strerror(errno));
		rv = SR_IO;
	}
	free(p);
	cJSON_free(text);
	free(coll);
	return rv;
}

int
import_remove(const char *name, char **cause)
{
	char		*d = coll_dir(name), *p;
	struct stat	 st;
	int		 rv = SR_OK;

	*cause = NULL;
	xasprintf(&p, "%s/%s", d, RECORD);
	if (lstat(p, &st) == -1) {
		xasprintf(cause, "%s: no imported collection of that name "
		    "(see 'skills-radar import --list')", name);
		rv = SR_NOTFOUND;
	} else if (rm_tree(d) == -1) {
		xasprintf(cause, "%s: %s", d, strerror(errno));
		rv = SR_IO;
	}
	free(p);
	free(d);
	return rv;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
import_list(struct strlist *out)
{
	char		*r = import_root(), *p;
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;

	if ((d = opendir(r)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			xasprintf(&p, "%s/%s/%s", r, de->d_name, RECORD);
			if (lstat(p, &st) == 0)
				strlist_add(out, de->d_name);
			free(p);
		}
		closedir(d);
	}
	free(r);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_name);
}
