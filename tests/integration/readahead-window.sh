#!/usr/bin/env bash
# read_ahead_kb changed through blktune --set between two sequential reads
# (the file reopened by each read, since the value is copied into a file at
# open()) changes the measured average readahead window accordingly. On a
# loop device made here; the original value is restored. Reads of 64 KiB:
# a read larger than read_ahead_kb raises its window to the read's size
# (up to max_sectors_kb), which would hide the setting. Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
command -v python3 >/dev/null || t_skip "python3 needed for the reader"
command -v fincore >/dev/null || t_skip "fincore (util-linux) needed"
trap 'ra_reset_kb; ra_cleanup' EXIT
ra_fs 200
RA_KB_ORIG=$(cat "/sys/block/${RA_DEV#/dev/}/queue/read_ahead_kb")
ra_file f 128
ra_open
declare -A win
for kb in 128 1024; do
	ra_set_kb "$kb"
	ra_run "$RA_MNT/f" read 65536
	ra_cache_check "read_ahead_kb=$kb"
	t_eq "read_ahead_kb=$kb: every readahead page read (the reader read all ${RD[touches]})" \
		"${RA[hit]}" "${RA[pages]}"
	win[$kb]=${RA[avg_window_kb]}
	echo "# read_ahead_kb=$kb: windows ${RA[windows]}, average ${RA[avg_window_kb]} KiB, hit ${RA[hit_pct]}%"
	t_check "read_ahead_kb=$kb: average window ${RA[avg_window_kb]} KiB within 25% of $kb" \
		awk -v w="${RA[avg_window_kb]}" -v k="$kb" 'BEGIN { exit !(w >= 0.75 * k && w <= k) }'
	t_check "read_ahead_kb=$kb: largest window bucket holds $kb KiB" \
		[ "$(( ${RA[hist_lt_$(( 2 * kb * 1024 / $(getconf PAGESIZE) ))]:-0} ))" -ge 1 ]
done
t_check "window grows with read_ahead_kb (${win[128]} -> ${win[1024]} KiB)" \
	awk -v a="${win[128]}" -v b="${win[1024]}" 'BEGIN { exit !(b >= 6 * a) }'
ra_restore_kb
ra_done
