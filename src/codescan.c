#include "autoconfig.h"

#include <string.h>

#include "codescan.h"

/* Scaffolding for the threat model v2; the analysis replaces it. */

enum code_lang
codescan_lang(const char *path, const char *text, size_t len)
{
	const char	*dot = path != NULL ? strrchr(path, '.') : NULL;

	(void)text;
	(void)len;
	if (dot == NULL)
		return LANG_TEXT;
	if (strcmp(dot, ".md") == 0)
		return LANG_MARKDOWN;
	if (strcmp(dot, ".sh") == 0 || strcmp(dot, ".bash") == 0)
		return LANG_SH;
	if (strcmp(dot, ".py") == 0)
		return LANG_PYTHON;
	if (strcmp(dot, ".js") == 0 || strcmp(dot, ".mjs") == 0 ||
	    strcmp(dot, ".cjs") == 0 || strcmp(dot, ".ts") == 0)
		return LANG_JS;
	if (strcmp(dot, ".ps1") == 0)
		return LANG_POWERSHELL;
	return LANG_TEXT;
}

size_t
codescan_text(const char *text, size_t len, enum code_lang lang,
    int line_base, struct findings *out)
{
	(void)text;
	(void)len;
	(void)lang;
	(void)line_base;
	(void)out;
	return 0;
}

void
codescan_refs(const char *text, size_t len, struct strlist *out)
{
	(void)text;
	(void)len;
	(void)out;
}
