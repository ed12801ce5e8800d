#include "source-names.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

struct link {
	char target[SAMPLE_NAME_MAX]; /* kernel name the link points at */
	char name[SAMPLE_PNAME_MAX];
};

struct source_names {
	const struct root *root;
	char dir[32]; /* dev/disk/by-TYPE */
	struct link *links;
	size_t n, cap;
	double next_read;
	size_t last_ndisks;
};

int source_names_open(const struct root *r, enum names_type t, struct source_names **out)
{
	struct source_names *sn;

	if (!names_type_dir(t))
		return -EINVAL;
	if (!(sn = calloc(1, sizeof(*sn))))
		return -ENOMEM;
	sn->root = r;
	snprintf(sn->dir, sizeof(sn->dir), "dev/disk/%s", names_type_dir(t));
	*out = sn;
	return 0;
}

void source_names_close(struct source_names *sn)
{
	if (!sn)
		return;
	free(sn->links);
	free(sn);
}

/* The last component of a link target: "../../sda1" -> "sda1". */
static const char *base(const char *target)
{
	const char *s = strrchr(target, '/');

	return s ? s + 1 : target;
}

/* Links sorted by target, then name: the first of each target is the one
 * shown, so the choice does not depend on the directory's order, and each
 * refresh finds a device's link by binary search. */
static int cmp_link(const void *a, const void *b)
{
	const struct link *x = a, *y = b;
	int r = strcmp(x->target, y->target);

	return r ? r : strcmp(x->name, y->name);
}

static int cmp_target(const void *key, const void *l)
{
	return strcmp(key, ((const struct link *)l)->target);
}

static const struct link *find(const struct source_names *sn, const char *target)
{
	return sn->n ? bsearch(target, sn->links, sn->n, sizeof(*sn->links), cmp_target) : NULL;
}

static int add(struct source_names *sn, const char *target, const char *name)
{
	struct link *l;

	if (sn->n == sn->cap) {
		size_t cap = sn->cap ? sn->cap * 2 : 32;
		struct link *nl = realloc(sn->links, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		sn->links = nl;
		sn->cap = cap;
	}
	l = &sn->links[sn->n++];
	snprintf(l->target, sizeof(l->target), "%s", target);
	snprintf(l->name, sizeof(l->name), "%s", name);
	return 0;
}

static int reread(struct source_names *sn)
{
	char target[PATH_MAX];
	struct dirent *de;
	size_t kept = 0;
	DIR *d;
	int err = 0;

	sn->n = 0;
	if (!(d = root_opendir(sn->root, sn->dir)))
		return 0;
	while ((de = readdir(d))) {
		/* A name that would reach a terminal with controls, escapes or
		 * bytes that are not UTF-8 (udev writes such bytes of a label as
		 * \xNN; a doctored tree need not) is skipped, as a diskstats
		 * line with such a device name is: never shown, never matched. */
		if (de->d_name[0] == '.' || strlen(de->d_name) >= SAMPLE_PNAME_MAX ||
		    !format_text_ok(de->d_name, false))
			continue;
		/* Not a link (udev makes only links here): skip it. */
		if (root_readlink_in(d, de->d_name, target, sizeof(target)) <= 0 ||
		    strlen(base(target)) >= SAMPLE_NAME_MAX)
			continue;
		if ((err = add(sn, base(target), de->d_name)) < 0)
			break;
	}
	closedir(d);
	if (sn->n)
		qsort(sn->links, sn->n, sizeof(*sn->links), cmp_link);
	for (size_t i = 0; i < sn->n; i++)
		if (!kept || strcmp(sn->links[i].target, sn->links[kept - 1].target))
			sn->links[kept++] = sn->links[i];
	sn->n = kept;
	return err;
}

int source_names_fill(struct source_names *sn, struct sample *s)
{
	int err;

	if (s->t >= sn->next_read || s->ndisks != sn->last_ndisks) {
		if ((err = reread(sn)) < 0)
			return err;
		sn->next_read = s->t + SOURCE_NAMES_REREAD_S;
		sn->last_ndisks = s->ndisks;
	}
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct link *l = find(sn, s->disks[i].st.name);
		/* Both buffers are SAMPLE_PNAME_MAX: no need for snprintf's cost. */
		if (l)
			memcpy(s->disks[i].info.persistent, l->name, strlen(l->name) + 1);
		else
			s->disks[i].info.persistent[0] = '\0';
	}
	return 0;
}

int source_names_resolve(const struct root *r, const char *arg, char *out, size_t len)
{
	char target[PATH_MAX];
	const char *rel = arg + 1;
	ssize_t n;

	if (strncmp(arg, "/dev/", 5)) {
		snprintf(out, len, "%s", arg);
		return 0;
	}
	if (root_check_path(rel) < 0)
		return -EINVAL;
	n = root_readlink(r, rel, target, sizeof(target));
	if (n > 0) {
		snprintf(out, len, "%s", base(target));
		return 0;
	}
	/* /dev/sda itself (a device node, or absent from a captured tree); the
	 * kernel's name is the path below /dev/ (aoe's /dev/etherd/e0.0). */
	if (!strncmp(rel, "dev/mapper/", 11) || !strncmp(rel, "dev/disk/", 9))
		return n < 0 ? (int)n : -ENOENT;
	snprintf(out, len, "%s", rel + 4);
	return 0;
}
