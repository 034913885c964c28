/*
 * What a word is, for codescan: a credential path, a persistence target,
 * an agent's settings file, a placeholder or a real host, a wide deletion
 * target, a secret's variable name; and the decoders for embedded
 * payloads (base64, hex, base85). Tables, no state.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "safety/codescan_impl.h"
#include "base/url.h"
#include "base/xmalloc.h"

const char *
cs_memmem_ci(const char *h, size_t hl, const char *n)
{
	size_t	 nl = strlen(n), i;
	int	 c0, c1;

	if (nl == 0 || nl > hl)
		return NULL;
	c0 = tolower((unsigned char)n[0]);
	c1 = tolower((unsigned char)n[1]);
	for (i = 0; i + nl <= hl; i++) {
		/* the first two bytes before a call (n[1] is 0 when nl is 1) */
		if (tolower((unsigned char)h[i]) != c0 || (nl > 1 &&
		    tolower((unsigned char)h[i + 1]) != c1))
			continue;
		if (strncasecmp(h + i + 1, n + 1, nl - 1) == 0)
			return h + i;
	}
	return NULL;
}

char *
cs_lower(const char *s, size_t len, char *buf, size_t bufsz)
{
	char	*d = len <= bufsz ? buf : xmalloc(len ? len : 1);
	size_t	 i;

	for (i = 0; i < len; i++)
		d[i] = (char)tolower((unsigned char)s[i]);
	return d;
}

void
cs_lower_free(char *low, char *buf)
{
	if (low != buf)
		free(low);
}

#define BIGRAM(a, b)	((((unsigned)(a) * 31u) + (unsigned)(b)) & 255u)

/*
 * Does s hold one of v (lower-case patterns), ignoring case? The bigrams
 * of s go into a 256-bit set first: a pattern whose first or last two
 * bytes are not in it is skipped without a search.
 */
/*
 * has_any() over an indexed list: only the patterns that start with a
 * bigram of low (set) are read, as the loop there would; the others
 * cannot be in it.
 */
static int
pats_in(const char *low, size_t len, const uint64_t set[4],
    const struct cs_pats *x)
{
	uint64_t	 cand = x->short1, m;
	size_t		 i, pl;
	unsigned	 h;
	int		 w;

	for (w = 0; w < 4; w++)
		for (m = set[w] & x->first[w]; m != 0; m &= m - 1)
			cand |= x->by_first[w * 64 + __builtin_ctzll(m)];
	for (; cand != 0; cand &= cand - 1) {
		i = (size_t)__builtin_ctzll(cand);
		pl = x->len[i];
		if (pl > len)
			continue;
		if (pl >= 2) {
			h = BIGRAM(x->v[i][pl - 2], x->v[i][pl - 1]);
			if (!(set[h >> 6] & 1ull << (h & 63)))
				continue;
		}
		if (memmem(low, len, x->v[i], pl) != NULL)
			return 1;
	}
	return 0;
}

static int
has_any(const char *s, size_t len, const char *const *v,
    const struct cs_pats *x)
{
	char		 low[512];
	uint64_t	 set[4] = { 0, 0, 0, 0 };
	size_t		 i, pl;
	unsigned	 h;

	if (len > sizeof low) {
		/* lower-cased once, then a plain memmem() per pattern */
		char	*big = cs_lower(s, len, NULL, 0);
		int	 r = 0;

		for (; *v != NULL && !r; v++)
			r = memmem(big, len, *v, strlen(*v)) != NULL;
		cs_lower_free(big, NULL);
		return r;
	}
	for (i = 0; i < len; i++) {
		low[i] = (char)tolower((unsigned char)s[i]);
		if (i > 0) {
			h = BIGRAM(low[i - 1], low[i]);
			set[h >> 6] |= 1ull << (h & 63);
		}
	}
	if (x != NULL && x->all)
		return pats_in(low, len, set, x);
	for (i = 0; *v != NULL; v++, i++) {
		const char	*p = *v;

		/* the first bigram rejects most patterns before strlen() */
		if (p[0] != '\0' && p[1] != '\0') {
			h = BIGRAM(p[0], p[1]);
			if (!(set[h >> 6] & 1ull << (h & 63)))
				continue;
		}
		pl = x != NULL && i < x->n ? x->len[i] : strlen(p);
		if (pl > len)
			continue;
		if (pl >= 2) {
			h = BIGRAM(p[pl - 2], p[pl - 1]);
			if (!(set[h >> 6] & 1ull << (h & 63)))
				continue;
		}
		if (memmem(low, len, p, pl) != NULL)
			return 1;
	}
	return 0;
}

int
cs_has_any(const char *s, size_t len, const char *const *v)
{
	return has_any(s, len, v, NULL);
}

static pthread_mutex_t	 pats_lock = PTHREAD_MUTEX_INITIALIZER;

static void
pats_init(struct cs_pats *x)
{
	const char *const *v;
	size_t		 pl;
	unsigned	 h;

	x->all = 1;
	for (v = x->v; *v != NULL; v++) {
		pl = strlen(*v);
		if (x->n == CS_PATS_MAX || pl > 255) {
			x->all = 0;
			break;
		}
		x->len[x->n] = (unsigned char)pl;
		if (pl < 2)
			x->short1 |= 1ull << x->n;
		else {
			h = BIGRAM((*v)[0], (*v)[1]);
			x->first[h >> 6] |= 1ull << (h & 63);
			x->by_first[h] |= 1ull << x->n;
		}
		x->n++;
	}
}

int
cs_has_pats(const char *s, size_t len, struct cs_pats *x)
{
	if (!atomic_load_explicit(&x->ready, memory_order_acquire)) {
		pthread_mutex_lock(&pats_lock);
		if (!atomic_load_explicit(&x->ready, memory_order_relaxed)) {
			pats_init(x);
			atomic_store_explicit(&x->ready, 1,
			    memory_order_release);
		}
		pthread_mutex_unlock(&pats_lock);
	}
	return has_any(s, len, x->v, x);
}

static int
ends_ci(const char *s, size_t len, const char *suf)
{
	size_t	 sl = strlen(suf);

	return len >= sl && strncasecmp(s + len - sl, suf, sl) == 0;
}

/* Files and stores whose contents are secrets. */
static const char *const cred_strong[] = {
	".aws/", ".aws\\", ".config/gh", ".config/gcloud", ".azure/",
	".kube/config", ".docker/config.json", ".netrc", "_netrc", ".npmrc",
	".pypirc", ".gem/credentials", ".git-credentials", ".gnupg",
	"/etc/shadow", ".pgpass", ".vault-token", ".terraform.d/credentials",
	"keychain", "login data", "cookies.sqlite", "logins.json", "key4.db",
	"/cookies", "local state", "web data", "wallet.dat",
	".claude/.credentials", ".claude.json", ".codex/auth",
	".config/anthropic", ".cursor/mcp.json",
	"application_default_credentials", "id_rsa", "id_ed25519",
	"id_ecdsa", "id_dsa", ".ssh/", ".ssh\\", ".env.local",
	".env.production", NULL
};
static struct cs_pats cred_strong_pats = CS_PATS(cred_strong);

/*
 * 1: a credential store (~/.ssh/id_rsa, ~/.aws/credentials, a browser's
 * password file, an agent's token file); 2: a project .env (secrets, but
 * read by most tools that use one); 0: neither. Public keys, known_hosts
 * and the ssh client config are not secrets.
 */
int
cs_cred_path(const char *s, size_t len)
{
	const char	*p, *base;
	size_t		 bl;

	if (len < 4 || len > 512)
		return 0;
	/* every entry has one of these, or is a keychain or browser file */
	if (memchr(s, '.', len) == NULL && memchr(s, '/', len) == NULL &&
	    memchr(s, '\\', len) == NULL && memchr(s, '_', len) == NULL &&
	    memchr(s, ' ', len) == NULL && cs_memmem_ci(s, len, "keychain") ==
	    NULL)
		return 0;
	if (ends_ci(s, len, ".pub") || cs_memmem_ci(s, len, "known_hosts") ||
	    cs_memmem_ci(s, len, "authorized_keys") ||
	    ends_ci(s, len, ".ssh/config"))
		return 0;
	if (cs_has_pats(s, len, &cred_strong_pats))
		return 1;
	if (ends_ci(s, len, "/.ssh") || ends_ci(s, len, "~/.aws"))
		return 1;
	/* .env, .env.* but not the examples */
	base = s;
	for (p = s; p < s + len; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	bl = (size_t)(s + len - base);
	if (bl >= 4 && strncmp(base, ".env", 4) == 0 &&
	    (bl == 4 || base[4] == '.') &&
	    cs_memmem_ci(base, bl, "example") == NULL &&
	    cs_memmem_ci(base, bl, "sample") == NULL &&
	    cs_memmem_ci(base, bl, "template") == NULL &&
	    cs_memmem_ci(base, bl, "dist") == NULL) {
		if (s[0] == '~' || cs_memmem_ci(s, len, "home") != NULL)
			return 1;
		return 2;
	}
	return 0;
}

/*
 * A literal that names a credential directory or file on its own, as in
 * os.path.join(home, ".ssh", "id_rsa") (cs_cred_path() does whole paths).
 */
int
cs_cred_component(const char *s, size_t len)
{
	static const char *const v[] = { ".ssh", ".aws", ".gnupg", ".kube",
	    ".netrc", ".npmrc", ".pypirc", ".git-credentials", "id_rsa",
	    "id_ed25519", ".docker", ".azure", "Login Data", "logins.json",
	    "key4.db", ".credentials.json", NULL };
	const char *const *p;

	if (len < 4 || len > 17)
		return 0;
	for (p = v; *p != NULL; p++)
		if (strlen(*p) == len && strncmp(s, *p, len) == 0)
			return 1;
	return 0;
}

/* Files that run at login, on a schedule or in every agent session. */
int
cs_persist_path(const char *s, size_t len)
{
	static const char *const v[] = { ".bashrc", ".zshrc", ".profile",
	    ".bash_profile", ".zprofile", ".zshenv", ".bash_login",
	    "config.fish", "/etc/cron", "/var/spool/cron", "launchagents",
	    "launchdaemons", "/etc/systemd/", ".config/systemd",
	    "authorized_keys", "/etc/rc.local", "/etc/profile", "/etc/init.d",
	    ".git/hooks/", "claude.md", "agents.md", ".cursorrules",
	    "copilot-instructions", ".claude/memory", ".claude/hooks",
	    ".claude/agents", ".windsurfrules",
	    "ld.so.preload", "\\startup", "currentversion\\run",
	    "/.config/autostart", NULL };
	static struct cs_pats	 vp = CS_PATS(v);

	if (len < 5 || len > 512 || (memchr(s, '.', len) == NULL &&
	    memchr(s, '/', len) == NULL && memchr(s, '\\', len) == NULL))
		return 0;
	return cs_has_pats(s, len, &vp) || ends_ci(s, len, ".service");
}

/* An agent's permission settings. */
int
cs_agent_settings_path(const char *s, size_t len)
{
	static const char *const v[] = { ".claude/settings",
	    "settings.local.json", ".cursor/", ".codex/config",
	    ".gemini/settings", NULL };
	static struct cs_pats	 vp = CS_PATS(v);

	return len > 8 && len < 512 && memchr(s, '.', len) != NULL &&
	    cs_has_pats(s, len, &vp);
}

int
cs_is_url(const char *s, size_t len)
{
	return cs_memmem_ci(s, len, "://") != NULL ||
	    (len > 4 && strncasecmp(s, "git+", 4) == 0);
}

/*
 * An IPv4 address in 127/8, as dotted digits only: "127.0.0.1.evil.com"
 * is somebody's domain, not the loopback.
 */
static int
loopback_v4(const char *h, size_t n)
{
	size_t	 i;

	if (n < 7 || strncmp(h, "127.", 4) != 0)
		return 0;
	for (i = 4; i < n; i++)
		if (!isdigit((unsigned char)h[i]) && h[i] != '.')
			return 0;
	return 1;
}

static int
placeholder_host(const char *h, size_t n)
{
	static const char *const suf[] = { "example.com", "example.org",
	    "example.net", ".example", ".test", ".invalid", ".localhost",
	    "localhost", NULL };
	static const char *const sub[] = { "<", "{", "$", "your", "xxx",
	    NULL };
	const char *const *p;

	if (n == 0)
		return 1;
	for (p = suf; *p != NULL; p++)
		if (ends_ci(h, n, *p))
			return 1;
	if (cs_has_any(h, n, sub))
		return 1;
	if (loopback_v4(h, n) ||
	    (n >= 7 && strncmp(h, "0.0.0.0", 7) == 0) ||
	    (n >= 3 && strncmp(h, "[::", 3) == 0))
		return 1;
	return 0;
}

/*
 * Public code forges and package hosts: code installed from them has an
 * owner, a history and other users. A package file or repository on any
 * other site is code nobody else has looked at.
 */
static const char *const forges[] = { "github.com", "githubusercontent.com",
	"gitlab.com", "bitbucket.org", "codeberg.org", "sr.ht",
	"huggingface.co", "pypi.org", "pythonhosted.org", "npmjs.org",
	"npmjs.com", "yarnpkg.com", "rubygems.org", "crates.io", "golang.org",
	"go.dev", "sourceforge.net", NULL };

/*
 * How many distinct grant-everything settings a text holds: wildcard tool
 * grants, an empty deny list, auto-approval, enforcement switched off.
 * One can be a deliberate choice; two or more is a policy that allows all.
 */
int
cs_grant_all(const char *s0, size_t len)
{
	/* settings that mean "yes" only with a true value after them */
	static const char *const keys[] = { "autoapprove", "auto_approve",
	    "auto-approve", "allow_all", "allowall", "skip_confirmation",
	    "skipconfirmation", NULL };
	static const char *const v[] = { "[\"*\"]", "\"deny\": []",
	    "\"deny\":[]", "bypasspermissions", "enforcement=disabled",
	    "enforcement\": \"disabled", "enforcement: disabled",
	    "enforce=false", "enforce\": false", NULL };
	const char *const *p;
	const char	*q, *w, *s;
	char		 buf[1024], *low;
	size_t		 rest;
	int		 n = 0;

	/* lower-cased once: every test below ignores case */
	s = low = cs_lower(s0, len, buf, sizeof buf);
	/* a wildcard grant, not a wildcard in a deny list */
	if ((q = memmem(s, len, "(*)", 3)) != NULL) {
		w = q - s > 48 ? q - 48 : s;
		if (memmem(w, (size_t)(q - w), "deny", 4) == NULL)
			n++;
	}
	for (p = keys; *p != NULL; p++) {
		if ((q = memmem(s, len, *p, strlen(*p))) == NULL)
			continue;
		q += strlen(*p);
		rest = (size_t)(s + len - q);
		if (rest > 16)
			rest = 16;
		if (memmem(q, rest, "true", 4) != NULL ||
		    memmem(q, rest, "yes", 3) != NULL ||
		    memmem(q, rest, "all", 3) != NULL ||
		    memmem(q, rest, "every", 5) != NULL)
			n++;
	}
	for (p = v; *p != NULL; p++)
		if (memmem(s, len, *p, strlen(*p)) != NULL)
			n++;
	cs_lower_free(low, buf);
	return n;
}

/*
 * The host of the first URL in s, for the host rules: the scanner finds
 * the URL's scheme and authority (up to / ? # a quote or a space), and
 * libcurl's parser reads the host from them (userinfo, port, brackets,
 * numeric IPv4 forms such as 127.1). What libcurl refuses, a template
 * such as {host}, $HOST or <your-host>, is judged as written: the
 * authority after any userinfo, without its port. *hp points into s or
 * into buf (size bytes), *rest (unless NULL) into s past the authority;
 * returns the length, 0 when s has no URL.
 */
static size_t
url_host_of(const char *s, size_t len, char *buf, size_t size,
    const char **hp, const char **rest)
{
	const char	*p = cs_memmem_ci(s, len, "://"), *b, *h, *e = s + len;
	size_t		 n;

	if (p == NULL)
		return 0;
	for (b = p; b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '+' ||
	    b[-1] == '-' || b[-1] == '.'); b--)
		;
	h = p + 3;
	for (p = h; p < e && *p != '/' && *p != '?' && *p != '#' &&
	    *p != '"' && *p != '\'' && *p != ' '; p++)
		if (*p == '@')
			h = p + 1;
	if (rest != NULL)
		*rest = p;
	if ((n = url_host(b, (size_t)(p - b), buf, size)) > 0) {
		*hp = buf;
		return n;
	}
	/* strip the port */
	e = p;
	for (p = h; p < e; p++)
		if (*p == ':' && h[0] != '[') {
			e = p;
			break;
		}
	*hp = h;
	return (size_t)(e - h);
}

int
cs_forge_host(const char *s, size_t len)
{
	const char	*p, *h, *e = s + len;
	const char *const *f;
	char		 buf[256];
	size_t		 hl, fl;

	if (cs_memmem_ci(s, len, "://") != NULL)
		hl = url_host_of(s, len, buf, sizeof buf, &h, NULL);
	else {
		/* git@github.com:owner/repo */
		if ((p = memchr(s, '@', len)) == NULL)
			return 0;
		h = p + 1;
		for (p = h; p < e && *p != '/' && *p != ':' && *p != '?' &&
		    *p != '#' && *p != '"' && *p != '\'' && *p != ' '; p++)
			;
		hl = (size_t)(p - h);
	}
	for (f = forges; *f != NULL; f++) {
		fl = strlen(*f);
		if (hl >= fl && strncasecmp(h + hl - fl, *f, fl) == 0 &&
		    (hl == fl || h[hl - fl - 1] == '.'))
			return 1;
	}
	return 0;
}

int
cs_host_kind(const char *s, size_t len)
{
	const char	*h;
	char		 buf[256];
	size_t		 hl;

	if (cs_memmem_ci(s, len, "://") == NULL)
		return 0;
	hl = url_host_of(s, len, buf, sizeof buf, &h, NULL);
	return placeholder_host(h, hl) ? 1 : 2;
}

int
cs_host_where(const char *s, size_t len, unsigned *flags)
{
	const char	*h;
	char		 buf[256];
	size_t		 n;
	int		 kind = 0;

	if (cs_memmem_ci(s, len, "://") == NULL) {
		/* curl's bare "localhost:3000/health", "127.0.0.1:8787" */
		for (n = 0; n < len && s[n] != '/' && (s[n] != ':' ||
		    (n > 0 && s[0] == '[' && memchr(s, ']', n) == NULL)); n++)
			;
		h = s;
		if (!((n == 9 && strncasecmp(s, "localhost", 9) == 0) ||
		    loopback_v4(s, n) ||
		    (n >= 5 && strncmp(s, "[::1]", 5) == 0))) {
			/* a bare "evil.example.net/x" beside it is not local */
			if (n > 3 && memchr(s, '.', n) != NULL &&
			    (n == len || s[n] == '/' || s[n] == ':'))
				*flags |= B_OFFHOST;
			return 0;
		}
	} else {
		n = url_host_of(s, len, buf, sizeof buf, &h, NULL);
		kind = placeholder_host(h, n) ? 1 : 2;
	}
	if ((n >= 9 && ends_ci(h, n, "localhost")) ||
	    loopback_v4(h, n) ||
	    (n >= 7 && strncmp(h, "0.0.0.0", 7) == 0) ||
	    (n >= 5 && strncmp(h, "[::1]", 5) == 0))
		*flags |= B_LOOPBACK;
	else if (n > 0)
		*flags |= B_OFFHOST;
	return kind;
}

/*
 * Services that exist to expose a local port to the internet or to
 * collect whatever requests reach them: a skill has no business sending
 * its configuration or tokens there. Matched as the host's last labels.
 */
static const char *const tunnels[] = { "ngrok.io", "ngrok.app",
	"ngrok-free.app", "ngrok-free.dev", "ngrok.dev", "trycloudflare.com",
	"loca.lt", "localtunnel.me", "serveo.net", "serveousercontent.com",
	"localhost.run", "lhr.life", "pinggy.link", "pinggy.io",
	"webhook.site", "requestbin.com", "requestbin.net", "pipedream.net",
	"m.pipedream.net", "beeceptor.com", "requestcatcher.com",
	"hookbin.com", "interact.sh", "oast.fun", "oast.me", "oast.pro",
	"oast.live", "oast.site", "oast.online", "burpcollaborator.net",
	"oastify.com", "canarytokens.com", "dnslog.cn", "ceye.io",
	"telebit.cloud", "playit.gg", "bore.pub", "tunnelmole.net", NULL };

int
cs_tunnel_host(const char *s, size_t len)
{
	const char	*h, *rest;
	const char *const *t;
	char		 buf[256];
	size_t		 hl, tl;

	if ((hl = url_host_of(s, len, buf, sizeof buf, &h, &rest)) == 0)
		return 0;
	while (hl > 0 && h[hl - 1] == '.')
		hl--;
	for (t = tunnels; *t != NULL; t++) {
		tl = strlen(*t);
		/* a subdomain of it: the bare service site is documentation */
		if (hl > tl && strncasecmp(h + hl - tl, *t, tl) == 0 &&
		    h[hl - tl - 1] == '.')
			return 1;
		/* webhook.site/<token>: the collector is the path */
		if (hl == tl && strncasecmp(h, *t, tl) == 0 &&
		    strcmp(*t, "webhook.site") == 0 && (size_t)(rest - s) +
		    9 < len && rest[0] == '/' &&
		    isalnum((unsigned char)rest[1]))
			return 1;
	}
	return 0;
}

int
cs_wide_target(const char *s, size_t len)
{
	static const char *const v[] = { "/", "/*", "~", "~/", "~/*",
	    "$HOME", "$HOME/", "$HOME/*", "${HOME}", "${HOME}/", "${HOME}/*",
	    "*", "/home", "/root", "/etc", "/usr", "/var", "/bin", "/boot",
	    "/lib", "/opt", "/System", "/Users", "/home/*", "/Users/*",
	    "C:\\", "C:/", "C:\\*", "$env:USERPROFILE", "%USERPROFILE%",
	    "/.", "~/.", NULL };
	const char *const *p;

	while (len > 1 && (s[len - 1] == '"' || s[len - 1] == '\''))
		len--;
	for (p = v; *p != NULL; p++)
		if (strlen(*p) == len && strncasecmp(s, *p, len) == 0)
			return 1;
	return 0;
}

int
cs_secret_name(const char *s, size_t len)
{
	static const char *const v[] = { "token", "secret", "password",
	    "passwd", "api_key", "apikey", "access_key", "private_key",
	    "credential", NULL };

	return len < 64 && cs_has_any(s, len, v);
}

int
cs_archive_name(const char *s, size_t len)
{
	return ends_ci(s, len, ".zip") || ends_ci(s, len, ".7z") ||
	    ends_ci(s, len, ".rar");
}

int
cs_binary_name(const char *s, size_t len)
{
	return ends_ci(s, len, ".exe") || ends_ci(s, len, ".msi") ||
	    ends_ci(s, len, ".dmg") || ends_ci(s, len, ".pkg") ||
	    ends_ci(s, len, ".scr") || ends_ci(s, len, ".appimage");
}

/* ---- decoders --------------------------------------------------------- */

int
cs_printable(const unsigned char *s, size_t len)
{
	size_t	 i, good = 0, sp = 0;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++) {
		if ((s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\n' ||
		    s[i] == '\t' || s[i] == '\r')
			good++;
		if (s[i] == ' ' || s[i] == '/' || s[i] == '.' || s[i] == '(' ||
		    s[i] == '\n' || s[i] == '=')
			sp++;
	}
	return good * 100 >= len * 95 && sp > 0;
}

static int
b64_space(char c)
{
	return c == '\n' || c == '\r' || c == ' ';
}

/*
 * Base64 digits (s, len: no padding) in one alphabet, decoded by
 * libsodium. A last group of 2 or 3 digits is decoded on its own, filled
 * with 'A' to a whole group, keeping its first 1 or 2 bytes: libsodium
 * refuses a last digit whose unused bits are not zero, which base64 -d,
 * Python and Node ignore, so a payload written that way would pass.
 */
static size_t
b64_groups(const char *s, size_t len, unsigned char *out, size_t outsz,
    int variant)
{
	unsigned char	 last[3];
	char		 tail[4] = { 'A', 'A', 'A', 'A' };
	size_t		 i, cut, n = 0, k, bl = 0, tl = 0;

	for (i = 0; i < len; i++)
		n += !b64_space(s[i]);
	if (n % 4 == 1)
		return 0;
	for (cut = len, k = n % 4; k > 0; cut--)
		if (!b64_space(s[cut - 1]))
			tail[--k] = s[cut - 1];
	if (sodium_base642bin(out, outsz, s, cut, " \r\n", &bl, NULL,
	    variant) != 0)
		return 0;
	if (n % 4 == 0)
		return bl;
	if (sodium_base642bin(last, sizeof last, tail, sizeof tail, NULL, &tl,
	    NULL, variant) != 0 || bl + n % 4 - 1 > outsz)
		return 0;
	memcpy(out + bl, last, n % 4 - 1);
	return bl + n % 4 - 1;
}

/*
 * Base64, padded or not, standard or URL-safe, with line breaks. The
 * padding is dropped here (any count, as decoders that skip it take it).
 * One string that mixes both alphabets ("+/" and "-_", which Node
 * decodes) is mapped to the standard one in a copy first.
 */
static size_t
dec_b64(const char *s, size_t len, unsigned char *out, size_t outsz)
{
	char	*t;
	size_t	 i, n;
	int	 url, std;

	while (len > 0 && (s[len - 1] == '=' || s[len - 1] == '\n'))
		len--;
	url = memchr(s, '-', len) != NULL || memchr(s, '_', len) != NULL;
	std = memchr(s, '+', len) != NULL || memchr(s, '/', len) != NULL;
	if (!url || !std)
		return b64_groups(s, len, out, outsz, url ?
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING :
		    sodium_base64_VARIANT_ORIGINAL_NO_PADDING);
	t = xmalloc(len);
	for (i = 0; i < len; i++)
		t[i] = s[i] == '-' ? '+' : s[i] == '_' ? '/' : s[i];
	n = b64_groups(t, len, out, outsz,
	    sodium_base64_VARIANT_ORIGINAL_NO_PADDING);
	free(t);
	return n;
}

/* Hex digits, after an optional 0x, decoded by libsodium. */
static size_t
dec_hex(const char *s, size_t len, unsigned char *out, size_t outsz)
{
	size_t	 bl = 0;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (sodium_hex2bin(out, outsz, s, len, NULL, &bl, NULL) != 0)
		return 0;
	return bl;
}

/* Ascii85 (a85, with or without <~ ~>) and RFC 1924 base85 (b85). */
static size_t
dec_b85(const char *s, size_t len, unsigned char *out, size_t outsz,
    int rfc1924)
{
	static const char	 b85[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
	const char		*q;
	unsigned long long	 acc = 0;
	size_t			 i, o = 0, n = 0, k;
	int			 v;

	if (!rfc1924 && len >= 4 && strncmp(s, "<~", 2) == 0 &&
	    strncmp(s + len - 2, "~>", 2) == 0) {
		s += 2;
		len -= 4;
	}
	for (i = 0; i <= len; i++) {
		if (i < len) {
			if (s[i] == ' ' || s[i] == '\n')
				continue;
			if (!rfc1924 && s[i] == 'z' && n == 0) {
				if (o + 4 > outsz)
					return 0;
				memset(out + o, 0, 4);
				o += 4;
				continue;
			}
			if (rfc1924) {
				if ((q = strchr(b85, s[i])) == NULL || *q == 0)
					return 0;
				v = (int)(q - b85);
			} else {
				if (s[i] < '!' || s[i] > 'u')
					return 0;
				v = s[i] - '!';
			}
			acc = acc * 85 + (unsigned)v;
			if (++n < 5)
				continue;
		} else if (n == 0)
			break;
		k = n;		/* a partial last group is padded */
		for (; n < 5; n++)
			acc = acc * 85 + 84;
		if (acc > 0xffffffffULL || o + 4 > outsz)
			return 0;
		for (n = 0; n < k - 1 || (k == 5 && n < 4); n++)
			out[o++] = (unsigned char)(acc >> (24 - 8 * n) & 0xff);
		acc = 0;
		n = 0;
	}
	return o;
}

size_t
cs_decode(const char *s, size_t len, char *out, size_t outsz, int b85,
    int raw, const char **kind)
{
	unsigned char	*u = (unsigned char *)out;
	size_t		 n, i, hexd = 0;

	*kind = NULL;
	if (len < 16)
		return 0;
	for (i = 0; i < len; i++)
		if (isxdigit((unsigned char)s[i]))
			hexd++;
	if (hexd == len && (n = dec_hex(s, len, u, outsz)) > 0 &&
	    (raw || cs_printable(u, n))) {
		*kind = "hex";
		return n;
	}
	if (b85) {
		if ((n = dec_b85(s, len, u, outsz, 1)) > 0 &&
		    (raw || cs_printable(u, n))) {
			*kind = "base85";
			return n;
		}
		if ((n = dec_b85(s, len, u, outsz, 0)) > 0 &&
		    (raw || cs_printable(u, n))) {
			*kind = "ascii85";
			return n;
		}
	}
	if ((n = dec_b64(s, len, u, outsz)) > 0 && (raw || cs_printable(u, n))) {
		*kind = "base64";
		return n;
	}
	return 0;
}
