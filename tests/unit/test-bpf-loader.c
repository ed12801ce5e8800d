/* bpf-loader: the reply a helper sends, well-formed and not, and helpers that
 * die. The fds handed over are ordinary files here (/dev/null, pipes): the
 * protocol does not care what they are. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf-loader.h"
#include "unit.h"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static struct bpf_loader_reply *reply(void)
{
	struct bpf_loader_reply *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	r->magic = BPF_LOADER_MAGIC;
	return r;
}

static void entry(struct bpf_loader_reply *r, enum bpf_loader_kind kind, const char *name, uint32_t type)
{
	r->e[r->n].kind = kind;
	r->e[r->n].attach_type = type;
	snprintf(r->e[r->n].name, sizeof(r->e[r->n].name), "%s", name);
	r->n++;
}

/* Send len bytes of r with nfds fds (which may disagree with r->n), then
 * close the sender's copies and end: returns the receiving socket. */
static int send_raw(const struct bpf_loader_reply *r, size_t len, int *fds, size_t nfds)
{
	char ctl[CMSG_SPACE(sizeof(int) * BPF_LOADER_MAX)] = { 0 };
	struct iovec iov = { .iov_base = (void *)r, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	if (nfds) {
		struct cmsghdr *c;

		msg.msg_control = ctl;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	ck_assert_int_eq(sendmsg(sv[1], &msg, 0), (ssize_t)len);
	for (size_t i = 0; i < nfds; i++)
		close(fds[i]);
	close(sv[1]);
	return sv[0];
}

static void devnulls(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		ck_assert_int_ge(fds[i], 0);
	}
}

START_TEST(maps_programs_and_links_by_name)
{
	struct bpf_loader_reply *r = reply();
	struct bpf_loaded *l;
	int fds[5], pipes[2][2], before = open_fds(), sock, sv[2];
	struct stat want, got;
	char why[160] = "";

	devnulls(fds, 3);
	ck_assert_int_eq(pipe(pipes[0]), 0);
	close(pipes[0][1]);
	fds[3] = pipes[0][0];
	ck_assert_int_eq(fstat(fds[3], &want), 0);
	ck_assert_int_eq(pipe(pipes[1]), 0);
	close(pipes[1][1]);
	fds[4] = pipes[1][0];
	entry(r, BPF_LOADER_MAP, "devs", 0);
	entry(r, BPF_LOADER_PROG, "rq_complete", 26);
	entry(r, BPF_LOADER_PROG, "bio_queue", 26);
	entry(r, BPF_LOADER_MAP, "globals", 0);
	entry(r, BPF_LOADER_LINK, "rq_complete", 0);
	/* through the helper's own send */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	ck_assert_int_eq(bpf_loader_send(sv[1], r, fds), 0);
	for (int i = 0; i < 5; i++)
		close(fds[i]);
	close(sv[1]);
	sock = sv[0];
	ck_assert_int_eq(bpf_loader_recv(sock, &l, why, sizeof(why)), 0);
	close(sock);
	ck_assert_int_ge(bpf_loaded_map_fd(l, "globals"), 0);
	/* globals is the fourth entry: the first pipe */
	ck_assert_int_eq(fstat(bpf_loaded_map_fd(l, "globals"), &got), 0);
	ck_assert(got.st_ino == want.st_ino && got.st_dev == want.st_dev);
	ck_assert_int_eq(bpf_loaded_map_fd(l, "nosuch"), -ENOENT);
	ck_assert_uint_eq(bpf_loaded_nprogs(l), 2);
	ck_assert_int_eq(bpf_loaded_prog_find(l, "bio_queue"), 1);
	ck_assert_str_eq(bpf_loaded_prog_name(l, 1), "bio_queue");
	ck_assert_int_eq(bpf_loaded_prog_find(l, "bio_complete"), -ENOENT);
	ck_assert(bpf_loaded_attached(l, 0));
	ck_assert(!bpf_loaded_attached(l, 1));
	/* what came is not inherited by the next helper */
	ck_assert_int_eq(fcntl(bpf_loaded_map_fd(l, "devs"), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	/* a program fd that is no BPF program: the kernel refuses the link */
	ck_assert_int_lt(bpf_loaded_attach(l, 1), 0);
	ck_assert(!bpf_loaded_attached(l, 1));
	bpf_loaded_detach(l, 0);
	ck_assert(!bpf_loaded_attached(l, 0));
	ck_assert_int_eq(bpf_loaded_attach(l, 0) < 0, 1);
	bpf_loaded_close(l);
	ck_assert_int_eq(open_fds(), before);
	free(r);
}
END_TEST

/* Each malformed reply: -EPROTO, a reason naming it, nothing kept open. */
static void refused(struct bpf_loader_reply *r, size_t len, size_t nfds, const char *reason)
{
	int fds[BPF_LOADER_MAX], before = open_fds(), sock;
	struct bpf_loaded *l = (struct bpf_loaded *)1;
	char why[160] = "";

	devnulls(fds, nfds);
	sock = send_raw(r, len, fds, nfds);
	ck_assert_int_eq(bpf_loader_recv(sock, &l, why, sizeof(why)), -EPROTO);
	close(sock);
	ck_assert_ptr_null(l);
	ck_assert_msg(strstr(why, reason), "why \"%s\" lacks \"%s\"", why, reason);
	ck_assert_int_eq(open_fds(), before);
	free(r);
}

START_TEST(fewer_fds_than_entries)
{
	struct bpf_loader_reply *r = reply();

	entry(r, BPF_LOADER_MAP, "devs", 0);
	entry(r, BPF_LOADER_PROG, "rq_complete", 26);
	entry(r, BPF_LOADER_LINK, "rq_complete", 0);
	refused(r, sizeof(*r), 1, "sent 1 of 3 descriptors");
}
END_TEST

START_TEST(more_fds_than_entries)
{
	struct bpf_loader_reply *r = reply();

	entry(r, BPF_LOADER_MAP, "devs", 0);
	refused(r, sizeof(*r), 2, "sent 2 of 1 descriptors");
}
END_TEST

START_TEST(link_before_its_program)
{
	struct bpf_loader_reply *r = reply();

	entry(r, BPF_LOADER_LINK, "rq_complete", 0);
	entry(r, BPF_LOADER_PROG, "rq_complete", 26);
	refused(r, sizeof(*r), 2, "link for rq_complete without its program");
}
END_TEST

START_TEST(two_links_for_one_program)
{
	struct bpf_loader_reply *r = reply();

	entry(r, BPF_LOADER_PROG, "rq_complete", 26);
	entry(r, BPF_LOADER_LINK, "rq_complete", 0);
	entry(r, BPF_LOADER_LINK, "rq_complete", 0);
	refused(r, sizeof(*r), 3, "two links for rq_complete");
}
END_TEST

START_TEST(unknown_kind)
{
	struct bpf_loader_reply *r = reply();

	entry(r, BPF_LOADER_MAP, "devs", 0);
	r->e[0].kind = 9;
	refused(r, sizeof(*r), 1, "unknown kind 9");
}
END_TEST

START_TEST(unterminated_name)
{
	struct bpf_loader_reply *r = reply();

	entry(r, BPF_LOADER_MAP, "devs", 0);
	memset(r->e[0].name, 'x', sizeof(r->e[0].name));
	refused(r, sizeof(*r), 1, "unterminated entry 0");
}
END_TEST

START_TEST(empty_name)
{
	struct bpf_loader_reply *r = reply();

	entry(r, BPF_LOADER_MAP, "", 0);
	refused(r, sizeof(*r), 1, "unnamed");
}
END_TEST

START_TEST(bad_magic_short_and_too_many)
{
	struct bpf_loader_reply *r = reply();

	r->magic = 0x12345678;
	refused(r, sizeof(*r), 0, "malformed reply");
	r = reply();
	entry(r, BPF_LOADER_MAP, "devs", 0);
	refused(r, sizeof(*r) - 1, 1, "malformed reply");
	r = reply();
	r->n = BPF_LOADER_MAX + 1;
	refused(r, sizeof(*r), 0, "malformed reply");
}
END_TEST

/* The helper's own failure: its reason, its error, and fds it should not
 * have sent are closed. The reason is cut to what fits, terminated. */
START_TEST(helper_error_passes_through)
{
	struct bpf_loader_reply *r = reply();
	struct bpf_loaded *l;
	int fds[1], before = open_fds(), sock;
	char why[160] = "", small[8];

	r->err = -EPERM;
	snprintf(r->why, sizeof(r->why), "BPF refused (Operation not permitted)");
	entry(r, BPF_LOADER_MAP, "devs", 0);
	devnulls(fds, 1);
	sock = send_raw(r, sizeof(*r), fds, 1);
	ck_assert_int_eq(bpf_loader_recv(sock, &l, why, sizeof(why)), -EPERM);
	close(sock);
	ck_assert_str_eq(why, "BPF refused (Operation not permitted)");
	ck_assert_int_eq(open_fds(), before);
	memset(r->why, 'y', sizeof(r->why));
	r->n = 0;
	r->err = 5; /* not an -errno: still a failure */
	sock = send_raw(r, sizeof(*r), NULL, 0);
	ck_assert_int_eq(bpf_loader_recv(sock, &l, small, sizeof(small)), -EPROTO);
	close(sock);
	ck_assert_str_eq(small, "yyyyyyy");
	free(r);
}
END_TEST

START_TEST(nothing_came)
{
	struct bpf_loaded *l;
	char why[160] = "";
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	close(sv[1]);
	ck_assert_int_eq(bpf_loader_recv(sv[0], &l, why, sizeof(why)), -EPIPE);
	ck_assert_ptr_null(l);
	close(sv[0]);
}
END_TEST

/* Helpers that end without a reply: the reason says how they ended. */
static void helper_fails(const char *script, const char *const *defer, int want_err, const char *reason)
{
	char path[] = "/tmp/blktune-unit-helperXXXXXX", why[160] = "";
	struct bpf_loaded *l = (struct bpf_loaded *)1;
	int fd = mkstemp(path), before;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, script, strlen(script)), (ssize_t)strlen(script));
	ck_assert_int_eq(fchmod(fd, 0700), 0);
	close(fd);
	before = open_fds();
	setenv("BLKTUNE_BPF_HELPER", path, 1);
	ck_assert_int_eq(bpf_loader_open("blktune", defer, &l, why, sizeof(why)), want_err);
	unsetenv("BLKTUNE_BPF_HELPER");
	unlink(path);
	ck_assert_ptr_null(l);
	ck_assert_msg(strstr(why, reason), "why \"%s\" lacks \"%s\"", why, reason);
	ck_assert_int_eq(open_fds(), before);
}

START_TEST(helper_killed)
{
	helper_fails("#!/bin/sh\nkill -9 $$\n", NULL, -EPIPE, "BPF helper killed by signal 9");
}
END_TEST

START_TEST(helper_exits)
{
	helper_fails("#!/bin/sh\nexit 3\n", NULL, -EPIPE, "BPF helper exited with status 3 and no reply");
}
END_TEST

START_TEST(helper_gets_its_arguments)
{
	static const char *const defer[] = { "bio_queue", "bio_complete", NULL };

	/* object, socket fd, then the programs to leave detached */
	helper_fails("#!/bin/sh\n[ \"$1 $2 $4 $5\" = '--bpf-helper blktune bio_queue bio_complete' ] && [ -S /proc/self/fd/$3 ] "
		     "&& exit 4\nexit 5\n",
		     defer, -EPIPE, "status 4");
}
END_TEST

START_TEST(helper_not_executable)
{
	helper_fails("", NULL, -EPIPE, "status 127");
}
END_TEST

UNIT_SUITE(bpf_loader_suite)
static Suite *bpf_loader_suite(void)
{
	Suite *s = suite_create("bpf-loader");
	TCase *tc = tcase_create("reply");
	TCase *th = tcase_create("helper");

	tcase_add_test(tc, maps_programs_and_links_by_name);
	tcase_add_test(tc, fewer_fds_than_entries);
	tcase_add_test(tc, more_fds_than_entries);
	tcase_add_test(tc, link_before_its_program);
	tcase_add_test(tc, two_links_for_one_program);
	tcase_add_test(tc, unknown_kind);
	tcase_add_test(tc, unterminated_name);
	tcase_add_test(tc, empty_name);
	tcase_add_test(tc, bad_magic_short_and_too_many);
	tcase_add_test(tc, helper_error_passes_through);
	tcase_add_test(tc, nothing_came);
	tcase_add_test(th, helper_killed);
	tcase_add_test(th, helper_exits);
	tcase_add_test(th, helper_gets_its_arguments);
	tcase_add_test(th, helper_not_executable);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, th);
	return s;
}
