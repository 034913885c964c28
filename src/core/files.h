/*
 * A skill folder's bundled files: listing and the traversal-safe read
 * behind `read` and read_skill_file.
 */
#ifndef SR_FILES_H
#define SR_FILES_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/*
 * Lists the files of a skill folder: its own files (SKILL.md excepted) and
 * one level inside each of its subfolders (references/, scripts/,
 * assets/ ...), sorted, as [{path, size}] with paths relative to dir.
 * At most max items; *truncated is set when more exist. Symlinks that
 * resolve outside dir are left out. Returns a new array.
 */
cJSON	*files_list(const char *dir, int max, int *truncated);

/*
 * Reads relpath (relpath_len bytes: it may contain a NUL, which is refused)
 * below dir. Refused, each with its own message: an empty path, an
 * absolute path, a ".." component, a NUL byte, a path that resolves (via
 * symlinks) outside dir, a directory, a binary or non-UTF-8 file, and a
 * file over max bytes. Returns 0 with *out (free it) and *len, or
 * SR_REFUSED / SR_NOTFOUND / SR_IO with *cause.
 */
int	 files_read(const char *dir, const char *relpath, size_t relpath_len,
	    size_t max, char **out, size_t *len, char **cause);

/* What files_read_ends() read of a file, and how its lines map. */
struct files_ends {
	int64_t	 size;		/* the file's whole size */
	int	 tail_line;	/* the read text's line where the tail
				   begins; 0 when the file was read whole */
	int	 tail_shift;	/* ... add it to such a line: the file's */
};

/*
 * files_read() for a scan: a file over max bytes is not refused but read
 * as its head and its tail (max/2 bytes each, joined by a newline); e
 * gets the file's whole size, so *len < e->size says it was not read
 * whole, and what files_ends_line() needs to give the line numbers of the
 * file for the text read (the skipped middle's newlines are counted).
 */
int	 files_read_ends(const char *dir, const char *relpath, size_t max,
	    char **out, size_t *len, struct files_ends *e, char **cause);

/* Line `line` of the text files_read_ends() read, as the file's line. */
int	 files_ends_line(const struct files_ends *e, int line);

/*
 * Opens rel below the directory dirfd for reading, following no symlink
 * in any component and never leaving dirfd (openat2() RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS where the kernel has it, else a walk of openat()
 * O_NOFOLLOW). Returns the descriptor (non-blocking; any type: fstat() it)
 * or -1 with errno: ELOOP, ENOTDIR or EXDEV for a symlink or a "..".
 */
int	 files_open_beneath(int dirfd, const char *rel);

/*
 * Opens the absolute, already resolved path (a struct skill's realpath)
 * without following a symlink in any component: one that became a symlink
 * since it was resolved fails as files_open_beneath() does.
 */
int	 files_open_resolved(const char *path);

/* 1 when data is valid UTF-8 without NUL bytes. */
int	 files_is_text(const char *data, size_t len);

/* The longest prefix of s no longer than n that ends on a UTF-8 boundary. */
size_t	 files_utf8_cut(const char *s, size_t len, size_t n);

#endif
