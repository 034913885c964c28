/*
 * Putting the mini-index where an agent reads it (see miniindex_install.h):
 * writing and comparing the index file, and adding or removing the
 * import line in CLAUDE.md, byte for byte and with a backup.
 */
#include "autoconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config.h"
#include "miniindex_install.h"
#include "status.h"
#include "xmalloc.h"

/* Largest CLAUDE.md or mini-index file read back. */
#define FILE_MAX	(8 * 1024 * 1024)

int
miniindex_write_file(const char *path, const char *data, size_t len,
    char **cause)
{
	*cause = NULL;
	return buf_save(path, data, len, -1, 1, cause);
}

int
miniindex_check_file(const char *path, const char *text, char **cause)
{
	char	*data;
	size_t	 len;
	int	 rv;

	*cause = NULL;
	if (buf_read_file(path, FILE_MAX, &data, &len) == -1) {
		if (errno == ENOENT)
			return 1;
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return SR_IO;
	}
	rv = len == strlen(text) && memcmp(data, text, len) == 0 ? 0 : 1;
	free(data);
	return rv;
}

char *
miniindex_import_line(const char *path)
{
	const char	*home = getenv("HOME");
	char		*line;
	size_t		 n;

	if (home != NULL && (n = strlen(home)) > 0 && home[n - 1] == '/')
		n--;
	if (home != NULL && n > 0 && strncmp(path, home, n) == 0 &&
	    path[n] == '/')
		xasprintf(&line, "@~%s", path + n);
	else
		xasprintf(&line, "@%s", path);
	return line;
}

char *
miniindex_claude_md_path(void)
{
	return config_expand_tilde("~/.claude/CLAUDE.md");
}

/* Reads a file that may be missing (*data NULL then). */
static int
read_optional(const char *path, char **data, size_t *len, char **cause)
{
	*data = NULL;
	*len = 0;
	if (buf_read_file(path, FILE_MAX, data, len) == 0)
		return 0;
	*data = NULL;
	if (errno == ENOENT)
		return 0;
	xasprintf(cause, "%s: %s", path, strerror(errno));
	return SR_IO;
}

/* Does [s, e) hold exactly line, ignoring a trailing CR and blanks? */
static int
line_is(const char *s, const char *e, const char *line)
{
	size_t	 n = strlen(line);

	while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return (size_t)(e - s) == n && memcmp(s, line, n) == 0;
}

static int
backup(const char *path, const char *data, size_t len, char **cause)
{
	char	*bak;
	int	 rv;

	xasprintf(&bak, "%s.bak", path);
	rv = miniindex_write_file(bak, data, len, cause);
	free(bak);
	return rv;
}

int
miniindex_install(const char *claude_md, const char *index_path,
    int *changed, char **cause)
{
	struct buf	 b;
	char		*data = NULL, *line;
	const char	*s, *e;
	size_t		 len;
	int		 rv;

	*cause = NULL;
	if (changed != NULL)
		*changed = 0;
	line = miniindex_import_line(index_path);
	buf_init(&b, 0);
	if ((rv = read_optional(claude_md, &data, &len, cause)) != 0)
		goto out;
	if (data != NULL) {
		for (s = data; s < data + len; s = e + 1) {
			if ((e = memchr(s, '\n', (size_t)(data + len - s))) ==
			    NULL)
				e = data + len;
			if (line_is(s, e, line))
				goto out;	/* already there */
		}
		if ((rv = backup(claude_md, data, len, cause)) != 0)
			goto out;
		buf_add(&b, data, len);
		if (len > 0 && data[len - 1] != '\n')
			buf_addc(&b, '\n');
	}
	buf_printf(&b, "%s\n", line);
	if ((rv = miniindex_write_file(claude_md, b.p, b.len, cause)) != 0)
		goto out;
	if (changed != NULL)
		*changed = 1;
out:
	buf_done(&b);
	free(data);
	free(line);
	return rv;
}

int
miniindex_uninstall(const char *claude_md, const char *index_path,
    int *changed, char **cause)
{
	struct buf	 b;
	char		*data = NULL, *line;
	const char	*s, *e;
	size_t		 len;
	int		 rv, hit = 0;

	*cause = NULL;
	if (changed != NULL)
		*changed = 0;
	line = miniindex_import_line(index_path);
	buf_init(&b, 0);
	if ((rv = read_optional(claude_md, &data, &len, cause)) != 0 ||
	    data == NULL)
		goto out;
	for (s = data; s < data + len; s = e + 1) {
		if ((e = memchr(s, '\n', (size_t)(data + len - s))) == NULL)
			e = data + len;
		if (line_is(s, e, line)) {
			hit = 1;
			continue;
		}
		buf_add(&b, s, (size_t)(e - s) + (e < data + len));
	}
	if (!hit)
		goto out;
	if ((rv = backup(claude_md, data, len, cause)) != 0)
		goto out;
	if ((rv = miniindex_write_file(claude_md, b.p, b.len, cause)) != 0)
		goto out;
	if (changed != NULL)
		*changed = 1;
out:
	buf_done(&b);
	free(data);
	free(line);
	return rv;
}
