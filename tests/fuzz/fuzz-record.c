/* libFuzzer target for the recording reader (blktune -r, make fuzz): any
 * bytes either are refused at open or give samples every one of which
 * decodes, in order and out of order, without a crash, overrun or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct record_reader *r;
	struct sample s;
	char path[64], why[256];
	int fd = memfd_create("fuzz-record", 0);
	size_t n;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (record_reader_open(path, &r, why, sizeof(why)) < 0) {
		close(fd);
		return 0;
	}
	close(fd);
	n = record_reader_count(r);
	if (n == 0)
		abort(); /* the reader refuses a file without samples */
	sample_init(&s);
	for (size_t i = 0; i < n && i < 64; i++)
		(void)record_reader_get(r, i, &s);
	(void)record_reader_get(r, n - 1, &s);
	(void)record_reader_get(r, 0, &s);
	sample_free(&s);
	record_reader_close(r);
	return 0;
}
