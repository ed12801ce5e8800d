#!/usr/bin/env bash
# Readahead mode on a sequential read: ext4 made here on a loop device made
# here, a 256 MiB file read with dd bs=1M after its cache was emptied (by
# re-mounting), then evicted (re-mounted again) so every page has a fate.
# Expect: readahead pages close to the file's pages, hit >= 95%, waste <= 1%,
# and the accounting identity against the kernel's own page map. Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
trap ra_cleanup EXIT
ra_fs 320
ra_file f 256
ra_remount || t_skip "cannot re-mount"
ra_open
file_pages=$((256 * 1024 * 1024 / $(getconf PAGESIZE)))

ra_cmd start
dd if="$RA_MNT/f" of=/dev/null bs=1M status=none
ra_cmd stop || t_fail "probe answered"
t_identity_cached=${RA[cum_unread]}
ra_identity "while cached"
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

ra_cmd start
ra_remount
ra_cmd stop || t_fail "probe answered"
ra_identity "after eviction"
t_eq "nothing left unread after eviction" "${RA[cum_unread]}" 0
t_check "waste ${RA[cum_waste]} pages <= 1% of readahead pages" \
	[ "$((RA[cum_waste] * 100))" -le "${RA[cum_pages]}" ]
ra_done
