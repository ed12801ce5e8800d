#!/usr/bin/env bash
# Where the time goes: queue time (allocation -> issue) and device time (issue
# -> completion) of a queue-filling 4 KiB random-read job under mq-deadline on
# a loop device this test creates. Device time is checked against bpftrace's
# own issue->complete times (tracepoints block_rq_issue/block_rq_complete, a
# 4 us linear histogram): p50/p90/p99 within the log2 bucket resolution;
# queue + device time against diskstats' r_await. Needs root, fio, bpftrace.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/trace-common.bash"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
command -v bpftrace >/dev/null || t_skip "no bpftrace (apt-get install bpftrace)"
t_loop_create 1024 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
q=/sys/block/$name/queue
echo mq-deadline > $q/scheduler 2>/dev/null || t_skip "no mq-deadline"
t_eq "scheduler set" "$(sed -E 's/.*\[(.*)\].*/\1/' $q/scheduler)" mq-deadline
[ "$(cat $q/wbt_lat_usec 2>/dev/null)" != 0 ] || echo "# wbt off: issue times may be missing"
maj=$(( 0x$(stat -c %t "$dev") )) min=$(( 0x$(stat -c %T "$dev") ))
kdev=$(( maj << 20 | min ))
dd if=/dev/urandom of="$dev" bs=1M count=256 oflag=direct status=none
tp_settle
tp_open "$dev"
trap 'tp_close; [ -n "${btpid:-}" ] && kill "$btpid" 2>/dev/null; t_cleanup' EXIT

# bpftrace's table of issue times holds every block of the device
# (262144): its default 4096 entries could fill up with the issues whose
# completion it missed, and then lose every new one
BPFTRACE_MAP_KEYS_MAX=262144 t_bpftrace "$T_TMP/bt.out" '
tracepoint:block:block_rq_issue /args->dev == '"$kdev"'/ { @s[args->sector] = nsecs; }
tracepoint:block:block_rq_complete /args->dev == '"$kdev"' && @s[args->sector]/ {
	$us = (nsecs - @s[args->sector]) / 1000;
	@f = lhist($us, 0, 2000, 2); @c = lhist($us, 0, 200000, 200); @n = count(); delete(@s[args->sector]); }
END { clear(@s); }' || t_fail "bpftrace attached"
btpid=$T_BT_PID

ds() { awk -v n="$name" '$3 == n { print $4, $7 }' /proc/diskstats; }
read -r r0 t0 <<<"$(ds)"
tp_cmd start
fio --name=qfill --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=256 \
	--size=1g --runtime=3 --time_based --numjobs=1 --output-format=terse >/dev/null 2>"$T_TMP/fio.err" ||
	t_fail "fio: $(head -c 300 "$T_TMP/fio.err")"
tp_cmd stop || t_fail "probe answered"
read -r r1 t1 <<<"$(ds)"
sleep 0.3
misses=$(t_bt_misses)
t_stop "$btpid" INT
btpid=
reads=$((r1 - r0))
r_await=$(awk -v t=$((t1 - t0)) -v n="$reads" 'BEGIN { printf "%.1f", t * 1000 / n }')
echo "# $reads reads; r_await $r_await us; traced: queue avg ${TP[q_avg_read_us]} p99 ${TP[q_p99_read_us]}, device avg ${TP[d_avg_read_us]} p50 ${TP[d_p50_read_us]} p90 ${TP[d_p90_read_us]} p99 ${TP[d_p99_read_us]}"

t_check "enough reads ($reads)" test "$reads" -gt 10000
# Completions the tracepoint did not report: under heavy load both blktune and
# bpftrace saw about 2% fewer than diskstats counted, equally (68187 and 68173
# of 69643), so blktune is held to bpftrace's count (checked below) and to
# diskstats within 3%; the gap is printed.
echo "# diskstats - traced: $(( reads - ${TP[completed_read]:-0} )); runs the kernel skipped for blktune: ${TP[misses]:-?}"
t_near "traced reads = diskstats reads within 3% (exact: ${TP[completed_read]:-})" "${TP[completed_read]:-0}" "$reads" $((reads * 3 / 100 + 1))
t_eq "every traced read has a queue and a device time" "${TP[d_n_read]:-}" "${TP[completed_read]:-}"
t_check "the queue filled: queue p99 ${TP[q_p99_read_us]} us > 0" awk -v v="${TP[q_p99_read_us]}" 'BEGIN { exit !(v > 0) }'
t_check "queue + device avg (${TP[q_avg_read_us]} + ${TP[d_avg_read_us]}) = r_await ($r_await us) within 3%" \
	awk -v q="${TP[q_avg_read_us]}" -v d="${TP[d_avg_read_us]}" -v a="$r_await" \
	'BEGIN { s = q + d; e = s - a; if (e < 0) e = -e; exit !(e <= 0.03 * a + 1) }'
t_check "alloc->completion avg (${TP[lat_avg_read_us]}) = r_await ($r_await us) within 3%" \
	awk -v l="${TP[lat_avg_read_us]}" -v a="$r_await" 'BEGIN { e = l - a; if (e < 0) e = -e; exit !(e <= 0.03 * a + 1) }'

# bpftrace's percentiles from its 4 us linear histogram: the log2 bucket
# holding each must hold blktune's figure, or its neighbour (the two tools
# stamp issue and completion a few hundred ns apart).
python3 "$(dirname "$0")/bt-hist.py" "$T_TMP/bt.out" f c 0.5 0.9 0.99 > "$T_TMP/bt"
awk -v traced="${TP[completed_read]:-0}" -v misses="${misses:-0}" -v p50="${TP[d_p50_read_us]}" -v p90="${TP[d_p90_read_us]}" \
	-v p99="${TP[d_p99_read_us]}" '
	$1 == "count" { tot = $2; print "# bpftrace: " tot " issue->complete pairs, " misses " events skipped"
		tol = 0.015 * traced + 1
		print "count", (tot > 0 && tot <= traced + tol && traced - tot <= tol + misses) ? "ok" : "bad", tot,
			"blktune", traced, "skipped", misses; next }
	{ ours = ($1 == "p50") ? p50 : ($1 == "p90") ? p90 : p99
	  if ($2 == "none") { print $1 " bad: beyond bpftrace'"'"'s histogram"; next }
	  x = $2; k = 0; while (2 ^ k < x) k++
	  good = 2 ^ (k - 2) <= ours && ours <= 2 ^ (k + 1)
	  printf "%s %s bpftrace %.1f blktune %.1f us; log2 bucket (%d, %d]\n", $1, good ? "ok" : "bad", x, ours, 2 ^ (k - 1), 2 ^ k }' \
	"$T_TMP/bt" > "$T_TMP/cmp"
cat "$T_TMP/cmp" | grep '^#'
# bpftrace's pairs (issue and completion matched by sector) came 0.6-0.8 %
# short of blktune's requests in clean-clone CI runs on this 2-CPU machine
# (226455 of 228184), and 11-26 % short in three CI runs (356157 of 414719):
# events the kernel skipped for bpftrace (a classic tracepoint program does
# not run nested in another on its CPU) and counted as recursion misses, as
# blktune's tp_btf programs are not. So bpftrace may come short by 1.5 %
# plus what it was skipped, never over; the percentiles' populations stay
# alike for the bucket comparison below.
t_check "bpftrace timed as many requests as blktune counted (1.5% + skipped): $(grep ^count "$T_TMP/cmp")" grep -q '^count ok' "$T_TMP/cmp"
for p in p50 p90 p99; do
	t_check "device time $p within bucket resolution of bpftrace: $(grep "^$p " "$T_TMP/cmp")" grep -q "^$p ok" "$T_TMP/cmp"
done
echo none > $q/scheduler
tp_close
t_done
