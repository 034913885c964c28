/*
 * What every embedder backend shares: the dot product and normalisation
 * of float vectors.
 */
#include "autoconfig.h"

#include <math.h>

#include "search/embedder.h"

void
embedder_normalize(float *v, int dim)
{
	double	 s = 0;
	float	 inv;
	int	 i;

	for (i = 0; i < dim; i++)
		s += (double)v[i] * v[i];
	if (s <= 0)
		return;
	inv = (float)(1.0 / sqrt(s));
	for (i = 0; i < dim; i++)
		v[i] *= inv;
}
