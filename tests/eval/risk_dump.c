/*
 * risk_dump: the sanitiser's view of skill folders, for tests/eval/threat
 * and tests/eval/fit-risk. For every folder holding a SKILL.md under the
 * roots given (a folder nested in a skill that has its own SKILL.md is a
 * skill of its own), it scans SKILL.md (frontmatter and body) with
 * sanitize_scan(), every other text file of the folder with
 * sanitize_file(), adds codescan_unshipped() for scripts the body runs
 * that the folder lacks and the cross-file rules (assess_files_*: claims
 * the code breaks, secrets read in one file and sent from another),
 * scores the lot with sanitize_risk() and prints one JSON
 * line: {"path","score","sev","rules":[distinct ids],"findings":[...]}.
 *
 *	risk_dump [-d DATADIR] [-t untrusted|user|verified|trusted]
 *	    [-r RISKFILE] ROOT...
 *
 * Bundled files are read up to 256 KiB each, 64 a skill, 4 levels deep,
 * text only (no NUL in the first 4 KiB); the index-time plumbing has its
 * own caps. Exit status: 0, or 1 when the sanitiser cannot be built.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "index/assess.h"
#include "base/buf.h"
#include "safety/codescan.h"
#include "core/config.h"
#include "core/finding.h"
#include "base/jsonout.h"
#include "safety/sanitize.h"
#include "core/skill.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

#define FILE_MAX	(256 * 1024)
#define FILES_MAX	64
#define DEPTH_MAX	4

struct dump {
	struct sanitizer	*s;
	int			 trust;
};

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
sort_list(struct strlist *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, str_cmp);
}

static int
has_skill_md(const char *dir)
{
	char		*p;
	struct stat	 st;
	int		 r;

	xasprintf(&p, "%s/SKILL.md", dir);
	r = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return r;
}

/* Adds the text files under dir (relative to top) to files. */
static void
collect(const char *top, const char *rel, int depth, struct strlist *files)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*dir, *p, *r;

	xasprintf(&dir, "%s%s%s", top, *rel ? "/" : "", rel);
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(d)) != NULL && files->n < FILES_MAX) {
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    strcmp(de->d_name, "..") == 0 || strcmp(de->d_name,
		    ".git") == 0))
			continue;
		xasprintf(&p, "%s/%s", dir, de->d_name);
		xasprintf(&r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		if (lstat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < DEPTH_MAX &&
			    !has_skill_md(p))
				collect(top, r, depth + 1, files);
			else if (S_ISREG(st.st_mode) &&
			    strcmp(r, "SKILL.md") != 0)
				strlist_add(files, r);
		}
		free(p);
		free(r);
	}
	closedir(d);
	free(dir);
}

static void
dump_skill(struct dump *dm, const char *dir)
{
	struct findings	 f;
	struct strlist	 files, ids;
	struct risk	 rk;
	struct assess_files af;
	struct codescan_caps caps;
	cJSON		*o, *a, *fa, *it;
	char		*p, *data, *js;
	size_t		 len, i, n;

	findings_init(&f);
	strlist_init(&files);
	strlist_init(&ids);
	collect(dir, "", 0, &files);
	sort_list(&files);
	xasprintf(&p, "%s/SKILL.md", dir);
	assess_files_init(&af, NULL, 0);
	if (buf_read_file(p, FILE_MAX, &data, &len) == 0) {
		assess_files_init(&af, data, len);
		sanitize_scan(dm->s, data, len, 0, &f);
		/*
		 * Scripts the body runs that the folder lacks. The index
		 * does this where it assesses a skill (src/assess.c, once
		 * merged); here it stands in for it.
		 */
		codescan_unshipped(data, len, &files, 0, &f);
		free(data);
	}
	free(p);
	for (i = 0; i < files.n; i++) {
		xasprintf(&p, "%s/%s", dir, files.v[i]);
		if (buf_read_file(p, FILE_MAX, &data, &len) == 0) {
			n = len < 4096 ? len : 4096;
			if (memchr(data, '\0', n) == NULL) {
				sanitize_file_caps(dm->s, files.v[i], data,
				    len, &f, &caps);
				assess_files_add(&af, files.v[i], data, len,
				    &caps, &f);
			}
			free(data);
		}
		free(p);
	}
	assess_files_done(&af, &f);
	sanitize_risk(dm->s, &f, dm->trust, &rk);

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "path", dir);
	cJSON_AddNumberToObject(o, "score", rk.score);
	cJSON_AddStringToObject(o, "sev", severity_name(rk.sev));
	a = cJSON_AddArrayToObject(o, "rules");
	fa = cJSON_AddArrayToObject(o, "findings");
	for (i = 0; i < f.n; i++) {
		if (strlist_add_unique(&ids, f.v[i].rule, 1))
			cJSON_AddItemToArray(a, cJSON_CreateString(
			    f.v[i].rule));
		it = cJSON_CreateObject();
		cJSON_AddStringToObject(it, "rule", f.v[i].rule);
		cJSON_AddStringToObject(it, "sev", severity_name(f.v[i].sev));
		cJSON_AddNumberToObject(it, "weight", f.v[i].weight);
		if (f.v[i].file != NULL)
			cJSON_AddStringToObject(it, "file", f.v[i].file);
		cJSON_AddNumberToObject(it, "line", f.v[i].line);
		cJSON_AddStringToObject(it, "message", f.v[i].message);
		cJSON_AddItemToArray(fa, it);
	}
	js = jsonout_print(o, 0);
	printf("%s\n", js);
	free(js);
	cJSON_Delete(o);
	strlist_done(&ids);
	strlist_done(&files);
	findings_done(&f);
}

/* Every skill folder under root (root itself included), sorted. */
static void
walk(struct dump *dm, const char *root, int depth)
{
	struct strlist	 sub;
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*p;
	size_t		 i;

	if (has_skill_md(root))
		dump_skill(dm, root);
	if (depth > 8 || (d = opendir(root)) == NULL)
		return;
	strlist_init(&sub);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		xasprintf(&p, "%s/%s", root, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			strlist_add(&sub, p);
		free(p);
	}
	closedir(d);
	sort_list(&sub);
	for (i = 0; i < sub.n; i++)
		walk(dm, sub.v[i], depth + 1);
	strlist_done(&sub);
}

int
main(int argc, char **argv)
{
	struct config	*cfg;
	struct dump	 dm = { NULL, TIER_UNTRUSTED };
	const char	*datadir = SR_SRCDIR "/config";
	char		*cause = NULL;
	int		 c, i;

	xmalloc_init();
	cfg = config_defaults();
	while ((c = getopt(argc, argv, "d:r:t:")) != -1) {
		switch (c) {
		case 'd':
			datadir = optarg;
			break;
		case 'r':
			strlist_add(&cfg->risk_files, optarg);
			break;
		case 't':
			for (dm.trust = TIER_UNTRUSTED; dm.trust <=
			    TIER_TRUSTED; dm.trust++) {
				if (strcasecmp(tier_name(dm.trust), optarg) ==
				    0)
					break;
			}
			if (dm.trust > TIER_TRUSTED) {
				fprintf(stderr, "risk_dump: bad tier %s\n",
				    optarg);
				return 1;
			}
			break;
		default:
			fprintf(stderr, "usage: risk_dump [-d datadir] "
			    "[-r riskfile] [-t tier] root...\n");
			return 1;
		}
	}
	if (sanitize_new_dir(cfg, datadir, &dm.s, &cause) != 0) {
		fprintf(stderr, "risk_dump: %s\n", cause);
		free(cause);
		return 1;
	}
	for (i = optind; i < argc; i++)
		walk(&dm, argv[i], 0);
	sanitize_free(dm.s);
	config_free(cfg);
	return 0;
}
