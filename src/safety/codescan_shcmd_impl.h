/*
 * What the two halves of codescan's shell reader share: codescan_shcmd.c
 * (what each command does to the data flowing through it, and the word,
 * variable, file and finding helpers below) and codescan_sh.c above it
 * (the tokenizer and the walk over pipelines, which calls sh_eval()).
 * Nobody else includes it.
 */
#ifndef SR_CODESCAN_SHCMD_IMPL_H
#define SR_CODESCAN_SHCMD_IMPL_H

#include <string.h>

#include "safety/codescan_impl.h"

#define W_MAX		256	/* bytes kept of a word */
#define ARGV_MAX	24	/* words kept of a command */
#define PIPE_MAX	6	/* commands kept of a pipeline */
#define VARS_MAX	16
#define REDIR_MAX	4
#define HEREDOC_MAX	2

#define T_INSECURE	0x40	/* fetched with TLS checks off */

struct sh_word {
	char		 s[W_MAX];
	size_t		 len;
	unsigned	 taint;
	int		 nvars;		/* expansions in the word */
	int		 nparams;	/* of which $name and ${name} */
	int		 pieces;	/* literal runs + expansions */
	int		 secret;	/* names an unset secret variable */
	int		 assigned;	/* NAME=value form */
	size_t		 from, to;	/* its source text (sh.t), if read */
};

struct sh_redir {
	char		 op[4];		/* ">", ">>", "<", "<<", "<<<" */
	struct sh_word	 w;
};

struct sh_cmd {
	struct sh_word	 argv[ARGV_MAX];
	size_t		 argc;
	struct sh_redir	 redir[REDIR_MAX];
	size_t		 nredir;
	int		 line;
	size_t		 start, end;	/* offsets of its text */
	const char	*hd;		/* here-document body */
	size_t		 hdlen;
	int		 hdline;
	char		 hdelim[64];
	int		 hdstrip;
	int		 hdquoted;	/* <<'EOF': no expansion in the body */
	unsigned	 hdtaint;	/* what the body's $(...) carry */
};

struct sh_var {
	char		 name[32];
	char		 val[W_MAX];
	unsigned	 taint;
};

/* A local file written from credential or environment data. */
struct sh_file {
	char		 path[128];
	unsigned	 taint;
};

#define FILES_MAX	8

/*
 * Shell state of one body, kept across its code blocks: the variables
 * and the files written from secrets, so that "cat .env >> /tmp/x" in
 * one fence and "curl -d @/tmp/x https://..." in the next are one flow.
 */
struct sh_vars {
	struct sh_var	 v[VARS_MAX];
	size_t		 n;
	struct sh_file	 f[FILES_MAX];
	size_t		 nf;
};

struct sh {
	struct cs_block	*b;
	const char	*t;
	size_t		 len, i;
	int		 line;
	struct sh_vars	*vars;
	struct sh_cmd	*pipe;		/* PIPE_MAX of them */
	size_t		 pstart;	/* offset of the pipeline */
	int		 piped;		/* the command reads a pipe */
	int		 pline;
};

enum sh_op { OP_EOF, OP_NL, OP_SEMI, OP_PIPE, OP_AND, OP_OR, OP_AMP,
	OP_CLOSE };

static inline int
weq(const struct sh_word *w, const char *s)
{
	return w->s[0] == s[0] && strcmp(w->s, s) == 0;
}

static inline int
wpre(const struct sh_word *w, const char *s)
{
	return strncmp(w->s, s, strlen(s)) == 0;
}

void		 wadd(struct sh_word *, const char *, size_t);
void		 wclear(struct sh_word *);
/* Adds a finding quoting the pipeline up to command c. */
void		 sh_emit(struct sh *, const char *rule, const struct sh_cmd *);
/* The variable name (n bytes) of vs, or NULL. */
struct sh_var	*var_find(struct sh_vars *, const char *name, size_t n);
/* Evaluates one command; returns what its standard output carries. */
unsigned	 sh_eval(struct sh *, struct sh_cmd *, unsigned in);

#endif
