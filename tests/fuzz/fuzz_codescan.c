/*
 * libFuzzer target for codescan: the first byte picks the language (as a
 * Markdown body, shell, Python, JavaScript or PowerShell; 0xff a config
 * file), the rest is the
 * text; codescan_text() and codescan_refs() run over it. Besides crashes,
 * leaks (ASan) and hangs (-timeout), the invariants every caller relies on
 * are checked: findings are capped, lines are within the text, messages
 * are at most 120 bytes with no control characters and no raw '<' other
 * than a <U+XXXX> or <0xXX> marker, and refs are relative paths without
 * "..". Built by `make fuzz`.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "safety/codescan.h"
#include "core/finding.h"
#include "base/strlist.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_message(const char *m)
{
	const char	*p;

	if (strlen(m) > 120)
		abort();
	for (p = m; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
		if (*p == '<' && strncmp(p, "<U+", 3) != 0 &&
		    strncmp(p, "<0x", 3) != 0)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum code_lang	 langs[] = { LANG_MARKDOWN, LANG_SH,
	    LANG_PYTHON, LANG_JS, LANG_POWERSHELL };
	struct findings			 f;
	struct strlist			 refs;
	const char			*text;
	size_t				 i, len, lines = 1;
	enum code_lang			 lang;

	if (size == 0)
		return 0;
	/* 0xff: a bundled config file (older seeds keep their language) */
	lang = data[0] == 0xff ? LANG_CONFIG : langs[data[0] % 5];
	text = (const char *)data + 1;
	len = size - 1;
	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			lines++;
	findings_init(&f);
	codescan_text(text, len, lang, 0, &f);
	if (f.n > 256)
		abort();
	for (i = 0; i < f.n; i++) {
		if (f.v[i].line < 0 || (size_t)f.v[i].line > lines + 1)
			abort();
		check_message(f.v[i].message);
	}
	findings_done(&f);
	strlist_init(&refs);
	codescan_refs(text, len, &refs);
	for (i = 0; i < refs.n; i++)
		if (refs.v[i][0] == '/' || strstr(refs.v[i], "..") != NULL)
			abort();
	strlist_done(&refs);
	return 0;
}
