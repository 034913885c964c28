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

#include "base/buf.h"
#include "core/config.h"
#include "tier1/miniindex_install.h"
#include "base/status.h"
#include "base/xmalloc.h"

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

/* The end of the line starting at s: its '\n', or end. */
static const char *
line_end(const char *s, const char *end)
{
	const char	*e;

	if ((e = memchr(s, '\n', (size_t)(end - s))) == NULL)
		e = end;
	return e;
}

/*
 * The edit of miniindex_install(): unless the import line is there
 * already, the file (data NULL: none) with the line added at its end.
 * Puts the new text in b and returns 1 when the file must change.
 */
static int
add_line(const char *data, size_t len, const char *line, struct buf *b)
{
	const char	*s, *e;

	if (data != NULL) {
		for (s = data; s < data + len; s = e + 1) {
			e = line_end(s, data + len);
			if (line_is(s, e, line))
				return 0;	/* already there */
		}
		buf_add(b, data, len);
		if (len > 0 && data[len - 1] != '\n')
			buf_addc(b, '\n');
	}
	buf_printf(b, "%s\n", line);
	return 1;
}

/*
 * The edit of miniindex_uninstall(): the file without the lines equal to
 * the import line, every other byte kept. Returns 1 when there was one.
 */
static int
drop_line(const char *data, size_t len, const char *line, struct buf *b)
{
	const char	*s, *e;
	int		 hit = 0;

	if (data == NULL)
		return 0;
	for (s = data; s < data + len; s = e + 1) {
		e = line_end(s, data + len);
		if (line_is(s, e, line)) {
			hit = 1;
			continue;
		}
		buf_add(b, s, (size_t)(e - s) + (e < data + len));
	}
	return hit;
}

/*
 * What install and uninstall share: read claude_md (it may be missing),
 * let edit decide on the new text for the import line of index_path, and
 * when it changes, keep a backup of the old file and write the new one.
 */
static int
edit_claude_md(const char *claude_md, const char *index_path,
    int (*edit)(const char *, size_t, const char *, struct buf *),
    int *changed, char **cause)
{
	struct buf	 b;
	char		*data = NULL, *line;
	size_t		 len;
	int		 rv;

	*cause = NULL;
	if (changed != NULL)
		*changed = 0;
	line = miniindex_import_line(index_path);
	buf_init(&b, 0);
	if ((rv = read_optional(claude_md, &data, &len, cause)) != 0 ||
	    !edit(data, len, line, &b))
		goto out;
	if (data != NULL && (rv = backup(claude_md, data, len, cause)) != 0)
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

int
miniindex_install(const char *claude_md, const char *index_path,
    int *changed, char **cause)
{
	return edit_claude_md(claude_md, index_path, add_line, changed, cause);
}

int
miniindex_uninstall(const char *claude_md, const char *index_path,
    int *changed, char **cause)
{
	return edit_claude_md(claude_md, index_path, drop_line, changed,
	    cause);
}
