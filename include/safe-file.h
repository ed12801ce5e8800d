/* safe-file: the files blktune, running as root, writes or trusts in a
 * directory someone names (the tunables journal, snapshots, sweep --dir).
 * The rules are those of ssh and sudo:
 *   - the directory is owned by the running uid and not writable by group or
 *     others; every directory above it is owned by root or the running uid and
 *     not writable by group or others unless sticky (/tmp). The chain checked
 *     is the real one (symlinks resolved), and everything afterwards goes
 *     through the directory's descriptor, so a path changed later changes
 *     nothing;
 *   - a file is opened with O_NOFOLLOW and O_NONBLOCK (a symlink, a FIFO or a
 *     device never hangs, and is never read or written), then must be a
 *     regular file with one link, owned by the running uid and not writable by
 *     group or others;
 *   - a temporary file is a new one (O_CREAT|O_EXCL, unique name).
 * A refusal is -EPERM with the reason in one line in msg; other failures are
 * -errno. */
#ifndef BLKTUNE_SAFE_FILE_H
#define BLKTUNE_SAFE_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct safe_dir {
	int fd;
	char path[PATH_MAX]; /* as given, for messages and paths shown to people */
};

/* Check dir as above; create: make it (and missing parents) 0700 first.
 * Returns 0, -EPERM when it is not safe, -ENOENT when it does not exist and
 * create is false, or -errno; msg names the path and the reason. */
int safe_dir_check(const char *dir, bool create, char *msg, size_t msg_size);
/* safe_dir_check, then open it. d->fd is -1 after a failure. */
int safe_dir_open(const char *dir, bool create, struct safe_dir *d, char *msg, size_t msg_size);
void safe_dir_close(struct safe_dir *d);
/* fsync the directory (after a create, rename or unlink). */
int safe_dir_sync(const struct safe_dir *d);

/* Open name in d with flags (O_RDONLY, O_RDWR, O_WRONLY, O_APPEND, O_CREAT,
 * O_EXCL; created 0600) under the rules above. Returns the descriptor
 * (blocking, close-on-exec) or -errno; -ENOENT when it does not exist. */
int safe_open(const struct safe_dir *d, const char *name, int flags, char *msg, size_t msg_size);
int safe_open_read(const struct safe_dir *d, const char *name, char *msg, size_t msg_size);
/* Read the whole file into a malloc'd, NUL-terminated buffer. Returns the
 * length, -EFBIG past max bytes, or -errno. */
ssize_t safe_read_all(const struct safe_dir *d, const char *name, size_t max, char **buf, char *msg,
		      size_t msg_size);
/* Create a new file "PREFIX.XXXXXX" (O_CREAT|O_EXCL, 0600); its name goes to
 * name. Returns the descriptor or -errno. The caller unlinks or renames it. */
int safe_create_tmp(const struct safe_dir *d, const char *prefix, char *name, size_t name_size, char *msg,
		    size_t msg_size);
/* write() until all len bytes are written (a short write goes on, EINTR
 * is retried). Returns 0 or -errno (-EIO if write wrote nothing). */
int safe_write_all(int fd, const void *buf, size_t len);
/* renameat within d (replaces to). Returns 0 or -errno. */
int safe_rename(const struct safe_dir *d, const char *from, const char *to);
/* linkat within d: never replaces (-EEXIST). Returns 0 or -errno. */
int safe_link(const struct safe_dir *d, const char *from, const char *to);
/* unlinkat within d. Returns 0 or -errno (-ENOENT when absent). */
int safe_unlink(const struct safe_dir *d, const char *name);
/* Write path's file whole through write(f, arg): the directory of path must
 * be safe (safe_dir_open, not created), the data goes to a new temporary
 * file there, is fsynced and renamed over path (a link at path is replaced,
 * never followed), and the directory fsynced. Returns 0, write's -errno, or
 * -errno; msg says what failed (path included). */
int safe_save(const char *path, int (*write)(FILE *f, const void *arg), const void *arg, char *msg,
	      size_t msg_size);
/* Take (or drop) flock's exclusive lock on the directory itself: every writer
 * of temporary files in it holds it while one exists, so a temporary file
 * found under the lock is one a killed writer left. Blocks. 0 or -errno. */
int safe_dir_lock(const struct safe_dir *d);
int safe_dir_unlock(const struct safe_dir *d);
/* Under that lock: remove what a killed writer left, the regular files named
 * "PREFIX.XXXXXXXX" (safe_create_tmp's names). A link of such a name is
 * removed itself (never followed); anything else (a directory, a FIFO,
 * another name) is left. Returns how many were removed, or -errno. */
int safe_remove_stale(const struct safe_dir *d, const char *prefix);

#endif
