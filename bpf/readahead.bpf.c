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
 * per-(dev, ino, index >> 6) bitmap, beside where its folio begins. The
 * first of these events clears it and decides its fate:
 *   hit     read() asked for it (get_pages), or the process touched it: a
 *           page fault on that very page (mm_filemap_fault, or a fault that
 *           fault-around served, located by the fault's address);
 *   mapped  mapped into the process along with a touched page: fault-around
 *           neighbours (map_pages) and the rest of the large folio a fault
 *           or fault-around mapped whole (kernel 6.18 maps a whole folio
 *           when it lies inside the VMA, one page table and i_size);
 *   waste   removed from the page cache first.
 * Bits are changed with atomic fetch-and/or, so two CPUs never both count a
 * page: pages = hit + mapped + waste + bits still set (+ dropped) + the hits
 * readers keep in their own state until they add them (acc_read), exactly.
 * Counters are per-CPU, cumulative, never drained. */
#include "vmlinux-ra.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "readahead-bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* log2 of the kernel's page size and of the span of one page table (PMD),
 * set by user space before load. */
const volatile __u32 page_shift = 12;
const volatile __u32 pmd_shift = 21;

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

/* The counting filter in front of ra_blocks (readahead-bpf.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RA_LIVE_SLOTS);
	__type(key, __u32);
	__type(value, __u32);
} ra_live SEC(".maps");

#define T_WIN 1     /* a window is open */
#define T_ASYNC 2   /* it was triggered by page_cache_async_ra */
#define T_DEMAND 4  /* [dem_lo, dem_hi) is what the reader waits for */
#define T_FAULT 8   /* the demand is a faulting page */
#define T_READ 16   /* rd_* describe the task's last get_pages; kept by the others */
#define T_VMA 32    /* with T_FAULT: v_* describe the faulting page's mapping */

struct ra_task {
	__u64 ino;
	__u32 dev, flags;
	__u64 win_lo, win_hi, dem_lo, dem_hi;
	/* A read() larger than one batch calls get_pages again with a later
	 * index and the same last page: counted once. */
	__u64 rd_ino, rd_first, rd_last, rd_index;
	__u32 rd_dev;
	/* Pages read() asked for and readahead pages it hit, not yet added
	 * to device acc_dev's counters (acc_read). */
	__u32 acc_dev;
	__u64 acc_pages, acc_hit;
	/* The task's user page fault in progress (exceptions:page_fault_user,
	 * taken from its fault slot: f_id is the fault's fault_id), and once
	 * looked up, the file mapping it fell in: the VMA maps file pages
	 * [v_lo, v_hi) at virtual page numbers page + v_delta. */
	__u64 f_addr, v_addr, v_mapping, v_lo, v_hi, v_delta, f_id;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ra_task);
} ra_tasks SEC(".maps");

/* Plain adds, not locked ones: each CPU has its own slot of a device's
 * counters, and these programs never run nested on one CPU. Every
 * tracepoint here fires in task context (readers, faulting tasks, kswapd,
 * kworkers), never in IRQ context, and a tp_btf program runs with
 * preemption disabled: one finishes before another of them starts on its
 * CPU (a program cannot nest in itself either: the kernel counts a
 * recursion miss). None of them allocates memory that could reclaim, so
 * no eviction event fires inside another program. Only `waste` stays
 * atomic: it is the one counter of delete_from_page_cache, the event with
 * the most callers (reclaim, truncation, invalidation), and it is rare
 * (only readahead pages evicted unread reach it). An atomic add on
 * per-CPU data costs ~20 cycles, a lock prefix per counter. */
#define ADD(field, n) ((field) += (n))
#define ADD_ATOMIC(field, n) __sync_fetch_and_add(&(field), (n))

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

/* What read() asked for and hit is counted in the reading task's own
 * state and added to the device's counters when the task reads another
 * device, every RA_ACC_PAGES pages and when it exits (task_exit): a read
 * touches no per-device map, whose hash lookup cost as much as the rest of
 * the event (issue 14). So read_pages and hit may lag a running reader by
 * fewer than RA_ACC_PAGES pages each (its cleared bits are then in
 * neither hit nor the map); both are exact once the reader has exited.
 * Global functions: the verifier checks each once, not per caller. */
__noinline int acc_flush(struct ra_task *t)
{
	struct ra_dev_cpu *v;

	if (!t || (!t->acc_pages && !t->acc_hit))
		return 0;
	v = dev_slot(t->acc_dev);
	if (v) {
		ADD(v->read_pages, t->acc_pages);
		ADD(v->hit, t->acc_hit);
	}
	t->acc_pages = 0;
	t->acc_hit = 0;
	return 0;
}

__noinline int acc_read(struct ra_task *t, __u32 dev, __u64 pages, __u64 hits)
{
	if (!t)
		return 0;
	if (t->acc_dev != dev) {
		acc_flush(t);
		t->acc_dev = dev;
	}
	t->acc_pages += pages;
	t->acc_hit += hits;
	if (t->acc_pages >= RA_ACC_PAGES || t->acc_hit >= RA_ACC_PAGES)
		acc_flush(t);
	return 0;
}

static __always_inline struct ra_task *task_state(bool create)
{
	return bpf_task_storage_get(&ra_tasks, bpf_get_current_task_btf(), 0,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/* The last user fault on this CPU (fault_user): the faulting task and its
 * fault_id, and in `t` the address (f_addr) and, once looked up, its VMA
 * (v_*). No task state is touched there: nearly every process has some
 * (the dynamic loader read()s each library), and a task-storage lookup on
 * every page fault of the machine cost more than the rest of the program.
 * The filemap events of a fault read the slot of the CPU they run on; once
 * the task was switched out (it slept on a lock or for I/O, or was
 * preempted or migrated) that may be another task's or an older fault's,
 * hence the tags. fault() copies the slot into the task's state before the
 * read it starts, so a fault retried after that read (VM_FAULT_RETRY,
 * served by map_pages, maybe on another CPU) still finds its address. */
struct ra_fault_slot {
	__u64 task, id;
	struct ra_task t;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ra_fault_slot);
} ra_fault_slots SEC(".maps");

/* Which user fault of its task is in progress: the kernel counts a fault
 * in min_flt or maj_flt when it completes (mm_account_fault), not when it
 * is retried, so the count is the same from page_fault_user to the last
 * filemap event of a fault, retries included, and differs for the next
 * one. (A fault that fails, SIGSEGV or SIGBUS, is not counted: the next
 * fault shares its number, and could read its slot only on a CPU where the
 * failed one ran and nothing faulted since.) */
static __always_inline __u64 fault_id(struct task_struct *task)
{
	return task->min_flt + task->maj_flt;
}

/* The state that holds the address of the current task's fault in
 * progress: t (the slot's contents copied in when they are this fault's,
 * f_addr 0 when t has none of this fault), or without t the slot itself
 * when it is this fault's, else NULL. */
static __always_inline struct ra_task *fault_state(struct ra_task *t)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 id = fault_id(task);
	struct ra_fault_slot *s;
	__u32 zero = 0;
	bool mine;

	s = bpf_map_lookup_elem(&ra_fault_slots, &zero);
	mine = s && s->task == (__u64)task && s->id == id;
	if (!t)
		return mine ? &s->t : NULL;
	if (mine && s && (t->f_id != id || t->f_addr != s->t.f_addr)) {
		t->f_addr = s->t.f_addr;
		t->v_addr = 0;
		t->f_id = id;
	} else if (!mine && t->f_id != id) {
		t->f_addr = 0;
		t->f_id = id;
	}
	return t;
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
	return 1ULL << (folio->_flags_1 & 0xff);
}

/* Pages of the file: pages at or past it are never mapped. */
static __always_inline __u64 pages_of_size(loff_t size)
{
	return size > 0 ? ((__u64)size + (1ULL << page_shift) - 1) >> page_shift : 0;
}

static __always_inline __u64 file_pages(struct inode *inode)
{
	return pages_of_size(inode->i_size);
}

/* The same through an untrusted pointer. */
static __always_inline __u64 file_pages_of(struct inode *inode)
{
	return pages_of_size(BPF_CORE_READ(inode, i_size));
}

static __always_inline __u32 *live_slot(struct ra_block_key *key)
{
	__u32 slot = ra_live_slot(key);

	return bpf_map_lookup_elem(&ra_live, &slot);
}

/* Set `mask` in a block, and record its folio boundaries (`heads` set,
 * `inner` cleared, `order` for a folio of whole blocks); returns how many of
 * its bits were newly set, or -1 when the map has no room (the caller counts
 * them as dropped). A CPU that empties a block deletes it (clear_bits): if
 * that CPU has marked the entry dying, bits set here may vanish with it, so
 * they are taken back and set again in the entry that replaces it. */
__noinline int set_bits(struct ra_block_key *key, __u64 mask, __u64 heads, __u64 inner, __u32 order)
{
	__u32 *live;
	__u64 want = mask;
	int counted = -1;

	/* A global function: the verifier checks it once, not per caller. */
	if (!key)
		return -1;
	live = live_slot(key);
	if (!live)
		return -1;
	for (int try = 0; try < 4 && want; try++) {
		struct ra_block *e = bpf_map_lookup_elem(&ra_blocks, key);
		__u64 old, newly;

		if (!e) {
			struct ra_block v = { .bits = want, .heads = heads, .order = order };
			long err;

			/* Raised before the block can be seen, lowered if it was not
			 * inserted: a zero slot always means no block. */
			__sync_fetch_and_add(live, 1);
			err = bpf_map_update_elem(&ra_blocks, key, &v, BPF_NOEXIST);
			if (!err)
				return counted < 0 ? (int)ra_popcount(want) : counted;
			__sync_fetch_and_add(live, -1);
			if (err == -17 /* EEXIST: another CPU inserted it */)
				continue;
			break;
		}
		if (inner)
			__sync_fetch_and_and(&e->heads, ~inner);
		__sync_fetch_and_or(&e->heads, heads);
		e->order = order;
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
__noinline __u64 clear_bits(struct ra_block_key *key, __u64 mask)
{
	struct ra_block *e;
	__u32 *live;
	__u64 old;

	if (!key)
		return 0;
	live = live_slot(key);
	if (!live || !*live)
		return 0;
	e = bpf_map_lookup_elem(&ra_blocks, key);
	if (!e)
		return 0;
	old = __sync_fetch_and_and(&e->bits, ~mask);
	if (!(old & mask) || (old & ~mask))
		return old & mask;
	if (__sync_val_compare_and_swap(&e->dying, 0, 1) != 0)
		return old & mask;
	if (__sync_fetch_and_or(&e->bits, 0) == 0) {
		if (bpf_map_delete_elem(&ra_blocks, key) == 0)
			__sync_fetch_and_add(live, -1);
	} else {
		__sync_fetch_and_and(&e->dying, 0);
	}
	return old & mask;
}

struct range_walk {
	struct ra_block_key key;
	__u64 lo, hi, n;
};

static long clear_block(__u32 i, struct range_walk *w)
{
	__u64 b = (w->lo >> RA_BLOCK_SHIFT) + i;

	if (b << RA_BLOCK_SHIFT >= w->hi)
		return 1;
	w->key.blk = b;
	w->n += ra_popcount(clear_bits(&w->key, ra_range_mask(b, w->lo, w->hi)));
	return 0;
}

/* Clear the pages [lo, hi) of a file, at most `maxblk` blocks; returns how
 * many were set. bpf_loop: the verifier checks one block's walk, not each. */
static __always_inline __u64 clear_range(__u32 dev, __u64 ino, __u64 lo, __u64 hi, int maxblk)
{
	struct range_walk w = { .key = { .ino = ino, .dev = dev }, .lo = lo, .hi = hi };
	__u32 *live;

	if (lo >= hi)
		return 0;
	if ((lo >> RA_BLOCK_SHIFT) == ((hi - 1) >> RA_BLOCK_SHIFT)) {
		/* One block, the common case: its filter slot decides inline
		 * whether there is anything to look up. */
		w.key.blk = lo >> RA_BLOCK_SHIFT;
		live = live_slot(&w.key);
		if (!live || !*live)
			return 0;
		return ra_popcount(clear_bits(&w.key, ra_range_mask(w.key.blk, lo, hi)));
	}
	bpf_loop(maxblk, clear_block, &w, 0);
	return w.n;
}

/* The folio holding readahead page p, as recorded when it was added:
 * false when no readahead page of p's block is pending. */
static __always_inline bool folio_of(__u32 dev, __u64 ino, __u64 p, __u64 *lo, __u64 *hi)
{
	struct ra_block_key key = { .ino = ino, .blk = p >> RA_BLOCK_SHIFT, .dev = dev };
	__u32 *live = live_slot(&key);
	struct ra_block *e;

	if (!live || !*live)
		return false;
	e = bpf_map_lookup_elem(&ra_blocks, &key);
	if (!e)
		return false;
	ra_folio_bounds(e, p, lo, hi);
	return true;
}

/* The VMA of the task's last user fault, when it maps `mapping` (any file
 * when mapping is 0). */
struct vma_query {
	__u64 mapping, start, end, pgoff;
	int found;
};

static long vma_found(struct task_struct *task, struct vm_area_struct *vma, struct vma_query *q)
{
	struct file *f = vma->vm_file;

	if (f && ((__u64)f->f_mapping == q->mapping || !q->mapping)) {
		q->mapping = (__u64)f->f_mapping;
		q->start = vma->vm_start;
		q->end = vma->vm_end;
		q->pgoff = vma->vm_pgoff;
		q->found = 1;
	}
	return 0;
}

/* Whether t's last user fault lies in a mapping of `mapping`; fills t->v_*
 * (looked up once per fault: a fault fires map_pages, then maybe fault). */
static __always_inline bool fault_vma(struct ra_task *t, struct address_space *mapping)
{
	struct vma_query q = { .mapping = (__u64)mapping };

	if (!t->f_addr)
		return false;
	if (t->v_addr == t->f_addr)
		return t->v_mapping == (__u64)mapping || (!mapping && t->v_mapping);
	if (bpf_find_vma(bpf_get_current_task_btf(), t->f_addr, vma_found, &q, 0) || !q.found) {
		t->v_addr = t->f_addr;
		t->v_mapping = 0;
		return false;
	}
	t->v_addr = t->f_addr;
	t->v_mapping = q.mapping;
	t->v_lo = q.pgoff;
	t->v_hi = q.pgoff + ((q.end - q.start) >> page_shift);
	t->v_delta = (q.start >> page_shift) - q.pgoff;
	return true;
}

/* Whether the kernel maps folio [lo, hi) whole when it maps one of its
 * pages for this fault: inside i_size, the VMA and one page table. Without
 * the VMA (no fault address: not x86, or a fault from kernel mode) it is
 * taken to fit. */
static __always_inline bool folio_fits(const struct ra_task *t, bool vma, __u64 lo, __u64 hi,
				       __u64 eof)
{
	__u32 s = pmd_shift - page_shift;

	if (hi > eof)
		return false;
	if (!vma)
		return true;
	if (lo < t->v_lo || hi > t->v_hi)
		return false;
	return ((lo + t->v_delta) >> s) == ((hi - 1 + t->v_delta) >> s);
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
	__u32 dev = inode->i_sb->s_dev;
	__u64 ino = inode->i_ino;
	struct ra_dev_cpu *v = dev_slot(dev);
	struct ra_task *t = task_state(true);

	if (v)
		ADD(v->sync_triggers, 1);
	if (!t)
		return 0;
	/* A fault on a madvise(MADV_SEQUENTIAL) mapping asks for ra_pages from
	 * the faulting page: only that page is demand. */
	if ((t->flags & T_FAULT) && same_file(t, dev, ino) && t->dem_lo == index) {
		t->flags = (t->flags & (T_READ | T_VMA)) | T_DEMAND | T_FAULT;
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
	__u32 dev = inode->i_sb->s_dev;
	struct ra_dev_cpu *v = dev_slot(dev);
	struct ra_task *t = task_state(true);

	if (v)
		ADD(v->async_triggers, 1);
	if (!t)
		return 0;
	set_file(t, dev, inode->i_ino);
	t->flags = (t->flags & T_READ) | T_ASYNC;
	return 0;
}

static __always_inline void open_window(struct inode *inode, __u64 lo, __u64 n)
{
	__u32 dev = inode->i_sb->s_dev;
	__u64 ino = inode->i_ino;
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
	open_window(inode, index, ra->size);
	return 0;
}

/* One block of a folio being added (bpf_loop: the verifier checks one). */
struct add_walk {
	struct ra_block_key key;
	__u64 idx, end, win_lo, win_hi, dem_lo, dem_hi;
	__u64 demand, ra, dropped, mapped;
	__u32 flags, order;
	bool map_now;
};

static long add_block(__u32 i, struct add_walk *w)
{
	__u64 b = (w->idx >> RA_BLOCK_SHIFT) + i, first = b << RA_BLOCK_SHIFT, m, d = 0, r = 0, heads;
	int n;

	if (first >= w->end)
		return 1;
	m = ra_range_mask(b, w->idx, w->end);
	if (w->flags & T_DEMAND)
		d = m & ra_range_mask(b, w->dem_lo, w->dem_hi);
	if (w->flags & T_WIN)
		r = m & ra_range_mask(b, w->win_lo, w->win_hi) & ~d;
	w->demand += ra_popcount(d);
	if (!r)
		return 0;
	if (w->map_now) {
		w->ra += ra_popcount(r);
		w->mapped += ra_popcount(r);
		return 0;
	}
	/* Where the folio begins and the next one does. */
	heads = (w->idx > first ? 1ULL << ((w->idx - first) & 63) : 1) |
		(w->end < first + RA_BLOCK_PAGES ? 1ULL << ((w->end - first) & 63) : 0);
	w->key.blk = b;
	n = set_bits(&w->key, r, heads, m & ~heads, w->order);
	if (n < 0) {
		w->ra += ra_popcount(r);
		w->dropped += ra_popcount(r);
	} else {
		w->ra += n;
	}
	return 0;
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(add_to_page_cache, struct folio *folio)
{
	struct ra_task *t = task_state(false);
	struct add_walk w = {};
	struct inode *inode;
	struct ra_dev_cpu *v;

	/* Most page-cache insertions (writes, other tasks) end here. */
	if (!t || !(t->flags & (T_WIN | T_DEMAND)))
		return 0;
	inode = folio->mapping->host;
	w.key.dev = inode->i_sb->s_dev;
	w.key.ino = inode->i_ino;
	if (!same_file(t, w.key.dev, w.key.ino))
		return 0;
	w.flags = t->flags;
	w.win_lo = t->win_lo;
	w.win_hi = t->win_hi;
	w.dem_lo = t->dem_lo;
	w.dem_hi = t->dem_hi;
	w.idx = folio->index;
	w.end = w.idx + folio_pages(folio);
	w.order = w.end - w.idx >= RA_BLOCK_PAGES ? ra_msb(w.end - w.idx) : 0;
	/* The folio of a faulting page is mapped whole once read (finish_fault),
	 * where it fits: its other pages are used at once. */
	if ((w.flags & (T_FAULT | T_DEMAND)) == (T_FAULT | T_DEMAND) && w.dem_lo >= w.idx && w.dem_lo < w.end)
		w.map_now = folio_fits(t, w.flags & T_VMA, w.idx, w.end, file_pages(inode));
	if ((w.idx >> RA_BLOCK_SHIFT) == ((w.end - 1) >> RA_BLOCK_SHIFT))
		add_block(0, &w);
	else
		bpf_loop(RA_FOLIO_BLOCKS, add_block, &w, 0);
	if (!w.demand && !w.ra)
		return 0;
	v = dev_slot(w.key.dev);
	if (!v)
		return 0;
	if (w.demand)
		ADD(v->demand, w.demand);
	if (w.ra) {
		if (w.flags & T_ASYNC)
			ADD(v->async_pages, w.ra);
		else
			ADD(v->sync_pages, w.ra);
	}
	if (w.mapped)
		ADD(v->mapped, w.mapped);
	if (w.dropped)
		ADD(v->dropped, w.dropped);
	return 0;
}

SEC("tp_btf/mm_filemap_get_pages")
int BPF_PROG(get_pages, struct address_space *mapping, pgoff_t index, pgoff_t last_index)
{
	struct inode *inode = mapping->host;
	__u32 dev = inode->i_sb->s_dev;
	__u64 ino = inode->i_ino, eof = file_pages(inode), end, first, lo, hi, hits;
	struct ra_task *t = task_state(true);
	struct ra_dev_cpu *v;
	bool same, cont;
	int clamped = 0;

	if (!t)
		return 0;
	t->flags &= ~(T_WIN | T_ASYNC | T_DEMAND | T_FAULT | T_VMA);
	/* The range is what read() asked for; pages beyond EOF are not read. */
	end = last_index + 1 < eof ? last_index + 1 : eof;
	if (index >= end)
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
	acc_read(t, dev, cont ? 0 : end - first, hits);
	if (!clamped || cont)
		return 0;
	v = dev_slot(dev);
	if (v)
		ADD(v->clamped, 1);
	return 0;
}

/* A task's last read() pages, not yet counted (acc_read): its state is
 * freed after this. Fires for every thread that exits; one without state
 * costs a lookup. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(task_exit)
{
	struct ra_task *t = task_state(false);

	if (t)
		acc_flush(t);
	return 0;
}

/* Every user page fault, of any kind: where it was, so that the filemap
 * event it leads to (map_pages when fault-around serves it, fault when
 * the page must be read or waited for, rss_stat for a whole page table's
 * worth) knows which page was touched. Into the CPU's fault slot only:
 * nearly every fault is of memory no file backs, and this runs for every
 * one on the machine. */
SEC("tp_btf/page_fault_user")
int BPF_PROG(fault_user, unsigned long address, struct pt_regs *regs, unsigned long error_code)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct ra_fault_slot *s;
	__u32 zero = 0;

	s = bpf_map_lookup_elem(&ra_fault_slots, &zero);
	if (s) {
		s->task = (__u64)task;
		s->id = fault_id(task);
		s->t.f_addr = address;
		s->t.v_addr = 0;
	}
	return 0;
}

/* The page the task's last user fault touched, if it lies in [lo, hi) of
 * `mapping`: sets *x; the v_* fields then describe its VMA. */
static __always_inline bool fault_page(struct ra_task *t, struct address_space *mapping, __u64 lo,
				       __u64 hi, __u64 *x)
{
	if (!fault_vma(t, mapping))
		return false;
	*x = (t->f_addr >> page_shift) - t->v_delta;
	return *x >= lo && *x < hi && *x >= t->v_lo && *x < t->v_hi;
}

/* Pages a fault used: the page it touched (hit) and those mapped with it. */
static __always_inline void count_used(__u32 dev, __u64 hits, __u64 mapped)
{
	struct ra_dev_cpu *v;

	if (!hits && !mapped)
		return;
	v = dev_slot(dev);
	if (!v)
		return;
	if (hits)
		ADD(v->hit, hits);
	if (mapped)
		ADD(v->mapped, mapped);
}

/* A fault that maps a whole page-table's worth of file at once (a folio of
 * PMD size, aligned: filemap_map_pmd) fires no filemap event, only the
 * file RSS change. Handled here when the faulting page's folio is one: the
 * page is a hit, the rest of the folio mapped. Any other fault is left to
 * map_pages and fault, which follow. */
SEC("tp_btf/rss_stat")
int BPF_PROG(rss_stat, struct mm_struct *mm, int member)
{
	struct ra_task *t;
	struct address_space *mapping;
	struct inode *inode;
	__u64 x, lo, hi, hits, ino;
	__u32 dev;

	if (member != 0 /* MM_FILEPAGES */)
		return 0;
	t = fault_state(task_state(false));
	if (!t || !t->f_addr || t->v_addr == t->f_addr)
		return 0;
	if (!fault_vma(t, 0))
		return 0;
	mapping = (struct address_space *)t->v_mapping;
	inode = BPF_CORE_READ(mapping, host);
	dev = BPF_CORE_READ(inode, i_sb, s_dev);
	ino = BPF_CORE_READ(inode, i_ino);
	x = (t->f_addr >> page_shift) - t->v_delta;
	if (!folio_of(dev, ino, x, &lo, &hi) || hi - lo < (1ULL << (pmd_shift - page_shift)) ||
	    !folio_fits(t, true, lo, hi, file_pages_of(inode)))
		return 0;
	hits = clear_range(dev, ino, x, x + 1, 1);
	count_used(dev, hits, clear_range(dev, ino, lo, hi, RA_FOLIO_BLOCKS));
	return 0;
}

SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(fault, struct address_space *mapping, pgoff_t index)
{
	struct inode *inode = mapping->host;
	__u32 dev = inode->i_sb->s_dev;
	__u64 ino = inode->i_ino, hits, mapped = 0, lo, hi, x;
	struct ra_task *t = fault_state(task_state(true));
	struct ra_dev_cpu *v;
	bool vma = false;

	/* The faulting page is demand if the read-around that follows adds it. */
	if (t) {
		vma = fault_page(t, mapping, index, index + 1, &x);
		set_file(t, dev, ino);
		t->dem_lo = index;
		t->dem_hi = index + 1;
		t->flags = (t->flags & T_READ) | T_DEMAND | T_FAULT | (vma ? T_VMA : 0);
	}
	hits = clear_range(dev, ino, index, index + 1, 1);
	/* Once read, the whole folio is mapped (finish_fault) where it fits. */
	if (t && folio_of(dev, ino, index, &lo, &hi) && hi - lo > 1 &&
	    folio_fits(t, vma, lo, hi, file_pages(inode)))
		mapped = clear_range(dev, ino, lo, hi, RA_FOLIO_BLOCKS);
	v = dev_slot(dev);
	if (!v)
		return 0;
	ADD(v->read_pages, 1);
	if (hits)
		ADD(v->hit, hits);
	if (mapped)
		ADD(v->mapped, mapped);
	return 0;
}

/* Fault-around: the kernel mapped the cached, unlocked pages of
 * [start, last] and, where they fit, the whole large folios at both ends;
 * the page the fault was for is a hit, the others are mapped. */
SEC("tp_btf/mm_filemap_map_pages")
int BPF_PROG(map_pages, struct address_space *mapping, pgoff_t start, pgoff_t last)
{
	struct inode *inode = mapping->host;
	__u32 dev = inode->i_sb->s_dev;
	__u64 ino = inode->i_ino, lo = start, hi = last + 1, flo, fhi, x = 0, hits = 0, eof;
	/* A task without state is given none: its fault slot, if still this
	 * fault's, answers where the fault was. */
	struct ra_task *t = fault_state(task_state(false));
	bool vma = false;

	if (t) {
		t->flags &= ~(T_WIN | T_ASYNC | T_DEMAND | T_FAULT | T_VMA);
		vma = fault_page(t, mapping, lo, hi, &x);
		if (vma)
			hits = clear_range(dev, ino, x, x + 1, 1);
	}
	eof = file_pages(inode);
	if (folio_of(dev, ino, lo, &flo, &fhi) && flo < lo && folio_fits(t, vma, flo, fhi, eof))
		lo = flo;
	if (folio_of(dev, ino, hi - 1, &flo, &fhi) && fhi > hi && folio_fits(t, vma, flo, fhi, eof))
		hi = fhi;
	count_used(dev, hits, clear_range(dev, ino, lo, hi, RA_MAP_BLOCKS));
	return 0;
}

SEC("tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(delete_from_page_cache, struct folio *folio)
{
	struct inode *inode = folio->mapping->host;
	__u64 idx = folio->index, n;
	__u32 dev = inode->i_sb->s_dev;
	struct ra_dev_cpu *v;

	n = clear_range(dev, inode->i_ino, idx, idx + folio_pages(folio), RA_FOLIO_BLOCKS);
	if (!n)
		return 0;
	v = dev_slot(dev);
	if (v)
		ADD_ATOMIC(v->waste, n);
	return 0;
}

/* For the benchmarks only, never loaded by blktune: an empty
 * program on the busiest tracepoint, the floor the mode's cost per event is
 * compared with in the same run. */
SEC("?tp_btf/mm_filemap_get_pages")
int BPF_PROG(floor_get_pages)
{
	return 0;
}

/* The same on page_fault_user and rss_stat, for
 * tests/bench/readahead-faults.sh. */
SEC("?tp_btf/page_fault_user")
int BPF_PROG(floor_fault)
{
	return 0;
}

SEC("?tp_btf/rss_stat")
int BPF_PROG(floor_rss)
{
	return 0;
}
