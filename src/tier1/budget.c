/*
 * doctor's budget report: see budget.h.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "tier1/budget.h"
#include "core/config.h"
#include "tier1/miniindex.h"
#include "tier1/tokens.h"
#include "base/xmalloc.h"

/* Dropped names printed by budget_print before "+N more". */
#define PRINT_DROPPED_MAX	12
#define PRINT_OVERRIDES_MAX	6

struct entry {
	char	*name;
	char	*line;		/* "- name: desc - when" (capped) */
	size_t	 full;		/* chars of line */
	size_t	 bare;		/* chars of "- name" */
};

/* Length as JavaScript counts it: UTF-16 code units. */
static size_t
js_length(const char *s, size_t len)
{
	size_t	 i, n = 0;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if ((c & 0xc0) == 0x80)
			continue;
		n += c >= 0xf0 ? 2 : 1;
	}
	return n;
}

/* Byte length of the first max UTF-16 units of s. */
static size_t
js_prefix(const char *s, size_t max)
{
	size_t	 i = 0, n = 0, w;
	unsigned char c;

	while (s[i] != '\0') {
		c = (unsigned char)s[i];
		w = c >= 0xf0 ? 2 : 1;
		if (n + w > max)
			break;
		n += w;
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
	}
	return i;
}


/*
 * The name Claude Code lists an entry under ("plugin:name" for a plugin
 * skill, "dir:name" for a nested command), allocated; NULL for entries it
 * does not list (agents, shadowed, disable-model-invocation).
 */
static char *
budget_native_name(const struct skill *s)
{
	char	*n;

	if (s == NULL || s->shadowed_by != NULL || s->disable_model_invocation)
		return NULL;
	switch (s->kind) {
	case KIND_SKILL:
		if (s->scope != NULL && strncmp(s->scope, "plugin:", 7) == 0 &&
		    s->scope[7] != '\0') {
			xasprintf(&n, "%s:%s", s->scope + 7, s->name);
			return n;
		}
		return xstrdup(s->name);
	case KIND_COMMAND:
		return xstrdup(strncmp(s->uid, "cmd:", 4) == 0 ?
		    s->uid + 4 : s->uid);
	default:
		return NULL;
	}
}

static int
cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
	    ((const struct entry *)b)->name);
}

static void
entry_make(struct entry *e, const struct skill *s, char *name)
{
	char	*desc;
	size_t	 cut;

	e->name = name;
	if (s->when_to_use != NULL && *s->when_to_use != '\0')
		xasprintf(&desc, "%s - %s", s->description, s->when_to_use);
	else
		desc = xstrdup(s->description != NULL ? s->description : "");
	if (js_length(desc, strlen(desc)) > BUDGET_DESC_MAX) {
		cut = js_prefix(desc, BUDGET_DESC_MAX - 1);
		desc[cut] = '\0';
		xasprintf(&e->line, "- %s: %s…", name, desc);
	} else if (*desc != '\0')
		xasprintf(&e->line, "- %s: %s", name, desc);
	else
		xasprintf(&e->line, "- %s", name);
	free(desc);
	e->full = js_length(e->line, strlen(e->line));
	e->bare = 2 + js_length(name, strlen(name));
}

static long
char_budget(const struct config *cfg, long context_tokens, const char **src)
{
	const char	*env;
	char		*end;
	long		 v;

	if ((env = getenv("SLASH_COMMAND_TOOL_CHAR_BUDGET")) != NULL &&
	    *env != '\0') {
		v = strtol(env, &end, 10);
		if (*end == '\0' && v > 0) {
			*src = "SLASH_COMMAND_TOOL_CHAR_BUDGET";
			return v;
		}
	}
	*src = "context";
	if (context_tokens <= 0)
		context_tokens = cfg->context_tokens > 0 ?
		    cfg->context_tokens : 200000;
	return context_tokens * 4 * BUDGET_FRACTION_PCT / 100;
}

cJSON *
budget_report(const struct skill_set *set, const struct config *cfg,
    const struct sanitizer *san, long context_tokens)
{
	struct entry		*e;
	struct buf		 full, sent, bare;
	struct miniindex_opts	 mo;
	struct miniindex_info	 mi;
	cJSON			*o, *dropped, *ov, *m;
	const char		*src;
	char			*name, *text;
	size_t			 i, n = 0, used, kept = 0, listing_chars = 0;
	size_t			 full_tok, sent_tok, bare_tok, with_server;
	long			 budget;
	int			 spent = 0;

	if (context_tokens <= 0)
		context_tokens = cfg->context_tokens > 0 ?
		    cfg->context_tokens : 200000;
	budget = char_budget(cfg, context_tokens, &src);
	e = xcalloc(set->n > 0 ? set->n : 1, sizeof *e);
	for (i = 0; i < set->n; i++) {
		if ((name = budget_native_name(set->v[i])) != NULL)
			entry_make(&e[n++], set->v[i], name);
	}
	qsort(e, n, sizeof *e, cmp_entry);

	/* Names for everyone, then descriptions in rank order while they fit. */
	used = 0;
	for (i = 0; i < n; i++) {
		listing_chars += e[i].full + (i > 0);
		used += e[i].bare + (i > 0);
	}
	buf_init(&full, 0);
	buf_init(&sent, 0);
	buf_init(&bare, 0);
	o = cJSON_CreateObject();
	dropped = cJSON_CreateArray();
	ov = cJSON_CreateObject();
	for (i = 0; i < n; i++) {
		if (i > 0) {
			buf_addc(&full, '\n');
			buf_addc(&sent, '\n');
			buf_addc(&bare, '\n');
		}
		buf_addstr(&full, e[i].line);
		buf_printf(&bare, "- %s", e[i].name);
		if (listing_chars <= (size_t)budget ||
		    (!spent && used + e[i].full - e[i].bare <= (size_t)budget)) {
			used += e[i].full - e[i].bare;
			kept++;
			buf_addstr(&sent, e[i].line);
		} else {
			spent = 1;
			buf_printf(&sent, "- %s", e[i].name);
			cJSON_AddItemToArray(dropped,
			    cJSON_CreateString(e[i].name));
		}
		cJSON_AddStringToObject(ov, e[i].name, "name-only");
	}
	full_tok = tokens_estimate(full.p, full.len);
	sent_tok = tokens_estimate(sent.p, sent.len);
	bare_tok = tokens_estimate(bare.p, bare.len);

	miniindex_opts_from_config(&mo, cfg);
	mo.san = san;
	text = miniindex_text(set, &mo, NULL, &mi);
	free(text);
	with_server = bare_tok + mi.tokens;

	cJSON_AddNumberToObject(o, "context_tokens", (double)context_tokens);
	cJSON_AddNumberToObject(o, "budget_chars", (double)budget);
	cJSON_AddStringToObject(o, "budget_source", src);
	cJSON_AddNumberToObject(o, "skills", (double)n);
	cJSON_AddNumberToObject(o, "listing_chars", (double)listing_chars);
	cJSON_AddNumberToObject(o, "listing_tokens", (double)full_tok);
	cJSON_AddBoolToObject(o, "fits", listing_chars <= (size_t)budget);
	cJSON_AddNumberToObject(o, "kept", (double)kept);
	cJSON_AddNumberToObject(o, "dropped", (double)(n - kept));
	cJSON_AddItemToObject(o, "dropped_names", dropped);
	cJSON_AddNumberToObject(o, "sent_chars",
	    (double)js_length(sent.p, sent.len));
	cJSON_AddNumberToObject(o, "sent_tokens", (double)sent_tok);
	cJSON_AddNumberToObject(o, "names_only_tokens", (double)bare_tok);
	m = cJSON_AddObjectToObject(o, "mini_index");
	cJSON_AddNumberToObject(m, "tokens", (double)mi.tokens);
	cJSON_AddNumberToObject(m, "budget", (double)mo.budget);
	cJSON_AddStringToObject(m, "level", miniindex_level_name(mi.level));
	cJSON_AddNumberToObject(m, "named", (double)mi.named);
	cJSON_AddNumberToObject(m, "with_gist", (double)mi.with_gist);
	cJSON_AddNumberToObject(o, "with_server_tokens", (double)with_server);
	cJSON_AddNumberToObject(o, "saving_tokens",
	    (double)sent_tok - (double)with_server);
	cJSON_AddNumberToObject(o, "off_saving_tokens",
	    (double)sent_tok - (double)mi.tokens);
	cJSON_AddItemToObject(o, "skill_overrides", ov);

	for (i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].line);
	}
	free(e);
	buf_done(&full);
	buf_done(&sent);
	buf_done(&bare);
	return o;
}

static double
num(const cJSON *o, const char *k)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

void
budget_print(FILE *fp, const cJSON *r)
{
	const cJSON	*m, *d, *it, *src;
	size_t		 i;
	double		 saving;

	m = cJSON_GetObjectItemCaseSensitive(r, "mini_index");
	d = cJSON_GetObjectItemCaseSensitive(r, "dropped_names");
	src = cJSON_GetObjectItemCaseSensitive(r, "budget_source");
	fprintf(fp, "skill listing (what Claude Code sends on every turn):\n");
	fprintf(fp, "  skills listed   %.0f\n", num(r, "skills"));
	if (cJSON_IsString(src) && strcmp(src->valuestring, "context") != 0)
		fprintf(fp, "  budget          %.0f chars "
		    "(SLASH_COMMAND_TOOL_CHAR_BUDGET)\n", num(r, "budget_chars"));
	else
		fprintf(fp, "  budget          %.0f chars (%.0f context tokens "
		    "x 4 x 1%%)\n", num(r, "budget_chars"),
		    num(r, "context_tokens"));
	fprintf(fp, "  full listing    %.0f chars, ~%.0f tokens\n",
	    num(r, "listing_chars"), num(r, "listing_tokens"));
	fprintf(fp, "  sent today      %.0f chars, ~%.0f tokens: %.0f "
	    "descriptions kept, %.0f dropped\n", num(r, "sent_chars"),
	    num(r, "sent_tokens"), num(r, "kept"), num(r, "dropped"));
	if (cJSON_GetArraySize(d) > 0) {
		fprintf(fp, "  dropped         ");
		i = 0;
		cJSON_ArrayForEach(it, d) {
			if (i == PRINT_DROPPED_MAX)
				break;
			fprintf(fp, "%s%s", i++ > 0 ? ", " : "",
			    it->valuestring);
		}
		if ((size_t)cJSON_GetArraySize(d) > i)
			fprintf(fp, ", +%zu more (--json lists all)",
			    (size_t)cJSON_GetArraySize(d) - i);
		fprintf(fp, "\n");
	}
	fprintf(fp, "  mini-index      ~%.0f tokens of %.0f (%s: %.0f named, "
	    "%.0f with a gist)\n", num(m, "tokens"), num(m, "budget"),
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "level")) ?
	    cJSON_GetObjectItemCaseSensitive(m, "level")->valuestring : "?",
	    num(m, "named"), num(m, "with_gist"));
	saving = num(r, "saving_tokens");
	fprintf(fp, "  with the server ~%.0f tokens (names-only listing + "
	    "mini-index): %s ~%.0f tokens per turn\n",
	    num(r, "with_server_tokens"), saving >= 0 ? "saving" : "costing",
	    saving >= 0 ? saving : -saving);
	saving = num(r, "off_saving_tokens");
	fprintf(fp, "  with \"off\"     ~%.0f tokens (mini-index only; the "
	    "skills also leave the / menu): %s ~%.0f tokens per turn\n",
	    num(m, "tokens"), saving >= 0 ? "saving" : "costing",
	    saving >= 0 ? saving : -saving);
	if (num(r, "skills") > 0) {
		fprintf(fp, "  to hand descriptions to the server, add to "
		    "~/.claude/settings.json:\n    {\"skillOverrides\": {");
		i = 0;
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(r,
		    "skill_overrides")) {
			if (i == PRINT_OVERRIDES_MAX)
				break;
			fprintf(fp, "%s\"%s\": \"name-only\"", i++ > 0 ?
			    ", " : "", it->string);
		}
		if (num(r, "skills") > (double)i)
			fprintf(fp, ", ... (%.0f entries; doctor --json has "
			    "them all)", num(r, "skills"));
		fprintf(fp, "}}\n");
	}
}
