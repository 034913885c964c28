/*
 * bench_tokens FILE...: prints, for each file, its estimated Claude tokens
 * (tokens_estimate(), what the mini-index budget is checked against) and
 * its name, tab-separated. tests/bench/bench_miniindex.js pairs these
 * with @anthropic-ai/tokenizer's counts for the estimator's error table.
 */
#include "autoconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "tier1/tokens.h"
#include "base/xmalloc.h"

int
main(int argc, char **argv)
{
	char	*d;
	size_t	 n;
	int	 i, rc = 0;

	xmalloc_init();
	for (i = 1; i < argc; i++) {
		if (buf_read_file(argv[i], 0, &d, &n) == -1) {
			fprintf(stderr, "bench_tokens: %s: %s\n", argv[i],
			    strerror(errno));
			rc = 1;
			continue;
		}
		printf("%zu\t%zu\t%s\n", tokens_estimate(d, n),
		    tokens_units(d, n), argv[i]);
		free(d);
	}
	return rc;
}
