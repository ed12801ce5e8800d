/* libFuzzer target for the snapshot reader (make fuzz): any input must give
 * 0 or -EINVAL with a message, never a crash, leak or overrun; what parses
 * must write back and parse again to the same text. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot s, again;
	char msg[SNAPSHOT_MSG_MAX], *buf = NULL, *buf2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f;
	int err = snapshot_parse((const char *)data, size, "fuzz", &s, msg, sizeof(msg));

	if (err == -EINVAL && strncmp(msg, "fuzz:", 5) != 0)
		abort();
	if (err)
		return 0;
	f = open_memstream(&buf, &len);
	if (snapshot_write(&s, f) != 0)
		abort();
	fclose(f);
	if (snapshot_parse(buf, len, "again", &again, msg, sizeof(msg)) != 0)
		abort();
	f = open_memstream(&buf2, &len2);
	snapshot_write(&again, f);
	fclose(f);
	if (len != len2 || memcmp(buf, buf2, len))
		abort();
	free(buf);
	free(buf2);
	snapshot_free(&s);
	snapshot_free(&again);
	return 0;
}
