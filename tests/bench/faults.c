/* faults ROUNDS PAGES: page faults with no file behind them, for
 * tests/bench/readahead-faults.sh. Each round maps PAGES anonymous pages,
 * writes one byte in each (a user page fault and an RSS change apiece),
 * unmaps them, then forks a child that exits at once (process creation and
 * exit churn: the child's own faults, a sched_process_exit). Prints
 * "faults N wall SECONDS cpu SECONDS" (CPU of this process and its
 * children, user + system). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double secs(struct timeval tv)
{
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	long rounds, pages, ps = sysconf(_SC_PAGESIZE);
	struct timespec a, b;
	struct rusage self, kids;

	if (argc != 3 || (rounds = atol(argv[1])) <= 0 || (pages = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: faults ROUNDS PAGES\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long r = 0; r < rounds; r++) {
		char *m = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pid_t pid;

		if (m == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (long p = 0; p < pages; p++)
			m[p * ps] = 1;
		munmap(m, pages * ps);
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, NULL, 0) != pid) {
			perror("fork");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	printf("faults %ld wall %.6f cpu %.6f\n", rounds * pages,
	       (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       secs(self.ru_utime) + secs(self.ru_stime) + secs(kids.ru_utime) + secs(kids.ru_stime));
	return 0;
}
