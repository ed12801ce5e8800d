/* libFuzzer target for the /proc parsers (make fuzz): /proc/diskstats lines
 * and files, and the per-CPU rows of /proc/interrupts and /proc/softirqs.
 * Any input must parse or be refused, never crash or overrun; what parses
 * must be a device blktune can name and print. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "source-cpus.h"
#include "source-diskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[160];
	struct disk_stat st;
	struct sample s;
	uint64_t row[64];
	int ncpu;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* A parsed name reaches the terminal and sysfs paths: printable text. */
	if (source_diskstats_parse_line(text, &st, err, sizeof(err)) == 0 &&
	    (!st.name[0] || strlen(st.name) >= SAMPLE_NAME_MAX || !format_text_ok(st.name, true)))
		abort();
	sample_init(&s);
	if (source_diskstats_parse(text, &s, err, sizeof(err)) < 0)
		abort();
	for (size_t i = 0; i < s.ndisks; i++)
		if (s.disks[i].st.nfields != 14 && s.disks[i].st.nfields != 18 && s.disks[i].st.nfields != 20)
			abort();
	sample_free(&s);
	ncpu = source_cpus_parse_ncpu(text);
	if (ncpu > 64)
		ncpu = 64;
	source_cpus_parse_row(text, "BLOCK:", (unsigned)ncpu, row);
	source_cpus_parse_row(text, "36:", (unsigned)ncpu, row);
	free(text);
	return 0;
}
