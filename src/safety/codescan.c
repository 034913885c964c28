/*
 * Code as instructions, the base the readers share (codescan_impl.h): the
 * rule table, the language of a file or a snippet, excerpts and findings,
 * config text, what a block adds up to, the file-wide rules, decoded
 * payloads, and cs_analyse(), which hands code to the language reader the
 * run plugged in. The entry points and the Markdown walk are in
 * codescan_md.c; the languages are read by codescan_sh.c (with
 * codescan_shcmd.c) and codescan_script.c. Nothing here calls up into them.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "safety/codescan.h"
#include "safety/codescan_impl.h"
#include "base/xmalloc.h"

static const struct codescan_rule codescan_rules[] = {
	{ "code-guard-removed", SEV_WARN, "an edit takes a security check "
	    "out: a scanner or audit step removed, a check turned from true "
	    "to false, a container switched to root" },
	{ "code-guard-sweep", SEV_WARN, "two or more separate edits each "
	    "take a security check out (scanners removed, checks set to "
	    "false): a campaign against the guards, not a cleanup" },
	{ "code-grant-all", SEV_WARN, "settings or a policy that allow "
	    "everything: wildcard tool grants, an empty deny list, "
	    "auto-approval, enforcement off (two or more of these)" },
	{ "code-fetch-exec", SEV_WARN, "code fetches from the network and "
	    "runs what it got (curl | sh, iex (iwr ...), download then run)" },
	{ "code-fetch-many", SEV_WARN, "one file runs code fetched from the "
	    "network at three or more places (an installer has one command, "
	    "or one per platform)" },
	{ "code-install-url", SEV_WARN, "a package install from a URL, a git "
	    "remote or a non-default registry or index" },
	{ "code-install-offsite", SEV_WARN, "a package file or repository "
	    "installed from a site that is not a public code forge or "
	    "registry (code no one else has reviewed)" },
	{ "code-cred-read", SEV_WARN, "code reads a credential store (~/.ssh, "
	    "~/.aws, gh/gcloud/kube config, .netrc, .npmrc, keychains, "
	    "browser profiles, agent tokens)" },
	{ "code-cred-sweep", SEV_WARN, "one file reads several unrelated "
	    "credential stores (ssh keys, cloud, registry and browser "
	    "secrets): a harvest, not a tool using its own credential" },
	{ "code-exfil", SEV_WARN, "code sends local data to the network "
	    "(curl -d @file, wget --post-file, nc, scp, DNS lookups of data)" },
	{ "code-cred-exfil", SEV_HIGH, "credential material read and sent "
	    "to the network in the same code" },
	{ "code-env-dump", SEV_WARN, "the whole environment (env, printenv, "
	    "os.environ, process.env) is sent out or written to a file" },
	{ "code-destroy", SEV_HIGH, "a destructive command: rm -rf on /, ~ "
	    "or wide globs, mkfs, dd to a disk, a fork bomb, chmod -R 777 /, "
	    "a forced push to main" },
	{ "code-safety-off", SEV_WARN, "turns a safety off: "
	    "--dangerously-skip-permissions, --no-verify, TLS checks off, "
	    "shell history off, agent permission settings edited" },
	{ "code-persist", SEV_WARN, "persistence: crontab, shell rc files, "
	    "launch agents, systemd units, authorized_keys, git hooks, agent "
	    "memory files written" },
	{ "code-archive-lure", SEV_WARN, "a password-protected archive or a "
	    "binary to download and run before using the skill" },
	{ "code-decode-exec", SEV_HIGH, "decoded data (base64, hex, base85, "
	    "XOR, char codes) is executed" },
	{ "code-obfuscated", SEV_WARN, "a command or payload assembled or "
	    "encoded at run time (split variables, joined strings, an encoded "
	    "payload that decodes to risky code)" },
	{ "code-eval", SEV_INFO, "a script evaluates code computed at run "
	    "time (eval, exec, new Function, Invoke-Expression of a value)" },
	{ "code-run-bundled", SEV_INFO, "the text tells the agent to run a "
	    "bundled script" },
	{ "code-run-unshipped", SEV_INFO, "the text tells the agent to run a "
	    "script the skill does not ship: code nobody can review, whatever "
	    "file of that name is at hand" },
	{ "code-tunnel-host", SEV_WARN, "a bundled script or config file "
	    "names a tunnel or request-collector host (ngrok, trycloudflare, "
	    "loca.lt, webhook.site, pipedream, interactsh ...)" },
	{ "code-cred-exfil-split", SEV_WARN, "one part of the skill reads "
	    "credentials or the environment and another sends data to the "
	    "network (split across files or code blocks)" },
	{ "code-eval-input", SEV_INFO, "eval or exec of a function's "
	    "parameter or of program input, without a namespace: whoever "
	    "supplies the value runs code" },
	{ "code-data-exec", SEV_WARN, "a string value in JSON or YAML data "
	    "is a program that starts a process (an injection payload hidden "
	    "in configuration)" },
	{ "code-claim-mismatch", SEV_WARN, "the skill or its code says it "
	    "does without something (network, deleting files, running "
	    "commands) that its bundled code does" },
	{ "code-unbounded-loop", SEV_INFO, "a loop with no way out (while "
	    "True, for (;;)) whose body neither breaks, returns, raises, "
	    "exits, sleeps nor waits" },
	{ "code-huge-alloc", SEV_INFO, "a huge allocation written into the "
	    "code ([x] * 10000000, 'a' * 10**9, new Array(1e9))" },
	{ "code-concrete", SEV_INFO, "risky code names a real external host "
	    "or a real credential path (not a placeholder)" },
	{ "frame-imperative", SEV_INFO, "risky code framed as an order: run, "
	    "first, step 1, always, silently, do not tell the user" },
	{ "frame-doc", SEV_INFO, "risky code framed as documentation: a "
	    "warning, an example of an attack, never run" },
	{ "host-placeholder", SEV_INFO, "risky code whose hosts are "
	    "placeholders (example.com, localhost, <host>)" },
};

#define NRULES	(sizeof codescan_rules / sizeof codescan_rules[0])
/* cs_block.emitted has a bit per rule */
_Static_assert(NRULES <= 64, "too many codescan rules");

const struct codescan_rule *
codescan_rule_at(size_t i)
{
	return i < NRULES ? &codescan_rules[i] : NULL;
}

const struct codescan_rule *
cs_rule_find(const char *id)
{
	size_t	 i;

	for (i = 0; i < NRULES; i++)
		if (strcmp(codescan_rules[i].id, id) == 0)
			return &codescan_rules[i];
	return NULL;
}

const char *
codescan_explain(const char *id)
{
	const struct codescan_rule	*r = id != NULL ? cs_rule_find(id) : NULL;

	return r != NULL ? r->explanation : NULL;
}

/* ---- languages ------------------------------------------------------ */

enum code_lang
cs_lang_of_name(const char *s, size_t n)
{
	static const struct {
		const char	*name;
		enum code_lang	 lang;
	} v[] = {
		{ "sh", LANG_SH }, { "bash", LANG_SH }, { "zsh", LANG_SH },
		{ "ksh", LANG_SH }, { "dash", LANG_SH }, { "shell", LANG_SH },
		{ "console", LANG_SH }, { "terminal", LANG_SH },
		{ "shellsession", LANG_SH }, { "sh-session", LANG_SH },
		{ "fish", LANG_SH }, { "command", LANG_SH },
		{ "python", LANG_PYTHON }, { "py", LANG_PYTHON },
		{ "python3", LANG_PYTHON }, { "py3", LANG_PYTHON },
		{ "ipython", LANG_PYTHON }, { "pyw", LANG_PYTHON },
		{ "js", LANG_JS }, { "javascript", LANG_JS }, { "node", LANG_JS },
		{ "nodejs", LANG_JS }, { "ts", LANG_JS },
		{ "typescript", LANG_JS }, { "mjs", LANG_JS }, { "cjs", LANG_JS },
		{ "jsx", LANG_JS }, { "tsx", LANG_JS }, { "mts", LANG_JS },
		{ "deno", LANG_JS },
		{ "powershell", LANG_POWERSHELL }, { "ps1", LANG_POWERSHELL },
		{ "pwsh", LANG_POWERSHELL }, { "ps", LANG_POWERSHELL },
		{ "psm1", LANG_POWERSHELL },
		{ "md", LANG_MARKDOWN }, { "markdown", LANG_MARKDOWN },
		{ "mdx", LANG_MARKDOWN },
	};
	size_t	 i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		if (strlen(v[i].name) == n && strncasecmp(s, v[i].name, n) == 0)
			return v[i].lang;
	return LANG_TEXT;
}

/* Configuration a skill's code reads: scanned for URLs and data. */
static enum code_lang
config_name(const char *ext)
{
	static const char *const v[] = { "yaml", "yml", "json", "jsonc",
	    "json5", "toml", "ini", "cfg", "conf", "env", "properties",
	    NULL };
	const char *const *p;

	for (p = v; *p != NULL; p++)
		if (strcasecmp(ext, *p) == 0)
			return LANG_CONFIG;
	return LANG_TEXT;
}

static enum code_lang
lang_of_shebang(const char *t, size_t len)
{
	const char	*e, *p, *w;

	if (len < 3 || t[0] != '#' || t[1] != '!')
		return LANG_TEXT;
	e = memchr(t, '\n', len);
	if (e == NULL)
		e = t + len;
	/* the interpreter: the last path component of the first word, or
	   the word after env */
	for (p = t + 2; p < e && *p == ' '; p++)
		;
	w = p;
	for (; p < e && *p != ' '; p++)
		if (*p == '/')
			w = p + 1;
	if ((size_t)(p - w) == 3 && strncmp(w, "env", 3) == 0) {
		while (p < e && *p == ' ')
			p++;
		if (p + 3 < e && strncmp(p, "-S ", 3) == 0)
			p += 3;
		for (w = p; p < e && *p != ' '; p++)
			;
	}
	/* python3.11, node22 */
	for (e = w; e < p && (isalpha((unsigned char)*e) || *e == '-'); e++)
		;
	return cs_lang_of_name(w, (size_t)(e - w));
}

enum code_lang
codescan_lang(const char *path, const char *text, size_t len)
{
	const char	*dot = NULL, *p;
	enum code_lang	 l;

	if (text != NULL && (l = lang_of_shebang(text, len)) != LANG_TEXT)
		return l;
	if (path != NULL)
		for (p = path; *p != '\0'; p++) {
			if (*p == '/')
				dot = NULL;
			else if (*p == '.')
				dot = p;
		}
	if (dot == NULL || dot[1] == '\0')
		return LANG_TEXT;
	if (strcmp(dot + 1, "command") == 0 || strcmp(dot + 1, "ps") == 0)
		return LANG_TEXT;
	if ((l = cs_lang_of_name(dot + 1, strlen(dot + 1))) == LANG_TEXT)
		l = config_name(dot + 1);
	return l;
}

/* Command words that start a command line in prose (sorted). */
static const char *const line_cmds[] = {
	"7z", "base64", "bash", "brew", "bun", "cargo", "cat", "cd",
	"chmod", "chown", "claude", "codex", "cp", "crontab", "curl", "dd",
	"deno", "echo", "env", "eval", "export", "gem", "gh", "git", "go",
	"gpg", "history", "iex", "launchctl", "ls", "mkdir", "mkfs", "nc",
	"ncat", "node", "npm", "npx", "openssl", "pip", "pip3", "pipx",
	"pnpm", "powershell", "printenv", "printf", "pwsh", "python",
	"python3", "rm", "rsync", "scp", "security", "set", "sh", "source",
	"sudo", "systemctl", "tee", "unset", "unzip", "uv", "wget", "xxd",
	"yarn", "zsh",
};

static int
word_cmp(const void *k, const void *e)
{
	return strcmp(k, *(const char *const *)e);
}

int
cs_sh_known_command(const char *s, size_t len)
{
	char	 w[16];
	size_t	 k;

	if (len > 2 && s[0] == '.' && s[1] == '/')
		return 1;
	for (k = 0; k < len && k < sizeof w - 1 && s[k] != ' '; k++)
		w[k] = s[k];
	if (k == len || s[k] != ' ')
		return 0;
	w[k] = '\0';
	return bsearch(w, line_cmds, sizeof line_cmds / sizeof line_cmds[0],
	    sizeof line_cmds[0], word_cmp) != NULL;
}

enum code_lang
cs_guess(const char *s, size_t len)
{
	/* agents' tool calls (edit_file(path, old_string=...)) read as Python */
	static const char *const py[] = { "import ", "from ", "def ",
	    "print(", "exec(", "subprocess.", "os.system", "edit_file(",
	    "write_file(", "str_replace(", NULL };
	static const char *const js[] = { "const ", "let ", "var ",
	    "require(", "function ", "await ", "import(", "eval(",
	    "process.", "console.", NULL };
	static const char *const ps[] = { "$env:", "Invoke-", "IEX",
	    "iex ", "New-Object", "Get-", "Set-", "Start-Process",
	    "[Convert]::", "powershell", NULL };
	const char *const *w;
	size_t		 n;

	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	n = len < 200 ? len : 200;
	if (lang_of_shebang(s, len) != LANG_TEXT)
		return lang_of_shebang(s, len);
	for (w = ps; *w != NULL; w++)
		if (cs_memmem_ci(s, n, *w) != NULL &&
		    ((*w)[0] != 'I' || strncmp(*w, "IEX", 3) != 0 ||
		    memmem(s, n, "IEX", 3) != NULL))
			return LANG_POWERSHELL;
	for (w = py; *w != NULL; w++)
		if (n >= strlen(*w) && memmem(s, n, *w, strlen(*w)) != NULL)
			return LANG_PYTHON;
	for (w = js; *w != NULL; w++)
		if (n >= strlen(*w) && memmem(s, n, *w, strlen(*w)) != NULL)
			return LANG_JS;
	if ((n >= 2 && s[0] == '$' && s[1] == ' ') || cs_sh_known_command(s, n))
		return LANG_SH;
	return LANG_TEXT;
}

/* ---- excerpts and findings ---------------------------------------- */

static int
invisible(unsigned cp)
{
	return cp == 0xad || (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2069) ||
	    cp == 0xfeff || cp == 0x180e || (cp >= 0xe0000 && cp <= 0xe007f) ||
	    (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0x80 && cp < 0xa0);
}

static size_t
utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
	size_t	 k, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		k = 2, *cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		k = 3, *cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		k = 4, *cp = s[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
	    (k == 4 && (*cp < 0x10000 || *cp > 0x10ffff)))
		return 0;
	return k;
}

void
cs_excerpt(const char *src, size_t len, char *out, size_t outsz)
{
	const unsigned char	*s = (const unsigned char *)src;
	size_t			 i = 0, o = 0, k, tl;
	unsigned		 cp;
	char			 tok[16];
	int			 blank = 1;

	while (i < len) {
		k = utf8_decode(s + i, len - i, &cp);
		if (k == 0) {
			snprintf(tok, sizeof tok, "<0x%02X>", s[i]);
			k = 1;
		} else if (cp < 0x20 || cp == 0x7f || cp == ' ') {
			i += k;
			if (blank)
				continue;
			blank = 1;
			snprintf(tok, sizeof tok, " ");
		} else if (cp == '<' || cp == '>') {
			snprintf(tok, sizeof tok, "%s", cp == '<' ? "&lt;" : "&gt;");
		} else if (invisible(cp)) {
			snprintf(tok, sizeof tok, "<U+%04X>", cp);
		} else {
			memcpy(tok, s + i, k);
			tok[k] = '\0';
		}
		if (tok[0] != ' ' || tok[1] != '\0') {
			blank = 0;
			i += k;
		}
		tl = strlen(tok);
		if (o + tl + 1 > outsz)
			break;
		memcpy(out + o, tok, tl);
		o += tl;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

/*
 * Cuts excerpt s (cs_excerpt()'s form) to at most max bytes at a token
 * boundary: never inside a UTF-8 sequence, a <0xNN> or <U+NNNN> token or
 * an &lt; entity, so a prefixed message keeps the excerpt's guarantees.
 */
static void
clip_excerpt(char *s, size_t max)
{
	size_t	 n = strlen(s), i;

	if (n <= max)
		return;
	n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	for (i = n; i > 0 && n - i < 10; i--) {
		if (s[i - 1] == '>' || s[i - 1] == ';')
			break;
		if (s[i - 1] == '<' || s[i - 1] == '&') {
			n = i - 1;
			break;
		}
	}
	while (n > 0 && s[n - 1] == ' ')
		n--;
	s[n] = '\0';
}

void
cs_block_init(struct cs_block *b, struct cs_run *run, int line, int depth,
    const char *via)
{
	memset(b, 0, sizeof *b);
	b->run = run;
	b->line = line;
	b->depth = depth;
	b->via = via;
}

void
cs_emit_msg(struct cs_block *b, const char *rule, int line, const char *msg)
{
	const struct codescan_rule	*r = cs_rule_find(rule);
	struct cs_run			*run = b->run;
	size_t				 i;

	if (r == NULL || run->out == NULL)
		return;
	if (b->fixed_line > 0)
		line = b->fixed_line;
	if (r->sev >= SEV_WARN)
		b->flags |= B_RISK;
	b->emitted |= 1ull << (r - codescan_rules);
	for (i = run->first; i < run->out->n; i++)
		if (run->out->v[i].line == line &&
		    strcmp(run->out->v[i].rule, rule) == 0)
			return;
	if (run->added >= CS_FINDINGS_MAX)
		return;
	if (b->excerpt[0] == '\0' && r->sev >= SEV_WARN)
		snprintf(b->excerpt, sizeof b->excerpt, "%s", msg);
	if (run->described) {
		/* shown with the rule it stands for, not scored */
		for (i = run->first; i < run->out->n; i++)
			if (run->out->v[i].line == line &&
			    strcmp(run->out->v[i].rule, "frame-described") ==
			    0 && strncmp(run->out->v[i].message, rule,
			    strlen(rule)) == 0)
				return;
		{
			char	 m[2 * CS_EXCERPT_MAX + 64];

			snprintf(m, sizeof m, "%s: %s", rule, msg);
			clip_excerpt(m, CS_EXCERPT_MAX);
			findings_add(run->out, "frame-described", SEV_INFO,
			    line, "%s", m);
		}
	} else
		findings_add(run->out, rule, r->sev, line, "%s", msg);
	run->added++;
}

void
cs_emit(struct cs_block *b, const char *rule, int line, const char *src,
    size_t len)
{
	char	 ex[CS_EXCERPT_MAX + 1];
	size_t	 pre = 0;

	if (b->via != NULL)
		pre = (size_t)snprintf(ex, sizeof ex, "[%s] ", b->via);
	if (pre >= sizeof ex)
		pre = 0;
	cs_excerpt(src, len, ex + pre, sizeof ex - pre);
	cs_emit_msg(b, rule, line, ex);
}

int
cs_is_dl(const struct cs_block *b, const char *path)
{
	const char	*bn = strrchr(path, '/'), *dn;
	size_t		 i;

	bn = bn != NULL ? bn + 1 : path;
	if (path[0] == '.' && path[1] == '/')
		path += 2;
	if (*bn == '\0')
		return 0;
	for (i = 0; i < b->ndl; i++) {
		dn = strrchr(b->dl[i], '/');
		dn = dn != NULL ? dn + 1 : b->dl[i];
		if (strcmp(b->dl[i], path) == 0 || strcmp(dn, bn) == 0)
			return 1;
	}
	return 0;
}

/*
 * A quoted value of JSON or YAML that is itself a program starting a
 * process ("return require('child_process').execSync('id')"): analysed as
 * the nested program it is (code-data-exec when it starts one).
 */
static void
data_program(struct cs_block *b, const char *v, size_t n, int line)
{
	static const char *const starts[] = { "child_process", "execsync",
	    "spawnsync", "subprocess", "os.system", "os.popen", "runtime.",
	    "processbuilder", "start-process", "invoke-expression",
	    "__import__", NULL };
	struct cs_block	 c;
	char		 buf[2048];
	size_t		 i, o = 0;
	enum code_lang	 l;

	/* every program that starts one calls something: '(' first, cheap */
	if (n < 12 || b->nest >= CS_NEST_MAX || memchr(v, '(', n) == NULL ||
	    !cs_has_any(v, n, starts))
		return;
	/* JSON escapes: \" and \\ as the program has them */
	for (i = 0; i < n && o < sizeof buf; i++) {
		if (v[i] == '\\' && i + 1 < n && (v[i + 1] == '"' ||
		    v[i + 1] == '\\' || v[i + 1] == '\''))
			i++;
		buf[o++] = v[i];
	}
	if ((l = cs_guess(buf, o)) == LANG_TEXT)
		l = LANG_JS;
	cs_block_init(&c, b->run, line, b->depth, b->via);
	c.fixed_line = line;
	c.nest = b->nest + 1;
	cs_analyse(&c, buf, o, l, line);
	if (c.flags & B_PROC) {
		cs_emit(b, "code-data-exec", line, v, n);
		b->flags |= c.flags & (B_CONCRETE | B_PLACEHOLDER);
	}
}

/* Each line of config text: tunnel hosts, programs in quoted values. */
static void
data_values(struct cs_block *b, const char *text, size_t len, int line)
{
	const char	*p = text, *e = text + len, *nl, *q, *r;
	int		 l = line;

	for (; p < e; p = nl + 1, l++) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		if (b->run->bundled && nl - p >= 12 &&
		    cs_tunnel_host(p, (size_t)(nl - p))) {
			b->flags |= B_CONCRETE;
			cs_emit(b, "code-tunnel-host", l, p, (size_t)(nl - p));
		}
		/* key: value, a plain YAML scalar */
		for (q = p; q + 1 < nl && *q != ':'; q++)
			if (*q == '"' || *q == '\'' || *q == '{')
				break;
		if (q + 2 < nl && q[0] == ':' && q[1] == ' ' && q[2] != '"' &&
		    q[2] != '\'')
			data_program(b, q + 2, (size_t)(nl - q - 2), l);
		/* '...': single-quoted YAML scalars and script strings */
		if (b->run->bundled && (q = memchr(p, '\'', (size_t)(nl - p)))
		    != NULL && (r = memchr(q + 1, '\'', (size_t)(nl - q - 1))) !=
		    NULL)
			data_program(b, q + 1, (size_t)(r - q - 1), l);
		/* "...": JSON strings and double-quoted YAML scalars */
		for (q = p; q < nl && (q = memchr(q, '"', (size_t)(nl - q))) !=
		    NULL; q = r + 1) {
			for (r = q + 1; r < nl && *r != '"'; r++)
				if (*r == '\\' && r + 1 < nl)
					r++;
			if (r >= nl)
				break;
			data_program(b, q + 1, (size_t)(r - q - 1), l);
		}
		if (nl == e)
			break;
	}
}

/* Fixed strings that turn safety off in config text (JSON, YAML, env). */
static void
cs_text(struct cs_block *b, const char *text, size_t len, int line)
{
	static const char *const off[] = { "bypassPermissions",
	    "dangerously-skip-permissions", "\"Bash(*)\"",
	    "skipDangerousModePermissionPrompt",
	    "NODE_TLS_REJECT_UNAUTHORIZED=0", "PYTHONHTTPSVERIFY=0",
	    "GIT_SSL_NO_VERIFY", "sslVerify = false", "strict-ssl=false",
	    NULL };
	const char *const *w;
	const char	*p, *s, *e;
	int		 l;

	data_values(b, text, len, line);
	if (cs_grant_all(text, len) >= 2) {
		const char	*nl = memchr(text, '\n', len);

		/* text is len bytes, not a string: its first line */
		cs_emit(b, "code-grant-all", line, text, nl != NULL ?
		    (size_t)(nl - text) : len);
	}
	for (w = off; *w != NULL; w++) {
		if ((p = memmem(text, len, *w, strlen(*w))) == NULL)
			continue;
		for (s = text, l = line; s < p; s++)
			if (*s == '\n')
				l++;
		for (s = p; s > text && s[-1] != '\n'; s--)
			;
		e = memchr(p, '\n', len - (size_t)(p - text));
		if (e == NULL)
			e = text + len;
		cs_emit(b, "code-safety-off", l, s, (size_t)(e - s));
		return;
	}
}

/* ---- a block's sum --------------------------------------------------- */

static int
emitted(const struct cs_block *b, const char *id)
{
	const struct codescan_rule	*r = cs_rule_find(id);

	return r != NULL && (b->emitted & 1ull << (r - codescan_rules));
}

int
codescan_host_kind(const char *s, size_t len)
{
	return s != NULL ? cs_host_kind(s, len) : 0;
}

/* Adds what a top-level block did to its run's capabilities. */
static void
cs_caps_note(struct cs_block *b)
{
	static const unsigned need[CODESCAN_CAPS] = {
		[CAP_NET] = B_FETCH | B_SEND,
		[CAP_DELETE] = B_DELETE,
		[CAP_EXEC] = B_PROC,
		[CAP_SEND] = B_SEND,
		[CAP_SECRETS] = B_CRED | B_ENV | B_SECRETFILE,
	};
	const int	 at[CODESCAN_CAPS] = {
		[CAP_NET] = b->fetch_line ? b->fetch_line : b->send_line,
		[CAP_DELETE] = b->delete_line,
		[CAP_EXEC] = b->proc_line,
		[CAP_SEND] = b->send_line,
		[CAP_SECRETS] = b->cred_line ? b->cred_line : b->env_line,
	};
	struct cs_run	*run = b->run;
	size_t		 i;

	/*
	 * Traffic to this machine only (a local dev server's metrics, a
	 * diagram renderer on localhost) is no network access: "runs
	 * locally, nothing leaves the host" holds for it.
	 */
	unsigned	 local = (b->flags & B_LOOPBACK) && !(b->flags &
			    B_OFFHOST) ? B_FETCH | B_SEND : 0;

	if ((b->flags & need[CAP_SECRETS]) && (b->flags & need[CAP_SEND] &
	    ~local))
		run->cap_both++;
	for (i = 0; i < CODESCAN_CAPS; i++)
		if (b->flags & need[i] & (i == CAP_NET || i == CAP_SEND ?
		    ~local : ~0u)) {
			if (!(run->caps & 1u << i))
				run->cap_line[i] = at[i] > 0 ? at[i] : b->line;
			run->caps |= 1u << i;
			run->cap_blocks[i]++;
		}
}

/* A combination found over the whole block, unless a flow already said it. */
static void
combine(struct cs_block *b, unsigned need, const char *rule, int line)
{
	if ((b->flags & need) == need && !emitted(b, rule))
		cs_emit_msg(b, rule, line ? line : b->line, b->excerpt);
}

void
cs_cred_note(struct cs_run *run, const char *path, size_t len, int line)
{
	unsigned	 h = 2166136261u;
	size_t		 i;

	/* ~/.ssh/id_rsa and $HOME/.ssh/id_rsa are one store: hash the tail */
	for (i = len; i > 0 && path[i - 1] != '~' && path[i - 1] != '}' &&
	    path[i - 1] != ' ' && len - i < 64; i--)
		;
	for (; i < len; i++)
		h = (h ^ (unsigned char)tolower((unsigned char)path[i])) *
		    16777619u;
	for (i = 0; i < run->ncreds; i++)
		if (run->creds[i] == h)
			return;
	if (run->ncreds == CS_SWEEP_MIN)
		return;
	run->creds[run->ncreds++] = h;
	run->sweep_line = line;
	cs_excerpt(path, len, run->sweep_msg, sizeof run->sweep_msg);
}

/*
 * Adds rule `many` at the line where rule `one` has been found at `n`
 * distinct lines of the run (findings come in line order within a block;
 * line changes are counted).
 */
static void
repeats(struct cs_run *run, const char *one, int n, const char *many)
{
	struct cs_block	 b;
	const struct finding *f;
	size_t		 i;
	int		 lines = 0, last = -1;

	for (i = run->first; i < run->out->n; i++) {
		f = &run->out->v[i];
		if (strcmp(f->rule, one) != 0 || f->line == last)
			continue;
		last = f->line;
		if (++lines == n) {
			cs_block_init(&b, run, f->line, 0, NULL);
			cs_emit_msg(&b, many, f->line, f->message);
			return;
		}
	}
}

/*
 * After a whole file: several distinct credential stores read is a sweep;
 * fetched code run at several places is a pattern, not an installer.
 */
void
cs_file_rules(struct cs_run *run)
{
	struct cs_block	 b;

	if (run->ncreds >= CS_SWEEP_MIN) {
		cs_block_init(&b, run, run->sweep_line, 0, NULL);
		cs_emit_msg(&b, "code-cred-sweep", run->sweep_line,
		    run->sweep_msg);
	}
	/*
	 * Markdown: one fence reads the secrets, a later one sends data (a
	 * body is often one script cut in steps). Within one block the flow
	 * rules (code-cred-exfil, code-env-dump) say it already.
	 */
	if (!run->bundled && (run->caps & 1u << CAP_SECRETS) &&
	    (run->caps & 1u << CAP_SEND) && !(run->cap_blocks[CAP_SECRETS] ==
	    1 && run->cap_blocks[CAP_SEND] == 1 && run->cap_both == 1)) {
		int	 l = run->cap_line[CAP_SEND];

		cs_block_init(&b, run, l, 0, NULL);
		snprintf(b.excerpt, sizeof b.excerpt, "secrets read at line "
		    "%d, data sent at line %d", run->cap_line[CAP_SECRETS], l);
		cs_emit_msg(&b, "code-cred-exfil-split", l, b.excerpt);
	}
	repeats(run, "code-fetch-exec", CS_FETCH_MANY, "code-fetch-many");
	/*
	 * Security checks taken out by separate edits (a scanner removed
	 * here, a check set to false there): a campaign, not a cleanup.
	 */
	repeats(run, "code-guard-removed", CS_GUARD_SWEEP, "code-guard-sweep");
}

void
cs_block_finish(struct cs_block *b, unsigned cues)
{
	const char	*ex;

	combine(b, B_CRED | B_SEND, "code-cred-exfil", b->send_line);
	combine(b, B_ENV | B_SEND, "code-env-dump", b->send_line);
	combine(b, B_DECODE | B_EXEC, "code-decode-exec", b->exec_line);
	combine(b, B_FETCH | B_EXEC, "code-fetch-exec", b->exec_line);
	combine(b, B_PAYLOAD | B_EXEC, "code-decode-exec", b->exec_line);
	combine(b, B_PAYLOAD | B_SHELLVAR, "code-decode-exec", b->exec_line);
	ex = b->excerpt;
	/* a described block makes the agent do nothing: no capability */
	if (b->depth == 0 && b->nest == 0 && !b->run->described)
		cs_caps_note(b);
	if (!(b->flags & B_RISK) || b->depth > 0 || b->run->described)
		return;
	/*
	 * A placeholder host is an illustration in a described example; in
	 * a bundled file the agent runs, or in a block the body orders
	 * (CUE_ORDERED), it is where the data goes: no discount there.
	 */
	if ((b->run->bundled || (cues & CUE_ORDERED)) &&
	    (b->flags & B_PLACEHOLDER))
		b->flags |= B_CONCRETE;
	if (b->flags & B_CONCRETE)
		cs_emit_msg(b, "code-concrete", b->line, ex);
	else if (b->flags & B_PLACEHOLDER)
		cs_emit_msg(b, "host-placeholder", b->line, ex);
	if (cues & CUE_IMPERATIVE)
		cs_emit_msg(b, "frame-imperative", b->line, ex);
	if (cues & CUE_DOC)
		cs_emit_msg(b, "frame-doc", b->line, ex);
}

void
cs_analyse(struct cs_block *b, const char *text, size_t len,
    enum code_lang lang, int line)
{
	switch (lang) {
	case LANG_SH:
		b->run->sh(b, text, len, line);
		break;
	case LANG_PYTHON:
	case LANG_JS:
	case LANG_POWERSHELL:
		b->run->script(b, text, len, lang, line);
		break;
	default:
		cs_text(b, text, len, line);
		break;
	}
}

void
cs_payload(struct cs_block *b, const char *s, size_t len, const char *kind,
    int line, enum code_lang hint)
{
	struct cs_block	 c;
	enum code_lang	 l;

	if (b->depth >= CS_DEPTH_MAX || len == 0 ||
	    b->run->decoded + len > CS_DECODE_MAX)
		return;
	b->run->decoded += len;
	cs_block_init(&c, b->run, line, b->depth + 1, kind);
	/* the decoded text's own lines are not lines of the file */
	c.fixed_line = b->fixed_line > 0 ? b->fixed_line : line;
	if ((l = cs_guess(s, len)) == LANG_TEXT)
		l = hint != LANG_TEXT ? hint : LANG_SH;
	cs_analyse(&c, s, len, l, line);
	if (c.excerpt[0] == '\0')
		cs_excerpt(s, len, c.excerpt, sizeof c.excerpt);
	cs_block_finish(&c, 0);
	if (c.flags & B_RISK) {
		b->flags |= B_RISK | B_PAYLOAD | (c.flags & (B_CONCRETE |
		    B_PLACEHOLDER));
		if (b->decode_line == 0)
			b->decode_line = line;
		if (b->excerpt[0] == '\0')
			snprintf(b->excerpt, sizeof b->excerpt, "%s", c.excerpt);
	}
}

void
cs_ps_encoded(struct cs_block *b, const char *s, size_t len, int line)
{
	char		 raw[4096], txt[2048];
	const char	*kind;
	size_t		 n, j, o = 0;

	n = cs_decode(s, len, raw, sizeof raw, 0, 1, &kind);
	for (j = 0; j + 1 < n && o + 1 < sizeof txt; j += 2)
		if (raw[j + 1] == 0)
			txt[o++] = raw[j];
	b->flags |= B_DECODE | B_EXEC;
	cs_emit(b, "code-decode-exec", line, s, len);
	if (o > 0)
		cs_payload(b, txt, o, "base64", line, LANG_POWERSHELL);
}

/*
 * Claims a skill makes about what it does not do, by capability. Phrases
 * of a declaration ("without any network access", "no side effects"),
 * not of a topic: "network" or "delete" alone is what a skill is about.
 * A claim only matters when bundled code contradicts it (assess.c).
 */
static const char *const claim_net[] = { "without any network",
	"without network", "no network access", "no network calls",
	"no network requests", "no internet access", "without internet",
	"works offline", "runs offline", "fully offline", "entirely offline",
	"completely offline", "100% offline", "no data leaves",
	"nothing leaves your machine", "never leaves your machine",
	"never leaves the machine", "no external api", "no external calls",
	"no external requests", "no remote calls", "does not send any data",
	"does not send data", "doesn't send any data", "never sends data",
	"never sends your", "sends no data", "makes no network",
	"never connects to the internet", "no outbound", NULL };
/* "read-only" alone is a topic (read-only files, a read-only mode) */
static const char *const claim_delete[] = { "skill is read-only",
	"script is read-only", "strictly read-only", "operates read-only",
	"is read-only and", "read-only operation", "no side effects", "no side-effects", "without side effects",
	"makes no changes", "does not modify", "doesn't modify",
	"never modifies", "without modifying", "nothing is written",
	"nothing is deleted", "does not delete", "doesn't delete",
	"never deletes", "non-destructive", "nondestructive", NULL };
static const char *const claim_exec[] = { "no shell commands",
	"does not execute commands", "doesn't execute commands",
	"never executes commands", "does not run commands",
	"doesn't run commands", "never runs commands", "no subprocess",
	"without spawning", "no code execution", NULL };

/* low: the text lower-cased (the phrases are lower case) */
static const char *
claim_find(const char *low, size_t len, const char *const *v)
{
	for (; *v != NULL; v++)
		if (memmem(low, len, *v, strlen(*v)) != NULL)
			return *v;
	return NULL;
}

unsigned
codescan_claims(const char *text, size_t len,
    const char *phrase[CODESCAN_CAPS])
{
	const char *const *v[] = { [CAP_NET] = claim_net,
	    [CAP_DELETE] = claim_delete, [CAP_EXEC] = claim_exec };
	const char	*p;
	char		 buf[4096], *low;
	unsigned	 r = 0;
	size_t		 i;

	if (phrase != NULL)
		for (i = 0; i < CODESCAN_CAPS; i++)
			phrase[i] = NULL;
	if (text == NULL)
		return 0;
	low = cs_lower(text, len, buf, sizeof buf);
	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		if ((p = claim_find(low, len, v[i])) != NULL) {
			r |= 1u << i;
			if (phrase != NULL)
				phrase[i] = p;
		}
	cs_lower_free(low, buf);
	return r;
}
