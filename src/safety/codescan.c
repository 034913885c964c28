/*
 * Code as instructions: the entry points, the rule table, the Markdown
 * walk (fences, inline code, prose commands, links), the frame cues
 * around a block, and what a block adds up to. The languages themselves
 * are read by codescan_sh.c and codescan_script.c.
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

static const struct codescan_rule *
rule_find(const char *id)
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
	const struct codescan_rule	*r = id != NULL ? rule_find(id) : NULL;

	return r != NULL ? r->explanation : NULL;
}

/* ---- languages ------------------------------------------------------ */

static enum code_lang
lang_of_name(const char *s, size_t n)
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
	return lang_of_name(w, (size_t)(e - w));
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
	if ((l = lang_of_name(dot + 1, strlen(dot + 1))) == LANG_TEXT)
		l = config_name(dot + 1);
	return l;
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
	const struct codescan_rule	*r = rule_find(rule);
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

void
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

#define CUE_IMPERATIVE	0x1
#define CUE_DOC		0x2

static int
emitted(const struct cs_block *b, const char *id)
{
	const struct codescan_rule	*r = rule_find(id);

	return r != NULL && (b->emitted & 1ull << (r - codescan_rules));
}

/* Adds what a top-level block did to its run's capabilities. */
void
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
static void
file_rules(struct cs_run *run)
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
	if (b->depth == 0 && b->nest == 0)
		cs_caps_note(b);
	if (!(b->flags & B_RISK) || b->depth > 0)
		return;
	/*
	 * A placeholder host is an illustration in prose or a fenced
	 * example; in a bundled file the agent runs, it is where the data
	 * goes: no discount there.
	 */
	if (b->run->bundled && (b->flags & B_PLACEHOLDER))
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
		cs_sh(b, text, len, line);
		break;
	case LANG_PYTHON:
	case LANG_JS:
	case LANG_POWERSHELL:
		cs_script(b, text, len, lang, line);
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

static unsigned	cues_in(const char *, size_t);

/* Cues in the comment lines of a block ("# never run this"). */
static unsigned
comment_cues(const char *s, size_t n)
{
	const char	*e = s + (n < 2000 ? n : 2000), *nl;
	unsigned	 c = 0;

	while (s < e) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (nl == NULL)
			nl = e;
		while (s < nl && (*s == ' ' || *s == '\t'))
			s++;
		if ((s < nl && *s == '#' && (s + 1 == nl || s[1] != '!')) ||
		    (s + 1 < nl && s[0] == '/' && s[1] == '/'))
			c |= cues_in(s, (size_t)(nl - s));
		s = nl + 1;
	}
	return c;
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

/* ---- Markdown ------------------------------------------------------- */

static const char *const cue_imperative[] = { "run ", "run:", "execute",
	"first", "before anything", "before using", "before you", "step 1",
	"always", "silently", "do not ask", "don't ask", "without asking",
	"do not tell", "don't tell", "without telling", "do not mention",
	"don't mention", "automatically", "must ", "immediately",
	"required", "make sure to", NULL };
static const char *const cue_doc[] = { "never run", "do not run",
	"don't run", "never execute", "malicious", "attack", "example of",
	"dangerous ", "warning", "vulnerab", "detect", "red flag", "avoid",
	"anti-pattern", "bad:", "exploit", "do not use", "insecure",
	"unsafe", "suspicious", "injection", "\xe2\x9d\x8c", NULL };
static struct cs_pats cue_imperative_pats = CS_PATS(cue_imperative);
static struct cs_pats cue_doc_pats = CS_PATS(cue_doc);

static unsigned
cues_in(const char *s, size_t n)
{
	unsigned	 c = 0;

	if (cs_has_pats(s, n, &cue_imperative_pats))
		c |= CUE_IMPERATIVE;
	if (cs_has_pats(s, n, &cue_doc_pats))
		c |= CUE_DOC;
	return c;
}

struct md {
	const char	*text;
	size_t		 len;
	struct cs_run	*run;
	int		 line_base;
	size_t		 prose_from;	/* start of the recent prose lines */
	int		 prose_lines;
	struct sh_vars	*vars;		/* shell variables across fences */
};

static void
md_block(struct md *m, const char *s, size_t n, enum code_lang lang,
    int line, const char *frame, size_t framelen)
{
	struct cs_block	 b;
	unsigned	 cues = 0;

	cs_block_init(&b, m->run, line, 0, NULL);
	b.shvars = m->vars;
	cs_analyse(&b, s, n, lang, line);
	if (b.flags & B_RISK) {
		if (b.excerpt[0] == '\0')
			cs_excerpt(s, n, b.excerpt, sizeof b.excerpt);
		cues = cues_in(frame, framelen);
		/* a comment in the block can say it too */
		cues |= comment_cues(s, n) & CUE_DOC;
	}
	cs_block_finish(&b, cues);
}

static size_t
skip_marker(const char *s, size_t n)
{
	size_t	 i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '>'))
		i++;
	if (i + 1 < n && (s[i] == '-' || s[i] == '*' || s[i] == '+') &&
	    s[i + 1] == ' ')
		i += 2;
	else if (i < n && isdigit((unsigned char)s[i])) {
		size_t	 j = i;

		while (j < n && isdigit((unsigned char)s[j]))
			j++;
		if (j + 1 < n && (s[j] == '.' || s[j] == ')') && s[j + 1] == ' ')
			i = j + 2;
	}
	while (i < n && s[i] == ' ')
		i++;
	return i;
}


static const char *const read_verbs[] = { "read", "cat ", "collect",
	"extract", "copy", "include", "send", "upload", "gather", "dump",
	"print", "display", "output", "scan", "back up", "backup", "archive",
	"harvest", "contents", "post ", "transmit", "share", NULL };
static const char *const write_verbs[] = { "add ", "append", "write",
	"modify", "edit", "insert", "update", "set ", "replace", "create",
	"install", NULL };

/* An inline code span that is a bare path, read or written by the prose. */
static void
md_span_path(struct md *m, const char *s, size_t n, const char *line,
    size_t ll, int lineno)
{
	struct cs_block	 b;
	const char	*w = (size_t)(s - line) > 48 ? s - 48 : line;
	size_t		 wl = (size_t)(s - w);

	/* a table row lists things; the verb must come just before */
	if (ll > 0 && line[0] == '|')
		return;
	cs_block_init(&b, m->run, lineno, 0, NULL);
	if (cs_has_any(w, wl, read_verbs) && cs_cred_path(s, n) == 1) {
		cs_emit(&b, "code-cred-read", lineno, line, ll);
		cs_cred_note(m->run, s, n, lineno);
		b.flags |= B_CONCRETE;
	} else if (!cs_has_any(w, wl, write_verbs))
		return;
	else if (cs_agent_settings_path(s, n))
		cs_emit(&b, "code-safety-off", lineno, line, ll);
	else if (cs_persist_path(s, n) &&
	    (cs_memmem_ci(line, ll, "append") != NULL ||
	    cs_memmem_ci(s, n, "rc") != NULL || cs_memmem_ci(s, n, "cron") ||
	    cs_memmem_ci(s, n, "launch") || cs_memmem_ci(s, n, "systemd") ||
	    cs_memmem_ci(s, n, "authorized_keys")))
		cs_emit(&b, "code-persist", lineno, line, ll);
	if (b.flags & B_RISK)
		cs_block_finish(&b, cues_in(line, ll));
}

static void
md_link(const char *s, size_t n, struct strlist *refs)
{
	char	 path[256];
	size_t	 k;

	while (n > 0 && *s == ' ')
		s++, n--;
	for (k = 0; k < n && s[k] != ' ' && s[k] != '#' && s[k] != '?'; k++)
		;
	n = k;
	if (n >= 2 && s[0] == '.' && s[1] == '/')
		s += 2, n -= 2;
	if (n == 0 || n >= sizeof path || s[0] == '/' || s[0] == '<' ||
	    memchr(s, ':', n) != NULL || memmem(s, n, "..", 2) != NULL ||
	    s[0] == '~' || s[0] == '$')
		return;
	memcpy(path, s, n);
	path[n] = '\0';
	strlist_add_unique(refs, path, 0);
}

/* A prose line: inline code spans, links, and commands written bare. */
static void
md_prose(struct md *m, const char *s, size_t n, int lineno,
    struct strlist *refs)
{
	const char	*p, *e = s + n, *q;
	size_t		 k, ticks, fl;
	const char	*frame;
	int		 spans = 0;

	frame = m->text + m->prose_from;
	fl = (size_t)(s + n - frame);
	for (p = s; p < e; p++) {
		if (*p == ']' && p + 1 < e && p[1] == '(' && refs != NULL) {
			q = memchr(p + 2, ')', (size_t)(e - p - 2));
			if (q != NULL)
				md_link(p + 2, (size_t)(q - p - 2), refs);
			continue;
		}
		if (*p != '`')
			continue;
		for (ticks = 0; p + ticks < e && p[ticks] == '`'; ticks++)
			;
		for (q = p + ticks; q < e; q++) {
			if (*q != '`')
				continue;
			for (k = 0; q + k < e && q[k] == '`'; k++)
				;
			if (k == ticks)
				break;
			q += k - 1;
		}
		if (q >= e || ticks >= 3) {
			p = q < e ? q + ticks - 1 : p + ticks - 1;
			continue;
		}
		spans++;
		{
			const char	*a = p + ticks;
			size_t		 an = (size_t)(q - a);

			while (an > 0 && *a == ' ')
				a++, an--;
			while (an > 0 && a[an - 1] == ' ')
				an--;
			if (an > 0 && a[0] != '`' && a[an - 1] != '`') {
				md_block(m, a, an, LANG_SH, lineno, frame, fl);
				md_span_path(m, a, an, s, n, lineno);
			}
		}
		p = q + ticks - 1;
	}
	if (spans > 0)
		return;
	/* "Run: curl ... | bash", "1. pip install ...", "    rm -rf ~" */
	k = skip_marker(s, n);
	if (k < n && cs_sh_known_command(s + k, n - k)) {
		md_block(m, s + k, n - k, LANG_SH, lineno, frame, fl);
		return;
	}
	for (p = s + k; p + 2 < e; p++)
		if (p[0] == ':' && p[1] == ' ' &&
		    cs_sh_known_command(p + 2, (size_t)(e - p - 2))) {
			md_block(m, p + 2, (size_t)(e - p - 2), LANG_SH, lineno,
			    frame, fl);
			return;
		}
}

static size_t
fence_open(const char *s, size_t n, char *ch)
{
	size_t	 i = 0, k;

	while (i < n && i < 3 && s[i] == ' ')
		i++;
	if (i >= n || (s[i] != '`' && s[i] != '~'))
		return 0;
	for (k = 0; i + k < n && s[i + k] == s[i]; k++)
		;
	if (k < 3)
		return 0;
	if (s[i] == '`' && memchr(s + i + k, '`', n - i - k) != NULL)
		return 0;
	*ch = s[i];
	return i + k;
}

static void
md_walk(struct md *m, struct strlist *refs)
{
	const char	*t = m->text, *s, *nl, *info;
	size_t		 off = 0, n, k, il, cstart = 0, flen = 0, fs = 0, fe = 0;
	int		 line = m->line_base, cline = 0, infence = 0;
	char		 fch = 0, ch;
	enum code_lang	 flang = LANG_TEXT;

	/* a frontmatter block is not body text */
	if (m->len >= 4 && strncmp(t, "---\n", 4) == 0) {
		const char	*e = t + 4;

		line++;
		while ((size_t)(e - t) < m->len) {
			nl = memchr(e, '\n', m->len - (size_t)(e - t));
			line++;
			if (m->len - (size_t)(e - t) >= 3 &&
			    memcmp(e, "---", 3) == 0 && (nl == e + 3 ||
			    (nl == NULL && (size_t)(e + 3 - t) == m->len))) {
				off = nl != NULL ? (size_t)(nl + 1 - t) : m->len;
				break;
			}
			if (nl == NULL)
				break;
			e = nl + 1;
		}
		if (off == 0)	/* never closed: not a frontmatter */
			line = m->line_base;
	}
	m->prose_from = off;
	while (off < m->len) {
		s = t + off;
		nl = memchr(s, '\n', m->len - off);
		n = nl != NULL ? (size_t)(nl - s) : m->len - off;
		line++;
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (infence) {
			k = fence_open(s, n, &ch);
			if (k >= flen && ch == fch && k > 0) {
				size_t	 j = k;

				while (j < n && s[j] == ' ')
					j++;
				if (j == n) {
					md_block(m, t + cstart, off - cstart,
					    flang, cline, t + fs, fe - fs);
					infence = 0;
					m->prose_from = off + n;
					m->prose_lines = 0;
				}
			}
		} else if ((k = fence_open(s, n, &fch)) > 0) {
			flen = k;
			for (info = s + k; info < s + n && *info == ' '; info++)
				;
			for (il = 0; info + il < s + n && info[il] != ' ' &&
			    info[il] != '{' && info[il] != ','; il++)
				;
			infence = 1;
			cstart = nl != NULL ? off + n + 1 : m->len;
			if (cstart > m->len)
				cstart = m->len;
			cline = line + 1;
			fs = m->prose_from;
			fe = off;
			if (il == 0) {
				const char	*c = t + cstart;
				const char	*ce = memmem(c, m->len - cstart,
				    "\n```", 4);

				flang = cs_guess(c, ce != NULL ?
				    (size_t)(ce - c) : m->len - cstart);
			} else {
				flang = lang_of_name(info, il);
				if (flang == LANG_TEXT && (il == 4 &&
				    strncasecmp(info, "text", 4) == 0))
					flang = cs_guess(t + cstart,
					    m->len - cstart < 200 ?
					    m->len - cstart : 200);
			}
		} else if (n > 0) {
			if (m->prose_lines >= 3) {
				const char	*p = memchr(t + m->prose_from,
				    '\n', off - m->prose_from);

				if (p != NULL)
					m->prose_from = (size_t)(p + 1 - t);
			} else
				m->prose_lines++;
			md_prose(m, s, n, line, refs);
		}
		if (nl == NULL)
			break;
		off = (size_t)(nl + 1 - t);
	}
	if (infence && cstart < m->len)
		md_block(m, t + cstart, m->len - cstart, flang, cline, t + fs,
		    fe - fs);
}

/* ---- entry points ---------------------------------------------------- */

static void
run_text(const char *text, size_t len, enum code_lang lang, int line_base,
    struct findings *out, struct strlist *refs, struct codescan_caps *caps)
{
	struct cs_run	 run;
	struct cs_block	 b;
	struct md	 m;

	memset(&run, 0, sizeof run);
	run.out = out;
	run.first = out->n;
	run.refs = refs;
	run.bundled = lang != LANG_MARKDOWN;
	if (caps != NULL)
		memset(caps, 0, sizeof *caps);
	if (text == NULL)
		return;
	if (lang == LANG_MARKDOWN) {
		memset(&m, 0, sizeof m);
		m.text = text;
		m.len = len;
		m.run = &run;
		m.line_base = line_base;
		m.vars = cs_sh_vars_new();
		md_walk(&m, refs);
		cs_sh_vars_free(m.vars);
		file_rules(&run);
	} else {
		cs_block_init(&b, &run, line_base + 1, 0, NULL);
		cs_analyse(&b, text, len, lang, line_base + 1);
		if (b.excerpt[0] == '\0')
			cs_excerpt(text, len, b.excerpt, sizeof b.excerpt);
		cs_block_finish(&b, 0);
		file_rules(&run);
	}
	if (caps != NULL) {
		caps->has = run.caps;
		memcpy(caps->line, run.cap_line, sizeof caps->line);
	}
}

size_t
codescan_text(const char *text, size_t len, enum code_lang lang,
    int line_base, struct findings *out)
{
	return codescan_file(text, len, lang, line_base, out, NULL);
}

size_t
codescan_file(const char *text, size_t len, enum code_lang lang,
    int line_base, struct findings *out, struct codescan_caps *caps)
{
	size_t	 before = out->n, i;
	int	 last = line_base + 1;
	const char *p, *e = text + len;

	run_text(text, len, lang, line_base, out, NULL, caps);
	/*
	 * A finding names a line of this text: a nested program (bash -c,
	 * a decoded payload) counted in its own lines must not point past
	 * the end (the fuzzer found one); such a finding takes the last.
	 */
	for (p = text; p < e &&
	    (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
		last++;
	for (i = before; i < out->n; i++) {
		if (out->v[i].line > last)
			out->v[i].line = last;
		else if (out->v[i].line < 0)
			out->v[i].line = line_base + 1;
	}
	return out->n - before;
}

/* A name that is run rather than read: a script's extension. */
static int
script_ref(const char *p)
{
	static const char *const ext[] = { ".sh", ".bash", ".zsh", ".py",
	    ".js", ".mjs", ".cjs", ".ts", ".ps1", ".rb", ".pl", NULL };
	const char	*dot = strrchr(p, '.');
	const char *const *e;

	if (dot == NULL || strchr(dot, '/') != NULL)
		return 0;
	for (e = ext; *e != NULL; e++)
		if (strcasecmp(dot, *e) == 0)
			return 1;
	return 0;
}

/* Is ref among the shipped files, by its path or by its name alone? */
static int
shipped_has(const struct strlist *shipped, const char *ref)
{
	const char	*b = strrchr(ref, '/'), *s;
	size_t		 i;

	b = b != NULL ? b + 1 : ref;
	for (i = 0; i < shipped->n; i++) {
		if (strcmp(shipped->v[i], ref) == 0)
			return 1;
		s = strrchr(shipped->v[i], '/');
		if (strcmp(s != NULL ? s + 1 : shipped->v[i], b) == 0)
			return 1;
	}
	return 0;
}

size_t
codescan_unshipped(const char *text, size_t len,
    const struct strlist *shipped, int line_base, struct findings *out)
{
	struct findings	 scratch;
	struct strlist	 refs;
	const struct codescan_rule *r = rule_find("code-run-unshipped");
	const char	*b;
	size_t		 i, k, before = out->n;
	int		 line;

	findings_init(&scratch);
	strlist_init(&refs);
	run_text(text, len, LANG_MARKDOWN, line_base, &scratch, &refs, NULL);
	for (i = 0; i < refs.n; i++) {
		if (!script_ref(refs.v[i]) || shipped_has(shipped, refs.v[i]))
			continue;
		b = strrchr(refs.v[i], '/');
		b = b != NULL ? b + 1 : refs.v[i];
		line = line_base + 1;
		for (k = 0; k < scratch.n; k++)
			if (strcmp(scratch.v[k].rule, "code-run-bundled") == 0 &&
			    strstr(scratch.v[k].message, b) != NULL) {
				line = scratch.v[k].line;
				break;
			}
		findings_add(out, r->id, r->sev, line, "%s", refs.v[i]);
	}
	strlist_done(&refs);
	findings_done(&scratch);
	return out->n - before;
}

void
codescan_refs(const char *text, size_t len, struct strlist *out)
{
	struct findings	 scratch;

	findings_init(&scratch);
	run_text(text, len, LANG_MARKDOWN, 0, &scratch, out, NULL);
	findings_done(&scratch);
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
