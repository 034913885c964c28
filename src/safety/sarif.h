/*
 * SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format) from a
 * scan document (the skills-radar scan --json object), for code-scanning
 * dashboards and CI: one run, the tool's driver with one rule per rule id
 * seen, one result per finding with its file and line.
 *
 * A result's level is its finding's severity, raised to its skill's risk
 * severity when the finding adds to that score (a high-risk skill's
 * findings are errors). A location's uri is relative to the uriBaseId SRCROOT (the directory
 * given, as a file:// URI in originalUriBaseIds) when the file lies below
 * it, else an absolute file:// URI. Pure functions of their input.
 */
#ifndef SR_SARIF_H
#define SR_SARIF_H

#include <cjson/cJSON.h>

/* The documentation link of the driver. */
#ifndef SR_INFORMATION_URI
#define SR_INFORMATION_URI	"man:skills-radar(1)"
#endif

/*
 * Returns a new SARIF log for doc (borrowed). base is the absolute
 * directory locations are made relative to (the working directory), or
 * NULL for absolute URIs only. The caller deletes the result.
 */
cJSON	*sarif_from_scan(const cJSON *doc, const char *base);

/*
 * Returns path as the path part of a URI (free it): each byte outside
 * RFC 3986's unreserved set and '/' percent-encoded.
 */
char	*sarif_uri_escape(const char *path);

/* "error" for high, "warning" for warn, "note" for info and anything else. */
const char *sarif_level(const char *severity);

#endif
