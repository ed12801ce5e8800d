/* record-step IN OUT K SECONDS: the recording IN rewritten to OUT with the
 * wall times of samples K on (and of the tunable changes recorded after
 * sample K) moved by SECONDS, as a wall clock set while recording writes
 * them; the monotonic times stay. For tests/e2e/tui-replay.sh, built there
 * against the build's objects. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record-read.h"
#include "record.h"
#include "sample.h"

int main(int argc, char **argv)
{
	struct record_reader *r;
	struct record *w;
	struct sample s;
	const struct record_change *c;
	const size_t *before;
	size_t n, nch, k = 0, from;
	long long shift;
	char why[256];
	int err = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: record-step IN OUT K SECONDS\n");
		return 2;
	}
	from = strtoull(argv[3], NULL, 10);
	shift = strtoll(argv[4], NULL, 10);
	if (record_reader_open(argv[1], &r, why, sizeof(why)) < 0 ||
	    record_create(argv[2], record_reader_meta(r), &w, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	n = record_reader_count(r);
	nch = record_reader_changes(r, &c, &before);
	sample_init(&s);
	for (size_t i = 0; i <= n && !err; i++) {
		for (; k < nch && before[k] <= i && !err; k++) {
			struct record_change x = c[k];
			if (before[k] > from)
				x.wall += shift;
			err = record_change(w, &x);
		}
		if (i == n || err)
			break;
		if ((err = record_reader_get(r, i, &s)) < 0)
			break;
		if (i >= from)
			s.wall.tv_sec += shift;
		if ((err = record_sample(w, &s, why, sizeof(why))) < 0)
			fprintf(stderr, "%s: %s\n", argv[2], why);
	}
	if (err < 0)
		fprintf(stderr, "record-step: %s\n", strerror(-err));
	sample_free(&s);
	record_reader_close(r);
	if (record_close(w) < 0 || err < 0)
		return 1;
	return 0;
}
