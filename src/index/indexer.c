#include "autoconfig.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "index/assess.h"
#include "base/clock.h"
#include "base/buf.h"
#include "core/config.h"
#include "core/frontmatter.h"
#include "index/indexer.h"
#include "safety/judge.h"
#include "safety/sanitize.h"
#include "base/status.h"
#include "core/trust.h"
#include "core/validate.h"
#include "base/xmalloc.h"

const struct validate_rule indexer_rules[] = {
	{ "file-unreadable", SEV_ERROR,
	  "the file could not be read (permissions, I/O error)" },
	{ "platform-mismatch", SEV_INFO,
	  "skipped: the skill's platforms exclude this host (see the platform key)" },
	{ "untrusted-injection", SEV_ERROR,
	  "an UNTRUSTED file the sanitiser flags at high severity, rejected "
	  "because sanitization.reject_untrusted_on_injection is on" },
	{ "scan-unreadable", SEV_WARN, "a directory could not be read" },
	{ "scan-broken-link", SEV_INFO, "a symbolic link points nowhere" },
	{ "scan-symlink-loop", SEV_INFO,
	  "a directory was reached a second time (symlink cycle), not walked again" },
	{ "scan-depth-limit", SEV_WARN, "directories deeper than limits.max_depth were not walked" },
	{ "scan-entries-limit", SEV_WARN, "more skills, agents and commands than limits.max_entries: the rest were skipped" },
	{ "scan-root-missing", SEV_WARN,
	  "a configured root (not a default one) does not exist; until it is "
	  "found or removed from paths, entries the scan did not see are kept "
	  "while their files exist" },
	{ "file-not-regular", SEV_ERROR,
	  "the file is a FIFO, a device or a socket: never opened" },
	{ "signature-mismatch", SEV_WARN,
	  "the skill folder no longer matches its signed SKILL.sha256 (a file "
	  "changed, added or removed, or a symlink leaves the folder): it keeps "
	  "its path tier" },
	{ "signature-unknown-key", SEV_WARN,
	  "signed by a key trust.signers does not list: it keeps its path tier" },
	{ "signature-invalid", SEV_WARN,
	  "SKILL.sha256.minisig is malformed or does not verify: it keeps its "
	  "path tier" },
	{ "signer-key-invalid", SEV_WARN,
	  "a trust.signers entry whose key could not be read; its signatures "
	  "count as signed by an unknown key" },
	{ NULL, 0, NULL }
};

/* Adds the size and mtime of a file to b, so edits show in the fingerprint. */
static void
stamp_file(struct buf *b, const char *path)
{
	struct stat	 st;

	if (stat(path, &st) == 0)
		buf_printf(b, "%s:%lld:%lld|", path, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec);
	else
		buf_printf(b, "%s:-|", path);
}

/*
 * Settings that change what parsing produces, and the pattern files the
 * sanitiser compiles: a change re-parses everything.
 */
static char *
fingerprint(const struct config *cfg)
{
	struct buf	 b;
	struct dirent	*de;
	DIR		*d;
	char		*list, *dir, *p, hash[17];
	size_t		 i;

	buf_init(&b, 0);
	buf_printf(&b, "%s|%d|%d|%s|%d|%d|%d|", PACKAGE_VERSION,
	    cfg->max_skill_size_kb, cfg->allow_large, cfg->platform,
	    cfg->reject_untrusted_on_injection, cfg->builtin_patterns,
	    cfg->strip_live_exec);
	/* What assess_skill() reads of a skill's bundled files, and how. */
	buf_printf(&b, "assess %d|%d|%d|", ASSESS_VERSION,
	    cfg->max_files_per_skill, cfg->max_related_kb);
	/*
	 * Names that break the rule were rejected (and their rejection kept)
	 * before they were normalised: the marker re-parses an older index.
	 */
	buf_printf(&b, "names:%s|", cfg->strict_names ? "strict" :
	    "normalised");
	list = strlist_join(&cfg->trusted_paths, ",");
	buf_printf(&b, "%s|", list);
	free(list);
	list = strlist_join(&cfg->verified_paths, ",");
	buf_printf(&b, "%s|", list);
	free(list);
	list = strlist_join(&cfg->xml_tags, ",");
	buf_printf(&b, "%s|", list);
	free(list);
	/* The model judge's verdicts change risks. */
	buf_printf(&b, "judge %d|%s|%g|%g|", cfg->judge_enabled,
	    cfg->judge_enabled ? cfg->judge_model : "", cfg->judge_min_score,
	    cfg->judge_max_score);
	/* The user's risk tables change what a skill's findings weigh. */
	for (i = 0; i < cfg->risk_files.n; i++)
		stamp_file(&b, cfg->risk_files.v[i]);
	for (i = 0; i < cfg->pattern_files.n; i++)
		stamp_file(&b, cfg->pattern_files.v[i]);
	if (cfg->builtin_patterns) {
		p = config_pkgdata_dir();
		xasprintf(&dir, "%s/risk.tsv", p);
		stamp_file(&b, dir);
		free(dir);
		xasprintf(&dir, "%s/patterns", p);
		free(p);
		if ((d = opendir(dir)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				if (de->d_name[0] == '.')
					continue;
				xasprintf(&p, "%s/%s", dir, de->d_name);
				stamp_file(&b, p);
				free(p);
			}
			closedir(d);
		}
		free(dir);
	}
	skill_hash(b.p, b.len, hash);
	buf_done(&b);
	return xstrdup(hash);
}

void
index_report_init(struct index_report *rep)
{
	memset(rep, 0, sizeof *rep);
	store_rejects_init(&rep->rejects);
	findings_init(&rep->warnings);
	scan_result_init(&rep->scan);
	skill_set_init(&rep->set);
}

void
index_report_done(struct index_report *rep)
{
	store_rejects_done(&rep->rejects);
	findings_done(&rep->warnings);
	scan_result_done(&rep->scan);
	skill_set_done(&rep->set);
	free(rep->digest);
	rep->digest = NULL;
}

static const char *
host_platform(const struct config *cfg)
{
	struct utsname	 u;

	if (cfg->platform != NULL && strcmp(cfg->platform, "auto") != 0)
		return cfg->platform;
	if (uname(&u) == 0 && strcmp(u.sysname, "Darwin") == 0)
		return "macos";
	return "linux";
}

static char *
make_uid(enum skill_kind kind, const char *ns, const char *name)
{
	char	*uid;

	switch (kind) {
	case KIND_AGENT:
		xasprintf(&uid, "agent:%s", name);
		break;
	case KIND_COMMAND:
		if (ns != NULL)
			xasprintf(&uid, "cmd:%s:%s", ns, name);
		else
			xasprintf(&uid, "cmd:%s", name);
		break;
	default:
		uid = xstrdup(name);
		break;
	}
	return uid;
}

struct ctx {
	const struct config	*cfg;
	struct sanitizer	*san;		/* NULL only when nothing is parsed */
	pthread_mutex_t		 lock;		/* rep->rejects, rep->warnings */
	int			 strict_names;	/* names that break the rule
						   reject (validate, or
						   validation.strict_names) */
	struct trust		 trust;
	struct judge		*judge;		/* sanitization.judge, or NULL */
	struct index_report	*rep;
};

static void
reject(struct ctx *c, const struct scan_item *it, const char *hash,
    const char *rule, const char *reason, int skipped)
{
	pthread_mutex_lock(&c->lock);
	store_rejects_add(&c->rep->rejects, it->path, it->size, it->mtime_ns,
	    hash, rule, reason, skipped);
	pthread_mutex_unlock(&c->lock);
}

/* trust.signers entries that did not load: said once per run. */
static void
signer_errors(struct ctx *c)
{
	size_t	 i;

	for (i = 0; i < c->trust.signer_errors.n; i++)
		findings_add(&c->rep->warnings, "signer-key-invalid", SEV_WARN,
		    0, "%s\t%s", c->cfg->source != NULL ? c->cfg->source :
		    "trust.signers", c->trust.signer_errors.v[i]);
}

/*
 * A skill folder's signature (sign.h): VERIFIED when it verifies against
 * trust.signers; a warning with the rule id when it is there but does not.
 */
static void
fill_signature(struct ctx *c, struct skill *s, const struct scan_item *it)
{
	struct sign_result	 r;
	cJSON			*o;
	char			*dir, *slash, *json;

	dir = xstrdup(it->path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	s->trust = trust_signed(&c->trust, dir, s->trust, &r);
	free(dir);
	if (r.status == SIGN_NONE) {
		skill_set_signature(s, NULL);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "status", sign_status_name(r.status));
	if (r.signer != NULL)
		cJSON_AddStringToObject(o, "signer", r.signer);
	if (r.keyid[0] != '\0')
		cJSON_AddStringToObject(o, "key_id", r.keyid);
	if (r.detail != NULL)
		cJSON_AddStringToObject(o, "detail", r.detail);
	json = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	skill_set_signature(s, json);
	free(json);
	if (sign_rule(r.status) != NULL) {
		s->n_warnings++;
		pthread_mutex_lock(&c->lock);
		findings_add(&c->rep->warnings, sign_rule(r.status), SEV_WARN,
		    0, "%s\t%s%s%s", it->path, r.detail != NULL ? r.detail :
		    "", r.keyid[0] != '\0' ? "; key " : "", r.keyid);
		pthread_mutex_unlock(&c->lock);
	}
	sign_result_done(&r);
}

static void
fill_trust(struct ctx *c, struct skill *s, const struct scan_item *it)
{
	const char	*proot = NULL;

	if (it->root->is_project && strstr(it->root->path, "/.claude/") != NULL)
		proot = it->root->path;
	s->trust = trust_tier(&c->trust, it->path, it->realpath, proot);
	if (s->kind == KIND_SKILL)
		fill_signature(c, s, it);
	free(s->scope);
	s->scope = trust_scope(&c->trust, it->path, it->root->path,
	    it->root->is_project, it->root->is_example);
	s->is_project = it->root->is_project;
	free(s->root);
	s->root = xstrdup(it->root->path);
	free(s->realpath);
	s->realpath = xstrdup(it->realpath);
}

/* Joins the distinct rule ids of findings at warn or above. */
static char *
flag_ids(const struct findings *f, int *n, int *max)
{
	struct strlist	 ids;
	char		*s;
	size_t		 i;

	strlist_init(&ids);
	*n = 0;
	*max = -1;
	for (i = 0; i < f->n; i++) {
		if (f->v[i].sev < SEV_WARN)
			continue;
		(*n)++;
		if ((int)f->v[i].sev > *max)
			*max = (int)f->v[i].sev;
		strlist_add_unique(&ids, f->v[i].rule, 0);
	}
	s = ids.n ? strlist_join(&ids, ",") : NULL;
	strlist_done(&ids);
	return s;
}

/*
 * Everything of the entry that reaches an agent, scanned and scored
 * (assess.h): s gets its risk, its findings as stored JSON, the bundled
 * files' stamp, and the flag columns derived from the same findings.
 */
static void
assess(struct ctx *c, struct skill *s, const char *text, size_t len,
    const struct fm *fm, struct findings *sf)
{
	struct assess_limits	 lim;
	struct assess_entry	 ae;
	struct risk		 risk;

	assess_limits_init(&lim, c->cfg);
	memset(&ae, 0, sizeof ae);
	ae.path = s->path;
	ae.bundled = s->kind == KIND_SKILL;
	ae.text = text;
	ae.len = len;
	ae.fm = fm;
	ae.trust = (int)s->trust;
	/* Stamped first: a file edited during the scan shows next time. */
	if (ae.bundled) {
		assess_stamp(&lim, s->path, s->bundle);
		ae.stamp = s->bundle;
	}
	assess_skill(c->san, &lim, &ae, sf, &risk);
	if (c->judge != NULL) {
		struct judge_result	 jr;

		/* Grey-zone skills get the model's verdict (judge.h). */
		judge_apply(c->judge, c->san, s->path, s->name, text, len,
		    (int)s->trust, sf, &risk, &jr);
		judge_result_done(&jr);
	}
	s->risk = risk.score;
	s->risk_sev = (int)risk.sev;
	s->findings = assess_findings_json(sf);
}

/*
 * 1 when the bundled files of prev's folder are as they were indexed
 * (always, for an agent or a command: they have none).
 */
static int
same_bundle(const struct config *cfg, const struct skill *prev)
{
	struct assess_limits	 lim;
	char			 now[17];

	if (prev->kind != KIND_SKILL)
		return 1;
	assess_limits_init(&lim, cfg);
	assess_stamp(&lim, prev->path, now);
	return strcmp(now, prev->bundle) == 0;
}

/*
 * 1 when a rejected file can stay rejected without a parse: unchanged,
 * and not rejected for its risk, which its bundled files (not in the
 * rejected row's size and mtime) may have changed.
 */
static int
same_reject(const struct store_reject *pr, const struct scan_item *it)
{
	return pr->size == it->size && pr->mtime_ns == it->mtime_ns &&
	    strcmp(pr->rule, "untrusted-injection") != 0;
}

/*
 * Parses one file into a new entry, or records why it was rejected.
 * Returns the entry or NULL.
 */
static struct skill *
parse_item(struct ctx *c, const struct scan_item *it)
{
	const struct config	*cfg = c->cfg;
	struct findings		 vf, sf;
	struct fm		 fm;
	struct skill		*s = NULL;
	const struct finding	*err;
	char			*text = NULL, *name = NULL, *display = NULL;
	char			 hash[17] = "";
	size_t			 len, max, i;
	const char		*plat;

	max = cfg->allow_large ? CONFIG_LARGE_MAX :
	    (size_t)cfg->max_skill_size_kb * 1024;
	if (it->special != NULL) {
		char	*why;

		xasprintf(&why, "%s, not a regular file: not opened",
		    it->special);
		reject(c, it, "", "file-not-regular", why, 0);
		free(why);
		return NULL;
	}
	findings_init(&vf);
	findings_init(&sf);
	memset(&fm, 0, sizeof fm);
	if (buf_read_file(it->path, max, &text, &len) == -1) {
		char	*why;

		if (errno == EFBIG && cfg->allow_large) {
			xasprintf(&why, "%lld bytes, over %zu MiB, the limit "
			    "for a skill file even with limits.allow_large",
			    (long long)it->size, CONFIG_LARGE_MAX >> 20);
			reject(c, it, "", "file-too-large", why, 0);
		} else if (errno == EFBIG) {
			xasprintf(&why, "%lld bytes, over limits.max_skill_size_kb"
			    " (%d KiB); set limits.allow_large to index it",
			    (long long)it->size, cfg->max_skill_size_kb);
			reject(c, it, "", "file-too-large", why, 0);
		} else {
			/* A file swapped for a FIFO after the scan, say. */
			xasprintf(&why, "cannot read: %s",
			    buf_strerror(it->path, errno));
			reject(c, it, "", "file-unreadable", why, 0);
		}
		free(why);
		return NULL;
	}
	skill_hash(text, len, hash);
	fm_parse(text, len, &fm);
	if (validate_entry_index(&fm, it->kind, it->fallback, len, cfg,
	    !c->strict_names, &vf, &name, &display) != 0 || name == NULL) {
		err = findings_first_error(&vf);
		reject(c, it, hash, err != NULL ? err->rule : "invalid",
		    err != NULL ? err->message : "rejected by validation", 0);
		goto out;
	}
	if (fm.platforms.n > 0) {
		plat = host_platform(cfg);
		if (!strlist_contains(&fm.platforms, plat, 1)) {
			char	*why, *list = strlist_join(&fm.platforms, ", ");

			xasprintf(&why, "platforms [%s] exclude this host (%s)",
			    list, plat);
			reject(c, it, hash, "platform-mismatch", why, 1);
			free(why);
			free(list);
			goto out;
		}
	}

	s = skill_new();
	s->kind = it->kind;
	s->name = name;
	name = NULL;
	s->display = display;
	display = NULL;
	s->uid = make_uid(it->kind, it->ns, s->name);
	s->path = xstrdup(it->path);
	fill_trust(c, s, it);
	s->description = xstrdup_or_null(validate_description(&fm, it->kind));
	if (s->description == NULL)
		s->description = xstrdup("");
	if (c->san != NULL) {
		char	*clean = sanitize_inline(c->san, s->description);

		free(s->description);
		s->description = clean;
	}
	s->when_to_use = xstrdup(fm.when_to_use != NULL ? fm.when_to_use : "");
	if (c->san != NULL) {
		char	*clean = sanitize_inline(c->san, s->when_to_use);

		free(s->when_to_use);
		s->when_to_use = clean;
	}
	for (i = 0; i < fm.tags.n; i++) {
		char	*tag;

		/* Shown in list, search and the mini-index like a description. */
		tag = c->san != NULL ? sanitize_inline(c->san, fm.tags.v[i]) :
		    xstrdup(fm.tags.v[i]);
		if (*tag != '\0')
			strlist_add_unique(&s->tags, tag, 1);
		free(tag);
	}
	strlist_copy(&s->platforms, &fm.platforms);
	strlist_copy(&s->requires_tools, &fm.requires_tools);
	strlist_copy(&s->fallback_for_tools, &fm.fallback_for_tools);
	s->disable_model_invocation = fm.disable_model_invocation;
	s->user_invocable = fm.user_invocable;
	s->size = (int64_t)len;
	s->mtime_ns = it->mtime_ns;
	memcpy(s->hash, hash, sizeof s->hash);
	s->frontmatter = xstrdup(fm.json != NULL ? fm.json : "{}");

	if (c->san != NULL)
		assess(c, s, text, len, &fm, &sf);
	s->flag_ids = flag_ids(&sf, &s->n_flags, &s->max_flag_sev);
	s->n_warnings = (int)findings_count(&vf, SEV_WARN) + s->n_flags;
	if (cfg->reject_untrusted_on_injection && s->trust == TIER_UNTRUSTED &&
	    s->risk_sev >= SEV_HIGH) {
		char	*why;

		xasprintf(&why, "UNTRUSTED and its risk is high (%.1f: %s);"
		    " sanitization.reject_untrusted_on_injection is on",
		    s->risk, s->flag_ids != NULL ? s->flag_ids : "");
		reject(c, it, hash, "untrusted-injection", why, 0);
		free(why);
		skill_free(s);
		s = NULL;
		goto out;
	}
	pthread_mutex_lock(&c->lock);
	for (i = 0; i < vf.n; i++) {
		if (vf.v[i].sev >= SEV_WARN && vf.v[i].sev < SEV_ERROR)
			findings_add(&c->rep->warnings, vf.v[i].rule,
			    vf.v[i].sev, vf.v[i].line, "%s\t%s", it->path,
			    vf.v[i].message);
	}
	pthread_mutex_unlock(&c->lock);
out:
	free(name);
	free(display);
	free(text);
	fm_done(&fm);
	findings_done(&vf);
	findings_done(&sf);
	return s;
}

static int
cmp_skill_path(const void *a, const void *b)
{
	return strcmp((*(struct skill *const *)a)->path,
	    (*(struct skill *const *)b)->path);
}

static int
cmp_reject_path(const void *a, const void *b)
{
	return strcmp(((const struct store_reject *)a)->path,
	    ((const struct store_reject *)b)->path);
}

/* Sorts the previous entries and rejects by path for find_old*(). */
static void
sort_old(struct skill_set *old, struct store_rejects *oldrej)
{
	if (old->n > 1)
		qsort(old->v, old->n, sizeof *old->v, cmp_skill_path);
	if (oldrej->n > 1)
		qsort(oldrej->v, oldrej->n, sizeof *oldrej->v, cmp_reject_path);
}

static struct skill *
find_old(struct skill **v, size_t n, const char *path)
{
	struct skill	 key, *kp = &key, **hit;

	if (n == 0)
		return NULL;
	key.path = (char *)path;
	hit = bsearch(&kp, v, n, sizeof *v, cmp_skill_path);
	return hit != NULL ? *hit : NULL;
}

static struct store_reject *
find_old_reject(struct store_rejects *r, const char *path)
{
	struct store_reject	 key;

	if (r->n == 0)
		return NULL;
	key.path = (char *)path;
	return bsearch(&key, r->v, r->n, sizeof *r->v, cmp_reject_path);
}

void
indexer_precedence(struct skill_set *set)
{
	size_t	 i, j;

	store_order(set);
	for (i = 0; i < set->n; i = j) {
		free(set->v[i]->shadowed_by);
		set->v[i]->shadowed_by = NULL;
		for (j = i + 1; j < set->n &&
		    strcmp(set->v[j]->uid, set->v[i]->uid) == 0; j++) {
			free(set->v[j]->shadowed_by);
			set->v[j]->shadowed_by = xstrdup(set->v[i]->path);
		}
	}
}

/*
 * The digest of the content is a sum (mod 2^64) of one hash per entry
 * line and per rejected-file line, plus the hash of the fingerprint: the
 * order of the set does not matter, and a per-path update adjusts it by
 * subtracting the lines it removes and adding the ones it writes.
 */
static uint64_t
line_hash(const char *line, size_t len)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)line[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 31;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 29);
}

uint64_t
indexer_digest_entry(const struct skill *s)
{
	char		*line;
	uint64_t	 h;
	int		 n;

	n = xasprintf(&line, "%s|%s|%lld|%s|%s|%s|%s|%d|%d|%s", s->uid,
	    s->path, (long long)s->mtime_ns, s->hash, tier_name(s->trust),
	    s->scope, s->shadowed_by ? s->shadowed_by : "",
	    s->n_flags, s->is_project, s->bundle);
	h = line_hash(line, (size_t)n);
	free(line);
	return h;
}

static uint64_t
indexer_digest_reject(const struct store_reject *r)
{
	char		*line;
	uint64_t	 h;
	int		 n;

	n = xasprintf(&line, "R|%s|%lld|%s", r->path, (long long)r->mtime_ns,
	    r->rule);
	h = line_hash(line, (size_t)n);
	free(line);
	return h;
}

char *
indexer_digest_str(uint64_t sum)
{
	char	*d;

	xasprintf(&d, "%016llx", (unsigned long long)sum);
	return d;
}

int
indexer_digest_parse(const char *d, uint64_t *sum)
{
	char			*end;
	unsigned long long	 v;

	if (d == NULL || strlen(d) != 16)
		return -1;
	errno = 0;
	v = strtoull(d, &end, 16);
	if (errno != 0 || *end != '\0')
		return -1;
	*sum = (uint64_t)v;
	return 0;
}

static char *
set_digest(const struct skill_set *set, const struct store_rejects *rej,
    const char *fp)
{
	uint64_t	 sum;
	size_t		 i;

	sum = line_hash(fp, strlen(fp));
	for (i = 0; i < set->n; i++)
		sum += indexer_digest_entry(set->v[i]);
	for (i = 0; i < rej->n; i++)
		sum += indexer_digest_reject(&rej->v[i]);
	return indexer_digest_str(sum);
}

static void
progress(int on, size_t i, size_t n, int done)
{
	if (!on)
		return;
	if (done)
		fprintf(stderr, "\r\033[K");
	else if (i % 64 == 0 || i == n)
		fprintf(stderr, "\rindexing %zu/%zu", i, n);
}

static void
tally(struct index_report *rep)
{
	size_t	 i;

	for (i = 0; i < rep->set.n; i++) {
		const struct skill	*s = rep->set.v[i];

		rep->by_kind[s->kind]++;
		rep->by_tier[s->trust]++;
		if (skill_flagged(s))
			rep->flagged++;
		if (s->shadowed_by == NULL && !s->disable_model_invocation)
			rep->searchable++;
	}
	rep->total = rep->set.n;
}

static void	count_removed(struct index_report *, struct skill_set *,
		    const struct store_rejects *);

/* A touched file whose bytes did not change keeps its entry. */
static int
same_hash(struct skill *prev, const struct scan_item *it)
{
	char	*text, h[17];
	size_t	 len;

	if (buf_read_file(it->path, (size_t)it->size + 1, &text, &len) == -1)
		return 0;
	skill_hash(text, len, h);
	free(text);
	if (strcmp(h, prev->hash) != 0)
		return 0;
	prev->mtime_ns = it->mtime_ns;
	return 1;
}

/* Parsing runs on every core: the sanitiser dominates and is thread-safe. */
struct parse_job {
	struct ctx		 *c;
	const struct scan_item	**items;
	struct skill		**out;
	size_t			  n;
	size_t			  next;		/* under c->lock */
	size_t			  done;
	int			  show;
};

static void *
parse_worker(void *arg)
{
	struct parse_job	*job = arg;
	size_t			 k;

	for (;;) {
		pthread_mutex_lock(&job->c->lock);
		k = job->next++;
		if (k < job->n)
			progress(job->show, ++job->done, job->n, 0);
		pthread_mutex_unlock(&job->c->lock);
		if (k >= job->n)
			return NULL;
		job->out[k] = parse_item(job->c, job->items[k]);
	}
}

static void
parse_all(struct ctx *c, const struct scan_item **items, struct skill **out,
    size_t n, int show)
{
	struct parse_job	 job;
	pthread_t		 tid[8];
	long			 ncpu;
	size_t			 i, nt;

	memset(&job, 0, sizeof job);
	job.c = c;
	job.items = items;
	job.out = out;
	job.n = n;
	job.show = show;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	nt = ncpu > 1 ? (size_t)ncpu : 1;
	if (nt > 8)
		nt = 8;
	if (n < 32)
		nt = 1;
	for (i = 1; i < nt; i++) {
		if (pthread_create(&tid[i], NULL, parse_worker, &job) != 0)
			break;
	}
	nt = i;
	parse_worker(&job);
	for (i = 1; i < nt; i++)
		pthread_join(tid[i], NULL);
}

static int
cmp_reject(const void *a, const void *b)
{
	return strcmp(((const struct store_reject *)a)->path,
	    ((const struct store_reject *)b)->path);
}

static int
cmp_finding(const void *a, const void *b)
{
	const struct finding	*x = a, *y = b;
	int			 r;

	if ((r = strcmp(x->message, y->message)) != 0)
		return r;
	return strcmp(x->rule, y->rule);
}

/* Parses or reuses every scanned item into rep->set, in scan order. */
static void
build_set(struct ctx *c, struct skill_set *old, struct store_rejects *oldrej,
    int reparse, int show)
{
	struct index_report	*rep = c->rep;
	const struct scan_item	*it, **todo;
	struct skill		*s, *prev, **slot, **parsed;
	struct store_reject	*pr;
	size_t			 i, reused = 0, ntodo = 0, k = 0;

	sort_old(old, oldrej);
	todo = xreallocarray(NULL, rep->scan.n_items + 1, sizeof *todo);
	/* slot[i]: the entry for item i (reused or parsed), or NULL. */
	slot = xcalloc(rep->scan.n_items + 1, sizeof *slot);
	for (i = 0; i < rep->scan.n_items; i++) {
		it = &rep->scan.items[i];
		if (!reparse && it->special == NULL &&
		    (prev = find_old(old->v, old->n, it->path)) &&
		    prev->size == it->size && prev->kind == it->kind &&
		    (prev->mtime_ns == it->mtime_ns || same_hash(prev, it)) &&
		    same_bundle(c->cfg, prev)) {
			/* Unchanged: move the old entry over. */
			prev->id = -1;	/* taken: count_removed() skips it */
			fill_trust(c, prev, it);
			slot[i] = prev;
			reused++;
			continue;
		}
		if (!reparse && (pr = find_old_reject(oldrej, it->path)) &&
		    same_reject(pr, it)) {
			store_rejects_add(&rep->rejects, pr->path, pr->size,
			    pr->mtime_ns, pr->hash, pr->rule, pr->reason,
			    pr->skipped);
			continue;
		}
		todo[ntodo++] = it;
	}
	parsed = xcalloc(ntodo + 1, sizeof *parsed);
	parse_all(c, todo, parsed, ntodo, show);
	progress(show, 0, 0, 1);
	for (i = 0; i < rep->scan.n_items; i++) {
		if (k < ntodo && todo[k] == &rep->scan.items[i]) {
			if ((s = parsed[k++]) != NULL) {
				slot[i] = s;
				rep->parsed++;
			}
		}
		if (slot[i] != NULL)
			skill_set_add(&rep->set, slot[i]);
	}
	free(parsed);
	free(slot);
	free(todo);
	rep->unchanged = reused;
	count_removed(rep, old, oldrej);
	/* Workers finish in any order: keep reports deterministic. */
	if (rep->rejects.n > 1)
		qsort(rep->rejects.v, rep->rejects.n, sizeof *rep->rejects.v,
		    cmp_reject);
	if (rep->warnings.n > 1)
		qsort(rep->warnings.v, rep->warnings.n, sizeof *rep->warnings.v,
		    cmp_finding);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The scanned paths, sorted for seen(). */
static char **
seen_paths(const struct scan_result *scan)
{
	char	**v;
	size_t	  i;

	v = xreallocarray(NULL, scan->n_items + 1, sizeof *v);
	for (i = 0; i < scan->n_items; i++)
		v[i] = scan->items[i].path;
	if (scan->n_items > 1)
		qsort(v, scan->n_items, sizeof *v, cmp_str);
	return v;
}

static int
seen(char **v, size_t n, const char *path)
{
	return n > 0 && bsearch(&path, v, n, sizeof *v, cmp_str) != NULL;
}

/*
 * After an incomplete scan (a limit, a missing root), the file of an
 * entry the scan did not see may well still be there: it goes only when
 * it is known to be gone. A root deleted with its files (serve --watch
 * sees that happen) loses its entries; a typo in a root does not take
 * the others' with it.
 */
static int
keep_unseen(const char *path)
{
	struct stat	 st;

	return stat(path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

/*
 * Counts the old entries whose path is no longer indexed (a changed file
 * is re-parsed, not removed), keeps the ones an incomplete scan did not
 * reach (the rejects too) and frees what was not moved to the new set.
 */
static void
count_removed(struct index_report *rep, struct skill_set *old,
    const struct store_rejects *oldrej)
{
	const struct store_reject *r;
	struct skill	**byp;
	char		**saw;
	size_t		  i, nsaw = rep->scan.n_items, nset = rep->set.n;
	int		  partial = !scan_complete(&rep->scan);

	rep->complete = !partial;
	saw = seen_paths(&rep->scan);
	byp = xreallocarray(NULL, nset + 1, sizeof *byp);
	if (nset > 0)
		memcpy(byp, rep->set.v, nset * sizeof *byp);
	if (nset > 1)
		qsort(byp, nset, sizeof *byp, cmp_skill_path);
	for (i = 0; i < old->n; i++) {
		if (old->v[i]->id != -1) {
			if (partial && !seen(saw, nsaw, old->v[i]->path) &&
			    keep_unseen(old->v[i]->path)) {
				skill_set_add(&rep->set, old->v[i]);
				rep->kept++;
			} else {
				if (find_old(byp, nset, old->v[i]->path) == NULL)
					rep->removed++;
				skill_free(old->v[i]);
			}
		}
		old->v[i] = NULL;
	}
	old->n = 0;
	for (i = 0; partial && i < oldrej->n; i++) {
		r = &oldrej->v[i];
		if (!seen(saw, nsaw, r->path) && keep_unseen(r->path))
			store_rejects_add(&rep->rejects, r->path, r->size,
			    r->mtime_ns, r->hash, r->rule, r->reason, r->skipped);
	}
	free(byp);
	free(saw);
}

static void
add_examples(const struct config *cfg, struct index_report *rep)
{
	const char	*env = getenv("SKILL_PATHS");
	char		*dir, *ex;

	/* An empty SKILL_PATHS is ignored, as the configuration does. */
	if (rep->scan.n_items > 0 || cfg->source != NULL ||
	    (env != NULL && *env != '\0'))
		return;
	dir = config_pkgdata_dir();
	xasprintf(&ex, "%s/examples", dir);
	free(dir);
	scan_add_root(&rep->scan, ex, 0, 1);
	free(ex);
	/* Walk only the new root: the others were empty. */
	scan_walk(cfg, &rep->scan);
	rep->examples = rep->scan.n_items > 0;
}

/* 1 when some scanned file has no unchanged counterpart in the old index. */
static int
needs_parse(const struct config *cfg, struct skill_set *old,
    struct store_rejects *oldrej, const struct scan_result *scan)
{
	struct skill		*prev;
	struct store_reject	*pr;
	size_t			 i;

	sort_old(old, oldrej);
	for (i = 0; i < scan->n_items; i++) {
		const struct scan_item	*it = &scan->items[i];

		if ((prev = find_old(old->v, old->n, it->path)) != NULL &&
		    prev->size == it->size && prev->mtime_ns == it->mtime_ns &&
		    same_bundle(cfg, prev))
			continue;
		if ((pr = find_old_reject(oldrej, it->path)) != NULL &&
		    same_reject(pr, it))
			continue;
		return 1;
	}
	return 0;
}

int
indexer_run(const struct config *cfg, struct sanitizer *san,
    const struct strlist *extra, int flags, struct index_report *rep,
    char **cause)
{
	struct ctx		 c;
	struct store		*st = NULL;
	struct skill_set	 old;
	struct store_rejects	 oldrej;
	char			*fp = NULL, *oldfp = NULL, *digest = NULL, *olddigest = NULL;
	double			 t0 = clock_ms();
	int			 rv = 0, own_san = 0, reparse;

	memset(&c, 0, sizeof c);
	pthread_mutex_init(&c.lock, NULL);
	skill_set_init(&old);
	store_rejects_init(&oldrej);
	c.cfg = cfg;
	c.rep = rep;
	c.strict_names = cfg->strict_names;
	trust_init(&c.trust, cfg);
	signer_errors(&c);

	scan_roots(cfg, extra, &rep->scan);
	scan_report_missing(&rep->scan);
	scan_walk(cfg, &rep->scan);
	add_examples(cfg, rep);

	fp = fingerprint(cfg);
	reparse = (flags & INDEX_REBUILD) != 0;
	if (!(flags & INDEX_NOWRITE)) {
		if ((rv = store_open_cfg(cfg, 0, &st, cause)) != 0)
			goto out;
		if (!reparse) {
			if ((rv = store_load(st, &old, cause)) != 0 ||
			    (rv = store_load_rejects(st, &oldrej, cause)) != 0)
				goto out;
			oldfp = store_meta_get(st, "fingerprint");
			if (oldfp == NULL || strcmp(oldfp, fp) != 0)
				reparse = 1;
		}
		olddigest = store_meta_get(st, "digest");
	}
	/* Compiling the catalogue costs: only when a file must be parsed. */
	if (san == NULL && (reparse || needs_parse(cfg, &old, &oldrej, &rep->scan))) {
		if ((rv = sanitize_new(cfg, &san, cause)) != 0)
			goto out;
		own_san = 1;
	}
	c.san = san;
	if (san != NULL && (rv = judge_new(cfg, &c.judge, cause)) != 0)
		goto out;
	build_set(&c, &old, &oldrej, reparse, (flags & INDEX_PROGRESS) != 0);
	indexer_precedence(&rep->set);
	tally(rep);

	if (st != NULL) {
		digest = set_digest(&rep->set, &rep->rejects, fp);
		if ((flags & INDEX_REBUILD) || olddigest == NULL ||
		    strcmp(digest, olddigest) != 0) {
			if ((rv = store_replace(st, &rep->set, &rep->rejects,
			    digest, cause)) != 0)
				goto out;
			rep->written = 1;
		}
		if (oldfp == NULL || strcmp(oldfp, fp) != 0)
			rv = store_meta_set(st, "fingerprint", fp, cause);
		rep->digest = xstrdup(digest);
	}
out:
	judge_free(c.judge);
	rep->duration_ms = clock_ms() - t0;
	store_close(st);
	skill_set_done(&old);
	store_rejects_done(&oldrej);
	trust_done(&c.trust);
	pthread_mutex_destroy(&c.lock);
	if (own_san)
		sanitize_free(san);
	free(fp);
	free(oldfp);
	free(digest);
	free(olddigest);
	return rv;
}

int
indexer_validate_paths(const struct config *cfg, struct sanitizer *san,
    char **paths, int npaths, struct index_report *rep, char **cause)
{
	struct ctx	 c;
	struct stat	 st;
	struct scan_root root;
	struct scan_item it;
	struct skill	*s;
	char		 real[PATH_MAX], *abs, *dir, *slash, *rel;
	int		 i, rv = 0, own_san = 0, kind;

	memset(&c, 0, sizeof c);
	pthread_mutex_init(&c.lock, NULL);
	if (san == NULL) {
		if ((rv = sanitize_new(cfg, &san, cause)) != 0) {
			pthread_mutex_destroy(&c.lock);
			return rv;
		}
		own_san = 1;
	}
	c.cfg = cfg;
	c.san = san;
	c.rep = rep;
	c.strict_names = 1;	/* authors see the naming rule as an error */
	trust_init(&c.trust, cfg);
	signer_errors(&c);
	for (i = 0; i < npaths; i++) {
		if (stat(paths[i], &st) == -1) {
			xasprintf(cause, "%s: %s", paths[i], strerror(errno));
			rv = SR_NOTFOUND;
			goto out;
		}
		if (realpath(paths[i], real) == NULL)
			snprintf(real, sizeof real, "%s", paths[i]);
		if (S_ISDIR(st.st_mode)) {
			scan_add_root(&rep->scan, real, 0, 0);
			continue;
		}
		/* A single file: classify it by its last path components. */
		abs = xstrdup(real);
		dir = xstrdup(real);
		if ((slash = strrchr(dir, '/')) != NULL)
			*slash = '\0';
		memset(&root, 0, sizeof root);
		root.path = dir;
		root.exists = 1;
		rel = abs + 1;
		memset(&it, 0, sizeof it);
		kind = scan_classify(rel, &it.fallback, &it.ns);
		if (kind == -1)
			kind = KIND_SKILL;	/* lint any .md as a skill */
		if (it.fallback == NULL) {
			char	*b = strrchr(dir, '/');

			it.fallback = xstrdup(b != NULL ? b + 1 : dir);
		}
		it.kind = (enum skill_kind)kind;
		it.special = scan_special(st.st_mode);
		it.path = abs;
		it.realpath = abs;
		it.root = &root;
		it.size = (int64_t)st.st_size;
		it.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL +
		    st.st_mtim.tv_nsec;
		if ((s = parse_item(&c, &it)) != NULL)
			skill_set_add(&rep->set, s);
		free(it.fallback);
		free(it.ns);
		free(abs);
		free(dir);
	}
	/* Directories given are walked as roots. */
	{
		size_t	 before = rep->scan.n_items, k;

		scan_walk(cfg, &rep->scan);
		for (k = before; k < rep->scan.n_items; k++) {
			if ((s = parse_item(&c, &rep->scan.items[k])) != NULL)
				skill_set_add(&rep->set, s);
		}
	}
	rep->parsed = rep->set.n;
	indexer_precedence(&rep->set);
	tally(rep);
out:
	trust_done(&c.trust);
	pthread_mutex_destroy(&c.lock);
	if (own_san)
		sanitize_free(san);
	return rv;
}

static cJSON *
counts(const char *const *names, const size_t *v, size_t n)
{
	cJSON	*o = cJSON_CreateObject();
	size_t	 i;

	for (i = 0; i < n; i++)
		cJSON_AddNumberToObject(o, names[i], (double)v[i]);
	return o;
}

/* Appends the rejected (skipped = 0) or skipped (1) files to arr. */
static void
add_rejects(cJSON *arr, const struct store_rejects *rej, int skipped)
{
	cJSON	*e;
	size_t	 i;

	for (i = 0; i < rej->n; i++) {
		if (rej->v[i].skipped != skipped)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "path", rej->v[i].path);
		cJSON_AddStringToObject(e, "rule", rej->v[i].rule);
		cJSON_AddStringToObject(e, "reason", rej->v[i].reason);
		cJSON_AddItemToArray(arr, e);
	}
}

cJSON *
index_report_json(const struct index_report *rep)
{
	static const char *const kinds[] = { "skill", "agent", "command" };
	static const char *const tiers[] = {
		"UNTRUSTED", "USER", "VERIFIED", "TRUSTED"
	};
	cJSON		*o, *a, *e;
	size_t		 i;

	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "indexed", (double)rep->parsed);
	cJSON_AddNumberToObject(o, "unchanged", (double)rep->unchanged);
	cJSON_AddNumberToObject(o, "removed", (double)rep->removed);
	cJSON_AddNumberToObject(o, "kept", (double)rep->kept);
	cJSON_AddBoolToObject(o, "complete", rep->complete);
	cJSON_AddNumberToObject(o, "total", (double)rep->total);
	cJSON_AddNumberToObject(o, "searchable", (double)rep->searchable);
	add_rejects(cJSON_AddArrayToObject(o, "rejected"), &rep->rejects, 0);
	add_rejects(cJSON_AddArrayToObject(o, "skipped"), &rep->rejects, 1);
	a = cJSON_AddArrayToObject(o, "shadowed");
	for (i = 0; i < rep->set.n; i++) {
		const struct skill	*s = rep->set.v[i];

		if (s->shadowed_by == NULL)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", s->uid);
		cJSON_AddStringToObject(e, "path", s->path);
		cJSON_AddStringToObject(e, "shadowed_by", s->shadowed_by);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddItemToObject(o, "by_kind", counts(kinds, rep->by_kind, 3));
	cJSON_AddItemToObject(o, "by_tier", counts(tiers, rep->by_tier, 4));
	cJSON_AddNumberToObject(o, "flagged", (double)rep->flagged);
	cJSON_AddNumberToObject(o, "warnings", (double)rep->warnings.n);
	a = cJSON_AddArrayToObject(o, "problems");
	for (i = 0; i < rep->scan.problems.n; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "rule", rep->scan.problems.v[i].rule);
		cJSON_AddStringToObject(e, "message",
		    rep->scan.problems.v[i].message);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddBoolToObject(o, "examples", rep->examples);
	cJSON_AddBoolToObject(o, "written", rep->written);
	cJSON_AddNumberToObject(o, "duration_ms",
	    (double)((long long)(rep->duration_ms * 100 + 0.5)) / 100);
	return o;
}

/* ---- per-path update ------------------------------------------------- */

void
index_delta_init(struct index_delta *d)
{
	memset(d, 0, sizeof *d);
	skill_set_init(&d->up);
	strlist_init(&d->gone);
	store_rejects_init(&d->rej);
	strlist_init(&d->rej_gone);
	findings_init(&d->warnings);
}

void
index_delta_done(struct index_delta *d)
{
	skill_set_done(&d->up);
	strlist_done(&d->gone);
	store_rejects_done(&d->rej);
	strlist_done(&d->rej_gone);
	findings_done(&d->warnings);
	free(d->why_full);
	index_delta_init(d);
}

static int
full(struct index_delta *d, const char *fmt, const char *arg)
{
	d->full = 1;
	if (d->why_full == NULL)
		xasprintf(&d->why_full, fmt, arg);
	return 0;
}

/* 1 when path is dir or below it. */
static int
under(const char *path, const char *dir)
{
	size_t	 n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '\0' ||
	    path[n] == '/' || (n > 0 && dir[n - 1] == '/'));
}

/*
 * A changed file in a skill's folder or one of its subfolders is one of
 * its bundled files (assess_bundled()): walk the folder, so that its
 * SKILL.md is assessed again. Returns dir or the folder (dir is taken).
 */
static char *
bundle_owner(const struct skill_set *cur, char *dir)
{
	const char	*sp, *slash;
	size_t		 i, n;

	for (i = 0; i < cur->n; i++) {
		if (cur->v[i]->kind != KIND_SKILL)
			continue;
		sp = cur->v[i]->path;
		if ((slash = strrchr(sp, '/')) == NULL || slash == sp)
			continue;
		n = (size_t)(slash - sp);
		/* The folder itself or one of its subfolders (files_list()). */
		if (strncmp(dir, sp, n) == 0 && dir[n] == '/' &&
		    strchr(dir + n + 1, '/') == NULL) {
			free(dir);
			return xstrndup(sp, n);
		}
	}
	return dir;
}

/*
 * The directories to walk again: a path that is (or was: the index has
 * entries below it) a directory, else the directory holding it, so that a
 * new or deleted SKILL.md also re-classifies its neighbours. Nested ones
 * are dropped (the outer walk covers them).
 */
static void
focus_dirs(const struct skill_set *cur, const struct store_rejects *rej,
    const struct strlist *paths, struct strlist *out)
{
	struct stat	 st;
	char		*p, *slash;
	size_t		 i, j, n;
	int		 was_dir, gone;

	for (i = 0; i < paths->n; i++) {
		p = xstrdup(paths->v[i]);
		n = strlen(p);
		while (n > 1 && p[n - 1] == '/')
			p[--n] = '\0';
		/* Only a path that is gone can have been a directory. */
		gone = stat(p, &st) == -1;
		was_dir = !gone && S_ISDIR(st.st_mode);
		for (j = 0; gone && !was_dir && j < cur->n; j++)
			if (under(cur->v[j]->path, p) &&
			    strcmp(cur->v[j]->path, p) != 0)
				was_dir = 1;
		for (j = 0; gone && !was_dir && j < rej->n; j++)
			if (under(rej->v[j].path, p) &&
			    strcmp(rej->v[j].path, p) != 0)
				was_dir = 1;
		if (!was_dir && (slash = strrchr(p, '/')) != NULL)
			*(slash == p ? slash + 1 : slash) = '\0';
		p = bundle_owner(cur, p);
		strlist_add_take(out, p);
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_str);
	/* Sorted: an enclosing directory comes right before what it holds. */
	for (i = j = 0; i < out->n; i++) {
		if (j > 0 && under(out->v[i], out->v[j - 1])) {
			free(out->v[i]);
			continue;
		}
		out->v[j++] = out->v[i];
	}
	out->n = j;
}

static int
in_focus(const struct strlist *focus, const char *path)
{
	size_t	 i;

	for (i = 0; i < focus->n; i++)
		if (under(path, focus->v[i]))
			return 1;
	return 0;
}

int
indexer_scan_paths(const struct config *cfg, struct sanitizer *san,
    struct store *st, const struct skill_set *cur, const struct strlist *paths,
    struct index_delta *d, char **cause)
{
	struct index_report	 rep;
	struct ctx		 c;
	struct scan_result	*res = &rep.scan;
	struct store_rejects	 oldrej;
	struct strlist		 focus;
	struct stat		 sb;
	struct skill		*s;
	char			*fp = NULL, *oldfp = NULL;
	size_t			 i, j, k, hit, nold = 0;
	struct skill		**old = NULL;
	double			 t0 = clock_ms();
	char			*cause_j = NULL;
	int			 rv = 0;

	memset(&c, 0, sizeof c);
	index_report_init(&rep);
	store_rejects_init(&oldrej);
	strlist_init(&focus);
	pthread_mutex_init(&c.lock, NULL);
	c.cfg = cfg;
	c.san = san;
	c.rep = &rep;
	c.strict_names = cfg->strict_names;
	trust_init(&c.trust, cfg);
	signer_errors(&c);
	if (san != NULL && judge_new(cfg, &c.judge, &cause_j) != 0) {
		/* A bad judge setting: the full run reports it. */
		free(cause_j);
		full(d, "%s", "the judge settings are invalid");
		goto out;
	}

	/* Settings that shape parsing changed: everything is re-parsed. */
	fp = fingerprint(cfg);
	oldfp = store_meta_get(st, "fingerprint");
	if (oldfp == NULL || strcmp(oldfp, fp) != 0) {
		full(d, "%s", "the settings changed");
		goto out;
	}
	if ((rv = store_load_rejects(st, &oldrej, cause)) != 0)
		goto out;
	scan_roots(cfg, NULL, res);
	for (i = 0; i < cur->n; i++)
		if (strcmp(cur->v[i]->scope, "example") == 0) {
			full(d, "%s", "the bundled examples are in use");
			goto out;
		}
	focus_dirs(cur, &oldrej, paths, &focus);
	for (i = 0; i < focus.n && !d->full; i++) {
		const char	*f = focus.v[i];

		for (j = 0, hit = (size_t)-1; j < res->n_roots; j++) {
			if (under(res->roots[j].path, f) &&
			    strcmp(res->roots[j].path, f) != 0) {
				full(d, "%s: holds a root", f);
				break;
			}
			if (!under(f, res->roots[j].path))
				continue;
			if (!res->roots[j].exists) {
				full(d, "%s: a root appeared", f);
				break;
			}
			if (hit != (size_t)-1) {
				full(d, "%s: under two roots", f);
				break;
			}
			hit = j;
		}
		if (d->full || hit == (size_t)-1)
			continue;	/* not ours (a parent watch) */
		j = strlen(res->roots[hit].path);
		if (scan_walk_under(cfg, res, hit, f[j] == '/' ? f + j + 1 :
		    f + j) == -1)
			full(d, "%s: a scan limit was hit", f);
	}
	if (d->full)
		goto out;

	/* The old entries below the walked directories. */
	old = xreallocarray(NULL, cur->n + 1, sizeof *old);
	for (i = 0; i < cur->n; i++)
		if (in_focus(&focus, cur->v[i]->path))
			old[nold++] = cur->v[i];
	for (i = 0; i < res->n_items && !d->full; i++) {
		const struct scan_item	*it = &res->items[i];
		struct skill		*prev = NULL;
		struct store_reject	*pr = NULL;

		/* Reachable by a second path outside the walk: which wins? */
		for (j = 0; j < cur->n; j++)
			if (strcmp(cur->v[j]->realpath, it->realpath) == 0 &&
			    strcmp(cur->v[j]->path, it->path) != 0 &&
			    !in_focus(&focus, cur->v[j]->path))
				full(d, "%s: reachable by two paths", it->path);
		for (j = 0; j < nold; j++)
			if (strcmp(old[j]->path, it->path) == 0)
				prev = old[j];
		for (j = 0; j < oldrej.n; j++)
			if (strcmp(oldrej.v[j].path, it->path) == 0)
				pr = &oldrej.v[j];
		if (prev != NULL && prev->size == it->size &&
		    prev->kind == it->kind && prev->mtime_ns == it->mtime_ns &&
		    same_bundle(cfg, prev))
			continue;	/* unchanged */
		if (pr != NULL && same_reject(pr, it))
			continue;	/* still rejected, unchanged */
		if (pr != NULL) {
			strlist_add(&d->rej_gone, pr->path);
			d->rej_delta -= indexer_digest_reject(pr);
		}
		if (c.san == NULL) {
			full(d, "%s", "no sanitiser");
			break;
		}
		if ((s = parse_item(&c, it)) != NULL)
			skill_set_add(&d->up, s);
		else if (prev != NULL)
			strlist_add(&d->gone, prev->path);
		d->parsed++;
	}
	if (d->full)
		goto out;
	/* Gone: old entries and rejects under the walk that it did not find. */
	for (j = 0; j < nold; j++) {
		for (k = 0; k < res->n_items; k++)
			if (strcmp(res->items[k].path, old[j]->path) == 0)
				break;
		if (k < res->n_items)
			continue;
		/* Its file is still there: reachable another way? */
		if (stat(old[j]->realpath, &sb) == 0 &&
		    strcmp(old[j]->realpath, old[j]->path) != 0) {
			full(d, "%s: its target still exists", old[j]->path);
			goto out;
		}
		strlist_add(&d->gone, old[j]->path);
	}
	for (j = 0; j < oldrej.n; j++) {
		if (!in_focus(&focus, oldrej.v[j].path))
			continue;
		for (k = 0; k < res->n_items; k++)
			if (strcmp(res->items[k].path, oldrej.v[j].path) == 0)
				break;
		if (k == res->n_items) {
			strlist_add(&d->rej_gone, oldrej.v[j].path);
			d->rej_delta -= indexer_digest_reject(&oldrej.v[j]);
		}
	}
	for (j = 0; j < rep.rejects.n; j++) {
		struct store_reject	*r = &rep.rejects.v[j];

		store_rejects_add(&d->rej, r->path, r->size, r->mtime_ns,
		    r->hash, r->rule, r->reason, r->skipped);
		d->rej_delta += indexer_digest_reject(r);
	}
	for (j = 0; j < rep.warnings.n; j++)
		findings_add(&d->warnings, rep.warnings.v[j].rule,
		    rep.warnings.v[j].sev, rep.warnings.v[j].line, "%s",
		    rep.warnings.v[j].message);
	d->walked = focus.n;
out:
	judge_free(c.judge);
	d->duration_ms = clock_ms() - t0;
	free(old);
	free(fp);
	free(oldfp);
	strlist_done(&focus);
	store_rejects_done(&oldrej);
	trust_done(&c.trust);
	pthread_mutex_destroy(&c.lock);
	index_report_done(&rep);
	return rv;
}
