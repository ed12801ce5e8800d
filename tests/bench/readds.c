/* readds N [INTERVAL]: read /proc/diskstats N times through one kept fd
 * (pread to the end of the file), sleeping INTERVAL seconds (default 0) between reads on an
 * absolute timer. The floor any diskstats-based tool pays per refresh at
 * that interval, wake-ups included. Benchmark baseline only. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	long n = argc > 1 ? atol(argv[1]) : 100;
	double iv = argc > 2 ? atof(argv[2]) : 0;
	long total = 0;
	struct timespec next;
	int fd = open("/proc/diskstats", O_RDONLY);

	if (fd < 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; i < n; i++) {
		ssize_t r;
		off_t off = 0;

		/* to the end: the kernel gives a page per read */
		while ((r = pread(fd, buf + off, sizeof(buf) - (size_t)off, off)) > 0)
			off += r;
		if (r < 0)
			return 1;
		total += off;
		if (iv > 0) {
			long ns = next.tv_nsec + (long)(iv * 1e9);
			next.tv_sec += ns / 1000000000L;
			next.tv_nsec = ns % 1000000000L;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		}
	}
	printf("%ld\n", total);
	return 0;
}
