#include "cgroup-sample.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cgroup_counter_names[CGROUP_COUNTERS] = {
	[CGROUP_COUNTER_V2] = "io.stat",
	[CGROUP_COUNTER_THROTTLE] = "throttle",
	[CGROUP_COUNTER_BFQ] = "bfq",
};

void cgroup_sample_init(struct cgroup_sample *c)
{
	memset(c, 0, sizeof(*c));
}

void cgroup_sample_free(struct cgroup_sample *c)
{
	free(c->groups);
	free(c->io);
	cgroup_sample_init(c);
}

void cgroup_sample_reset(struct cgroup_sample *c)
{
	struct cgroup_group *g = c->groups;
	struct cgroup_io *io = c->io;
	size_t gcap = c->gcap, iocap = c->iocap;

	memset(c, 0, sizeof(*c));
	c->groups = g;
	c->gcap = gcap;
	c->io = io;
	c->iocap = iocap;
}

struct cgroup_group *cgroup_sample_add_group(struct cgroup_sample *c, uint64_t id, const char *path, int depth)
{
	struct cgroup_group *g;

	if (c->ngroups == c->gcap) {
		size_t cap = c->gcap ? c->gcap * 2 : 32;
		if (!(g = realloc(c->groups, cap * sizeof(*g))))
			return NULL;
		c->groups = g;
		c->gcap = cap;
	}
	g = &c->groups[c->ngroups++];
	memset(g, 0, sizeof(*g));
	g->id = id;
	snprintf(g->path, sizeof(g->path), "%s", path);
	g->depth = depth;
	g->first = c->nio;
	return g;
}

struct cgroup_io *cgroup_sample_add_io(struct cgroup_sample *c, dev_t dev, enum cgroup_counter counter)
{
	struct cgroup_io *io;

	if (!c->ngroups)
		return NULL;
	if (c->nio == c->iocap) {
		size_t cap = c->iocap ? c->iocap * 2 : 64;
		if (!(io = realloc(c->io, cap * sizeof(*io))))
			return NULL;
		c->io = io;
		c->iocap = cap;
	}
	io = &c->io[c->nio++];
	memset(io, 0, sizeof(*io));
	io->dev = dev;
	io->counter = counter;
	c->groups[c->ngroups - 1].n++;
	return io;
}

const struct cgroup_group *cgroup_sample_find(const struct cgroup_sample *c, uint64_t id, const char *path,
					      size_t hint)
{
	if (hint < c->ngroups && c->groups[hint].id == id && !strcmp(c->groups[hint].path, path))
		return &c->groups[hint];
	for (size_t i = 0; i < c->ngroups; i++)
		if (c->groups[i].id == id && !strcmp(c->groups[i].path, path))
			return &c->groups[i];
	return NULL;
}

const struct cgroup_group *cgroup_sample_find_id(const struct cgroup_sample *c, uint64_t id)
{
	for (size_t i = 0; i < c->ngroups; i++)
		if (c->groups[i].id == id)
			return &c->groups[i];
	return NULL;
}

const struct cgroup_io *cgroup_sample_io(const struct cgroup_sample *c, const struct cgroup_group *g, dev_t dev)
{
	for (size_t i = g->first; i < g->first + g->n; i++)
		if (c->io[i].dev == dev)
			return &c->io[i];
	return NULL;
}
