#include "source-mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "format.h"

/* A mountinfo of a machine with thousands of mounts is a few MB: enough. */
#define MOUNTINFO_MAX (8u << 20)

struct source_mounts {
	const struct root *root;
	struct source_mounts_entry *e;
	size_t n;
	double next_read;
};

int source_mounts_open(const struct root *r, struct source_mounts **out)
{
	struct source_mounts *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->root = r;
	*out = m;
	return 0;
}

void source_mounts_close(struct source_mounts *m)
{
	if (!m)
		return;
	free(m->e);
	free(m);
}

/* mountinfo writes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' && r[3] >= '0' &&
		    r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static int cmp_dev(const void *a, const void *b)
{
	const struct source_mounts_entry *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

static struct source_mounts_entry *find(struct source_mounts_entry *e, size_t n, dev_t dev)
{
	struct source_mounts_entry key = { .dev = dev };

	return bsearch(&key, e, n, sizeof(*e), cmp_dev);
}

/* Add a mountpoint once; what does not fit ends in "...". */
static void add_point(struct source_mounts_entry *e, const char *point)
{
	size_t used = strlen(e->points), len = strlen(point);
	const char *p = e->points;

	while ((p = strstr(p, point))) {
		if ((p == e->points || p[-1] == ' ') && (p[len] == ',' || !p[len]))
			return;
		p += len;
	}
	if (used && used + 2 + len >= sizeof(e->points)) {
		if (used + 4 < sizeof(e->points) && strcmp(e->points + used - 3, "..."))
			strcat(e->points, ", ...");
		return;
	}
	snprintf(e->points + used, sizeof(e->points) - used, "%s%s", used ? ", " : "", point);
}

/* One line: "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw". */
static int parse_line(char *line, dev_t *dev, char **point, char **fstype, const char **source)
{
	char *f[6], *save = NULL, *t;
	unsigned ma, mi;
	int n = 0;

	for (t = strtok_r(line, " ", &save); t && n < 6; t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	if (n < 6 || sscanf(f[2], "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	/* optional fields up to the lone "-", then the filesystem type */
	while (t && strcmp(t, "-"))
		t = strtok_r(NULL, " ", &save);
	if (!t || !(t = strtok_r(NULL, " ", &save)))
		return -EINVAL;
	*dev = makedev(ma, mi);
	*point = f[4];
	*fstype = t;
	*source = strtok_r(NULL, " ", &save);
	if (!*source)
		*source = "";
	return 0;
}

int source_mounts_parse(const char *text, struct source_mounts_entry **out)
{
	struct source_mounts_entry *e = NULL;
	size_t n = 0, cap = 0;
	char *copy = strdup(text), *save = NULL;

	*out = NULL;
	if (!copy)
		return -ENOMEM;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *point, *fstype, clean[sizeof(e->points)], type[sizeof(e->fstype)];
		const char *source;
		struct source_mounts_entry *x;
		dev_t dev;

		if (parse_line(line, &dev, &point, &fstype, &source) < 0)
			continue;
		/* An anonymous device (tmpfs, proc, overlay) is no block device,
		 * unless the source names one: btrfs and bcachefs mount a block
		 * device under an anonymous number ("0:40 ... - btrfs /dev/loop2"). */
		if (major(dev) == 0 && (strncmp(source, "/dev/", 5) || !source[5] ||
					strlen(source + 5) >= sizeof(e->source)))
			continue;
		x = NULL;
		for (size_t i = 0; i < n && !x; i++)
			if (e[i].dev == dev)
				x = &e[i];
		if (!x) {
			if (n == cap) {
				struct source_mounts_entry *ne = realloc(e, (cap = cap ? cap * 2 : 16) * sizeof(*e));
				if (!ne) {
					free(e);
					free(copy);
					return -ENOMEM;
				}
				e = ne;
			}
			x = &e[n++];
			memset(x, 0, sizeof(*x));
			x->dev = dev;
			if (major(dev) == 0)
				snprintf(x->source, sizeof(x->source), "%s", source + 5);
			format_sanitize(fstype, type, sizeof(type));
			snprintf(x->fstype, sizeof(x->fstype), "%s", type);
		}
		unescape(point);
		format_sanitize(point, clean, sizeof(clean));
		add_point(x, clean);
	}
	free(copy);
	if (n)
		qsort(e, n, sizeof(*e), cmp_dev);
	*out = e;
	return (int)n;
}

/* The anonymous entries (sorted first) whose source is this device: its
 * kernel name, or mapper/ and its device-mapper name. */
static const struct source_mounts_entry *by_source(const struct source_mounts *m, const char *name,
						   const char *dm_name)
{
	for (size_t i = 0; i < m->n && major(m->e[i].dev) == 0; i++) {
		const char *src = m->e[i].source;
		if (!strcmp(src, name) || (dm_name[0] && !strncmp(src, "mapper/", 7) && !strcmp(src + 7, dm_name)))
			return &m->e[i];
	}
	return NULL;
}

void source_mounts_fill(struct source_mounts *m, struct sample *s)
{
	if (s->t >= m->next_read) {
		char *text = NULL;
		size_t cap = 0;
		ssize_t len = root_read_all(m->root, "proc/self/mountinfo", &text, &cap, MOUNTINFO_MAX);
		struct source_mounts_entry *e = NULL;
		int n = len >= 0 ? source_mounts_parse(text, &e) : len == -ENOMEM || len == -EFBIG ? -1 : 0;

		free(text);
		/* no file (a captured tree without one): no mounts; no memory, or
		 * past MOUNTINFO_MAX (never a cut file's half line): the last */
		if (n >= 0) {
			free(m->e);
			m->e = e;
			m->n = (size_t)n;
		}
		m->next_read = s->t + SOURCE_MOUNTS_REREAD_S;
	}
	for (size_t i = 0; i < s->ndisks; i++) {
		struct disk_info *in = &s->disks[i].info;
		const struct source_mounts_entry *x = m->n ? find(m->e, m->n, s->disks[i].st.dev) : NULL;

		if (!x)
			x = by_source(m, s->disks[i].st.name, in->text->dm_name);

		/* Most devices have no mount: two stores, not two snprintf
		 * calls (2048 a refresh at 1024 devices). */
		if (!x) {
			in->mounts[0] = in->fstype[0] = '\0';
			continue;
		}
		snprintf(in->mounts, sizeof(in->mounts), "%s", x->points);
		snprintf(in->fstype, sizeof(in->fstype), "%s", x->fstype);
	}
}
