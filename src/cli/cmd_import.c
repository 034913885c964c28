/*
 * import: bring a public skill collection in as UNTRUSTED, showing each
 * skill's risk before anything is added (import.h).
 */
#include "autoconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "index/import.h"
#include "index/indexer.h"
#include "safety/sanitize.h"
#include "base/status.h"
#include "core/trust.h"
#include "base/xmalloc.h"

struct import_opts {
	const char	*name;
	const char	*subpath;
	const char	*ref;
	struct strlist	 only;
	int		 dry_run;
	int		 yes;
	int		 max_risk;	/* SEV_INFO or SEV_WARN */
	int		 json;
	int		 no_index;
	int		 interactive;
};

static const char *
change_name(enum import_change c)
{
	static const char *names[] = { "new", "changed", "unchanged",
	    "removed" };

	return names[c];
}

/* Distinct rule ids at warn or above, at most three, "-" when none. */
static char *
top_rules(const struct findings *f)
{
	struct strlist	 ids;
	char		*s;
	size_t		 i;

	strlist_init(&ids);
	for (i = 0; i < f->n && ids.n < 3; i++) {
		if (f->v[i].sev >= SEV_WARN)
			strlist_add_unique(&ids, f->v[i].rule, 0);
	}
	s = ids.n > 0 ? strlist_join(&ids, ",") : xstrdup("-");
	strlist_done(&ids);
	return s;
}

static int
ask(const char *prompt, const char *want)
{
	char	 line[256];

	fputs(prompt, stdout);
	fflush(stdout);
	if (fgets(line, sizeof line, stdin) == NULL)
		return 0;
	line[strcspn(line, "\r\n")] = '\0';
	if (want != NULL)
		return strcmp(line, want) == 0;
	return strcmp(line, "y") == 0 || strcmp(line, "yes") == 0;
}

/* Decides what is added; returns the number held back. */
static int
decide(struct import_set *set, const struct import_opts *o)
{
	char	 prompt[512];
	size_t	 i;
	int	 held = 0;

	for (i = 0; i < set->n; i++) {
		struct import_skill	*k = &set->v[i];

		k->accept = 0;
		if (k->change != IMPORT_NEW && k->change != IMPORT_CHANGED)
			continue;
		if (o->only.n > 0 && !strlist_contains(&o->only, k->name, 0))
			continue;
		if (o->dry_run || k->digest[0] == '\0') {
			held += k->digest[0] == '\0';
			continue;
		}
		if (k->risk.sev >= SEV_HIGH) {
			/* Never silently: only a person typing its name. */
			if (o->interactive) {
				snprintf(prompt, sizeof prompt, "%s is HIGH "
				    "risk (%.1f). Type its name to add it "
				    "anyway, or press Enter to skip: ",
				    k->name, k->risk.score);
				k->accept = ask(prompt, k->name);
			}
		} else if (o->yes)
			k->accept = (int)k->risk.sev <= o->max_risk;
		else if (o->interactive) {
			snprintf(prompt, sizeof prompt, "add %s (%s %s, risk "
			    "%s %.1f)? [y/N] ", k->name, change_name(k->change),
			    k->rel, severity_name(k->risk.sev), k->risk.score);
			k->accept = ask(prompt, NULL);
		}
		if (!k->accept)
			held++;
	}
	return held;
}

/*
 * "warn 2.4": a severity and the score behind it. A score at or below
 * zero (counter-evidence outweighed the findings, or there were none)
 * says nothing a reader can use: the severity alone.
 */
static void
risk_cell(char *out, size_t size, const char *prefix, enum severity sev,
    double score)
{
	if (score < 0.05)
		snprintf(out, size, "%s%s", prefix, severity_name(sev));
	else
		snprintf(out, size, "%s%s %.1f", prefix, severity_name(sev),
		    score);
}

static void
print_table(const struct import_set *set, const struct import_opts *o)
{
	size_t	 i;
	char	*rules, risk[48];

	printf("%-28s %-9s %-13s %-24s %-10s %s\n", "NAME", "CHANGE", "RISK",
	    "FINDINGS", "SIGNED BY", "ACTION");
	for (i = 0; i < set->n; i++) {
		const struct import_skill	*k = &set->v[i];
		const char			*action;

		if (k->change == IMPORT_REMOVED) {
			snprintf(risk, sizeof risk, "-");
			action = "remove";
		} else {
			if (k->change == IMPORT_CHANGED && k->old_sev >= 0 &&
			    k->old_sev != (int)k->risk.sev) {
				char	 was[16];

				snprintf(was, sizeof was, "%s>", severity_name(
				    (enum severity)k->old_sev));
				risk_cell(risk, sizeof risk, was, k->risk.sev,
				    k->risk.score);
			} else
				risk_cell(risk, sizeof risk, "", k->risk.sev,
				    k->risk.score);
			action = k->change == IMPORT_SAME ? "keep" :
			    k->accept ? "add" : k->risk.sev >= SEV_HIGH ?
			    "skip (high)" : "skip";
			if (k->accept && k->change == IMPORT_CHANGED)
				action = "update";
			else if (o->dry_run && k->change != IMPORT_SAME)
				action = k->risk.sev >= SEV_HIGH ?
				    "review (high)" : (int)k->risk.sev <=
				    o->max_risk ? "add with --yes" : "review";
		}
		rules = top_rules(&k->findings);
		printf("%-28.28s %-9s %-13s %-24.24s %-10.10s %s\n", k->name,
		    change_name(k->change), risk, rules,
		    k->signer != NULL ? k->signer : "-", action);
		free(rules);
	}
}

static cJSON *
set_json(const struct import_set *set, const char *name, const char *commit)
{
	cJSON	*o = cJSON_CreateObject(), *a, *e, *r, *f;
	size_t	 i, j;

	cJSON_AddStringToObject(o, "collection", name);
	if (commit != NULL)
		cJSON_AddStringToObject(o, "commit", commit);
	a = cJSON_AddArrayToObject(o, "skills");
	for (i = 0; i < set->n; i++) {
		const struct import_skill	*k = &set->v[i];

		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", k->name);
		cJSON_AddStringToObject(e, "source_path", k->rel);
		cJSON_AddStringToObject(e, "change", change_name(k->change));
		if (k->change != IMPORT_REMOVED) {
			r = cJSON_AddObjectToObject(e, "risk");
			cJSON_AddNumberToObject(r, "score", k->risk.score);
			cJSON_AddStringToObject(r, "severity",
			    severity_name(k->risk.sev));
		}
		if (k->old_sev >= 0)
			cJSON_AddStringToObject(e, "previous_severity",
			    severity_name((enum severity)k->old_sev));
		f = cJSON_AddArrayToObject(e, "findings");
		for (j = 0; j < k->findings.n; j++) {
			cJSON	*x = cJSON_CreateObject();

			cJSON_AddStringToObject(x, "id", k->findings.v[j].rule);
			cJSON_AddStringToObject(x, "severity",
			    severity_name(k->findings.v[j].sev));
			if (k->findings.v[j].file != NULL)
				cJSON_AddStringToObject(x, "file",
				    k->findings.v[j].file);
			cJSON_AddNumberToObject(x, "line",
			    k->findings.v[j].line);
			cJSON_AddStringToObject(x, "excerpt",
			    k->findings.v[j].message);
			cJSON_AddItemToArray(f, x);
		}
		if (k->signer != NULL)
			cJSON_AddStringToObject(e, "signer", k->signer);
		else
			cJSON_AddNullToObject(e, "signer");
		cJSON_AddBoolToObject(e, "added", k->accept);
		cJSON_AddItemToArray(a, e);
	}
	return o;
}

/* Re-indexes so the collection is searchable at once. */
static void
reindex(struct cmd_ctx *ctx)
{
	struct index_report	 rep;
	char			*cause = NULL, *root = import_root();
	size_t			 i;
	int			 listed = 0;

	for (i = 0; i < ctx->cfg->paths.n; i++) {
		if (strcmp(ctx->cfg->paths.v[i], root) == 0)
			listed = 1;
	}
	if (!listed)
		cmd_warn("import: %s is not among the roots (paths or "
		    "SKILL_PATHS): add it so the index finds the collection",
		    root);
	free(root);
	index_report_init(&rep);
	if (indexer_run(ctx->cfg, NULL, NULL, 0, &rep, &cause) != 0) {
		cmd_warn("import: the collection is in place, but indexing "
		    "failed: %s; run 'skills-radar index'", cause != NULL ?
		    cause : "unknown error");
		free(cause);
	} else
		fprintf(stderr, "index: %zu entries\n", rep.set.n);
	index_report_done(&rep);
}

static int
run(struct cmd_ctx *ctx, const char *source, const char *update,
    struct import_opts *o)
{
	struct sanitizer	*san = NULL;
	struct trust		 tr;
	struct import_set	 set = { NULL, 0 };
	cJSON			*record = NULL;
	char			*name = NULL, *dir = NULL, *commit = NULL;
	char			*cause = NULL;
	const char		*subpath = o->subpath, *ref = o->ref;
	int			 rv, temporary = 0, held, changes = 0;
	size_t			 i;

	if (update != NULL) {
		name = xstrdup(update);
		if (!import_name_valid(name)) {
			free(name);
			return cmd_usage("import", "--update: '%s' is not a "
			    "collection name", update);
		}
		if ((rv = import_record(name, &record, &cause)) != SR_OK) {
			cmd_warn("import: %s", cause != NULL ? cause :
			    "no imported collection of that name (see "
			    "'skills-radar import --list')");
			free(cause);
			free(name);
			return rv;
		}
		source = cJSON_GetStringValue(cJSON_GetObjectItem(record,
		    "source"));
		subpath = cJSON_GetStringValue(cJSON_GetObjectItem(record,
		    "subpath"));
		ref = cJSON_GetStringValue(cJSON_GetObjectItem(record, "ref"));
		if (source == NULL) {
			cmd_warn("import: %s: the record names no source",
			    name);
			rv = SR_IO;
			goto out;
		}
	} else {
		name = o->name != NULL ? xstrdup(o->name) :
		    import_name_from_source(source);
		if (name == NULL || !import_name_valid(name)) {
			free(name);
			return cmd_usage("import", "cannot name the collection "
			    "from '%s': give --name (a-z, 0-9, '.', '_', '-')",
			    o->name != NULL ? o->name : source);
		}
		if (import_record(name, &record, &cause) != SR_NOTFOUND) {
			cmd_warn("import: a collection named %s exists: use "
			    "--update %s, or --remove it first", name, name);
			free(cause);
			rv = SR_USAGE;
			goto out;
		}
	}
	if ((rv = sanitize_new(ctx->cfg, &san, &cause)) != SR_OK) {
		cmd_warn("import: %s", cause);
		goto out;
	}
	if ((rv = import_fetch(source, ref, &dir, &commit, &temporary,
	    &cause)) != SR_OK) {
		cmd_warn("import: %s", cause);
		goto out;
	}
	trust_init(&tr, ctx->cfg);
	rv = import_discover(ctx->cfg, san, &tr, dir, subpath, &set, &cause);
	trust_done(&tr);
	if (rv != SR_OK) {
		cmd_warn("import: %s", cause);
		goto out;
	}
	import_plan(&set, record);
	held = decide(&set, o);
	for (i = 0; i < set.n; i++) {
		if (set.v[i].change != IMPORT_SAME)
			changes++;
	}
	if (o->json) {
		cJSON	*j = set_json(&set, name, commit);

		cJSON_AddBoolToObject(j, "dry_run", o->dry_run);
		cmd_print_json(j);
	} else {
		printf("%s: %zu skill%s in %s%s%s\n", name, set.n,
		    set.n == 1 ? "" : "s", source, commit != NULL ? " at " :
		    "", commit != NULL ? commit : "");
		print_table(&set, o);
	}
	if (set.n == 0)
		cmd_warn("import: no SKILL.md found in %s%s%s", source,
		    subpath != NULL ? " under " : "",
		    subpath != NULL ? subpath : "");
	if (o->dry_run) {
		rv = SR_OK;
		goto out;
	}
	if (update == NULL && set.n == 0) {
		rv = SR_NOTFOUND;
		goto out;
	}
	if (changes > 0 && !o->yes && !o->interactive) {
		/* Nobody to ask: registering nothing beats an empty record. */
		cmd_warn("import: nothing registered: without a terminal to "
		    "ask on, add the clean skills with --yes (review them "
		    "first with --dry-run), or run it from a terminal to "
		    "choose");
		rv = SR_USAGE;
		goto out;
	}
	if ((rv = import_apply(name, &set, source, subpath, ref, commit,
	    record, &cause)) != SR_OK) {
		cmd_warn("import: %s", cause);
		goto out;
	}
	if (!o->json && held > 0)
		fprintf(stderr, "%d skill%s not added: %s\n", held,
		    held == 1 ? "" : "s", o->yes ? "above --max-risk, or high "
		    "risk (never added by --yes)" : "run again with --yes "
		    "(clean skills), or from a terminal to choose");
	if (changes > 0 && !o->no_index)
		reindex(ctx);
	rv = held > 0 ? SR_ERR : SR_OK;
out:
	import_cleanup(dir, temporary);
	import_set_done(&set);
	cJSON_Delete(record);
	sanitize_free(san);
	free(dir);
	free(commit);
	free(cause);
	free(name);
	return rv;
}

static int
list_collections(int json)
{
	struct strlist	 l;
	cJSON		*a, *rec, *e;
	char		*cause;
	size_t		 i;

	strlist_init(&l);
	import_list(&l);
	a = cJSON_CreateArray();
	for (i = 0; i < l.n; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", l.v[i]);
		if (import_record(l.v[i], &rec, &cause) == SR_OK) {
			cJSON_AddItemToObject(e, "source", cJSON_Duplicate(
			    cJSON_GetObjectItem(rec, "source"), 1));
			cJSON_AddNumberToObject(e, "skills", cJSON_GetArraySize(
			    cJSON_GetObjectItem(rec, "skills")));
			if (!json)
				printf("%-24s %3d skills  %s\n", l.v[i],
				    cJSON_GetArraySize(cJSON_GetObjectItem(rec,
				    "skills")), cJSON_GetStringValue(
				    cJSON_GetObjectItem(rec, "source")));
			cJSON_Delete(rec);
		} else
			free(cause);
		cJSON_AddItemToArray(a, e);
	}
	strlist_done(&l);
	if (json)
		return cmd_print_json(a);
	cJSON_Delete(a);
	return SR_OK;
}

static int
cmd_import(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "subpath", required_argument, NULL, 's' },
		{ "ref", required_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'd' },
		{ "yes", no_argument, NULL, 'y' },
		{ "max-risk", required_argument, NULL, 'm' },
		{ "only", required_argument, NULL, 'o' },
		{ "update", required_argument, NULL, 'u' },
		{ "remove", required_argument, NULL, 'R' },
		{ "list", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-index", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct import_opts	 o;
	const char		*update = NULL, *remove = NULL;
	char			*cause;
	int			 ch, stop, list = 0, rv, modes;

	memset(&o, 0, sizeof o);
	strlist_init(&o.only);
	o.max_risk = SEV_INFO;
	while ((ch = cmd_getopt("import", argc, argv, "n:s:r:dym:o:u:R:ljN",
	    longopts, &stop)) != -1) {
		switch (ch) {
		case 'n':
			o.name = optarg;
			break;
		case 's':
			o.subpath = optarg;
			break;
		case 'r':
			o.ref = optarg;
			break;
		case 'd':
			o.dry_run = 1;
			break;
		case 'y':
			o.yes = 1;
			break;
		case 'm':
			if (strcmp(optarg, "info") == 0)
				o.max_risk = SEV_INFO;
			else if (strcmp(optarg, "warn") == 0)
				o.max_risk = SEV_WARN;
			else {
				strlist_done(&o.only);
				return cmd_usage("import", "--max-risk: '%s': "
				    "info or warn (a high-risk skill is never "
				    "added by --yes)", optarg);
			}
			break;
		case 'o':
			strlist_add(&o.only, optarg);
			break;
		case 'u':
			update = optarg;
			break;
		case 'R':
			remove = optarg;
			break;
		case 'l':
			list = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'N':
			o.no_index = 1;
			break;
		}
	}
	if (stop != -1) {
		strlist_done(&o.only);
		return stop;
	}
	argc -= optind;
	argv += optind;
	modes = (update != NULL) + (remove != NULL) + list + (argc > 0);
	o.interactive = !o.yes && !o.json && isatty(0) && isatty(1);
	if (modes != 1 || argc > 1) {
		strlist_done(&o.only);
		return cmd_usage("import", "give one SOURCE (a git URL or a "
		    "folder), or one of --update NAME, --remove NAME, --list");
	}
	if (list)
		rv = list_collections(o.json);
	else if (remove != NULL) {
		if (!import_name_valid(remove))
			rv = cmd_usage("import", "--remove: '%s' is not a "
			    "collection name", remove);
		else if ((rv = import_remove(remove, &cause)) != SR_OK) {
			cmd_warn("import: %s", cause);
			free(cause);
		} else {
			printf("%s: removed\n", remove);
			if (!o.no_index)
				reindex(ctx);
		}
	} else
		rv = run(ctx, argc > 0 ? argv[0] : NULL, update, &o);
	strlist_done(&o.only);
	return rv;
}

const struct cmd_entry cmd_import_entry = {
	"import", cmd_import, CMD_NEEDS_CONFIG,
	"[--name N] [--subpath P] [--ref R] [--dry-run] [--yes] "
	"[--max-risk info|warn] [--only NAME]... [--json] [--no-index] SOURCE"
	" | --update NAME | --remove NAME | --list",
	"import a skill collection (git URL or folder) as UNTRUSTED, "
	"after a look at each skill's risk"
};
