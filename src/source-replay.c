#include "source-replay.h"

#include <errno.h>
#include <stdlib.h>

struct source_replay {
	struct record_reader *r;
	size_t next;
};

int source_replay_open(const char *path, struct source_replay **out, char *why, size_t whylen)
{
	struct source_replay *src = calloc(1, sizeof(*src));
	int err;

	if (!src)
		return -ENOMEM;
	if ((err = record_reader_open(path, &src->r, why, whylen)) < 0) {
		free(src);
		return err;
	}
	*out = src;
	return 0;
}

void source_replay_close(struct source_replay *src)
{
	if (!src)
		return;
	record_reader_close(src->r);
	free(src);
}

int source_replay_read(struct source_replay *src, struct sample *s)
{
	int err;

	if (src->next >= record_reader_count(src->r))
		return -ENODATA;
	if ((err = record_reader_get(src->r, src->next, s)) < 0)
		return err;
	src->next++;
	return 0;
}

void source_replay_seek(struct source_replay *src, size_t i)
{
	size_t n = record_reader_count(src->r);

	src->next = i < n ? i : n;
}

size_t source_replay_pos(const struct source_replay *src)
{
	return src->next;
}

void source_replay_limit(struct source_replay *src, size_t n)
{
	record_reader_limit(src->r, n + 1);
	source_replay_seek(src, src->next);
}

const struct record_reader *source_replay_reader(const struct source_replay *src)
{
	return src->r;
}
