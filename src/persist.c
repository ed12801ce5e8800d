#include "persist.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "safe-file.h"
#include "tunable.h"

static const char *const key_match[] = {
	[PERSIST_WWN] = "ENV{ID_WWN}",
	[PERSIST_SERIAL] = "ENV{ID_SERIAL}",
	[PERSIST_LOOP_FILE] = "ATTR{loop/backing_file}",
};

static const char *const key_word[] = {
	[PERSIST_WWN] = "wwn",
	[PERSIST_SERIAL] = "serial",
	[PERSIST_LOOP_FILE] = "loop",
};

/* udev rule strings are double-quoted with no escapes: no quote, backslash,
 * newline or control byte may appear, and a glob character would match more
 * than the one device. */
static bool quotable(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20 || *s == 0x7f || strchr("*?[|", *s))
			return false;
	return true;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* The largest udev database entry read: real ones are a few KiB (one S:
 * line per symlink); past this the disk has no identity here. */
#define UDEV_DB_MAX (1 << 20)

/* E:KEY=value from udev's database entry of dev ("b8:0"), read whole: a
 * property past the first buffer is found, and a value is never cut (a
 * rule matching a cut value would match nothing). Returns 0, -ENOENT, or
 * -ENAMETOOLONG for a value longer than len - 1. */
static int udev_prop(const struct root *r, const char *devnum, const char *key, char *out, size_t len)
{
	char rel[96], want[64], *buf = NULL;
	char *line, *save = NULL;
	size_t cap = 0, wlen;
	int err = -ENOENT;

	snprintf(rel, sizeof(rel), "run/udev/data/b%s", devnum);
	if (root_read_all(r, rel, &buf, &cap, UDEV_DB_MAX) < 0) {
		free(buf);
		return -ENOENT;
	}
	wlen = (size_t)snprintf(want, sizeof(want), "E:%s=", key);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, want, wlen) && line[wlen]) {
			err = snprintf(out, len, "%s", line + wlen) >= (int)len ? -ENAMETOOLONG : 0;
			break;
		}
	}
	free(buf);
	return err;
}

int persist_identity(const struct root *r, const char *dev, struct persist_id *id, char *why, size_t whylen)
{
	char rel[128], devnum[32];
	int err;

	snprintf(rel, sizeof(rel), "sys/block/%s/dev", dev);
	if (root_read(r, rel, devnum, sizeof(devnum)) < 0)
		devnum[0] = '\0';
	chomp(devnum);
	if (!devnum[0]) { /* none, or read empty: the disk is going away */
		snprintf(why, whylen, "%s: no such disk", dev);
		return -ENODEV;
	}
	if ((err = udev_prop(r, devnum, "ID_WWN", id->value, sizeof(id->value))) != -ENOENT)
		id->key = PERSIST_WWN;
	else if ((err = udev_prop(r, devnum, "ID_SERIAL", id->value, sizeof(id->value))) != -ENOENT)
		id->key = PERSIST_SERIAL;
	else {
		/* One byte more than a value holds: a file that fills it is too long. */
		char path[sizeof(id->value) + 1];

		snprintf(rel, sizeof(rel), "sys/block/%s/loop/backing_file", dev);
		if (root_read(r, rel, path, sizeof(path)) <= 1) {
			snprintf(why, whylen,
				 "%s has no stable identity (no ID_WWN or ID_SERIAL in udev's database, not a loop "
				 "device with a backing file): a rule on its kernel name could tune another disk after "
				 "a reboot",
				 dev);
			return -ENOENT;
		}
		chomp(path);
		err = strlen(path) < sizeof(id->value) ? 0 : -ENAMETOOLONG;
		snprintf(id->value, sizeof(id->value), "%s", err ? "" : path);
		id->key = PERSIST_LOOP_FILE;
	}
	if (err == -ENAMETOOLONG) {
		snprintf(why, whylen, "%s: its %s is longer than %zu bytes: a rule on a cut one would match nothing",
			 dev, key_word[id->key], sizeof(id->value) - 1);
		return err;
	}
	if (!quotable(id->value)) {
		snprintf(why, whylen, "%s: its %s holds a character a udev rule cannot match exactly", dev,
			 key_word[id->key]);
		return -EINVAL;
	}
	return 0;
}

/* The order --restore writes in (the table's): the scheduler, then
 * nr_requests (it resets iosched/async_depth), then the scheduler's
 * parameters, the queue limits before read_ahead_kb (they raise it). */
static int rank(const char *name)
{
	return tunable_table_rank(name);
}

static int cmp_setting(const void *a, const void *b)
{
	const struct persist_setting *x = a, *y = b;
	int d = rank(x->name) - rank(y->name);

	return d ? d : strcmp(x->name, y->name);
}

void persist_sort(struct persist_setting *set, size_t n)
{
	qsort(set, n, sizeof(*set), cmp_setting);
}

static bool is_param(const char *name)
{
	return !strncmp(name, "iosched/", 8);
}

static int find_setting(const struct persist_setting *set, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(set[i].name, name))
			return (int)i;
	return -1;
}

/* Whose parameter set[i] is: the scheduler the rule selects (it was written
 * under it), else the one the table names, else the one in force. */
static const char *owner(const struct persist_setting *set, size_t n, size_t i, const char *sched)
{
	const struct tunable_def *def = tunable_table_find(set[i].name);
	int s = find_setting(set, n, "scheduler");

	return s >= 0 ? set[s].value : def && def->sched ? def->sched : sched;
}

/* note += "; " + text, cut at len. */
static void note_add(char *note, size_t len, const char *text)
{
	size_t off = strlen(note);

	snprintf(note + off, len - off, "%s%s", off ? "; " : "", text);
}

int persist_merge(struct persist_setting *set, size_t n, size_t max, const struct persist_setting *add,
		  const char *sched, char *note, size_t notelen)
{
	char owners[PERSIST_MAX][sizeof(set->value)], want[sizeof(set->value)] = "", dropped[256] = "", text[512];
	int s = find_setting(set, n, "scheduler"), a = find_setting(set, n, add->name);
	size_t k = 0;

	note[0] = '\0';
	if (!sched)
		sched = "";
	if (is_param(add->name) && (!*sched || !strcmp(sched, "none")))
		return -EINVAL;
	if (max > PERSIST_MAX)
		max = PERSIST_MAX; /* owners' size */
	if (n > max || (a < 0 && n == max))
		return -ENOSPC;
	/* whose each parameter is, before the scheduler changes */
	for (size_t i = 0; i < n; i++)
		snprintf(owners[i], sizeof(owners[i]), "%s", is_param(set[i].name) ? owner(set, n, i, sched) : "");
	if (!strcmp(add->name, "scheduler") || is_param(add->name))
		snprintf(want, sizeof(want), "%s", is_param(add->name) ? sched : add->value);
	else if (s >= 0)
		snprintf(want, sizeof(want), "%s", set[s].value);
	for (size_t i = 0; !want[0] && i < n; i++)
		snprintf(want, sizeof(want), "%s", owners[i]);
	if (a < 0)
		a = (int)n++;
	set[a] = *add;
	owners[a][0] = '\0';
	/* another scheduler's parameters would be written to the wrong one, or
	 * to nothing: they go */
	for (size_t i = 0; i < n; i++) {
		size_t off = strlen(dropped);

		if (owners[i][0] && strcmp(owners[i], want))
			snprintf(dropped + off, sizeof(dropped) - off, " %s", set[i].name);
		else
			set[k++] = set[i];
	}
	n = k;
	if (dropped[0]) {
		snprintf(text, sizeof(text), "dropped%s (not %s's)", dropped, want);
		note_add(note, notelen, text);
	}
	s = find_setting(set, n, "scheduler");
	for (k = 0; k < n && !is_param(set[k].name); k++)
		;
	if (k == n || !want[0])
		return (int)n; /* no parameter, no scheduler needed (or none known) */
	/* a parameter exists only under its scheduler: the rule selects it first */
	if (s < 0) {
		if (n >= max)
			return -ENOSPC;
		s = (int)n++;
		snprintf(set[s].name, sizeof(set[s].name), "scheduler");
		snprintf(set[s].value, sizeof(set[s].value), "%s", want);
		snprintf(text, sizeof(text), "scheduler %s added: its parameters exist only under it", want);
		note_add(note, notelen, text);
	} else if (strcmp(set[s].value, want)) {
		snprintf(text, sizeof(text), "scheduler %s replaced by %s", set[s].value, want);
		note_add(note, notelen, text);
		snprintf(set[s].value, sizeof(set[s].value), "%s", want);
	}
	return (int)n;
}

int persist_check(const struct root *r, const char *dev, struct persist_setting *set, size_t n,
		  const char *sched, char *msg, size_t msglen)
{
	char norm[sizeof(set->value)], why[256];
	int s = find_setting(set, n, "scheduler"), err;
	struct tunable_limits lim;

	/* at boot the rule's scheduler is in force when the rest is written */
	if (s >= 0)
		sched = set[s].value;
	for (size_t i = 0; i < n; i++) {
		const struct tunable_def *def = tunable_table_find(set[i].name);

		if (!persist_allowed(def) || tunable_limits_under(r, dev, set[i].name, sched, &lim) < 0) {
			snprintf(msg, msglen, "%s: not a queue setting a udev rule may write", set[i].name);
			return -EPERM;
		}
		if ((err = tunable_table_validate(def, &lim, set[i].value, norm, sizeof(norm), why, sizeof(why))) < 0) {
			snprintf(msg, msglen, "%s %s refused%s%s: %s", set[i].name, set[i].value,
				 s >= 0 && (size_t)s != i ? " under scheduler " : "", s >= 0 && (size_t)s != i ? sched : "",
				 why);
			return err;
		}
		snprintf(set[i].value, sizeof(set[i].value), "%s", norm);
	}
	return 0;
}

/* The identity's readable part for a file name: a loop file's last
 * component (it says the most), its first 95 bytes, each byte outside
 * [A-Za-z0-9.-] as '_'. Lossy: /a/img and /b/img, "AB C" and "AB_C", two
 * values alike in their first 95 bytes all give the same. */
static void readable(const struct persist_id *id, char *v, size_t len)
{
	const char *s = id->value;
	size_t j = 0;

	if (id->key == PERSIST_LOOP_FILE && strrchr(s, '/'))
		s = strrchr(s, '/') + 1;
	for (; *s && j + 1 < len; s++)
		v[j++] = isalnum((unsigned char)*s) || *s == '.' || *s == '-' ? *s : '_';
	v[j] = '\0';
}

void persist_file_name(const struct persist_id *id, char *buf, size_t len)
{
	const char *word = key_word[id->key];
	char v[96];
	/* the whole identity, key and exact value: what the readable part
	 * loses is in it */
	uint32_t h = crc32c(crc32c(0, word, strlen(word) + 1), id->value, strlen(id->value));

	readable(id, v, sizeof(v));
	snprintf(buf, len, "60-blktune-%s-%s-%08" PRIx32 ".rules", word, v, h);
}

/* The name blktune gave the rule before the hash: its readable part only,
 * which another disk's identity may share. */
static void legacy_file_name(const struct persist_id *id, char *buf, size_t len)
{
	char v[96];

	readable(id, v, sizeof(v));
	snprintf(buf, len, "60-blktune-%s-%s.rules", key_word[id->key], v);
}

/* The rule line persist_rule writes for id, up to its first setting. */
static void rule_head(const struct persist_id *id, char *buf, size_t len)
{
	snprintf(buf, len, "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", %s==\"%s\"",
		 key_match[id->key], id->value);
}

/* One ", ATTR{queue/NAME}=\"VALUE\"" at *p into out; *p moves past it.
 * Returns 0, or -EINVAL for anything persist_rule does not write. */
static int parse_setting(const char **p, struct persist_setting *out)
{
	static const char open[] = ", ATTR{queue/";
	const char *name = *p + strlen(open), *end, *value;

	if (strncmp(*p, open, strlen(open)) || !(end = strchr(name, '}')) || strncmp(end, "}=\"", 3))
		return -EINVAL;
	value = end + 3;
	if ((size_t)(end - name) >= sizeof(out->name) || !strchr(value, '"') ||
	    (size_t)(strchr(value, '"') - value) >= sizeof(out->value))
		return -EINVAL;
	snprintf(out->name, sizeof(out->name), "%.*s", (int)(end - name), name);
	snprintf(out->value, sizeof(out->value), "%.*s", (int)(strchr(value, '"') - value), value);
	*p = strchr(value, '"') + 1;
	return persist_allowed(tunable_table_find(out->name)) && quotable(out->value) ? 0 : -EINVAL;
}

int persist_rule(const struct persist_id *id, const char *dev, const struct persist_setting *set, size_t n,
		 char *buf, size_t len)
{
	char head[1024];
	size_t off;
	int w;

	rule_head(id, head, sizeof(head));
	w = snprintf(buf, len,
		     "# Written by blktune persist for %s (%s %s).\n"
		     "# Sets its queue tunables whenever the disk appears; remove with\n"
		     "# blktune persist --remove %s, or delete this file.\n%s",
		     dev, key_word[id->key], id->value, dev, head);
	if (w < 0 || (size_t)w >= len)
		return -ENOSPC;
	off = (size_t)w;
	for (size_t i = 0; i < n; i++) {
		if (!quotable(set[i].value) || !quotable(set[i].name))
			return -EINVAL;
		w = snprintf(buf + off, len - off, ", ATTR{queue/%s}=\"%s\"", set[i].name, set[i].value);
		if (w < 0 || (size_t)w >= len - off)
			return -ENOSPC;
		off += (size_t)w;
	}
	if (off + 2 > len)
		return -ENOSPC;
	buf[off++] = '\n';
	buf[off] = '\0';
	return 0;
}

/* The largest rule file read. */
#define RULE_FILE_MAX (64 * 1024)

/* What d/file holds now, into seen; its text into *buf (the caller frees
 * it) when buf is not NULL. Returns its length, 0 when there is no such
 * file, or -errno. */
static ssize_t look(const struct safe_dir *d, const char *file, struct persist_seen *seen, char **buf, char *msg,
		    size_t msglen)
{
	char *text = NULL;
	ssize_t len = safe_read_all(d, file, RULE_FILE_MAX, &text, msg, msglen);

	*seen = (struct persist_seen){ .exists = len >= 0 };
	if (len >= 0) {
		seen->len = (size_t)len;
		seen->crc = crc32c(0, text, (size_t)len);
	}
	if (buf)
		*buf = text;
	else
		free(text);
	return len == -ENOENT ? 0 : len;
}

/* Just past id's rule line head in text, or NULL when text holds no rule
 * for id (another disk's, or none). */
static const char *rule_for(const char *text, const struct persist_id *id)
{
	char head[1024];
	const char *p = strstr(text, "\nACTION==");

	rule_head(id, head, sizeof(head));
	return p && !strncmp(p + 1, head, strlen(head)) ? p + 1 + strlen(head) : NULL;
}

/* id's rule under the name blktune gave it before (legacy_file_name), when
 * that is not file: as look(), with seen->legacy naming it. The old name
 * may be another disk's too: a file there that holds no rule for id (or
 * that cannot be read) is not id's, and is as absent (0). */
static ssize_t look_legacy(const struct safe_dir *d, const char *file, const struct persist_id *id,
			   struct persist_seen *seen, char **buf, char *msg, size_t msglen)
{
	char old[PERSIST_NAME_MAX], *text = NULL;
	ssize_t len = 0;

	legacy_file_name(id, old, sizeof(old));
	if (strcmp(old, file))
		len = look(d, old, seen, &text, msg, msglen);
	if (len <= 0 || !rule_for(text, id)) {
		free(text);
		text = NULL;
		len = 0;
		*seen = (struct persist_seen){ .exists = false };
	} else {
		snprintf(seen->legacy, sizeof(seen->legacy), "%s", old);
	}
	if (buf)
		*buf = text;
	else
		free(text);
	return len;
}

int persist_read(const char *dir, const char *file, const struct persist_id *id, struct persist_setting *set,
		 size_t max, struct persist_seen *seen, char *msg, size_t msglen)
{
	char *buf = NULL;
	struct persist_seen now;
	const char *p;
	struct safe_dir d;
	size_t n = 0;
	ssize_t len;
	int err;

	if (!seen)
		seen = &now;
	*seen = (struct persist_seen){ .exists = false };
	if ((err = safe_dir_open(dir, false, &d, msg, msglen)) < 0)
		return err == -ENOENT ? 0 : err;
	len = look(&d, file, seen, &buf, msg, msglen);
	if (len == 0 && !seen->exists) {
		free(buf);
		len = look_legacy(&d, file, id, seen, &buf, msg, msglen);
	} else if (len >= 0 && seen->exists) {
		/* An older blktune wrote this disk's rule again under the old
		 * name, which sorts after the new one: it would win at boot
		 * over whatever is written here. Neither is chosen for the
		 * user. */
		struct persist_seen old;

		if (look_legacy(&d, file, id, &old, NULL, msg, msglen) > 0) {
			snprintf(msg, msglen,
				 "%s/%s (an older blktune's name) holds this disk's rule too, and would override "
				 "%s at boot: remove one of them",
				 dir, old.legacy, file);
			len = -EEXIST;
		}
	}
	safe_dir_close(&d);
	if (len < 0 || !seen->exists) {
		free(buf);
		return (int)len;
	}
	if (seen->legacy[0])
		file = seen->legacy;
	p = rule_for(buf, id);
	err = p ? 0 : -EINVAL;
	for (; !err && *p && *p != '\n'; n++)
		err = n < max ? parse_setting(&p, &set[n]) : -ENOSPC;
	if (!err && *p && p[1])
		err = -EINVAL; /* something after the rule */
	free(buf);
	if (err)
		snprintf(msg, msglen, "%s/%s is not the rule blktune wrote for this disk%s: left as it is", dir, file,
			 err == -ENOSPC ? " (too many settings)" : "");
	return err ? err : (int)n;
}

/* Put d/tmp in place as d/file if what seen says was read is still so:
 * d/file the same bytes, or absent (then linked, which fails with EEXIST
 * if a file appeared since). A rule read under its old name (seen->legacy)
 * must still be the same bytes there, and d/file absent: the new one is
 * linked in, then the old one removed; if that fails the new one goes
 * again (both would apply). *which names the file an error is about.
 * Returns 0, -ESTALE when one changed, or -errno. */
static int put_in_place(const struct safe_dir *d, const char *tmp, const char *file,
			const struct persist_seen *seen, const char **which, char *msg, size_t msglen)
{
	const char *was = seen && seen->legacy[0] ? seen->legacy : file;
	struct persist_seen now;
	ssize_t len;
	int err;

	*which = was;
	if (!seen)
		return safe_rename(d, tmp, file);
	if (seen->exists) {
		if ((len = look(d, was, &now, NULL, msg, msglen)) < 0 && len != -EFBIG)
			return (int)len;
		if (!now.exists || now.len != seen->len || now.crc != seen->crc)
			return -ESTALE;
		if (was == file)
			return safe_rename(d, tmp, file);
	}
	*which = file;
	if ((err = safe_link(d, tmp, file)) < 0)
		return err == -EEXIST ? -ESTALE : err;
	safe_unlink(d, tmp);
	if (was != file && (err = safe_unlink(d, was)) < 0) {
		*which = was;
		safe_unlink(d, file);
	}
	return err;
}

int persist_write(const char *dir, const char *file, const char *text, const struct persist_seen *seen, char *msg,
		  size_t msglen)
{
	struct safe_dir d;
	char tmp[NAME_MAX + 1];
	const char *which = file;
	size_t len = strlen(text);
	int fd, err = 0;

	if ((err = safe_dir_open(dir, false, &d, msg, msglen)) < 0)
		return err;
	fd = safe_create_tmp(&d, ".blktune-rule", tmp, sizeof(tmp), msg, msglen);
	if (fd < 0) {
		safe_dir_close(&d);
		return fd;
	}
	err = safe_write_all(fd, text, len);
	/* udev rules are world-readable by convention */
	if (!err && (fchmod(fd, 0644) < 0 || fsync(fd) < 0))
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err)
		err = put_in_place(&d, tmp, file, seen, &which, msg, msglen);
	if (err) {
		safe_unlink(&d, tmp);
		if (err == -ESTALE)
			snprintf(msg, msglen, "%s/%s changed since it was read (a hand edit?): left as it is",
				 dir, which);
		else
			snprintf(msg, msglen, "%s/%s: %s", dir, which, strerror(-err));
	} else {
		safe_dir_sync(&d);
	}
	safe_dir_close(&d);
	return err;
}

int persist_remove(const char *dir, const char *file, const struct persist_id *id, char *msg, size_t msglen)
{
	struct persist_seen old;
	struct safe_dir d;
	int err, gone;

	if ((err = safe_dir_open(dir, false, &d, msg, msglen)) < 0)
		return err;
	if ((gone = safe_unlink(&d, file)) < 0 && gone != -ENOENT) {
		snprintf(msg, msglen, "%s/%s: %s", dir, file, strerror(-gone));
		safe_dir_close(&d);
		return gone;
	}
	look_legacy(&d, file, id, &old, NULL, msg, msglen);
	if (old.exists && (err = safe_unlink(&d, old.legacy)) < 0)
		snprintf(msg, msglen, "%s/%s: %s", dir, old.legacy, strerror(-err));
	else if (gone < 0 && !old.exists)
		snprintf(msg, msglen, "no rule to remove: %s/%s: %s", dir, file, strerror(-(err = gone)));
	else
		snprintf(msg, msglen, "removed %s/%s", dir, gone ? old.legacy : file);
	if (!err && !gone && old.exists) {
		size_t off = strlen(msg);

		snprintf(msg + off, msglen - off, " and %s/%s", dir, old.legacy);
	}
	if (!gone || !err)
		safe_dir_sync(&d);
	safe_dir_close(&d);
	return err;
}

const char *persist_rules_dir(void)
{
	const char *d = getenv("BLKTUNE_RULES_DIR");

	return d && *d ? d : PERSIST_RULES_DIR;
}

bool persist_allowed(const struct tunable_def *def)
{
	return def && def->writable && def->type != TUNABLE_TEXT && def->place == TUNABLE_PLACE_DEVICE &&
	       !strncmp(def->path, "queue/", 6);
}
