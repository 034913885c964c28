/*
 * Putting the Tier-1 mini-index where an agent reads it: the text
 * (miniindex.h) is written atomically to its file (mini_index.path,
 * ~/.claude/SKILLS-INDEX.md by default), and CLAUDE.md imports it with one
 * "@~/.claude/SKILLS-INDEX.md" line that install adds and uninstall
 * removes, leaving every other byte of the file as it was and keeping a
 * ".bak" copy of what it changed. `skills-radar mini-index` and
 * miniindex_auto() are the callers.
 *
 * Paths are borrowed for the call only. Strings returned and *cause are
 * allocated and owned by the caller (free()). The functions keep the
 * miniindex_ names they had when they lived in miniindex.c.
 */
#ifndef SR_MINIINDEX_INSTALL_H
#define SR_MINIINDEX_INSTALL_H

#include <stddef.h>

/*
 * Writes data to path atomically (a temporary file in the same
 * directory, then rename), creating missing parent directories and
 * keeping an existing file's mode. Returns 0 or SR_IO with *cause set.
 */
int	 miniindex_write_file(const char *path, const char *data, size_t len,
	    char **cause);

/*
 * Compares the file at path with text: returns 0 when equal, 1 when it
 * differs or is missing, or SR_IO with *cause set when it cannot be read.
 */
int	 miniindex_check_file(const char *path, const char *text,
	    char **cause);

/* The import line for a mini-index path ("@~/.claude/SKILLS-INDEX.md"). */
char	*miniindex_import_line(const char *path);

/*
 * Adds the import line for index_path to the CLAUDE.md at claude_md
 * (created if missing), unless an identical line is present. Before
 * changing an existing file it is copied to claude_md + ".bak".
 * *changed (may be NULL) tells whether the file was written.
 * Returns 0 or SR_IO with *cause set.
 */
int	 miniindex_install(const char *claude_md, const char *index_path,
	    int *changed, char **cause);
/*
 * Removes exactly the lines equal to the import line for index_path
 * (leaving every other byte as it was), with the same backup. A missing
 * file or line is not an error (*changed 0).
 */
int	 miniindex_uninstall(const char *claude_md, const char *index_path,
	    int *changed, char **cause);

/* ~/.claude/CLAUDE.md, allocated. */
char	*miniindex_claude_md_path(void);

#endif
