/*
 * Caps on YAML shape checked before the YAML is loaded: libyaml's scanner
 * pays time quadratic in the flow nesting (every token walks the stack of
 * possible simple keys), so 60 KB of "[[[[" costs seconds in
 * yaml_parser_load() before any depth check on the document could run.
 * yamlcap_check() streams events and stops at the first one over a cap,
 * so the cost is bounded by the caps, not by the input. Frontmatter and
 * the config file both use it. No allocation is kept.
 */
#ifndef SR_YAMLCAP_H
#define SR_YAMLCAP_H

#include <stddef.h>

enum yamlcap {
	YAMLCAP_OK = 0,		/* within the caps, or a syntax error */
	YAMLCAP_DEEP,		/* a node inside max_depth collections */
	YAMLCAP_MANY		/* more than max_nodes nodes */
};

/*
 * Walks the YAML events of [s, s + n) and returns YAMLCAP_DEEP at the
 * first node (scalar, alias or collection) that sits inside max_depth
 * collections, YAMLCAP_MANY at node max_nodes + 1 (aliases counted once,
 * not expanded), else YAMLCAP_OK. A syntax error also returns
 * YAMLCAP_OK: the loader that runs next reports it with its position.
 * *line and *column are the 0-based position of the node that broke a
 * cap.
 */
enum yamlcap	 yamlcap_check(const char *s, size_t n, int max_depth,
		    size_t max_nodes, size_t *line, size_t *column);

#endif
