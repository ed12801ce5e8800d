#include "bpf-helper.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf-env.h"
#include "bpf-loader.h"
#include "source-bpf.h"
#include "source-procs-bpf.h"
#include "source-readahead.h"

static const struct bpf_helper_object objects[] = {
	{ "blktune", source_bpf_helper_load, source_bpf_helper_free },
	{ "readahead", source_ra_helper_load, source_ra_helper_free },
	{ "procs", source_procs_bpf_helper_load, source_procs_bpf_helper_free },
};

static bool deferred(const char *name, char **defer, int ndefer)
{
	for (int i = 0; i < ndefer; i++)
		if (!strcmp(defer[i], name))
			return true;
	return false;
}

static int add(struct bpf_loader_reply *r, int *fds, enum bpf_loader_kind kind, const char *name, int fd,
	       uint32_t attach_type, char *why, size_t whylen)
{
	struct bpf_loader_entry *e = &r->e[r->n];

	if (r->n == BPF_LOADER_MAX || strlen(name) >= sizeof(e->name)) {
		snprintf(why, whylen, "BPF object too large to hand over (%s)", name);
		return -E2BIG;
	}
	e->kind = kind;
	e->attach_type = attach_type;
	snprintf(e->name, sizeof(e->name), "%s", name);
	fds[r->n++] = fd;
	return 0;
}

/* Every map and loaded program, and a link for each attached program. */
static int collect(struct bpf_object *obj, char **defer, int ndefer, struct bpf_loader_reply *r, int *fds)
{
	struct bpf_program *p;
	struct bpf_map *m;
	int err = 0;

	bpf_object__for_each_map(m, obj)
		if (bpf_map__fd(m) >= 0 &&
		    (err = add(r, fds, BPF_LOADER_MAP, bpf_map__name(m), bpf_map__fd(m), 0, r->why, sizeof(r->why))))
			return err;
	bpf_object__for_each_program(p, obj) {
		const char *name = bpf_program__name(p);
		struct bpf_link *link;

		if (bpf_program__fd(p) < 0) /* left out by the object's load */
			continue;
		err = add(r, fds, BPF_LOADER_PROG, name, bpf_program__fd(p), bpf_program__expected_attach_type(p),
			  r->why, sizeof(r->why));
		if (err)
			return err;
		if (deferred(name, defer, ndefer))
			continue;
		/* Left to the process exit: the link fd sent keeps it attached. */
		link = bpf_program__attach(p);
		if (!link) {
			err = -errno;
			snprintf(r->why, sizeof(r->why), "cannot attach %s (%s): %s", name,
				 bpf_program__section_name(p), bpf_env_message()[0] ? bpf_env_message() : strerror(-err));
			return err;
		}
		err = add(r, fds, BPF_LOADER_LINK, name, bpf_link__fd(link), 0, r->why, sizeof(r->why));
		if (err)
			return err;
	}
	return 0;
}

int bpf_helper_main(int argc, char **argv)
{
	const struct bpf_helper_object *o = NULL;
	struct bpf_loader_reply *r;
	struct bpf_object *obj = NULL;
	int fds[BPF_LOADER_MAX], sock, err;
	void *handle = NULL;
	char *end;

	if (argc < 4 || strcmp(argv[1], "--bpf-helper"))
		return -1;
	sock = (int)strtol(argv[3], &end, 10);
	if (*end || end == argv[3] || sock < 3)
		return 2;
	r = calloc(1, sizeof(*r));
	if (!r)
		return 1;
	r->magic = BPF_LOADER_MAGIC;
	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (!strcmp(objects[i].name, argv[2]))
			o = &objects[i];
	bpf_env_capture_begin();
	if (!o) {
		snprintf(r->why, sizeof(r->why), "no BPF object called %s", argv[2]);
		err = -ENOENT;
	} else
		err = o->load(&handle, &obj, r->why, sizeof(r->why));
	if (!err)
		err = collect(obj, argv + 4, argc - 4, r, fds);
	bpf_env_capture_end();
	if (err) {
		r->err = err;
		r->n = 0;
	}
	err = bpf_loader_send(sock, r, fds);
	if (o)
		o->free(handle);
	free(r);
	close(sock);
	return err ? 1 : 0;
}
