/* CPU-bound load for the rq_affinity seed (002): square roots on one CPU,
 * reporting its work rate every second and at the end ("N Msqrt/s"), so that
 * interrupt and completion work landing on its CPU shows as a lower rate.
 *   cpuburn SECONDS   (pin it with taskset -c CPU) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10, t0 = now(), last = t0, t, sink = 0;
	unsigned long long ops = 0, total = 0;

	while ((t = now()) - t0 < secs) {
		for (int i = 0; i < 100000; i++)
			sink += sqrt((double)(ops + (unsigned)i));
		ops += 100000;
		if (t - last >= 1) {
			printf("%.3f Msqrt/s\n", ops / (t - last) / 1e6);
			fflush(stdout);
			total += ops;
			ops = 0;
			last = t;
		}
	}
	total += ops;
	printf("total %.3f Msqrt/s over %.1f s (%g)\n", total / (now() - t0) / 1e6, now() - t0, sink > 0 ? 0.0 : 1.0);
	return 0;
}
