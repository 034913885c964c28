/*
 * libFuzzer target: fm_parse() then validate_entry() on arbitrary bytes,
 * for each kind, then fm_done(). Crashes, leaks (ASan) and hangs
 * (-timeout) are the failures. Built by `make fuzz`.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/finding.h"
#include "core/frontmatter.h"
#include "core/skill.h"
#include "core/validate.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	 cfg;
	struct findings	 out;
	struct fm	 fm;
	char		*name;
	const char	*desc;
	size_t		 i;
	int		 kind;

	memset(&cfg, 0, sizeof cfg);
	cfg.max_skill_size_kb = 64;
	cfg.allow_large = size & 1;

	/* data is not NUL-terminated: fm_parse() must respect size. */
	fm_parse((const char *)data, size, &fm);
	for (kind = KIND_SKILL; kind <= KIND_COMMAND; kind++) {
		findings_init(&out);
		validate_entry(&fm, (enum skill_kind)kind,
		    kind == KIND_AGENT ? "Agent_Stem" : "fuzz-dir", size, &cfg,
		    &out, &name);
		for (i = 0; i < out.n; i++) {
			if (out.v[i].rule == NULL || out.v[i].message == NULL)
				abort();
		}
		desc = validate_description(&fm, (enum skill_kind)kind);
		if (desc != NULL && strlen(desc) == (size_t)-1)
			abort();
		free(name);
		findings_done(&out);
	}
	if (fm.json == NULL || fm.json[0] != '{' ||
	    fm.body_offset > size)
		abort();
	fm_done(&fm);
	return 0;
}
