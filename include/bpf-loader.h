/* bpf-loader: a BPF object loaded by a short-lived helper process, held by
 * its file descriptors. Loading parses the kernel's BTF (several MB): done
 * in a fresh exec of this program (bpf-helper), that growth never reaches
 * the caller's address space. The helper hands back every map and program
 * fd, and a link fd per program it attached, over a unix socket
 * (SCM_RIGHTS), then exits; links stay attached while their fd is open
 * here. The caller reads maps by fd (bpf_map_lookup_elem) and never loads
 * BTF. Everything is looked up by name, so objects can change their maps and
 * programs without this file knowing. */
#ifndef BLKTUNE_BPF_LOADER_H
#define BLKTUNE_BPF_LOADER_H

#include <stddef.h>
#include <stdint.h>

struct bpf_loaded;

/* Load `object` (a name bpf-helper knows: "blktune", "readahead") in a
 * helper and attach every program it loaded except those named in `defer`
 * (NULL-terminated, may be NULL): those can be attached later with
 * bpf_loaded_attach. Returns 0 or -errno with one line in why (the helper's
 * own reason, or why the helper failed: died, killed, sent no fds). The
 * helper is /proc/self/exe, or $BLKTUNE_BPF_HELPER (tests; ignored when
 * running set-id or with file capabilities). */
int bpf_loader_open(const char *object, const char *const *defer, struct bpf_loaded **out, char *why,
		    size_t whylen);
/* Detach (close the links) and drop every fd. NULL is fine. */
void bpf_loaded_close(struct bpf_loaded *l);

/* fd of the map called name, or -ENOENT. */
int bpf_loaded_map_fd(const struct bpf_loaded *l, const char *name);
/* Programs the object loaded (not those it left out), in the object's order. */
size_t bpf_loaded_nprogs(const struct bpf_loaded *l);
const char *bpf_loaded_prog_name(const struct bpf_loaded *l, size_t i);
int bpf_loaded_prog_fd(const struct bpf_loaded *l, size_t i);
/* Index of the program called name, or -ENOENT (not in the object, or left
 * out by it, e.g. its tracepoint is missing). */
int bpf_loaded_prog_find(const struct bpf_loaded *l, const char *name);
/* Attach or detach program i; attach of an attached one is a no-op.
 * Returns 0 or -errno. */
int bpf_loaded_attach(struct bpf_loaded *l, size_t i);
void bpf_loaded_detach(struct bpf_loaded *l, size_t i);
int bpf_loaded_attached(const struct bpf_loaded *l, size_t i);

/* The helper's side of the socket: what it sends. */
enum bpf_loader_kind { BPF_LOADER_MAP = 1, BPF_LOADER_PROG, BPF_LOADER_LINK };
#define BPF_LOADER_MAX 64
#define BPF_LOADER_NAME 48
#define BPF_LOADER_MAGIC 0x62706c31u /* "bpl1" */
struct bpf_loader_entry {
	uint32_t kind;        /* enum bpf_loader_kind */
	uint32_t attach_type; /* programs: what bpf_link_create needs */
	char name[BPF_LOADER_NAME]; /* a link's name is its program's */
};
struct bpf_loader_reply {
	uint32_t magic;
	int32_t err;   /* 0 or -errno: then why says it and there are no fds */
	char why[160];
	uint32_t n;    /* entries, and fds in the message in the same order */
	struct bpf_loader_entry e[BPF_LOADER_MAX];
};
/* Send the reply with fds[0..r->n) in one message. Returns 0 or -errno. */
int bpf_loader_send(int sock, const struct bpf_loader_reply *r, const int *fds);
/* Receive and check one reply on sock: every entry's fd arrived, names are
 * terminated, kinds known, each link names a program before it. Returns 0
 * (then *out holds the fds), -EPIPE (nothing came: the helper died), or
 * -EPROTO with why (a malformed reply; every fd that came is closed), or the
 * helper's own error with its why. */
int bpf_loader_recv(int sock, struct bpf_loaded **out, char *why, size_t whylen);

#endif
