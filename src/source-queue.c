#include "source-queue.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capacity.h"
#include "diskseq.h"
#include "format.h"
#include "source-uevent.h"

/* The tunables shown in every row, kept open and pread. */
enum { TF_RA, TF_MAXSECT, TF_NRREQ, TF_SCHED, TF_COUNT };
static const char *const tunable_files[TF_COUNT] = {
	"queue/read_ahead_kb", "queue/max_sectors_kb", "queue/nr_requests", "queue/scheduler",
};

struct entry {
	dev_t dev;
	char name[SAMPLE_NAME_MAX];
	bool seen;
	double next_read;
	int fd[TF_COUNT];
	int seq_fd;           /* diskseq, pread when it may have changed: -1 when none */
	int size_fd;          /* size, pread with the tunables: -1 when none */
	bool recheck;         /* a uevent named it (or its disk) since the last fill */
	unsigned generation;  /* another device under this name and number: one more */
	struct disk_info info;
};

struct source_queue {
	const struct root *root;
	struct entry *e;
	size_t n, cap;
	size_t nfds;
	bool fd_budget_spent; /* past RLIMIT_NOFILE: open/read/close instead */
	struct source_uevent *uev; /* NULL: check every device's identity every fill */
};

int source_queue_open(const struct root *r, struct source_queue **out)
{
	struct source_queue *sq = calloc(1, sizeof(*sq));
	struct rlimit rl;

	if (!sq)
		return -ENOMEM;
	sq->root = r;
	/* Identity checks follow uevents on the live system; a captured tree
	 * has none, and without the socket every fill checks every device. */
	if (root_is_live(r) && source_uevent_open(&sq->uev) < 0)
		sq->uev = NULL;
	/* Six kept fds per device: allow thousands of devices. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	*out = sq;
	return 0;
}

static void fd_close(struct source_queue *sq, int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
		sq->nfds--;
	}
}

static void entry_close(struct source_queue *sq, struct entry *e)
{
	for (int i = 0; i < TF_COUNT; i++)
		fd_close(sq, &e->fd[i]);
	fd_close(sq, &e->seq_fd);
	fd_close(sq, &e->size_fd);
}

/* Keep fd open unless the budget is spent; count it. */
static int keep_fd(struct source_queue *sq, int fd)
{
	if (fd == -EMFILE || fd == -ENFILE)
		sq->fd_budget_spent = true;
	if (fd >= 0)
		sq->nfds++;
	return fd;
}

void source_queue_close(struct source_queue *sq)
{
	if (!sq)
		return;
	for (size_t i = 0; i < sq->n; i++) {
		entry_close(sq, &sq->e[i]);
		disk_text_put(sq->e[i].info.text);
	}
	source_uevent_close(sq->uev);
	free(sq->e);
	free(sq);
}

size_t source_queue_open_fds(const struct source_queue *sq)
{
	return sq->nfds;
}

/* A number, SAMPLE_ABSENT or SAMPLE_UNREADABLE (garbage is not 0). */
static long long number_or(int err, long long v)
{
	return !err ? v : err == -ENOENT ? SAMPLE_ABSENT : SAMPLE_UNREADABLE;
}

static long long read_ll(const struct root *r, const char *dir, const char *file)
{
	char path[PATH_MAX];
	long long v = 0;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	err = root_read_s64(r, path, &v);
	return number_or(err, v);
}

/* A one-line text file, trimmed of the blanks sysfs pads with ("ATA     "). */
static void read_text(const struct root *r, const char *dir, const char *file, char *out, size_t len)
{
	char path[PATH_MAX], buf[256];
	ssize_t n;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((n = root_read(r, path, buf, sizeof(buf))) <= 0)
		return;
	buf[strcspn(buf, "\n")] = '\0';
	n = (ssize_t)strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	format_sanitize(buf + strspn(buf, " "), out, len);
}

/* "a b c" directory listing of slaves/ or holders/ into a comma list. A
 * list that does not fit (an md array of 24 disks) ends with "+N more",
 * never cut silently. */
#define LINKS_MORE 16 /* room kept for ",+N more" */
static void read_links(const struct root *r, const char *dir, const char *sub, char *out, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t used = 0, left = 0;
	DIR *d;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (!(d = root_opendir(r, path)))
		return;
	while ((de = readdir(d))) {
		char name[SAMPLE_NAME_MAX];
		int n;

		if (de->d_name[0] == '.')
			continue;
		if (left) { /* the list is full: only counted */
			left++;
			continue;
		}
		format_sanitize(de->d_name, name, sizeof(name));
		n = snprintf(out + used, len - LINKS_MORE - used, "%s%s", used ? "," : "", name);
		if (n < 0 || (size_t)n >= len - LINKS_MORE - used) {
			out[used] = '\0';
			left = 1;
			continue;
		}
		used += (size_t)n;
	}
	closedir(d);
	if (left)
		snprintf(out + used, len - used, "%s+%zu more", used ? "," : "", left);
}

static int count_dir(const struct root *r, const char *dir, const char *sub)
{
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (!(d = root_opendir(r, path)))
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* The device's sysfs directory, relative to the root: sys/dev/block/M:m is
 * keyed by dev_t (present on every kernel and in lsblk captures). */
static void device_dir(const struct entry *e, char *out, size_t len)
{
	snprintf(out, len, "sys/dev/block/%u:%u", major(e->dev), minor(e->dev));
}

/* Parent disk of a partition: the directory above it in the link target. */
static void partition_parent(const struct root *r, const char *dir, char *out, size_t len)
{
	char target[PATH_MAX], *slash;

	out[0] = '\0';
	if (root_readlink(r, dir, target, sizeof(target)) < 0)
		return;
	if (!(slash = strrchr(target, '/')))
		return;
	*slash = '\0';
	slash = strrchr(target, '/');
	snprintf(out, len, "%s", slash ? slash + 1 : target);
}

/* A partition's identity is its disk's: re-attaching the disk re-creates it. */
static const char *seq_disk(const struct entry *e)
{
	return e->info.kind == DISK_KIND_PARTITION && e->info.text->parent[0] ? e->info.text->parent : e->name;
}

static void read_diskseq(struct source_queue *sq, struct entry *e)
{
	e->info.diskseq = 0;
	if (!sq->fd_budget_spent)
		e->seq_fd = keep_fd(sq, diskseq_open(sq->root, seq_disk(e)));
	if (e->seq_fd >= 0 ? diskseq_pread(e->seq_fd, &e->info.diskseq) < 0
			   : diskseq_read(sq->root, seq_disk(e), &e->info.diskseq) < 0)
		e->info.diskseq = 0;
}

/* Still the device discover() saw? A loop device detached and attached
 * again keeps name and number but gets a new diskseq; a disk removed and
 * re-created makes our fd read -ENODEV, and so does a partition deleted and
 * added again, whose diskseq is its disk's. Costs two preads: asked only
 * when a uevent named the device (at 1024 devices a pread each refresh cost
 * more than everything else the refresh does). */
static bool same_device(struct source_queue *sq, const struct entry *e)
{
	unsigned long long seq = 0;
	long long size;
	int err;

	if (e->size_fd >= 0 && root_pread_s64(e->size_fd, &size) == -ENODEV)
		return false;
	if (e->seq_fd >= 0)
		err = diskseq_pread(e->seq_fd, &seq);
	else if (e->info.diskseq)
		err = diskseq_read(sq->root, seq_disk(e), &seq);
	else
		return true; /* no diskseq here: name and dev_t are all we have */
	return err == 0 && seq == e->info.diskseq;
}

/* The text read into t, kept: one copy the samples share, or the shared
 * empty one (most loop devices) or, without memory, that. */
static struct disk_text *text_keep(const struct disk_text *t)
{
	struct disk_text *k;

	if (disk_text_empty(t) || !(k = disk_text_new()))
		return &disk_text_none;
	memcpy(k, t, sizeof(*k));
	k->refs = 1;
	return k;
}

static void discover(struct source_queue *sq, struct entry *e)
{
	const struct root *r = sq->root;
	struct disk_info *in = &e->info;
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct disk_text text;

	/* filled here (the diskseq read below needs the parent), kept at the end */
	memset(&text, 0, sizeof(text));
	disk_text_put(in->text);
	memset(in, 0, sizeof(*in));
	in->text = &text;
	in->read_ahead_kb = in->max_sectors_kb = in->nr_requests = -1;
	snprintf(in->scheduler, sizeof(in->scheduler), "-");
	device_dir(e, dir, sizeof(dir));
	if (!root_exists(r, dir)) {
		char sysname[SAMPLE_NAME_MAX];
		root_sysfs_name(e->name, sysname, sizeof(sysname));
		snprintf(dir, sizeof(dir), "sys/class/block/%s", sysname);
	}
	snprintf(path, sizeof(path), "%s/partition", dir);
	if (root_exists(r, path)) {
		in->kind = DISK_KIND_PARTITION;
		partition_parent(r, dir, in->text->parent, sizeof(in->text->parent));
	} else {
		snprintf(path, sizeof(path), "%s/dm/name", dir);
		char dm[SAMPLE_NAME_MAX];
		if (root_read(r, path, dm, sizeof(dm)) >= 0) {
			dm[strcspn(dm, "\n")] = '\0';
			format_sanitize(dm, in->text->dm_name, sizeof(in->text->dm_name));
			in->kind = DISK_KIND_DM;
		} else {
			snprintf(path, sizeof(path), "%s/md", dir);
			in->kind = root_exists(r, path) ? DISK_KIND_MD : DISK_KIND_DISK;
		}
	}
	read_diskseq(sq, e);
	snprintf(path, sizeof(path), "%s/queue", dir);
	in->has_queue = root_exists(r, path);
	if (!in->has_queue && in->kind == DISK_KIND_DISK)
		in->kind = DISK_KIND_UNKNOWN;
	read_links(r, dir, "slaves", in->text->slaves, sizeof(in->text->slaves));
	read_links(r, dir, "holders", in->text->holders, sizeof(in->text->holders));
	in->nr_hw_queues = count_dir(r, dir, "mq");
	in->size_sectors = read_ll(r, dir, "size");
	if (!sq->fd_budget_spent) {
		snprintf(path, sizeof(path), "%s/size", dir);
		e->size_fd = keep_fd(sq, root_openat(r, path, O_RDONLY));
	}
	read_text(r, dir, "device/model", in->text->model, sizeof(in->text->model));
	read_text(r, dir, "device/vendor", in->text->vendor, sizeof(in->text->vendor));
	read_text(r, dir, "loop/backing_file", in->text->backing, sizeof(in->text->backing));
	if (in->has_queue) {
		in->max_hw_sectors_kb = read_ll(r, dir, "queue/max_hw_sectors_kb");
		in->logical_block_size = read_ll(r, dir, "queue/logical_block_size");
		in->physical_block_size = read_ll(r, dir, "queue/physical_block_size");
		in->rotational = read_ll(r, dir, "queue/rotational");
		for (int i = 0; i < TF_COUNT; i++) {
			if (sq->fd_budget_spent)
				break;
			snprintf(path, sizeof(path), "%s/%s", dir, tunable_files[i]);
			e->fd[i] = keep_fd(sq, root_openat(r, path, O_RDONLY));
		}
	} else {
		in->max_hw_sectors_kb = in->logical_block_size = in->physical_block_size = -1;
		in->rotational = -1;
	}
	in->text = text_keep(&text);
	in->generation = e->generation;
}

/* The device behind e's kept fds went, and another has its name and
 * number: read afresh, as another device. */
static void rediscover(struct source_queue *sq, struct entry *e)
{
	entry_close(sq, e);
	e->generation++;
	discover(sq, e);
}

/* "mq-deadline kyber [bfq] none" -> "bfq" */
static void active_scheduler(const char *text, char *out, size_t len)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;
	char name[SAMPLE_SCHED_MAX];

	if (a && b)
		snprintf(name, sizeof(name), "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(text, " \n"), text);
	format_sanitize(name, out, len);
}

/* A device is resized (losetup -c, a grown virtual disk) and a loop device
 * re-backed in place. The size is pread through a kept fd with the
 * tunables. The backing file (an open, a read and a close: with the size's,
 * half of a 256-device refresh's sysfs cost) is re-read when a uevent names
 * the device (the kernel sends one when a loop device is bound, re-backed or
 * cleared), when its size changed, and with the tunables where there is no
 * uevent socket. */
static void read_backing(struct source_queue *sq, struct entry *e)
{
	char dir[PATH_MAX], file[sizeof(e->info.text->backing)];

	if (strncmp(e->name, "loop", 4))
		return;
	device_dir(e, dir, sizeof(dir));
	read_text(sq->root, dir, "loop/backing_file", file, sizeof(file));
	/* The samples share the text: a changed file goes into a copy. */
	if (!strcmp(file, e->info.text->backing) || disk_text_own(&e->info.text) < 0)
		return;
	memcpy(e->info.text->backing, file, sizeof(file));
	disk_text_shrink(&e->info.text);
}

/* 0 or -ENODEV (the device behind the kept fd is gone) */
static int read_size(struct source_queue *sq, struct entry *e)
{
	long long was = e->info.size_sectors, v = 0;
	int err;

	if (e->size_fd >= 0) {
		err = root_pread_s64(e->size_fd, &v);
		e->info.size_sectors = number_or(err, v);
		if (err == -ENODEV)
			return err;
	} else {
		char dir[PATH_MAX];
		device_dir(e, dir, sizeof(dir));
		e->info.size_sectors = read_ll(sq->root, dir, "size");
	}
	if (!sq->uev || e->info.size_sectors != was)
		read_backing(sq, e);
	return 0;
}

static void read_tunables(struct source_queue *sq, struct entry *e)
{
	long long *dst[TF_SCHED] = { &e->info.read_ahead_kb, &e->info.max_sectors_kb,
				     &e->info.nr_requests };
	char dir[PATH_MAX], path[PATH_MAX + 32], buf[256];

	if (read_size(sq, e) == -ENODEV) {
		/* re-created under the same name and number (below) */
		rediscover(sq, e);
		read_tunables(sq, e);
		return;
	}
	if (!e->info.has_queue)
		return;
	for (int i = 0; i < TF_COUNT; i++) {
		long long v = 0;
		int err;

		/* the path only where no fd is kept (past the fd budget) */
		if (e->fd[i] < 0) {
			device_dir(e, dir, sizeof(dir));
			snprintf(path, sizeof(path), "%s/%s", dir, tunable_files[i]);
		}
		if (i == TF_SCHED) {
			ssize_t n = e->fd[i] >= 0 ? root_pread(e->fd[i], buf, sizeof(buf))
						  : root_read(sq->root, path, buf, sizeof(buf));
			err = n < 0 ? (int)n : 0;
			if (!err)
				active_scheduler(buf, e->info.scheduler, sizeof(e->info.scheduler));
		} else {
			err = e->fd[i] >= 0 ? root_pread_s64(e->fd[i], &v) : root_read_s64(sq->root, path, &v);
			*dst[i] = number_or(err, v);
		}
		if (err == -ENODEV && e->fd[i] >= 0) {
			/* The device was removed and re-created under the same
			 * name and number: our fds point at the old one. */
			rediscover(sq, e);
			read_tunables(sq, e);
			return;
		}
	}
}

static struct entry *find_entry(struct source_queue *sq, const struct disk_stat *st, size_t hint)
{
	if (hint < sq->n && sq->e[hint].dev == st->dev && !strcmp(sq->e[hint].name, st->name))
		return &sq->e[hint];
	for (size_t i = 0; i < sq->n; i++)
		if (sq->e[i].dev == st->dev && !strcmp(sq->e[i].name, st->name))
			return &sq->e[i];
	return NULL;
}

/* A uevent for name: that device, and the partitions of that disk, may be
 * another device now (sysfs spells '/' in names as '!'). */
static void uevent_for(void *ctx, const char *name)
{
	struct source_queue *sq = ctx;
	char kname[SAMPLE_NAME_MAX];
	size_t i;

	for (i = 0; name[i] && i < sizeof(kname) - 1; i++)
		kname[i] = name[i] == '!' ? '/' : name[i];
	kname[i] = '\0';
	for (i = 0; i < sq->n; i++)
		if (!strcmp(sq->e[i].name, kname) || !strcmp(seq_disk(&sq->e[i]), kname))
			sq->e[i].recheck = true;
}

int source_queue_fill(struct source_queue *sq, struct sample *s)
{
	/* Which kept devices to check: those a uevent named since the last
	 * fill, every one when events were lost or there is no socket. */
	bool all = !sq->uev || source_uevent_drain(sq->uev, uevent_for, sq) < 0;
	double period = SOURCE_QUEUE_REREAD_S;

	if (s->ndisks > SOURCE_QUEUE_REREAD_DEVS)
		period *= (double)s->ndisks / SOURCE_QUEUE_REREAD_DEVS;

	for (size_t i = 0; i < sq->n; i++) {
		sq->e[i].seen = false;
		sq->e[i].recheck |= all;
	}
	for (size_t i = 0; i < s->ndisks; i++) {
		struct disk_sample *d = &s->disks[i];
		struct entry *e = find_entry(sq, &d->st, i);

		if (!e) {
			if (sq->n == sq->cap) {
				size_t cap = sq->cap ? sq->cap * 2 : 32;
				struct entry *ne = realloc(sq->e, cap * sizeof(*ne));
				if (!ne)
					return -ENOMEM;
				sq->e = ne;
				sq->cap = cap;
			}
			e = &sq->e[sq->n++];
			memset(e, 0, sizeof(*e));
			for (int k = 0; k < TF_COUNT; k++)
				e->fd[k] = -1;
			e->seq_fd = e->size_fd = -1;
			e->dev = d->st.dev;
			snprintf(e->name, sizeof(e->name), "%s", d->st.name);
			discover(sq, e);
			e->next_read = 0;
		} else if ((e->recheck || s->t >= e->next_read) && !same_device(sq, e)) {
			/* With the tunables' re-read too: a change whose uevent
			 * never came is still found within the period. */
			rediscover(sq, e);
			e->next_read = 0;
		} else if (e->recheck && sq->uev) {
			read_backing(sq, e);
		}
		e->recheck = false;
		e->seen = true;
		if (s->t >= e->next_read) {
			read_tunables(sq, e);
			/* Spread re-reads over the period instead of all at once. */
			e->next_read = s->t + period * (0.75 + 0.5 * (double)(i % 16) / 16.0);
		}
		/* the sample's reference to the text (a sample filled again
		 * gives back the one it held) */
		struct disk_text *held = d->info.text;

		d->info = e->info;
		disk_text_ref(d->info.text);
		disk_text_put(held);
	}
	/* Forget devices that left (losetup -d, hot unplug). */
	for (size_t i = 0; i < sq->n;) {
		if (!sq->e[i].seen) {
			entry_close(sq, &sq->e[i]);
			disk_text_put(sq->e[i].info.text);
			sq->e[i] = sq->e[--sq->n];
		} else {
			i++;
		}
	}
	sq->e = capacity_shrink(sq->e, sizeof(*sq->e), sq->n, &sq->cap);
	return 0;
}

void source_queue_invalidate(struct source_queue *sq, dev_t dev)
{
	for (size_t i = 0; i < sq->n; i++)
		if (sq->e[i].dev == dev)
			sq->e[i].next_read = 0;
}
