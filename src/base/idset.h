/*
 * A set of (device, inode) pairs, for cycle and duplicate detection when
 * walking directories. An embedded object: zero it (or idset_done()) to
 * start, idset_done() to free. Open addressing, grows at half full.
 */
#ifndef SR_IDSET_H
#define SR_IDSET_H

#include <stddef.h>
#include <stdint.h>

struct idset {
	uint64_t	*dev;
	uint64_t	*ino;
	unsigned char	*used;
	size_t		 cap;
	size_t		 n;
};

/* Returns 1 when the pair was added, 0 when it was already present. */
int	 idset_add(struct idset *, uint64_t dev, uint64_t ino);
void	 idset_done(struct idset *);

#endif
