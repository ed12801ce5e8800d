#!/usr/bin/env bash
# Readahead mode on random 4 KiB reads through mmap (no madvise): with
# read_ahead_kb=4096 each fault reads around 4 MiB and most of it is wasted
# (> 50% once evicted); with read_ahead_kb=0 there is almost no readahead.
# The identity holds in both runs. read_ahead_kb is changed on the loop device
# made here only, through blktune --set, and restored. Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
command -v python3 >/dev/null || t_skip "python3 needed for the mmap reader"
trap 'ra_restore_kb >/dev/null; ra_cleanup' EXIT
ra_fs 320
RA_KB_ORIG=$(cat "/sys/block/${RA_DEV#/dev/}/queue/read_ahead_kb")
ra_file f 256
ra_open
reader=$T_TMP/mmrand.py
cat > "$reader" <<'PY'
import mmap, os, random, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
m = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
r = random.Random(1)
pages = len(m) // mmap.PAGESIZE
s = 0
for _ in range(int(sys.argv[2])):
    s += m[r.randrange(pages) * mmap.PAGESIZE]
PY

for kb in 4096 0; do
	ra_set_kb "$kb"
	ra_remount
	ra_cmd start
	python3 "$reader" "$RA_MNT/f" 2000
	ra_remount
	ra_cmd stop || t_fail "probe answered"
	ra_identity "read_ahead_kb=$kb"
	echo "# read_ahead_kb=$kb: pages ${RA[pages]} hit ${RA[hit]} mapped ${RA[mapped]} waste ${RA[waste]} demand ${RA[demand]} windows ${RA[windows]}"
	if [ "$kb" = 4096 ]; then
		t_check "read_ahead_kb=4096: waste ${RA[waste_pct]}% > 50%" \
			awk -v w="${RA[waste_pct]}" 'BEGIN { exit !(w > 50) }'
		t_check "read_ahead_kb=4096: windows of 4 MiB (${RA[avg_window_kb]} KiB)" \
			awk -v w="${RA[avg_window_kb]}" 'BEGIN { exit !(w > 3000 && w <= 4096) }'
	else
		t_check "read_ahead_kb=0: almost no readahead pages (${RA[pages]} <= 1% of demand ${RA[demand]})" \
			[ "$((RA[pages] * 100))" -le "${RA[demand]}" ]
		t_check "read_ahead_kb=0: faulting pages are demand" [ "${RA[demand]}" -ge 1000 ]
	fi
done
ra_restore_kb
ra_done
