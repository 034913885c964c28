#include "autoconfig.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <sys/syscall.h>
#include <linux/openat2.h>
#define HAVE_OPENAT2_CALL 1
#endif
#endif

#include "base/buf.h"
#include "core/files.h"
#include "base/status.h"
#include "core/trust.h"
#include "base/xmalloc.h"

/* The walk behind files_open_beneath() where openat2() is missing. */
static int
open_walk(int dirfd, const char *rel)
{
	const char	*p = rel, *slash;
	char		 comp[NAME_MAX + 1];
	size_t		 n;
	int		 cur = dirfd, next, saved;

	for (;;) {
		while (*p == '/')
			p++;
		slash = strchr(p, '/');
		n = slash != NULL ? (size_t)(slash - p) : strlen(p);
		if (n > NAME_MAX) {
			errno = ENAMETOOLONG;
			goto fail;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (strcmp(comp, "..") == 0) {
			errno = EXDEV;
			goto fail;
		}
		while (slash != NULL && slash[1] == '/')
			slash++;
		if (slash == NULL || slash[1] == '\0')
			break;
		if (n > 0 && strcmp(comp, ".") != 0) {
			next = openat(cur, comp, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
			if (next == -1)
				goto fail;
			if (cur != dirfd)
				close(cur);
			cur = next;
		}
		p = slash + 1;
	}
	next = openat(cur, n > 0 ? comp : ".", O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC | O_NONBLOCK);
	saved = errno;
	if (cur != dirfd)
		close(cur);
	errno = saved;
	return next;
fail:
	saved = errno;
	if (cur != dirfd)
		close(cur);
	errno = saved;
	return -1;
}

int
files_open_beneath(int dirfd, const char *rel)
{
#ifdef HAVE_OPENAT2_CALL
	struct open_how	 how;
	long		 fd;

	memset(&how, 0, sizeof how);
	how.flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
	    RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM &&
	    errno != EINVAL && errno != E2BIG))
		return (int)fd;
#endif
	return open_walk(dirfd, rel);
}

int
files_open_resolved(const char *path)
{
	int	 root, fd, saved;

	if (path == NULL || path[0] != '/') {
		errno = EINVAL;
		return -1;
	}
	if ((root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	fd = files_open_beneath(root, path + 1);
	saved = errno;
	close(root);
	errno = saved;
	return fd;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of a directory, without . and ..; *n gets the count. */
static char **
dir_names(const char *dir, size_t *n)
{
	DIR		*d;
	struct dirent	*de;
	char		**v = NULL;
	size_t		  cap = 0;

	*n = 0;
	if ((d = opendir(dir)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(v, *n, sizeof *v, cmpstr);
	return v;
}

static void
free_names(char **v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* 1 when full resolves to a path inside realdir. */
static int
inside(const char *full, const char *realdir)
{
	char	 r[PATH_MAX];

	if (realpath(full, r) == NULL)
		return 0;
	return trust_under(r, realdir) && strcmp(r, realdir) != 0;
}

static void
add_file(cJSON *arr, const char *rel, const struct stat *st)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "path", rel);
	cJSON_AddNumberToObject(o, "size", (double)st->st_size);
	cJSON_AddItemToArray(arr, o);
}

cJSON *
files_list(const char *dir, int max, int *truncated)
{
	cJSON		*arr = cJSON_CreateArray();
	struct stat	 st;
	char		 realdir[PATH_MAX], *full, *sub, *rel, **names, **inner;
	size_t		 n, m, i, j;
	int		 count = 0;

	*truncated = 0;
	if (realpath(dir, realdir) == NULL)
		return arr;
	if ((names = dir_names(dir, &n)) == NULL)
		return arr;
	for (i = 0; i < n && !*truncated; i++) {
		if (strcmp(names[i], "SKILL.md") == 0)
			continue;
		xasprintf(&full, "%s/%s", dir, names[i]);
		if (stat(full, &st) == -1 || !inside(full, realdir)) {
			free(full);
			continue;
		}
		if (S_ISREG(st.st_mode)) {
			if (count++ >= max)
				*truncated = 1;
			else
				add_file(arr, names[i], &st);
		} else if (S_ISDIR(st.st_mode) &&
		    (inner = dir_names(full, &m)) != NULL) {
			for (j = 0; j < m && !*truncated; j++) {
				xasprintf(&sub, "%s/%s", full, inner[j]);
				xasprintf(&rel, "%s/%s", names[i], inner[j]);
				if (stat(sub, &st) == 0 && S_ISREG(st.st_mode) &&
				    inside(sub, realdir)) {
					if (count++ >= max)
						*truncated = 1;
					else
						add_file(arr, rel, &st);
				}
				free(sub);
				free(rel);
			}
			free_names(inner, m);
		}
		free(full);
	}
	free_names(names, n);
	return arr;
}

int
files_is_text(const char *data, size_t len)
{
	const unsigned char	*p = (const unsigned char *)data;
	size_t			 i = 0, k, need;
	unsigned int		 cp;

	while (i < len) {
		if (p[i] == 0)
			return 0;
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if ((p[i] & 0xe0) == 0xc0) {
			need = 1;
			cp = p[i] & 0x1f;
		} else if ((p[i] & 0xf0) == 0xe0) {
			need = 2;
			cp = p[i] & 0x0f;
		} else if ((p[i] & 0xf8) == 0xf0) {
			need = 3;
			cp = p[i] & 0x07;
		} else
			return 0;
		if (i + need >= len)
			return 0;
		for (k = 1; k <= need; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (p[i + k] & 0x3f);
		}
		if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
		    (need == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

size_t
files_utf8_cut(const char *s, size_t len, size_t n)
{
	if (n >= len)
		return len;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/* The longest prefix of s[0..n) that does not end inside a character. */
static size_t
utf8_whole(const char *s, size_t n)
{
	unsigned char	 c;
	size_t		 i = n, need;

	while (i > 0 && n - i < 3 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
		i--;
	if (i == 0)
		return n;
	c = (unsigned char)s[i - 1];
	need = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ?
	    3 : (c & 0xf8) == 0xf0 ? 4 : 1;
	return n - (i - 1) >= need ? n : i - 1;
}

/*
 * The head and the tail of fd (st_size over max), max/2 bytes each cut on
 * UTF-8 boundaries and joined by a newline: what a scan reads of a file
 * padded past its cap, so that padding cannot hide the payload.
 */
/* Newlines in b[0..n). */
static int
count_nl(const char *b, size_t n)
{
	const char	*p = b, *end = b + n;
	int		 c = 0;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		c++;
		p++;
	}
	return c;
}

/* Newlines in fd's bytes [from, to): one pass, 64 KiB at a time. */
static int
count_nl_fd(int fd, off_t from, off_t to)
{
	char	 buf[65536];
	ssize_t	 n;
	int	 c = 0;

	while (from < to) {
		n = pread(fd, buf, to - from < (off_t)sizeof buf ?
		    (size_t)(to - from) : sizeof buf, from);
		if (n <= 0)
			break;
		c += count_nl(buf, (size_t)n);
		from += n;
	}
	return c;
}

int
files_ends_line(const struct files_ends *e, int line)
{
	if (e == NULL || e->tail_line == 0 || line < e->tail_line)
		return line;
	return line + e->tail_shift;
}

/*
 * e gets where the tail begins in the joined text and how far its lines
 * are from the file's: the head's newlines plus the joining one, and
 * the skipped middle's newlines less that joining one.
 */
static void
read_ends(int fd, const struct stat *st, size_t max, char **out, size_t *len,
    struct files_ends *e)
{
	size_t	 head = max / 2, tail = max - head, got, skip = 0;
	off_t	 at;
	ssize_t	 n;
	char	*b;

	b = xmalloc(max + 2);
	for (got = 0; got < head; got += (size_t)n) {
		if ((n = pread(fd, b + got, head - got, (off_t)got)) <= 0)
			break;
	}
	head = utf8_whole(b, got);
	b[head] = '\n';
	at = st->st_size - (off_t)tail;
	for (got = 0; got < tail; got += (size_t)n) {
		if ((n = pread(fd, b + head + 1 + got, tail - got,
		    at + (off_t)got)) <= 0)
			break;
	}
	while (skip < got && ((unsigned char)b[head + 1 + skip] & 0xc0) ==
	    0x80)
		skip++;
	memmove(b + head + 1, b + head + 1 + skip, got - skip);
	*len = head + 1 + got - skip;
	b[*len] = '\0';
	*out = b;
	if (e != NULL) {
		e->tail_line = count_nl(b, head) + 2;
		e->tail_shift = count_nl_fd(fd, (off_t)head,
		    at + (off_t)skip) - 1;
	}
}

static int	read_below(const char *, const char *, size_t, size_t, int,
		    char **, size_t *, struct files_ends *, char **);

int
files_read(const char *dir, const char *relpath, size_t relpath_len,
    size_t max, char **out, size_t *len, char **cause)
{
	return read_below(dir, relpath, relpath_len, max, 0, out, len, NULL,
	    cause);
}

int
files_read_ends(const char *dir, const char *relpath, size_t max,
    char **out, size_t *len, struct files_ends *e, char **cause)
{
	memset(e, 0, sizeof *e);
	return read_below(dir, relpath, strlen(relpath), max, 1, out, len,
	    e, cause);
}

static int
read_below(const char *dir, const char *relpath, size_t relpath_len,
    size_t max, int ends, char **out, size_t *len, struct files_ends *e,
    char **cause)
{
	struct strlist	 parts;
	struct stat	 st;
	char		 realdir[PATH_MAX], real[PATH_MAX], *full = NULL;
	size_t		 i;
	int		 rv = 0, dfd = -1, fd = -1, err;

	*out = NULL;
	*len = 0;
	strlist_init(&parts);
	if (relpath_len == 0 || *relpath == '\0') {
		xasprintf(cause, "empty path: name a file inside the skill "
		    "folder, e.g. references/guide.md");
		return SR_REFUSED;
	}
	if (memchr(relpath, '\0', relpath_len) != NULL) {
		xasprintf(cause, "path contains a NUL byte: refused");
		return SR_REFUSED;
	}
	if (relpath[0] == '/' || relpath[0] == '~') {
		xasprintf(cause, "'%s' is absolute: give a path relative to "
		    "the skill folder", relpath);
		return SR_REFUSED;
	}
	strlist_split(&parts, relpath, "/");
	for (i = 0; i < parts.n; i++) {
		if (strcmp(parts.v[i], "..") == 0) {
			xasprintf(cause, "'%s' contains '..': paths may not "
			    "leave the skill folder", relpath);
			rv = SR_REFUSED;
			goto out;
		}
	}
	if (realpath(dir, realdir) == NULL) {
		xasprintf(cause, "%s: %s", dir, strerror(errno));
		rv = SR_NOTFOUND;
		goto out;
	}
	xasprintf(&full, "%s/%s", dir, relpath);
	if (realpath(full, real) == NULL) {
		xasprintf(cause, "no file '%s' in this skill (%s)", relpath,
		    strerror(errno));
		rv = SR_NOTFOUND;
		goto out;
	}
	if (strcmp(real, realdir) == 0) {
		xasprintf(cause, "'%s' is the skill folder itself, a "
		    "directory: name a file in it", relpath);
		rv = SR_REFUSED;
		goto out;
	}
	if (!trust_under(real, realdir)) {
		xasprintf(cause, "'%s' resolves outside the skill folder "
		    "(symlink to %s): refused", relpath, real);
		rv = SR_REFUSED;
		goto out;
	}
	/*
	 * What was checked above is a name; what is read is the file opened
	 * once, below the folder, following no symlink: a folder swapped
	 * for a symlink in between is refused, not followed.
	 */
	if ((dfd = open(realdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    (fd = files_open_beneath(dfd, relpath)) == -1) {
		err = errno;
		if (err == ELOOP || err == EXDEV || err == ENOTDIR)
			xasprintf(cause, "'%s' is or passes through a symlink, "
			    "which may lead outside the skill folder: refused",
			    relpath);
		else
			xasprintf(cause, "no file '%s' in this skill (%s)",
			    relpath, strerror(err));
		rv = err == ENOENT ? SR_NOTFOUND : SR_REFUSED;
		goto out;
	}
	if (fstat(fd, &st) == -1) {
		xasprintf(cause, "%s: %s", relpath, strerror(errno));
		rv = SR_IO;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		xasprintf(cause, "'%s' is a directory: name a file in it",
		    relpath);
		rv = SR_REFUSED;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		xasprintf(cause, "'%s': %s", relpath, buf_strerror(real,
		    BUF_ENOTREG));
		rv = SR_REFUSED;
		goto out;
	}
	if (e != NULL)
		e->size = (int64_t)st.st_size;
	if ((size_t)st.st_size > max && ends)
		read_ends(fd, &st, max, out, len, e);
	else if ((size_t)st.st_size > max) {
		xasprintf(cause, "'%s' is %lld bytes, over limits.max_related_kb "
		    "(%zu KiB): refused", relpath, (long long)st.st_size,
		    max / 1024);
		rv = SR_REFUSED;
		goto out;
	} else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == -1 ||
	    buf_read_fd(fd, &st, max, out, len) == -1) {
		rv = errno == EFBIG ? SR_REFUSED : SR_IO;
		xasprintf(cause, "'%s': %s", relpath, strerror(errno));
		goto out;
	}
	if (!files_is_text(*out, *len)) {
		free(*out);
		*out = NULL;
		*len = 0;
		xasprintf(cause, "'%s' is a binary or non-UTF-8 file: only "
		    "text files can be read", relpath);
		rv = SR_REFUSED;
	}
out:
	if (fd != -1)
		close(fd);
	if (dfd != -1)
		close(dfd);
	free(full);
	strlist_done(&parts);
	return rv;
}
