/*
 * The embedder registry and the built-in backend. embed_new() picks the
 * backend cfg names: the built-in one hashes character n-grams and word
 * unigrams of the normalised text (no model file); the ollama backend
 * (embed_ollama.h) asks Ollama's /api/embed. Backends implement the
 * interface in embedder.h and never include this header, so the registry
 * depends on them and not the other way.
 *
 * embed_new() returns an embedder the caller releases with embed_free().
 */
#ifndef SR_EMBED_H
#define SR_EMBED_H

#include <stddef.h>

#include "search/embedder.h"

struct config;

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

#endif
