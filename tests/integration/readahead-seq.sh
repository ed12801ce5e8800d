#!/usr/bin/env bash
# Readahead mode on a sequential read: ext4 made here on a loop device made
# here, a 256 MiB file read with read() in 1 MiB calls after its cache was
# emptied (by re-mounting), then evicted (re-mounted again) so every page has
# a fate. Checked against fincore (pages cached) and the reader's own count
# of pages read: readahead pages close to the file's pages, hit >= 95%,
# nothing unread, nothing wasted; then a small file read one page a call
# (the counts a reader keeps until it exits). Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
command -v python3 >/dev/null || t_skip "python3 needed for the reader"
command -v fincore >/dev/null || t_skip "fincore (util-linux) needed"
trap ra_cleanup EXIT
ra_fs 320
ra_file f 256
ra_open
file_pages=$((256 * 1024 * 1024 / $(getconf PAGESIZE)))

RA_WANT_CACHED=$file_pages ra_run "$RA_MNT/f" read $((1024 * 1024))
t_eq "the reader read every page" "${RD[touches]}" "$file_pages"
t_eq "every page is cached (fincore)" "$RA_CACHED" "$file_pages"
ra_cache_check "sequential read"
t_eq "every readahead page was read: hit = readahead pages" "${RA[hit]}" "${RA[pages]}"
t_eq "nothing unread" "${RA[unread]}" 0
t_check "readahead pages ${RA[pages]} close to the file's $file_pages (>= 95%)" \
	[ "$((RA[pages] * 100))" -ge "$((file_pages * 95))" ]
t_check "readahead pages + demand pages <= file pages" [ "$((RA[pages] + RA[demand]))" -le "$file_pages" ]
t_check "hit ${RA[hit_pct]}% >= 95%" awk -v h="${RA[hit_pct]}" 'BEGIN { exit !(h >= 95) }'
t_check "reads asked for the whole file (${RA[read_pages]})" [ "${RA[read_pages]}" -eq "$file_pages" ]
t_check "sync and async triggers seen" [ "${RA[sync_triggers]}" -ge 1 -a "${RA[async_triggers]}" -ge 1 ]
t_check "page-cache hit ratio of reads ${RA[cache_hit_pct]}% >= 95%" \
	awk -v h="${RA[cache_hit_pct]}" 'BEGIN { exit !(h >= 95) }'
if command -v python3 >/dev/null; then
	t_check "JSON fields parse" python3 -c '
import json, sys
d = json.loads(sys.argv[1])["readahead"]
for k in ("pages", "sync_pages", "async_pages", "hit", "mapped", "waste", "unread",
          "hit_pct", "waste_pct", "avg_window_kb", "cache_hit_pct"):
    assert k in d, k
assert d["pages"] == d["sync_pages"] + d["async_pages"]' "${RA[json]}"
fi

ra_evict
t_eq "nothing wasted: every cached page was read" "${RA[waste]}" 0
t_eq "nothing left unread after eviction" "${RA[unread]}" 0

# One page a read() call: the pages read() asks for and the readahead pages
# it hits are counted in the reader's own state and added to the device's
# counters every 64 pages and when the reader exits. 259 pages leave 3 of
# each to that exit.
dd if=/dev/zero of="$RA_MNT/g" bs="$(getconf PAGESIZE)" count=259 status=none conv=fsync
RA_WANT_CACHED=259 ra_run "$RA_MNT/g" read "$(getconf PAGESIZE)"
t_eq "page reads: the reader read every page" "${RD[touches]}" 259
t_eq "page reads: reads asked for every page, the last at the reader's exit" "${RA[read_pages]}" 259
t_eq "page reads: hit = readahead pages" "${RA[hit]}" "${RA[pages]}"
t_check "page reads: readahead pages ${RA[pages]} not a multiple of 64" [ $((RA[pages] % 64)) -ne 0 ]
t_eq "page reads: nothing unread" "${RA[unread]}" 0
ra_done
