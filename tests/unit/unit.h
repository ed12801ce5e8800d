/* Shared by the Check unit tests. Each test file registers its suite with
 * UNIT_SUITE(fn): no central list to edit when a module gains tests. */
#ifndef BLKTUNE_UNIT_H
#define BLKTUNE_UNIT_H

#include <check.h>
#include <sys/resource.h>

typedef Suite *(*unit_suite_fn)(void);
void unit_register(unit_suite_fn fn);

#define UNIT_SUITE(fn)                                              \
	static Suite *fn(void);                                     \
	__attribute__((constructor)) static void fn##_register(void) \
	{                                                           \
		unit_register(fn);                                  \
	}

/* Path of a fixture tree (tests/fixtures/<name>), from $BLKTUNE_FIXTURES. */
const char *unit_fixture(const char *name);
/* Copy a fixture tree to a fresh temporary directory (for tests that write);
 * returns a malloc'd path; unit_rmtree removes it. */
char *unit_fixture_copy(const char *name);
void unit_rmtree(const char *path);
/* The disk of a sample called name (a failed check if there is none). */
struct sample;
struct disk_info;
const struct disk_info *unit_disk_info(const struct sample *s, const char *name);
/* A zeroed disk_info for a metrics row a test makes by hand (model_disk
 * points a row at its sample's): set as m->info and returned writable.
 * From a pool of 256 the test run reuses in turn. */
struct disk_metrics;
struct disk_info *unit_row_info(struct disk_metrics *m);
/* m->info, writable: the row's info came from unit_row_info. */
#define UNIT_INFO(m) ((struct disk_info *)(m)->info)
/* The start of a file (up to 8 KiB) as a string in a static buffer, or NULL
 * when it cannot be opened. */
char *unit_slurp(const char *path);
/* Entries of a directory but . and .. */
int unit_count_entries(const char *dir);
/* Descriptors this process has open (a leak check: before and after). */
int unit_count_fds(void);
/* Run body(arg) in a child (for a limit that is the process's): its exit
 * status, 128 + the signal that killed it. */
int unit_in_child(int (*body)(void *), void *arg);
/* In such a child: lower the soft RLIMIT_NOFILE so that exactly one
 * descriptor is free; unit_restore_fds puts it back. 0 or -1. */
int unit_leave_one_fd(void);
int unit_restore_fds(void);
/* In such a child: files may grow to bytes, beyond that write() fails with
 * EFBIG (SIGXFSZ ignored). 0 or -1. */
int unit_limit_file_size(rlim_t bytes);
/* In such a child: the address space may grow by bytes more than it has
 * now; beyond, mmap fails (malloc returns NULL; under ASan the allocator
 * reports it and aborts). 0 or -1. */
int unit_limit_memory(size_t bytes);
/* Write a file (creating parent directories). */
void unit_write_file(const char *path, const char *content);

#endif
