/*
 * Embedders: turn texts into L2-normalised float vectors of a fixed
 * dimension. struct embedder is an interface; the built-in backend hashes
 * character n-grams and word unigrams of the normalised text (no model
 * file); the ollama backend (embed_ollama.h) asks Ollama's /api/embed
 * and plugs in with its own embed(), embed_query() and free().
 *
 * embed_new() returns an embedder the caller releases with embed_free().
 * embed() writes n * dim floats into out (caller-allocated). An embedder
 * must be safe to call from several threads at once.
 */
#ifndef SR_EMBED_H
#define SR_EMBED_H

#include <stddef.h>

struct config;

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

/*
 * Creates the embedder cfg names (embedder.backend, embedder.dim; cfg may
 * be NULL for the built-in one at the default dimension). Unknown backends
 * and dimensions outside EMBED_DIM_MIN..EMBED_DIM_MAX are SR_CONFIG; an
 * ollama backend that cannot learn its dimension is SR_IO (callers fall
 * back to embed_builtin_new() and say why).
 */
int		 embed_new(const struct config *cfg, struct embedder **out,
		    char **cause);
/* The built-in hashed character n-gram embedder. */
struct embedder	*embed_builtin_new(int dim);
void		 embed_free(struct embedder *);

/* Returns the dot product of two vectors of dim floats. */
float		 embed_dot(const float *a, const float *b, int dim);
/* Scales v to unit length (left as is when it is all zeros). */
void		 embed_normalize(float *v, int dim);

#endif
