/* journal: append, fsync'd format, replay, torn lines, lock, retain and clear. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal.h"
#include "unit.h"

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX";
	char *d = mkdtemp(tmpl);

	ck_assert_ptr_nonnull(d);
	return strdup(d);
}

static char *slurp(const char *dir)
{
	static char buf[4096];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/journal", dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(test_append_and_replay)
{
	char *dir = tmpdir(), msg[256];
	struct journal *j;

	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_pending(dir), 0);
	ck_assert_int_eq(journal_record(j, "loop3", "12", "read_ahead_kb", "128"), 1);
	ck_assert_int_eq(journal_record(j, "loop3", "12", "scheduler", "mq-deadline"), 1);
	/* The first original wins: a second change does not overwrite it. */
	ck_assert_int_eq(journal_record(j, "loop3", "12", "read_ahead_kb", "4096"), 0);
	ck_assert_int_eq(journal_record(j, "vda", NULL, "irq/36", "0-3"), 1);
	ck_assert_int_eq(journal_record(j, "bad dev", NULL, "x", "1"), -EINVAL);
	ck_assert_int_eq(journal_record(j, "loop3", NULL, "x", "1\n2"), -EINVAL);
	ck_assert_str_eq(slurp(dir), "blktune-journal 1\n"
				     "orig loop3 12 read_ahead_kb 128\n"
				     "orig loop3 12 scheduler mq-deadline\n"
				     "orig vda - irq/36 0-3\n");
	ck_assert_int_eq(journal_pending(dir), 3);
	journal_close(j);

	/* Replay after the process is gone. */
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_count(j), 3);
	ck_assert_str_eq(journal_find(j, "loop3", "read_ahead_kb")->value, "128");
	ck_assert_str_eq(journal_find(j, "vda", "irq/36")->diskseq, "-");
	ck_assert_ptr_null(journal_find(j, "loop3", "nomerges"));

	bool keep[3] = { false, true, false };
	ck_assert_int_eq(journal_retain(j, keep), 0);
	ck_assert_str_eq(slurp(dir), "blktune-journal 1\norig loop3 12 scheduler mq-deadline\n");
	ck_assert_int_eq(journal_clear(j), 0);
	ck_assert_ptr_null(slurp(dir));
	ck_assert_int_eq(journal_pending(dir), 0);
	journal_close(j);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_torn_and_malformed)
{
	char *dir = tmpdir(), path[512], msg[256];
	struct journal *j;

	/* A crash in the middle of an append leaves a line without its newline. */
	snprintf(path, sizeof(path), "%s/journal", dir);
	unit_write_file(path, "blktune-journal 1\norig loop3 12 read_ahead_kb 128\norig loop3 12 nomer");
	ck_assert_int_eq(journal_pending(dir), 1);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_count(j), 1);
	ck_assert_int_eq(journal_record(j, "loop3", "12", "nomerges", "0"), 1);
	journal_close(j);
	ck_assert_str_eq(slurp(dir), "blktune-journal 1\norig loop3 12 read_ahead_kb 128\n"
				     "orig loop3 12 nomerges 0\n");

	unit_write_file(path, "blktune-journal 1\norig loop3 12 read_ahead_kb 128\ngarbage here\n");
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), -EBADMSG);
	ck_assert_msg(strstr(msg, "journal:3: malformed line"), "%s", msg);
	unit_write_file(path, "blktune-journal 2\n");
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), -EBADMSG);
	ck_assert_msg(strstr(msg, "journal:1: not a blktune journal of version 1"), "%s", msg);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_lock)
{
	char *dir = tmpdir(), msg[256];
	struct journal *j;
	int up[2], down[2], status;
	char c;
	pid_t pid;

	ck_assert_int_eq(pipe(up), 0);
	ck_assert_int_eq(pipe(down), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (journal_open(dir, false, &j, msg, sizeof(msg)))
			_exit(1);
		journal_record(j, "loop3", "12", "read_ahead_kb", "128");
		if (write(up[1], "x", 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(2);
		_exit(0); /* dies holding the lock, like kill -9 */
	}
	ck_assert_int_eq(read(up[0], &c, 1), 1);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), -EWOULDBLOCK);
	char want[64];
	snprintf(want, sizeof(want), "another blktune pid %d is changing", (int)pid);
	ck_assert_msg(strstr(msg, want), "%s", msg);
	ck_assert_int_eq(write(down[1], "x", 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	/* The kernel dropped the dead process's lock; its line is there. */
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_count(j), 1);
	journal_close(j);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_default_dir)
{
	unsetenv("BLKTUNE_JOURNAL_DIR");
	ck_assert_str_eq(journal_dir(NULL), "/run/blktune");
	setenv("BLKTUNE_JOURNAL_DIR", "/tmp/x", 1);
	ck_assert_str_eq(journal_dir(NULL), "/tmp/x");
	ck_assert_str_eq(journal_dir("/tmp/y"), "/tmp/y");
	unsetenv("BLKTUNE_JOURNAL_DIR");
}
END_TEST

UNIT_SUITE(journal_suite)
static Suite *journal_suite(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("journal");

	tcase_add_test(tc, test_append_and_replay);
	tcase_add_test(tc, test_torn_and_malformed);
	tcase_add_test(tc, test_lock);
	tcase_add_test(tc, test_default_dir);
	suite_add_tcase(s, tc);
	return s;
}
