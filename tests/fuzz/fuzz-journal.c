/* libFuzzer target for the journal reader (make fuzz): any bytes must parse
 * into entries and rejected lines, never crash, overrun or hang. What it
 * accepts is exactly what the writer writes: every entry, written back in
 * the writer's format, parses again to the same entries with nothing
 * rejected; every rejected line names a line of the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal *j, *back;
	size_t lines = 1, n, len = 0, cap;
	char *out;

	if (size > JOURNAL_FILE_MAX)
		return 0;
	if (journal_parse((const char *)data, size, "fuzz", &j) != 0)
		return 0; /* out of memory only */
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	n = journal_count(j);
	if (journal_reject_count(j) > journal_reject_total(j) || journal_reject_count(j) > JOURNAL_REJECT_KEEP ||
	    n + journal_reject_total(j) > lines)
		abort();
	for (size_t i = 0; i < journal_reject_count(j); i++) {
		const struct journal_reject *r = journal_reject_at(j, i);
		if (r->line == 0 || r->line > lines || !r->reason[0] || strlen(r->text) >= sizeof(r->text))
			abort();
		for (const char *p = r->text; *p; p++) /* escaped: printable only */
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				abort();
	}
	cap = 32 + n * JOURNAL_LINE_MAX;
	out = malloc(cap);
	if (!out) {
		journal_close(j);
		return 0;
	}
	len = (size_t)snprintf(out, cap, "blktune-journal 2\n");
	for (size_t i = 0; i < n; i++) {
		const struct journal_entry *e = journal_at(j, i);
		int w = snprintf(out + len, cap - len, "orig %s %s %s %s %s\n", e->dev, e->devt, e->diskseq, e->name,
				 e->value);

		if (w <= 0 || w >= JOURNAL_LINE_MAX || e->line < 2 || e->line > lines ||
		    (i && e->line <= journal_at(j, i - 1)->line))
			abort();
		len += (size_t)w;
	}
	if (journal_parse(out, len, "again", &back) == 0) {
		if (journal_count(back) != n || journal_reject_total(back) != 0)
			abort();
		for (size_t i = 0; i < n; i++) {
			const struct journal_entry *a = journal_at(j, i), *b = journal_at(back, i);
			if (strcmp(a->dev, b->dev) || strcmp(a->devt, b->devt) || strcmp(a->diskseq, b->diskseq) ||
			    strcmp(a->name, b->name) || strcmp(a->value, b->value))
				abort();
		}
		journal_close(back);
	}
	free(out);
	journal_close(j);
	return 0;
}
