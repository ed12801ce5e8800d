#!/usr/bin/env bash
# Readahead mode on random 4 KiB touches through mmap (no madvise), checked
# against the reader's own counts (page table and page cache before each
# touch, tests/integration/readahead-reader.py) and fincore: with
# read_ahead_kb=4096 each fault reads around 4 MiB; a touch that faults on a
# page already read ahead is a hit, the pages mapped with it are mapped, and
# most of the rest is wasted once evicted (> 50%); with read_ahead_kb=0
# there is almost no readahead. read_ahead_kb is changed on the loop device
# made here only, through blktune --set, and restored by blktune --restore.
# Then the 4096 case again with each touch by a new thread (no state of its
# own: the fault's address comes from the CPU's fault slot).
# Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
command -v python3 >/dev/null || t_skip "python3 needed for the mmap reader"
command -v fincore >/dev/null || t_skip "fincore (util-linux) needed"
trap 'ra_reset_kb; ra_cleanup' EXIT
ra_fs 320
RA_KB_ORIG=$(cat "/sys/block/${RA_DEV#/dev/}/queue/read_ahead_kb")
ra_file f 256
ra_open

for kb in 4096 0; do
	ra_set_kb "$kb"
	ra_run "$RA_MNT/f" mmap-rand 2000 1
	echo "# read_ahead_kb=$kb: pages ${RA[pages]} hit ${RA[hit]} mapped ${RA[mapped]} waste ${RA[waste]} demand ${RA[demand]}" \
		"windows ${RA[windows]}; reader: faults on cached pages ${RD[cached_faults]}, reading faults" \
		"${RD[read_faults]}, no fault ${RD[no_fault]}, mapped ${RD[mapped]}; fincore $RA_CACHED"
	ra_cache_check "read_ahead_kb=$kb"
	t_eq "read_ahead_kb=$kb: demand = faults that read their page (cachestat)" "${RA[demand]}" "${RD[read_faults]}"
	ra_mmap_check "read_ahead_kb=$kb" 1 1
	if [ "$kb" = 4096 ]; then
		t_check "read_ahead_kb=4096: most faults found their page read ahead (${RD[cached_faults]} of ${RD[touches]})" \
			[ "$((RD[cached_faults] * 2))" -gt "${RD[touches]}" ]
		t_check "read_ahead_kb=4096: windows of 4 MiB (${RA[avg_window_kb]} KiB)" \
			awk -v w="${RA[avg_window_kb]}" 'BEGIN { exit !(w > 3000 && w <= 4096) }'
	else
		t_check "read_ahead_kb=0: almost no readahead pages (${RA[pages]} <= 1% of demand ${RA[demand]})" \
			[ "$((RA[pages] * 100))" -le "${RA[demand]}" ]
		t_check "read_ahead_kb=0: faulting pages are demand" [ "${RA[demand]}" -ge 1000 ]
	fi
	pages=${RA[pages]}
	ra_evict
	ra_near "read_ahead_kb=$kb: waste = cached pages never mapped (fincore - pagemap)" \
		"${RA[waste]}" "$((RA_CACHED - RD[mapped]))" 1
	[ "$kb" = 4096 ] && t_check "read_ahead_kb=4096: most readahead pages wasted (${RA[waste]} of $pages)" \
		[ "$((RA[waste] * 2))" -gt "$pages" ]
done

# Each touch by a new thread: a task with no readahead state of its own,
# whose fault address reaches map_pages (and fault) only through its CPU's
# fault slot, tagged with the thread and its fault count.
ra_set_kb 4096
ra_run "$RA_MNT/f" mmap-rand-threads 600 2
echo "# one thread a touch: pages ${RA[pages]} hit ${RA[hit]} mapped ${RA[mapped]} demand ${RA[demand]};" \
	"reader: faults on cached pages ${RD[cached_faults]}, reading faults ${RD[read_faults]}, no fault" \
	"${RD[no_fault]}, mapped ${RD[mapped]}; fincore $RA_CACHED"
ra_cache_check "one thread a touch"
t_eq "one thread a touch: demand = faults that read their page (cachestat)" "${RA[demand]}" "${RD[read_faults]}"
t_check "one thread a touch: most faults found their page read ahead (${RD[cached_faults]} of ${RD[touches]})" \
	[ "$((RD[cached_faults] * 2))" -gt "${RD[touches]}" ]
ra_mmap_check "one thread a touch" 1 1 2
ra_restore_kb
ra_done
