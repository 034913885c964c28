/*
 * The dashboard's model: the index summary (counts per tier, signers,
 * roots reachable, the index's words) read through the store dispatcher
 * the command gives, and what the panels ask of the telemetry snapshot
 * (the hosts and replicas, the filter, the line shown instead of data).
 * The snapshot itself comes from the feed: tui.c moves each result in
 * (model_apply), so this file does not call the feed.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/clock.h"
#include "core/config.h"
#include "core/skill.h"
#include "telemetry/stats.h"
#include "base/status.h"
#include "store/store.h"
#include "tui/model.h"
#include "search/vocab.h"
#include "base/xmalloc.h"

static int
has_ci(const char *hay, const char *needle)
{
	return hay != NULL && strcasestr(hay, needle) != NULL;
}

int
tui_event_matches(const struct stats_event *e, const char *filter)
{
	if (filter == NULL || *filter == '\0')
		return 1;
	return has_ci(e->query, filter) || has_ci(e->skill, filter) ||
	    has_ci(stats_kind_name(e->kind), filter) ||
	    has_ci(e->client, filter) || has_ci(e->session, filter) ||
	    has_ci(e->trust, filter) || has_ci(e->replica, filter);
}

/* The length of the host part of a replica name ("vm:8080" -> 2). */
static size_t
host_len(const char *r)
{
	const char	*c = strchr(r, ':');

	return c != NULL ? (size_t)(c - r) : strlen(r);
}

/* Is the host of replicas[i] the host of an earlier one? */
static int
host_seen(const struct stats_snap *s, size_t i)
{
	const char	*r = s->replicas[i].key;
	size_t		 j, n = host_len(r);

	for (j = 0; j < i; j++) {
		if (host_len(s->replicas[j].key) == n &&
		    strncmp(s->replicas[j].key, r, n) == 0)
			return 1;
	}
	return 0;
}

size_t
tui_hosts(const struct stats_snap *s)
{
	size_t	 i, n = 0;

	for (i = 0; s != NULL && i < s->n_replicas; i++) {
		if (strcmp(s->replicas[i].key, "-") != 0 && !host_seen(s, i))
			n++;
	}
	return n;
}

size_t
tui_replicas(const struct stats_snap *s)
{
	size_t	 i, j, n = 0, servers, hl;
	const char	*r;

	for (i = 0; s != NULL && i < s->n_replicas; i++) {
		r = s->replicas[i].key;
		if (strcmp(r, "-") == 0 || host_seen(s, i))
			continue;
		/* This host's servers: its names with a port or pid. */
		hl = host_len(r);
		servers = 0;
		for (j = i; j < s->n_replicas; j++) {
			if (host_len(s->replicas[j].key) == hl &&
			    strncmp(s->replicas[j].key, r, hl) == 0 &&
			    s->replicas[j].key[hl] == ':')
				servers++;
		}
		n += servers > 0 ? servers : 1;
	}
	return n;
}

const char *
tui_stats_notice(struct tui *t)
{
	struct tui_model	*m = &t->m, *mm = &t->m;

	switch (m->stats_state) {
	case TS_OK:
		return NULL;
	case TS_LOADING:
		snprintf(mm->notice, sizeof mm->notice, "reading %s",
		    m->opts.stats_shown != NULL ? m->opts.stats_shown :
		    m->opts.stats_path);
		break;
	case TS_OFF:
		snprintf(mm->notice, sizeof mm->notice, "telemetry is off: set "
		    "telemetry.enabled: true to record searches and loads");
		break;
	case TS_MISSING:
		snprintf(mm->notice, sizeof mm->notice, "no %s yet "
		    "(%s): waiting for the first event", m->opts.stats_pg ?
		    "telemetry schema" : "stats.db", m->opts.stats_shown !=
		    NULL ? m->opts.stats_shown : m->opts.stats_path);
		break;
	case TS_ERROR:
	default:
		snprintf(mm->notice, sizeof mm->notice, "stats.db: %s",
		    m->stats_msg != NULL ? m->stats_msg : "unreadable");
		break;
	}
	return m->notice;
}

/* ---- the index summary ------------------------------------------------ */

/* A signature of index.db and its WAL: changes when either is written. */
static int64_t
index_signature(const char *path)
{
	struct stat	 st;
	char		*wal;
	int64_t		 sig = 0;

	if (path == NULL)
		return 0;
	if (stat(path, &st) == 0)
		sig = (int64_t)st.st_mtim.tv_sec * 1000000007LL +
		    st.st_mtim.tv_nsec + (int64_t)st.st_size * 31;
	xasprintf(&wal, "%s-wal", path);
	if (stat(wal, &st) == 0)
		sig ^= ((int64_t)st.st_mtim.tv_sec * 1000003LL +
		    st.st_mtim.tv_nsec + (int64_t)st.st_size) * 17;
	free(wal);
	return sig;
}

static void
count_paths(struct tui_model *m)
{
	struct stat	 st;
	size_t		 i;

	m->paths_ok = m->paths_total = 0;
	if (m->cfg == NULL)
		return;
	for (i = 0; i < m->cfg->paths.n; i++) {
		m->paths_total++;
		if (stat(m->cfg->paths.v[i], &st) == 0 && S_ISDIR(st.st_mode))
			m->paths_ok++;
	}
}

/*
 * Who signed the winning entries (trust.signers names, sign.h), as
 * "alice 3, bob 1" in order of count, or NULL when none is signed. Read
 * only when the index changed, like the counts.
 */
struct signer_count {
	const char	*name;
	size_t		 n;
};

static int
cmp_signer_count(const void *a, const void *b)
{
	const struct signer_count	*x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static char *
signers_text(struct store *st)
{
	struct skill_set	 set;
	struct signer_count	*v;
	struct buf		 b;
	size_t			 i, j, nv = 0;
	char			*cause = NULL;

	skill_set_init(&set);
	if (store_load(st, &set, &cause) != 0) {
		free(cause);
		return NULL;
	}
	v = xcalloc(set.n + 1, sizeof *v);
	for (i = 0; i < set.n; i++) {
		const struct skill	*s = set.v[i];

		if (s->signer == NULL || s->shadowed_by != NULL)
			continue;
		for (j = 0; j < nv && strcmp(v[j].name, s->signer) != 0; j++)
			;
		if (j == nv)
			v[nv++].name = s->signer;
		v[j].n++;
	}
	qsort(v, nv, sizeof *v, cmp_signer_count);
	buf_init(&b, 0);
	for (j = 0; j < nv; j++)
		buf_printf(&b, "%s%s %zu", j ? ", " : "", v[j].name, v[j].n);
	free(v);
	skill_set_done(&set);
	if (b.len == 0) {
		buf_done(&b);
		return NULL;
	}
	return buf_take(&b);
}

/*
 * Reads the index summary: counts per tier of the winning entries, which
 * the store computes without the dashboard loading every entry.
 */
static void
load_index(struct tui_model *m)
{
	struct store		*st = NULL;
	struct store_counts	 c;
	char			*cause = NULL;
	int			 rv;

	free(m->index_msg);
	m->index_msg = NULL;
	m->n_skills = m->n_entries = m->n_user_only = 0;
	memset(m->tiers, 0, sizeof m->tiers);
	memset(m->flagged, 0, sizeof m->flagged);
	free(m->signed_by);
	m->signed_by = NULL;
	m->index_sig = index_signature(m->opts.index_path);
	count_paths(m);

	if (m->opts.index_path == NULL || m->opts.index_open == NULL) {
		m->index_state = SR_NOTFOUND;
		return;
	}
	rv = m->opts.index_open(m->cfg, &st, &cause);
	if (rv == 0)
		rv = store_count(st, &c, &cause);
	m->index_state = rv;
	if (rv != 0) {
		m->index_msg = cause;
		cause = NULL;
		goto out;
	}
	m->n_entries = c.entries;
	m->n_skills = c.winners;
	m->n_user_only = c.user_only;
	memcpy(m->tiers, c.tiers, sizeof m->tiers);
	memcpy(m->flagged, c.flagged, sizeof m->flagged);
	m->signed_by = signers_text(st);
out:
	free(cause);
	if (st != NULL)
		store_close(st);
}

const struct vocab *
tui_vocab(struct tui *t)
{
	struct tui_model	*m = &t->m;
	struct store		*st = NULL;
	struct skill_set	 set;
	char			*cause = NULL;

	if (m->vocab != NULL && m->vocab_sig == m->index_sig)
		return m->vocab;
	vocab_free(m->vocab);
	m->vocab = NULL;
	if (m->opts.index_path == NULL || m->index_state != 0)
		return NULL;
	skill_set_init(&set);
	if (m->opts.index_open(m->cfg, &st, &cause) == 0 &&
	    store_load(st, &set, &cause) == 0) {
		m->vocab = vocab_new(&set);
		m->vocab_sig = m->index_sig;
	}
	free(cause);
	if (st != NULL)
		store_close(st);
	skill_set_done(&set);
	return m->vocab;
}

void
model_init(struct tui_model *m, const struct config *cfg,
    const struct tui_opts *o)
{
	memset(m, 0, sizeof *m);
	m->cfg = cfg;
	m->opts = *o;
	m->range = o->range;
	m->snap_range = o->range;
	m->miss_threshold = cfg != NULL ? cfg->miss_threshold : 0.4;
	if (m->miss_threshold <= 0 || m->miss_threshold > 1)
		m->miss_threshold = 0.4;
	m->now = clock_wall();
	m->stats_state = TS_LOADING;
	load_index(m);
}

void
model_done(struct tui_model *m)
{
	if (m->have_snap)
		stats_snap_done(&m->snap);
	free(m->stats_msg);
	free(m->index_msg);
	free(m->signed_by);
	vocab_free(m->vocab);
	memset(m, 0, sizeof *m);
}

int
model_poll_index(struct tui_model *m)
{
	if (index_signature(m->opts.index_path) == m->index_sig)
		return 0;
	load_index(m);
	return 1;
}
