#include "diskseq.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>

int diskseq_read(const struct root *r, const char *disk, unsigned long long *seq)
{
	char rel[PATH_MAX];

	if (!disk || !*disk)
		return -EINVAL;
	if (snprintf(rel, sizeof(rel), "sys/block/%s/diskseq", disk) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	return root_read_u64(r, rel, seq);
}
