/*
 * Code as instructions (DESIGN §7): in a skill, a code block is what the
 * agent will run. codescan reads shell, Python, JavaScript and PowerShell
 * (in fenced or inline code of a Markdown body, or a bundled script) and
 * reports what the code would do: fetch-and-execute, installs from a URL or
 * a non-default registry, credential reads, data sent out, environment
 * dumps, destructive commands, safety switches turned off, persistence,
 * archive lures and decode-and-execute (decoding embedded payloads and
 * analysing what they decode to).
 *
 * Findings carry rule ids that start with "code-" and a severity that is
 * only a hint: sanitize_risk() sets the final weight and severity from the
 * risk table. Pure functions of their input; thread-safe.
 *
 * Context travels as findings of its own, for the risk table to weigh,
 * one of each at most per block of code (a fence, an inline span, a
 * prose command, a bundled file) and only for a block that raised a
 * warn-or-higher code-* finding, on the block's first line:
 *   frame-imperative  the prose around the block orders it (run, first,
 *                     step 1, always, silently, do not tell the user);
 *   frame-doc         the prose or the block's comments document it (a
 *                     warning, "never run", an example of an attack);
 *   code-concrete     the risky code names a real external host or a real
 *                     credential path: a concrete payload;
 *   host-placeholder  its hosts are all placeholders (example.com,
 *                     localhost, <host>) and no credential path is named.
 * code-run-bundled (info) marks a command that runs a bundled script.
 * Findings from a decoded payload say so in their message ("[base64] ...").
 * Messages are neutral excerpts (at most 120 bytes; no control
 * characters, < and > as &lt; &gt;, invisible characters as <U+XXXX>).
 */
#ifndef SR_CODESCAN_H
#define SR_CODESCAN_H

#include <stddef.h>

#include "core/finding.h"
#include "base/strlist.h"

enum code_lang {
	LANG_TEXT = 0,		/* prose or unknown: no code analysis */
	LANG_MARKDOWN,		/* analyse fenced and inline code */
	LANG_SH,
	LANG_PYTHON,
	LANG_JS,
	LANG_POWERSHELL,
	LANG_CONFIG		/* a bundled config file (YAML, JSON, TOML,
				   INI, .env): settings, URLs, data values */
};

/*
 * What a bundled file's code does that a skill may have declared it does
 * not (description integrity): reach the network, delete or move files,
 * start processes. Bit i of has is capability i; line[i] is where it
 * first shows (0 when not).
 */
enum codescan_cap {
	CAP_NET = 0,
	CAP_DELETE,
	CAP_EXEC,
	CAP_SEND,		/* sends data out (a request body, an upload) */
	CAP_SECRETS,		/* reads a credential store or the environment */
	CODESCAN_CAPS
};

struct codescan_caps {
	unsigned	 has;
	int		 line[CODESCAN_CAPS];
};

/* One rule: a stable id, a severity hint and a one-line explanation. */
struct codescan_rule {
	const char	*id;
	enum severity	 sev;
	const char	*explanation;
};

/*
 * The i-th rule of the table (0-based), or NULL past the end: how the risk
 * table, doctor and the man page list every id codescan can raise.
 */
const struct codescan_rule *codescan_rule_at(size_t i);
/*
 * The host of the first URL in s as the host rules judge it: 0 when s has
 * no URL, 1 for a placeholder (example.com, localhost, {host}), 2 for a
 * real host. How the sanitiser tells a concrete send in prose from a stub.
 */
int		codescan_host_kind(const char *s, size_t len);
/* The explanation of a rule id, or NULL when codescan has no such rule. */
const char	*codescan_explain(const char *id);

/* The language of a file from its name and first line (#!). */
enum code_lang	codescan_lang(const char *path, const char *text,
		    size_t len);

/*
 * Analyses text as lang; appends findings with line numbers offset by
 * line_base. Returns the number added.
 */
size_t		codescan_text(const char *text, size_t len, enum code_lang,
		    int line_base, struct findings *out);

/*
 * codescan_text() for a bundled file that also reports, when caps is not
 * NULL, what the file's code does (struct codescan_caps).
 */
size_t		codescan_file(const char *text, size_t len, enum code_lang,
		    int line_base, struct findings *out,
		    struct codescan_caps *caps);

/*
 * codescan_text() for Markdown bundled beside the skill (a README, a
 * CHANGELOG, docs/): the agent is told to run what the skill's body says,
 * so a fence there illustrates and is not an order (a placeholder host in
 * it stays a placeholder).
 */
size_t		codescan_doc(const char *text, size_t len, int line_base,
		    struct findings *out, int aside);

/*
 * The capabilities text declares it does without, as bits 1 << CAP_*
 * (CAP_NET, CAP_DELETE and CAP_EXEC only):
 * "without any network access", "no data leaves the machine", "offline"
 * (CAP_NET); "read-only", "no side effects", "does not modify or delete"
 * (CAP_DELETE); "no shell", "does not execute commands" (CAP_EXEC).
 * phrase[i], when phrase is not NULL, gets the first phrase found for
 * capability i (a static string) or NULL.
 */
unsigned	codescan_claims(const char *text, size_t len,
		    const char *phrase[CODESCAN_CAPS]);

/*
 * Adds to out the relative paths of files that text (a SKILL.md body)
 * tells the agent to run or read: "python scripts/x.py", "bash setup.sh",
 * "./install.sh", links to bundled files. Paths are as written, without a
 * leading "./"; absolute paths and ".." are not added.
 */
void		codescan_refs(const char *text, size_t len,
		    struct strlist *out);

/*
 * code-run-unshipped: one finding for each script the Markdown text tells
 * the agent to run (as codescan_refs() finds them, with a script's
 * extension) that shipped, the skill folder's file paths relative to it,
 * holds neither by path nor by name. Lines count from line_base + 1.
 * Returns the number of findings added.
 */
size_t		codescan_unshipped(const char *text, size_t len,
		    const struct strlist *shipped, int line_base,
		    struct findings *out);

#endif
