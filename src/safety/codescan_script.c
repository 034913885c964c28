/*
 * The Python, JavaScript and PowerShell reader of codescan: a token-level
 * pass (identifiers joined by dots, string literals with their prefixes,
 * comments skipped) that finds what the script calls (exec and eval,
 * subprocess and child_process, fetch and post, decoders, file writes),
 * the literals it passes (credential paths, persistence targets, URLs,
 * encoded payloads) and how strings are assembled. Shell commands given
 * to os.system, subprocess or child_process are read by codescan_sh.c.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safety/codescan_impl.h"
#include "base/xmalloc.h"

#define TOK_MAX		(256 * 1024)
#define JOIN_MAX	2048
#define SVARS_MAX	16
#define XKEYS_MAX	4
#define PARAMS_MAX	256
#define LOOPS_MAX	64	/* endless-loop candidates read per script */

enum tk { TK_ID, TK_STR, TK_NUM, TK_PUNCT };

struct tok {
	enum tk		 k;
	unsigned	 off, len;	/* of the text, or the string's body */
	int		 line;
	char		 c;		/* punctuation */
};

struct svar {
	unsigned	 name, namelen;	/* token text */
	char		*val;
	size_t		 len;
	int		 pieces;
};

struct sc {
	struct cs_block	*b;
	const char	*t;
	size_t		 len;
	enum code_lang	 lang;
	int		 line0;		/* line of the text's first line */
	struct tok	*v;
	size_t		 n, cap;
	struct svar	 vars[SVARS_MAX];
	size_t		 nvars;
	int		 xkeys[XKEYS_MAX];
	size_t		 nxkeys;
	int		 persist_line, settings_line, home_line;
	unsigned	 persist_off, settings_off;
	unsigned	 params[PARAMS_MAX];	/* tokens: parameter names */
	size_t		 nparams;
	int		 params_done;
};

/* ---- tokens --------------------------------------------------------- */

static void
push(struct sc *sc, enum tk k, size_t off, size_t len, int line, char c)
{
	struct tok	*t;

	if (sc->n == sc->cap) {
		if (sc->cap >= TOK_MAX)
			return;
		sc->cap = sc->cap ? sc->cap * 2 : 256;
		sc->v = xreallocarray(sc->v, sc->cap, sizeof *sc->v);
	}
	t = &sc->v[sc->n++];
	t->k = k;
	t->off = (unsigned)off;
	t->len = (unsigned)len;
	t->line = line;
	t->c = c;
}

static int
id_char(struct sc *sc, int c)
{
	return isalnum(c) || c == '_' || c == '$' ||
	    (sc->lang == LANG_POWERSHELL && c == '-');
}

/* Reads a string literal whose quote is at t[i]; returns the end. */
static size_t
read_str(struct sc *sc, size_t i, int *line, int raw)
{
	const char	*t = sc->t;
	char		 q = t[i];
	int		 triple = 0, ln = *line;
	size_t		 s, e;

	if (sc->lang == LANG_PYTHON && i + 2 < sc->len && t[i + 1] == q &&
	    t[i + 2] == q)
		triple = 1;
	s = i + (triple ? 3 : 1);
	for (e = s; e < sc->len; e++) {
		if (t[e] == '\n') {
			if (!triple && q != '`' && sc->lang != LANG_POWERSHELL)
				break;
			(*line)++;
		}
		if (!raw && ((t[e] == '\\' && sc->lang != LANG_POWERSHELL) ||
		    (t[e] == '`' && sc->lang == LANG_POWERSHELL && q == '"'))) {
			if (e + 1 < sc->len && t[e + 1] == '\n')
				(*line)++;
			e++;
			continue;
		}
		if (t[e] != q)
			continue;
		if (sc->lang == LANG_POWERSHELL && e + 1 < sc->len &&
		    t[e + 1] == q) {
			e++;
			continue;
		}
		if (!triple || (e + 2 < sc->len && t[e + 1] == q &&
		    t[e + 2] == q))
			break;
	}
	push(sc, TK_STR, s, (e < sc->len ? e : sc->len) - s, ln, q);
	if (e >= sc->len)
		return sc->len;
	return e + (triple ? 3 : 1);
}

static void
tokenize(struct sc *sc, int line)
{
	const char	*t = sc->t;
	size_t		 i = 0, j;
	int		 c;

	while (i < sc->len) {
		c = (unsigned char)t[i];
		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (isspace(c)) {
			i++;
			continue;
		}
		if ((c == '#' && sc->lang != LANG_JS) || (c == '/' &&
		    sc->lang == LANG_JS && i + 1 < sc->len && t[i + 1] == '/')) {
			if (sc->lang == LANG_POWERSHELL && i > 0 && t[i - 1] == '<')
				;
			else {
				while (i < sc->len && t[i] != '\n')
					i++;
				continue;
			}
		}
		if ((c == '/' && sc->lang == LANG_JS && i + 1 < sc->len &&
		    t[i + 1] == '*') || (c == '<' && sc->lang ==
		    LANG_POWERSHELL && i + 1 < sc->len && t[i + 1] == '#')) {
			const char	*e = memmem(t + i + 2, sc->len - i - 2,
			    c == '/' ? "*/" : "#>", 2);
			size_t		 end = e != NULL ? (size_t)(e - t) + 2 :
			    sc->len;

			for (; i < end; i++)
				if (t[i] == '\n')
					line++;
			continue;
		}
		if (c == '@' && sc->lang == LANG_POWERSHELL && i + 1 < sc->len &&
		    (t[i + 1] == '"' || t[i + 1] == '\'')) {
			char		 end[3] = { t[i + 1], '@', 0 };
			const char	*e = memmem(t + i + 2, sc->len - i - 2,
			    end, 2);
			size_t		 s = i + 2, k;

			k = e != NULL ? (size_t)(e - t) : sc->len;
			push(sc, TK_STR, s, k - s, line, '@');
			for (; i < k; i++)
				if (t[i] == '\n')
					line++;
			i = e != NULL ? k + 2 : sc->len;
			continue;
		}
		if (c == '"' || c == '\'' || (c == '`' && sc->lang == LANG_JS)) {
			i = read_str(sc, i, &line, 0);
			continue;
		}
		if (isdigit(c)) {
			for (j = i; j < sc->len && (isalnum((unsigned char)t[j]) ||
			    t[j] == '.'); j++)
				;
			push(sc, TK_NUM, i, j - i, line, 0);
			i = j;
			continue;
		}
		if (id_char(sc, c) || (c == '-' && sc->lang == LANG_POWERSHELL &&
		    i + 1 < sc->len && isalpha((unsigned char)t[i + 1])) ||
		    (c == '[' && sc->lang == LANG_POWERSHELL && i + 1 < sc->len &&
		    isalpha((unsigned char)t[i + 1]))) {
			/* a dotted name: os.path.join, [Convert]::FromBase64 */
			j = i + 1;
			for (;;) {
				while (j < sc->len && (id_char(sc,
				    (unsigned char)t[j]) || (t[j] == ']' &&
				    sc->lang == LANG_POWERSHELL)))
					j++;
				if (j + 1 < sc->len && t[j] == '.' &&
				    (isalpha((unsigned char)t[j + 1]) ||
				    t[j + 1] == '_'))
					j++;
				else if (j + 2 < sc->len && t[j] == ':' &&
				    t[j + 1] == ':')
					j += 2;
				else
					break;
			}
			/* Python string prefixes: r"", b'', f"", rb"" */
			if (sc->lang == LANG_PYTHON && j - i <= 2 && j < sc->len &&
			    (t[j] == '"' || t[j] == '\'') &&
			    strspn(t + i, "rRbBfFuU") >= j - i) {
				i = read_str(sc, j, &line, memchr(t + i, 'r',
				    j - i) != NULL || memchr(t + i, 'R', j - i));
				continue;
			}
			push(sc, TK_ID, i, j - i, line, 0);
			i = j;
			continue;
		}
		push(sc, TK_PUNCT, i, 1, line, (char)c);
		i++;
	}
}

/* The value of a number token (decimal, 0x hex); -1 when not one. */
static long
num_val(struct sc *sc, const struct tok *t)
{
	const char	*s = sc->t + t->off;
	size_t		 i = 0, n = t->len;
	long		 v = 0;
	int		 base = 10, d;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (n - i > 8 || i == n)
		return -1;
	for (; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			d = s[i] - '0';
		else if (base == 16 && isxdigit((unsigned char)s[i]))
			d = tolower((unsigned char)s[i]) - 'a' + 10;
		else
			return -1;
		v = v * base + d;
	}
	return v;
}

/* ---- names ---------------------------------------------------------- */

static inline int
tok_is(struct sc *sc, const struct tok *t, const char *s)
{
	size_t	 n = strlen(s);

	if (t->k != TK_ID || t->len != n)
		return 0;
	return sc->lang == LANG_POWERSHELL ?
	    strncasecmp(sc->t + t->off, s, n) == 0 :
	    strncmp(sc->t + t->off, s, n) == 0;
}

/* Does the name end with ".s" or equal s? */
static inline int
tok_ends(struct sc *sc, const struct tok *t, const char *s)
{
	size_t	 n = strlen(s);
	const char *p;

	if (t->k != TK_ID || t->len < n)
		return 0;
	p = sc->t + t->off + t->len - n;
	if (sc->lang == LANG_POWERSHELL ? strncasecmp(p, s, n) != 0 :
	    strncmp(p, s, n) != 0)
		return 0;
	return t->len == n || p[-1] == '.' || p[-1] == ':' || p[-1] == ']';
}

static int	 list_may_hold(const char *const *, const char *, size_t,
		    int);

static int
tok_in(struct sc *sc, const struct tok *t, const char *const *v)
{
	const char	*s = sc->t + t->off, *p = s + t->len;
	size_t		 ln;

	if (t->k != TK_ID)
		return 0;
	/* compare the last components first: the lists hold few of each */
	while (p > s && p[-1] != '.' && p[-1] != ':' && p[-1] != ']')
		p--;
	ln = (size_t)(s + t->len - p);
	if (!list_may_hold(v, p, ln, 0))
		return 0;
	for (; *v != NULL; v++) {
		size_t		 vl = strlen(*v);
		const char	*q = *v + vl - ln;

		/*
		 * p holds no '.': it matches the entry's last component when
		 * it matches its last ln bytes, after a '.' or from the start
		 */
		if (vl >= ln && (vl == ln || q[-1] == '.') && (ln == 0 ||
		    tolower((unsigned char)q[0]) == tolower((unsigned char)p[0]))
		    && strncasecmp(q, p, ln) == 0 && tok_ends(sc, t, *v))
			return 1;
	}
	return 0;
}

static int
tok_one_of(struct sc *sc, const struct tok *t, const char *const *v)
{
	if (t->k != TK_ID || !list_may_hold(v, sc->t + t->off, t->len, 1))
		return 0;
	for (; *v != NULL; v++)
		if (tok_is(sc, t, *v))
			return 1;
	return 0;
}

/* matched whole: re.compile and regex.exec are not sinks */
static const char *const code_sinks[] = { "exec", "eval", "compile",
	"Function", "vm.runInThisContext", "vm.runInNewContext",
	"vm.runInContext", "Invoke-Expression", "iex", "Invoke-Command",
	"execScript", "builtins.exec", "builtins.eval", NULL };
static const char *const shell_sinks[] = { "os.system", "os.popen",
	"subprocess.run", "subprocess.call", "subprocess.Popen",
	"subprocess.check_output", "subprocess.check_call",
	"subprocess.getoutput", "subprocess.getstatusoutput",
	"commands.getoutput", "execSync", "spawnSync", "execFile",
	"execFileSync", "child_process.exec", "child_process.spawn",
	"cp.exec", "cp.execSync", "pty.spawn", "Start-Process", "shell_exec",
	"system", "popen", "Popen", "check_output", "getoutput", NULL };
static const char *const fetch_calls[] = { "requests.get", "urlopen",
	"urlretrieve", "httpx.get", "wget.download", "fetch", "axios.get",
	"http.get", "https.get", "got", "Invoke-WebRequest", "iwr",
	"Invoke-RestMethod", "irm", "DownloadString", "DownloadFile",
	"DownloadData", "Start-BitsTransfer", "requests.request", NULL };
static const char *const send_calls[] = { "post", "put", "patch",
	"sendall", "sendto", "sendmail", "send_message", "storbinary",
	"upload_file", "sendBeacon", "UploadString", "UploadFile",
	"UploadData", "UploadValues", "Send-MailMessage", "http.request",
	"https.request", "net.connect", "createConnection", "TcpClient",
	NULL };
static const char *const decode_calls[] = { "b64decode", "b32decode",
	"b16decode", "b85decode", "a85decode", "urlsafe_b64decode",
	"decodebytes", "decodestring", "fromhex", "unhexlify", "a2b_base64",
	"a2b_hex", "codecs.decode", "zlib.decompress", "gzip.decompress",
	"lzma.decompress", "marshal.loads", "atob", "fromCharCode",
	"FromBase64String", "unescape", "chr", NULL };
static const char *const write_calls[] = { "write_text", "write_bytes",
	"writeFileSync", "writeFile", "appendFileSync", "appendFile",
	"Add-Content", "Set-Content", "Out-File", "copyfile", "copy2",
	"copyFileSync", "createWriteStream", "symlink", "write", NULL };
/* last components: os.remove, shutil.rmtree, fs.unlinkSync, Path.unlink */
static const char *const delete_calls[] = { "os.remove", "os.unlink",
	"unlink", "rmtree", "shutil.move", "os.rename", "os.replace",
	"os.rmdir", "os.removedirs", "unlinkSync", "rmSync", "rmdirSync",
	"renameSync", "fs.rm", "fs.unlink", "fs.rename", "Remove-Item",
	"Move-Item", "Rename-Item", NULL };
static const char *const home_calls[] = { "expanduser", "Path.home",
	"homedir", "os.homedir", "$HOME", "$env:USERPROFILE", "$env:HOME",
	"USERPROFILE", NULL };
static const char *const walk_calls[] = { "os.walk", "glob", "rglob",
	"readdirSync", "readdir", "Get-ChildItem", "gci", "listdir",
	"scandir", "iterdir", NULL };

/*
 * A filter per list of names, so that most tok_in() and tok_one_of()
 * calls end without reading the list: the set of keys (length, first and
 * last byte) of its entries' last components and of its whole entries.
 * A name whose key is not in the set matches no entry. Built once, on
 * first use (pthread_once: codescan is thread-safe).
 */
struct list_ix {
	const char *const *v;
	uint64_t	 last[4], whole[4];
};

static struct list_ix list_ixs[] = {
	{ code_sinks, { 0 }, { 0 } }, { shell_sinks, { 0 }, { 0 } },
	{ fetch_calls, { 0 }, { 0 } }, { send_calls, { 0 }, { 0 } },
	{ decode_calls, { 0 }, { 0 } }, { write_calls, { 0 }, { 0 } },
	{ delete_calls, { 0 }, { 0 } }, { home_calls, { 0 }, { 0 } },
	{ walk_calls, { 0 }, { 0 } },
};
static pthread_once_t list_once = PTHREAD_ONCE_INIT;

/*
 * The key of name s (n bytes): its length and its first and last bytes,
 * ASCII letters folded to lower case; -1 when one of those bytes is not
 * ASCII (a locale's case rules may fold it to a letter: no filtering).
 */
static int
name_key(const char *s, size_t n)
{
	unsigned	 a, z;

	if (n == 0)
		return 0;
	a = (unsigned char)s[0];
	z = (unsigned char)s[n - 1];
	if (a >= 0x80 || z >= 0x80)
		return -1;
	if (a >= 'A' && a <= 'Z')
		a += 'a' - 'A';
	if (z >= 'A' && z <= 'Z')
		z += 'a' - 'A';
	return (int)(((unsigned)n * 37u + a * 7u + z) & 255u);
}

static void
key_add(uint64_t set[4], int k)
{
	if (k < 0)
		memset(set, 0xff, 4 * sizeof set[0]);
	else
		set[k >> 6] |= 1ull << (k & 63);
}

static uint64_t	 worth_keys[4];	/* keys of worth[] (below) */
static void	 worth_ix_init(void);

static void
list_ix_init(void)
{
	struct list_ix	*x;
	const char *const *v, *q;

	for (x = list_ixs; x < list_ixs + sizeof list_ixs /
	    sizeof list_ixs[0]; x++)
		for (v = x->v; *v != NULL; v++) {
			q = strrchr(*v, '.');
			q = q != NULL ? q + 1 : *v;
			key_add(x->last, name_key(q, strlen(q)));
			key_add(x->whole, name_key(*v, strlen(*v)));
		}
	worth_ix_init();
}

/*
 * May list v hold an entry whose last component (whole: the entry) is
 * s (n bytes), ignoring case? 0 means surely not; lists without a filter
 * always may.
 */
static int
list_may_hold(const char *const *v, const char *s, size_t n, int whole)
{
	const struct list_ix *x;
	const uint64_t	*set;
	int		 k = name_key(s, n);

	if (k < 0)
		return 1;
	pthread_once(&list_once, list_ix_init);
	for (x = list_ixs; x < list_ixs + sizeof list_ixs /
	    sizeof list_ixs[0]; x++)
		if (x->v == v) {
			set = whole ? x->whole : x->last;
			return (int)(set[k >> 6] >> (k & 63) & 1);
		}
	return 1;
}

/*
 * Every last name component call() looks at, sorted without case: a name
 * not in here is skipped at once (most identifiers of a script).
 */
static const char *const worth[] = {
	"$env", "$env:HOME", "$env:USERPROFILE", "$HOME", "-ec", "-enc",
	"-EncodedCommand", "-ExecutionPolicy", "-SkipCertificateCheck",
	"__import__", "_create_unverified_context", "a2b_base64",
	"a2b_hex", "a85decode", "Add-Content", "Add-MpPreference",
	"appendFile", "appendFileSync", "atob", "b16decode", "b32decode",
	"b64decode", "b85decode", "call", "CERT_NONE", "check_call",
	"check_hostname", "check_output", "chr", "compile", "connect",
	"copy2", "copyfile", "copyFileSync", "createConnection",
	"createWriteStream", "decode", "decodebytes", "decodestring",
	"decompress", "download", "DownloadData", "DownloadFile",
	"DownloadString", "edit_file", "env", "env:", "environ", "eval", "exec",
	"execFile", "execFileSync", "execScript", "execSync", "expanduser",
	"fetch", "FromBase64String", "fromCharCode", "fromhex", "Function",
	"gci", "get", "Get-ChildItem", "Get-Content", "getaddrinfo",
	"getattr", "getenv", "GetEnvironmentVariables", "gethostbyname",
	"getoutput", "getstatusoutput", "glob", "globals", "globalThis",
	"got", "home", "homedir", "iex", "import", "Invoke-Command",
	"Invoke-Expression", "Invoke-RestMethod", "Invoke-WebRequest",
	"irm", "items", "iterdir", "iwr", "listdir", "loads", "lookup", "move", "Move-Item",
	"open", "Out-File", "patch", "Popen", "popen", "post", "put",
	"read_bytes", "read_text", "readdir", "readdirSync", "readFile",
	"readFileSync", "rejectUnauthorized", "remove", "Remove-Item",
	"removedirs", "rename", "Rename-Item", "renameSync", "replace", "replace_in_file", "request",
	"require", "resolve", "Resolve-DnsName", "rglob", "rm", "rmdir", "rmdirSync",
	"rmSync", "rmtree", "run", "run_path", "runInContext", "runInNewContext",
	"runInThisContext", "scandir", "Send-MailMessage", "send_message",
	"sendall", "sendBeacon", "sendmail", "sendto",
	"ServerCertificateValidationCallback", "Set-Content",
	"Set-ExecutionPolicy", "Set-MpPreference", "shell_exec", "spawn",
	"spawnSync", "Start-BitsTransfer", "Start-Process", "storbinary", "str_replace",
	"symlink", "system", "TcpClient", "unescape", "unhexlify", "unlink", "unlinkSync",
	"upload_file", "UploadData", "UploadFile", "UploadString",
	"UploadValues", "urlopen", "urlretrieve", "urlsafe_b64decode",
	"USERPROFILE", "verify", "walk", "WebClient", "window", "write",
	"write_bytes", "write_text", "writeFile", "writeFileSync",
};

static void
worth_ix_init(void)
{
	size_t	 i;

	for (i = 0; i < sizeof worth / sizeof worth[0]; i++)
		key_add(worth_keys, name_key(worth[i], strlen(worth[i])));
}

struct key {
	const char	*s;
	size_t		 n;
};

static int
worth_cmp(const void *k, const void *e)
{
	const struct key	*key = k;
	const char		*w = *(const char *const *)e;
	size_t			 wl;
	int			 r;

	/* key and entry are never empty: most probes end at the first byte */
	r = tolower((unsigned char)key->s[0]) - tolower((unsigned char)w[0]);
	if (r != 0)
		return r;
	wl = strlen(w);
	r = strncasecmp(key->s, w, key->n < wl ? key->n : wl);
	if (r != 0)
		return r;
	return key->n < wl ? -1 : key->n > wl;
}

/* Is the token's last name component one call() knows? */
static int
worthy(struct sc *sc, const struct tok *t)
{
	const char	*s = sc->t + t->off, *p = s + t->len;
	struct key	 k;
	int		 key;

	if (t->len > 12 && strncmp(s, "process.env.", 12) == 0)
		return 1;
	while (p > s && p[-1] != '.' && p[-1] != ':')
		p--;
	k.s = p;
	k.n = (size_t)(s + t->len - p);
	if (k.n == 0)
		return 1;
	/* most names: no entry has their length, first and last byte */
	if ((key = name_key(k.s, k.n)) >= 0) {
		pthread_once(&list_once, list_ix_init);
		if (!(worth_keys[key >> 6] >> (key & 63) & 1))
			return 0;
	}
	return bsearch(&k, worth, sizeof worth / sizeof worth[0],
	    sizeof worth[0], worth_cmp) != NULL;
}

/* ---- helpers -------------------------------------------------------- */

static void
sc_emit(struct sc *sc, const char *rule, int line)
{
	const char	*s = sc->t, *e = sc->t + sc->len, *p;
	int		 l = sc->line0;

	/* the source line */
	for (p = s; p < e && l < line; p++)
		if (*p == '\n')
			l++;
	for (s = p; p < e && *p != '\n'; p++)
		;
	while (s < p && (*s == ' ' || *s == '\t'))
		s++;
	cs_emit(sc->b, rule, line, s, (size_t)(p - s));
}

/* The index past the ) that closes the ( at i (or i when none). */
static size_t
close_of(struct sc *sc, size_t i)
{
	int	 depth = 0;
	size_t	 j;

	if (i >= sc->n || sc->v[i].k != TK_PUNCT || sc->v[i].c != '(')
		return i;
	for (j = i; j < sc->n; j++) {
		if (sc->v[j].k != TK_PUNCT)
			continue;
		if (sc->v[j].c == '(' || sc->v[j].c == '[' || sc->v[j].c == '{')
			depth++;
		else if ((sc->v[j].c == ')' || sc->v[j].c == ']' ||
		    sc->v[j].c == '}') && --depth == 0)
			return j + 1;
	}
	return sc->n;
}

/* A PowerShell statement around i: [from, to). */
static void
statement(struct sc *sc, size_t i, size_t *from, size_t *to)
{
	size_t	 a = i, z = i;
	int	 line = sc->v[i].line;

	while (a > 0 && sc->v[a - 1].line == line &&
	    !(sc->v[a - 1].k == TK_PUNCT && sc->v[a - 1].c == ';'))
		a--;
	while (z < sc->n && (sc->v[z].line == line || (z > 0 &&
	    sc->v[z - 1].k == TK_PUNCT && sc->v[z - 1].c == '|')) &&
	    !(sc->v[z].k == TK_PUNCT && sc->v[z].c == ';'))
		z++;
	*from = a;
	*to = z;
}

static struct svar *
svar_find(struct sc *sc, const struct tok *t)
{
	size_t	 i;

	for (i = 0; i < sc->nvars; i++)
		if (sc->vars[i].namelen == t->len && strncmp(sc->t +
		    sc->vars[i].name, sc->t + t->off, t->len) == 0)
			return &sc->vars[i];
	return NULL;
}

/*
 * Joins the string literals of [from, to) (and the values of variables
 * that hold joined literals) into buf; returns the number of pieces.
 */
static int
join_strs(struct sc *sc, size_t from, size_t to, char *buf, size_t *len,
    int *other)
{
	size_t		 i, n;
	int		 pieces = 0;
	struct svar	*v;

	*len = 0;
	*other = 0;
	for (i = from; i < to; i++) {
		const struct tok *t = &sc->v[i];
		const char	*s = sc->t + t->off;

		n = t->len;
		if (t->k == TK_ID && (v = svar_find(sc, t)) != NULL) {
			s = v->val;
			n = v->len;
			pieces += v->pieces;
		} else if (t->k == TK_STR)
			pieces++;
		else {
			if (t->k == TK_ID && !tok_is(sc, t, "shell") &&
			    !tok_is(sc, t, "True") && !tok_is(sc, t, "true") &&
			    !tok_is(sc, t, "join") && !tok_is(sc, t, "format") &&
			    !tok_is(sc, t, "-join") && !tok_is(sc, t, "-f"))
				*other = 1;
			continue;
		}
		if (*len > 0 && i > 0 && sc->v[i - 1].k == TK_PUNCT &&
		    sc->v[i - 1].c == ',' && *len + 1 < JOIN_MAX)
			buf[(*len)++] = ' ';
		if (*len + n + 1 >= JOIN_MAX)
			n = JOIN_MAX - 1 - *len;
		memcpy(buf + *len, s, n);
		*len += n;
	}
	buf[*len] = '\0';
	return pieces;
}

static int
range_has(struct sc *sc, size_t from, size_t to, const char *const *v)
{
	size_t	 i;

	for (i = from; i < to; i++)
		if (sc->v[i].k == TK_ID && worthy(sc, &sc->v[i]) &&
		    tok_in(sc, &sc->v[i], v))
			return 1;
	return 0;
}

static int
range_punct(struct sc *sc, size_t from, size_t to, char c)
{
	size_t	 i;

	for (i = from; i < to; i++)
		if (sc->v[i].k == TK_PUNCT && sc->v[i].c == c &&
		    i + 1 < to && (sc->v[i + 1].k == TK_STR ||
		    (i > 0 && sc->v[i - 1].k == TK_STR)))
			return 1;
	return 0;
}

static int
range_id(struct sc *sc, size_t from, size_t to, const char *s)
{
	size_t	 i;

	for (i = from; i < to; i++)
		if (tok_ends(sc, &sc->v[i], s) || (sc->v[i].k == TK_STR &&
		    sc->v[i].len == strlen(s) && strncasecmp(sc->t +
		    sc->v[i].off, s, sc->v[i].len) == 0))
			return 1;
	return 0;
}

static void	decoded(struct sc *, const char *, size_t, const char *, int);

/* ---- calls ---------------------------------------------------------- */

/*
 * Security checks and hardening an edit can take out: scanners, audit
 * steps, certificate stores, a non-root user.
 */
static const char *const guards[] = { "bandit", "safety", "pip-audit",
	"npm audit", "yarn audit", "cargo audit", "semgrep", "trivy", "snyk",
	"gitleaks", "trufflehog", "codeql", "detect-secrets", "ca-certificates",
	"apparmor", "seccomp", "no-new-privileges", NULL };

/* The string argument after name= in a call's range, or NULL. */
static const struct tok *
kwarg_str(struct sc *sc, size_t from, size_t to, const char *name)
{
	size_t	 i;

	for (i = from; i + 2 < to; i++)
		if (sc->v[i].k == TK_ID && tok_is(sc, &sc->v[i], name) &&
		    sc->v[i + 1].k == TK_PUNCT && (sc->v[i + 1].c == '=' ||
		    sc->v[i + 1].c == ':') && sc->v[i + 2].k == TK_STR)
			return &sc->v[i + 2];
	return NULL;
}

/*
 * edit_file(path, old_string='...', new_string='...') and the like: an
 * edit whose old text runs a security check the new text no longer has,
 * turns a check from true to false, or makes the container run as root.
 */
static void
guard_edit(struct sc *sc, size_t i)
{
	const struct tok *o, *n;
	const char	*os, *ns;
	const char *const *g;
	size_t		 to = close_of(sc, i + 1);
	int		 gone = 0;

	if ((o = kwarg_str(sc, i + 1, to, "old_string")) == NULL &&
	    (o = kwarg_str(sc, i + 1, to, "old_str")) == NULL)
		return;
	if ((n = kwarg_str(sc, i + 1, to, "new_string")) == NULL &&
	    (n = kwarg_str(sc, i + 1, to, "new_str")) == NULL)
		return;
	os = sc->t + o->off;
	ns = sc->t + n->off;
	for (g = guards; *g != NULL && !gone; g++)
		if (cs_memmem_ci(os, o->len, *g) != NULL) {
			gone = cs_memmem_ci(ns, n->len, *g) == NULL ||
			    (cs_memmem_ci(os, o->len, "true") != NULL &&
			    cs_memmem_ci(ns, n->len, "true") == NULL &&
			    cs_memmem_ci(ns, n->len, "false") != NULL);
		}
	if (!gone && memmem(ns, n->len, "USER root", 9) != NULL &&
	    memmem(os, o->len, "USER root", 9) == NULL)
		gone = 1;
	if (gone)
		sc_emit(sc, "code-guard-removed", o->line);
}

/* Does a shell command line built by a script send a request body? */
static int
sends_body(const char *s, size_t n)
{
	static const char *const opts[] = { " -d ", " -d\"", " -d'",
	    "--data", " -F ", " -F\"", "--form", "--post-data",
	    "--body-data", NULL };
	const char *const *o;

	if (memmem(s, n, "curl ", 5) == NULL && memmem(s, n, "wget ", 5) ==
	    NULL)
		return 0;
	for (o = opts; *o != NULL; o++)
		if (memmem(s, n, *o, strlen(*o)) != NULL)
			return 1;
	return 0;
}

static void
sink(struct sc *sc, size_t i, int code)
{
	struct cs_block	*b = sc->b;
	char		 buf[JOIN_MAX];
	size_t		 from = i + 1, to, n;
	int		 pieces, other, line = sc->v[i].line, known = 0;
	int		 saved;

	if (sc->lang == LANG_POWERSHELL)
		statement(sc, i, &from, &to);
	else {
		to = close_of(sc, i + 1);
		if (to == i + 1)
			return;		/* a name, not a call */
	}
	if (range_has(sc, from, to, decode_calls) || range_id(sc, from, to,
	    "-bxor")) {
		b->flags |= B_DECODE | B_EXEC;
		sc_emit(sc, "code-decode-exec", line);
		known = 1;
	}
	if (range_has(sc, from, to, fetch_calls) ||
	    range_id(sc, from, to, "Net.WebClient")) {
		b->flags |= B_FETCH | B_EXEC;
		sc_emit(sc, "code-fetch-exec", line);
		known = 1;
	}
	pieces = join_strs(sc, from, to, buf, &n, &other);
	if ((pieces >= 2 && range_punct(sc, from, to, '+')) ||
	    range_id(sc, from, to, "join") || range_id(sc, from, to, "-join") ||
	    range_id(sc, from, to, "reverse") || range_id(sc, from, to, "-f"))
		sc_emit(sc, "code-obfuscated", line);
	if (other && pieces == 0) {
		b->flags |= code ? B_EXEC : B_SHELLVAR;
		if (b->exec_line == 0)
			b->exec_line = line;
		if (code && !known)
			sc_emit(sc, "code-eval", line);
	}
	if (n == 0 || b->nest >= CS_NEST_MAX)
		return;
	/* joined literals: their lines are not the file's */
	saved = b->fixed_line;
	if (saved == 0)
		b->fixed_line = line;
	b->nest++;
	if (code)
		cs_analyse(b, buf, n, sc->lang, line);
	else
		cs_sh(b, buf, n, line);
	b->nest--;
	b->fixed_line = saved;
	/* exec('curl -d "' + value + '" https://...'): the value is sent */
	if (!code && other && sends_body(buf, n)) {
		b->flags |= B_SEND;
		if (b->send_line == 0)
			b->send_line = saved > 0 ? saved : line;
	}
}

static void
literal(struct sc *sc, size_t i)
{
	const struct tok *t = &sc->v[i];
	const char	*s = sc->t + t->off, *kind;
	char		 buf[4096];
	size_t		 n;
	int		 hk;

	if (t->len >= 12 && sc->b->run->bundled && cs_tunnel_host(s, t->len)) {
		sc->b->flags |= B_CONCRETE;
		sc_emit(sc, "code-tunnel-host", t->line);
	}
	if (t->len >= 8) {
		hk = cs_host_where(s, t->len, &sc->b->flags);
		if (hk == 2)
			sc->b->flags |= B_CONCRETE;
		else if (hk == 1)
			sc->b->flags |= B_PLACEHOLDER;
	}
	if (cs_cred_path(s, t->len) == 1 || cs_cred_component(s, t->len)) {
		sc->b->flags |= B_CRED | B_CONCRETE;
		if (sc->b->cred_line == 0)
			sc->b->cred_line = t->line;
		sc_emit(sc, "code-cred-read", t->line);
		cs_cred_note(sc->b->run, s, t->len, t->line);
	}
	if (t->len >= 16 && cs_grant_all(s, t->len) >= 2)
		sc_emit(sc, "code-grant-all", t->line);
	if (cs_agent_settings_path(s, t->len)) {
		if (sc->settings_line == 0)
			sc->settings_line = t->line;
	} else if (cs_persist_path(s, t->len) && sc->persist_line == 0)
		sc->persist_line = t->line;
	/* os.path.join(".git", "hooks", ...): a hook spelt in pieces */
	else if (t->len == 5 && strncmp(s, "hooks", 5) == 0 && i >= 2 &&
	    sc->v[i - 2].k == TK_STR && sc->v[i - 2].len == 4 &&
	    strncmp(sc->t + sc->v[i - 2].off, ".git", 4) == 0 &&
	    sc->persist_line == 0)
		sc->persist_line = t->line;
	if (cs_memmem_ci(s, t->len, "bypassPermissions") ||
	    cs_memmem_ci(s, t->len, "dangerously-skip-permissions") ||
	    cs_memmem_ci(s, t->len, "NODE_TLS_REJECT_UNAUTHORIZED"))
		sc_emit(sc, "code-safety-off", t->line);
	if (t->len == 1 && (s[0] == '/' || s[0] == '~') && i >= 2 &&
	    (tok_ends(sc, &sc->v[i - 2], "rmtree") || tok_ends(sc,
	    &sc->v[i - 2], "rmSync") || tok_ends(sc, &sc->v[i - 2],
	    "Remove-Item")))
		sc_emit(sc, "code-destroy", t->line);
	if (t->len < 20 || memchr(s, ' ', t->len) != NULL)
		return;
	n = cs_decode(s, t->len, buf, sizeof buf, i >= 2 && (tok_ends(sc,
	    &sc->v[i - 2], "b85decode") || tok_ends(sc, &sc->v[i - 2],
	    "a85decode")), sc->nxkeys > 0, &kind);
	if (n == 0)
		return;
	decoded(sc, buf, n, kind, t->line);
}

/* How much bytes look like a command: letters, spaces and slashes. */
static size_t
text_score(const char *s, size_t n)
{
	size_t	 i, k = 0;

	for (i = 0; i < n; i++)
		if (islower((unsigned char)s[i]) || s[i] == ' ' || s[i] == '/')
			k++;
	return k;
}

/*
 * Analyses bytes decoded from a literal, or the same bytes XORed with a
 * key written in the code when that reads more like text.
 */
static void
decoded(struct sc *sc, const char *buf, size_t n, const char *kind, int line)
{
	char		 x[4096], best[4096];
	size_t		 k, j, score, bs = 0;
	const char	*bk = kind;

	if (n > sizeof x)
		n = sizeof x;
	if (cs_printable((const unsigned char *)buf, n)) {
		bs = text_score(buf, n);
		memcpy(best, buf, n);
	}
	for (k = 0; k < sc->nxkeys; k++) {
		for (j = 0; j < n; j++)
			x[j] = (char)(buf[j] ^ sc->xkeys[k]);
		if (cs_printable((unsigned char *)x, n) &&
		    (score = text_score(x, n)) > bs) {
			bs = score;
			bk = "xor";
			memcpy(best, x, n);
		}
	}
	if (bs > 0)
		cs_payload(sc->b, best, n, bk, line, sc->lang);
}

/* String.fromCharCode(99, 117, ...), chr(99)+chr(117), [104, 116, ...]. */
static void
char_codes(struct sc *sc, size_t from, size_t to)
{
	char	 buf[1024];
	size_t	 i, n = 0;
	long	 v;

	for (i = from; i < to && n < sizeof buf; i++)
		if (sc->v[i].k == TK_NUM) {
			v = num_val(sc, &sc->v[i]);
			if (v <= 0 || v > 255)
				return;
			buf[n++] = (char)v;
		}
	if (n < 8)
		return;
	decoded(sc, buf, n, "char codes", sc->v[from].line);
}

/* NAME = "a" + "b" (or "".join([...])): remember the joined value. */
static void
assignment(struct sc *sc, size_t i)
{
	char		 buf[JOIN_MAX];
	size_t		 j, n;
	int		 pieces, other;
	struct svar	*v;

	for (j = i + 2; j < sc->n && sc->v[j].line == sc->v[i].line; j++)
		;
	pieces = join_strs(sc, i + 2, j, buf, &n, &other);
	if (pieces == 0 || n == 0 || other)
		return;		/* not a string known before run time */
	if ((v = svar_find(sc, &sc->v[i])) == NULL) {
		if (sc->nvars == SVARS_MAX)
			return;
		v = &sc->vars[sc->nvars++];
	} else
		free(v->val);
	v->name = sc->v[i].off;
	v->namelen = sc->v[i].len;
	v->val = xmalloc(n + 1);	/* the value may hold NULs */
	memcpy(v->val, buf, n);
	v->val[n] = '\0';
	v->len = n;
	v->pieces = pieces;
}

/*
 * The parameter names of the functions defined in the script (def f(x),
 * function f(x), lambda x:), found once per script: names only, not
 * scopes, so a parameter name reused as a local is taken as input too.
 */
static void
params_find(struct sc *sc)
{
	size_t	 i, j;
	int	 depth, lambda;

	sc->params_done = 1;
	for (i = 0; i + 2 < sc->n; i++) {
		lambda = tok_is(sc, &sc->v[i], "lambda");
		if (!(lambda || tok_is(sc, &sc->v[i], "def") || tok_is(sc,
		    &sc->v[i], "function")))
			continue;
		if (!lambda && (sc->v[i + 2].k != TK_PUNCT ||
		    sc->v[i + 2].c != '('))
			continue;
		j = lambda ? i + 1 : i + 3;
		for (depth = 1; j < sc->n && j < i + 64; j++) {
			const struct tok *t = &sc->v[j];

			if (t->k == TK_PUNCT && (t->c == '(' || t->c == '[' ||
			    t->c == '{'))
				depth++;
			else if (t->k == TK_PUNCT && (t->c == ')' ||
			    t->c == ']' || t->c == '}'))
				depth--;
			if (depth <= 0 || (lambda && depth == 1 &&
			    t->k == TK_PUNCT && t->c == ':'))
				break;
			/* a name in the list, not a default value or a type */
			if (t->k == TK_ID && depth == 1 && (j == i + 1 ||
			    (sc->v[j - 1].k == TK_PUNCT && (sc->v[j - 1].c ==
			    '(' || sc->v[j - 1].c == ',' || sc->v[j - 1].c ==
			    '*'))) && sc->nparams < PARAMS_MAX)
				sc->params[sc->nparams++] = (unsigned)j;
		}
	}
}

/* Is the name s (n bytes) a parameter of a function of the script? */
static int
is_param(struct sc *sc, const char *s, size_t n)
{
	size_t	 i;

	if (!sc->params_done)
		params_find(sc);
	for (i = 0; i < sc->nparams; i++)
		if (sc->v[sc->params[i]].len == n && memcmp(sc->t +
		    sc->v[sc->params[i]].off, s, n) == 0)
			return 1;
	return 0;
}

/*
 * eval(x) or exec(f"...{x}...") with one argument, x a parameter of a
 * function or program input (input(), sys.argv, process.argv, stdin):
 * Bandit's B307/B102. A call that passes a namespace (eval(expr, env))
 * is a designed evaluator (a debugger, a REPL) and is left alone.
 */
static void
eval_input(struct sc *sc, size_t i)
{
	static const char *const inputs[] = { "input", "raw_input",
	    "sys.argv", "process.argv", "sys.stdin", "readline",
	    "request.args", "request.form", "request.json", "req.body",
	    "req.query", "$args", "Read-Host", NULL };
	size_t	 to = close_of(sc, i + 1), j;
	int	 hit = 0;

	if (to <= i + 2)
		return;
	for (j = i + 2; j + 1 < to; j++) {
		const struct tok *t = &sc->v[j];

		if (t->k == TK_PUNCT && t->c == ',' )
			return;		/* a namespace given */
		if (t->k == TK_ID && (tok_one_of(sc, t, inputs) ||
		    (is_param(sc, sc->t + t->off, t->len) && !(j > i + 2 &&
		    sc->v[j - 1].k == TK_PUNCT && sc->v[j - 1].c == '.'))))
			hit = 1;
		/* f-strings are one token: their {names} */
		if (t->k == TK_STR && sc->lang == LANG_PYTHON && memchr(sc->t +
		    t->off, '{', t->len) != NULL) {
			const char	*p = sc->t + t->off, *e = p + t->len;
			const char	*q;

			for (; !hit && p < e && (p = memchr(p, '{',
			    (size_t)(e - p))) != NULL; p++) {
				for (q = p + 1; q < e && (isalnum((unsigned char)*q)
				    || *q == '_'); q++)
					;
				if (q > p + 1 && is_param(sc, p + 1,
				    (size_t)(q - p - 1)))
					hit = 1;
			}
		}
	}
	if (hit)
		sc_emit(sc, "code-eval-input", sc->v[i].line);
}

static void
call(struct sc *sc, size_t i)
{
	struct cs_block	*b = sc->b;
	const struct tok *t = &sc->v[i];
	int		 line = t->line, paren;
	size_t		 to, from;

	paren = i + 1 < sc->n && sc->v[i + 1].k == TK_PUNCT &&
	    sc->v[i + 1].c == '(';
	/* JavaScript's exec() is child_process.exec: a shell, not eval */
	if (tok_one_of(sc, t, code_sinks) && (paren || sc->lang ==
	    LANG_POWERSHELL) && !(i > 0 && sc->v[i - 1].k == TK_PUNCT &&
	    sc->v[i - 1].c == '.') && !(sc->lang == LANG_JS &&
	    tok_is(sc, t, "exec")))
		sink(sc, i, !tok_is(sc, t, "Invoke-Command"));
	else if ((tok_one_of(sc, t, shell_sinks) || (sc->lang == LANG_JS &&
	    (tok_is(sc, t, "exec") || tok_is(sc, t, "spawn")))) && (paren ||
	    sc->lang == LANG_POWERSHELL)) {
		b->flags |= B_PROC;
		if (b->proc_line == 0)
			b->proc_line = line;
		sink(sc, i, 0);
	}
	if (paren && tok_one_of(sc, t, code_sinks) && !tok_is(sc, t,
	    "compile") && !(sc->lang == LANG_JS && tok_is(sc, t, "exec")))
		eval_input(sc, i);
	if ((tok_in(sc, t, delete_calls) && (paren || sc->lang ==
	    LANG_POWERSHELL)) && !(sc->lang == LANG_JS && tok_is(sc, t,
	    "rm") && !paren)) {
		b->flags |= B_DELETE;
		if (b->delete_line == 0)
			b->delete_line = line;
	}
	if (paren && (tok_is(sc, t, "edit_file") || tok_is(sc, t,
	    "str_replace") || tok_is(sc, t, "replace_in_file")))
		guard_edit(sc, i);
	if (tok_in(sc, t, fetch_calls) || tok_is(sc, t, "Net.WebClient") ||
	    tok_is(sc, t, "System.Net.WebClient")) {
		b->flags |= B_FETCH;
		if (b->fetch_line == 0)
			b->fetch_line = line;
	}
	if ((tok_in(sc, t, send_calls) && paren) || ((tok_is(sc, t,
	    "Invoke-RestMethod") || tok_is(sc, t, "Invoke-WebRequest") ||
	    tok_is(sc, t, "irm") || tok_is(sc, t, "iwr")) && (statement(sc, i,
	    &from, &to), range_id(sc, from, to, "-Body") ||
	    range_id(sc, from, to, "-InFile"))) || (tok_is(sc, t, "fetch") &&
	    paren && (to = close_of(sc, i + 1), range_id(sc, i, to, "body") ||
	    range_id(sc, i, to, "POST"))) ||
	    /* urllib sends when given a body: urlopen(url, data=...) */
	    ((tok_ends(sc, t, "urlopen") || tok_ends(sc, t, "Request")) &&
	    paren && (to = close_of(sc, i + 1), range_id(sc, i, to, "data")))) {
		b->flags |= B_SEND;
		if (b->send_line == 0)
			b->send_line = line;
	}
	if ((tok_ends(sc, t, "gethostbyname") || tok_ends(sc, t,
	    "getaddrinfo") || tok_ends(sc, t, "dns.resolve") ||
	    tok_ends(sc, t, "dns.lookup") || tok_ends(sc, t, "Resolve-DnsName"))
	    && paren && (to = close_of(sc, i + 1), range_punct(sc, i + 1, to,
	    '+') || range_id(sc, i + 1, to, "format"))) {
		b->flags |= B_SEND;
		sc_emit(sc, "code-exfil", line);
	}
	if (tok_in(sc, t, decode_calls) && (!tok_is(sc, t, "chr") ||
	    sc->nxkeys > 0)) {
		b->flags |= B_DECODE;
		if (b->decode_line == 0)
			b->decode_line = line;
	}
	if (tok_ends(sc, t, "fromCharCode") && paren)
		char_codes(sc, i + 1, close_of(sc, i + 1));
	if (tok_in(sc, t, write_calls) || (tok_is(sc, t, "open") && paren &&
	    (to = close_of(sc, i + 1), range_id(sc, i, to, "a") ||
	    range_id(sc, i, to, "w") || range_id(sc, i, to, "a+") ||
	    range_id(sc, i, to, "w+") || range_id(sc, i, to, "ab") ||
	    range_id(sc, i, to, "wb"))))
		b->flags |= B_WRITE;
	if ((tok_is(sc, t, "open") && paren && !(b->flags & B_WRITE)) ||
	    tok_ends(sc, t, "readFileSync") || tok_ends(sc, t, "readFile") ||
	    tok_ends(sc, t, "read_text") || tok_ends(sc, t, "read_bytes") ||
	    tok_is(sc, t, "Get-Content"))
		b->flags |= B_OPENREAD;
	if ((tok_ends(sc, t, "getenv") || tok_ends(sc, t, "environ.get") ||
	    tok_is(sc, t, "os.environ") || tok_is(sc, t, "$env")) &&
	    i + 2 < sc->n && sc->v[i + 2].k == TK_STR &&
	    cs_secret_name(sc->t + sc->v[i + 2].off, sc->v[i + 2].len))
		b->flags |= B_SECRET;
	if (t->len > 12 && strncmp(sc->t + t->off, "process.env.", 12) == 0 &&
	    cs_secret_name(sc->t + t->off + 12, t->len - 12))
		b->flags |= B_SECRET;
	if ((tok_is(sc, t, "require") || tok_is(sc, t, "import") ||
	    tok_is(sc, t, "runpy.run_path")) && paren && i + 2 < sc->n &&
	    sc->v[i + 2].k == TK_STR) {
		char	 path[128];
		size_t	 pl = sc->v[i + 2].len < sizeof path - 1 ?
		    sc->v[i + 2].len : sizeof path - 1;

		memcpy(path, sc->t + sc->v[i + 2].off, pl);
		path[pl] = '\0';
		if (cs_is_dl(b, path)) {
			b->flags |= B_FETCH | B_EXEC;
			sc_emit(sc, "code-fetch-exec", line);
		}
	}
	if (tok_in(sc, t, home_calls) && sc->home_line == 0)
		sc->home_line = line;
	if (tok_in(sc, t, walk_calls) && sc->home_line != 0)
		b->flags |= B_FILEREAD;
	if ((tok_ends(sc, t, "rmtree") || tok_ends(sc, t, "rmSync") ||
	    tok_ends(sc, t, "Remove-Item") || tok_ends(sc, t, "rm")) &&
	    (paren || sc->lang == LANG_POWERSHELL)) {
		if (sc->lang == LANG_POWERSHELL)
			statement(sc, i, &from, &to);
		else
			from = i + 1, to = close_of(sc, i + 1);
		if ((range_has(sc, from, to, home_calls) && !range_has(sc, from,
		    to, (const char *const []){ "join", NULL }) && to - from <= 8)
		    || range_id(sc, from, to, "C:\\"))
			sc_emit(sc, "code-destroy", line);
	}
	/* environment as a whole */
	if ((tok_is(sc, t, "os.environ") && i + 1 < sc->n &&
	    ((sc->v[i + 1].k == TK_PUNCT && (sc->v[i + 1].c == ')' ||
	    sc->v[i + 1].c == ',')) || tok_is(sc, &sc->v[i + 1], ".items")) &&
	    !(i > 0 && sc->v[i - 1].k == TK_PUNCT && (sc->v[i - 1].c == '=' ||
	    sc->v[i - 1].c == '*'))) || tok_is(sc, t, "os.environ.items") ||
	    (tok_is(sc, t, "process.env") && i + 1 < sc->n &&
	    sc->v[i + 1].k == TK_PUNCT && (sc->v[i + 1].c == ')' ||
	    sc->v[i + 1].c == ',') && !(i > 0 && sc->v[i - 1].k == TK_PUNCT &&
	    (sc->v[i - 1].c == '.' || sc->v[i - 1].c == ':'))) ||
	    tok_is(sc, t, "env:") || tok_ends(sc, t,
	    "GetEnvironmentVariables")) {
		b->flags |= B_ENV;
		if (b->env_line == 0)
			b->env_line = line;
	}
	/* TLS and platform checks turned off */
	if (((tok_is(sc, t, "verify") || tok_is(sc, t, "check_hostname") ||
	    tok_is(sc, t, "rejectUnauthorized")) && i + 2 < sc->n &&
	    sc->v[i + 1].k == TK_PUNCT && (sc->v[i + 1].c == '=' ||
	    sc->v[i + 1].c == ':') && (tok_is(sc, &sc->v[i + 2], "False") ||
	    tok_is(sc, &sc->v[i + 2], "false"))) ||
	    tok_ends(sc, t, "_create_unverified_context") ||
	    tok_ends(sc, t, "CERT_NONE") ||
	    tok_ends(sc, t, "ServerCertificateValidationCallback") ||
	    tok_is(sc, t, "-SkipCertificateCheck") ||
	    (tok_is(sc, t, "Set-MpPreference") && (statement(sc, i, &from, &to),
	    range_id(sc, from, to, "$true"))) ||
	    tok_is(sc, t, "Add-MpPreference") ||
	    ((tok_is(sc, t, "Set-ExecutionPolicy") ||
	    tok_is(sc, t, "-ExecutionPolicy")) && i + 1 < sc->n &&
	    (tok_is(sc, &sc->v[i + 1], "Bypass") || tok_is(sc, &sc->v[i + 1],
	    "Unrestricted"))))
		sc_emit(sc, "code-safety-off", line);
	/* names built from strings: getattr(os, "sys"+"tem") */
	if ((tok_is(sc, t, "getattr") || tok_is(sc, t, "__import__") ||
	    tok_is(sc, t, "globals") || tok_is(sc, t, "window") ||
	    tok_is(sc, t, "globalThis")) && i + 1 < sc->n) {
		to = paren ? close_of(sc, i + 1) : (i + 6 < sc->n ? i + 6 :
		    sc->n);
		if (range_punct(sc, i + 1, to, '+') || range_id(sc, i + 1, to,
		    "join") || range_has(sc, i + 1, to, decode_calls))
			sc_emit(sc, "code-obfuscated", line);
	}
	/* powershell -enc inside a script */
	if (sc->lang == LANG_POWERSHELL && (tok_is(sc, t, "-enc") ||
	    tok_is(sc, t, "-EncodedCommand") || tok_is(sc, t, "-ec")) &&
	    i + 1 < sc->n && sc->v[i + 1].k != TK_PUNCT)
		cs_ps_encoded(b, sc->t + sc->v[i + 1].off, sc->v[i + 1].len, line);
}

/* Words that let a loop end or wait: not a busy loop with no way out. */
static const char *const loop_exits[] = { "break", "return", "raise",
	"throw", "exit", "sleep", "yield", "await", "wait", "accept",
	"recv", "read", "input", "select", "poll", "join", "get(",
	"serve", "settimeout", "process.exit", "quit", "signal", NULL };

/* The first line of a Python block: the body lines indented deeper. */
static size_t
py_body(const char *s, const char *e, int indent)
{
	const char	*p = s, *q;
	int		 in;

	while (p < e) {
		q = memchr(p, '\n', (size_t)(e - p));
		if (q == NULL)
			q = e;
		for (in = 0; p + in < q && (p[in] == ' ' || p[in] == '\t'); in++)
			;
		if (p + in < q && p[in] != '#' && in <= indent)
			break;
		p = q < e ? q + 1 : e;
	}
	return (size_t)(p - s);
}

/*
 * Resource exhaustion: while True / while 1 / while(true) / for(;;) whose
 * body has no exit, sleep or wait (code-unbounded-loop); a sequence
 * multiplied by a literal of a million or more (code-huge-alloc).
 */
static void
exhaustion(struct sc *sc)
{
	const char	*t = sc->t, *e = t + sc->len, *p, *q, *h;
	size_t		 i, n;
	int		 line = sc->line0, in, loops = 0;

	/* each loop's body is read once: a cap keeps it linear */
	for (p = t; p < e && loops < LOOPS_MAX; p = q + 1, line++) {
		if ((q = memchr(p, '\n', (size_t)(e - p))) == NULL)
			q = e;
		for (in = 0; p + in < q && (p[in] == ' ' || p[in] == '\t'); in++)
			;
		h = p + in;
		n = (size_t)(q - h);
		if (sc->lang == LANG_PYTHON && ((n >= 11 && strncmp(h,
		    "while True:", 11) == 0) || (n >= 8 && strncmp(h,
		    "while 1:", 8) == 0))) {
			size_t	 bl = q < e ? py_body(q + 1, e, in) : 0;

			loops++;
			if (bl > 0 && !cs_has_any(q + 1, bl, loop_exits))
				sc_emit(sc, "code-unbounded-loop", line);
		} else if (sc->lang == LANG_JS && (cs_memmem_ci(h, n,
		    "while (true)") == h || cs_memmem_ci(h, n, "while(true)") ==
		    h || cs_memmem_ci(h, n, "for (;;)") == h ||
		    cs_memmem_ci(h, n, "for(;;)") == h)) {
			const char	*b = memchr(h, '{', (size_t)(e - h)), *c;
			int		 d = 0;

			loops++;
			if (b == NULL || b > q + 1 + 200)
				continue;
			for (c = b; c < e; c++)
				if (*c == '{')
					d++;
				else if (*c == '}' && --d == 0)
					break;
			if (c < e && !cs_has_any(b, (size_t)(c - b), loop_exits))
				sc_emit(sc, "code-unbounded-loop", line);
		}
		if (q == e)
			break;
	}
	for (i = 0; i + 2 < sc->n; i++) {
		const struct tok *a = &sc->v[i], *m = &sc->v[i + 1],
		    *v = &sc->v[i + 2];
		const char	*d = sc->t + v->off;
		size_t		 k = 0, digits = 0;

		if (!(m->k == TK_PUNCT && m->c == '*') || v->k != TK_NUM ||
		    !((a->k == TK_PUNCT && a->c == ']') || a->k == TK_STR))
			continue;
		if (i + 3 < sc->n && sc->v[i + 3].k == TK_PUNCT &&
		    sc->v[i + 3].c == '*')
			continue;	/* [0] * 10 ** 9: below */
		for (; k < v->len && (isdigit((unsigned char)d[k]) ||
		    d[k] == '_'); k++)
			if (d[k] != '_' && (digits > 0 || d[k] != '0'))
				digits++;
		if (k == v->len && digits >= 7)
			sc_emit(sc, "code-huge-alloc", v->line);
	}
}

void
cs_script(struct cs_block *b, const char *text, size_t len,
    enum code_lang lang, int line)
{
	struct sc	 sc;
	size_t		 i;

	memset(&sc, 0, sizeof sc);
	sc.b = b;
	sc.t = text;
	sc.len = len;
	sc.lang = lang;
	sc.line0 = line;
	tokenize(&sc, line);
	/* XOR keys: ^ 0x42, ^ 66, -bxor 23 */
	for (i = 0; i + 1 < sc.n && sc.nxkeys < XKEYS_MAX; i++)
		if (((sc.v[i].k == TK_PUNCT && sc.v[i].c == '^') ||
		    tok_is(&sc, &sc.v[i], "-bxor")) && sc.v[i + 1].k == TK_NUM) {
			long	 k = num_val(&sc, &sc.v[i + 1]);

			if (k > 0 && k < 256)
				sc.xkeys[sc.nxkeys++] = (int)k;
		}
	for (i = 0; i < sc.n; i++) {
		const struct tok *t = &sc.v[i];

		if (t->k == TK_STR)
			literal(&sc, i);
		else if (t->k == TK_ID) {
			if (i + 2 < sc.n && sc.v[i + 1].k == TK_PUNCT &&
			    sc.v[i + 1].c == '=' && !(sc.v[i + 2].k == TK_PUNCT &&
			    sc.v[i + 2].c == '='))
				assignment(&sc, i);
			if (worthy(&sc, t))
				call(&sc, i);
		} else if (t->k == TK_PUNCT && t->c == '[' && i + 1 < sc.n &&
		    sc.v[i + 1].k == TK_NUM)
		{
			size_t	 j = i + 1;

			while (j < sc.n && j < i + 512 && (sc.v[j].k == TK_NUM ||
			    (sc.v[j].k == TK_PUNCT && sc.v[j].c == ',')))
				j++;
			char_codes(&sc, i, j);
		}
	}
	if (b->depth == 0 && b->nest == 0 && b->run->bundled)
		exhaustion(&sc);
	if (sc.persist_line != 0 && (b->flags & B_WRITE))
		sc_emit(&sc, "code-persist", sc.persist_line);
	if (sc.settings_line != 0 && (b->flags & B_WRITE))
		sc_emit(&sc, "code-safety-off", sc.settings_line);
	if ((b->flags & B_SEND) && (b->flags & (B_FILEREAD | B_OPENREAD |
	    B_SECRET)) && !(b->flags & B_CRED))
		sc_emit(&sc, "code-exfil", b->send_line);
	if (b->flags & B_EXEC && b->exec_line == 0)
		b->exec_line = line;
	for (i = 0; i < sc.nvars; i++)
		free(sc.vars[i].val);
	free(sc.v);
}
