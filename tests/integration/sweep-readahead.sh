#!/usr/bin/env bash
# A read_ahead_kb sweep traces the readahead it causes: with ext4 on a loop
# device made here and a sequential read of a file (its cache dropped first),
# the sweep CSV's hit_pct is a number near 100 for every value, and the
# original read_ahead_kb comes back.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
trap 'ra_cleanup' EXIT
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal
ra_fs 200
n=${RA_DEV#/dev/}
orig=$(cat "/sys/block/$n/queue/read_ahead_kb")
ra_file f 64
# dd iflag=nocache count=0 drops this file's cached pages (posix_fadvise)
cmd="dd if=$RA_MNT/f iflag=nocache count=0 status=none; dd if=$RA_MNT/f of=/dev/null bs=64k status=none; sleep 1"
"$BLKTUNE" sweep "$RA_DEV" read_ahead_kb=128,1024 --run "$cmd" -d 0.5 --dir "$T_TMP/sw" >"$T_TMP/out" 2>&1
rc=$?; [ "$rc" = 0 ] || sed "s/^/# /" "$T_TMP/out"; t_eq "sweep exits 0" "$rc" 0
t_eq "read_ahead_kb restored" "$(cat "/sys/block/$n/queue/read_ahead_kb")" "$orig"
for kb in 128 1024; do
	hit=$(awk -F, -v kb="$kb" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hit_pct") c = i; next }
		$2 == kb && $3 == 1 { print $c }' "$T_TMP/sw/sweep.csv")
	t_check "read_ahead_kb=$kb: RA hit% is measured and high ($hit)" \
		awk -v h="$hit" 'BEGIN { exit !(h ~ /^[0-9.]+$/ && h + 0 >= 90) }'
done
grep -A4 "hit_pct" "$T_TMP/out" | sed 's/^/# /'
ra_done
