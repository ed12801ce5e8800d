/* journal: append, fsync'd format, replay, torn lines, lock, retain and clear;
 * malformed lines kept aside with their line numbers; the reader and the
 * writer accept the same lines; unsafe directories and files refused. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

static char *slurp_name(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return unit_slurp(path);
}

static char *slurp(const char *dir)
{
	return slurp_name(dir, "journal");
}

START_TEST(test_append_and_replay)
{
	char *dir = tmpdir(), msg[256];
	struct journal *j;

	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_pending(dir, msg, sizeof(msg)), -ENOENT);
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "read_ahead_kb", "128"), 1);
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "scheduler", "mq-deadline"), 1);
	/* The first original wins: a second change does not overwrite it. */
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "read_ahead_kb", "4096"), 0);
	ck_assert_int_eq(journal_record(j, "vda", NULL, NULL, "irq/36", "0-3"), 1);
	ck_assert_int_eq(journal_record(j, "bad dev", NULL, NULL, "x", "1"), -EINVAL);
	ck_assert_int_eq(journal_record(j, "loop3", NULL, NULL, "x", "1\n2"), -EINVAL);
	ck_assert_str_eq(slurp(dir), "blktune-journal 2\n"
				     "orig loop3 7:3 12 read_ahead_kb 128\n"
				     "orig loop3 7:3 12 scheduler mq-deadline\n"
				     "orig vda - - irq/36 0-3\n");
	ck_assert_int_eq(journal_pending(dir, msg, sizeof(msg)), 3);
	journal_close(j);

	/* Replay after the process is gone. */
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_count(j), 3);
	ck_assert_str_eq(journal_find(j, "loop3", "read_ahead_kb")->value, "128");
	ck_assert_str_eq(journal_find(j, "vda", "irq/36")->diskseq, "-");
	ck_assert_ptr_null(journal_find(j, "loop3", "nomerges"));

	bool keep[3] = { false, true, false };
	ck_assert_int_eq(journal_retain(j, keep), 0);
	ck_assert_str_eq(slurp(dir), "blktune-journal 2\norig loop3 7:3 12 scheduler mq-deadline\n");
	ck_assert_int_eq(journal_clear(j), 0);
	ck_assert_ptr_null(slurp(dir));
	ck_assert_int_eq(journal_pending(dir, msg, sizeof(msg)), -ENOENT);
	journal_close(j);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

static void write_bytes(const char *dir, const char *name, const char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0600), 0);
}

START_TEST(test_torn_and_version_1)
{
	char *dir = tmpdir(), path[512], name[512], msg[256];
	struct journal *j;

	/* A crash in the middle of an append leaves a line without its newline:
	 * dropped (its change was never made), not reported. Version 1 lines
	 * (no MAJ:MIN) are read and the file is rewritten as version 2. */
	snprintf(path, sizeof(path), "%s/journal", dir);
	unit_write_file(path, "blktune-journal 1\norig loop3 12 read_ahead_kb 128\norig loop3 12 nomer");
	ck_assert_int_eq(journal_pending(dir, msg, sizeof(msg)), 1);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_count(j), 1);
	ck_assert_uint_eq(journal_reject_total(j), 0);
	ck_assert_str_eq(journal_at(j, 0)->devt, "-");
	ck_assert_uint_eq(journal_at(j, 0)->line, 2);
	ck_assert_str_eq(slurp(dir), "blktune-journal 2\norig loop3 - 12 read_ahead_kb 128\n");
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "nomerges", "0"), 1);
	journal_close(j);
	ck_assert_str_eq(slurp(dir), "blktune-journal 2\norig loop3 - 12 read_ahead_kb 128\n"
				     "orig loop3 7:3 12 nomerges 0\n");
	ck_assert_ptr_null(slurp_name(dir, "journal.rejected"));
	/* A rewrite killed halfway leaves a temporary file: the next open
	 * (holding the lock) removes it, and only it. */
	snprintf(path, sizeof(path), "%s/journal.tmp.AbCdEfGh", dir);
	unit_write_file(path, "blktune-journal 2\n");
	snprintf(path, sizeof(path), "%s/journal.tmpfoo", dir);
	unit_write_file(path, "x");
	/* A link of that name is removed, never followed. */
	snprintf(path, sizeof(path), "%s/victim", dir);
	unit_write_file(path, "precious\n");
	snprintf(name, sizeof(name), "%s/journal.tmp.LinkLink", dir);
	ck_assert_int_eq(symlink(path, name), 0);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	journal_close(j);
	ck_assert_ptr_null(slurp_name(dir, "journal.tmp.AbCdEfGh"));
	ck_assert_ptr_nonnull(slurp_name(dir, "journal.tmpfoo"));
	ck_assert_ptr_null(slurp_name(dir, "journal.tmp.LinkLink"));
	ck_assert_int_eq(access(name, F_OK), -1);
	ck_assert_str_eq(slurp_name(dir, "victim"), "precious\n");
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* An empty journal file (a crash between creating it and writing its
 * header) holds nothing pending, and opening it leaves nothing behind
 * (under ASan: no buffer leaked by the empty read). */
START_TEST(test_empty_file)
{
	char *dir = tmpdir(), path[512], msg[256];
	struct journal *j;

	snprintf(path, sizeof(path), "%s/journal", dir);
	unit_write_file(path, "");
	ck_assert_int_eq(journal_pending(dir, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(journal_count(j), 0);
	ck_assert_uint_eq(journal_reject_total(j), 0);
	journal_close(j);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* The parser reads only the len bytes it is given: a torn last line whose
 * buffer goes on past len with a newline (the rest of a file a caller did
 * not hand over) is still torn, dropped and not reported. */
START_TEST(test_parse_reads_only_len)
{
	static const char text[] = "blktune-journal 2\norig loop3 7:3 - read_ahead_kb 128\norig loop3 7:3 - nomer"
				   "\norig loop4 7:4 - nomerges 1\n";
	size_t len = strlen("blktune-journal 2\norig loop3 7:3 - read_ahead_kb 128\norig loop3 7:3 - nomer");
	char *buf = malloc(sizeof(text));
	struct journal *j;

	ck_assert_ptr_nonnull(buf);
	memcpy(buf, text, sizeof(text));
	ck_assert_int_eq(journal_parse(buf, len, "t", &j), 0);
	ck_assert_uint_eq(journal_count(j), 1);
	ck_assert_str_eq(journal_at(j, 0)->name, "read_ahead_kb");
	ck_assert_uint_eq(journal_reject_total(j), 0);
	journal_close(j);
	free(buf);
	/* and with nothing after len (ASan sees a read past it) */
	ck_assert_ptr_nonnull(buf = malloc(len));
	memcpy(buf, text, len);
	ck_assert_int_eq(journal_parse(buf, len, "t", &j), 0);
	ck_assert_uint_eq(journal_count(j), 1);
	ck_assert_uint_eq(journal_reject_total(j), 0);
	journal_close(j);
	free(buf);
}
END_TEST

/* A rejected line that cannot be written to journal.rejected (the file
 * size limit: EFBIG at the flush) fails the open, and the message names the
 * file and the error: "no journal" must say why. */
START_TEST(test_rejected_write_fails)
{
	char *dir = tmpdir(), path[512], msg[256];
	struct rlimit old, lim;
	struct journal *j = NULL;

	snprintf(path, sizeof(path), "%s/journal", dir);
	unit_write_file(path, "blktune-journal 2\norig loop3 7:3 - read_ahead_kb 128\njunk\n");
	snprintf(path, sizeof(path), "%s/journal.rejected", dir);
	unit_write_file(path, "# earlier rejects\n");
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = strlen("# earlier rejects\n");
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), -EFBIG);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_ptr_null(j);
	ck_assert_msg(strstr(msg, "journal.rejected: File too large (journal left as it is)") != NULL, "msg: %s", msg);
	/* nothing lost: the journal is as it was */
	ck_assert_str_eq(slurp(dir), "blktune-journal 2\norig loop3 7:3 - read_ahead_kb 128\njunk\n");
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* An append that fails part way (a full disk: the line's first bytes fit
 * in the file's last page, the rest does not) leaves a torn line; the next
 * append must not glue its line to it, or that original is lost to the
 * next start (the disk full once, freed, then a change, then kill -9). */
START_TEST(test_torn_append_not_glued)
{
	char *dir = tmpdir(), msg[256];
	struct rlimit old, lim;
	struct journal *j;
	size_t size;

	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "read_ahead_kb", "128"), 1);
	size = strlen(slurp(dir));
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = size + 12; /* "orig loop3 7" fits */
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "nomerges", "0"), -EFBIG);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_int_eq(journal_count(j), 1);
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "rq_affinity", "1"), 1);
	journal_close(j);
	ck_assert_str_eq(slurp(dir), "blktune-journal 2\n"
				     "orig loop3 7:3 12 read_ahead_kb 128\n"
				     "orig loop3 7:3 12 rq_affinity 1\n");
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_reject_total(j), 0);
	ck_assert_ptr_nonnull(journal_find(j, "loop3", "rq_affinity"));
	journal_close(j);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Malformed lines: reported with their line numbers, moved to
 * journal.rejected, out of the journal; the good lines stay and new entries
 * are appended after them. */
START_TEST(test_malformed_kept_aside)
{
	char *dir = tmpdir(), msg[256], buf[2048];
	const struct journal_reject *r;
	struct journal *j;
	size_t len = 0;

	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "blktune-journal 2\n"
					"orig loop3 7:3 12 read_ahead_kb 128\n"
					"orig loop3 7:3 12 nomer\x01ges 0\n");
	memcpy(buf + len, "orig loop3 7:3 12 rq_affinity 1\0\n", 33); /* NUL byte, line 4 */
	len += 33;
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "orig loop3 7:3 12 iostats %0600d\n", 0);
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "junk\n"
					"orig loop3 7:3 12 read_ahead_kb 256\n"
					"orig ../x - - read_ahead_kb 1\n"
					"orig loop3 7:3 x12 nomerges 1\n"
					"orig loop3 7-3 12 nomerges 1\n"
					"orig loop3 7:3 12 ../../etc/passwd 1\n"
					"orig loop3 7:3 12 add_random \n"
					"\n"
					"orig loop3 7:3 12 wbt_lat_usec 2000\n");
	write_bytes(dir, "journal", buf, len);
	ck_assert_int_eq(journal_pending(dir, msg, sizeof(msg)), 13);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_count(j), 2);
	ck_assert_str_eq(journal_at(j, 1)->name, "wbt_lat_usec");
	ck_assert_uint_eq(journal_at(j, 1)->line, 14);
	ck_assert_uint_eq(journal_reject_total(j), 11);
	ck_assert_uint_eq(journal_reject_count(j), 11);
	r = journal_reject_at(j, 0);
	ck_assert_uint_eq(r->line, 3);
	ck_assert_str_eq(r->reason, "control or non-ASCII byte");
	ck_assert_str_eq(r->text, "orig loop3 7:3 12 nomer\\x01ges 0");
	ck_assert_uint_eq(journal_reject_at(j, 1)->line, 4);
	ck_assert_str_eq(journal_reject_at(j, 1)->reason, "NUL byte");
	ck_assert_uint_eq(journal_reject_at(j, 2)->line, 5);
	ck_assert_str_eq(journal_reject_at(j, 2)->reason, "line of 626 bytes, longer than any entry");
	ck_assert_str_eq(journal_reject_at(j, 3)->reason, "too few fields");
	ck_assert_str_eq(journal_reject_at(j, 4)->reason, "a second original for loop3 read_ahead_kb (line 2 has one)");
	ck_assert_str_eq(journal_reject_at(j, 5)->reason, "not a device name");
	ck_assert_str_eq(journal_reject_at(j, 6)->reason, "not a diskseq");
	ck_assert_str_eq(journal_reject_at(j, 7)->reason, "not a device number");
	ck_assert_str_eq(journal_reject_at(j, 8)->reason, "not a tunable name");
	ck_assert_str_eq(journal_reject_at(j, 9)->reason, "no value");
	ck_assert_uint_eq(journal_reject_at(j, 10)->line, 13);
	ck_assert_str_eq(journal_reject_at(j, 10)->reason, "too few fields");
	ck_assert_ptr_null(journal_reject_at(j, 11)); /* one past the last */
	/* The journal now holds the good lines only; the others are in journal.rejected. */
	ck_assert_str_eq(slurp(dir), "blktune-journal 2\norig loop3 7:3 12 read_ahead_kb 128\n"
				     "orig loop3 7:3 12 wbt_lat_usec 2000\n");
	ck_assert_ptr_nonnull(strstr(slurp_name(dir, "journal.rejected"),
				     "line 4: NUL byte: orig loop3 7:3 12 rq_affinity 1\\x00\n"));
	ck_assert_ptr_nonnull(strstr(slurp_name(dir, "journal.rejected"), "line 6: too few fields: junk\n"));
	/* A refused entry moved aside does not block a new original of that tunable. */
	ck_assert_int_eq(journal_record(j, "loop3", "7:3", "12", "rq_affinity", "2"), 1);
	ck_assert_int_eq(journal_put_aside(j, journal_at(j, 0), "refused by the kernel"), 0);
	ck_assert_ptr_nonnull(strstr(slurp_name(dir, "journal.rejected"),
				     "line 2: refused by the kernel: orig loop3 7:3 12 read_ahead_kb 128\n"));
	journal_close(j);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(journal_reject_total(j), 0);
	ck_assert_int_eq(journal_count(j), 3);
	journal_close(j);

	/* A file that is not a journal is rejected line by line, never "no journal". */
	const char *v9 = "blktune-journal 9\norig loop3 7:3 12 read_ahead_kb 128\n";
	write_bytes(dir, "journal", v9, strlen(v9));
	ck_assert_int_eq(journal_pending(dir, msg, sizeof(msg)), 2);
	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	ck_assert_int_eq(journal_count(j), 0);
	ck_assert_uint_eq(journal_reject_total(j), 2);
	ck_assert_str_eq(journal_reject_at(j, 1)->reason, "in a file without a blktune journal header");
	journal_close(j);
	ck_assert_ptr_null(slurp(dir));
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* What the writer writes, the reader reads back the same; what the reader
 * refuses, the writer refuses. */
START_TEST(test_reader_writer_agree)
{
	static const char *const names[] = { "read_ahead_kb", "iosched/fifo_batch", "irq/36", "bad name",
					     "../x", "a\x01b", "x\xff", "" };
	static const char *const values[] = { "128", "write back", "0-3,6", "", "a\nb", "\x1b[31m", "\xc3\xa9" };
	char *dir = tmpdir(), msg[256];
	struct journal *j, *back;
	char *text;
	size_t written = 0;

	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
			char dev[32];
			int rc;

			snprintf(dev, sizeof(dev), "loop%zu", n * 10 + v);
			rc = journal_record(j, dev, "7:1", "5", names[n], values[v]);
			ck_assert(rc == 1 || rc == -EINVAL);
			written += rc == 1;
		}
	}
	ck_assert_uint_eq(written, 3 * 3);
	journal_close(j);
	text = strdup(slurp(dir));
	ck_assert_int_eq(journal_parse(text, strlen(text), "t", &back), 0);
	ck_assert_uint_eq(journal_count(back), written);
	ck_assert_uint_eq(journal_reject_total(back), 0);
	ck_assert_str_eq(journal_find(back, "loop1", "read_ahead_kb")->value, "write back");
	journal_close(back);
	free(text);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Device numbers and diskseqs at their digit limits: a major or minor of
 * 10 digits (a u32's), a diskseq of 20 (a u64's); one digit more is refused
 * by the writer and kept aside by the reader. */
START_TEST(test_id_digit_limits)
{
	static const struct {
		const char *devt, *diskseq;
		bool ok;
	} c[] = {
		{ "4294967295:1048575", "18446744073709551615", true },
		{ "1234567890:1", "1", true },
		{ "1:1234567890", "1", true },
		{ "12345678901:1", "1", false },
		{ "1:12345678901", "1", false },
		{ "1:1", "123456789012345678901", false },
		{ ":1", "1", false },
		{ "1:", "1", false },
	};
	char *dir = tmpdir(), msg[256], text[4096];
	struct journal *j, *back;
	size_t len = (size_t)snprintf(text, sizeof(text), "blktune-journal 2\n"), good = 0;

	ck_assert_int_eq(journal_open(dir, false, &j, msg, sizeof(msg)), 0);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char dev[16];

		snprintf(dev, sizeof(dev), "loop%zu", i);
		ck_assert_msg(journal_record(j, dev, c[i].devt, c[i].diskseq, "read_ahead_kb", "128") ==
				      (c[i].ok ? 1 : -EINVAL),
			      "writer: %s %s", c[i].devt, c[i].diskseq);
		len += (size_t)snprintf(text + len, sizeof(text) - len, "orig %s %s %s read_ahead_kb 128\n", dev,
					c[i].devt, c[i].diskseq);
		good += c[i].ok;
	}
	journal_close(j);
	ck_assert_int_eq(journal_parse(text, len, "t", &back), 0);
	ck_assert_uint_eq(journal_count(back), good);
	ck_assert_uint_eq(journal_reject_total(back), sizeof(c) / sizeof(c[0]) - good);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char dev[16];

		snprintf(dev, sizeof(dev), "loop%zu", i);
		ck_assert_msg((journal_find(back, dev, "read_ahead_kb") != NULL) == c[i].ok, "reader: %s %s",
			      c[i].devt, c[i].diskseq);
	}
	journal_close(back);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* The rules of safe-file.h, through the journal: nothing another user could
 * have planted is followed, read or written. */
START_TEST(test_unsafe_refused)
{
	char *dir = tmpdir(), path[600], victim[600], msg[512];
	struct journal *j;
	int fd;

	snprintf(victim, sizeof(victim), "%s/victim", dir);
	unit_write_file(victim, "precious\n");
	/* A directory others can write. */
	snprintf(path, sizeof(path), "%s/open", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(chmod(path, 0777), 0);
	ck_assert_int_eq(journal_open(path, false, &j, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "is writable by group or others (mode 0777)"), "%s", msg);
	ck_assert_int_eq(journal_pending(path, msg, sizeof(msg)), -EPERM);
	/* A safe directory below one others can write (not sticky). */
	snprintf(path, sizeof(path), "%s/open/inner", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(journal_open(path, false, &j, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "above it is writable by group or others"), "%s", msg);
	/* ...but a sticky one is fine (/tmp). */
	snprintf(path, sizeof(path), "%s/open", dir);
	ck_assert_int_eq(chmod(path, 01777), 0);
	snprintf(path, sizeof(path), "%s/open/inner", dir);
	ck_assert_int_eq(journal_open(path, false, &j, msg, sizeof(msg)), 0);
	journal_close(j);

	/* Links planted as lock, journal or the old temporary name. */
	static const char *const planted[] = { "lock", "journal", "journal.rejected" };
	for (size_t i = 0; i < 3; i++) {
		char d[600], link[700];

		snprintf(d, sizeof(d), "%s/link%zu", dir, i);
		ck_assert_int_eq(mkdir(d, 0700), 0);
		if (i == 2)
			write_bytes(d, "journal", "blktune-journal 2\njunk\n", 23);
		snprintf(link, sizeof(link), "%s/%s", d, planted[i]);
		ck_assert_int_eq(symlink(victim, link), 0);
		ck_assert_int_eq(journal_open(d, false, &j, msg, sizeof(msg)), -EPERM);
		ck_assert_msg(strstr(msg, "is a symbolic link: refused"), "%s: %s", planted[i], msg);
		ck_assert_str_eq(slurp_name(dir, "victim"), "precious\n");
	}
	/* Not a regular file: a FIFO opens without blocking and is refused. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(victim, sizeof(victim), "%s/fifo/journal", dir);
	ck_assert_int_eq(mkfifo(victim, 0600), 0);
	ck_assert_int_eq(journal_pending(path, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "not a regular file"), "%s", msg);
	ck_assert_int_eq(journal_open(path, false, &j, msg, sizeof(msg)), -EPERM);
	/* A journal others may write, or with a second name. */
	snprintf(path, sizeof(path), "%s/mode", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	write_bytes(path, "journal", "blktune-journal 2\n", 18);
	snprintf(victim, sizeof(victim), "%s/mode/journal", dir);
	ck_assert_int_eq(chmod(victim, 0620), 0);
	ck_assert_int_eq(journal_pending(path, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(chmod(victim, 0600), 0);
	ck_assert_int_eq(journal_pending(path, msg, sizeof(msg)), 0);
	snprintf(path, sizeof(path), "%s/mode/journal.2", dir);
	ck_assert_int_eq(link(victim, path), 0);
	snprintf(path, sizeof(path), "%s/mode", dir);
	ck_assert_int_eq(journal_pending(path, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "has 2 hard links"), "%s", msg);
	if (geteuid() == 0) {
		/* Root: a journal or directory another uid owns. */
		ck_assert_int_eq(unlink(victim), 0);
		write_bytes(path, "journal", "blktune-journal 2\n", 18);
		ck_assert_int_eq(chown(victim, 65534, 65534), 0);
		ck_assert_int_eq(journal_pending(path, msg, sizeof(msg)), -EPERM);
		ck_assert_msg(strstr(msg, "is owned by uid 65534, not 0"), "%s", msg);
		ck_assert_int_eq(chown(victim, 0, 0), 0);
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		ck_assert_int_eq(journal_open(path, false, &j, msg, sizeof(msg)), -EPERM);
	}
	/* The oversized journal is refused, not read whole. */
	snprintf(path, sizeof(path), "%s/big", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(victim, sizeof(victim), "%s/big/journal", dir);
	fd = open(victim, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, JOURNAL_FILE_MAX + 1), 0);
	close(fd);
	ck_assert_int_eq(journal_pending(path, msg, sizeof(msg)), -EFBIG);
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
		journal_record(j, "loop3", "7:3", "12", "read_ahead_kb", "128");
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

/* The fuzz seeds are valid journals: make fuzz starts from lines that parse. */
START_TEST(test_fuzz_seeds_valid)
{
	const char *seeds = unit_fixture("../fuzz/corpus-journal");
	DIR *d = opendir(seeds);
	struct dirent *e;
	size_t files = 0, entries = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[4096], buf[8192];
		struct journal *j;
		FILE *f;
		size_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", seeds, e->d_name);
		f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		ck_assert_int_eq(journal_parse(buf, n, e->d_name, &j), 0);
		ck_assert_msg(journal_reject_total(j) == 0, "%s: line %u: %s", e->d_name,
			      journal_reject_count(j) ? journal_reject_at(j, 0)->line : 0,
			      journal_reject_count(j) ? journal_reject_at(j, 0)->reason : "");
		entries += journal_count(j);
		journal_close(j);
		files++;
	}
	closedir(d);
	ck_assert_uint_ge(files, 5);
	ck_assert_uint_ge(entries, 14);
}
END_TEST

UNIT_SUITE(journal_suite)
static Suite *journal_suite(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("journal");

	tcase_add_test(tc, test_append_and_replay);
	tcase_add_test(tc, test_torn_and_version_1);
	tcase_add_test(tc, test_malformed_kept_aside);
	tcase_add_test(tc, test_empty_file);
	tcase_add_test(tc, test_parse_reads_only_len);
	tcase_add_test(tc, test_rejected_write_fails);
	tcase_add_test(tc, test_torn_append_not_glued);
	tcase_add_test(tc, test_reader_writer_agree);
	tcase_add_test(tc, test_unsafe_refused);
	tcase_add_test(tc, test_fuzz_seeds_valid);
	tcase_add_test(tc, test_id_digit_limits);
	tcase_add_test(tc, test_lock);
	tcase_add_test(tc, test_default_dir);
	suite_add_tcase(s, tc);
	return s;
}
