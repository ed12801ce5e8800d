#!/usr/bin/env bash
# Each value of a sweep gets its own intervals: a sweep over two values whose
# command reads a different amount at each (3000 or 1000 O_DIRECT reads, by
# the read_ahead_kb it finds), on a loop device made here. Each snapshot's
# reads (mean r/s x its span) must match the kernel's count for that run
# (diskstats, recorded by the command itself), the spans must not overlap,
# and the interval count must fit the span: the second value's figures must
# not include the first value's intervals.
. "$(dirname "$0")/../lib.sh"
t_need_root
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
t_loop_create 64 || t_skip "cannot create a loop device"
dev=$T_LOOP
n=${dev#/dev/}
st=/sys/block/$n/stat
cmd="r=\$(cat /sys/block/$n/queue/read_ahead_kb); b=\$(awk '{print \$1}' $st)
if [ \"\$r\" = 128 ]; then c=3000; else c=1000; fi
dd if=$dev of=/dev/null bs=4k count=\$c iflag=direct status=none
echo \"\$r \$((\$(awk '{print \$1}' $st) - b))\" >>'$T_TMP/kernel'
trap 'exit 0' TERM; sleep 30 & wait"
# --duration 2 at 0.5 s: four whole intervals per value (the command waits
# to be stopped at 2 s), so mean r/s x span is the run's reads
"$BLKTUNE" sweep "$dev" read_ahead_kb=128,512 --run "$cmd" --duration 2 -d 0.5 --dir "$T_TMP/sw" \
	>"$T_TMP/out" 2>&1
rc=$?
t_eq "sweep exit status" "$rc" 0
[ "$rc" = 0 ] || sed "s/^/# /" "$T_TMP/out"
prev_end=0
for v in 128 512; do
	f=$(ls "$T_TMP/sw"/*"read_ahead_kb=$v-r1.snap" 2>/dev/null | head -n 1)
	want=$(awk -v v=$v '$1 == v { print $2 }' "$T_TMP/kernel")
	if [ -z "$f" ] || [ -z "$want" ]; then
		t_fail "value $v: snapshot ${f:-missing}, kernel count ${want:-missing}"
		continue
	fi
	read -r t0 t1 nint <<<"$(awk '$1 == "span" { print $2, $3, $4 }' "$f")"
	read -r nrs mean <<<"$(awk '$1 == "stat" && $2 == "r/s" { print $3, $4 }' "$f")"
	got=$(awk -v m="$mean" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", m * (b - a) }')
	t_eq "value $v: the kernel counted its run's reads" "$want" $([ $v = 128 ] && echo 3000 || echo 1000)
	t_near "value $v: reads in its snapshot (mean r/s x span) = the kernel's count for its run" \
		"$got" "$want" "$(((want + 19) / 20 + 20))"
	t_check "value $v: its span starts after the previous value's ends ($t0 >= $prev_end)" \
		awk -v a="$t0" -v b="$prev_end" 'BEGIN { exit !(a >= b) }'
	# 0.5 s intervals: the count fits the span (one interval more or less)
	t_check "value $v: $nint intervals for a span of $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s" \
		awk -v a="$t0" -v b="$t1" -v k="$nint" 'BEGIN { e = (b - a) / 0.5; exit !(k >= e - 1 && k <= e + 1 && k >= 2) }'
	t_eq "value $v: r/s summarizes every interval" "$nrs" "$nint"
	prev_end=$t1
done
t_done
