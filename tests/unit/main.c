#include "unit.h"

#include "model.h"
#include "sample.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SUITES 64

static unit_suite_fn suites[MAX_SUITES];
static int nsuites;

void unit_register(unit_suite_fn fn)
{
	if (nsuites < MAX_SUITES)
		suites[nsuites++] = fn;
}

const char *unit_fixture(const char *name)
{
	static char buf[8][4096];
	static int slot;
	const char *base = getenv("BLKTUNE_FIXTURES");
	char *p = buf[slot++ % 8];

	snprintf(p, 4096, "%s/%s", base ? base : "tests/fixtures", name);
	return p;
}

char *unit_fixture_copy(const char *name)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX";
	char cmd[8192];
	char *dir = mkdtemp(tmpl);

	ck_assert_ptr_nonnull(dir);
	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'", unit_fixture(name), dir);
	ck_assert_int_eq(system(cmd), 0);
	return strdup(dir);
}

void unit_rmtree(const char *path)
{
	char cmd[4200];

	if (!path || strncmp(path, "/tmp/blktune-unit-", 18) != 0)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", path);
}

const struct disk_info *unit_disk_info(const struct sample *s, const char *name)
{
	for (size_t i = 0; i < s->ndisks; i++)
		if (!strcmp(s->disks[i].st.name, name))
			return &s->disks[i].info;
	ck_abort_msg("no device %s", name);
	return NULL;
}

struct disk_info *unit_row_info(struct disk_metrics *m)
{
	static struct disk_info pool[256];
	static struct disk_text text[256]; /* refs 0: never freed */
	static unsigned next;
	struct disk_info *in = &pool[next % 256];

	memset(in, 0, sizeof(*in));
	memset(&text[next % 256], 0, sizeof(text[0]));
	in->text = &text[next++ % 256];
	m->info = in;
	return in;
}

char *unit_slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

int unit_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

int unit_count_fds(void)
{
	return unit_count_entries("/proc/self/fd") - 1; /* the listing's own descriptor */
}

static rlim_t nofile_soft;

int unit_leave_one_fd(void)
{
	struct rlimit lim;
	int open_below = 0;

	if (getrlimit(RLIMIT_NOFILE, &lim) < 0)
		return -1;
	nofile_soft = lim.rlim_cur;
	/* the smallest limit with exactly one number below it free; the soft
	 * limit only, so unit_restore_fds may raise it back without privilege */
	for (rlim_t l = 1; l < lim.rlim_max && l < 65536; l++) {
		open_below += fcntl((int)l - 1, F_GETFD) >= 0;
		if (l - (rlim_t)open_below == 1) {
			lim.rlim_cur = l;
			return setrlimit(RLIMIT_NOFILE, &lim);
		}
	}
	return -1;
}

int unit_restore_fds(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim) < 0)
		return -1;
	lim.rlim_cur = nofile_soft;
	return setrlimit(RLIMIT_NOFILE, &lim);
}

int unit_limit_file_size(rlim_t bytes)
{
	struct rlimit lim = { bytes, bytes };

	signal(SIGXFSZ, SIG_IGN); /* the write fails with EFBIG instead */
	return setrlimit(RLIMIT_FSIZE, &lim);
}

int unit_limit_memory(size_t bytes)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long kb = 0;
	struct rlimit lim;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
			break;
	fclose(f);
	if (!kb)
		return -1;
	/* what is mapped now (a sanitizer's shadow: terabytes) and bytes more */
	lim.rlim_cur = lim.rlim_max = (rlim_t)kb * 1024 + bytes;
	return setrlimit(RLIMIT_AS, &lim);
}

int unit_in_child(int (*body)(void *), void *arg)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(body(arg));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void unit_write_file(const char *path, const char *content)
{
	char cmd[4200];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	ck_assert_int_eq(system(cmd), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	ck_assert_int_eq(fclose(f), 0);
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	if (nsuites == 0) {
		fprintf(stderr, "no unit suites registered\n");
		return 1;
	}
	sr = srunner_create(suites[0]());
	for (int i = 1; i < nsuites; i++)
		srunner_add_suite(sr, suites[i]());
	/* Fork mode keeps one crashing test from hiding the others. */
	srunner_run(sr, argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
