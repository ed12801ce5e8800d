/* Every seed of every fuzz corpus (tests/fuzz/corpus-*) is accepted by the
 * reader its target feeds: a seed the reader refuses makes the fuzzer
 * explore nothing but the first line's error path (two-devices.snap did). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record-read.h"
#include "snapshot.h"
#include "source-cpus.h"
#include "source-diskstats.h"
#include "unit.h"

static int snapshot_seed(const char *path, const char *text, size_t len, char *why, size_t whylen)
{
	struct snapshot s;
	int err = snapshot_parse(text, len, path, &s, why, whylen);

	if (!err && s.ndev == 0 && !strstr(path, "empty"))
		snprintf(why, whylen, "%s: no device", path), err = -1;
	snapshot_free(&s);
	return err;
}

/* A /proc/diskstats text with at least one good line, or a per-CPU file
 * (/proc/interrupts, /proc/softirqs) with a CPU header and a row. */
static int procfiles_seed(const char *path, const char *text, size_t len, char *why, size_t whylen)
{
	struct sample s;
	uint64_t row[64];
	char err[160];
	int ncpu = source_cpus_parse_ncpu(text), bad;
	size_t n;

	sample_init(&s);
	bad = source_diskstats_parse(text, &s, err, sizeof(err));
	n = s.ndisks;
	sample_free(&s);
	if (bad >= 0 && n > 0)
		return 0;
	if (ncpu > 0 && ncpu <= 64 &&
	    (source_cpus_parse_row(text, "BLOCK:", (unsigned)ncpu, row) == 0 ||
	     source_cpus_parse_row(text, "36:", (unsigned)ncpu, row) == 0))
		return 0;
	snprintf(why, whylen, "%s: neither diskstats lines nor a per-CPU file (%s)", path, err);
	return -1;
}

/* A recording with at least one sample, every one of which decodes. */
static int record_seed(const char *path, const char *text, size_t len, char *why, size_t whylen)
{
	struct record_reader *r;
	struct sample s;
	int err = record_reader_open(path, &r, why, whylen);

	if (err < 0)
		return err;
	sample_init(&s);
	for (size_t i = 0; !err && i < record_reader_count(r); i++)
		if ((err = record_reader_get(r, i, &s)) < 0)
			snprintf(why, whylen, "%s: sample %zu does not decode", path, i);
	if (!err && *record_reader_warning(r))
		snprintf(why, whylen, "%s", record_reader_warning(r)), err = -1;
	sample_free(&s);
	record_reader_close(r);
	return err;
}

/* One row per corpus: a new fuzz target's corpus needs its reader here, or
 * NULL where its module's own suite checks the seeds. */
static const struct {
	const char *corpus;
	int (*accepts)(const char *path, const char *text, size_t len, char *why, size_t whylen);
} seed_readers[] = {
	{ "corpus-snapshot", snapshot_seed },
	{ "corpus-procfiles", procfiles_seed },
	{ "corpus-journal", NULL },  /* test-journal.c: test_fuzz_seeds_valid */
	{ "corpus-sweep", NULL },    /* test-sweep.c: every seed by its parser */
	{ "corpus-record", record_seed },
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

START_TEST(every_seed_is_accepted_by_its_reader)
{
	char fuzz[4096], dir[4400], path[4700], why[600];
	struct dirent *c, *e;
	size_t corpora = 0;
	DIR *top, *d;

	snprintf(fuzz, sizeof(fuzz), "%s/../fuzz", unit_fixture(""));
	ck_assert_ptr_nonnull(top = opendir(fuzz));
	while ((c = readdir(top))) {
		size_t k, seeds = 0;

		if (strncmp(c->d_name, "corpus-", 7))
			continue;
		for (k = 0; k < sizeof(seed_readers) / sizeof(seed_readers[0]); k++)
			if (!strcmp(seed_readers[k].corpus, c->d_name))
				break;
		ck_assert_msg(k < sizeof(seed_readers) / sizeof(seed_readers[0]),
			      "no reader known for tests/fuzz/%s: add a row to seed_readers[]", c->d_name);
		corpora++;
		if (!seed_readers[k].accepts)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", fuzz, c->d_name);
		ck_assert_ptr_nonnull(d = opendir(dir));
		while ((e = readdir(d))) {
			size_t len;
			char *text;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			text = slurp(path, &len);
			why[0] = '\0';
			ck_assert_msg(seed_readers[k].accepts(path, text, len, why, sizeof(why)) == 0,
				      "seed refused: %s", why);
			free(text);
			seeds++;
		}
		closedir(d);
		ck_assert_msg(seeds > 0, "tests/fuzz/%s has no seed", c->d_name);
	}
	closedir(top);
	ck_assert_uint_ge(corpora, sizeof(seed_readers) / sizeof(seed_readers[0]));
}
END_TEST

UNIT_SUITE(fuzzseeds_suite)
static Suite *fuzzseeds_suite(void)
{
	Suite *s = suite_create("fuzz seeds");
	TCase *tc = tcase_create("fuzz seeds");

	tcase_add_test(tc, every_seed_is_accepted_by_its_reader);
	suite_add_tcase(s, tc);
	return s;
}
