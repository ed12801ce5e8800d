/* cpuof: run a command, print its CPU seconds (user+system) and peak RSS in
 * KiB on stderr's last line: "cpu SECONDS rss KIB". Output of the command
 * goes to /dev/null. Used by the benchmark only. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: cpuof CMD [ARGS...]\n");
		return 2;
	}
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 1;
	printf("cpu %.6f rss %ld\n",
	       (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
		       ru.ru_stime.tv_usec / 1e6,
	       ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
