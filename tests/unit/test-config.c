/* config and column-layout: parse, format and round trip; every refusal
 * names its line. Then the file: where it lives, load and save below a
 * private XDG_CONFIG_HOME, and the failure paths (a file that does not
 * parse, too long, an unsafe directory, a full disk). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "column-layout.h"
#include "config.h"
#include "unit.h"

START_TEST(layout_parse_and_edit)
{
	struct column_layout l, d;
	char why[160], text[256];

	ck_assert_int_eq(column_layout_parse("r/s,%UTIL,stack", &l, why, sizeof(why)), 0);
	ck_assert_int_eq(l.n, 3);
	ck_assert_int_eq(l.col[1], COLUMN_UTIL);
	column_layout_text(&l, text, sizeof(text));
	ck_assert_str_eq(text, "r/s,%util,stack");
	ck_assert_int_eq(column_layout_parse("r/s,,w/s", &l, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "empty name"), "%s", why);
	ck_assert_int_eq(column_layout_parse("r/s,r/s", &l, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "column \"r/s\" twice");
	ck_assert_int_eq(column_layout_parse("DEVICE", &l, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(column_layout_parse("", &l, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(column_layout_parse("r/s,nosuch", &l, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "\"nosuch\""), "%s", why);
	/* toggle and move; the last column stays */
	ck_assert_int_eq(column_layout_parse("r/s,w/s", &l, why, sizeof(why)), 0);
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_UTIL), 0);
	ck_assert_int_eq(l.n, 3);
	ck_assert_int_eq(column_layout_move(&l, 2, -1), 1);
	column_layout_text(&l, text, sizeof(text));
	ck_assert_str_eq(text, "r/s,%util,w/s");
	ck_assert_int_eq(column_layout_move(&l, 0, -1), 0); /* at the edge: stays */
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_R_S), 0);
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_UTIL), 0);
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_W_S), -EINVAL);
	ck_assert_int_eq(l.n, 1);
	column_layout_default(&d);
	ck_assert_int_eq(d.col[0], COLUMN_R_S);
	ck_assert_int_eq(column_layout_find(&d, COLUMN_D_S), -1); /* not a table column */
}
END_TEST

/* The columns panel (f): shown columns first in their order, then every
 * other one in the table's order, each once. */
START_TEST(layout_panel_rows)
{
	struct column_layout l;
	int rows[COLUMN_COUNT], shown, n, seen[COLUMN_COUNT] = { 0 };
	char why[160];

	ck_assert_int_eq(column_layout_parse("%util,r/s", &l, why, sizeof(why)), 0);
	n = column_layout_panel(&l, rows, &shown);
	ck_assert_int_eq(n, COLUMN_COUNT - 1);
	ck_assert_int_eq(shown, 2);
	ck_assert_int_eq(rows[0], COLUMN_UTIL);
	ck_assert_int_eq(rows[1], COLUMN_R_S);
	ck_assert_int_eq(rows[2], COLUMN_W_S);
	for (int i = 0; i < n; i++) {
		ck_assert_int_ne(rows[i], COLUMN_DEVICE);
		ck_assert_int_eq(seen[rows[i]]++, 0);
		if (i > 2)
			ck_assert_int_gt(rows[i], rows[i - 1]);
	}
}
END_TEST

START_TEST(config_round_trip)
{
	struct config c, back;
	char text[2048], why[256];

	ck_assert_int_eq(config_parse("blktune-config 1\n\n# a comment\ncolumns r/s,w/s\nsort %util desc\n"
				      "interval 0.5\ncolor off\n", &c, why, sizeof(why)), 0);
	ck_assert(c.has_columns && c.has_sort && c.has_interval && c.has_color);
	ck_assert_int_eq(c.sort_column, COLUMN_UTIL);
	ck_assert(c.sort_reverse && !c.color);
	ck_assert_double_eq(c.interval, 0.5);
	config_format(&c, text, sizeof(text));
	ck_assert_int_eq(config_parse(text, &back, why, sizeof(why)), 0);
	ck_assert_int_eq(memcmp(&c, &back, sizeof(c)), 0);
	/* sort without a direction is ascending; DEVICE is a table column */
	ck_assert_int_eq(config_parse("blktune-config 1\nsort r/s\n", &c, why, sizeof(why)), 0);
	ck_assert(c.has_sort && !c.sort_reverse && c.sort_column == COLUMN_R_S);
	ck_assert_int_eq(config_parse("blktune-config 1\nsort DEVICE desc\n", &c, why, sizeof(why)), 0);
	ck_assert(c.sort_column == COLUMN_DEVICE && c.sort_reverse);
	/* the interval's edges: 0.1 and 60 are in */
	ck_assert_int_eq(config_parse("blktune-config 1\ninterval 0.1", &c, why, sizeof(why)), 0);
	ck_assert_double_eq(c.interval, 0.1);
	/* only some settings: the rest stays the program's */
	ck_assert_int_eq(config_parse("blktune-config 1\ninterval 60", &c, why, sizeof(why)), 0);
	ck_assert(c.has_interval && !c.has_columns && !c.has_sort);
}
END_TEST

/* What W writes, the next start reads: the columns panel (f) sorts by any
 * of its rows, a detail-pane column such as d/s or a hidden one too, and W
 * writes that sort key. A config naming d/s once stopped the next start
 * (exit 2) and W then refused to overwrite it. */
START_TEST(config_sort_any_panel_column)
{
	struct column_layout l;
	int rows[COLUMN_COUNT], shown, n;
	struct config c, back;
	char text[2048], why[256];

	ck_assert_int_eq(column_layout_parse("r/s,d/s", &l, why, sizeof(why)), 0);
	n = column_layout_panel(&l, rows, &shown);
	ck_assert_int_eq(n, COLUMN_COUNT - 1);
	for (int i = -1; i < n; i++) {
		memset(&c, 0, sizeof(c));
		c.has_columns = c.has_sort = true;
		c.columns = l;
		c.sort_column = i < 0 ? COLUMN_DEVICE : rows[i];
		c.sort_reverse = i % 2 == 0;
		config_format(&c, text, sizeof(text));
		why[0] = '\0';
		ck_assert_msg(config_parse(text, &back, why, sizeof(why)) == 0, "sort by %s: %s",
			      columns[c.sort_column].header, why);
		ck_assert_int_eq(back.sort_column, c.sort_column);
		ck_assert(back.sort_reverse == c.sort_reverse);
	}
}
END_TEST

START_TEST(config_refusals)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "", "empty" },
		{ "columns r/s\n", "line 1: \"columns r/s\": not a blktune config" },
		{ "blktune-config 1\ninterval 0\n", "line 2: interval 0: seconds from 0.1 to 60" },
		{ "blktune-config 1\ninterval 61\n", "line 2: interval 61" },
		{ "blktune-config 1\ninterval 1x\n", "line 2: interval 1x" },
		{ "blktune-config 1\n\ncolor maybe\n", "line 3: color maybe: on or off" },
		{ "blktune-config 1\nsort nosuch\n", "line 2: sort: no column \"nosuch\"" },
		{ "blktune-config 1\nsort r/s sideways\n", "line 2: sort: \"sideways\" is neither asc nor desc" },
		{ "blktune-config 1\ncolumns r/s,r/s\n", "line 2: columns: column \"r/s\" twice" },
		{ "blktune-config 1\nfoo bar\n", "line 2: unknown setting \"foo\"" },
		{ "blktune-config 1\nlonely\n", "line 2: \"lonely\": expected KEY VALUE" },
		/* a CR or an escape of the file reaches the terminal as '?' */
		{ "blktune-config 1\r\n", "line 1: \"blktune-config 1?\": not a blktune config" },
		{ "blktune-config 1\ncolor on\033[2J\n", "line 2: color on?[2J: on or off" },
	};
	struct config c;
	char why[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why[0] = '\0';
		ck_assert_int_eq(config_parse(cases[i].text, &c, why, sizeof(why)), -EINVAL);
		ck_assert_msg(strstr(why, cases[i].why), "case %zu: \"%s\" lacks \"%s\"", i, why, cases[i].why);
	}
	{
		char big[CONFIG_MAX_BYTES + 64];
		memset(big, '#', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		ck_assert_int_eq(config_parse(big, &c, why, sizeof(why)), -EINVAL);
		/* exactly CONFIG_MAX_BYTES is read whole, to its last byte; one more is not */
		memcpy(big, "blktune-config 1\n", 17);
		memcpy(big + CONFIG_MAX_BYTES - 9, "\ncolor on", 9);
		big[CONFIG_MAX_BYTES] = '\0';
		ck_assert_int_eq(config_parse(big, &c, why, sizeof(why)), 0);
		ck_assert(c.has_color && c.color);
		big[CONFIG_MAX_BYTES] = '\n';
		big[CONFIG_MAX_BYTES + 1] = '\0';
		ck_assert_int_eq(config_parse(big, &c, why, sizeof(why)), -EINVAL);
		ck_assert_str_eq(why, "longer than 4096 bytes");
	}
}
END_TEST

/* The formatter never writes past len, whatever len is, and what it
 * writes is the start of the whole text. */
START_TEST(config_format_every_size)
{
	struct config c;
	char full[2048], why[256], *out;
	size_t need;

	ck_assert_int_eq(config_parse("blktune-config 1\ncolumns r/s,w/s\nsort %util desc\ninterval 0.25\ncolor on\n",
				      &c, why, sizeof(why)), 0);
	config_format(&c, full, sizeof(full));
	need = strlen(full) + 1;
	ck_assert_ptr_nonnull(strstr(full, "\ninterval 0.25\ncolor on\n"));
	for (size_t len = 1; len <= need; len++) {
		ck_assert_ptr_nonnull(out = malloc(len)); /* exactly len: ASan sees a byte past it */
		config_format(&c, out, len);
		ck_assert_uint_eq(strlen(out), len - 1);
		ck_assert_msg(!strncmp(out, full, len - 1), "%zu bytes: %s", len, out);
		free(out);
	}
}
END_TEST

static char cfg_home[64];

/* A private XDG_CONFIG_HOME (each test runs in its own process). */
static void cfg_setup(void)
{
	snprintf(cfg_home, sizeof(cfg_home), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(cfg_home));
	setenv("XDG_CONFIG_HOME", cfg_home, 1);
	unsetenv("HOME");
}

static void cfg_file(const char *text)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/blktune/config", cfg_home);
	unit_write_file(p, text);
}

static const char *cfg_text(void)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/blktune/config", cfg_home);
	return unit_slurp(p);
}

START_TEST(config_where)
{
	char dir[256], file[300];

	setenv("XDG_CONFIG_HOME", "/x/conf", 1);
	setenv("HOME", "/home/u", 1);
	ck_assert_int_eq(config_path(dir, sizeof(dir), file, sizeof(file)), 0);
	ck_assert_str_eq(dir, "/x/conf/blktune");
	ck_assert_str_eq(file, "/x/conf/blktune/config");
	/* a relative XDG_CONFIG_HOME is invalid (XDG spec): HOME's instead */
	setenv("XDG_CONFIG_HOME", "conf", 1);
	ck_assert_int_eq(config_path(dir, sizeof(dir), file, sizeof(file)), 0);
	ck_assert_str_eq(file, "/home/u/.config/blktune/config");
	unsetenv("XDG_CONFIG_HOME");
	ck_assert_int_eq(config_path(dir, sizeof(dir), file, sizeof(file)), 0);
	ck_assert_str_eq(dir, "/home/u/.config/blktune");
	setenv("HOME", "home", 1);
	ck_assert_int_eq(config_path(dir, sizeof(dir), file, sizeof(file)), -ENOENT);
	unsetenv("HOME");
	ck_assert_int_eq(config_path(dir, sizeof(dir), file, sizeof(file)), -ENOENT);
}
END_TEST

START_TEST(config_load_cases)
{
	struct config c;
	char why[512], want[512];

	int fds = unit_count_fds();

	cfg_setup();
	/* no directory, then no file: none, quietly, and c emptied */
	why[0] = '\0';
	memset(&c, 0xff, sizeof(c));
	ck_assert_int_eq(config_load(&c, why, sizeof(why)), -ENOENT);
	ck_assert_str_eq(why, "");
	ck_assert(!c.has_columns && !c.has_sort && !c.has_interval && !c.has_color);
	snprintf(want, sizeof(want), "%s/blktune", cfg_home);
	ck_assert_int_eq(mkdir(want, 0700), 0);
	ck_assert_int_eq(config_load(&c, why, sizeof(why)), -ENOENT);
	ck_assert_str_eq(why, "");
	/* a good one */
	cfg_file("blktune-config 1\ninterval 2.5\n");
	ck_assert_int_eq(config_load(&c, why, sizeof(why)), 0);
	ck_assert(c.has_interval && c.interval == 2.5 && !c.has_color);
	ck_assert_str_eq(why, ""); /* nothing to say */
	/* an empty file is no config */
	cfg_file("");
	ck_assert_int_eq(config_load(&c, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "/blktune/config empty: no \"blktune-config 1\" line"));
	/* a bad one names the file and the line */
	cfg_file("blktune-config 1\ncolor purple\n");
	ck_assert_int_eq(config_load(&c, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s/blktune/config line 2: color purple: on or off", cfg_home);
	ck_assert_str_eq(why, want);
	/* past 4096 bytes: refused as too long, not read in part */
	{
		char big[5000];

		memset(big, '#', sizeof(big) - 2);
		big[sizeof(big) - 2] = '\n';
		big[sizeof(big) - 1] = '\0';
		memcpy(big, "blktune-config 1\n", 17);
		cfg_file(big);
		ck_assert_int_eq(config_load(&c, why, sizeof(why)), -EFBIG);
		/* naming the file, as every config error does */
		snprintf(want, sizeof(want), "%s/blktune/config longer than 4096 bytes", cfg_home);
		ck_assert_str_eq(why, want);
	}
	/* a directory others may write to is refused, and says so */
	snprintf(want, sizeof(want), "%s/blktune", cfg_home);
	ck_assert_int_eq(chmod(want, 0777), 0);
	ck_assert_int_eq(config_load(&c, why, sizeof(why)), -EPERM);
	ck_assert_ptr_nonnull(strstr(why, "writable by group or others"));
	ck_assert_int_eq(chmod(want, 0700), 0);
	ck_assert_int_eq(unit_count_fds(), fds);
	unit_rmtree(cfg_home);
}
END_TEST

START_TEST(config_save_cases)
{
	struct config c, back;
	char why[512], msg[512], want[512];
	int fds = unit_count_fds();

	cfg_setup();
	ck_assert_int_eq(config_parse("blktune-config 1\nsort r/s asc\ncolor off\n", &c, why, sizeof(why)), 0);
	/* the directory is made, the file written and read back equal */
	ck_assert_int_eq(config_save(&c, msg, sizeof(msg)), 0);
	snprintf(want, sizeof(want), "written %s/blktune/config", cfg_home);
	ck_assert_str_eq(msg, want);
	ck_assert_int_eq(config_load(&back, why, sizeof(why)), 0);
	ck_assert_int_eq(memcmp(&c, &back, sizeof(c)), 0);
	/* a file that does not parse is someone's work: not overwritten */
	cfg_file("blktune-config 1\nmy own notes\n");
	ck_assert_int_eq(config_save(&c, msg, sizeof(msg)), -EEXIST);
	ck_assert_ptr_nonnull(strstr(msg, ": not overwritten (fix or remove it)"));
	ck_assert_str_eq(cfg_text(), "blktune-config 1\nmy own notes\n");
	/* a good one is replaced */
	cfg_file("blktune-config 1\ninterval 3\n");
	ck_assert_int_eq(config_save(&c, msg, sizeof(msg)), 0);
	ck_assert_ptr_null(strstr(cfg_text(), "interval"));
	/* nowhere to write */
	unsetenv("XDG_CONFIG_HOME");
	ck_assert_int_eq(config_save(&c, msg, sizeof(msg)), -ENOENT);
	ck_assert_str_eq(msg, "not written: neither XDG_CONFIG_HOME nor HOME is an absolute path");
	ck_assert_int_eq(unit_count_fds(), fds);
	unit_rmtree(cfg_home);
}
END_TEST

/* config_save under a 16-byte file size limit: EFBIG, said with the
 * file's name (0), else 3 or 4. */
static int save_at_limit(void *c)
{
	char msg[512], want[512];

	if (unit_limit_file_size(16) < 0)
		return 3;
	snprintf(want, sizeof(want), "%s/blktune/config not written: %s", cfg_home, strerror(EFBIG));
	return config_save(c, msg, sizeof(msg)) == -EFBIG && !strcmp(msg, want) ? 0 : 4;
}

/* A full disk, as a file size limit: the save fails with the reason, the
 * config already there stays, no temporary file is left. In a child: the
 * limit is the process's. */
START_TEST(config_save_disk_full)
{
	struct config c;
	char why[256], dir[128];
	int status;

	cfg_setup();
	ck_assert_int_eq(config_parse("blktune-config 1\ncolumns r/s,w/s,rMB/s,wMB/s,r_await,w_await\n", &c, why,
				      sizeof(why)), 0);
	cfg_file("blktune-config 1\ninterval 3\n");
	status = unit_in_child(save_at_limit, &c);
	ck_assert_msg(status == 0, "child status %d", status);
	ck_assert_str_eq(cfg_text(), "blktune-config 1\ninterval 3\n");
	snprintf(dir, sizeof(dir), "%s/blktune", cfg_home);
	ck_assert_int_eq(unit_count_entries(dir), 1); /* config alone: no .config.XXXXXX */
	unit_rmtree(cfg_home);
}
END_TEST

/* config_save with one descriptor free: EMFILE, not written, and every
 * descriptor it opened closed again (0), else 3 to 6. */
static int save_with_one_fd(void *c)
{
	char msg[512];
	int before = unit_count_fds(), err;

	if (unit_leave_one_fd() < 0)
		return 3;
	err = config_save(c, msg, sizeof(msg));
	if (unit_restore_fds() < 0)
		return 6;
	return err == -EMFILE && strstr(msg, "not written: ") ? (unit_count_fds() == before ? 0 : 5) : 4;
}

/* Out of descriptors: the directory opens, the temporary file cannot
 * (EMFILE); the directory is closed on that path too, and nothing is
 * written. In a child: the limit is the process's. */
START_TEST(config_save_no_descriptor)
{
	struct config c;
	char why[256];
	int status;

	cfg_setup();
	ck_assert_int_eq(config_parse("blktune-config 1\ncolor on\n", &c, why, sizeof(why)), 0);
	/* no directory yet: the save reads nothing (opening a file that
	 * is not there would take a descriptor too), makes the directory and
	 * holds it open, and then has none left for the temporary file */
	status = unit_in_child(save_with_one_fd, &c);
	ck_assert_msg(status == 0, "child status %d", status);
	ck_assert_ptr_null(cfg_text()); /* no config, no temporary */
	snprintf(why, sizeof(why), "%s/blktune", cfg_home);
	ck_assert_int_eq(unit_count_entries(why), 0);
	unit_rmtree(cfg_home);
}
END_TEST

UNIT_SUITE(config_suite)
static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("config");

	tcase_add_test(tc, layout_parse_and_edit);
	tcase_add_test(tc, layout_panel_rows);
	tcase_add_test(tc, config_round_trip);
	tcase_add_test(tc, config_refusals);
	tcase_add_test(tc, config_sort_any_panel_column);
	tcase_add_test(tc, config_format_every_size);
	tcase_add_test(tc, config_where);
	tcase_add_test(tc, config_load_cases);
	tcase_add_test(tc, config_save_cases);
	tcase_add_test(tc, config_save_disk_full);
	tcase_add_test(tc, config_save_no_descriptor);
	suite_add_tcase(s, tc);
	return s;
}
