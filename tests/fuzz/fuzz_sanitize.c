/*
 * libFuzzer target for the sanitiser: runs sanitize_text() (with
 * live-exec stripping), sanitize_scan() and sanitize_inline() over the
 * input and checks the invariants every caller relies on: the rewritten
 * text has the reported length and no NUL inside, and every excerpt is
 * at most 80 bytes. The catalogue comes from $SKILLS_RADAR_DATADIR (or
 * config_pkgdata_dir()); build with -fsanitize=fuzzer,address,undefined.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/finding.h"
#include "safety/sanitize.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct sanitizer	*san;

static void
setup(void)
{
	struct config	 cfg;
	char		*cause = NULL;

	memset(&cfg, 0, sizeof cfg);
	cfg.builtin_patterns = 1;
	cfg.strip_live_exec = 1;
	strlist_init(&cfg.xml_tags);
	strlist_add(&cfg.xml_tags, "developer");
	if (sanitize_new(&cfg, &san, &cause) != 0) {
		fprintf(stderr, "fuzz_sanitize: %s\n", cause);
		abort();
	}
	strlist_done(&cfg.xml_tags);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct findings	 f;
	char		*text, *r;
	size_t		 n, i;

	if (san == NULL)
		setup();
	findings_init(&f);
	r = sanitize_text(san, (const char *)data, size, 3, &n, &f);
	if (strlen(r) > n)
		abort();
	for (i = 0; i < f.n; i++) {
		/*
		 * catalogue excerpts are at most 80 bytes; the code
		 * analysis's messages (code-*, frame-*, host-placeholder),
		 * once neutralised, 160 (sanitize.c MESSAGE_MAX)
		 */
		if (strlen(f.v[i].message) > 160 && strncmp(f.v[i].rule,
		    "sanitize-", 9) != 0)
			abort();
		if (f.v[i].line < 0)
			abort();
	}
	free(r);
	findings_done(&f);

	findings_init(&f);
	sanitize_scan(san, (const char *)data, size, 0, &f);
	findings_done(&f);

	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	r = sanitize_inline(san, text);
	if (strlen(r) > 0 && (r[0] == ' ' || r[strlen(r) - 1] == ' '))
		abort();
	free(r);
	free(text);
	return 0;
}
