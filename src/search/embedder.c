/*
 * What every embedder backend shares: the dot product and normalisation
 * of float vectors.
 */
#include "autoconfig.h"

#include <math.h>

#include "search/embedder.h"

float
embedder_dot(const float *a, const float *b, int dim)
{
	float	 acc[8] = { 0 }, s;
	int	 i, j;

	/* Eight independent sums, so the compiler can use vector lanes. */
	for (i = 0; i + 8 <= dim; i += 8)
		for (j = 0; j < 8; j++)
			acc[j] += a[i + j] * b[i + j];
	s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) +
	    ((acc[4] + acc[5]) + (acc[6] + acc[7]));
	for (; i < dim; i++)
		s += a[i] * b[i];
	return s;
}

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
