/*
 * Fixture files for the C unit tests, header-only like tap.h (include
 * tap.h first): testdata_read() loads a file below tests/data and
 * testdata_row() walks it as TSV. Cases live in files so that a reviewer
 * can read and extend them without C.
 *
 * Ownership: testdata_read() returns an allocated buffer the caller
 * frees; testdata_row() cuts that buffer in place and its fields point
 * into it, valid until the buffer is freed.
 */
#ifndef SR_TESTDATA_H
#define SR_TESTDATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define TESTDATA_MAX	(1024 * 1024)	/* fixtures are small: cap a read */

/*
 * Returns the whole of tests/data/rel, NUL-terminated, or NULL after a
 * diag line when it cannot be read. The caller frees it. The tree is
 * $TOP_SRCDIR, which make check exports (distcheck's read-only source
 * tree included), or the one configure saw when a test runs by hand.
 */
static char * __attribute__((unused))
testdata_read(const char *rel)
{
	const char	*top = getenv("TOP_SRCDIR");
	char		*path = NULL, *buf = NULL;
	size_t		 len, n;
	FILE		*fp = NULL;

	if (top == NULL || *top == '\0')
		top = SR_SRCDIR;
	len = strlen(top) + strlen("/tests/data/") + strlen(rel) + 1;
	if ((path = malloc(len)) == NULL || (buf = malloc(TESTDATA_MAX)) == NULL)
		abort();
	snprintf(path, len, "%s/tests/data/%s", top, rel);
	if ((fp = fopen(path, "r")) == NULL) {
		diag("%s: cannot open", path);
		free(buf);
		buf = NULL;
		goto out;
	}
	n = fread(buf, 1, TESTDATA_MAX - 1, fp);
	if (ferror(fp) || !feof(fp)) {
		diag("%s: read error or over %d bytes", path, TESTDATA_MAX);
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[n] = '\0';
out:
	if (fp != NULL)
		fclose(fp);
	free(path);
	return buf;
}

/*
 * Cuts the next row out of a TSV buffer at *cursor, skipping blank lines
 * and lines starting with '#', into at most nf tab-separated fields.
 * Returns the number of fields found (the last keeps any further tabs),
 * or 0 at the end of the buffer. It exists so that every table of cases
 * shares one reading of the format of tests/data/injection/expect.tsv.
 */
static int __attribute__((unused))
testdata_row(char **cursor, char **f, int nf)
{
	char	*line, *nl, *tab;
	int	 n;

	for (;;) {
		line = *cursor;
		if (line == NULL || *line == '\0')
			return 0;
		if ((nl = strchr(line, '\n')) != NULL) {
			*nl = '\0';
			*cursor = nl + 1;
		} else
			*cursor = line + strlen(line);
		if (*line != '\0' && *line != '#')
			break;
	}
	for (n = 0; n < nf; n++) {
		f[n] = line;
		if (n + 1 == nf || (tab = strchr(line, '\t')) == NULL)
			return n + 1;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

#endif
