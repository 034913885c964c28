/*
 * The embedder interface every backend implements (embed.c's built-in
 * one, embed_ollama.c) and the vector arithmetic they share. An embedder
 * turns texts into L2-normalised float vectors of a fixed dimension:
 * embed() writes n * dim floats into out (caller-allocated), and must be
 * safe to call from several threads at once. The registry that creates
 * and frees embedders is embed.h; this header depends on nothing.
 */
#ifndef SR_EMBEDDER_H
#define SR_EMBEDDER_H

#include <stddef.h>

struct embedder {
	const char	*name;		/* "builtin", ... */
	int		 dim;
	/* Returns 0 or an enum sr_status with *cause set (free it). */
	int		(*embed)(struct embedder *, const char *const *texts,
			    size_t n, float *out, char **cause);
	/* Queries, when they are handled apart (cached); NULL: embed(). */
	int		(*embed_query)(struct embedder *,
			    const char *const *texts, size_t n, float *out,
			    char **cause);
	void		(*free)(struct embedder *);
	void		*priv;
};

#define EMBED_DIM_DEFAULT	256
#define EMBED_DIM_MIN		16
#define EMBED_DIM_MAX		4096

/* Scales v to unit length (left as is when it is all zeros). */
void	 embedder_normalize(float *v, int dim);

#endif
