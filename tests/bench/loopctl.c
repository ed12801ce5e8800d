/* loopctl add FIRST COUNT: create loop devices by index through
 * /dev/loop-control (LOOP_CTL_ADD) and print the indices it created (never
 * ones that existed). loopctl remove IDX...: remove those again. The
 * benchmark uses it to grow /proc/diskstats to 1024 devices and back. */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd, rc = 0;

	if (argc < 3 || (strcmp(argv[1], "add") && strcmp(argv[1], "remove"))) {
		fprintf(stderr, "usage: loopctl add FIRST COUNT | loopctl remove IDX...\n");
		return 2;
	}
	fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("/dev/loop-control");
		return 1;
	}
	if (!strcmp(argv[1], "add")) {
		long first = atol(argv[2]), count = argc > 3 ? atol(argv[3]) : 1;
		for (long i = first; i < first + count; i++)
			if (ioctl(fd, LOOP_CTL_ADD, i) >= 0)
				printf("%ld\n", i);
	} else {
		for (int k = 2; k < argc; k++)
			if (ioctl(fd, LOOP_CTL_REMOVE, atol(argv[k])) < 0) {
				fprintf(stderr, "loop%s: %s\n", argv[k], strerror(errno));
				rc = 1;
			}
	}
	close(fd);
	return rc;
}
