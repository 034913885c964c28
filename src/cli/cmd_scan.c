/*
 * scan: a security report for operators and CI, without an index. Finds
 * skills the way index does (the given paths, or every configured root),
 * assesses each whole skill (frontmatter, body, bundled files), scores
 * it, optionally asks the model judge about grey-zone ones, and prints
 * the result as text (worst first), as the documented JSON document or
 * as SARIF 2.1.0 (sarif.c). The exit status says how bad the worst skill
 * is (--fail-on).
 *
 * Every output is made from one JSON document (scan_doc()), so the three
 * formats cannot disagree.
 */
#include "autoconfig.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "index/assess.h"
#include "base/text.h"
#include "base/buf.h"
#include "cli/cmd.h"
#include "core/config.h"
#include "core/frontmatter.h"
#include "index/indexer.h"
#include "safety/judge.h"
#include "core/options.h"
#include "safety/sanitize.h"
#include "safety/sarif.h"
#include "core/skill.h"
#include "base/status.h"
#include "core/trust.h"
#include "base/xmalloc.h"

/* The version of the --json document; bumped on an incompatible change. */
#define SCAN_DOC_VERSION	1

/* --fail-on never: a severity no skill reaches. */
#define FAIL_NEVER		(SEV_HIGH + 1)

struct scan_entry {
	const char		*path;		/* borrowed from the report */
	const char		*name;
	const char		*uid;
	enum skill_kind		 kind;
	int			 trust;
	const char		*shadowed_by;
	const char		*rejected;	/* the rule that rejected it */
	const char		*stored;	/* findings JSON of the discovery */
	char			*error;		/* could not be read */
	char			*dirname;	/* a rejected file's name */
	struct findings		 f;
	struct risk		 risk;
	struct judge_result	 judge;
};

struct scan_run {
	const struct config	*cfg;
	struct sanitizer	*san;
	struct judge		*judge;
	struct scan_entry	*v;
	size_t			 n;
	int			 complete;	/* scan_complete() */
};

/*
 * Assesses the entry file's text (a file the discovery rejected, whose
 * assessment the indexer did not make) into e->f and e->risk.
 */
static void
scan_assess(struct scan_run *r, struct scan_entry *e, const char *text,
    size_t len)
{
	struct assess_limits	 lim;
	struct assess_entry	 ae;
	struct fm		 fm;

	fm_parse(text, len, &fm);
	assess_limits_init(&lim, r->cfg);
	memset(&ae, 0, sizeof ae);
	ae.path = e->path;
	ae.bundled = e->kind == KIND_SKILL;
	ae.text = text;
	ae.len = len;
	ae.fm = &fm;
	ae.trust = e->trust;
	assess_skill(r->san, &lim, &ae, &e->f, &e->risk);
	fm_done(&fm);
}

/*
 * Completes e: the findings the discovery stored with the entry (or,
 * for a rejected file, its own assessment), then the judge's opinion
 * when the score is in the grey zone. When the file cannot be read
 * e->error says why (an entry keeps what the discovery found in it).
 */
static void
scan_analyse(struct scan_run *r, struct scan_entry *e)
{
	const struct config	*cfg = r->cfg;
	size_t			 max, len;
	char			*text = NULL;
	int			 stored;

	stored = e->stored != NULL &&
	    assess_findings_parse(e->stored, &e->f) == 0;
	if (stored)	/* the store keeps score and severity, not these */
		e->risk.caps = sanitize_caps(r->san, &e->f);
	if (stored && !judge_wants(r->judge, e->risk.score))
		return;
	max = cfg->allow_large ? 0 : (size_t)cfg->max_skill_size_kb * 1024;
	if (buf_read_file(e->path, max, &text, &len) == -1) {
		xasprintf(&e->error, "%s: %s", e->path,
		    buf_strerror(e->path, errno));
		return;
	}
	if (!stored)
		scan_assess(r, e, text, len);
	judge_apply(r->judge, r->san, e->path, e->name, text, len, e->trust,
	    &e->f, &e->risk, &e->judge);
	free(text);
}

static struct scan_entry *
scan_add(struct scan_run *r)
{
	struct scan_entry	*e;

	r->v = xreallocarray(r->v, r->n + 1, sizeof *r->v);
	e = &r->v[r->n++];
	memset(e, 0, sizeof *e);
	findings_init(&e->f);
	return e;
}

/* The name of the folder holding path ("x" for ".../x/SKILL.md"). */
static char *
parent_name(const char *path)
{
	const char	*end = strrchr(path, '/'), *start;

	if (end == NULL || end == path)
		return xstrdup(path);
	for (start = end; start > path && start[-1] != '/'; start--)
		;
	return xstrndup(start, (size_t)(end - start));
}

/*
 * The entries to scan: every entry the discovery found, shadowed ones
 * too, and every file it rejected (a broken frontmatter must not hide
 * an attack: the rest of the file still reaches whoever opens it).
 */
static void
scan_collect(struct scan_run *r, const struct index_report *rep)
{
	struct scan_entry	*e;
	struct trust		 t;
	char			 real[PATH_MAX];
	size_t			 i;

	for (i = 0; i < rep->set.n; i++) {
		const struct skill	*s = rep->set.v[i];

		e = scan_add(r);
		e->path = s->path;
		e->name = s->name;
		e->uid = s->uid;
		e->kind = s->kind;
		e->trust = (int)s->trust;
		e->shadowed_by = s->shadowed_by;
		e->stored = s->findings != NULL ? s->findings : "";
		e->risk.score = s->risk;
		e->risk.sev = (enum severity)s->risk_sev;
	}
	trust_init(&t, r->cfg);
	for (i = 0; i < rep->rejects.n; i++) {
		const struct store_reject *j = &rep->rejects.v[i];

		e = scan_add(r);
		e->path = j->path;
		e->rejected = j->rule;
		e->kind = KIND_SKILL;
		e->name = e->dirname = parent_name(j->path);
		if (realpath(j->path, real) == NULL)
			snprintf(real, sizeof real, "%s", j->path);
		e->trust = (int)trust_tier(&t, j->path, real, NULL);
	}
	trust_done(&t);
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct scan_entry	*x = a, *y = b;

	if (x->risk.score != y->risk.score)
		return x->risk.score > y->risk.score ? -1 : 1;
	if (x->f.n != y->f.n)
		return x->f.n > y->f.n ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* The severity a skill counts with: -1 when it has no finding at all. */
static int
entry_sev(const struct scan_entry *e)
{
	return e->f.n == 0 ? -1 : (int)e->risk.sev;
}

static cJSON *
entry_json(const struct scan_entry *e)
{
	cJSON	*o = cJSON_CreateObject(), *arr, *jo;
	size_t	 i;

	cJSON_AddStringToObject(o, "name", e->name != NULL ? e->name : "");
	if (e->uid != NULL)
		cJSON_AddStringToObject(o, "uid", e->uid);
	cJSON_AddStringToObject(o, "kind", kind_name(e->kind));
	cJSON_AddStringToObject(o, "path", e->path);
	cJSON_AddStringToObject(o, "trust", tier_name((enum trust_tier)
	    e->trust));
	if (e->shadowed_by != NULL)
		cJSON_AddStringToObject(o, "shadowed_by", e->shadowed_by);
	if (e->rejected != NULL)
		cJSON_AddStringToObject(o, "rejected", e->rejected);
	if (e->error != NULL)
		cJSON_AddStringToObject(o, "error", e->error);
	cJSON_AddItemToObject(o, "risk", assess_risk_full(&e->risk));
	arr = cJSON_AddArrayToObject(o, "findings");
	for (i = 0; i < e->f.n; i++)
		cJSON_AddItemToArray(arr, assess_finding_json(&e->f.v[i]));
	if (e->judge.asked) {
		jo = cJSON_AddObjectToObject(o, "judge");
		cJSON_AddStringToObject(jo, "verdict",
		    judge_verdict_name(e->judge.verdict));
		if (e->judge.reason != NULL)
			cJSON_AddStringToObject(jo, "reason", e->judge.reason);
		cJSON_AddBoolToObject(jo, "cached", e->judge.cached);
		if (e->judge.note != NULL)
			cJSON_AddStringToObject(jo, "note", e->judge.note);
	}
	return o;
}

/* Once per rule id seen: its explanation. */
static cJSON *
rules_json(const struct scan_run *r)
{
	cJSON		*rules = cJSON_CreateObject(), *o;
	const char	*what;
	size_t		 i, k;

	for (i = 0; i < r->n; i++) {
		for (k = 0; k < r->v[i].f.n; k++) {
			const struct finding	*f = &r->v[i].f.v[k];

			if ((o = cJSON_GetObjectItemCaseSensitive(rules,
			    f->rule)) != NULL) {
				if ((int)f->sev > severity_from_name(
				    cJSON_GetStringValue(cJSON_GetObjectItem(o,
				    "severity"))))
					cJSON_ReplaceItemInObject(o, "severity",
					    cJSON_CreateString(severity_name(
					    f->sev)));
				continue;
			}
			if ((what = sanitize_explain(r->san, f->rule)) == NULL &&
			    (what = judge_explain(f->rule)) == NULL)
				what = "";
			o = cJSON_AddObjectToObject(rules, f->rule);
			cJSON_AddStringToObject(o, "explanation", what);
			cJSON_AddStringToObject(o, "severity",
			    severity_name(f->sev));
		}
	}
	return rules;
}

/* The --json document (documented in skills-radar(1), SCAN). */
static cJSON *
scan_doc(const struct scan_run *r, int fail_on, int worst, int status)
{
	cJSON	*doc = cJSON_CreateObject(), *arr, *sum;
	size_t	 i, by[3] = { 0, 0, 0 }, clean = 0, errors = 0;

	cJSON_AddNumberToObject(doc, "version", SCAN_DOC_VERSION);
	cJSON_AddStringToObject(doc, "tool", PACKAGE_NAME);
	cJSON_AddStringToObject(doc, "tool_version", PACKAGE_VERSION);
	arr = cJSON_AddArrayToObject(doc, "skills");
	for (i = 0; i < r->n; i++) {
		const struct scan_entry	*e = &r->v[i];

		cJSON_AddItemToArray(arr, entry_json(e));
		if (e->error != NULL)
			errors++;
		else if (entry_sev(e) < 0)
			clean++;
		else
			by[e->risk.sev >= SEV_HIGH ? 2 : e->risk.sev]++;
	}
	cJSON_AddItemToObject(doc, "rules", rules_json(r));
	sum = cJSON_AddObjectToObject(doc, "summary");
	cJSON_AddNumberToObject(sum, "skills", (double)r->n);
	cJSON_AddNumberToObject(sum, "high", (double)by[2]);
	cJSON_AddNumberToObject(sum, "warn", (double)by[1]);
	cJSON_AddNumberToObject(sum, "info", (double)by[0]);
	cJSON_AddNumberToObject(sum, "clean", (double)clean);
	cJSON_AddNumberToObject(sum, "errors", (double)errors);
	cJSON_AddBoolToObject(sum, "complete", r->complete);
	cJSON_AddStringToObject(sum, "worst", worst < 0 ? "none" :
	    severity_name((enum severity)worst));
	cJSON_AddStringToObject(sum, "fail_on", fail_on == FAIL_NEVER ?
	    "never" : severity_name((enum severity)fail_on));
	cJSON_AddNumberToObject(sum, "exit", status);
	return doc;
}

/*
 * Prints s with control characters spelt out (C0 and DEL as \xNN, C1 as
 * \u00NN): a skill's name, file names and excerpts are the skill
 * author's, and must never drive the terminal.
 */
static void
print_safe(const char *s)
{
	text_fputs_safe(s, stdout);
}

/* One line of the text report, every byte of it through print_safe(). */
static void
print_line(const char *fmt, ...)
{
	va_list	 ap;
	char	*line;

	va_start(ap, fmt);
	xvasprintf(&line, fmt, ap);
	va_end(ap);
	print_safe(line);
	putchar('\n');
	free(line);
}

static const char *
jstr(const cJSON *o, const char *key)
{
	const char	*v = cJSON_GetStringValue(cJSON_GetObjectItem(o, key));

	return v != NULL ? v : "";
}

static int
jint(const cJSON *o, const char *key)
{
	return (int)cJSON_GetNumberValue(cJSON_GetObjectItem(o, key));
}

static void
print_skill(const cJSON *s)
{
	const cJSON	*f, *risk = cJSON_GetObjectItem(s, "risk"), *jd;
	const char	*file;

	print_line("%-5s risk %5.1f  %s  (%s)  %s", jstr(risk, "severity"),
	    cJSON_GetNumberValue(cJSON_GetObjectItem(risk, "score")),
	    jstr(s, "name"), jstr(s, "trust"), jstr(s, "path"));
	if (cJSON_GetObjectItem(s, "error") != NULL)
		print_line("    error: %s", jstr(s, "error"));
	if (cJSON_GetObjectItem(s, "rejected") != NULL)
		print_line("    rejected by the index: %s", jstr(s, "rejected"));
	if (cJSON_GetArraySize(cJSON_GetObjectItem(risk, "capabilities")) > 0) {
		char	*caps = cJSON_PrintUnformatted(cJSON_GetObjectItem(risk,
			    "capabilities"));

		print_line("    capabilities: %s", caps);
		free(caps);
	}
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(s, "findings")) {
		file = cJSON_GetStringValue(cJSON_GetObjectItem(f, "file"));
		print_line("    %-5s %-28s %+5.1f  %s:%d  %s",
		    jstr(f, "severity"), jstr(f, "id"),
		    cJSON_GetNumberValue(cJSON_GetObjectItem(f, "weight")),
		    file != NULL ? file : "SKILL.md", jint(f, "line"),
		    jstr(f, "excerpt"));
	}
	if ((jd = cJSON_GetObjectItem(s, "judge")) != NULL &&
	    cJSON_GetObjectItem(jd, "note") != NULL)
		print_line("    note: %s", jstr(jd, "note"));
}

/*
 * Whether the text report lists skill s: at warn or high risk, or
 * unreadable; with -v every skill.
 */
static int
text_shows(const cJSON *s, int verbose)
{
	int	 sev = severity_from_name(jstr(cJSON_GetObjectItem(s, "risk"),
		    "severity"));

	return verbose || cJSON_GetObjectItem(s, "error") != NULL ||
	    (sev >= SEV_WARN &&
	    cJSON_GetArraySize(cJSON_GetObjectItem(s, "findings")) > 0);
}

static void
print_text(const cJSON *doc, int verbose)
{
	const cJSON	*s, *f, *r, *rules, *sum;
	cJSON		*used = cJSON_CreateObject();
	size_t		 shown = 0;

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(doc, "skills")) {
		if (!text_shows(s, verbose))
			continue;
		print_skill(s);
		shown++;
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(s, "findings")) {
			if (cJSON_GetObjectItem(used, jstr(f, "id")) == NULL)
				cJSON_AddTrueToObject(used, jstr(f, "id"));
		}
	}
	/* What each rule shown means, once, in the document's order. */
	rules = cJSON_GetObjectItem(doc, "rules");
	if (cJSON_GetArraySize(used) > 0) {
		printf("\nrules:\n");
		cJSON_ArrayForEach(r, rules) {
			if (cJSON_GetObjectItem(used, r->string) != NULL)
				print_line("    %-28s %s", r->string,
				    jstr(r, "explanation"));
		}
	}
	cJSON_Delete(used);
	sum = cJSON_GetObjectItem(doc, "summary");
	printf("%s%d skill%s scanned: %d high, %d warn, %d info, %d clean",
	    shown > 0 ? "\n" : "",
	    jint(sum, "skills"), jint(sum, "skills") == 1 ? "" : "s",
	    jint(sum, "high"), jint(sum, "warn"), jint(sum, "info"),
	    jint(sum, "clean"));
	if (jint(sum, "errors") > 0)
		printf(", %d unreadable", jint(sum, "errors"));
	if (cJSON_IsFalse(cJSON_GetObjectItem(sum, "complete")))
		printf(" (incomplete: a limit or a missing root stopped the "
		    "scan)");
	printf("\n");
	if (!verbose && jint(sum, "info") > 0)
		printf("(%d at info risk not listed: skills-radar -v scan lists "
		    "every skill)\n", jint(sum, "info"));
}

static int
parse_fail_on(const char *s)
{
	int	 sev;

	if (strcmp(s, "never") == 0)
		return FAIL_NEVER;
	if ((sev = severity_from_name(s)) == -1 || sev > SEV_HIGH)
		return -1;
	return sev;
}

/*
 * The exit status: SR_IO when a file could not be read or a limit or a
 * missing root stopped the walk (the report is incomplete), else by the worst skill at or above fail_on: SR_REFUSED
 * for high, SR_ERR for warn or info, SR_OK when none reaches it.
 */
static int
scan_status(const struct scan_run *r, int fail_on, int *worst)
{
	size_t	 i;
	int	 errors = 0;

	*worst = -1;
	for (i = 0; i < r->n; i++) {
		if (entry_sev(&r->v[i]) > *worst)
			*worst = entry_sev(&r->v[i]);
		if (r->v[i].error != NULL)
			errors = 1;
	}
	if (errors || !r->complete)
		return SR_IO;
	if (*worst < 0 || *worst < fail_on)
		return SR_OK;
	return *worst >= SEV_HIGH ? SR_REFUSED : SR_ERR;
}

static void
scan_run_done(struct scan_run *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++) {
		findings_done(&r->v[i].f);
		judge_result_done(&r->v[i].judge);
		free(r->v[i].error);
		free(r->v[i].dirname);
	}
	free(r->v);
	judge_free(r->judge);
	sanitize_free(r->san);
}

/* Scan problems (a limit hit, a root missing) and notes, on stderr. */
static void
print_problems(const struct index_report *rep, const struct scan_run *r)
{
	size_t	 i;

	for (i = 0; i < rep->scan.problems.n; i++)
		cmd_warn("%s", rep->scan.problems.v[i].message);
	for (i = 0; i < r->n; i++) {
		if (r->v[i].error != NULL)
			cmd_warn("%s", r->v[i].error);
		if (r->v[i].judge.note != NULL)
			cmd_warn("%s: %s", r->v[i].path, r->v[i].judge.note);
	}
	if (r->n == 0)
		cmd_warn("no skills found");
	else if (rep->examples)
		cmd_warn("no skills in the configured roots: these are the "
		    "bundled examples, as index would use them");
}

static int
cmd_scan(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "sarif", no_argument, NULL, 's' },
		{ "fail-on", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct index_report	 rep;
	struct scan_run		 r;
	cJSON			*doc;
	char			*cause = NULL;
	size_t			 i;
	int			 ch, stop, json = 0, sarif = 0, rv, status;
	int			 fail_on = SEV_WARN, worst;

	while ((ch = cmd_getopt("scan", argc, argv, "jsf:", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 's':
			sarif = 1;
			break;
		case 'f':
			if ((fail_on = parse_fail_on(optarg)) == -1)
				return cmd_usage("scan", "--fail-on: '%s' is "
				    "not info, warn, high or never", optarg);
			break;
		}
	}
	if (stop != -1)
		return stop;
	if (json && sarif)
		return cmd_usage("scan", "--json and --sarif are exclusive");
	memset(&r, 0, sizeof r);
	r.cfg = ctx->cfg;
	if ((rv = sanitize_new(ctx->cfg, &r.san, &cause)) != 0)
		return cmd_fail(rv, cause);
	if ((rv = judge_new(ctx->cfg, &r.judge, &cause)) != 0) {
		scan_run_done(&r);
		return cmd_fail(rv, cause);
	}
	index_report_init(&rep);
	if (optind < argc)
		rv = indexer_validate_paths(ctx->cfg, r.san, argv + optind,
		    argc - optind, &rep, &cause);
	else
		rv = indexer_run(ctx->cfg, r.san, NULL, INDEX_NOWRITE |
		    (ctx->progress && !json && !sarif ? INDEX_PROGRESS : 0),
		    &rep, &cause);
	if (rv != 0) {
		index_report_done(&rep);
		scan_run_done(&r);
		return cmd_fail(rv, cause);
	}
	r.complete = scan_complete(&rep.scan);
	scan_collect(&r, &rep);
	for (i = 0; i < r.n; i++)
		scan_analyse(&r, &r.v[i]);
	if (r.n > 1)
		qsort(r.v, r.n, sizeof *r.v, entry_cmp);
	status = scan_status(&r, fail_on, &worst);
	doc = scan_doc(&r, fail_on, worst, status);
	print_problems(&rep, &r);
	if (sarif) {
		char	 cwd[PATH_MAX];

		rv = cmd_print_json(sarif_from_scan(doc,
		    getcwd(cwd, sizeof cwd)));
	}
	else if (json) {
		rv = cmd_print_json(doc);
		doc = NULL;
	} else
		print_text(doc, ctx->verbose);
	cJSON_Delete(doc);
	index_report_done(&rep);
	scan_run_done(&r);
	return rv != 0 ? rv : status;
}

const struct cmd_entry cmd_scan_entry = {
	"scan", cmd_scan, CMD_NEEDS_CONFIG,
	"[--json|--sarif] [--fail-on info|warn|high|never] [PATH ...]",
	"report each skill's risk and findings (for operators and CI)"
};
