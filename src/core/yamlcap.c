#include "autoconfig.h"

#include <yaml.h>

#include "core/yamlcap.h"

enum yamlcap
yamlcap_check(const char *s, size_t n, int max_depth, size_t max_nodes,
    size_t *line, size_t *column)
{
	yaml_parser_t	 parser;
	yaml_event_t	 ev;
	enum yamlcap	 rv = YAMLCAP_OK;
	size_t		 nodes = 0;
	int		 depth = 0, end = 0;

	*line = *column = 0;
	if (!yaml_parser_initialize(&parser))
		return YAMLCAP_OK;	/* the loader reports it */
	yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
	while (!end && rv == YAMLCAP_OK) {
		if (!yaml_parser_parse(&parser, &ev))
			break;		/* a syntax error: the loader's */
		switch (ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
			if (depth >= max_depth)
				rv = YAMLCAP_DEEP;
			else if (++nodes > max_nodes)
				rv = YAMLCAP_MANY;
			if (ev.type == YAML_SEQUENCE_START_EVENT ||
			    ev.type == YAML_MAPPING_START_EVENT)
				depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_STREAM_END_EVENT:
			end = 1;
			break;
		default:
			break;
		}
		if (rv != YAMLCAP_OK) {
			*line = ev.start_mark.line;
			*column = ev.start_mark.column;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return rv;
}
