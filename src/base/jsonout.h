/*
 * JSON we hand out: every JSON text printed for a user (--json) or sent
 * to a client (MCP, REST, /healthz) goes through jsonout_print(), so it
 * is valid UTF-8 whatever bytes reached it (an argv query in Latin-1, a
 * name read from a file). Strings and keys are checked and repaired in
 * place: each byte that does not start a valid UTF-8 sequence becomes
 * U+FFFD. Input is refused elsewhere (mcp_text_check()); this is the
 * guarantee on the way out.
 */
#ifndef SR_JSONOUT_H
#define SR_JSONOUT_H

#include <cjson/cJSON.h>

/*
 * Scrubs o and prints it (indented when pretty). Returns a new string
 * (free it), NULL for a NULL o. o stays the caller's.
 */
char	*jsonout_print(cJSON *o, int pretty);

#endif
