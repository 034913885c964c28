#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/status.h"
#include "base/xmalloc.h"

void
buf_init(struct buf *b, size_t max)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void
buf_done(struct buf *b)
{
	free(b->p);
	buf_init(b, b->max);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

static int
buf_grow(struct buf *b, size_t need)
{
	size_t	 cap;

	if (b->max != 0 && (need > b->max || b->len > b->max - need))
		return -1;
	if (b->len + need + 1 <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < b->len + need + 1)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
	return 0;
}

int
buf_add(struct buf *b, const void *data, size_t n)
{
	if (buf_grow(b, n) == -1)
		return -1;
	if (n != 0)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int
buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int
buf_addc(struct buf *b, int c)
{
	char	 ch = (char)c;

	return buf_add(b, &ch, 1);
}

static int
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list	 ap2;
	int	 n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || buf_grow(b, (size_t)n) == -1)
		return -1;
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	int	 rv;

	va_start(ap, fmt);
	rv = buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rv;
}

char *
buf_take(struct buf *b)
{
	char	*p;

	p = b->p != NULL ? b->p : xstrdup("");
	buf_init(b, b->max);
	return p;
}

const char *
buf_cstr_at(const char *data, size_t len, size_t *at)
{
	const char	*s = data + *at, *z;

	if (*at >= len || (z = memchr(s, '\0', len - *at)) == NULL)
		return NULL;
	*at += (size_t)(z - s) + 1;
	return s;
}

int
buf_open_regular(const char *path, struct stat *stp)
{
	struct stat	 stbuf, *st = stp != NULL ? stp : &stbuf;
	int		 fd, fl, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1)
		return -1;
	if (fstat(fd, st) == -1)
		goto fail;
	if (!S_ISREG(st->st_mode)) {
		errno = S_ISDIR(st->st_mode) ? EISDIR : BUF_ENOTREG;
		goto fail;
	}
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1)
		goto fail;
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int
buf_read_fd(int fd, const struct stat *st, size_t max, char **out, size_t *len)
{
	struct buf	 b;
	char		 tmp[65536];
	ssize_t		 n;
	int		 saved;

	*out = NULL;
	*len = 0;
	if (max != 0 && (size_t)st->st_size > max) {
		errno = EFBIG;
		return -1;
	}
	buf_init(&b, max);
	for (;;) {
		n = read(fd, tmp, sizeof tmp);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			saved = errno;
			buf_done(&b);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		if (buf_add(&b, tmp, (size_t)n) == -1) {
			buf_done(&b);
			errno = EFBIG;
			return -1;
		}
	}
	*len = b.len;
	*out = buf_take(&b);
	return 0;
}

int
buf_read_file(const char *path, size_t max, char **out, size_t *len)
{
	struct stat	 st;
	int		 fd, rv, saved;

	*out = NULL;
	*len = 0;
	if ((fd = buf_open_regular(path, &st)) == -1)
		return -1;
	rv = buf_read_fd(fd, &st, max, out, len);
	saved = errno;
	close(fd);
	errno = saved;
	return rv;
}

const char *
buf_strerror(const char *path, int err)
{
	struct stat	 st;

	if (err != BUF_ENOTREG)
		return strerror(err);
	if (stat(path, &st) == -1)
		return "not a regular file";
	if (S_ISFIFO(st.st_mode))
		return "not a regular file (a FIFO)";
	if (S_ISSOCK(st.st_mode))
		return "not a regular file (a socket)";
	if (S_ISCHR(st.st_mode))
		return "not a regular file (a character device)";
	if (S_ISBLK(st.st_mode))
		return "not a regular file (a block device)";
	if (S_ISDIR(st.st_mode))
		return "not a regular file (a directory)";
	return "not a regular file";
}

int
buf_mkparents(const char *path, int mode)
{
	struct stat	 st;
	char		*p, *s;
	int		 saved;

	p = xstrdup(path);
	for (s = p + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(p, (mode_t)mode) == -1 && errno != EEXIST)
			goto fail;
		if (stat(p, &st) == -1)
			goto fail;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
		*s = '/';
	}
	free(p);
	return 0;
fail:
	saved = errno;
	free(p);
	errno = saved;
	return -1;
}

int
buf_write_atomic(const char *path, const void *data, size_t len, int mode)
{
	const char	*d = data;
	struct stat	 st;
	mode_t		 mask;
	char		*tmp;
	size_t		 off = 0;
	ssize_t		 n;
	int		 fd, saved;

	if (mode < 0) {
		if (stat(path, &st) == 0)
			mode = (int)(st.st_mode & 07777);
		else {
			mask = umask(022);
			umask(mask);
			mode = (int)(0666 & ~mask);
		}
	}
	xasprintf(&tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		saved = errno;
		free(tmp);
		errno = saved;
		return -1;
	}
	while (off < len) {
		if ((n = write(fd, d + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)n;
	}
	if (fchmod(fd, (mode_t)mode) == -1 || fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto fail;
	free(tmp);
	return 0;
fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}

int
buf_save(const char *path, const void *data, size_t len, int mode,
    int mkdirs, char **cause)
{
	if (mkdirs && buf_mkparents(path, 0755) == -1) {
		xasprintf(cause, "%s: cannot create its directory: %s", path,
		    strerror(errno));
		return SR_IO;
	}
	if (buf_write_atomic(path, data, len, mode) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return SR_IO;
	}
	return 0;
}
