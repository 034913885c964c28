#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "xmalloc.h"

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

int
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

int
buf_read_file(const char *path, size_t max, char **out, size_t *len)
{
	struct buf	 b;
	struct stat	 st;
	char		 tmp[65536];
	ssize_t		 n;
	int		 fd, saved;

	*out = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		goto fail;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (max != 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > max) {
		errno = EFBIG;
		goto fail;
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
			goto fail;
		}
		if (n == 0)
			break;
		if (buf_add(&b, tmp, (size_t)n) == -1) {
			buf_done(&b);
			errno = EFBIG;
			goto fail;
		}
	}
	close(fd);
	*len = b.len;
	*out = buf_take(&b);
	return 0;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}
