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
 */
#ifndef SR_CODESCAN_H
#define SR_CODESCAN_H

#include <stddef.h>

#include "finding.h"
#include "strlist.h"

enum code_lang {
	LANG_TEXT = 0,		/* prose or unknown: no code analysis */
	LANG_MARKDOWN,		/* analyse fenced and inline code */
	LANG_SH,
	LANG_PYTHON,
	LANG_JS,
	LANG_POWERSHELL
};

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
 * Adds to out the relative paths of files that text (a SKILL.md body)
 * tells the agent to run or read: "python scripts/x.py", "bash setup.sh",
 * "./install.sh", links to bundled files. Paths are as written, without a
 * leading "./"; absolute paths and ".." are not added.
 */
void		codescan_refs(const char *text, size_t len,
		    struct strlist *out);

#endif
