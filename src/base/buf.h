/*
 * A growable byte buffer, always NUL-terminated. An embedded object:
 * buf_init() / buf_done(). A buffer may carry a cap (max bytes); an
 * append that would exceed it fails with -1 and leaves the buffer as it
 * was, so data read from files or sockets can never grow without bound.
 * buf_take() hands the bytes to the caller (free() them) and resets the
 * buffer. Pointers into b->p are valid until the next append.
 */
#ifndef SR_BUF_H
#define SR_BUF_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

struct stat;

struct buf {
	char	*p;
	size_t	 len;
	size_t	 cap;
	size_t	 max;		/* 0: unlimited */
};

void	 buf_init(struct buf *, size_t max);
void	 buf_done(struct buf *);
void	 buf_reset(struct buf *);
int	 buf_add(struct buf *, const void *, size_t);
int	 buf_addstr(struct buf *, const char *);
int	 buf_addc(struct buf *, int);
int	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Returns the contents (never NULL) and resets the buffer. */
char	*buf_take(struct buf *);

/*
 * The NUL-terminated string at offset *at of data (len bytes), moving *at
 * past its NUL; NULL when *at is at or past the end or no NUL follows
 * (for reading back blobs written with buf_add(..., strlen(s) + 1)).
 */
const char *buf_cstr_at(const char *data, size_t len, size_t *at);

/*
 * errno of buf_read_file() for a path that is neither a regular file nor
 * a directory (a FIFO, socket or device): reading one could block for
 * ever or never end. buf_strerror() words it.
 */
#define BUF_ENOTREG	ENODEV

/*
 * Opens path for reading without blocking on a FIFO (whose open() waits
 * for a writer) and refuses anything but a regular file before a read()
 * could wait for data that never comes: every read of a file we did not
 * create goes through it. Fills *st when st is not NULL. Returns the
 * descriptor in blocking mode (close() it), or -1 with errno set (EISDIR,
 * BUF_ENOTREG, or open()'s).
 */
int	 buf_open_regular(const char *path, struct stat *st);

/*
 * Reads a whole regular file into *out (NUL-terminated, length in *len).
 * Files larger than max bytes (0: unlimited) fail with errno EFBIG; a
 * directory with EISDIR; anything else that is not a regular file with
 * BUF_ENOTREG, found without blocking (a FIFO is opened non-blocking and
 * refused before any read). Returns 0 or -1 with errno set.
 */
int	 buf_read_file(const char *path, size_t max, char **out, size_t *len);

/* The same for an open regular file fd, st its fstat(): the caller closes fd. */
int	 buf_read_fd(int fd, const struct stat *st, size_t max, char **out,
	    size_t *len);

/*
 * Words err from buf_read_file(path): strerror(err), or for BUF_ENOTREG
 * "not a regular file (a FIFO)" naming what path is. Returns a static
 * string.
 */
const char *buf_strerror(const char *path, int err);

/*
 * Creates the missing parent directories of path with mode (like mkdir
 * -p of its dirname). Returns 0, or -1 with errno set (ENOTDIR when a
 * component exists but is not a directory).
 */
int	 buf_mkparents(const char *path, int mode);

/*
 * Replaces path with len bytes of data atomically: written to a temporary
 * file in the same directory, fsynced, then renamed over path, so a
 * reader sees the old or the new file. mode < 0 keeps the mode of an
 * existing file (0666 less the umask for a new one). Returns 0, or -1
 * with errno set; the temporary file is removed on failure.
 */
int	 buf_write_atomic(const char *path, const void *data, size_t len,
	    int mode);

/*
 * buf_write_atomic() for callers with a cause: with mkdirs, the missing
 * parent directories are created first (0755). Returns 0, or SR_IO with
 * *cause "path: reason" (free it).
 */
int	 buf_save(const char *path, const void *data, size_t len, int mode,
	    int mkdirs, char **cause);

#endif
