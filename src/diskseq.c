#include "diskseq.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>

/* sys/block/NAME/diskseq, with sysfs's '!' for a '/' in the name. */
static int path_of(const char *disk, char *out, size_t len)
{
	char sysname[PATH_MAX / 2];

	if (!disk || !*disk)
		return -EINVAL;
	root_sysfs_name(disk, sysname, sizeof(sysname));
	if (snprintf(out, len, "sys/block/%s/diskseq", sysname) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int diskseq_read(const struct root *r, const char *disk, unsigned long long *seq)
{
	char rel[PATH_MAX];
	int err = path_of(disk, rel, sizeof(rel));

	return err ? err : root_read_u64(r, rel, seq);
}

int diskseq_open(const struct root *r, const char *disk)
{
	char rel[PATH_MAX];
	int err = path_of(disk, rel, sizeof(rel));

	return err ? err : root_openat(r, rel, O_RDONLY);
}

int diskseq_pread(int fd, unsigned long long *seq)
{
	return root_pread_u64(fd, seq);
}
