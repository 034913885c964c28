/*
 * What shell commands do, for codescan: curl and wget (fetch, upload,
 * download to a file), interpreters and their -c/-e/-enc code, eval and
 * source, readers of credential files, env dumps, network senders, rm and
 * friends, installers, crontab and service managers, safety switches.
 * Each command gets what its standard input carries and returns what its
 * standard output carries (T_* in codescan_impl.h).
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safety/codescan_shcmd_impl.h"

/* ---- helpers ---------------------------------------------------------- */

void
wadd(struct sh_word *w, const char *s, size_t n)
{
	if (w->len + n >= W_MAX)
		n = W_MAX - 1 - w->len;
	memcpy(w->s + w->len, s, n);
	w->len += n;
	w->s[w->len] = '\0';
}

void
wclear(struct sh_word *w)
{
	w->len = 0;
	w->s[0] = '\0';
	w->taint = 0;
	w->nvars = 0;
	w->nparams = 0;
	w->pieces = 0;
	w->secret = 0;
	w->assigned = 0;
	w->from = w->to = 0;
}

/* The command's name without its directory. */
static const char *
base_name(const char *s)
{
	const char	*p = strrchr(s, '/');

	return p != NULL && p[1] != '\0' ? p + 1 : s;
}

void
sh_emit(struct sh *sh, const char *rule, const struct sh_cmd *c)
{
	struct cs_block	*b = sh->b;
	size_t		 from = sh->pstart <= c->start ? sh->pstart : c->start;
	size_t		 to = c->end > from ? c->end : from;

	/* a nested program's positions may run past this text's end */
	if (to > sh->len)
		to = sh->len;
	if (from > to)
		from = to;
	if (to - from > 400)
		to = from + 400;
	cs_emit(b, rule, sh->pline ? sh->pline : c->line, sh->t + from,
	    to - from);
}

static void
note_host(struct sh *sh, const struct sh_word *w)
{
	int	 k = cs_host_where(w->s, w->len, &sh->b->flags);

	if (k == 2)
		sh->b->flags |= B_CONCRETE;
	else if (k == 1 || (w->nvars > 0 && w->s[0] == '$'))
		sh->b->flags |= B_PLACEHOLDER;
}

static void
add_dl(struct sh *sh, const char *path)
{
	struct cs_block	*b = sh->b;

	if (b->ndl < CS_DL_MAX && path[0] != '\0' && path[0] != '-')
		snprintf(b->dl[b->ndl++], sizeof b->dl[0], "%.*s",
		    (int)sizeof b->dl[0] - 1, path);
}

static int
is_dl(struct sh *sh, const char *path)
{
	return cs_is_dl(sh->b, path);
}

struct sh_var *
var_find(struct sh_vars *vs, const char *name, size_t n)
{
	size_t	 i;

	for (i = 0; i < vs->n; i++)
		if (strlen(vs->v[i].name) == n &&
		    strncmp(vs->v[i].name, name, n) == 0)
			return &vs->v[i];
	return NULL;
}

static void
var_set(struct sh_vars *vs, const char *name, size_t n, const char *val,
    unsigned taint)
{
	struct sh_var	*v = var_find(vs, name, n);

	if (n >= sizeof v->name)
		return;
	if (v == NULL) {
		if (vs->n == VARS_MAX)
			return;
		v = &vs->v[vs->n++];
		memcpy(v->name, name, n);
		v->name[n] = '\0';
	}
	snprintf(v->val, sizeof v->val, "%s", val);
	v->taint = taint;
}

static const char *
file_key(const char *path)
{
	if (strncmp(path, "./", 2) == 0)
		path += 2;
	return path;
}

/* Records that path now holds data carrying taint (T_CRED, T_ENV). */
static void
file_set(struct sh *sh, const char *path, unsigned taint)
{
	struct sh_vars	*vs = sh->vars;
	size_t		 i;

	taint &= T_CRED | T_ENV;
	path = file_key(path);
	if (taint == 0 || path[0] == '\0' || strcmp(path, "/dev/null") == 0 ||
	    strlen(path) >= sizeof vs->f[0].path)
		return;
	for (i = 0; i < vs->nf; i++)
		if (strcmp(vs->f[i].path, path) == 0) {
			vs->f[i].taint |= taint;
			return;
		}
	if (vs->nf == FILES_MAX)
		return;
	snprintf(vs->f[vs->nf].path, sizeof vs->f[0].path, "%s", path);
	vs->f[vs->nf++].taint = taint;
}

/* What a file written earlier in the body carries, or 0. */
static unsigned
file_taint(struct sh *sh, const char *path)
{
	struct sh_vars	*vs = sh->vars;
	size_t		 i;

	path = file_key(path);
	for (i = 0; i < vs->nf; i++)
		if (strcmp(vs->f[i].path, path) == 0)
			return vs->f[i].taint;
	return 0;
}

/* ---- what commands do --------------------------------------------- */

/* strcmp(name, s) == 0, the first bytes compared inline */
static inline int
name_is(const char *name, const char *s)
{
	return name[0] == s[0] && strcmp(name, s) == 0;
}

static int
in_list(const char *s, const char *const *v)
{
	for (; *v != NULL; v++)
		if (strcmp(s, *v) == 0)
			return 1;
	return 0;
}

/*
 * Every command name sh_eval() knows, sorted (strcmp), with what it is:
 * one bsearch() per name instead of a list per question. The rest skip
 * its checks at once. Names known by a prefix (pip3, python3.12,
 * mkfs.ext4, powershell.exe) are matched by cmd_lookup()'s callers.
 */
#define C_FETCH		0x01	/* fetches a URL (curl, wget ...) */
#define C_READER	0x02	/* reads files given as arguments */
#define C_WRAPPER	0x04	/* a word before the command proper */
#define C_NOLANG	(-1)	/* not an interpreter */

struct cmd_info {
	const char	*name;
	int		 flags;		/* C_* */
	int		 lang;		/* enum code_lang it runs, or C_NOLANG */
};

static const struct cmd_info cmds[] = {
	{ "!", C_WRAPPER, C_NOLANG },
	{ "$", C_WRAPPER, C_NOLANG },
	{ ".", 0, C_NOLANG },
	{ "7z", C_READER, C_NOLANG },
	{ "7za", 0, C_NOLANG },
	{ "Invoke-Expression", 0, C_NOLANG },
	{ "Invoke-WebRequest", 0, C_NOLANG },
	{ "aria2c", C_FETCH, C_NOLANG },
	{ "ash", 0, LANG_SH },
	{ "awk", C_READER, C_NOLANG },
	{ "base64", C_READER, C_NOLANG },
	{ "bash", 0, LANG_SH },
	{ "bat", C_READER, C_NOLANG },
	{ "brew", 0, C_NOLANG },
	{ "builtin", C_WRAPPER, C_NOLANG },
	{ "bun", 0, LANG_JS },
	{ "busybox", 0, LANG_SH },
	{ "bzip2", C_READER, C_NOLANG },
	{ "cargo", 0, C_NOLANG },
	{ "cat", C_READER, C_NOLANG },
	{ "chmod", 0, C_NOLANG },
	{ "chown", 0, C_NOLANG },
	{ "command", C_WRAPPER, C_NOLANG },
	{ "compgen", 0, C_NOLANG },
	{ "cp", C_READER, C_NOLANG },
	{ "crontab", 0, C_NOLANG },
	{ "csrutil", 0, C_NOLANG },
	{ "curl", C_FETCH, C_NOLANG },
	{ "cut", C_READER, C_NOLANG },
	{ "dash", 0, LANG_SH },
	{ "dd", C_READER, C_NOLANG },
	{ "declare", C_WRAPPER, C_NOLANG },
	{ "deno", 0, LANG_JS },
	{ "dig", 0, C_NOLANG },
	{ "diskutil", 0, C_NOLANG },
	{ "do", C_WRAPPER, C_NOLANG },
	{ "doas", C_WRAPPER, C_NOLANG },
	{ "drill", 0, C_NOLANG },
	{ "easy_install", 0, C_NOLANG },
	{ "echo", 0, C_NOLANG },
	{ "egrep", C_READER, C_NOLANG },
	{ "else", C_WRAPPER, C_NOLANG },
	{ "env", C_WRAPPER, C_NOLANG },
	{ "eval", 0, C_NOLANG },
	{ "exec", C_WRAPPER, C_NOLANG },
	{ "export", C_WRAPPER, C_NOLANG },
	{ "fdisk", 0, C_NOLANG },
	{ "fetch", C_FETCH, C_NOLANG },
	{ "file", C_READER, C_NOLANG },
	{ "find", C_READER, C_NOLANG },
	{ "fish", 0, LANG_SH },
	{ "gem", 0, C_NOLANG },
	{ "gh", 0, C_NOLANG },
	{ "git", 0, C_NOLANG },
	{ "go", 0, C_NOLANG },
	{ "gpg", C_READER, C_NOLANG },
	{ "grep", C_READER, C_NOLANG },
	{ "gzip", C_READER, C_NOLANG },
	{ "head", C_READER, C_NOLANG },
	{ "hexdump", C_READER, C_NOLANG },
	{ "history", 0, C_NOLANG },
	{ "host", 0, C_NOLANG },
	{ "http", C_FETCH, C_NOLANG },
	{ "https", C_FETCH, C_NOLANG },
	{ "iex", 0, C_NOLANG },
	{ "irm", 0, C_NOLANG },
	{ "iwr", 0, C_NOLANG },
	{ "jq", C_READER, C_NOLANG },
	{ "ksh", 0, LANG_SH },
	{ "launchctl", 0, C_NOLANG },
	{ "less", C_READER, C_NOLANG },
	{ "local", C_WRAPPER, C_NOLANG },
	{ "more", C_READER, C_NOLANG },
	{ "nc", 0, C_NOLANG },
	{ "ncat", 0, C_NOLANG },
	{ "netcat", 0, C_NOLANG },
	{ "nice", C_WRAPPER, C_NOLANG },
	{ "nl", C_READER, C_NOLANG },
	{ "node", 0, LANG_JS },
	{ "nodejs", 0, LANG_JS },
	{ "nohup", C_WRAPPER, C_NOLANG },
	{ "npm", 0, C_NOLANG },
	{ "npx", 0, C_NOLANG },
	{ "nslookup", 0, C_NOLANG },
	{ "od", C_READER, C_NOLANG },
	{ "openssl", C_READER, C_NOLANG },
	{ "perl", 0, LANG_TEXT },
	{ "php", 0, LANG_TEXT },
	{ "pnpm", 0, C_NOLANG },
	{ "poetry", 0, C_NOLANG },
	{ "printenv", 0, C_NOLANG },
	{ "printf", 0, C_NOLANG },
	{ "pwsh", 0, LANG_POWERSHELL },
	{ "pypy", 0, LANG_PYTHON },
	{ "pypy3", 0, LANG_PYTHON },
	{ "readonly", C_WRAPPER, C_NOLANG },
	{ "rg", C_READER, C_NOLANG },
	{ "rm", 0, C_NOLANG },
	{ "rsync", C_READER, C_NOLANG },
	{ "ruby", 0, LANG_TEXT },
	{ "schtasks", 0, C_NOLANG },
	{ "scp", C_READER, C_NOLANG },
	{ "security", 0, C_NOLANG },
	{ "sed", C_READER, C_NOLANG },
	{ "set", 0, C_NOLANG },
	{ "setenforce", 0, C_NOLANG },
	{ "sftp", 0, C_NOLANG },
	{ "sh", 0, LANG_SH },
	{ "shred", 0, C_NOLANG },
	{ "socat", 0, C_NOLANG },
	{ "sort", C_READER, C_NOLANG },
	{ "source", 0, C_NOLANG },
	{ "spctl", 0, C_NOLANG },
	{ "sqlite3", C_READER, C_NOLANG },
	{ "ssh", 0, C_NOLANG },
	{ "strings", C_READER, C_NOLANG },
	{ "sudo", C_WRAPPER, C_NOLANG },
	{ "systemctl", 0, C_NOLANG },
	{ "tac", C_READER, C_NOLANG },
	{ "tail", C_READER, C_NOLANG },
	{ "tar", C_READER, C_NOLANG },
	{ "tee", 0, C_NOLANG },
	{ "telnet", 0, C_NOLANG },
	{ "then", C_WRAPPER, C_NOLANG },
	{ "time", C_WRAPPER, C_NOLANG },
	{ "timeout", C_WRAPPER, C_NOLANG },
	{ "tr", C_READER, C_NOLANG },
	{ "ts-node", 0, LANG_JS },
	{ "tsx", 0, LANG_JS },
	{ "type", C_READER, C_NOLANG },
	{ "ufw", 0, C_NOLANG },
	{ "uniq", C_READER, C_NOLANG },
	{ "unrar", 0, C_NOLANG },
	{ "unset", 0, C_NOLANG },
	{ "unzip", 0, C_NOLANG },
	{ "uv", 0, C_NOLANG },
	{ "wget", C_FETCH, C_NOLANG },
	{ "wipefs", 0, C_NOLANG },
	{ "xargs", C_WRAPPER, C_NOLANG },
	{ "xh", C_FETCH, C_NOLANG },
	{ "xxd", C_READER, C_NOLANG },
	{ "xz", C_READER, C_NOLANG },
	{ "yarn", 0, C_NOLANG },
	{ "yq", C_READER, C_NOLANG },
	{ "zcat", C_READER, C_NOLANG },
	{ "zip", C_READER, C_NOLANG },
	{ "zsh", 0, LANG_SH },
};

/*
 * The table's entry for a command name, or NULL: a binary search that
 * compares first bytes before calling strcmp().
 */
static const struct cmd_info *
cmd_lookup(const char *name)
{
	size_t	 lo = 0, hi = sizeof cmds / sizeof cmds[0], mid;
	int	 r;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = (unsigned char)name[0] - (unsigned char)cmds[mid].name[0];
		if (r == 0 && name[0] != '\0')
			r = strcmp(name + 1, cmds[mid].name + 1);
		if (r == 0)
			return &cmds[mid];
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/*
 * The language an interpreter runs, from its entry e (cmd_lookup(n)) and
 * name n: sh, python3, node ...; perl, ruby, php give LANG_TEXT; not an
 * interpreter (enum code_lang)-1.
 */
static enum code_lang
interp_lang_of(const struct cmd_info *e, const char *n)
{
	if (e != NULL)
		return (enum code_lang)e->lang;
	if (strncmp(n, "python", 6) == 0)
		return LANG_PYTHON;
	if (strncmp(n, "powershell", 10) == 0)
		return LANG_POWERSHELL;
	return (enum code_lang)-1;
}

/*
 * The mail senders of a shell: what they are given leaves the machine, the
 * command-line twin of smtplib.sendmail in code. A skill that reads a
 * secret in one step and mails "the report" in the next is the same
 * chain as curl -d; the read-then-send link is made at the skill's level
 * (cap-secret-send), so only the send is recorded here.
 */
static int
mailer(const char *name)
{
	static const char *const m[] = { "mail", "mailx", "sendmail", "mutt",
	    "swaks", "send_email", "send-email", "sendemail", NULL };
	const char *const *p;

	for (p = m; *p != NULL; p++)
		if (name_is(name, *p))
			return 1;
	return 0;
}

static int
cmd_known(const struct cmd_info *e, const char *name)
{
	return e != NULL || strncmp(name, "pip", 3) == 0 ||
	    strncmp(name, "python", 6) == 0 || strncmp(name, "mkfs", 4) == 0 ||
	    strncmp(name, "powershell", 10) == 0 || mailer(name);
}

/* A name that runs as a script: setup.sh, tool.py, cli.js. */
static int
script_name(const char *p)
{
	static const char *const ext[] = { ".sh", ".bash", ".zsh", ".py",
	    ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".ps1", NULL };
	const char	*dot = strrchr(p, '.');

	return dot != NULL && in_list(dot, ext);
}

/* A relative path the agent is told to run: scripts/x.py, ./setup.sh. */
static void
bundled(struct sh *sh, const struct sh_cmd *c, const char *p)
{
	const char	*dot;

	if (p[0] == '.' && p[1] == '/')
		p += 2;
	if (p[0] == '\0' || p[0] == '/' || p[0] == '~' || p[0] == '$' ||
	    p[0] == '-' || strstr(p, "..") != NULL || strchr(p, ':') != NULL)
		return;
	dot = strrchr(p, '.');
	if (strchr(p, '/') == NULL && (dot == NULL || dot == p))
		return;
	if (sh->b->run->refs != NULL)
		strlist_add_unique(sh->b->run->refs, p, 0);
	sh_emit(sh, "code-run-bundled", c);
}

static void
flag_send(struct sh *sh, const struct sh_cmd *c, unsigned taint,
    const char *how)
{
	struct cs_block	*b = sh->b;

	(void)how;
	b->flags |= B_SEND;
	if (b->send_line == 0)
		b->send_line = sh->pline ? sh->pline : c->line;
	if (taint & T_CRED) {
		b->flags |= B_CRED;
		sh_emit(sh, "code-cred-exfil", c);
	} else if (taint & T_ENV) {
		b->flags |= B_ENV;
		sh_emit(sh, "code-env-dump", c);
	} else
		sh_emit(sh, "code-exfil", c);
}

/*
 * A mailer is a send when it is told a recipient (a word with an @ or a
 * --to/-t flag) or fed a pipe: "mail --help" sends nothing. A recipient at
 * a real domain makes the payload concrete, as a real host does for curl.
 */
static void
do_mail(struct sh *sh, const struct sh_cmd *c, size_t a0, unsigned in)
{
	const struct sh_word	*w;
	const char		*at;
	char			 url[256];
	unsigned		 t = in;
	size_t			 i;
	int			 to = in != 0 || sh->piped;

	for (i = a0 + 1; i < c->argc; i++) {
		w = &c->argv[i];
		t |= w->taint;
		if ((w->len == 4 && memcmp(w->s, "--to", 4) == 0) ||
		    (w->len == 2 && memcmp(w->s, "-t", 2) == 0))
			to = 1;
		if (w->s[0] == '-' || (at = memchr(w->s, '@', w->len)) ==
		    NULL || at == w->s)
			continue;
		to = 1;
		/* the domain judged as a URL's host: example.com is a stub */
		snprintf(url, sizeof url, "smtp://%.*s", (int)(w->len -
		    (size_t)(at + 1 - w->s)), at + 1);
		if (cs_host_where(url, strlen(url), &sh->b->flags) == 2)
			sh->b->flags |= B_CONCRETE;
	}
	if (to)
		flag_send(sh, c, t, "mail");
}

/* A path argument read by a command: a credential, or some file. */
static unsigned
read_path(struct sh *sh, const struct sh_cmd *c, const struct sh_word *w)
{
	int		 k = cs_cred_path(w->s, w->len);
	unsigned	 ft = file_taint(sh, w->s);

	if (ft != 0)
		return ft | T_FILE;
	if (k == 1) {
		sh->b->flags |= B_CRED | B_CONCRETE;
		if (sh->b->cred_line == 0)
			sh->b->cred_line = c->line;
		sh_emit(sh, "code-cred-read", c);
		cs_cred_note(sh->b->run, w->s, w->len, c->line);
		return T_CRED;
	}
	if (k == 2) {
		sh->b->flags |= B_SECRETFILE;
		if (sh->b->cred_line == 0)
			sh->b->cred_line = c->line;
		return T_CRED;
	}
	if (strstr(w->s, "/environ") != NULL && strncmp(w->s, "/proc/", 6) == 0)
		return T_ENV;
	return T_FILE;
}

static void
write_target(struct sh *sh, const struct sh_cmd *c, const struct sh_word *w,
    unsigned taint)
{
	if (strncmp(w->s, "/dev/tcp/", 9) == 0 ||
	    strncmp(w->s, "/dev/udp/", 9) == 0) {
		note_host(sh, w);
		sh->b->flags |= B_CONCRETE;
		flag_send(sh, c, taint, "/dev/tcp");
		return;
	}
	if (strncmp(w->s, "/dev/sd", 7) == 0 || strncmp(w->s, "/dev/nvme", 9)
	    == 0 || strncmp(w->s, "/dev/disk", 9) == 0 ||
	    strncmp(w->s, "/dev/hd", 7) == 0 || strncmp(w->s, "/dev/mmcblk",
	    11) == 0) {
		sh_emit(sh, "code-destroy", c);
		return;
	}
	if (cs_agent_settings_path(w->s, w->len))
		sh_emit(sh, "code-safety-off", c);
	else if (cs_persist_path(w->s, w->len))
		sh_emit(sh, "code-persist", c);
	if ((taint & T_ENV) && strcmp(w->s, "/dev/null") != 0)
		sh_emit(sh, "code-env-dump", c);
}

/* Options of curl and wget that take a value. */
static int
takes_value(const char *name, int c)
{
	if (name_is(name, "wget"))
		return strchr("OoaePTtwUYlAIDXRQBbhdi", c) != NULL;
	return strchr("odFTHuAebcXxmwKrECYyzPQtv", c) != NULL &&
	    c != 'v';
}

struct net {
	const struct sh_word	*url;
	const char		*outfile;
	int			 tostdout;
	int			 insecure;
	unsigned		 data;		/* taint of what is sent */
	int			 sends;		/* has a body or upload */
	int			 post;
};

static void
net_data(struct sh *sh, const struct sh_cmd *c, struct net *n,
    const struct sh_word *v, unsigned stdin_taint)
{
	n->sends = 1;
	n->data |= v->taint;
	if (v->secret)
		n->data |= T_CRED;
	if (v->s[0] == '@' || (v->s[0] != '@' && strchr(v->s, '@') != NULL &&
	    strchr(v->s, '=') != NULL)) {
		const char	*p = strchr(v->s, '@') + 1;
		struct sh_word	 f;

		if (strcmp(p, "-") == 0) {
			n->data |= stdin_taint;
			return;
		}
		wclear(&f);
		wadd(&f, p, strcspn(p, ";"));
		if (cs_cred_path(f.s, f.len) != 0 || file_taint(sh, f.s) != 0)
			n->data |= read_path(sh, c, &f);
		else if (f.s[0] == '/' || f.s[0] == '~' || f.s[0] == '$')
			n->data |= T_FILE;
	}
}

static unsigned
do_fetch(struct sh *sh, struct sh_cmd *c, const char *name, size_t a0,
    unsigned in)
{
	struct net	 n;
	size_t		 i, k;
	const char	*o;
	int		 wget = name_is(name, "wget");
	struct sh_word	*w;

	memset(&n, 0, sizeof n);
	n.tostdout = !wget;
	for (i = a0 + 1; i < c->argc; i++) {
		w = &c->argv[i];
		if (w->s[0] == '-' && w->s[1] == '-') {
			const char	*eq = strchr(w->s, '=');
			const char	*val = eq != NULL ? eq + 1 :
			    (i + 1 < c->argc ? c->argv[i + 1].s : "");
			size_t		 nl = eq != NULL ? (size_t)(eq - w->s) :
			    w->len;
			int		 has = 1;

#define LOPT(x)	(nl == strlen(x) && strncmp(w->s, x, nl) == 0)
			if (LOPT("--insecure") || LOPT("--no-check-certificate"))
				n.insecure = 1, has = 0;
			else if (LOPT("--output") || LOPT("--output-document")) {
				n.outfile = val;
				n.tostdout = strcmp(val, "-") == 0;
			} else if (LOPT("--data") || LOPT("--data-binary") ||
			    LOPT("--data-raw") || LOPT("--data-urlencode") ||
			    LOPT("--form") ||
			    LOPT("--json") || LOPT("--post-data") ||
			    LOPT("--body-data")) {
				net_data(sh, c, &n, eq != NULL ? w :
				    (i + 1 < c->argc ? &c->argv[i + 1] : w),
				    in);
			} else if (LOPT("--post-file") || LOPT("--body-file") ||
			    LOPT("--upload-file")) {
				struct sh_word	 f;

				wclear(&f);
				wadd(&f, val, strlen(val));
				n.sends = 1;
				n.data |= strcmp(val, "-") == 0 ? in | T_FILE :
				    read_path(sh, c, &f);
			} else if (LOPT("--url"))
				n.url = eq != NULL ? w : (i + 1 < c->argc ?
				    &c->argv[i + 1] : NULL);
			else if (LOPT("--remote-name"))
				n.tostdout = 0, has = 0;
			else
				has = LOPT("--header") || LOPT("--user") ||
				    LOPT("--request") || LOPT("--user-agent") ||
				    LOPT("--max-time") || LOPT("--retry") ||
				    LOPT("--connect-timeout") || LOPT("--proto") ||
				    LOPT("--referer") || LOPT("--cookie") ||
				    LOPT("--cacert") || LOPT("--cert") ||
				    LOPT("--key") || LOPT("--resolve") ||
				    LOPT("--config") || LOPT("--write-out") ||
				    LOPT("--proxy") || LOPT("--output-dir") ||
				    LOPT("--tries") || LOPT("--timeout") ||
				    LOPT("--directory-prefix");
#undef LOPT
			if (has && eq == NULL)
				i++;
			continue;
		}
		if (w->s[0] == '-' && w->s[1] != '\0') {
			for (k = 1; w->s[k] != '\0'; k++) {
				int	 ch = w->s[k];

				if (ch == 'k' && !wget)
					n.insecure = 1;
				if (ch == 'O' && !wget)
					n.tostdout = 0;
				if (!takes_value(name, ch))
					continue;
				o = w->s[k + 1] != '\0' ? w->s + k + 1 :
				    (i + 1 < c->argc ? c->argv[++i].s : "");
				if ((ch == 'o' && !wget) || (ch == 'O' && wget)) {
					n.outfile = o;
					n.tostdout = strcmp(o, "-") == 0;
				} else if (!wget && ch == 'T') {
					struct sh_word	 f;

					wclear(&f);
					wadd(&f, o, strlen(o));
					n.sends = 1;
					n.data |= strcmp(o, "-") == 0 ? in | T_FILE :
					    read_path(sh, c, &f);
				} else if (!wget && (ch == 'd' || ch == 'F')) {
					const struct sh_word *v =
					    w->s[k + 1] != '\0' ? w : &c->argv[i];
					struct sh_word	 tmpw;

					if (v == w) {
						wclear(&tmpw);
						wadd(&tmpw, o, strlen(o));
						tmpw.taint = w->taint;
						v = &tmpw;
					}
					net_data(sh, c, &n, v, in);
				} else if (!wget && ch == 'X' &&
				    strcasecmp(o, "POST") == 0)
					n.post = 1;
				break;
			}
			continue;
		}
		if (n.url == NULL)
			n.url = w;
	}
	if (n.url != NULL) {
		note_host(sh, n.url);
		sh->b->flags |= B_FETCH;
		if (sh->b->fetch_line == 0)
			sh->b->fetch_line = c->line;
		if (cs_archive_name(n.url->s, n.url->len) ||
		    cs_binary_name(n.url->s, n.url->len)) {
			if (cs_binary_name(n.url->s, n.url->len))
				sh_emit(sh, "code-archive-lure", c);
			add_dl(sh, base_name(n.url->s));
		}
	}
	if (n.sends && (n.data & (T_CRED | T_ENV | T_FILE | T_DECODE)))
		flag_send(sh, c, n.data, name);
	if (n.outfile != NULL && !n.tostdout)
		add_dl(sh, n.outfile);
	else if (!n.tostdout && n.url != NULL)
		add_dl(sh, base_name(n.url->s));
	if (!n.tostdout)
		return 0;
	return T_NET | (n.insecure ? T_INSECURE : 0);
}

/* An interpreter: sh -c, python -c, node -e, pwsh -enc, or a script. */
static void
do_interp(struct sh *sh, struct sh_cmd *c, size_t a0, enum code_lang lang,
    unsigned in)
{
	struct sh_word	*w, *code = NULL;
	size_t		 i;
	int		 enc = 0, script = 0;

	for (i = a0 + 1; i < c->argc; i++) {
		w = &c->argv[i];
		if (w->s[0] != '-' || w->len == 1) {
			if (code == NULL && w->taint != 0 && w->nvars > 0 &&
			    strcmp(w->s, "/dev/fd/63") == 0)
				code = w;
			else if (!script) {
				script = 1;
				if (strcmp(w->s, "-") == 0)
					script = 0;
				else if (is_dl(sh, w->s)) {
					sh->b->flags |= B_FETCH;
					sh_emit(sh, "code-fetch-exec", c);
				} else
					bundled(sh, c, w->s);
			}
			if (script)
				break;
			continue;
		}
		if (i + 1 >= c->argc)
			break;
		if ((lang == LANG_SH && strchr(w->s, 'c') != NULL &&
		    w->s[1] != '-') || (lang == LANG_PYTHON &&
		    strcmp(w->s, "-c") == 0) || (lang == LANG_JS &&
		    (strcmp(w->s, "-e") == 0 || strcmp(w->s, "--eval") == 0 ||
		    strcmp(w->s, "-p") == 0 || strcmp(w->s, "--print") == 0)) ||
		    (lang == LANG_POWERSHELL && (strcasecmp(w->s, "-c") == 0 ||
		    strncasecmp(w->s, "-command", w->len) == 0)) ||
		    (lang == LANG_TEXT && strcmp(w->s, "-e") == 0)) {
			code = &c->argv[++i];
			break;
		}
		if (lang == LANG_POWERSHELL && w->len >= 2 &&
		    (strncasecmp(w->s, "-encodedcommand", w->len) == 0 ||
		    strcasecmp(w->s, "-enc") == 0 || strcasecmp(w->s, "-e") ==
		    0 || strcasecmp(w->s, "-ec") == 0)) {
			code = &c->argv[++i];
			enc = 1;
			break;
		}
		if (lang == LANG_POWERSHELL && (strcasecmp(w->s, "-file") == 0 ||
		    strcasecmp(w->s, "-f") == 0)) {
			bundled(sh, c, c->argv[i + 1].s);
			return;
		}
	}
	if (code != NULL && strcmp(code->s, "/dev/fd/63") == 0) {
		in |= code->taint;
		code = NULL;
		script = 0;
	}
	if (code == NULL && !script) {
		/* runs what comes in on stdin (or a here-document) */
		if (in & T_NET) {
			sh_emit(sh, "code-fetch-exec", c);
			if (in & T_INSECURE)
				sh_emit(sh, "code-safety-off", c);
		}
		if (in & T_DECODE)
			sh_emit(sh, "code-decode-exec", c);
		else if (in & T_OBF)
			sh_emit(sh, "code-obfuscated", c);
		if (c->hd != NULL && lang != LANG_TEXT && sh->b->nest <
		    CS_NEST_MAX) {
			sh->b->nest++;
			cs_analyse(sh->b, c->hd, c->hdlen, lang, c->hdline);
			sh->b->nest--;
		}
		return;
	}
	if (code == NULL)
		return;
	if (code->taint & T_NET)
		sh_emit(sh, "code-fetch-exec", c);
	if (code->taint & T_DECODE)
		sh_emit(sh, "code-decode-exec", c);
	else if (code->taint & T_OBF)
		sh_emit(sh, "code-obfuscated", c);
	if (enc) {
		cs_ps_encoded(sh->b, code->s, code->len, c->line);
		return;
	}
	if (lang != LANG_TEXT && sh->b->nest < CS_NEST_MAX) {
		int		 saved = sh->b->fixed_line;
		const char	*src = code->s;
		size_t		 srclen = code->len;

		/*
		 * a program longer than a word keeps: read it in the source
		 * (a literal only: "$CODE" is read as what it expands to)
		 */
		if (code->len + 1 >= W_MAX && code->nvars == 0 &&
		    code->to > code->from + 2) {
			src = sh->t + code->from;
			srclen = code->to - code->from;
			if ((src[0] == '"' || src[0] == '\'') &&
			    src[srclen - 1] == src[0])
				src++, srclen -= 2;
		}
		sh->b->nest++;
		/* $'...' escapes make lines the file does not have */
		if (saved == 0)
			sh->b->fixed_line = c->line;
		cs_analyse(sh->b, src, srclen, lang, c->line);
		sh->b->fixed_line = saved;
		sh->b->nest--;
	}
}

static void
do_install(struct sh *sh, struct sh_cmd *c, const char *name, size_t a0)
{
	size_t		 i;
	int		 inst = 0, cfg = 0;
	struct sh_word	*w;
	const char	*v;
	int		 direct;

	for (i = a0 + 1; i < c->argc; i++) {
		w = &c->argv[i];
		direct = 0;
		if (weq(w, "install") || weq(w, "i") || weq(w, "add") ||
		    weq(w, "get") || weq(w, "tap"))
			inst = 1;
		if (weq(w, "config") || weq(w, "set"))
			cfg = 1;
		if (wpre(w, "--trusted-host") || (cfg && (strstr(w->s,
		    "strict-ssl") != NULL || strstr(w->s, "trusted-host"))))
			sh_emit(sh, "code-safety-off", c);
		v = NULL;
		if (wpre(w, "--index-url") || wpre(w, "--extra-index-url") ||
		    wpre(w, "--registry") || wpre(w, "--source") ||
		    wpre(w, "--index") || weq(w, "-i") || weq(w, "-s") ||
		    wpre(w, "--git") || wpre(w, "--find-links") ||
		    weq(w, "-f")) {
			v = strchr(w->s, '=') != NULL ? strchr(w->s, '=') + 1 :
			    (i + 1 < c->argc ? c->argv[i + 1].s : NULL);
			direct = wpre(w, "--git");
		} else if ((inst || cfg) && (cs_is_url(w->s, w->len) ||
		    wpre(w, "git+"))) {
			v = w->s;
			direct = inst;
		}
		if (v == NULL || (!inst && !cfg))
			continue;
		if (strstr(v, "pypi.org") != NULL || strstr(v,
		    "registry.npmjs.org") != NULL || strstr(v,
		    "registry.yarnpkg.com") != NULL || strstr(v,
		    "rubygems.org") != NULL || strstr(v, "crates.io") != NULL)
			continue;
		if (!cs_is_url(v, strlen(v)) && strncmp(v, "git+", 4) != 0)
			continue;
		{
			struct sh_word	 u;

			wclear(&u);
			wadd(&u, v, strlen(v));
			note_host(sh, &u);
		}
		(void)name;
		sh_emit(sh, "code-install-url", c);
		/* a package file or repository on a site that is no forge */
		if (direct && cs_host_kind(v, strlen(v)) == 2 &&
		    !cs_forge_host(v, strlen(v)))
			sh_emit(sh, "code-install-offsite", c);
		return;
	}
}

static int
wide_args(const struct sh_cmd *c, size_t a0, int *recursive)
{
	size_t	 i;
	int	 wide = 0;

	*recursive = 0;
	for (i = a0 + 1; i < c->argc; i++) {
		const struct sh_word	*w = &c->argv[i];

		if (w->s[0] == '-' && w->s[1] != '-' && (strchr(w->s, 'r') ||
		    strchr(w->s, 'R')))
			*recursive = 1;
		else if (weq(w, "--recursive"))
			*recursive = 1;
		else if (weq(w, "--no-preserve-root"))
			wide = 1;
		else if (w->s[0] != '-' && cs_wide_target(w->s, w->len))
			wide = 1;
	}
	return wide;
}

static int
remote_arg(const struct sh_cmd *c, size_t a0)
{
	size_t	 i;
	char	*col;

	for (i = a0 + 1; i < c->argc; i++) {
		col = strchr(c->argv[i].s, ':');
		if (c->argv[i].s[0] != '-' && col != NULL && col != c->argv[i].s
		    && col[1] != '/' && strchr(c->argv[i].s, '@') != NULL)
			return 1;
	}
	return 0;
}

static unsigned
do_readers(struct sh *sh, struct sh_cmd *c, const char *name, size_t a0,
    unsigned in)
{
	unsigned	 out = in;
	size_t		 i;
	int		 decode = 0;
	struct sh_word	*w;
	int		 b64 = name_is(name, "base64") ||
			    name_is(name, "openssl");
	int		 xxd = name_is(name, "xxd");
	int		 cp = name_is(name, "cp"), dd = name_is(name, "dd");
	int		 filter = name_is(name, "grep") ||
			    name_is(name, "sed") || name_is(name, "awk") ||
			    name_is(name, "jq");

	if (name_is(name, "grep") || name_is(name, "rg"))
		for (i = a0 + 1; i < c->argc; i++)
			if (c->argv[i].s[0] == '-' && c->argv[i].s[1] != '-' &&
			    strpbrk(c->argv[i].s, "qcl") != NULL)
				return 0;
	for (i = a0 + 1; i < c->argc; i++) {
		w = &c->argv[i];
		if (w->s[0] == '-') {
			if ((b64 && (weq(w, "-d") || weq(w, "-D") ||
			    weq(w, "--decode"))) || (xxd &&
			    (weq(w, "-r") || weq(w, "-p") || weq(w, "-rp") ||
			    weq(w, "-r -p"))))
				decode = 1;
			continue;
		}
		out |= w->taint;
		if (cp && i + 1 == c->argc && i > a0 + 1) {
			write_target(sh, c, w, 0);
			file_set(sh, w->s, out);
			continue;
		}
		if (dd) {
			if (wpre(w, "of=/dev/sd") || wpre(w, "of=/dev/nvme") ||
			    wpre(w, "of=/dev/disk") || wpre(w, "of=/dev/hd"))
				sh_emit(sh, "code-destroy", c);
			continue;
		}
		if (cs_cred_path(w->s, w->len) ||
		    strncmp(w->s, "/proc/", 6) == 0 || file_taint(sh, w->s))
			out |= read_path(sh, c, w);
		else if (!filter)
			out |= T_FILE;
	}
	if (decode)
		out |= T_DECODE;
	if (decode) {
		sh->b->flags |= B_DECODE;
		if (sh->b->decode_line == 0)
			sh->b->decode_line = c->line;
	}
	if (name_is(name, "find")) {
		int	 rec;

		for (i = a0 + 1; i < c->argc; i++)
			if (weq(&c->argv[i], "-delete") ||
			    weq(&c->argv[i], "rm"))
				break;
		if (i < c->argc && wide_args(c, a0, &rec))
			sh_emit(sh, "code-destroy", c);
	}
	return out;
}

/* printf '\x63\x75...' and echo -e: escapes spelled out are a payload. */
static unsigned
do_echo(struct sh *sh, struct sh_cmd *c, size_t a0)
{
	unsigned	 out = 0;
	size_t		 i, j, o;
	char		 buf[W_MAX];
	struct sh_word	*w;

	for (i = a0 + 1; i < c->argc; i++) {
		w = &c->argv[i];
		out |= w->taint;
		if (w->secret)
			out |= T_CRED;
		if (strstr(w->s, "\\x") == NULL)
			continue;
		for (j = 0, o = 0; j < w->len && o + 1 < sizeof buf; j++) {
			if (w->s[j] == '\\' && w->s[j + 1] == 'x' &&
			    isxdigit((unsigned char)w->s[j + 2]) &&
			    isxdigit((unsigned char)w->s[j + 3])) {
				char	 hx[3] = { w->s[j + 2], w->s[j + 3], 0 };

				buf[o++] = (char)strtol(hx, NULL, 16);
				j += 3;
			} else
				buf[o++] = w->s[j];
		}
		if (o * 2 < w->len) {
			out |= T_OBF;
			cs_payload(sh->b, buf, o, "hex escapes", c->line,
			    LANG_SH);
		}
	}
	return out;
}

static int
has_word(const struct sh_cmd *c, size_t a0, const char *s)
{
	size_t	 i;

	for (i = a0 + 1; i < c->argc; i++)
		if (c->argv[i].s[0] == s[0] && strcmp(c->argv[i].s, s) == 0)
			return 1;
	return 0;
}

static void
any_word(struct sh *sh, struct sh_cmd *c)
{
	static const char *const off[] = { "--dangerously-skip-permissions",
	    "--dangerously-bypass-approvals-and-sandbox", "--no-verify",
	    "--allow-dangerously-skip-permissions", "--yolo",
	    "--disable-sandbox", "--no-sandbox", "--trust-all-tools", NULL };
	char		 buf[2048];
	const char	*kind;
	size_t		 i, n;
	struct sh_word	*w;

	for (i = 0; i < c->argc; i++) {
		w = &c->argv[i];
		if (i > 0 && w->len >= 5 && w->s[0] == '-' && in_list(w->s, off))
			sh_emit(sh, "code-safety-off", c);
		if (w->len >= 20 && w->s[0] != '-' && !cs_is_url(w->s, w->len) &&
		    strchr(w->s, ' ') == NULL && (n = cs_decode(w->s, w->len,
		    buf, sizeof buf, 0, 0, &kind)) > 0) {
			w->taint |= T_OBF;
			cs_payload(sh->b, buf, n, kind, c->line, LANG_SH);
		}
	}
}

static int
safety_assign(const struct sh_word *w)
{
	static const char *const v[] = { "NODE_TLS_REJECT_UNAUTHORIZED=0",
	    "GIT_SSL_NO_VERIFY=", "PYTHONHTTPSVERIFY=0", "HISTFILE=",
	    "HISTSIZE=0", "HISTFILESIZE=0", "PIP_TRUSTED_HOST=",
	    "npm_config_strict_ssl=false", "CURL_SSL_NO_VERIFY", NULL };
	const char *const *p;

	for (p = v; *p != NULL; p++)
		if (strncmp(w->s, *p, strlen(*p)) == 0 &&
		    (strcmp(*p, "HISTFILE=") != 0 || w->len == 9 ||
		    strcmp(w->s, "HISTFILE=/dev/null") == 0))
			return 1;
	return 0;
}

/* Evaluates one command; returns what its standard output carries. */
unsigned
sh_eval(struct sh *sh, struct sh_cmd *c, unsigned in)
{
	size_t		 a0 = 0, i;
	const char	*name;
	enum code_lang	 lang;
	unsigned	 out = 0;
	int		 rec, fetch;
	struct sh_word	*w;
	const struct cmd_info *e = NULL;

	any_word(sh, c);
	in |= c->hdtaint;
	/* for f in ~/.ssh/id_* .env; do ... "$f": the loop variable */
	if (c->argc >= 3 && weq(&c->argv[0], "for") &&
	    weq(&c->argv[2], "in")) {
		unsigned	 t = 0;

		for (i = 3; i < c->argc; i++) {
			t |= c->argv[i].taint;
			if (cs_cred_path(c->argv[i].s, c->argv[i].len))
				t |= read_path(sh, c, &c->argv[i]);
		}
		var_set(sh->vars, c->argv[1].s, c->argv[1].len,
		    c->argc > 3 ? c->argv[3].s : "", t);
		return 0;
	}
	for (i = 0; i < c->nredir; i++) {
		struct sh_redir	*r = &c->redir[i];

		if (r->op[0] == '<' && r->op[1] == '\0')
			in |= read_path(sh, c, &r->w);
		else if (strcmp(r->op, "<<<") == 0)
			in |= r->w.taint | (r->w.secret ? T_CRED : 0);
	}
	/* assignments and wrappers before the command */
	while (a0 < c->argc) {
		w = &c->argv[a0];
		if (w->assigned) {
			if (safety_assign(w))
				sh_emit(sh, "code-safety-off", c);
			var_set(sh->vars, w->s, (size_t)w->assigned - 1,
			    w->s + w->assigned, w->taint);
			if (strncmp(w->s, "PIP_INDEX_URL=", 14) == 0 ||
			    strncmp(w->s, "NPM_CONFIG_REGISTRY=", 20) == 0 ||
			    strncmp(w->s, "npm_config_registry=", 20) == 0)
				sh_emit(sh, "code-install-url", c);
			a0++;
			continue;
		}
		name = base_name(w->s);
		e = cmd_lookup(name);
		if (e != NULL && (e->flags & C_WRAPPER)) {
			if (name_is(name, "env") && a0 + 1 == c->argc)
				break;
			if ((name_is(name, "export") || strcmp(name,
			    "declare") == 0) && a0 + 1 < c->argc &&
			    c->argv[a0 + 1].s[0] == '-' &&
			    strchr("px", c->argv[a0 + 1].s[1]) != NULL)
				return T_ENV;
			if (name_is(name, "xargs"))
				in = 0;
			a0++;
			while (a0 < c->argc && c->argv[a0].s[0] == '-') {
				/* sudo -u user, nice -n 10, timeout 5 */
				if (c->argv[a0].len == 2 && strchr("unCgpth",
				    c->argv[a0].s[1]) != NULL)
					a0++;
				a0++;
			}
			if (name_is(name, "timeout") && a0 < c->argc)
				a0++;
			continue;
		}
		break;
	}
	for (i = 0; i < c->nredir; i++)
		if (c->redir[i].op[0] == '>' || c->redir[i].op[0] == '&')
			write_target(sh, c, &c->redir[i].w, 0);
	if (a0 >= c->argc)
		return in;
	/* the loop above broke at this word, e its entry */
	w = &c->argv[a0];
	name = base_name(w->s);
	lang = interp_lang_of(e, name);
	fetch = e != NULL && (e->flags & C_FETCH);
	if ((w->taint & T_OBF) || (w->nvars > 0 && w->pieces >= 2 &&
	    (fetch || (int)lang >= 0 ||
	    name_is(name, "eval") || name_is(name, "base64") ||
	    name_is(name, "nc") || name_is(name, "rm"))))
		sh_emit(sh, "code-obfuscated", c);
	if (!cmd_known(e, name) && strchr(w->s, '/') == NULL)
		;	/* a command we know nothing about */
	else if (fetch)
		out = do_fetch(sh, c, name, a0, in);
	else if ((int)lang >= 0)
		do_interp(sh, c, a0, lang, in);
	else if (name_is(name, "eval") || name_is(name, "iex") ||
	    name_is(name, "Invoke-Expression")) {
		struct sh_word	 j;

		wclear(&j);
		for (i = a0 + 1; i < c->argc; i++) {
			wadd(&j, c->argv[i].s, c->argv[i].len);
			wadd(&j, " ", 1);
			j.taint |= c->argv[i].taint;
			j.nvars += c->argv[i].nvars;
		}
		if (j.taint & T_NET)
			sh_emit(sh, "code-fetch-exec", c);
		if ((j.taint | in) & T_DECODE)
			sh_emit(sh, "code-decode-exec", c);
		else if (j.taint & T_OBF)
			sh_emit(sh, "code-obfuscated", c);
		sh->b->flags |= B_EXEC;
		if (sh->b->nest < CS_NEST_MAX) {
			int	 saved = sh->b->fixed_line;

			sh->b->nest++;
			if (saved == 0)
				sh->b->fixed_line = c->line;
			cs_analyse(sh->b, j.s, j.len, LANG_SH, c->line);
			sh->b->fixed_line = saved;
			sh->b->nest--;
		}
	} else if (name_is(name, "source") || name_is(name, ".")) {
		if (a0 + 1 < c->argc) {
			w = &c->argv[a0 + 1];
			if ((w->taint & T_NET) || is_dl(sh, w->s) ||
			    cs_is_url(w->s, w->len))
				sh_emit(sh, "code-fetch-exec", c);
			else if (w->taint & T_DECODE)
				sh_emit(sh, "code-decode-exec", c);
			else if (strstr(w->s, ".env") == NULL)
				bundled(sh, c, w->s);
		}
	} else if (strchr(w->s, '/') != NULL && w->s[0] != '$') {
		if (is_dl(sh, w->s)) {
			sh->b->flags |= B_FETCH;
			sh_emit(sh, "code-fetch-exec", c);
		} else if (wpre(w, "./") || script_name(w->s))
			bundled(sh, c, w->s);
	} else if (e != NULL && (e->flags & C_READER))
		out = do_readers(sh, c, name, a0, in);
	else if (name_is(name, "echo") || name_is(name, "printf"))
		out = do_echo(sh, c, a0);
	else if (name_is(name, "env") || name_is(name, "printenv") ||
	    (name_is(name, "set") && a0 + 1 == c->argc) ||
	    name_is(name, "compgen")) {
		if (a0 + 1 == c->argc || c->argv[a0 + 1].s[0] == '-') {
			sh->b->flags |= B_ENV;
			if (sh->b->env_line == 0)
				sh->b->env_line = c->line;
			out = T_ENV;
		}
	} else if (name_is(name, "tee")) {
		for (i = a0 + 1; i < c->argc; i++)
			if (c->argv[i].s[0] != '-') {
				write_target(sh, c, &c->argv[i], in);
				file_set(sh, c->argv[i].s, in);
			}
		out = in;
	} else if (mailer(name)) {
		do_mail(sh, c, a0, in);
	} else if (name_is(name, "nc") || name_is(name, "ncat") ||
	    name_is(name, "netcat") || name_is(name, "socat") ||
	    name_is(name, "telnet")) {
		for (i = a0 + 1; i < c->argc; i++)
			note_host(sh, &c->argv[i]);
		if (in != 0 || sh->piped || has_word(c, a0, "-e") ||
		    has_word(c, a0, "-c"))
			flag_send(sh, c, in | T_FILE, name);
		sh->b->flags |= B_CONCRETE;
	} else if (name_is(name, "ssh") || name_is(name, "scp") ||
	    name_is(name, "rsync") || name_is(name, "sftp")) {
		unsigned	 t = in;

		if (!name_is(name, "ssh"))
			t |= do_readers(sh, c, name, a0, 0);
		if (remote_arg(c, a0) && (t & (T_CRED | T_ENV)))
			flag_send(sh, c, t, name);
		else if (!name_is(name, "ssh") && remote_arg(c, a0) &&
		    wide_args(c, a0, &rec))
			flag_send(sh, c, T_FILE, name);
	} else if (name_is(name, "dig") || name_is(name, "nslookup") ||
	    name_is(name, "host") || name_is(name, "drill")) {
		for (i = a0 + 1; i < c->argc; i++)
			if (c->argv[i].taint & (T_CRED | T_ENV | T_FILE))
				flag_send(sh, c, c->argv[i].taint, name);
	} else if (name_is(name, "gh")) {
		int	 gist = has_word(c, a0, "gist");

		for (i = a0 + 1; i < c->argc; i++)
			if (gist && cs_cred_path(c->argv[i].s, c->argv[i].len))
				flag_send(sh, c, read_path(sh, c,
				    &c->argv[i]), name);
	} else if (name_is(name, "mv") || name_is(name, "unlink")) {
		sh->b->flags |= B_DELETE;
		if (sh->b->delete_line == 0)
			sh->b->delete_line = c->line;
	} else if (name_is(name, "rm") || name_is(name, "chmod") ||
	    name_is(name, "chown") || name_is(name, "shred")) {
		if (name[0] == 'r' || name[1] == 'h') {
			sh->b->flags |= B_DELETE;
			if (sh->b->delete_line == 0)
				sh->b->delete_line = c->line;
		}
		if (wide_args(c, a0, &rec) && (rec || !name_is(name, "rm") ||
		    has_word(c, a0, "--no-preserve-root")))
			sh_emit(sh, "code-destroy", c);
	} else if (strncmp(name, "mkfs", 4) == 0 || name_is(name, "wipefs")
	    || name_is(name, "fdisk") || (name_is(name, "diskutil") &&
	    has_word(c, a0, "eraseDisk")))
		sh_emit(sh, "code-destroy", c);
	else if (name_is(name, "git")) {
		if (has_word(c, a0, "push") && (has_word(c, a0, "--force") ||
		    has_word(c, a0, "-f")) && (has_word(c, a0, "main") ||
		    has_word(c, a0, "master") || has_word(c, a0, "origin")))
			sh_emit(sh, "code-destroy", c);
		if (has_word(c, a0, "push") && has_word(c, a0, "--mirror")) {
			for (i = a0 + 1; i < c->argc; i++)
				note_host(sh, &c->argv[i]);
			flag_send(sh, c, T_FILE, name);
		}
		if (has_word(c, a0, "config") && (has_word(c, a0,
		    "http.sslVerify") || has_word(c, a0, "http.sslverify")) &&
		    has_word(c, a0, "false"))
			sh_emit(sh, "code-safety-off", c);
	} else if (strncmp(name, "pip", 3) == 0 || name_is(name, "uv") ||
	    name_is(name, "npm") || name_is(name, "pnpm") ||
	    name_is(name, "yarn") || name_is(name, "bun") ||
	    name_is(name, "npx") || name_is(name, "gem") ||
	    name_is(name, "cargo") || name_is(name, "go") ||
	    name_is(name, "brew") || name_is(name, "poetry") ||
	    name_is(name, "easy_install"))
		do_install(sh, c, name, a0);
	else if (name_is(name, "crontab")) {
		if (!(c->argc == a0 + 2 && weq(&c->argv[a0 + 1], "-l")))
			sh_emit(sh, "code-persist", c);
		else
			out = T_FILE;
	} else if (name_is(name, "launchctl") || strcmp(name, "systemctl")
	    == 0 || name_is(name, "schtasks")) {
		if (has_word(c, a0, "load") || has_word(c, a0, "bootstrap") ||
		    has_word(c, a0, "enable") || has_word(c, a0, "/create"))
			sh_emit(sh, "code-persist", c);
		if (has_word(c, a0, "stop") || has_word(c, a0, "disable"))
			for (i = a0 + 1; i < c->argc; i++)
				if (strstr(c->argv[i].s, "firewall") ||
				    strstr(c->argv[i].s, "apparmor") ||
				    strstr(c->argv[i].s, "auditd"))
					sh_emit(sh, "code-safety-off", c);
	} else if (name_is(name, "security")) {
		for (i = a0 + 1; i < c->argc; i++)
			if (wpre(&c->argv[i], "find-generic-password") ||
			    wpre(&c->argv[i], "find-internet-password") ||
			    wpre(&c->argv[i], "dump-keychain")) {
				sh->b->flags |= B_CRED | B_CONCRETE;
				sh_emit(sh, "code-cred-read", c);
				out = T_CRED;
			}
	} else if (name_is(name, "unset") || name_is(name, "history") ||
	    name_is(name, "setenforce") || name_is(name, "ufw") ||
	    name_is(name, "spctl") || name_is(name, "csrutil") ||
	    name_is(name, "set")) {
		if ((name_is(name, "unset") && has_word(c, a0, "HISTFILE")) ||
		    (name_is(name, "history") && has_word(c, a0, "-c")) ||
		    (name_is(name, "set") && has_word(c, a0, "+o") &&
		    has_word(c, a0, "history")) ||
		    (name_is(name, "setenforce") && has_word(c, a0, "0")) ||
		    has_word(c, a0, "disable") || has_word(c, a0,
		    "--master-disable"))
			sh_emit(sh, "code-safety-off", c);
	} else if (name_is(name, "unzip") || name_is(name, "7z") ||
	    name_is(name, "7za") || name_is(name, "unrar")) {
		for (i = a0 + 1; i < c->argc; i++)
			if (weq(&c->argv[i], "-P") || (wpre(&c->argv[i], "-p") &&
			    c->argv[i].len > 2))
				sh_emit(sh, "code-archive-lure", c);
	} else if (name_is(name, "Invoke-WebRequest") ||
	    name_is(name, "iwr") || name_is(name, "irm")) {
		out = T_NET;
	}
	if (name_is(name, "gpg") && (has_word(c, a0,
	    "--export-secret-keys") || has_word(c, a0, "--export-secret-key"))) {
		sh->b->flags |= B_CRED | B_CONCRETE;
		sh_emit(sh, "code-cred-read", c);
		out |= T_CRED;
	}
	for (i = 0; i < c->nredir; i++) {
		if (c->redir[i].op[0] != '>')
			continue;
		if (out & T_ENV)
			write_target(sh, c, &c->redir[i].w, out);
		file_set(sh, c->redir[i].w.s, out);
	}
	if (c->hd != NULL && (int)lang < 0) {
		enum code_lang	 l = cs_guess(c->hd, c->hdlen);

		if (l != LANG_TEXT && sh->b->nest < CS_NEST_MAX) {
			sh->b->nest++;
			cs_analyse(sh->b, c->hd, c->hdlen, l, c->hdline);
			sh->b->nest--;
		}
	}
	return out;
}

