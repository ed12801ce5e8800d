#include "capacity.h"

#include <malloc.h>
#include <stdlib.h>

size_t capacity_shrunk(size_t used, size_t cap)
{
	size_t want = used * 2 > CAPACITY_MIN ? used * 2 : CAPACITY_MIN;

	return cap > CAPACITY_MIN && used <= cap / 4 ? want : cap;
}

void *capacity_shrink(void *arr, size_t size, size_t used, size_t *cap)
{
	size_t want = capacity_shrunk(used, *cap);
	void *p;

	if (want >= *cap || !(p = realloc(arr, want * size)))
		return arr;
	*cap = want;
	return p;
}

void capacity_release(void)
{
	malloc_trim(0);
}
