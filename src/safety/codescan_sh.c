/*
 * The shell reader of codescan: a small tokenizer (quotes, escapes,
 * $(...), backticks, ${var}, $'...', pipes, &&, ||, ;, redirections,
 * here-docs, line continuations) and a walk over each pipeline that
 * follows what the data is (fetched, decoded, a credential, the
 * environment, a file) from command to command. Variables assigned in the
 * block are expanded where they are used; bash -c, eval, python -c,
 * node -e and powershell -c/-enc are read in their own language. What
 * each command does is codescan_shcmd.c's (sh_eval()), below this file.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safety/codescan_shcmd_impl.h"
#include "base/xmalloc.h"

static unsigned	sh_sub(struct sh *, size_t, size_t, int);

/* ---- tokenizer ------------------------------------------------------ */

static int
is_opchar(int c)
{
	return c == '|' || c == '&' || c == ';' || c == '(' || c == ')' ||
	    c == '<' || c == '>';
}

/* Finds the ) that closes a $( or <( opened before i; returns its offset. */
static size_t
match_paren(const char *t, size_t len, size_t i)
{
	int	 depth = 1;
	char	 q = 0;

	for (; i < len; i++) {
		if (q != 0) {
			if (t[i] == '\\' && q == '"')
				i++;
			else if (t[i] == q)
				q = 0;
			continue;
		}
		if (t[i] == '\\')
			i++;
		else if (t[i] == '\'' || t[i] == '"' || t[i] == '`')
			q = t[i];
		else if (t[i] == '(')
			depth++;
		else if (t[i] == ')' && --depth == 0)
			return i;
	}
	return len;
}

static void
expand_var(struct sh *sh, struct sh_word *w, const char *name, size_t n)
{
	struct sh_var	*v = var_find(sh->vars, name, n);

	w->nvars++;
	w->nparams++;
	w->pieces++;
	if (v != NULL) {
		wadd(w, v->val, strlen(v->val));
		w->taint |= v->taint;
		return;
	}
	if (cs_secret_name(name, n))
		w->secret = 1;
	wadd(w, "$", 1);
	wadd(w, name, n);
}

/* $name, ${name...}, $(...), $((...)), $'...' at t[i] == '$'. */
static void
read_dollar(struct sh *sh, struct sh_word *w)
{
	const char	*t = sh->t;
	size_t		 i = sh->i + 1, j, e;
	char		 c;

	if (i < sh->len && t[i] == '(') {
		if (i + 1 < sh->len && t[i + 1] == '(') {
			e = match_paren(t, sh->len, i + 2);
			sh->i = e + 2 <= sh->len ? e + 2 : sh->len;
			wadd(w, "0", 1);
			return;
		}
		e = match_paren(t, sh->len, i + 1);
		w->taint |= sh_sub(sh, i + 1, e, sh->line);
		w->pieces++;
		w->nvars++;
		wadd(w, "$(...)", 6);
		sh->i = e < sh->len ? e + 1 : sh->len;
		return;
	}
	if (i < sh->len && t[i] == '{') {
		for (j = i + 1; j < sh->len && (isalnum((unsigned char)t[j]) ||
		    t[j] == '_'); j++)
			;
		e = j;
		while (e < sh->len && t[e] != '}' && t[e] != '\n')
			e++;
		expand_var(sh, w, t + i + 1, j - i - 1);
		sh->i = e < sh->len ? e + 1 : sh->len;
		return;
	}
	if (i < sh->len && t[i] == '\'') {	/* $'...' with C escapes */
		for (j = i + 1; j < sh->len && t[j] != '\''; j++) {
			if (t[j] != '\\' || j + 1 >= sh->len) {
				wadd(w, t + j, 1);
				continue;
			}
			c = t[++j];
			if (c == 'x' && j + 2 < sh->len &&
			    isxdigit((unsigned char)t[j + 1])) {
				char	 hx[3] = { t[j + 1], 0, 0 };

				if (isxdigit((unsigned char)t[j + 2]))
					hx[1] = t[j + 2];
				c = (char)strtol(hx, NULL, 16);
				j += hx[1] ? 2 : 1;
				w->taint |= T_OBF;
			} else if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			wadd(w, &c, 1);
		}
		w->pieces++;
		sh->i = j < sh->len ? j + 1 : sh->len;
		return;
	}
	for (j = i; j < sh->len && (isalnum((unsigned char)t[j]) ||
	    t[j] == '_'); j++)
		;
	if (j == i) {
		if (j < sh->len && strchr("@*#?$!0123456789-", t[j]) != NULL) {
			wadd(w, t + sh->i, 2);
			w->nvars++;
			w->pieces++;
			sh->i = j + 1;
		} else {
			wadd(w, "$", 1);
			sh->i = j;
		}
		return;
	}
	expand_var(sh, w, t + i, j - i);
	sh->i = j;
}

static void
read_backtick(struct sh *sh, struct sh_word *w)
{
	size_t	 e = sh->i + 1;

	while (e < sh->len && sh->t[e] != '`') {
		if (sh->t[e] == '\\')
			e++;
		e++;
	}
	if (e > sh->len)
		e = sh->len;
	w->taint |= sh_sub(sh, sh->i + 1, e, sh->line);
	w->pieces++;
	w->nvars++;
	wadd(w, "$(...)", 6);
	sh->i = e < sh->len ? e + 1 : sh->len;
}

/* A byte that is a word's own, with no meaning to the shell. */
static int
plain(int c)
{
	switch (c) {
	case '|': case '&': case ';': case '(': case ')': case '<': case '>':
	case '\\': case '\'': case '"': case '$': case '`': case '=':
		return 0;
	default:
		return c > ' ';
	}
}

/* Reads one word at sh->i (not a blank, not an operator). */
static void
read_word(struct sh *sh, struct sh_word *w)
{
	const char	*t = sh->t;
	int		 lit = 0;
	char		 c;

	wclear(w);
	w->from = sh->i;
	while (sh->i < sh->len) {
		c = t[sh->i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    is_opchar(c))
			break;
		if (c == '\\') {
			if (sh->i + 1 < sh->len && t[sh->i + 1] == '\n') {
				sh->line++;
				sh->i += 2;
				continue;
			}
			if (sh->i + 1 < sh->len)
				wadd(w, t + sh->i + 1, 1);
			sh->i += 2;
			continue;
		}
		if (c == '\'') {
			size_t	 e = sh->i + 1;

			while (e < sh->len && t[e] != '\'') {
				if (t[e] == '\n')
					sh->line++;
				e++;
			}
			wadd(w, t + sh->i + 1, e - sh->i - 1);
			w->pieces++;
			lit = 0;
			sh->i = e < sh->len ? e + 1 : sh->len;
			continue;
		}
		if (c == '"') {
			sh->i++;
			w->pieces++;
			while (sh->i < sh->len && t[sh->i] != '"') {
				c = t[sh->i];
				if (c == '\\' && sh->i + 1 < sh->len &&
				    strchr("$`\"\\\n", t[sh->i + 1]) != NULL) {
					if (t[sh->i + 1] != '\n')
						wadd(w, t + sh->i + 1, 1);
					sh->i += 2;
				} else if (c == '$')
					read_dollar(sh, w);
				else if (c == '`')
					read_backtick(sh, w);
				else {
					if (c == '\n')
						sh->line++;
					wadd(w, &c, 1);
					sh->i++;
				}
			}
			if (sh->i < sh->len)
				sh->i++;
			lit = 0;
			continue;
		}
		if (c == '$') {
			read_dollar(sh, w);
			lit = 0;
			continue;
		}
		if (c == '`') {
			read_backtick(sh, w);
			lit = 0;
			continue;
		}
		if (c == '=' && !w->assigned && w->pieces == 1 && lit &&
		    w->nvars == 0) {
			w->assigned = (int)w->len + 1;
			wadd(w, "=", 1);
			sh->i++;
			lit = 0;
			continue;
		}
		if (!lit) {
			w->pieces++;
			lit = 1;
		}
		{
			/* a run of plain bytes at once */
			size_t	 e = sh->i + 1;

			while (e < sh->len && plain((unsigned char)t[e]))
				e++;
			wadd(w, t + sh->i, e - sh->i);
			sh->i = e;
		}
	}
	w->to = sh->i;
	/* "$a$b": nothing but expansions, glued together */
	if (w->nparams >= 2 && w->pieces == w->nvars)
		w->taint |= T_OBF;
	if (w->assigned) {
		size_t	 k;

		for (k = 0; k + 1 < (size_t)w->assigned; k++)
			if (!(isalnum((unsigned char)w->s[k]) || w->s[k] == '_'))
				w->assigned = 0;
		if (w->assigned == 1 || isdigit((unsigned char)w->s[0]))
			w->assigned = 0;
	}
}

static void
skip_blanks(struct sh *sh)
{
	const char	*t = sh->t;

	while (sh->i < sh->len) {
		if (t[sh->i] == ' ' || t[sh->i] == '\t' || t[sh->i] == '\r')
			sh->i++;
		else if (t[sh->i] == '\\' && sh->i + 1 < sh->len &&
		    t[sh->i + 1] == '\n') {
			sh->i += 2;
			sh->line++;
		} else
			break;
	}
}

/* Reads a here-document body that starts at sh->i. */
static void
read_heredoc(struct sh *sh, struct sh_cmd *c)
{
	const char	*t = sh->t, *nl, *s;
	size_t		 dl = strlen(c->hdelim), n, k;

	c->hd = t + sh->i;
	c->hdline = sh->line;
	while (sh->i < sh->len) {
		s = t + sh->i;
		nl = memchr(s, '\n', sh->len - sh->i);
		n = nl != NULL ? (size_t)(nl - s) : sh->len - sh->i;
		k = 0;
		while (c->hdstrip && k < n && s[k] == '\t')
			k++;
		if (n - k == dl && strncmp(s + k, c->hdelim, dl) == 0) {
			c->hdlen = (size_t)(s - c->hd);
			sh->i = nl != NULL ? sh->i + n + 1 : sh->len;
			sh->line++;
			return;
		}
		sh->i = nl != NULL ? sh->i + n + 1 : sh->len;
		sh->line++;
	}
	c->hdlen = (size_t)(t + sh->len - c->hd);
}

static void
cmd_init(struct sh_cmd *c, struct sh *sh)
{
	c->argc = 0;
	c->nredir = 0;
	c->line = sh->line;
	c->start = sh->i;
	c->end = sh->i;
	c->hd = NULL;
	c->hdlen = 0;
	c->hdelim[0] = '\0';
	c->hdstrip = 0;
	c->hdquoted = 0;
	c->hdtaint = 0;
}

/* Reads one simple command; returns the operator that ends it. */
static enum sh_op
read_cmd(struct sh *sh, struct sh_cmd *c)
{
	const char	*t = sh->t;
	struct sh_word	 tmp;
	char		 c0;

	cmd_init(c, sh);
	for (;;) {
		skip_blanks(sh);
		if (c->argc == 0 && c->nredir == 0) {
			c->start = sh->i;
			c->line = sh->line;
		}
		c->end = sh->i;
		if (sh->i >= sh->len)
			return OP_EOF;
		c0 = t[sh->i];
		if (c0 == '#' && (sh->i == 0 || c->argc == 0 ||
		    t[sh->i - 1] == ' ' || t[sh->i - 1] == '\t')) {
			while (sh->i < sh->len && t[sh->i] != '\n')
				sh->i++;
			continue;
		}
		if (c0 == '\n') {
			sh->i++;
			sh->line++;
			return OP_NL;
		}
		if (c0 == ';') {
			sh->i += sh->i + 1 < sh->len && t[sh->i + 1] == ';' ?
			    2 : 1;
			return OP_SEMI;
		}
		if (c0 == '|') {
			if (sh->i + 1 < sh->len && t[sh->i + 1] == '|') {
				sh->i += 2;
				return OP_OR;
			}
			sh->i += sh->i + 1 < sh->len && t[sh->i + 1] == '&' ?
			    2 : 1;
			return OP_PIPE;
		}
		if (c0 == '&' && !(sh->i + 1 < sh->len && t[sh->i + 1] == '>')) {
			if (sh->i + 1 < sh->len && t[sh->i + 1] == '&') {
				sh->i += 2;
				return OP_AND;
			}
			sh->i++;
			return OP_AMP;
		}
		if (c0 == '(' || c0 == ')' || c0 == '{' || c0 == '}') {
			/* grouping: the words inside are read as commands */
			sh->i++;
			if (c->argc > 0 || c->nredir > 0)
				return c0 == ')' ? OP_CLOSE : OP_SEMI;
			continue;
		}
		if ((c0 == '<' || c0 == '>') && sh->i + 1 < sh->len &&
		    t[sh->i + 1] == '(') {
			/* process substitution: a word of its own */
			size_t	 e = match_paren(t, sh->len, sh->i + 2);

			if (c->argc < ARGV_MAX) {
				struct sh_word	*w = &c->argv[c->argc++];

				wclear(w);
				w->taint = sh_sub(sh, sh->i + 2, e, sh->line);
				wadd(w, "/dev/fd/63", 10);
				w->pieces = 1;
				w->nvars = 1;
			} else
				(void)sh_sub(sh, sh->i + 2, e, sh->line);
			sh->i = e < sh->len ? e + 1 : sh->len;
			continue;
		}
		if (c0 == '<' || c0 == '>' || (c0 == '&' && t[sh->i + 1] == '>')) {
			struct sh_redir	*r = c->nredir < REDIR_MAX ?
			    &c->redir[c->nredir++] : NULL;
			char		 op[4] = { 0 };
			size_t		 k = 0;

			if (c0 == '&')
				sh->i++;
			while (sh->i < sh->len && k < 3 && (t[sh->i] == '<' ||
			    t[sh->i] == '>' || t[sh->i] == '&' ||
			    t[sh->i] == '-' || t[sh->i] == '|'))
				op[k++] = t[sh->i++];
			skip_blanks(sh);
			if (sh->i < sh->len && strchr("'\"\\", t[sh->i]) != NULL)
				c->hdquoted = 1;
			read_word(sh, &tmp);
			if (strncmp(op, "<<", 2) == 0 && op[2] != '<') {
				snprintf(c->hdelim, sizeof c->hdelim, "%.*s",
				    (int)sizeof c->hdelim - 1, tmp.s);
				c->hdstrip = op[2] == '-';
			}
			if (r != NULL) {
				snprintf(r->op, sizeof r->op, "%s", op);
				r->w = tmp;
			}
			continue;
		}
		if (c->argc < ARGV_MAX) {
			read_word(sh, &c->argv[c->argc]);
			/* "2>&1": the digits were a file descriptor */
			if (sh->i < sh->len && (t[sh->i] == '>' ||
			    t[sh->i] == '<') && c->argv[c->argc].len == 1 &&
			    isdigit((unsigned char)c->argv[c->argc].s[0]))
				continue;
			c->argc++;
		} else
			read_word(sh, &tmp);
		c->end = sh->i;
	}
}

/* An unquoted here-document expands its $(...) and `...`. */
static void
heredoc_subs(struct sh *sh, struct sh_cmd *c)
{
	size_t	 from, i, e, end;
	int	 line = c->hdline;

	if (c->hd == NULL || c->hdquoted)
		return;
	from = (size_t)(c->hd - sh->t);
	end = from + c->hdlen;
	for (i = from; i < end; i++) {
		if (sh->t[i] == '\n')
			line++;
		else if (sh->t[i] == '$' && i + 1 < end && sh->t[i + 1] == '(') {
			e = match_paren(sh->t, end, i + 2);
			c->hdtaint |= sh_sub(sh, i + 2, e, line);
			i = e;
		} else if (sh->t[i] == '`') {
			for (e = i + 1; e < end && sh->t[e] != '`'; e++)
				;
			c->hdtaint |= sh_sub(sh, i + 1, e, line);
			i = e;
		}
	}
}

/* ---- the walk ------------------------------------------------------ */

static unsigned
sh_run(struct sh *sh)
{
	struct sh_cmd	*p = sh->pipe;
	size_t		 n, k, start;
	enum sh_op	 op;
	unsigned	 taint = 0, last = 0;
	int		 line;

	while (sh->i < sh->len) {
		n = 0;
		start = sh->i;
		line = sh->line;
		do {
			op = read_cmd(sh, &p[n < PIPE_MAX ? n : PIPE_MAX - 1]);
			if (n < PIPE_MAX)
				n++;
		} while (op == OP_PIPE && sh->i < sh->len);
		/* here-documents begin on the next line */
		if (op == OP_NL)
			for (k = 0; k < n; k++)
				if (p[k].hdelim[0] != '\0') {
					read_heredoc(sh, &p[k]);
					heredoc_subs(sh, &p[k]);
				}
		while (start < sh->len && (sh->t[start] == ' ' ||
		    sh->t[start] == '\t' || sh->t[start] == '\n')) {
			if (sh->t[start] == '\n')
				line++;
			start++;
		}
		sh->pstart = start;
		sh->pline = line;
		taint = 0;
		for (k = 0; k < n; k++) {
			if (p[k].argc == 0 && p[k].nredir == 0)
				continue;
			sh->piped = k > 0;
			taint = sh_eval(sh, &p[k], taint);
		}
		if (n > 0 && (p[n - 1].argc > 0))
			last = taint;
		if (op == OP_EOF || op == OP_CLOSE)
			break;
	}
	return last;
}

static void
sh_init(struct sh *sh, struct cs_block *b, const char *t, size_t len,
    int line, struct sh_vars *vars)
{
	sh->b = b;
	sh->t = t;
	sh->len = len;
	sh->i = 0;
	sh->line = line;
	sh->vars = vars;
	sh->pipe = xreallocarray(NULL, PIPE_MAX, sizeof *sh->pipe);
	sh->pstart = 0;
	sh->pline = line;
}

/* $(...), `...`, <(...): the inner text with the outer variables. */
static unsigned
sh_sub(struct sh *outer, size_t from, size_t to, int line)
{
	struct sh	 sh;
	unsigned	 t;

	if (to > outer->len)
		to = outer->len;
	if (from >= to || outer->b->nest >= CS_NEST_MAX)
		return 0;
	outer->b->nest++;
	sh_init(&sh, outer->b, outer->t + from, to - from, line, outer->vars);
	t = sh_run(&sh);
	free(sh.pipe);
	outer->b->nest--;
	return t;
}

/*
 * code-unbounded-loop in a bundled shell script: while true / while : /
 * until false whose body, up to its done, neither breaks, exits, returns,
 * sleeps, reads nor waits. Nested loops end at the first done: a body cut
 * short only makes an exit less likely to be seen as missing.
 */
static void
sh_loops(struct cs_block *b, const char *text, size_t len, int line)
{
	static const char *const heads[] = { "while true", "while :",
	    "while [ 1 ]", "until false", NULL };
	static const char *const exits[] = { "break", "exit", "return",
	    "sleep", "read", "wait", "kill", "timeout", "inotifywait", NULL };
	const char	*p = text, *e = text + len, *q, *h, *d;
	const char *const *w;
	int		 loops = 0;

	/* each loop's body is read once: a cap keeps it linear */
	for (; p < e && loops < 64; p = q + 1, line++) {
		if ((q = memchr(p, '\n', (size_t)(e - p))) == NULL)
			q = e;
		for (h = p; h < q && (*h == ' ' || *h == '\t'); h++)
			;
		for (w = heads; *w != NULL; w++)
			if ((size_t)(q - h) >= strlen(*w) &&
			    strncmp(h, *w, strlen(*w)) == 0)
				break;
		if (*w != NULL && ++loops && (d = memmem(h, (size_t)(e - h),
		    "done", 4)) != NULL && !cs_has_any(h, (size_t)(d - h),
		    exits)) {
			char	 ex[CS_EXCERPT_MAX + 1];

			cs_excerpt(h, (size_t)(q - h), ex, sizeof ex);
			cs_emit_msg(b, "code-unbounded-loop", line, ex);
		}
		if (q == e)
			break;
	}
}

void
cs_sh(struct cs_block *b, const char *text, size_t len, int line)
{
	struct sh	 sh;
	struct sh_vars	*vars;
	const char	*p, *q;

	if (len == 0)
		return;
	vars = b->shvars != NULL ? b->shvars : cs_sh_vars_new();
	sh_init(&sh, b, text, len, line, vars);
	(void)sh_run(&sh);
	if (b->run->bundled && b->depth == 0 && b->nest == 0)
		sh_loops(b, text, len, line);
	/* a fork bomb is a shape, not a command */
	if ((p = memmem(text, len, ":|:", 3)) != NULL && memmem(text, len,
	    "(){", 3) != NULL) {
		struct sh_cmd	*c = &sh.pipe[0];
		const char	*s;

		for (s = p; s > text && s[-1] != '\n'; s--)
			;
		for (q = text; q < s; q++)
			if (*q == '\n')
				line++;
		cmd_init(c, &sh);
		c->start = (size_t)(s - text);
		q = memchr(p, '\n', len - (size_t)(p - text));
		c->end = q != NULL ? (size_t)(q - text) : len;
		c->line = line;
		sh.pstart = c->start;
		sh.pline = line;
		sh_emit(&sh, "code-destroy", c);
	}
	free(sh.pipe);
	if (vars != b->shvars)
		cs_sh_vars_free(vars);
}

struct sh_vars *
cs_sh_vars_new(void)
{
	struct sh_vars	*v = xmalloc(sizeof *v);

	v->n = 0;
	v->nf = 0;
	return v;
}

void
cs_sh_vars_free(struct sh_vars *v)
{
	free(v);
}
