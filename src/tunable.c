#include "tunable.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device-irq.h"
#include "diskseq.h"
#include "journal.h"

#define SCHED_MAX_RQ 2048 /* the kernel's MAX_SCHED_RQ: nr_requests limit with a scheduler */
#define UNDO_MAX 64
#define SIDE_MAX 16
#define CPU_BITS 4096

/* A value as it was before a change, to put back on undo. */
struct saved {
	char name[TUNABLE_NAME_MAX];
	char value[TUNABLE_VALUE_MAX];
};

/* Which device a name is now: its diskseq and MAJ:MIN ("-" when unknown). */
struct ident {
	char devt[JOURNAL_ID_MAX];
	char diskseq[JOURNAL_ID_MAX];
};

struct undo {
	char dev[TUNABLE_DEV_MAX];
	struct ident id; /* the device changed: undo writes to no other */
	size_t n;
	struct saved v[SIDE_MAX + 1]; /* the tunable, then what the kernel may change with it */
};

struct start_value {
	char dev[TUNABLE_DEV_MAX];
	char name[TUNABLE_NAME_MAX];
	char value[TUNABLE_VALUE_MAX];
};

struct tunable_session {
	struct root *root;
	char journal_dir[PATH_MAX];
	struct journal *journal;
	bool rejects_reported; /* the lines journal_open took out were reported */
	bool journal_read;     /* the journal was opened (and read) once */
	bool writable;
	const char *why;
	struct undo undo[UNDO_MAX];
	size_t nundo, changes;
	/* devices with a tunable off its original, kept by recount */
	char differ[TUNABLE_DIFFER_MAX][JOURNAL_DEV_MAX];
	size_t ndiffer;
	struct start_value *start;
	size_t nstart, capstart;
	/* originals an earlier session left that this one changed again: its
	 * own from then on (restored at quit like the ones it wrote) */
	struct adopted *adopted;
	size_t nadopted, capadopted;
};

struct adopted {
	char dev[JOURNAL_DEV_MAX];
	char name[JOURNAL_NAME_MAX];
};

/* A tunable of one device, resolved to its file. */
struct target {
	const struct tunable_def *def;
	char name[TUNABLE_NAME_MAX];
	char path[PATH_MAX];
	unsigned irq;
};

/* Append to a message; never past its end. */
__attribute__((format(printf, 4, 5)))
static size_t catf(char *msg, size_t size, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used >= size)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(msg + used, size - used, fmt, ap);
	va_end(ap);
	used += n > 0 ? (size_t)n : 0;
	return used < size ? used : size;
}

static tunable_writer_fn writer = root_write;

void tunable_set_writer(tunable_writer_fn fn)
{
	writer = fn ? fn : root_write;
}

int tunable_session_open(struct root *r, const char *journal_dir_arg, struct tunable_session **out)
{
	struct tunable_session *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->root = r;
	snprintf(s->journal_dir, sizeof(s->journal_dir), "%s", journal_dir(journal_dir_arg));
	s->writable = true;
	/* sysfs queue files are root's 0644: as anyone else every write fails. */
	if (root_is_live(r) && geteuid() != 0) {
		s->writable = false;
		s->why = "not root: tunables are shown read-only";
	}
	*out = s;
	return 0;
}

void tunable_session_close(struct tunable_session *s)
{
	if (!s)
		return;
	journal_close(s->journal);
	free(s->start);
	free(s->adopted);
	free(s);
}

bool tunable_session_writable(const struct tunable_session *s, const char **why)
{
	if (why)
		*why = s->why;
	return s->writable;
}

size_t tunable_session_changes(const struct tunable_session *s)
{
	return s->changes;
}

/* ---- device names ---- */

int tunable_check_device(const struct root *r, const char *dev, char *msg, size_t msg_size)
{
	char rel[PATH_MAX], link[PATH_MAX];
	const char *disk;

	if (!dev || !*dev || strlen(dev) >= TUNABLE_DEV_MAX || strchr(dev, '/') || dev[0] == '.' ||
	    strpbrk(dev, " \t\n")) {
		catf(msg, msg_size, 0, "\"%.40s\" is not a block device name", dev ? dev : "");
		return -EINVAL;
	}
	snprintf(rel, sizeof(rel), "sys/block/%s/queue", dev);
	if (root_exists(r, rel))
		return 0;
	/* A partition has no queue of its own: its I/O goes through its disk's. */
	snprintf(rel, sizeof(rel), "sys/class/block/%s/partition", dev);
	if (root_exists(r, rel)) {
		snprintf(rel, sizeof(rel), "sys/class/block/%s", dev);
		disk = "its disk";
		if (root_readlink(r, rel, link, sizeof(link)) > 0) {
			char *slash = strrchr(link, '/');
			if (slash) {
				*slash = '\0';
				slash = strrchr(link, '/');
				disk = slash ? slash + 1 : link;
			}
		}
		catf(msg, msg_size, 0, "%s is a partition: partitions use the queue of %.40s, tune that", dev, disk);
		return -ENODEV;
	}
	catf(msg, msg_size, 0, "no block device %s under /sys/block", dev);
	return -ENODEV;
}

/* ---- reading values ---- */

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* "none [mq-deadline] kyber" -> the active word, and the words without brackets. */
static void parse_choices(const char *raw, char *active, size_t asize, char *all, size_t allsize)
{
	size_t used = 0;

	if (active)
		active[0] = '\0';
	all[0] = '\0';
	for (const char *p = raw; *p;) {
		size_t n;
		bool on;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (!n)
			break;
		on = p[0] == '[' && p[n - 1] == ']';
		if (on && active)
			snprintf(active, asize, "%.*s", (int)(n - 2), p + 1);
		used += (size_t)snprintf(all + used, allsize > used ? allsize - used : 0, "%s%.*s",
					 used ? " " : "", (int)(on ? n - 2 : n), on ? p + 1 : p);
		if (used >= allsize)
			break;
		p += n;
	}
}

static int read_value(const struct root *r, const struct target *t, char *out, size_t size)
{
	char raw[TUNABLE_VALUE_MAX], all[TUNABLE_VALUE_MAX];
	ssize_t n = root_read(r, t->path, raw, sizeof(raw));

	if (n < 0)
		return (int)n;
	trim(raw);
	if (t->def->type == TUNABLE_CHOICE) {
		parse_choices(raw, out, size, all, sizeof(all));
		return 0;
	}
	snprintf(out, size, "%s", raw);
	return 0;
}

/* The same setting, whatever its spelling ("0-1" = "0,1", " 128\n" = "128"). */
static bool same_value(const struct tunable_def *def, const char *a, const char *b)
{
	if (def->type == TUNABLE_CPULIST) {
		unsigned long long x[CPU_BITS / 64], y[CPU_BITS / 64];
		if (tunable_table_cpulist_parse(a, x, CPU_BITS) == 0 &&
		    tunable_table_cpulist_parse(b, y, CPU_BITS) == 0)
			return memcmp(x, y, sizeof(x)) == 0;
	}
	if (def->type == TUNABLE_UINT || def->type == TUNABLE_INT || def->type == TUNABLE_BOOL) {
		char *ea, *eb;
		long long x = strtoll(a, &ea, 10), y = strtoll(b, &eb, 10);
		if (ea != a && eb != b && !*ea && !*eb)
			return x == y;
	}
	return strcmp(a, b) == 0;
}

static void read_ident(const struct root *r, const char *dev, struct ident *id)
{
	char rel[PATH_MAX];
	unsigned long long seq;
	unsigned maj, min;
	char nl;

	snprintf(id->diskseq, sizeof(id->diskseq), "-");
	snprintf(id->devt, sizeof(id->devt), "-");
	if (diskseq_read(r, dev, &seq) == 0)
		snprintf(id->diskseq, sizeof(id->diskseq), "%llu", seq);
	snprintf(rel, sizeof(rel), "sys/block/%s/dev", dev);
	if (root_read(r, rel, rel, sizeof(rel)) > 0 && sscanf(rel, "%u:%u%c", &maj, &min, &nl) == 3 && nl == '\n')
		snprintf(id->devt, sizeof(id->devt), "%u:%u", maj, min);
}

/* NULL when the name is now the device it was (was), else why not: the
 * diskseq decides where both have one, else MAJ:MIN. */
static const char *moved(const struct ident *was, const struct ident *now, char *why, size_t size)
{
	if (strcmp(was->diskseq, "-") && strcmp(now->diskseq, "-")) {
		if (strcmp(was->diskseq, now->diskseq) == 0)
			return NULL;
		snprintf(why, size, "another device now (diskseq %s, was %s)", now->diskseq, was->diskseq);
		return why;
	}
	if (strcmp(was->devt, "-") && strcmp(now->devt, "-") && strcmp(was->devt, now->devt)) {
		snprintf(why, size, "another device now (device number %s, was %s)", now->devt, was->devt);
		return why;
	}
	return NULL;
}

/* The same for a journal entry: was it recorded on the device the name is now? */
static const char *other_device(const struct journal_entry *e, const struct ident *now, char *why, size_t size)
{
	struct ident was;

	snprintf(was.devt, sizeof(was.devt), "%s", e->devt);
	snprintf(was.diskseq, sizeof(was.diskseq), "%s", e->diskseq);
	return moved(&was, now, why, size);
}

/* ---- resolving names to files ---- */

/* t->path of name, a device row (t->def): 0, or -EINVAL for a path
 * that would leave the device's directory. */
static int target_path(struct target *t, const char *dev, const char *name)
{
	if (tunable_table_is_generic(t->def))
		snprintf(t->path, sizeof(t->path), "sys/block/%s/queue/%s", dev, name);
	else
		snprintf(t->path, sizeof(t->path), "sys/block/%s/%s", dev, t->def->path);
	return root_check_path(t->path);
}

static int resolve(const struct root *r, const char *dev, const char *name, struct target *t,
		   char *msg, size_t msg_size)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (strncmp(name, "irq/", 4) == 0) {
		struct device_irq_set set;
		char *end;
		unsigned long irq = strtoul(name + 4, &end, 10);

		/* Only an IRQ found serving this device, never a number typed in. */
		if (name[4] < '0' || name[4] > '9' || *end || device_irq_find(r, dev, &set) < 0)
			set.n = 0;
		for (size_t i = 0; i < set.n; i++) {
			if (set.irq[i].irq == irq) {
				t->def = tunable_table_find("irq");
				t->irq = (unsigned)irq;
				device_irq_path(t->irq, t->def->path, t->path, sizeof(t->path));
				return 0;
			}
		}
		catf(msg, msg_size, 0, "%s: no interrupt %s serves this device", dev, name + 4);
		return -ENOENT;
	}
	t->def = tunable_table_find(name);
	if (!t->def || t->def->place != TUNABLE_PLACE_DEVICE) {
		catf(msg, msg_size, 0, "%s: unknown tunable %s", dev, name);
		return -ENOENT;
	}
	if (target_path(t, dev, name) || !root_exists(r, t->path)) {
		catf(msg, msg_size, 0, "%s has no %s%s", dev, name,
			 strncmp(name, "iosched/", 8) == 0 ? " (not a parameter of its active scheduler)" : "");
		return -ENOENT;
	}
	return 0;
}

/* ---- device facts ---- */

static void active_scheduler(const struct root *r, const char *dev, char *out, size_t size)
{
	struct target t = { .def = tunable_table_find("scheduler") };

	snprintf(t.path, sizeof(t.path), "sys/block/%s/queue/scheduler", dev);
	if (read_value(r, &t, out, size) < 0)
		snprintf(out, size, "none");
}

/* The smallest tag depth over the hardware queues (mq/N/nr_tags). */
static long long tag_depth(const struct root *r, const char *dev)
{
	char rel[PATH_MAX], mq[64];
	long long depth = -1;
	struct dirent *e;
	DIR *d;

	snprintf(mq, sizeof(mq), "sys/block/%s/mq", dev);
	d = root_opendir(r, mq);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		unsigned long long v;

		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "%s/%s/nr_tags", mq, e->d_name);
		if (root_read_u64(r, rel, &v) == 0 && (depth < 0 || (long long)v < depth))
			depth = (long long)v;
	}
	closedir(d);
	return depth;
}

/* Each online CPU alone, then all of them: the cycle order of an IRQ's affinity. */
static void cpu_choices(const struct root *r, char *out, size_t size)
{
	unsigned long long bits[CPU_BITS / 64];
	char online[TUNABLE_VALUE_MAX];
	size_t used = 0;

	if (root_read(r, "sys/devices/system/cpu/online", online, sizeof(online)) <= 0)
		snprintf(online, sizeof(online), "0");
	trim(online);
	if (tunable_table_cpulist_parse(online, bits, CPU_BITS))
		snprintf(online, sizeof(online), "0");
	out[0] = '\0';
	/* The whole online set ends the cycle (validation reads that last
	 * word): single CPUs only in the room it leaves. */
	for (unsigned c = 0; c < CPU_BITS && used + 16 + strlen(online) < size; c++)
		if (bits[c / 64] & (1ULL << (c % 64)))
			used += (size_t)snprintf(out + used, size - used, "%u ", c);
	snprintf(out + used, size - used, "%s", online);
}

/* MemTotal in KiB from proc/meminfo, or 0 when it cannot be read. */
static unsigned long long mem_total_kb(const struct root *r)
{
	char buf[256], *p;

	if (root_read(r, "proc/meminfo", buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "MemTotal:")))
		return 0;
	return strtoull(p + 9, NULL, 10);
}

/* A device's limits for a value, under sched (NULL: the scheduler in
 * force). A restore puts back what the kernel held, so it is checked
 * against the kernel's limits only, never blktune's advice (a read_ahead_kb
 * larger than memory). */
static void limits_for(const struct root *r, const char *dev, const struct target *t, bool restore,
		       const char *sched, struct tunable_limits *lim)
{
	char raw[TUNABLE_VALUE_MAX], active[64], rel[PATH_MAX];
	unsigned long long v;

	tunable_table_limits(t->def, lim);
	if (strcmp(t->def->name, "read_ahead_kb") == 0 && !restore) {
		/* The kernel takes up to 2^32-1 KiB; a window larger than memory is
		 * evicted before it is read, so the range shown and accepted ends
		 * there (whole pages). */
		if ((v = mem_total_kb(r) / 4 * 4) > 0 && (long long)v < lim->max) {
			lim->max = (long long)v;
			lim->why_max = "this machine's memory, MemTotal: a larger window cannot stay in the page cache";
		}
	} else if (strcmp(t->def->name, "max_sectors_kb") == 0) {
		snprintf(rel, sizeof(rel), "sys/block/%s/queue/max_hw_sectors_kb", dev);
		if (root_read_u64(r, rel, &v) == 0) {
			lim->max = (long long)v;
			lim->why_max = "the device's max_hw_sectors_kb";
		}
	} else if (strcmp(t->def->name, "nr_requests") == 0) {
		long long depth = tag_depth(r, dev);

		if (!sched) {
			active_scheduler(r, dev, active, sizeof(active));
			sched = active;
		}
		if (strcmp(sched, "none") != 0) {
			lim->max = SCHED_MAX_RQ;
			lim->why_max = "the kernel's limit with a scheduler";
		} else if (depth > 0) {
			lim->max = depth;
			lim->why_max = "the hardware queue depth, scheduler none";
		}
	} else if (t->def->type == TUNABLE_CHOICE) {
		if (root_read(r, t->path, raw, sizeof(raw)) > 0)
			parse_choices(raw, NULL, 0, lim->choices, sizeof(lim->choices));
	} else if (t->def->type == TUNABLE_CPULIST) {
		cpu_choices(r, lim->choices, sizeof(lim->choices));
	}
}

int tunable_limits_under(const struct root *r, const char *dev, const char *name, const char *sched,
			 struct tunable_limits *lim)
{
	struct target t = { .def = tunable_table_find(name) };

	/* the file itself need not exist: a parameter of a scheduler not in force */
	if (!t.def || t.def->place != TUNABLE_PLACE_DEVICE)
		return -ENOENT;
	snprintf(t.name, sizeof(t.name), "%s", name);
	if (target_path(&t, dev, name))
		return -ENOENT;
	limits_for(r, dev, &t, false, sched, lim);
	return 0;
}

/* Up to max names of a device directory's entries (slaves/, holders/). */
static size_t list_dir(const struct root *r, const char *dev, const char *sub, char *out, size_t size)
{
	char rel[PATH_MAX];
	size_t n = 0, used = 0;
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	snprintf(rel, sizeof(rel), "sys/block/%s/%s", dev, sub);
	d = root_opendir(r, rel);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (used < size)
			used += (size_t)snprintf(out + used, size - used, "%s%s", n ? " " : "", e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

static bool file_writable(const struct root *r, const char *path)
{
	struct stat st;
	int fd = root_openat(r, path, O_PATH);
	bool ok;

	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && (st.st_mode & S_IWUSR);
	close(fd);
	return ok;
}

/* Where this tunable matters in dev's stack, in words. */
static void layer_note(const struct root *r, const char *dev, const struct target *t, char *out,
		       size_t size)
{
	char slaves[128], holders[128];
	size_t ns = list_dir(r, dev, "slaves", slaves, sizeof(slaves));
	size_t nh = list_dir(r, dev, "holders", holders, sizeof(holders));

	switch (t->def->layer) {
	case TUNABLE_LAYER_TOP:
		if (nh)
			snprintf(out, size, "files on %s use its read_ahead_kb, not this one's", holders);
		else if (ns)
			snprintf(out, size, "governs files on %s; the read_ahead_kb of %s does not matter for them",
				 dev, slaves);
		else
			snprintf(out, size, "governs files on %s, copied at each open()", dev);
		break;
	case TUNABLE_LAYER_BOTTOM:
		if (ns)
			snprintf(out, size, "stacked limit; requests reach the hardware through %s: tune it there",
				 slaves);
		else if (nh)
			snprintf(out, size, "bottom of the stack under %s: requests are split here", holders);
		else
			snprintf(out, size, "the device that talks to the hardware");
		break;
	case TUNABLE_LAYER_QUEUE:
		if (nh)
			snprintf(out, size, "request queue of %s, below %s", dev, holders);
		else
			snprintf(out, size, "request queue of %s", dev);
		break;
	case TUNABLE_LAYER_DEVICE:
		snprintf(out, size, "%s only", dev);
		break;
	case TUNABLE_LAYER_IRQ: {
		struct device_irq_set set;
		const struct device_irq *irq = NULL;

		if (device_irq_find(r, dev, &set) == 0)
			for (size_t i = 0; i < set.n && !irq; i++)
				if (set.irq[i].irq == t->irq)
					irq = &set.irq[i];
		snprintf(out, size, "IRQ %u %s, effective CPUs %s%s", t->irq, irq ? irq->name : "",
			 irq && irq->effective[0] ? irq->effective : "?",
			 file_writable(r, t->path) ? "" : "; managed by the kernel, read-only");
		break;
	}
	}
}

static const char *start_find(const struct tunable_session *s, const char *dev, const char *name)
{
	for (size_t i = 0; i < s->nstart; i++)
		if (strcmp(s->start[i].dev, dev) == 0 && strcmp(s->start[i].name, name) == 0)
			return s->start[i].value;
	return NULL;
}

/* A scheduler parameter first seen while another scheduler than the one at
 * start is active did not exist at start: its file came with the change. */
static bool absent_at_start(const struct tunable_session *s, const char *dev, const char *name)
{
	const char *sched0 = strncmp(name, "iosched/", 8) ? NULL : start_find(s, dev, "scheduler");
	char msg[TUNABLE_MSG_MAX], now[TUNABLE_VALUE_MAX];
	struct target t;

	if (!sched0 || resolve(s->root, dev, "scheduler", &t, msg, sizeof(msg)) ||
	    read_value(s->root, &t, now, sizeof(now)))
		return false;
	return strcmp(sched0, now) != 0;
}

static const char *start_value(struct tunable_session *s, const char *dev, const char *name,
			       const char *now)
{
	struct start_value *v;
	const char *known = start_find(s, dev, name);

	if (known)
		return known;
	if (absent_at_start(s, dev, name))
		now = TUNABLE_ABSENT;
	if (s->nstart == s->capstart) {
		size_t cap = s->capstart ? s->capstart * 2 : 64;
		struct start_value *p = realloc(s->start, cap * sizeof(*p));
		if (!p)
			return now;
		s->start = p;
		s->capstart = cap;
	}
	v = &s->start[s->nstart++];
	snprintf(v->dev, sizeof(v->dev), "%s", dev);
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->value, sizeof(v->value), "%s", now);
	return v->value;
}

static int fill_info(struct tunable_session *s, const char *dev, const struct target *t,
		     struct tunable_info *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", t->name);
	out->def = t->def;
	err = read_value(s->root, t, out->value, sizeof(out->value));
	if (err)
		return err;
	snprintf(out->start, sizeof(out->start), "%s", start_value(s, dev, t->name, out->value));
	limits_for(s->root, dev, t, false, NULL, &out->lim);
	tunable_table_range_text(t->def, &out->lim, out->range, sizeof(out->range));
	layer_note(s->root, dev, t, out->note, sizeof(out->note));
	out->writable = s->writable && t->def->writable && file_writable(s->root, t->path);
	return 0;
}

int tunable_get(struct tunable_session *s, const char *dev, const char *name, struct tunable_info *out,
		char *msg, size_t msg_size)
{
	struct target t;
	int err = tunable_check_device(s->root, dev, msg, msg_size);

	if (!err)
		err = resolve(s->root, dev, name, &t, msg, msg_size);
	if (!err && (err = fill_info(s, dev, &t, out)) != 0)
		catf(msg, msg_size, 0, "%s %s: %s", dev, name, strerror(-err));
	return err;
}

static void add_row(struct tunable_session *s, const char *dev, const char *name,
		    struct tunable_info *out, size_t max, size_t *n)
{
	char msg[TUNABLE_MSG_MAX];
	struct target t;

	if (*n < max && resolve(s->root, dev, name, &t, msg, sizeof(msg)) == 0 &&
	    fill_info(s, dev, &t, &out[*n]) == 0)
		(*n)++;
}

int tunable_list(struct tunable_session *s, const char *dev, struct tunable_info *out, size_t max,
		 char *msg, size_t msg_size)
{
	char sched[64], rel[PATH_MAX], name[TUNABLE_NAME_MAX];
	struct device_irq_set irqs;
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	int err = tunable_check_device(s->root, dev, msg, msg_size);

	if (err)
		return err;
	for (size_t i = 0; i < tunable_table_count(); i++) {
		const struct tunable_def *def = tunable_table_at(i);
		if (def->place == TUNABLE_PLACE_DEVICE && !def->sched)
			add_row(s, dev, def->name, out, max, &n);
	}
	/* The active scheduler's parameters: the table's rows in table order... */
	active_scheduler(s->root, dev, sched, sizeof(sched));
	for (size_t i = 0; i < tunable_table_count(); i++) {
		const struct tunable_def *def = tunable_table_at(i);
		if (def->sched && strcmp(def->sched, sched) == 0)
			add_row(s, dev, def->name, out, max, &n);
	}
	/* ...then any file in queue/iosched/ the table does not know. */
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/iosched", dev);
	if ((d = root_opendir(s->root, rel))) {
		while ((e = readdir(d))) {
			const struct tunable_def *def;
			if (e->d_name[0] == '.' || strlen(e->d_name) > 40)
				continue;
			snprintf(name, sizeof(name), "iosched/%.40s", e->d_name);
			def = tunable_table_find(name);
			if (tunable_table_is_generic(def) || (def->sched && strcmp(def->sched, sched) != 0))
				add_row(s, dev, name, out, max, &n);
		}
		closedir(d);
	}
	if (device_irq_find(s->root, dev, &irqs) == 0) {
		for (size_t i = 0; i < irqs.n; i++) {
			snprintf(name, sizeof(name), "irq/%u", irqs.irq[i].irq);
			add_row(s, dev, name, out, max, &n);
		}
	}
	return (int)n;
}

/* ---- changing values ---- */

static int ensure_journal(struct tunable_session *s, char *msg, size_t msg_size)
{
	char why[TUNABLE_MSG_MAX];
	int err;

	if (s->journal)
		return 0;
	err = journal_open(s->journal_dir, false, &s->journal, why, sizeof(why));
	s->rejects_reported = false;
	s->journal_read |= err == 0;
	if (err)
		catf(msg, msg_size, 0, "no journal, nothing changed: %s", why);
	return err;
}

/* The names the kernel may change when t is written ("iosched/" followed by
 * "*" expands to the files present now), with their values before the write. */
static size_t snapshot_side(const struct root *r, const char *dev, const struct target *t,
			    struct saved *out, size_t max)
{
	char list[256], rel[PATH_MAX];
	size_t n = 0;

	if (!t->def->side_effects)
		return 0;
	snprintf(list, sizeof(list), "%s", t->def->side_effects);
	for (char *save = NULL, *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		struct target side;
		char msg[TUNABLE_MSG_MAX];

		if (strcmp(w, "iosched/*") == 0) {
			struct dirent *e;
			DIR *d;

			snprintf(rel, sizeof(rel), "sys/block/%s/queue/iosched", dev);
			if (!(d = root_opendir(r, rel)))
				continue;
			while ((e = readdir(d)) && n < max) {
				char name[TUNABLE_NAME_MAX];
				if (e->d_name[0] == '.' || strlen(e->d_name) > 40)
					continue;
				snprintf(name, sizeof(name), "iosched/%.40s", e->d_name);
				if (resolve(r, dev, name, &side, msg, sizeof(msg)) == 0 &&
				    read_value(r, &side, out[n].value, sizeof(out[n].value)) == 0) {
					snprintf(out[n].name, sizeof(out[n].name), "%s", name);
					n++;
				}
			}
			closedir(d);
		} else if (n < max && resolve(r, dev, w, &side, msg, sizeof(msg)) == 0 &&
			   read_value(r, &side, out[n].value, sizeof(out[n].value)) == 0) {
			snprintf(out[n].name, sizeof(out[n].name), "%s", w);
			n++;
		}
	}
	return n;
}

static const char *errno_words(const struct target *t, int err)
{
	if (err == -EIO && t->def->type == TUNABLE_CPULIST)
		return "a managed interrupt: the kernel places it itself and refuses changes (EIO)";
	if (err == -EINVAL)
		return "the kernel said Invalid argument";
	if (err == -EACCES || err == -EPERM)
		return "permission denied (not root?)";
	return root_strerror(err); /* strerror, or what the root refused */
}

/* Write one value, read it back. Returns 0 or -errno. */
static int write_target(const struct root *r, const struct target *t, const char *value, char *got,
			size_t size)
{
	int err;

	/* The one place every path writes through: a row the table marks
	 * read-only (write_cache) is never written, whoever asks. */
	if (!t->def->writable)
		return -EPERM;
	err = writer(r, t->path, value);
	if (read_value(r, t, got, size) < 0)
		got[0] = '\0';
	return err;
}

static void push_undo(struct tunable_session *s, const char *dev, const struct ident *id, const struct target *t,
		      const char *before, const struct saved *side, size_t nside)
{
	struct undo *u;

	if (s->nundo == UNDO_MAX) {
		memmove(&s->undo[0], &s->undo[1], sizeof(s->undo[0]) * (UNDO_MAX - 1));
		s->nundo--;
	}
	u = &s->undo[s->nundo++];
	snprintf(u->dev, sizeof(u->dev), "%s", dev);
	u->id = *id;
	snprintf(u->v[0].name, sizeof(u->v[0].name), "%s", t->name);
	snprintf(u->v[0].value, sizeof(u->v[0].value), "%s", before);
	memcpy(&u->v[1], side, nside * sizeof(*side));
	u->n = nside + 1;
}

static void result_init(struct tunable_result *res, const char *dev, const char *name, const char *value)
{
	memset(res, 0, sizeof(*res));
	/* Truncation is fine here: these only label the result. */
	catf(res->dev, sizeof(res->dev), 0, "%s", dev ? dev : "");
	catf(res->name, sizeof(res->name), 0, "%s", name ? name : "");
	catf(res->asked, sizeof(res->asked), 0, "%s", value ? value : "");
}

static int fail(struct tunable_result *res, int err, const char *why)
{
	res->err = err;
	catf(res->msg, sizeof(res->msg), 0, "%s %s %s refused: %s", res->dev, res->name, res->asked, why);
	return err;
}

/* Everything after validation: journal, write, read back, report. */

/* Tunables that differ from their journaled originals now: what "N changed"
 * means everywhere (key presses, undo and kernel side effects counted
 * nothing useful). A file that is absent now (a parameter of another
 * scheduler) comes back with its scheduler and is not counted. */
static bool adopted(const struct tunable_session *s, const struct journal_entry *e)
{
	for (size_t i = 0; i < s->nadopted; i++)
		if (!strcmp(s->adopted[i].dev, e->dev) && !strcmp(s->adopted[i].name, e->name))
			return true;
	return false;
}

/* An original read from the file when the journal was opened: an earlier
 * session's, left to it (blktune --restore, U) unless this one changed that
 * tunable again. */
static bool earlier(const struct tunable_session *s, const struct journal_entry *e)
{
	return e->line != 0 && !adopted(s, e);
}

/* Room for n more adopted originals, so that adopt() after a write cannot
 * fail. Returns 0 or -ENOMEM. */
static int adopt_room(struct tunable_session *s, size_t n)
{
	size_t cap = s->capadopted ? s->capadopted : 16;
	struct adopted *p;

	while (cap < s->nadopted + n)
		cap *= 2;
	if (cap == s->capadopted)
		return 0;
	if (!(p = realloc(s->adopted, cap * sizeof(*p))))
		return -ENOMEM;
	s->adopted = p;
	s->capadopted = cap;
	return 0;
}

/* This session changed (dev, name) again: an earlier session's original of
 * it is now this session's to restore (room made by adopt_room). */
static void adopt(struct tunable_session *s, const char *dev, const char *name)
{
	const struct journal_entry *e = journal_find(s->journal, dev, name);

	if (!e || !earlier(s, e) || s->nadopted == s->capadopted)
		return;
	snprintf(s->adopted[s->nadopted].dev, sizeof(s->adopted[0].dev), "%s", dev);
	snprintf(s->adopted[s->nadopted].name, sizeof(s->adopted[0].name), "%s", name);
	s->nadopted++;
}

static void recount(struct tunable_session *s)
{
	size_t n = 0;

	s->ndiffer = 0;
	for (size_t i = 0; s->journal && i < journal_count(s->journal); i++) {
		const struct journal_entry *e = journal_at(s->journal, i);
		char msg[TUNABLE_MSG_MAX], now[TUNABLE_VALUE_MAX];
		struct target t;

		if (resolve(s->root, e->dev, e->name, &t, msg, sizeof(msg)) ||
		    read_value(s->root, &t, now, sizeof(now)) || same_value(t.def, now, e->value))
			continue;
		n += !earlier(s, e);
		if (!tunable_session_differs(s, e->dev) && s->ndiffer < TUNABLE_DIFFER_MAX)
			snprintf(s->differ[s->ndiffer++], JOURNAL_DEV_MAX, "%s", e->dev);
	}
	s->changes = n;
}

int tunable_session_left(const struct tunable_session *s)
{
	int n = 0;

	if (!s->journal)
		return s->journal_read ? 0 : -ENOENT; /* read, then emptied */
	for (size_t i = 0; i < journal_count(s->journal); i++)
		n += earlier(s, journal_at(s->journal, i));
	return n;
}

bool tunable_session_differs(const struct tunable_session *s, const char *dev)
{
	for (size_t i = 0; i < s->ndiffer; i++)
		if (!strcmp(s->differ[i], dev))
			return true;
	return false;
}

static int apply(struct tunable_session *s, const char *dev, const struct target *t, const char *norm,
		 struct tunable_result *res, bool undoable)
{
	struct saved side[SIDE_MAX];
	char msg[TUNABLE_MSG_MAX], why[128];
	const struct journal_entry *old;
	struct ident id;
	size_t nside, used;
	int err;

	if ((err = ensure_journal(s, msg, sizeof(msg))) != 0)
		return fail(res, err, msg);
	read_ident(s->root, dev, &id);
	old = journal_find(s->journal, dev, t->name);
	if (old && other_device(old, &id, why, sizeof(why)))
		return fail(res, -EEXIST, "the journal holds an original from an earlier device of this "
				"name: run blktune --restore first");
	nside = snapshot_side(s->root, dev, t, side, SIDE_MAX);
	if ((err = adopt_room(s, 1 + nside)) < 0)
		return fail(res, err, "out of memory, nothing changed");
	/* The originals reach the disk before the kernel sees a change. */
	err = journal_record(s->journal, dev, id.devt, id.diskseq, t->name, res->before);
	for (size_t i = 0; i < nside && err >= 0; i++)
		err = journal_record(s->journal, dev, id.devt, id.diskseq, side[i].name, side[i].value);
	if (err < 0) {
		catf(msg, sizeof(msg), 0, "journal write failed (%s), nothing changed", strerror(-err));
		return fail(res, err, msg);
	}
	/* "At start" is the value before our first change, even when the
	 * panel never listed the device before (a quick key on the table). */
	start_value(s, dev, t->name, res->before);
	for (size_t i = 0; i < nside; i++)
		start_value(s, dev, side[i].name, side[i].value);
	err = write_target(s->root, t, norm, res->got, sizeof(res->got));
	res->changed = !same_value(t->def, res->got, res->before);
	/* Changed again here, an earlier session's original is restored at
	 * this one's quit, like those it writes; so is one the kernel changed
	 * with it (below). */
	if (res->changed)
		adopt(s, dev, t->name);
	if (err) {
		res->err = err;
		catf(res->msg, sizeof(res->msg), 0, "%s %s %s refused: %s", dev, t->name, norm,
			 errno_words(t, err));
		return err;
	}
	res->differs = !same_value(t->def, res->got, norm);
	used = (size_t)catf(res->msg, sizeof(res->msg), 0, "%s %s %s -> %s", dev, t->name, res->before,
				res->got);
	if (res->differs && t->def->special && strcmp(norm, t->def->special) == 0)
		used = catf(res->msg, sizeof(res->msg), used, " (asked %s = the kernel's default)", norm);
	else if (res->differs)
		used = catf(res->msg, sizeof(res->msg), used, " (asked %s, kernel set %s)", norm, res->got);
	if (strcmp(t->def->name, "read_ahead_kb") == 0 && res->changed)
		used = catf(res->msg, sizeof(res->msg), used, " (files opened before keep the old value)");
	for (size_t i = 0; i < nside; i++) {
		struct target st;
		char now[TUNABLE_VALUE_MAX];

		if (resolve(s->root, dev, side[i].name, &st, msg, sizeof(msg)) ||
		    read_value(s->root, &st, now, sizeof(now)) || same_value(st.def, now, side[i].value))
			continue;
		adopt(s, dev, side[i].name);
		used = catf(res->msg, sizeof(res->msg), used, "; kernel also set %s %s -> %s", side[i].name,
			    side[i].value, now);
	}
	if (undoable && res->changed)
		push_undo(s, dev, &id, t, res->before, side, nside);
	recount(s);
	return 0;
}

static int prepare(struct tunable_session *s, const char *dev, const char *name, const char *sched,
		   struct target *t, struct tunable_limits *lim, struct tunable_result *res)
{
	char msg[TUNABLE_MSG_MAX];
	int err = tunable_check_device(s->root, dev, msg, sizeof(msg));

	if (!err)
		err = resolve(s->root, dev, name, t, msg, sizeof(msg));
	if (err)
		return fail(res, err, msg);
	if (!s->writable)
		return fail(res, -EACCES, s->why);
	/* 6.18 makes a managed interrupt's smp_affinity_list 0444: say why, not EACCES. */
	if (!file_writable(s->root, t->path))
		return fail(res, -EPERM, t->def->type == TUNABLE_CPULIST ?
			    "a managed interrupt: the kernel places it itself (smp_affinity_list is read-only)" :
			    "the kernel made this file read-only on this device");
	if ((err = read_value(s->root, t, res->before, sizeof(res->before))) != 0)
		return fail(res, err, strerror(-err));
	limits_for(s->root, dev, t, false, sched, lim);
	return 0;
}

/* Everything tunable_set checks before it changes anything, the limits
 * under sched (NULL: the scheduler in force). */
static int check_value(struct tunable_session *s, const char *dev, const char *name, const char *value,
		       const char *sched, struct target *t, char *norm, size_t norm_size,
		       struct tunable_result *res)
{
	char msg[TUNABLE_MSG_MAX];
	struct tunable_limits lim;
	int err;

	result_init(res, dev, name, value);
	if ((err = prepare(s, dev, name, sched, t, &lim, res)) != 0)
		return err;
	if ((err = tunable_table_validate(t->def, &lim, value, norm, norm_size, msg, sizeof(msg))) != 0)
		return fail(res, err, msg);
	return 0;
}


/* A scheduler parameter under sched, another scheduler than the one in
 * force: its file comes with sched, so it is checked against the table's
 * row and limits (tunable_limits_under), not the file. */
static int check_param_under(struct tunable_session *s, const char *dev, const char *name, const char *value,
			     const char *sched, struct tunable_result *res)
{
	const struct tunable_def *def = tunable_table_find(name);
	char msg[TUNABLE_MSG_MAX], norm[TUNABLE_VALUE_MAX];
	struct tunable_limits lim;
	int err = tunable_check_device(s->root, dev, msg, sizeof(msg));

	if (err)
		return fail(res, err, msg);
	if (!strcmp(sched, "none") || (def && def->sched && strcmp(def->sched, sched))) {
		catf(msg, sizeof(msg), 0, "%s has no %s under scheduler %s", dev, name, sched);
		return fail(res, -ENOENT, msg);
	}
	if (tunable_limits_under(s->root, dev, name, sched, &lim) < 0) {
		catf(msg, sizeof(msg), 0, "%s: unknown tunable %s", dev, name);
		return fail(res, -ENOENT, msg);
	}
	if (!s->writable)
		return fail(res, -EACCES, s->why);
	if ((err = tunable_table_validate(def, &lim, value, norm, sizeof(norm), msg, sizeof(msg))) != 0)
		return fail(res, err, msg);
	snprintf(res->asked, sizeof(res->asked), "%s", norm);
	return 0;
}

int tunable_check_under(struct tunable_session *s, const char *dev, const char *name, const char *value,
			const char *sched, struct tunable_result *res)
{
	char norm[TUNABLE_VALUE_MAX], active[64];
	struct target t;
	int err;

	result_init(res, dev, name, value);
	if (sched) {
		active_scheduler(s->root, dev, active, sizeof(active));
		if (!strcmp(sched, active))
			sched = NULL; /* the one in force: the file is there to check */
	}
	if (sched && !strncmp(name, "iosched/", 8))
		return check_param_under(s, dev, name, value, sched, res);
	if ((err = check_value(s, dev, name, value, sched, &t, norm, sizeof(norm), res)) != 0)
		return err;
	snprintf(res->asked, sizeof(res->asked), "%s", norm);
	return 0;
}

int tunable_check(struct tunable_session *s, const char *dev, const char *name, const char *value,
		  struct tunable_result *res)
{
	return tunable_check_under(s, dev, name, value, NULL, res);
}

int tunable_set(struct tunable_session *s, const char *dev, const char *name, const char *value,
		struct tunable_result *res)
{
	char norm[TUNABLE_VALUE_MAX];
	struct target t;
	int err;

	if ((err = check_value(s, dev, name, value, NULL, &t, norm, sizeof(norm), res)) != 0)
		return err;
	snprintf(res->asked, sizeof(res->asked), "%s", norm);
	if (same_value(t.def, norm, res->before)) {
		snprintf(res->got, sizeof(res->got), "%s", res->before);
		catf(res->msg, sizeof(res->msg), 0, "%s %s already %s", dev, name, res->before);
		return 0;
	}
	return apply(s, dev, &t, norm, res, true);
}

int tunable_step(struct tunable_session *s, const char *dev, const char *name, int dir,
		 struct tunable_result *res)
{
	char next[TUNABLE_VALUE_MAX], msg[TUNABLE_MSG_MAX];
	struct tunable_limits lim;
	struct target t;
	int err;

	result_init(res, dev, name, NULL);
	if ((err = prepare(s, dev, name, NULL, &t, &lim, res)) != 0)
		return err;
	err = tunable_table_step(t.def, &lim, res->before, dir, next, sizeof(next), msg, sizeof(msg));
	if (err) {
		res->err = err;
		catf(res->msg, sizeof(res->msg), 0, "%s %s", dev, msg);
		return err;
	}
	return tunable_set(s, dev, name, next, res);
}

/* Put saved values back, the scheduler before what depends on it. */
/* Write v back (v[0] the tunable, the rest what the kernel changed with
 * it), in restore order. A value the kernel refuses or sets otherwise is
 * said in note (appended; "" when all went back). Returns 0, or -EIO when
 * v[0] could not be written. */
static int put_back(struct tunable_session *s, const char *dev, struct saved *v, size_t n,
		    struct tunable_result *res, char *note, size_t note_size)
{
	size_t used = strlen(note);
	int failed = 0;

	for (int rank = 0; rank <= 9; rank++) {
		for (size_t i = 0; i < n; i++) {
			char msg[TUNABLE_MSG_MAX], now[TUNABLE_VALUE_MAX], got[TUNABLE_VALUE_MAX];
			struct target t;

			if (resolve(s->root, dev, v[i].name, &t, msg, sizeof(msg)) || t.def->restore_rank != rank ||
			    read_value(s->root, &t, now, sizeof(now)) || same_value(t.def, now, v[i].value))
				continue;
			int err = write_target(s->root, &t, v[i].value, got, sizeof(got));

			if (err && i == 0)
				failed = -EIO;
			else if (err)
				used = catf(note, note_size, used, "; %s stays %s (%s)", v[i].name, now,
					    errno_words(&t, err));
			else if (i > 0 && !same_value(t.def, got, v[i].value))
				used = catf(note, note_size, used, "; %s is %s (asked %s)", v[i].name, got, v[i].value);
			if (i == 0) {
				snprintf(res->before, sizeof(res->before), "%s", now);
				snprintf(res->got, sizeof(res->got), "%s", got);
			}
		}
	}
	return failed;
}

int tunable_undo(struct tunable_session *s, struct tunable_result *res)
{
	struct undo *u;
	struct ident now;
	char note[TUNABLE_MSG_MAX] = "", why[TUNABLE_MSG_MAX];
	int err;

	result_init(res, NULL, NULL, NULL);
	if (s->nundo == 0) {
		res->err = -ENOENT;
		catf(res->msg, sizeof(res->msg), 0, "nothing to undo");
		return res->err;
	}
	u = &s->undo[--s->nundo];
	result_init(res, u->dev, u->v[0].name, u->v[0].value);
	/* As --restore: never the values of a device onto another that took
	 * its name, nor "undone" for a device that is gone. */
	if ((err = tunable_check_device(s->root, u->dev, why, sizeof(why))) != 0) {
		res->err = err;
		catf(res->msg, sizeof(res->msg), 0, "undo %s %s to %s: %s", u->dev, u->v[0].name, u->v[0].value, why);
		return err;
	}
	read_ident(s->root, u->dev, &now);
	if (moved(&u->id, &now, why, sizeof(why))) {
		res->err = -EEXIST;
		catf(res->msg, sizeof(res->msg), 0, "undo %s %s to %s refused: %s", u->dev, u->v[0].name,
		     u->v[0].value, why);
		return res->err;
	}
	err = put_back(s, u->dev, u->v, u->n, res, note, sizeof(note));
	res->err = err;
	res->changed = res->got[0] && strcmp(res->got, res->before) != 0;
	recount(s);
	if (err)
		catf(res->msg, sizeof(res->msg), 0, "undo %s %s to %s failed (now %s)", u->dev, u->v[0].name,
			 u->v[0].value, res->got);
	else
		catf(res->msg, sizeof(res->msg), 0, "undo: %s %s %s -> %s%s", u->dev, u->v[0].name,
			 res->before[0] ? res->before : u->v[0].value, res->got[0] ? res->got : u->v[0].value, note);
	return err;
}

/* ---- restore ---- */

static int entry_rank(const struct journal_entry *e)
{
	return tunable_table_rank(e->name);
}

static bool journal_has(const struct journal *j, const char *dev, const char *name)
{
	return journal_find(j, dev, name) != NULL;
}

enum fate {
	FATE_DONE,  /* restored, unchanged, or nothing left to restore */
	FATE_RETRY, /* a failure that may pass: stays in the journal */
	FATE_ASIDE, /* refused for good: moved to journal.rejected with why */
};

/* Is the write error the kernel refusing this value (for good)? */
static bool refusal(int err)
{
	return err == -EINVAL || err == -ERANGE || err == -EPERM || err == -EOPNOTSUPP || err == -EACCES;
}

/* Restore one entry through the same table, validation and write as
 * tunable_set; why says what was refused (for journal.rejected). */
static enum fate restore_one(struct tunable_session *s, const struct journal_entry *e, struct tunable_result *res,
			     char *why, size_t wsize)
{
	char msg[TUNABLE_MSG_MAX], norm[TUNABLE_VALUE_MAX], rel[PATH_MAX];
	struct tunable_limits lim;
	struct ident now;
	struct target t;
	int err;

	result_init(res, e->dev, e->name, e->value);
	if ((err = tunable_check_device(s->root, e->dev, msg, sizeof(msg))) != 0) {
		/* A partition is not a device blktune journals; no queue is gone. */
		snprintf(rel, sizeof(rel), "sys/class/block/%s/partition", e->dev);
		if (err == -ENODEV && !root_exists(s->root, rel)) {
			/* Its values went with it: nothing is left changed. */
			res->err = -ENODEV;
			catf(res->msg, sizeof(res->msg), 0, "%s vanished: %s not restored (was %s)", e->dev,
			     e->name, e->value);
			return FATE_DONE;
		}
		snprintf(why, wsize, "%s", msg);
		return FATE_ASIDE;
	}
	read_ident(s->root, e->dev, &now);
	if (other_device(e, &now, why, wsize))
		return FATE_ASIDE;
	if (resolve(s->root, e->dev, e->name, &t, msg, sizeof(msg)) != 0) {
		/* A parameter of a scheduler that the restore just replaced went with it. */
		if (strncmp(e->name, "iosched/", 8) == 0 && journal_has(s->journal, e->dev, "scheduler")) {
			catf(res->msg, sizeof(res->msg), 0, "%s %s went away with its scheduler", e->dev, e->name);
			return FATE_DONE;
		}
		snprintf(why, wsize, "%s", msg);
		return FATE_ASIDE;
	}
	if (!t.def->writable) {
		snprintf(why, wsize, "%s is read-only for blktune: never written", t.name);
		return FATE_ASIDE;
	}
	limits_for(s->root, e->dev, &t, true, NULL, &lim);
	if (tunable_table_validate(t.def, &lim, e->value, norm, sizeof(norm), msg, sizeof(msg)) != 0) {
		snprintf(why, wsize, "%s refused: %s", e->value, msg);
		return FATE_ASIDE;
	}
	if (read_value(s->root, &t, res->before, sizeof(res->before)) == 0 && same_value(t.def, res->before, norm)) {
		snprintf(res->got, sizeof(res->got), "%s", res->before);
		catf(res->msg, sizeof(res->msg), 0, "%s %s %s (unchanged)", e->dev, e->name, norm);
		return FATE_DONE;
	}
	err = write_target(s->root, &t, norm, res->got, sizeof(res->got));
	res->changed = !same_value(t.def, res->got, res->before);
	if (err && !refusal(err)) {
		res->err = err;
		catf(res->msg, sizeof(res->msg), 0, "%s %s not restored to %s: %s (now %s); kept in the journal to retry",
		     e->dev, e->name, norm, errno_words(&t, err), res->got[0] ? res->got : "unreadable");
		return FATE_RETRY;
	}
	if (err) {
		snprintf(why, wsize, "%s refused by the kernel: %s (now %s)", norm, errno_words(&t, err),
			 res->got[0] ? res->got : "unreadable");
		return FATE_ASIDE;
	}
	if (!same_value(t.def, res->got, norm)) {
		snprintf(why, wsize, "asked %s, the kernel set %s", norm, res->got);
		return FATE_ASIDE;
	}
	catf(res->msg, sizeof(res->msg), 0, "%s %s %s -> %s restored", e->dev, e->name, res->before, res->got);
	return FATE_DONE;
}

/* Report the lines journal_open took out of the file (once per journal). */
static int report_rejects(struct tunable_session *s, tunable_report_fn report, void *arg)
{
	struct tunable_result res;
	size_t n = journal_reject_count(s->journal), total = journal_reject_total(s->journal);

	if (s->rejects_reported)
		return 0;
	s->rejects_reported = true;
	for (size_t i = 0; i < n; i++) {
		const struct journal_reject *r = journal_reject_at(s->journal, i);

		result_init(&res, NULL, NULL, NULL);
		res.err = -EBADMSG;
		catf(res.msg, sizeof(res.msg), 0, "journal line %u: %s: \"%s\": kept aside in %s, not restored", r->line,
		     r->reason, r->text, journal_rejected_path(s->journal));
		if (report)
			report(arg, &res);
	}
	if (total > n) {
		result_init(&res, NULL, NULL, NULL);
		res.err = -EBADMSG;
		catf(res.msg, sizeof(res.msg), 0, "%zu more malformed journal lines kept aside in %s", total - n,
		     journal_rejected_path(s->journal));
		if (report)
			report(arg, &res);
	}
	return (int)(total > INT_MAX ? INT_MAX : total);
}

int tunable_session_journal(struct tunable_session *s, tunable_report_fn report, void *arg, char *msg,
			    size_t msg_size)
{
	int err = ensure_journal(s, msg, msg_size);

	if (!err)
		report_rejects(s, report, arg);
	return err;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct journal_entry *x = *(const struct journal_entry *const *)a;
	const struct journal_entry *y = *(const struct journal_entry *const *)b;
	int c = strcmp(x->dev, y->dev);

	return c ? c : entry_rank(x) - entry_rank(y);
}

/* Keep the journal entries keep[] marks (and free keep), then count again;
 * a journal left empty is closed, so another instance can take it. */
static int retain(struct tunable_session *s, bool *keep)
{
	int err = journal_retain(s->journal, keep);

	free(keep);
	recount(s);
	if (journal_count(s->journal) == 0) {
		journal_close(s->journal);
		s->journal = NULL;
		s->rejects_reported = false;
		s->changes = 0;
		s->ndiffer = 0;
	}
	return err;
}

static int restore(struct tunable_session *s, bool all, tunable_report_fn report, void *arg)
{
	const struct journal_entry **order;
	struct tunable_result res;
	char msg[TUNABLE_MSG_MAX];
	size_t n;
	bool *keep;
	int err, failures = 0;

	if (!s->writable) {
		result_init(&res, NULL, NULL, NULL);
		res.err = -EACCES;
		catf(res.msg, sizeof(res.msg), 0, "nothing restored: %s", s->why);
		if (report)
			report(arg, &res);
		return -EACCES;
	}
	if ((err = ensure_journal(s, msg, sizeof(msg))) != 0) {
		result_init(&res, NULL, NULL, NULL);
		res.err = err;
		catf(res.msg, sizeof(res.msg), 0, "%s", msg);
		if (report)
			report(arg, &res);
		return err;
	}
	failures = report_rejects(s, report, arg);
	n = journal_count(s->journal);
	order = calloc(n + 1, sizeof(*order));
	keep = calloc(n + 1, sizeof(*keep));
	if (!order || !keep) {
		free(order);
		free(keep);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = journal_at(s->journal, i);
	qsort(order, n, sizeof(*order), cmp_entry);
	for (size_t i = 0; i < n; i++) {
		const struct journal_entry *e = order[i];
		char why[TUNABLE_MSG_MAX], line[32] = "";
		enum fate f;

		if (!all && earlier(s, e)) {
			keep[e - journal_at(s->journal, 0)] = true;
			continue;
		}
		f = restore_one(s, e, &res, why, sizeof(why));

		if (e->line)
			snprintf(line, sizeof(line), "journal line %u: ", e->line);
		if (f == FATE_ASIDE) {
			res.err = res.err ? res.err : -ECANCELED;
			err = journal_put_aside(s->journal, e, why);
			if (err)
				f = FATE_RETRY;
			catf(res.msg, sizeof(res.msg), 0, "%s%s %s %s not restored: %s; %s %s", line, e->dev, e->name,
			     e->value, why, err ? "kept in the journal: cannot write" : "kept aside in",
			     journal_rejected_path(s->journal));
		}
		if (f != FATE_DONE)
			failures++;
		keep[e - journal_at(s->journal, 0)] = f == FATE_RETRY;
		if (report)
			report(arg, &res);
	}
	free(order);
	s->nundo = 0;
	err = retain(s, keep);
	return err < 0 ? err : failures;
}

int tunable_restore_all(struct tunable_session *s, tunable_report_fn report, void *arg)
{
	return restore(s, true, report, arg);
}

int tunable_restore_session(struct tunable_session *s, tunable_report_fn report, void *arg)
{
	return restore(s, false, report, arg);
}

int tunable_session_tidy(struct tunable_session *s)
{
	size_t n;
	bool *keep;

	if (!s->journal)
		return 0;
	n = journal_count(s->journal);
	if (!(keep = calloc(n + 1, sizeof(*keep))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct journal_entry *e = journal_at(s->journal, i);
		char msg[TUNABLE_MSG_MAX], now[TUNABLE_VALUE_MAX];
		struct target t;

		keep[i] = earlier(s, e) || resolve(s->root, e->dev, e->name, &t, msg, sizeof(msg)) ||
			  read_value(s->root, &t, now, sizeof(now)) || !same_value(t.def, now, e->value);
	}
	return retain(s, keep);
}

int tunable_keep(struct tunable_session *s, tunable_report_fn report, void *arg)
{
	char msg[TUNABLE_MSG_MAX];
	int err = ensure_journal(s, msg, sizeof(msg));
	size_t n;
	bool *keep;

	if (err)
		return err;
	n = journal_count(s->journal);
	if (!(keep = calloc(n + 1, sizeof(*keep))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct journal_entry *e = journal_at(s->journal, i);
		struct tunable_result res;
		struct target t;

		/* An earlier session's originals stay for blktune --restore. */
		if ((keep[i] = earlier(s, e)) || !report)
			continue;
		result_init(&res, e->dev, e->name, e->value);
		if (resolve(s->root, e->dev, e->name, &t, msg, sizeof(msg)) ||
		    read_value(s->root, &t, res.got, sizeof(res.got)) || same_value(t.def, res.got, e->value))
			continue;
		catf(res.msg, sizeof(res.msg), 0, "%s %s kept at %s (original %s, no longer journaled)", e->dev,
		     e->name, res.got, e->value);
		report(arg, &res);
	}
	s->nundo = 0;
	return retain(s, keep);
}
