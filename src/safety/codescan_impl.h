/*
 * What the codescan modules share, bottom to top: codescan_words.c (what
 * a path, a host or a literal is), codescan.c (the rule table, excerpts,
 * findings, the block summary, cs_analyse()), codescan_shcmd.c and
 * codescan_sh.c (the shell reader), codescan_script.c (Python,
 * JavaScript and PowerShell), codescan_md.c (the entry points and the
 * Markdown walk). A file calls only the ones below it: code nested in
 * code (bash -c, a decoded payload) goes back through cs_analyse(),
 * which calls the reader the run plugged in (cs_run.sh, cs_run.script).
 * Nobody else includes it.
 *
 * A "block" is one unit of code analysed together: a fenced block, an
 * inline code span, a prose command line, or a whole bundled file. Data
 * flow is followed inside a block (a credential read in one command and a
 * network send in another make code-cred-exfil); across the blocks of one
 * Markdown text only as a weaker rule (code-cred-exfil-split: secrets read
 * in one fence, data sent from another), from what each block did
 * (cs_run.caps, which codescan_file() also reports for a bundled file).
 */
#ifndef SR_CODESCAN_IMPL_H
#define SR_CODESCAN_IMPL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "safety/codescan.h"

#define CS_DEPTH_MAX	2		/* nested decodings */
#define CS_DECODE_MAX	(64 * 1024)	/* decoded bytes per codescan_text */
#define CS_FINDINGS_MAX	256		/* findings per codescan_text */
#define CS_EXCERPT_MAX	120		/* bytes of a message */
#define CS_NEST_MAX	6		/* $(...), -c "..." inside each other */
/*
 * Distinct credential stores one file reads before it is a sweep: a tool
 * needs its own credential (~/.aws/credentials and ~/.aws/config, one ssh
 * key and its agent); reading several unrelated ones is harvesting.
 */
#define CS_SWEEP_MIN	4
/*
 * Places one file runs fetched code at before it is a pattern: an
 * installer has one command, or one per platform; measured on 1,529 real
 * skills, none has three.
 */
#define CS_FETCH_MANY	3
/* Separate edits taking a security check out before it is a sweep. */
#define CS_GUARD_SWEEP	2

/* What a stream of data carries (shell pipelines, script values). */
#define T_NET		0x01	/* fetched from the network */
#define T_DECODE	0x02	/* decoded (base64, hex, ...) */
#define T_CRED		0x04	/* credential material */
#define T_ENV		0x08	/* the whole environment */
#define T_FILE		0x10	/* contents of some local file */
#define T_OBF		0x20	/* assembled at run time */

/* What a block did (struct cs_block.flags). */
#define B_FETCH		0x0001	/* network fetch */
#define B_EXEC		0x0002	/* ran something dynamic (eval, sh -c $x) */
#define B_DECODE	0x0004	/* decoding call or command */
#define B_CRED		0x0008	/* read credential material */
#define B_SEND		0x0010	/* sent data to the network */
#define B_ENV		0x0020	/* read the whole environment */
#define B_WRITE		0x0040	/* wrote a file (scripts) */
#define B_CONCRETE	0x0100	/* a real host or credential path involved */
#define B_PLACEHOLDER	0x0200	/* a placeholder host involved */
#define B_RISK		0x0400	/* a warn-or-higher finding was added */
#define B_FILEREAD	0x0800	/* walked the home directory (scripts) */
#define B_OPENREAD	0x1000	/* opened a local file to read (scripts) */
#define B_SECRET	0x2000	/* read a secret-named variable (scripts) */
#define B_PAYLOAD	0x4000	/* an embedded payload decoded to risky code */
#define B_SHELLVAR	0x8000	/* a shell sink ran a computed value */
#define B_PROC		0x10000	/* started a process (a shell or exec sink) */
#define B_DELETE	0x20000	/* deleted, moved or renamed a file */
#define B_SECRETFILE	0x40000	/* read a project secret file (.env) */
#define B_LOOPBACK	0x80000	/* a loopback host (localhost, 127.x, ::1) */
#define B_OFFHOST	0x100000 /* a host that is not loopback */

struct cs_block;

struct cs_run {
	/* the language readers, above codescan.c (codescan_md.c sets them) */
	void		(*sh)(struct cs_block *, const char *, size_t, int);
	void		(*script)(struct cs_block *, const char *, size_t,
			    enum code_lang, int);
	struct findings	*out;
	size_t		 first;		/* index of our first finding */
	size_t		 added;
	size_t		 decoded;	/* bytes decoded so far */
	struct strlist	*refs;		/* codescan_refs(): paths to run */
	unsigned	 creds[CS_SWEEP_MIN];	/* hashes of stores read */
	size_t		 ncreds;
	int		 sweep_line;	/* where the last distinct store was */
	char		 sweep_msg[CS_EXCERPT_MAX + 1];
	int		 bundled;	/* a bundled file, not Markdown */
	unsigned	 caps;		/* B_* of every top-level block */
	int		 cap_line[CODESCAN_CAPS];	/* first line of each */
	int		 cap_blocks[CODESCAN_CAPS];	/* blocks showing it */
	int		 cap_both;	/* blocks reading secrets and sending */
	/*
	 * The Markdown block being read is described, not ordered (under a
	 * heading about detection, attacks or refusal, or after a negation):
	 * its findings are shown as frame-described and not scored, as the
	 * catalogue's are (codescan_md.c, md_block()).
	 */
	int		 described;
	int		 doc;		/* Markdown beside the body: 1 no orders,
					   2 never pointed to: all described */
};

#define CS_DL_MAX	8

struct sh_vars;

struct cs_block {
	struct cs_run	*run;
	int		 depth;		/* decoding depth */
	int		 nest;		/* $(...) / -c nesting */
	const char	*via;		/* "base64", ... or NULL */
	unsigned	 flags;
	unsigned long long emitted;	/* rules raised, by table index */
	int		 line;		/* first line of the block */
	int		 fixed_line;	/* decoded text: every finding's line */
	int		 cred_line, send_line, env_line, decode_line;
	int		 fetch_line, exec_line;
	int		 delete_line, proc_line;
	char		 excerpt[CS_EXCERPT_MAX + 1];	/* first risky command */
	char		 dl[CS_DL_MAX][128];	/* files downloaded to */
	size_t		 ndl;
	struct sh_vars	*shvars;	/* shell variables of the body, or NULL */
};

/* What the prose around a block says of it (cs_block_finish()'s cues). */
#define CUE_IMPERATIVE	0x1
#define CUE_DOC		0x2
/* an order of the skill body, not a described example (codescan_md.c) */
#define CUE_ORDERED	0x4

/* codescan.c */
/* The rule of id, or NULL when codescan has no such rule. */
const struct codescan_rule *cs_rule_find(const char *id);
void	 cs_block_init(struct cs_block *, struct cs_run *, int line,
	    int depth, const char *via);
/* Adds a finding (deduplicated by rule and line) with a neutral excerpt. */
void	 cs_emit(struct cs_block *, const char *rule, int line,
	    const char *src, size_t len);
/* Adds a finding whose message is already neutral (a block's excerpt). */
void	 cs_emit_msg(struct cs_block *, const char *rule, int line,
	    const char *msg);
/* Notes a credential store read at line (for code-cred-sweep). */
void	 cs_cred_note(struct cs_run *, const char *path, size_t len,
	    int line);
/* Combines what the block did; adds the frame findings given the cues. */
void	 cs_block_finish(struct cs_block *, unsigned cues);
/* Writes a display-safe excerpt of src into out (CS_EXCERPT_MAX + 1). */
void	 cs_excerpt(const char *src, size_t len, char *out, size_t outsz);
/* The language of a fence label or an extension (n bytes): "sh", "py" ... */
enum code_lang cs_lang_of_name(const char *s, size_t n);
/* Guesses the language of unlabelled code; LANG_TEXT when unsure. */
enum code_lang cs_guess(const char *s, size_t len);
/* Does a command line begin with a command word we know? */
int	 cs_sh_known_command(const char *s, size_t len);
/*
 * Analyses text in lang inside blk (decoded payloads, -c strings) with
 * the run's reader for lang (cs_run.sh, cs_run.script) or, for config
 * and other text, the fixed strings that turn safety off.
 */
void	 cs_analyse(struct cs_block *, const char *text, size_t len,
	    enum code_lang, int line);

/* Was path downloaded earlier in the block (curl -o, wget -O)? */
int	 cs_is_dl(const struct cs_block *, const char *path);
/* After a whole file: the rules over its blocks (sweeps, splits, repeats). */
void	 cs_file_rules(struct cs_run *);

/*
 * powershell -EncodedCommand: reports code-decode-exec and reads the
 * UTF-16LE text under the base64 as PowerShell.
 */
void	 cs_ps_encoded(struct cs_block *, const char *s, size_t len, int line);
/* Analyses decoded bytes (depth and budget permitting). */
void	 cs_payload(struct cs_block *, const char *s, size_t len,
	    const char *kind, int line, enum code_lang hint);

/* codescan_sh.c */
void	 cs_sh(struct cs_block *, const char *text, size_t len, int line);
/*
 * Shell variables that outlive a block: the fences of one Markdown body
 * are often one script cut in steps (x=$(...) in one, curl -d "$x" in the
 * next). cs_sh_vars_free(NULL) is a no-op.
 */
struct sh_vars	*cs_sh_vars_new(void);
void		 cs_sh_vars_free(struct sh_vars *);

/* codescan_script.c */
void	 cs_script(struct cs_block *, const char *text, size_t len,
	    enum code_lang, int line);

/* codescan_words.c */
int	 cs_cred_path(const char *s, size_t len);
int	 cs_cred_component(const char *s, size_t len);
int	 cs_persist_path(const char *s, size_t len);
int	 cs_agent_settings_path(const char *s, size_t len);
/*
 * Classifies the first URL or host in s: 0 none, 1 placeholder
 * (example.com, localhost, <host>, ...), 2 concrete.
 */
int	 cs_host_kind(const char *s, size_t len);
/*
 * Notes the first URL's host of s in *flags: B_LOOPBACK for this machine
 * (localhost, *.localhost, 127.x, [::1], 0.0.0.0), B_OFFHOST for any
 * other host; nothing when s has no URL. Returns cs_host_kind(s): the
 * URL is parsed once for both.
 */
int	 cs_host_where(const char *s, size_t len, unsigned *flags);
/*
 * Is the first URL's host a subdomain of a tunnel or request-collector
 * service (ngrok, trycloudflare, loca.lt, webhook.site, pipedream.net,
 * interactsh ...)? Those hosts expose a laptop or log what they receive.
 */
int	 cs_tunnel_host(const char *s, size_t len);
/* Distinct grant-everything settings in s (code-grant-all at two). */
int	 cs_grant_all(const char *s, size_t len);
/* Is the URL's host a public code forge or package registry? */
int	 cs_forge_host(const char *s, size_t len);
int	 cs_is_url(const char *s, size_t len);
/* Is s a wide deletion target (/, ~, $HOME, *, /etc ...)? */
int	 cs_wide_target(const char *s, size_t len);
/* Is s a secret-looking variable name (GITHUB_TOKEN, API_KEY ...)? */
int	 cs_secret_name(const char *s, size_t len);
int	 cs_archive_name(const char *s, size_t len);
int	 cs_binary_name(const char *s, size_t len);
const char *cs_memmem_ci(const char *h, size_t hl, const char *n);
/*
 * s lower-cased (ASCII tolower per byte) into buf when it fits in bufsz
 * bytes, else into a new allocation; release it with cs_lower_free(low,
 * buf). For texts searched for many lower-case patterns: one pass, then
 * memmem() per pattern, instead of a case-blind search per pattern.
 */
char	*cs_lower(const char *s, size_t len, char *buf, size_t bufsz);
void	 cs_lower_free(char *low, char *buf);
/* Does s contain one of the lower-case patterns of v, ignoring case? */
int	 cs_has_any(const char *s, size_t len, const char *const *v);
/*
 * A list of patterns for cs_has_pats(), which answers as cs_has_any()
 * but faster on a list searched often: the lengths and the set of first
 * bigrams of its patterns are worked out once, on first use (under a
 * lock; CS_PATS_MAX patterns at most, the rest read as cs_has_any()
 * does). Declare one with CS_PATS(v) as a static object next to its list.
 */
#define CS_PATS_MAX	64
struct cs_pats {
	const char *const *v;
	atomic_int	 ready;
	size_t		 n;		/* patterns indexed (<= CS_PATS_MAX) */
	int		 all;		/* every pattern indexed */
	unsigned char	 len[CS_PATS_MAX];
	uint64_t	 first[4];	/* BIGRAM() of each pattern's start */
	uint64_t	 by_first[256];	/* patterns (bit i: v[i]) by it */
	uint64_t	 short1;	/* patterns shorter than 2 bytes */
};
#define CS_PATS(list)	{ (list), 0, 0, 0, { 0 }, { 0 }, { 0 }, 0 }
int	 cs_has_pats(const char *s, size_t len, struct cs_pats *);
/*
 * Tries to decode s as base64, hex or (when b85 is set) base85 text;
 * on success fills out (at most outsz bytes), sets *kind to the name of
 * the encoding and returns the decoded length, else 0. Decoded text must
 * be mostly printable unless raw is set.
 */
size_t	 cs_decode(const char *s, size_t len, char *out, size_t outsz,
	    int b85, int raw, const char **kind);
int	 cs_printable(const unsigned char *s, size_t len);

#endif
