/* Where a recording's bytes go: record-breakdown FILE reads a recording
 * (blktune -w), re-flattens every sample with each word's group (record-
 * codec's enum record_group) and re-encodes it as the recorder does, and
 * prints per group the words, the words coded (active or entering) and
 * the bytes their places and residuals took; then the rest (layout,
 * strings, bit padding) and the frames. Averages per delta record (keys
 * apart: their share is printed on its own). Usage: record-breakdown FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record-codec.h"
#include "record-read.h"

int main(int argc, char **argv)
{
	struct record_reader *r;
	struct record_flat f[2];
	struct record_buf b = { 0 };
	double bits[RECORD_GROUPS] = { 0 }, words[RECORD_GROUPS] = { 0 }, coded[RECORD_GROUPS] = { 0 };
	double total = 0, frames = 0, nd = 0, keys = 0, nk = 0, relayout = 0, wbits = 0;
	struct sample s;
	char why[512];
	size_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: record-breakdown FILE\n");
		return 2;
	}
	if (record_reader_open(argv[1], &r, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	sample_init(&s);
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	n = record_reader_count(r);
	for (size_t i = 0; i < n; i++) {
		struct record_flat *cur = &f[i % 2], *prev = i ? &f[(i + 1) % 2] : NULL;
		double c[RECORD_GROUPS] = { 0 };
		bool key = i % record_reader_meta(r)->key_every == 0;

		if (record_reader_get(r, i, &s) < 0 || record_flatten(&s, cur) < 0)
			return 1;
		cur->cost = c;
		b.n = 0;
		if (record_encode(key ? NULL : prev, cur, &b) < 0)
			return 1;
		cur->cost = NULL;
		if (key) {
			keys += (double)b.n + 7;
			nk++;
			continue;
		}
		nd++;
		total += (double)b.n;
		frames += 1 + (b.n < 128 ? 1 : b.n < 16384 ? 2 : 3) + 4;
		relayout += b.p[0] != 0;
		for (size_t k = 0; k < cur->nw; k++) {
			words[cur->g[k]]++;
			coded[cur->g[k]] += cur->on[k] != 0;
		}
		for (int k = 0; k < RECORD_GROUPS; k++) {
			bits[k] += c[k];
			wbits += c[k];
		}
	}
	if (!nd)
		return 1;
	{
		/* a key every key_every samples, each the size of those here */
		double every = record_reader_meta(r)->key_every, key = nk ? keys / nk / every : 0;
		printf("%s: %zu samples, %.0f delta records: %.1f B/interval, keys %.1f B/interval more (%.1f MB/24h at 1 s)\n",
		       argv[1], n, nd, (total + frames) / nd, key, ((total + frames) / nd + key) * 86400 / 1e6);
	}
	printf("%-24s %9s %8s %9s %7s\n", "group", "words", "active", "bytes", "share");
	for (int k = 0; k < RECORD_GROUPS; k++)
		if (words[k])
			printf("%-24s %9.1f %8.1f %9.1f %6.1f%%\n", record_group_name[k], words[k] / nd, coded[k] / nd,
			       bits[k] / 8 / nd, 100 * bits[k] / 8 / (total + frames));
	printf("%-24s %9s %8s %9.1f %6.1f%%\n", "layout, strings, pad", "", "", (total - wbits / 8) / nd,
	       100 * (total - wbits / 8) / (total + frames));
	printf("%-24s %9s %8s %9.1f %6.1f%%\n", "frame (type, len, crc)", "", "", frames / nd, 100 * frames / (total + frames));
	printf("records with a new layout (devices, processes came or went): %.0f of %.0f\n", relayout, nd);
	record_buf_free(&b);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	sample_free(&s);
	record_reader_close(r);
	return 0;
}
