#!/usr/bin/env bash
# Readahead mode on a sequential read of a whole 64 MiB file through mmap
# after its cache was emptied (issue 10: pages mapped as parts of large
# folios were missed, 15 hit + 4342 mapped of 16384). Checked against the
# reader's own counts (its page table, cachestat before each touch) and
# fincore: every page is read ahead but the first, hit + mapped >= 99% of
# them, and nothing is wasted once evicted. On ext4 over a loop device made
# here. Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
command -v python3 >/dev/null || t_skip "python3 needed for the mmap reader"
command -v fincore >/dev/null || t_skip "fincore (util-linux) needed"
trap ra_cleanup EXIT
ra_fs 200
ra_file f 64
ra_open
file_pages=$((64 * 1024 * 1024 / $(getconf PAGESIZE)))

RA_WANT_CACHED=$file_pages ra_run "$RA_MNT/f" mmap-seq
echo "# pages ${RA[pages]} hit ${RA[hit]} mapped ${RA[mapped]} demand ${RA[demand]} unread ${RA[unread]};" \
	"reader: touches ${RD[touches]}, faults on cached pages ${RD[cached_faults]}, reading faults" \
	"${RD[read_faults]}, mapped ${RD[mapped]}; fincore $RA_CACHED"
t_eq "the reader touched every page" "${RD[touches]}" "$file_pages"
t_eq "every page is cached (fincore)" "$RA_CACHED" "$file_pages"
t_eq "every page is in the reader's page table (pagemap)" "${RD[mapped]}" "$file_pages"
ra_cache_check "sequential mmap"
t_check "hit ${RA[hit]} + mapped ${RA[mapped]} >= 99% of readahead pages ${RA[pages]}" \
	[ "$(( (RA[hit] + RA[mapped]) * 100 ))" -ge "$((RA[pages] * 99))" ]
t_eq "demand = faults that read their page (cachestat)" "${RA[demand]}" "${RD[read_faults]}"
ra_mmap_check "sequential mmap" 1 20
ra_evict
t_eq "nothing wasted: every cached page was mapped (fincore - pagemap = 0)" "${RA[waste]}" \
	"$((RA_CACHED - RD[mapped]))"
ra_done
