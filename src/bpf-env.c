#include "bpf-env.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char libbpf_msg[160];
static libbpf_print_fn_t saved_print;

/* libbpf hands us its own format strings: not literals, by design. */
__attribute__((format(printf, 2, 0))) static int capture_print(enum libbpf_print_level level, const char *fmt,
							       va_list ap)
{
	char line[512];
	size_t n;

	if (level != LIBBPF_WARN || libbpf_msg[0])
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strcspn(line, "\n");
	line[n] = '\0';
	if (n)
		snprintf(libbpf_msg, sizeof(libbpf_msg), "%s", strncmp(line, "libbpf: ", 8) ? line : line + 8);
	return 0;
}

void bpf_env_capture_begin(void)
{
	libbpf_msg[0] = '\0';
	saved_print = libbpf_set_print(capture_print);
}

void bpf_env_capture_end(void)
{
	libbpf_set_print(saved_print);
}

const char *bpf_env_message(void)
{
	return libbpf_msg;
}

static bool has_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1U << (cap % 32));
}

int bpf_env_check(const struct root *r, char *why, size_t whylen)
{
	char buf[128];

	if (!root_exists(r, "sys/kernel/btf/vmlinux")) {
		snprintf(why, whylen, "kernel has no BTF (/sys/kernel/btf/vmlinux missing, needs CONFIG_DEBUG_INFO_BTF)");
		return -ENOTSUP;
	}
	if (geteuid() != 0 && !has_cap(CAP_SYS_ADMIN) && !(has_cap(CAP_BPF) && has_cap(CAP_PERFMON))) {
		snprintf(why, whylen, "not root and no CAP_BPF/CAP_PERFMON (setcap cap_bpf,cap_perfmon+ep)");
		return -EPERM;
	}
	if (root_read(r, "sys/kernel/security/lockdown", buf, sizeof(buf)) > 0 && strstr(buf, "[confidentiality]")) {
		snprintf(why, whylen, "kernel lockdown (confidentiality) forbids BPF tracing");
		return -EPERM;
	}
	return 0;
}

void bpf_env_load_error(int err, char *why, size_t whylen)
{
	if (err == -EPERM || err == -EACCES)
		snprintf(why, whylen, "BPF refused (%s)%s%s", strerror(-err), libbpf_msg[0] ? ": " : "",
			 libbpf_msg);
	else
		snprintf(why, whylen, "kernel refused the BPF program: %s",
			 libbpf_msg[0] ? libbpf_msg : strerror(-err));
}

int bpf_env_map_keys(int fd, size_t key_size, void **keys, size_t *n, size_t *cap, size_t max)
{
	char *prev = NULL;

	*n = 0;
	for (;;) {
		char *k;
		if (*n == *cap) {
			size_t c = *cap ? *cap * 2 : 16;
			void *p = realloc(*keys, c * key_size);
			if (!p)
				return -ENOMEM;
			/* prev points into the old array */
			if (prev)
				prev = (char *)p + (size_t)(prev - (char *)*keys);
			*keys = p;
			*cap = c;
		}
		k = (char *)*keys + *n * key_size;
		if (bpf_map_get_next_key(fd, prev, k))
			return errno == ENOENT ? 0 : -errno;
		prev = k;
		/* Entries are never deleted, so the walk cannot restart. */
		if (++*n > max)
			return -EOVERFLOW;
	}
}
