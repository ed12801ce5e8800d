/* root: the only way blktune touches kernel files. Every path is relative to a
 * root directory given at start ("/" on a live system, a captured tree in tests),
 * so each source can be tested on fixture trees. */
#ifndef BLKTUNE_ROOT_H
#define BLKTUNE_ROOT_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct root;

/* Open a root directory. Returns 0 or -errno. */
int root_open(const char *path, struct root **out);
void root_close(struct root *r);
const char *root_path(const struct root *r);
/* True when the root is the live system's "/". */
bool root_is_live(const struct root *r);

/* sysfs spells '/' in device names as '!' (cciss/c0d0 -> cciss!c0d0). */
void root_sysfs_name(const char *name, char *out, size_t outlen);

/* Refuse relative paths that are absolute or contain a ".." component. */
int root_check_path(const char *rel);

/* What root_openat returns (negated) for a FIFO, device or socket where a
 * kernel file should be. */
#define ROOT_ENOTREG EMEDIUMTYPE
/* strerror that also names ROOT_ENOTREG; err may be negative. */
const char *root_strerror(int err);

/* Open rel below the root (symlinks resolved inside it). Files (not O_PATH or
 * O_DIRECTORY) open non-blocking and must be regular files, else
 * -ROOT_ENOTREG. Returns fd or -errno. */
int root_openat(const struct root *r, const char *rel, int flags);
/* Read a whole small file into buf (NUL-terminated, trailing newline kept).
 * Returns the length or -errno. */
ssize_t root_read(const struct root *r, const char *rel, char *buf, size_t size);
/* Read a file as one unsigned/signed number. Returns 0 or -errno. */
int root_read_u64(const struct root *r, const char *rel, unsigned long long *out);
int root_read_s64(const struct root *r, const char *rel, long long *out);
/* Write a value (one write call, as sysfs wants). Returns 0 or -errno. */
int root_write(const struct root *r, const char *rel, const char *val);
/* Read a symlink's target. Returns length or -errno. */
ssize_t root_readlink(const struct root *r, const char *rel, char *buf, size_t size);
/* Read the link called name (one component, no '/') in a directory that
 * root_opendir opened: a listing of links costs one call per entry.
 * Returns length or -errno. */
ssize_t root_readlink_in(DIR *d, const char *name, char *buf, size_t size);
/* Open a directory for listing; NULL with errno set on failure. */
DIR *root_opendir(const struct root *r, const char *rel);
/* True if rel exists below the root. */
bool root_exists(const struct root *r, const char *rel);

/* pread a kept-open file from offset 0 (sysfs re-read). Returns length or -errno. */
ssize_t root_pread(int fd, char *buf, size_t size);
/* The same, parsed as one unsigned number. Returns 0 or -errno. */
int root_pread_u64(int fd, unsigned long long *out);
int root_pread_s64(int fd, long long *out);
/* A file of any length (proc files have no size), read from offset 0 to its
 * end into *buf (NUL-terminated), which grows, doubling from *cap (a NULL
 * *buf starts at 16 KiB), up to max bytes. A short read is not the end: the
 * kernel hands some proc files out a page per read. Returns the length,
 * -EFBIG past max, or -errno; *buf stays the caller's to free. */
ssize_t root_pread_all(int fd, char **buf, size_t *cap, size_t max);
/* The same for a file opened, read whole and closed. */
ssize_t root_read_all(const struct root *r, const char *rel, char **buf, size_t *cap, size_t max);

/* Make or remove a directory below the root (cgroups). Return 0 or -errno. */
int root_mkdir(const struct root *r, const char *rel, mode_t mode);
int root_rmdir(const struct root *r, const char *rel);

#endif
