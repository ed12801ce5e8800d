#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_HEADER "blktune-journal 1\n"

struct journal {
	char dir[PATH_MAX];
	char file[PATH_MAX];
	int lock_fd;
	struct journal_entry *entries;
	size_t n, cap;
	bool torn; /* the last line was cut by a crash: rewrite before appending */
};

const char *journal_dir(const char *dir)
{
	const char *env = getenv("BLKTUNE_JOURNAL_DIR");

	if (dir && *dir)
		return dir;
	return env && *env ? env : JOURNAL_DEFAULT_DIR;
}

static int sync_dir(const char *dir)
{
	int err = 0, fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		err = -errno;
	close(fd);
	return err;
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

/* "orig DEV DISKSEQ NAME VALUE": VALUE is the rest of the line. */
static int parse_line(char *line, struct journal_entry *e)
{
	char *f[4], *save = NULL, *p = line;

	for (int i = 0; i < 4; i++) {
		f[i] = strtok_r(p, " ", &save);
		p = NULL;
		if (!f[i])
			return -EBADMSG;
	}
	p = save;
	if (strcmp(f[0], "orig") || !p || !*p)
		return -EBADMSG;
	if (strlen(f[1]) >= sizeof(e->dev) || strlen(f[2]) >= sizeof(e->diskseq) ||
	    strlen(f[3]) >= sizeof(e->name) || strlen(p) >= sizeof(e->value))
		return -EBADMSG;
	strcpy(e->dev, f[1]);
	strcpy(e->diskseq, f[2]);
	strcpy(e->name, f[3]);
	strcpy(e->value, p);
	return 0;
}

static int load(struct journal *j, char *msg, size_t msg_size)
{
	char line[512];
	unsigned lineno = 0;
	int err = 0;
	FILE *f = fopen(j->file, "re");

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		struct journal_entry e;
		size_t len = strlen(line);

		lineno++;
		/* A line without its newline was cut by a crash in the middle of
		 * an append: its change was never made (fsync comes before the write). */
		if (len == 0 || line[len - 1] != '\n') {
			if (feof(f)) {
				j->torn = true;
				break;
			}
			err = -EBADMSG;
		} else {
			line[len - 1] = '\0';
			if (lineno == 1)
				err = strcmp(line, "blktune-journal 1") ? -EBADMSG : 0;
			else if ((err = parse_line(line, &e)) == 0 && !journal_find(j, e.dev, e.name))
				err = push(j, &e);
		}
		if (err) {
			snprintf(msg, msg_size, "%s:%u: %s", j->file, lineno,
				 lineno == 1 ? "not a blktune journal of version 1" : "malformed line");
			break;
		}
	}
	fclose(f);
	return err;
}

int journal_open(const char *dir, bool wait, struct journal **out, char *msg, size_t msg_size)
{
	char lock[PATH_MAX + 8];
	struct journal *j;
	int err;

	msg[0] = '\0';
	dir = journal_dir(dir);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		err = -errno;
		snprintf(msg, msg_size, "journal directory %s: %s", dir, strerror(-err));
		return err;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	snprintf(j->dir, sizeof(j->dir), "%s", dir);
	snprintf(j->file, sizeof(j->file), "%s/journal", dir);
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	j->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (j->lock_fd < 0) {
		err = -errno;
		snprintf(msg, msg_size, "journal lock %s: %s", lock, strerror(-err));
		free(j);
		return err;
	}
	while (flock(j->lock_fd, LOCK_EX | (wait ? 0 : LOCK_NB)) < 0) {
		char pid[24] = "";
		ssize_t n;

		if (errno == EINTR)
			continue;
		err = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;
		n = pread(j->lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? strcspn(pid, "\n") : 0] = '\0';
		if (err == -EWOULDBLOCK)
			snprintf(msg, msg_size, "another blktune%s%s is changing tunables (journal locked)",
				 pid[0] ? " pid " : "", pid);
		else
			snprintf(msg, msg_size, "journal lock: %s", strerror(-err));
		journal_close(j);
		return err;
	}
	/* Who holds the lock, for the message another instance shows. */
	if (ftruncate(j->lock_fd, 0) == 0)
		dprintf(j->lock_fd, "%ld\n", (long)getpid());
	err = load(j, msg, msg_size);
	if (!err && j->torn) {
		bool *keep = calloc(j->n + 1, sizeof(*keep));

		if (!keep)
			err = -ENOMEM;
		for (size_t i = 0; keep && i < j->n; i++)
			keep[i] = true;
		if (keep)
			err = journal_retain(j, keep);
		free(keep);
	}
	if (err) {
		if (!msg[0])
			snprintf(msg, msg_size, "journal %s: %s", j->file, strerror(-err));
		journal_close(j);
		return err;
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
	free(j->entries);
	free(j);
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int format_entry(const struct journal_entry *e, char *buf, size_t size)
{
	int n = snprintf(buf, size, "orig %s %s %s %s\n", e->dev, e->diskseq, e->name, e->value);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : n;
}

static bool field_ok(const char *s, size_t max, bool spaces)
{
	size_t len = strlen(s);

	if (len == 0 || len >= max || strchr(s, '\n'))
		return false;
	return spaces || !strchr(s, ' ');
}

int journal_record(struct journal *j, const char *dev, const char *diskseq, const char *name,
		   const char *value)
{
	struct journal_entry e;
	char line[512];
	struct stat st;
	bool fresh;
	int fd, n, err;

	if (journal_find(j, dev, name))
		return 0;
	if (!field_ok(dev, sizeof(e.dev), false) || !field_ok(name, sizeof(e.name), false) ||
	    !field_ok(diskseq && *diskseq ? diskseq : "-", sizeof(e.diskseq), false) ||
	    !field_ok(value, sizeof(e.value), true))
		return -EINVAL;
	snprintf(e.dev, sizeof(e.dev), "%s", dev);
	snprintf(e.diskseq, sizeof(e.diskseq), "%s", diskseq && *diskseq ? diskseq : "-");
	snprintf(e.name, sizeof(e.name), "%s", name);
	snprintf(e.value, sizeof(e.value), "%s", value);
	n = format_entry(&e, line, sizeof(line));
	if (n < 0)
		return n;
	fd = open(j->file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	fresh = fstat(fd, &st) == 0 && st.st_size == 0;
	err = fresh ? write_all(fd, JOURNAL_HEADER, strlen(JOURNAL_HEADER)) : 0;
	if (!err)
		err = write_all(fd, line, (size_t)n);
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && fresh)
		err = sync_dir(j->dir);
	if (!err)
		err = push(j, &e);
	return err ? err : 1;
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

int journal_retain(struct journal *j, const bool *keep)
{
	char tmp[PATH_MAX + 8], line[512];
	size_t kept = 0;
	int fd, err = 0;

	for (size_t i = 0; i < j->n; i++)
		if (keep[i])
			j->entries[kept++] = j->entries[i];
	j->n = kept;
	if (kept == 0)
		return journal_clear(j);
	snprintf(tmp, sizeof(tmp), "%s.tmp", j->file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = write_all(fd, JOURNAL_HEADER, strlen(JOURNAL_HEADER));
	for (size_t i = 0; i < j->n && !err; i++) {
		int n = format_entry(&j->entries[i], line, sizeof(line));
		err = n < 0 ? n : write_all(fd, line, (size_t)n);
	}
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, j->file) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err ? err : sync_dir(j->dir);
}

int journal_clear(struct journal *j)
{
	j->n = 0;
	if (unlink(j->file) < 0 && errno != ENOENT)
		return -errno;
	return sync_dir(j->dir);
}

int journal_pending(const char *dir)
{
	char file[PATH_MAX + 8], line[512];
	int count = 0;
	FILE *f;

	snprintf(file, sizeof(file), "%s/journal", journal_dir(dir));
	f = fopen(file, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "orig ", 5) == 0 && strchr(line, '\n'))
			count++;
	fclose(f);
	return count;
}
