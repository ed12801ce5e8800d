/* cpuburn: CPU-bound load with a work rate, for the rq_affinity seed (002):
 * square roots on one CPU, reporting the rate every second and at the end
 * ("total N Msqrt/s over S s"), so interrupt and completion work landing on
 * its CPU shows as a lower rate, as the post's "M sqrt/sec".
 *   cpuburn SECONDS          (pin it: taskset -c CPU cpuburn 10)
 * Built by `make contrib` into build/cpuburn. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	volatile double sink = 0; /* keeps the work from being optimised away */
	unsigned long long ops = 0, total = 0;
	double secs, t0, last, t;
	char *end;

	errno = 0;
	secs = argc == 2 ? strtod(argv[1], &end) : -1;
	if (argc != 2 || errno || *end || !(secs > 0 && secs <= 86400)) {
		fprintf(stderr, "usage: cpuburn SECONDS (0 < SECONDS <= 86400)\n");
		return 2;
	}
	t0 = last = now();
	while ((t = now()) - t0 < secs) {
		for (unsigned i = 0; i < 100000; i++)
			sink += sqrt((double)(ops + i));
		ops += 100000;
		if (t - last >= 1) {
			printf("%.3f Msqrt/s\n", (double)ops / (t - last) / 1e6);
			fflush(stdout);
			total += ops;
			ops = 0;
			last = t;
		}
	}
	total += ops;
	t = now() - t0;
	printf("total %.3f Msqrt/s over %.1f s\n", (double)total / t / 1e6, t);
	return 0;
}
