#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "safe-file.h"

#define JOURNAL_VERSION 2
#define JOURNAL_HEADER "blktune-journal 2\n"
#define REJECTED_HEADER "# blktune: journal lines taken out and not restored (blktune never reads this file)\n"

struct journal {
	struct safe_dir dir; /* fd -1: parsed from memory, no file */
	char label[PATH_MAX + 16];
	char rejected[PATH_MAX + 24];
	int lock_fd;
	struct journal_entry *entries;
	size_t n, cap;
	struct journal_reject rejects[JOURNAL_REJECT_KEEP];
	size_t nrej, rej_total;
	bool rewrite; /* torn last line, lines taken out or version 1: rewrite before appending */
};

/* Where rejected lines go while a file is parsed (journal_open), or NULL. */
struct reject_sink {
	struct journal *j;
	FILE *f;
	int err;
	char msg[512];
};

const char *journal_dir(const char *dir)
{
	const char *env = getenv("BLKTUNE_JOURNAL_DIR");

	if (dir && *dir)
		return dir;
	return env && *env ? env : JOURNAL_DEFAULT_DIR;
}

static struct journal *journal_new(void)
{
	struct journal *j = calloc(1, sizeof(*j));

	if (j) {
		j->dir.fd = -1;
		j->lock_fd = -1;
	}
	return j;
}

static int push(struct journal *j, const struct journal_entry *e)
{
	if (j->n == j->cap) {
		size_t cap = j->cap ? j->cap * 2 : 16;
		struct journal_entry *p = realloc(j->entries, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		j->entries = p;
		j->cap = cap;
	}
	j->entries[j->n++] = *e;
	return 0;
}

/* Printable ASCII as is, everything else (and the backslash) escaped. */
static void escape(const char *s, size_t len, char *out, size_t size)
{
	size_t used = 0;

	if (!size)
		return;
	for (size_t i = 0; i < len && used + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[used++] = (char)c;
		else
			used += (size_t)snprintf(out + used, size - used, "\\x%02x", c);
	}
	out[used] = '\0';
}

/* ---- the line grammar (one place for the reader and the writer) ---- */

static bool is_digits(const char *s, size_t max)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n <= max && s[n] == '\0';
}

static bool devt_ok(const char *s)
{
	char maj[JOURNAL_ID_MAX];
	const char *colon = strchr(s, ':');

	if (strcmp(s, "-") == 0)
		return true;
	if (!colon || (size_t)(colon - s) >= sizeof(maj))
		return false;
	snprintf(maj, sizeof(maj), "%.*s", (int)(colon - s), s);
	return is_digits(maj, 10) && is_digits(colon + 1, 10);
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/* A device name: what sysfs shows under /sys/block, never a path. */
static bool dev_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < JOURNAL_DEV_MAX && s[0] != '.' && !strchr(s, '/') && !strchr(s, ' ') && printable(s);
}

/* A tunable's name: "read_ahead_kb", "iosched/fifo_batch", "irq/36". */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= JOURNAL_NAME_MAX || s[0] == '/' || strstr(s, "..") ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") != n)
		return false;
	return true;
}

static bool value_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < JOURNAL_VALUE_MAX && printable(s);
}

static bool entry_ok(const struct journal_entry *e)
{
	return dev_ok(e->dev) && devt_ok(e->devt) && (strcmp(e->diskseq, "-") == 0 || is_digits(e->diskseq, 20)) &&
	       name_ok(e->name) && value_ok(e->value);
}

/* "orig DEV [MAJ:MIN] DISKSEQ NAME VALUE" (version 1 has no MAJ:MIN). line
 * holds no newline and no NUL. Returns NULL or why it is not an entry. */
static const char *parse_line(char *line, int version, struct journal_entry *e)
{
	int nf = version == 1 ? 4 : 5;
	char *f[5], *p = line;

	memset(e, 0, sizeof(*e));
	for (int i = 0; i < nf; i++) {
		char *sp = strchr(p, ' ');
		if (!sp)
			return "too few fields";
		*sp = '\0';
		f[i] = p;
		p = sp + 1;
	}
	if (strcmp(f[0], "orig"))
		return "not an \"orig\" line";
	if (strlen(f[1]) >= sizeof(e->dev) || strlen(f[nf - 3]) >= sizeof(e->devt) ||
	    strlen(f[nf - 2]) >= sizeof(e->diskseq) || strlen(f[nf - 1]) >= sizeof(e->name) ||
	    strlen(p) >= sizeof(e->value))
		return "a field too long";
	snprintf(e->dev, sizeof(e->dev), "%s", f[1]);
	snprintf(e->devt, sizeof(e->devt), "%s", version == 1 ? "-" : f[2]);
	snprintf(e->diskseq, sizeof(e->diskseq), "%s", f[nf - 2]);
	snprintf(e->name, sizeof(e->name), "%s", f[nf - 1]);
	snprintf(e->value, sizeof(e->value), "%s", p);
	if (!dev_ok(e->dev))
		return "not a device name";
	if (!devt_ok(e->devt))
		return "not a device number";
	if (strcmp(e->diskseq, "-") && !is_digits(e->diskseq, 20))
		return "not a diskseq";
	if (!name_ok(e->name))
		return "not a tunable name";
	if (!value_ok(e->value))
		return "no value";
	return NULL;
}

static int format_entry(const struct journal_entry *e, char *buf, size_t size)
{
	int n = snprintf(buf, size, "orig %s %s %s %s %s\n", e->dev, e->devt, e->diskseq, e->name, e->value);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : n;
}

/* ---- parsing a file ---- */

static void reject(struct journal *j, struct reject_sink *sink, unsigned line, const char *reason,
		   const char *text, size_t len)
{
	char esc[JOURNAL_LINE_MAX * 4 + 1], stamp[32];
	struct tm tm;
	time_t now;

	if (j->nrej < JOURNAL_REJECT_KEEP) {
		struct journal_reject *r = &j->rejects[j->nrej++];
		r->line = line;
		snprintf(r->reason, sizeof(r->reason), "%s", reason);
		escape(text, len, r->text, sizeof(r->text));
	}
	j->rej_total++;
	j->rewrite = true;
	if (!sink || sink->err)
		return;
	if (!sink->f) {
		struct stat st;
		int fd = safe_open(&j->dir, JOURNAL_REJECTED_FILE, O_WRONLY | O_APPEND | O_CREAT, sink->msg,
				   sizeof(sink->msg));

		if (fd < 0 || !(sink->f = fdopen(fd, "a"))) {
			sink->err = fd < 0 ? fd : -errno;
			if (fd >= 0)
				close(fd);
			return;
		}
		if (fstat(fd, &st) == 0 && st.st_size == 0)
			fputs(REJECTED_HEADER, sink->f);
	}
	escape(text, len > JOURNAL_LINE_MAX ? JOURNAL_LINE_MAX : len, esc, sizeof(esc));
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(sink->f, "%s line %u: %s: %s%s\n", stamp, line, reason, esc, len > JOURNAL_LINE_MAX ? "..." : "");
}

static int parse(struct journal *j, const char *buf, size_t len, struct reject_sink *sink)
{
	int version = 0;
	unsigned lineno = 0;
	size_t pos = 0;

	while (pos < len) {
		const char *start = buf + pos, *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		char line[JOURNAL_LINE_MAX], why[96];
		const char *bad = NULL;
		struct journal_entry e;

		lineno++;
		pos += n + (nl ? 1 : 0);
		if (n >= JOURNAL_LINE_MAX) {
			snprintf(why, sizeof(why), "line of %zu bytes, longer than any entry", n);
			bad = why;
		} else if (memchr(start, '\0', n)) {
			bad = "NUL byte";
		} else {
			memcpy(line, start, n);
			line[n] = '\0';
			if (!printable(line))
				bad = "control or non-ASCII byte";
		}
		/* A line without its newline at the end was cut by a crash in the
		 * middle of an append: its change was never made (the fsync of the
		 * line comes before the write). Dropped, not reported. */
		if (!nl && !bad) {
			j->rewrite = true;
			break;
		}
		if (lineno == 1 && !bad) {
			if (strcmp(line, "blktune-journal 1") == 0)
				version = 1;
			else if (strcmp(line, "blktune-journal 2") == 0)
				version = 2;
			else
				bad = "not a blktune journal header (blktune-journal 2)";
			if (version == 1)
				j->rewrite = true;
			if (!bad)
				continue;
		}
		if (!bad && !version)
			bad = "in a file without a blktune journal header";
		if (!bad && !(bad = parse_line(line, version, &e))) {
			const struct journal_entry *old = journal_find(j, e.dev, e.name);

			if (old) {
				snprintf(why, sizeof(why), "a second original for %s %s (line %u has one)", e.dev,
					 e.name, old->line);
				bad = why;
			} else {
				int err;
				e.line = lineno;
				if ((err = push(j, &e)) < 0)
					return err;
				continue;
			}
		}
		reject(j, sink, lineno, bad, start, n);
	}
	if (!version)
		j->rewrite = true; /* empty, or a torn header: the next append writes a whole file */
	return sink && sink->err ? sink->err : 0;
}

int journal_parse(const char *buf, size_t len, const char *name, struct journal **out)
{
	struct journal *j = journal_new();
	int err;

	if (!j)
		return -ENOMEM;
	snprintf(j->label, sizeof(j->label), "%s", name ? name : "journal");
	if ((err = parse(j, buf, len, NULL)) < 0) {
		journal_close(j);
		return err;
	}
	*out = j;
	return 0;
}

/* ---- the files ---- */

static int lock(struct journal *j, bool wait, char *msg, size_t msg_size)
{
	int err;

	j->lock_fd = safe_open(&j->dir, "lock", O_RDWR | O_CREAT, msg, msg_size);
	if (j->lock_fd < 0) {
		err = j->lock_fd;
		if (err != -EPERM) {
			char why[256];
			snprintf(why, sizeof(why), "%s", msg);
			snprintf(msg, msg_size, "journal lock: %s", why);
		}
		return err;
	}
	while (flock(j->lock_fd, LOCK_EX | (wait ? 0 : LOCK_NB)) < 0) {
		char pid[24] = "";
		ssize_t n;

		if (errno == EINTR)
			continue;
		err = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;
		n = pread(j->lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? strspn(pid, "0123456789") : 0] = '\0';
		if (err == -EWOULDBLOCK)
			snprintf(msg, msg_size, "another blktune%s%s is changing tunables (journal locked)",
				 pid[0] ? " pid " : "", pid);
		else
			snprintf(msg, msg_size, "journal lock: %s", strerror(-err));
		return err;
	}
	/* Who holds the lock, for the message another instance shows. */
	if (ftruncate(j->lock_fd, 0) == 0)
		dprintf(j->lock_fd, "%ld\n", (long)getpid());
	return 0;
}

static int load(struct journal *j, char *msg, size_t msg_size)
{
	struct reject_sink sink = { .j = j };
	char *buf;
	ssize_t len = safe_read_all(&j->dir, JOURNAL_FILE, JOURNAL_FILE_MAX, &buf, msg, msg_size);
	int err;

	if (len == -ENOENT)
		return 0;
	if (len < 0)
		return (int)len;
	err = parse(j, buf, (size_t)len, &sink);
	free(buf);
	if (sink.f) {
		if (fflush(sink.f) != 0 || fsync(fileno(sink.f)) < 0)
			err = err ? err : -errno;
		if (fclose(sink.f) != 0 && !err)
			err = -errno;
	}
	if (err && sink.msg[0])
		snprintf(msg, msg_size, "%s (journal left as it is)", sink.msg);
	else if (err)
		snprintf(msg, msg_size, "%s: %s (journal left as it is)", j->rejected, strerror(-err));
	return err;
}

int journal_open(const char *dir, bool wait, struct journal **out, char *msg, size_t msg_size)
{
	struct journal *j;
	int err;

	msg[0] = '\0';
	dir = journal_dir(dir);
	if (!(j = journal_new()))
		return -ENOMEM;
	if ((err = safe_dir_open(dir, true, &j->dir, msg, msg_size)) < 0) {
		char why[512];
		snprintf(why, sizeof(why), "%s", msg);
		snprintf(msg, msg_size, "journal directory %s", why);
		journal_close(j);
		return err;
	}
	snprintf(j->label, sizeof(j->label), "%s/" JOURNAL_FILE, dir);
	snprintf(j->rejected, sizeof(j->rejected), "%s/" JOURNAL_REJECTED_FILE, dir);
	if ((err = lock(j, wait, msg, msg_size)) < 0 || (err = load(j, msg, msg_size)) < 0) {
		journal_close(j);
		return err;
	}
	/* Temporary files a crash left in the middle of a rewrite: with the
	 * lock held, no other instance is writing one. */
	safe_remove_stale(&j->dir, JOURNAL_FILE ".tmp");
	if (j->rewrite) {
		bool *keep = calloc(j->n + 1, sizeof(*keep));

		if (!keep)
			err = -ENOMEM;
		for (size_t i = 0; keep && i < j->n; i++)
			keep[i] = true;
		if (keep)
			err = journal_retain(j, keep);
		free(keep);
		if (err) {
			snprintf(msg, msg_size, "rewriting %s: %s", j->label, strerror(-err));
			journal_close(j);
			return err;
		}
	}
	*out = j;
	return 0;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	if (j->lock_fd >= 0)
		close(j->lock_fd); /* releases the flock */
	safe_dir_close(&j->dir);
	free(j->entries);
	free(j);
}

/* A new file holding the header and every entry, renamed over the journal. */
static int rewrite(struct journal *j)
{
	char tmp[64], line[JOURNAL_LINE_MAX], msg[256];
	int fd, err;

	fd = safe_create_tmp(&j->dir, JOURNAL_FILE ".tmp", tmp, sizeof(tmp), msg, sizeof(msg));
	if (fd < 0)
		return fd;
	err = safe_write_all(fd, JOURNAL_HEADER, strlen(JOURNAL_HEADER));
	for (size_t i = 0; i < j->n && !err; i++) {
		int n = format_entry(&j->entries[i], line, sizeof(line));
		err = n < 0 ? n : safe_write_all(fd, line, (size_t)n);
	}
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err)
		err = safe_rename(&j->dir, tmp, JOURNAL_FILE);
	if (err)
		safe_unlink(&j->dir, tmp);
	else
		j->rewrite = false;
	return err ? err : safe_dir_sync(&j->dir);
}

int journal_record(struct journal *j, const char *dev, const char *devt, const char *diskseq,
		   const char *name, const char *value)
{
	struct journal_entry e;
	char line[JOURNAL_LINE_MAX], msg[256];
	int fd, n, err;

	if (journal_find(j, dev, name))
		return 0;
	memset(&e, 0, sizeof(e));
	if (strlen(dev) >= sizeof(e.dev) || strlen(name) >= sizeof(e.name) || strlen(value) >= sizeof(e.value) ||
	    (devt && strlen(devt) >= sizeof(e.devt)) || (diskseq && strlen(diskseq) >= sizeof(e.diskseq)))
		return -EINVAL;
	snprintf(e.dev, sizeof(e.dev), "%s", dev);
	snprintf(e.devt, sizeof(e.devt), "%s", devt && *devt ? devt : "-");
	snprintf(e.diskseq, sizeof(e.diskseq), "%s", diskseq && *diskseq ? diskseq : "-");
	snprintf(e.name, sizeof(e.name), "%s", name);
	snprintf(e.value, sizeof(e.value), "%s", value);
	/* The writer accepts exactly what the reader does. */
	if (!entry_ok(&e) || (n = format_entry(&e, line, sizeof(line))) < 0)
		return -EINVAL;
	if (j->dir.fd < 0)
		return -EBADF;
	if ((err = push(j, &e)) < 0)
		return err;
	if (j->rewrite) {
		/* A file to repair first (torn line, lines taken out, version 1). */
		err = rewrite(j);
	} else {
		struct stat st;
		bool fresh;

		fd = safe_open(&j->dir, JOURNAL_FILE, O_WRONLY | O_APPEND | O_CREAT, msg, sizeof(msg));
		if (fd < 0) {
			j->n--;
			return fd;
		}
		if (fstat(fd, &st) < 0)
			st.st_size = -1;
		fresh = st.st_size == 0;
		err = fresh ? safe_write_all(fd, JOURNAL_HEADER, strlen(JOURNAL_HEADER)) : 0;
		if (!err)
			err = safe_write_all(fd, line, (size_t)n);
		if (!err && fsync(fd) < 0)
			err = -errno;
		/* A write that failed part way (a full disk) left a torn line:
		 * cut it off, so the next append does not glue its line to it. */
		if (err && (st.st_size < 0 || ftruncate(fd, st.st_size) < 0))
			j->rewrite = true; /* the next append writes a whole file */
		if (close(fd) < 0 && !err)
			err = -errno;
		/* A new file's name reaches the disk before any change too. */
		if (!err && fresh)
			err = safe_dir_sync(&j->dir);
	}
	if (err) {
		j->n--;
		return err;
	}
	return 1;
}

const struct journal_entry *journal_find(const struct journal *j, const char *dev, const char *name)
{
	for (size_t i = 0; i < j->n; i++)
		if (strcmp(j->entries[i].dev, dev) == 0 && strcmp(j->entries[i].name, name) == 0)
			return &j->entries[i];
	return NULL;
}

size_t journal_count(const struct journal *j)
{
	return j->n;
}

const struct journal_entry *journal_at(const struct journal *j, size_t i)
{
	return i < j->n ? &j->entries[i] : NULL;
}

size_t journal_reject_count(const struct journal *j)
{
	return j->nrej;
}

size_t journal_reject_total(const struct journal *j)
{
	return j->rej_total;
}

const struct journal_reject *journal_reject_at(const struct journal *j, size_t i)
{
	return i < j->nrej ? &j->rejects[i] : NULL;
}

const char *journal_rejected_path(const struct journal *j)
{
	return j->rejected;
}

int journal_put_aside(struct journal *j, const struct journal_entry *e, const char *reason)
{
	struct reject_sink sink = { .j = j };
	char line[JOURNAL_LINE_MAX];
	size_t nrej = j->nrej, total = j->rej_total;
	int n = format_entry(e, line, sizeof(line)), err;

	if (n < 0)
		return n;
	if (j->dir.fd < 0)
		return -EBADF;
	reject(j, &sink, e->line, reason, line, (size_t)n - 1);
	/* Not a line of the file: the caller reports it as a result of its own. */
	j->nrej = nrej;
	j->rej_total = total;
	err = sink.err;
	if (sink.f) {
		if ((fflush(sink.f) != 0 || fsync(fileno(sink.f)) < 0) && !err)
			err = -errno;
		if (fclose(sink.f) != 0 && !err)
			err = -errno;
	}
	return err;
}

int journal_retain(struct journal *j, const bool *keep)
{
	size_t kept = 0;

	for (size_t i = 0; i < j->n; i++)
		if (keep[i])
			j->entries[kept++] = j->entries[i];
	j->n = kept;
	if (j->dir.fd < 0)
		return 0;
	if (kept == 0)
		return journal_clear(j);
	return rewrite(j);
}

int journal_clear(struct journal *j)
{
	int err;

	j->n = 0;
	j->rewrite = false;
	if (j->dir.fd < 0)
		return 0;
	err = safe_unlink(&j->dir, JOURNAL_FILE);
	if (err && err != -ENOENT)
		return err;
	return safe_dir_sync(&j->dir);
}

int journal_pending(const char *dir, char *msg, size_t msg_size)
{
	struct safe_dir d;
	struct journal *j;
	char *buf;
	ssize_t len;
	int err;

	msg[0] = '\0';
	dir = journal_dir(dir);
	if ((err = safe_dir_open(dir, false, &d, msg, msg_size)) < 0) {
		char why[512];
		snprintf(why, sizeof(why), "%s", msg);
		snprintf(msg, msg_size, "journal directory %s", why);
		return err;
	}
	len = safe_read_all(&d, JOURNAL_FILE, JOURNAL_FILE_MAX, &buf, msg, msg_size);
	safe_dir_close(&d);
	if (len < 0)
		return (int)len;
	err = journal_parse(buf, (size_t)len, dir, &j);
	free(buf);
	if (err < 0)
		return err;
	err = (int)(journal_count(j) + journal_reject_total(j));
	journal_close(j);
	return err;
}
