// SPDX-License-Identifier: GPL-2.0
/* blktune's readahead mode, kernel side (ARCHITECTURE.md §4): which pages the
 * kernel read ahead, and what became of each one. Loaded only while the mode
 * is on: every program here fires on page-cache events of every file.
 *
 * Per task, the last readahead request: page_cache_sync_ra names the pages a
 * reader waits for (demand), page_cache_async_ra a readahead ahead of it; a
 * window opens at page_cache_ra_unbounded [index, +nr_to_read) or
 * page_cache_ra_order [index, +size) and lasts until that task's next read,
 * fault or fault-around. A page added to the page cache by that task inside
 * the window and outside the demand is a readahead page; its bit is set in a
 * per-(dev, ino, index >> 6) bitmap. The first of these events clears it and
 * decides its fate: get_pages or fault (hit), map_pages (mapped), removal from
 * the page cache (waste). Bits are changed with atomic fetch-and/or, so two
 * CPUs never both count a page: pages = hit + mapped + waste + bits still set
 * (+ dropped), exactly. Counters are per-CPU, cumulative, never drained. */
#include "vmlinux-ra.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "readahead-bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* log2 of the kernel's page size, set by user space before load. */
const volatile __u32 page_shift = 12;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, RA_MAX_DEVS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct ra_dev_cpu);
} ra_devs SEC(".maps");

/* A plain hash, not an LRU one: an LRU map would evict entries whose pages
 * are still unread without telling anyone. Here an insert into a full map
 * fails and its pages are counted as dropped. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RA_MAX_BLOCKS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct ra_block_key);
	__type(value, struct ra_block);
} ra_blocks SEC(".maps");

#define T_WIN 1     /* a window is open */
#define T_ASYNC 2   /* it was triggered by page_cache_async_ra */
#define T_DEMAND 4  /* [dem_lo, dem_hi) is what the reader waits for */
#define T_FAULT 8   /* the demand is a faulting page */
#define T_READ 16   /* rd_* describe the task's last get_pages; kept by the others */

struct ra_task {
	__u64 ino;
	__u32 dev, flags;
	__u64 win_lo, win_hi, dem_lo, dem_hi;
	/* A read() larger than one batch calls get_pages again with a later
	 * index and the same last page: counted once. */
	__u64 rd_ino, rd_first, rd_last, rd_index;
	__u32 rd_dev, pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ra_task);
} ra_tasks SEC(".maps");

#define ADD(field, n) __sync_fetch_and_add(&(field), (n))

/* Initial value of a device entry: too big for the BPF stack. */
struct ra_dev_cpu ra_zero = {};

static __always_inline struct ra_dev_cpu *dev_slot(__u32 dev)
{
	struct ra_dev_cpu *v = bpf_map_lookup_elem(&ra_devs, &dev);

	if (v)
		return v;
	/* Another CPU may add the same device at the same time: EEXIST is fine.
	 * A full map (4096 filesystems) loses the event. */
	bpf_map_update_elem(&ra_devs, &dev, &ra_zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&ra_devs, &dev);
}

static __always_inline struct ra_task *task_state(bool create)
{
	return bpf_task_storage_get(&ra_tasks, bpf_get_current_task_btf(), 0,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

static __always_inline __u32 inode_dev(struct inode *inode)
{
	return BPF_CORE_READ(inode, i_sb, s_dev);
}

static __always_inline __u64 folio_pages(struct folio *folio)
{
	unsigned long flags;

	if (bpf_core_type_exists(memdesc_flags_t))
		flags = BPF_CORE_READ(folio, flags.f);
	else
		flags = BPF_CORE_READ((struct folio___ulong *)folio, flags);
	if (!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))))
		return 1;
	return 1ULL << (BPF_CORE_READ(folio, _flags_1) & 0xff);
}

/* Set `mask` in a block; returns how many of its bits were newly set, or -1
 * when the map has no room (the caller counts them as dropped). A CPU that
 * empties a block deletes it (clear_bits): if that CPU has marked the entry
 * dying, bits set here may vanish with it, so they are taken back and set
 * again in the entry that replaces it. */
static __always_inline int set_bits(struct ra_block_key *key, __u64 mask)
{
	__u64 want = mask;
	int counted = -1;

	for (int try = 0; try < 4 && want; try++) {
		struct ra_block *e = bpf_map_lookup_elem(&ra_blocks, key);
		__u64 old, newly;

		if (!e) {
			struct ra_block v = { .bits = want };
			long err = bpf_map_update_elem(&ra_blocks, key, &v, BPF_NOEXIST);

			if (!err)
				return counted < 0 ? (int)ra_popcount(want) : counted;
			if (err == -17 /* EEXIST: another CPU inserted it */)
				continue;
			break;
		}
		old = __sync_fetch_and_or(&e->bits, want);
		newly = want & ~old;
		if (counted < 0)
			counted = (int)ra_popcount(newly);
		if (!__sync_fetch_and_add(&e->dying, 0))
			return counted;
		want = __sync_fetch_and_and(&e->bits, ~newly) & newly;
	}
	return want ? -1 : counted;
}

/* Clear `mask` in a block; returns the bits that were set. The CPU that
 * empties a block deletes it, unless a concurrent set_bits got in first:
 * each side writes, then reads the other's word (atomic operations are full
 * barriers), so at least one of them sees the other. */
static __always_inline __u64 clear_bits(struct ra_block_key *key, __u64 mask)
{
	struct ra_block *e = bpf_map_lookup_elem(&ra_blocks, key);
	__u64 old;

	if (!e)
		return 0;
	old = __sync_fetch_and_and(&e->bits, ~mask);
	if (!(old & mask) || (old & ~mask))
		return old & mask;
	if (__sync_val_compare_and_swap(&e->dying, 0, 1) != 0)
		return old & mask;
	if (__sync_fetch_and_or(&e->bits, 0) == 0)
		bpf_map_delete_elem(&ra_blocks, key);
	else
		__sync_fetch_and_and(&e->dying, 0);
	return old & mask;
}

/* Clear the pages [lo, hi) of a file, at most `maxblk` blocks; returns how
 * many were set. */
static __always_inline __u64 clear_range(__u32 dev, __u64 ino, __u64 lo, __u64 hi, int maxblk)
{
	struct ra_block_key key = { .ino = ino, .dev = dev };
	__u64 n = 0, b = lo >> RA_BLOCK_SHIFT;

	for (int i = 0; i < maxblk; i++, b++) {
		if (b << RA_BLOCK_SHIFT >= hi)
			break;
		key.blk = b;
		n += ra_popcount(clear_bits(&key, ra_range_mask(b, lo, hi)));
	}
	return n;
}

static __always_inline bool same_file(const struct ra_task *t, __u32 dev, __u64 ino)
{
	return t->dev == dev && t->ino == ino;
}

static __always_inline void set_file(struct ra_task *t, __u32 dev, __u64 ino)
{
	t->dev = dev;
	t->ino = ino;
}

SEC("tp_btf/page_cache_sync_ra")
int BPF_PROG(sync_ra, struct inode *inode, pgoff_t index, struct file_ra_state *ra,
	     unsigned long req_count)
{
	__u32 dev = inode_dev(inode);
	__u64 ino = BPF_CORE_READ(inode, i_ino);
	struct ra_dev_cpu *v = dev_slot(dev);
	struct ra_task *t = task_state(true);

	if (v)
		ADD(v->sync_triggers, 1);
	if (!t)
		return 0;
	/* A fault on a madvise(MADV_SEQUENTIAL) mapping asks for ra_pages from
	 * the faulting page: only that page is demand. */
	if ((t->flags & T_FAULT) && same_file(t, dev, ino) && t->dem_lo == index) {
		t->flags = (t->flags & T_READ) | T_DEMAND | T_FAULT;
		return 0;
	}
	set_file(t, dev, ino);
	t->dem_lo = index;
	t->dem_hi = index + req_count;
	t->flags = (t->flags & T_READ) | T_DEMAND;
	return 0;
}

SEC("tp_btf/page_cache_async_ra")
int BPF_PROG(async_ra, struct inode *inode, pgoff_t index, struct file_ra_state *ra,
	     unsigned long req_count)
{
	__u32 dev = inode_dev(inode);
	struct ra_dev_cpu *v = dev_slot(dev);
	struct ra_task *t = task_state(true);

	if (v)
		ADD(v->async_triggers, 1);
	if (!t)
		return 0;
	set_file(t, dev, BPF_CORE_READ(inode, i_ino));
	t->flags = (t->flags & T_READ) | T_ASYNC;
	return 0;
}

static __always_inline void open_window(struct inode *inode, __u64 lo, __u64 n)
{
	__u32 dev = inode_dev(inode);
	__u64 ino = BPF_CORE_READ(inode, i_ino);
	struct ra_task *t = task_state(true);
	struct ra_dev_cpu *v;

	if (!t || !n)
		return;
	/* page_cache_ra_order falls back to page_cache_ra_unbounded for the
	 * rest of its own window: the same window, not a second one. */
	if ((t->flags & T_WIN) && same_file(t, dev, ino) && lo >= t->win_lo && lo + n <= t->win_hi)
		return;
	if (!same_file(t, dev, ino)) {
		set_file(t, dev, ino);
		t->flags &= T_READ;
	}
	t->win_lo = lo;
	t->win_hi = lo + n;
	t->flags |= T_WIN;
	v = dev_slot(dev);
	if (!v)
		return;
	ADD(v->windows, 1);
	ADD(v->window_pages, n);
	ADD(v->win_hist[ra_win_bucket(n) & (RA_WIN_BUCKETS - 1)], 1);
}

SEC("tp_btf/page_cache_ra_unbounded")
int BPF_PROG(ra_unbounded, struct inode *inode, pgoff_t index, unsigned long nr_to_read,
	     unsigned long lookahead_size)
{
	open_window(inode, index, nr_to_read);
	return 0;
}

SEC("tp_btf/page_cache_ra_order")
int BPF_PROG(ra_order, struct inode *inode, pgoff_t index, struct file_ra_state *ra)
{
	open_window(inode, index, BPF_CORE_READ(ra, size));
	return 0;
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(add_to_page_cache, struct folio *folio)
{
	struct ra_task *t = task_state(false);
	struct ra_block_key key = {};
	struct inode *inode;
	__u64 idx, end, b, demand = 0, ra = 0, dropped = 0;
	struct ra_dev_cpu *v;
	__u32 flags;

	/* Most page-cache insertions (writes, other tasks) end here. */
	if (!t || !(t->flags & (T_WIN | T_DEMAND)))
		return 0;
	inode = BPF_CORE_READ(folio, mapping, host);
	key.dev = inode_dev(inode);
	key.ino = BPF_CORE_READ(inode, i_ino);
	if (!same_file(t, key.dev, key.ino))
		return 0;
	flags = t->flags;
	idx = BPF_CORE_READ(folio, index);
	end = idx + folio_pages(folio);
	b = idx >> RA_BLOCK_SHIFT;
	for (int i = 0; i < RA_FOLIO_BLOCKS; i++, b++) {
		__u64 m, d = 0, r = 0;
		int n;

		if (b << RA_BLOCK_SHIFT >= end)
			break;
		m = ra_range_mask(b, idx, end);
		if (flags & T_DEMAND)
			d = m & ra_range_mask(b, t->dem_lo, t->dem_hi);
		if (flags & T_WIN)
			r = m & ra_range_mask(b, t->win_lo, t->win_hi) & ~d;
		demand += ra_popcount(d);
		if (!r)
			continue;
		key.blk = b;
		n = set_bits(&key, r);
		if (n < 0) {
			ra += ra_popcount(r);
			dropped += ra_popcount(r);
		} else {
			ra += n;
		}
	}
	if (!demand && !ra)
		return 0;
	v = dev_slot(key.dev);
	if (!v)
		return 0;
	if (demand)
		ADD(v->demand, demand);
	if (ra) {
		if (flags & T_ASYNC)
			ADD(v->async_pages, ra);
		else
			ADD(v->sync_pages, ra);
	}
	if (dropped)
		ADD(v->dropped, dropped);
	return 0;
}

SEC("tp_btf/mm_filemap_get_pages")
int BPF_PROG(get_pages, struct address_space *mapping, pgoff_t index, pgoff_t last_index)
{
	struct inode *inode = BPF_CORE_READ(mapping, host);
	__u32 dev = inode_dev(inode);
	__u64 ino = BPF_CORE_READ(inode, i_ino);
	__u64 size = BPF_CORE_READ(inode, i_size), eof, end, first, lo, hi, hits;
	struct ra_task *t = task_state(true);
	struct ra_dev_cpu *v;
	bool same, cont;
	int clamped = 0;

	if (!t)
		return 0;
	t->flags &= ~(T_WIN | T_ASYNC | T_DEMAND | T_FAULT);
	/* The range is what read() asked for; pages beyond EOF are not read. */
	eof = size > 0 ? ((__u64)size - 1) >> page_shift : 0;
	end = (last_index < eof ? last_index : eof) + 1;
	if (size <= 0 || index >= end)
		return 0;
	same = (t->flags & T_READ) && t->rd_dev == dev && t->rd_ino == ino;
	cont = same && t->rd_last == last_index && index > t->rd_index;
	/* A call whose last folio is still locked by read I/O returns the other
	 * folios without firing this tracepoint (filemap_get_pages' err path).
	 * Within one read(), the pages of such calls lie between the previous
	 * event's index and this one's: walk again from there. When it was the
	 * first call of a read(), its start is only known for a run of
	 * same-size sequential reads (dd, cp, cat): the next read starts right
	 * after the previous one and ends as far beyond it. */
	if (cont)
		first = t->rd_first;
	else if (same && index > t->rd_last + 1 && index <= last_index &&
		 last_index == t->rd_last + (t->rd_last - t->rd_first + 1))
		first = t->rd_last + 1;
	else
		first = index;
	lo = cont ? t->rd_index : first;
	hi = end;
	if (hi - lo > (__u64)RA_READ_BLOCKS << RA_BLOCK_SHIFT) {
		hi = (lo & ~(__u64)(RA_BLOCK_PAGES - 1)) + ((__u64)RA_READ_BLOCKS << RA_BLOCK_SHIFT);
		clamped = 1;
	}
	hits = clear_range(dev, ino, lo, hi, RA_READ_BLOCKS);
	t->rd_dev = dev;
	t->rd_ino = ino;
	t->rd_last = last_index;
	t->rd_first = first;
	t->rd_index = index;
	t->flags |= T_READ;
	v = dev_slot(dev);
	if (!v)
		return 0;
	if (!cont)
		ADD(v->read_pages, end - first);
	if (hits)
		ADD(v->hit, hits);
	if (clamped && !cont)
		ADD(v->clamped, 1);
	return 0;
}

SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(fault, struct address_space *mapping, pgoff_t index)
{
	struct inode *inode = BPF_CORE_READ(mapping, host);
	__u32 dev = inode_dev(inode);
	__u64 ino = BPF_CORE_READ(inode, i_ino), hits;
	struct ra_task *t = task_state(true);
	struct ra_dev_cpu *v;

	/* The faulting page is demand if the read-around that follows adds it. */
	if (t) {
		set_file(t, dev, ino);
		t->dem_lo = index;
		t->dem_hi = index + 1;
		t->flags = (t->flags & T_READ) | T_DEMAND | T_FAULT;
	}
	hits = clear_range(dev, ino, index, index + 1, 1);
	v = dev_slot(dev);
	if (!v)
		return 0;
	ADD(v->read_pages, 1);
	if (hits)
		ADD(v->hit, hits);
	return 0;
}

SEC("tp_btf/mm_filemap_map_pages")
int BPF_PROG(map_pages, struct address_space *mapping, pgoff_t start, pgoff_t last)
{
	struct inode *inode = BPF_CORE_READ(mapping, host);
	__u32 dev = inode_dev(inode);
	struct ra_task *t = task_state(false);
	struct ra_dev_cpu *v;
	__u64 n;

	if (t)
		t->flags &= ~(T_WIN | T_ASYNC | T_DEMAND | T_FAULT);
	n = clear_range(dev, BPF_CORE_READ(inode, i_ino), start, last + 1, RA_FOLIO_BLOCKS);
	if (!n)
		return 0;
	v = dev_slot(dev);
	if (v)
		ADD(v->mapped, n);
	return 0;
}

SEC("tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(delete_from_page_cache, struct folio *folio)
{
	struct inode *inode = BPF_CORE_READ(folio, mapping, host);
	__u64 idx = BPF_CORE_READ(folio, index), n;
	__u32 dev = inode_dev(inode);
	struct ra_dev_cpu *v;

	n = clear_range(dev, BPF_CORE_READ(inode, i_ino), idx, idx + folio_pages(folio),
			RA_FOLIO_BLOCKS);
	if (!n)
		return 0;
	v = dev_slot(dev);
	if (v)
		ADD(v->waste, n);
	return 0;
}
