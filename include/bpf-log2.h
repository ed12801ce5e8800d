/* bpf-log2: floor(log2(v)) for the histogram buckets, shared by the BPF
 * programs and the user side that must bucket exactly as they do. Include
 * after __u32/__u64 are defined (linux/types.h, or vmlinux-min.h). */
#ifndef BLKTUNE_BPF_LOG2_H
#define BLKTUNE_BPF_LOG2_H

/* For v >= 1, without loops (the verifier likes straight code). */
static inline __attribute__((always_inline)) __u32 bpf_log2_u64(__u64 v)
{
	__u32 r = 0, s;

	s = (v > 0xffffffffULL) << 5; v >>= s; r |= s;
	s = (v > 0xffffULL) << 4; v >>= s; r |= s;
	s = (v > 0xffULL) << 3; v >>= s; r |= s;
	s = (v > 0xfULL) << 2; v >>= s; r |= s;
	s = (v > 0x3ULL) << 1; v >>= s; r |= s;
	r |= (__u32)(v >> 1);
	return r;
}

#endif
