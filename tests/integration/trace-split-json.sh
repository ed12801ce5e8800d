#!/usr/bin/env bash
# Where the time goes, as blktune prints it: blktune -b --json runs through a
# queue-filling 4 KiB random-read job (libaio, iodepth 256) under mq-deadline
# on a loop device this test creates, and its per-interval "lat_split" read
# figures, summed over the run, are held against tools of their own:
#  - the device-time histogram (lat_hist_us.device) against bpftrace's
#    issue->complete times (block_rq_issue/block_rq_complete): p50, p90 and
#    p99 within the log2 bucket resolution, the same number of requests
#    within 0.5 %;
#  - queue + device time (the intervals' averages weighted by their
#    requests) plus the completion tail that r_await holds and the traced
#    times do not (bpftrace: block_rq_complete -> block_io_done) against
#    r_await from /proc/diskstats over the job, within 3 %;
#  - the alloc->completion mean, plus the same tail, against r_await;
#  - the queue filled (queue p99 > 0 in the busiest interval).
# trace-split.sh checks the same through the probe (the tracer library);
# this one the program's own output. Needs root, fio, bpftrace, jq, python3.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
command -v bpftrace >/dev/null || t_skip "no bpftrace (apt-get install bpftrace)"
command -v jq >/dev/null || t_skip "no jq"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
# 1 GiB, sparse: bpftrace pairs issue and completion by sector, so two
# requests in flight to one sector lose a pair; over 262144 blocks with 256
# in flight that is about 0.1 % (over 256 MiB it was 0.4-0.9 %)
t_loop_create 1024 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
q=/sys/block/$name/queue
echo mq-deadline > $q/scheduler 2>/dev/null || t_skip "no mq-deadline"
t_eq "scheduler set" "$(sed -E 's/.*\[(.*)\].*/\1/' $q/scheduler)" mq-deadline
maj=$((0x$(stat -c %t "$dev"))) min=$((0x$(stat -c %T "$dev")))
kdev=$((maj << 20 | min))
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
btpid= bpid=
trap '[ -n "$btpid" ] && kill "$btpid" 2>/dev/null; [ -n "$bpid" ] && kill "$bpid" 2>/dev/null; t_cleanup' EXIT

# (its table of issue times holds every block: see trace-split.sh)
BPFTRACE_MAP_KEYS_MAX=262144 t_bpftrace "$T_TMP/bt.out" '
tracepoint:block:block_rq_issue /args->dev == '"$kdev"'/ { @s[args->sector] = nsecs; }
tracepoint:block:block_rq_complete /args->dev == '"$kdev"' && @s[args->sector]/ {
	$us = (nsecs - @s[args->sector]) / 1000;
	@f = lhist($us, 0, 2000, 2); @c = lhist($us, 0, 200000, 200); delete(@s[args->sector]); }
'"$(t_bt_tail "$kdev")"'
END { clear(@s); clear(@e); }' || t_fail "bpftrace attached"
btpid=$T_BT_PID
ids0=$(t_bpf_prog_ids)
"$BLKTUNE" -b --json -d 1 -n 600 -p "$name" > "$T_TMP/out.json" 2> "$T_TMP/err" &
bpid=$!
# whole reports only (the one being written may be cut)
reports() { grep -a '}$' "$T_TMP/out.json"; }
# (an idle device's report has no traced figures: wait for the tracer itself)
traced_on() { [ "$(reports | head -n 1 | jq -r --arg d "$name" '.disk[] | select(.disk_device == $d) | .traced')" = true ]; }
t_until 20 traced_on || { cat "$T_TMP/err"; t_fail "blktune reports, traced"; }
# blktune's programs: those loaded since it started
blk_progs=$(t_bpf_progs_since "$ids0")

ds() { awk -v n="$name" '$3 == n { print $4, $7 }' /proc/diskstats; }
read -r r0 t0 <<<"$(ds)"
fio --name=qfill --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=256 \
	--size=1g --runtime=3 --time_based --output-format=terse >/dev/null 2>"$T_TMP/fio.err" ||
	t_fail "fio: $(head -c 300 "$T_TMP/fio.err")"
read -r r1 t1 <<<"$(ds)"
reads=$((r1 - r0))
r_await=$(awk -v t=$((t1 - t0)) -v n="$reads" 'BEGIN { printf "%.1f", t * 1000 / n }')
# blktune's reports until one after the job has no read: every completion counted
nreports=$(reports | wc -l)
idle_after() {
	[ "$(reports | tail -n +$((nreports + 1)) | jq -s --arg d "$name" \
		'[.[].disk[] | select(.disk_device == $d) | ."r/s"] | any(. == 0)')" = true ]
}
t_until 20 idle_after || t_fail "blktune reported an idle interval after the job"
# trace_loss.runs_skipped is the kernel's recursion_misses of blktune's
# programs: a report sampled after one bpftool read and printed before the
# next lies between the two
k1=$(t_bpf_misses $blk_progs) n1=$(reports | wc -l)
t_until 10 sh -c "[ \$(grep -ac '}\$' '$T_TMP/out.json') -ge $((n1 + 2)) ]" || t_fail "two more reports"
k2=$(t_bpf_misses $blk_progs)
skipped=$(reports | sed -n "$((n1 + 2))p" | jq .trace_loss.runs_skipped)
t_check "runs_skipped ($skipped) is the kernel's count of blktune's skipped runs ($k1..$k2, programs $blk_progs)" \
	test -n "$blk_progs" -a "$k1" -le "${skipped:-x}" -a "${skipped:-x}" -le "$k2"
t_eq "every report says what the tracer lost, each interval's growth once" \
	"$(reports | jq -s -r '(map(.trace_loss | objects) | length == (. | length)) as $all |
		(.[1:] | map(.trace_loss.runs_skipped_new) | add) as $grew |
		"\($all) \($grew == (.[-1].trace_loss.runs_skipped - .[0].trace_loss.runs_skipped))"' 2>&1)" "true true"
t_stop "$bpid" TERM
bpid=
misses=$(t_bt_misses)
t_stop "$btpid" INT
btpid=

# the run's sums from the JSON: requests, device histogram, weighted averages
reports | jq -s -r --arg d "$name" '[.[].disk[] | select(.disk_device == $d) | .lat_split.read | select(. != null)] as $r |
	($r | map(.requests) | add) as $n |
	"n \($n)",
	"qd \($r | map(select(.requests > 0) | (.queue_avg_us + .device_avg_us) * .requests) | add / $n)",
	"qmax \($r | map(.queue_p99_us // 0) | max)",
	"hist \([range(0; 32) as $i | $r | map(.lat_hist_us.device[$i].count) | add] | map(tostring) | join(","))",
	"le \($r[0].lat_hist_us.device | map(.us_le // "inf") | map(tostring) | join(","))"' > "$T_TMP/sums" ||
	t_fail "the JSON sums"
lat=$(reports | jq -s -r --arg d "$name" '[.[].disk[] | select(.disk_device == $d) |
	select((.lat_split.read.requests // 0) > 0) | {n: .lat_split.read.requests, a: .lat_avg_us}] |
	(map(.n * .a) | add) / (map(.n) | add)')
sum() { awk -v k="$1" '$1 == k { print $2 }' "$T_TMP/sums"; }
n=$(sum n)
echo "# $reads reads (diskstats), $n traced read requests in blktune's reports; r_await $r_await us;" \
	"queue + device $(sum qd) us, alloc->completion $lat us, queue p99 up to $(sum qmax) us"
t_check "enough reads ($reads)" test "$reads" -gt 10000
t_near "blktune's read requests = diskstats reads within 3% (exact: $n)" "$n" "$reads" $((reads * 3 / 100 + 1))
t_check "the queue filled: queue p99 $(sum qmax) us > 0" awk -v v="$(sum qmax)" 'BEGIN { exit !(v > 0) }'
# r_await ends where the kernel accounts the request (block_io_done, after
# its bios have completed); the traced times end at block_rq_complete. The
# step between the two is bpftrace's (rq_complete -> io_done per read),
# measured in the same run; at low latency it is a few % of r_await.
tail=$(t_bt_tail_us "$T_TMP/bt.out")
echo "# completion tail (bpftrace block_rq_complete -> block_io_done): ${tail:-none} us per read"
t_check "bpftrace timed the completion tail (${tail:-none} us)" test -n "$tail"
t_check "queue + device avg ($(sum qd)) + tail (${tail:-none}) = r_await ($r_await us) within 3%" \
	awk -v s="$(sum qd)" -v t="$tail" -v a="$r_await" 'BEGIN { e = s + t - a; if (e < 0) e = -e; exit !(e <= 0.03 * a + 1) }'
t_check "alloc->completion avg ($lat) + tail (${tail:-none}) = r_await ($r_await us) within 3%" \
	awk -v l="$lat" -v t="$tail" -v a="$r_await" 'BEGIN { e = l + t - a; if (e < 0) e = -e; exit !(e <= 0.03 * a + 1) }'

# bpftrace's exact percentiles against the log2 bucket of blktune's summed
# histogram that holds the same rank: in that bucket (U/2, U] or a neighbour
# (the two tools stamp issue and completion a few hundred ns apart)
python3 "$(dirname "$0")/bt-hist.py" "$T_TMP/bt.out" f c 0.5 0.9 0.99 > "$T_TMP/bt"
bt_n=$(awk '$1 == "count" { print $2 }' "$T_TMP/bt")
# short by no more than 0.5 % plus the events the kernel skipped for it (see
# trace-split.sh), never over
t_check "bpftrace timed as many requests as blktune counted (0.5% + $misses skipped): $bt_n ~ $n" \
	awk -v b="$bt_n" -v n="$n" -v m="$misses" 'BEGIN { t = n / 200 + 1; exit !(b > 0 && b <= n + t && n - b <= t + m) }'
for p in 50 90 99; do
	x=$(awk -v k="p$p" '$1 == k { print $2 }' "$T_TMP/bt")
	u=$(awk -v h="$(sum hist)" -v le="$(sum le)" -v p="$p" 'BEGIN {
		k = split(h, c, ","); split(le, u, ","); for (i = 1; i <= k; i++) t += c[i]
		for (i = 1; i <= k; i++) { s += c[i]; if (s >= p / 100 * t) { print u[i]; exit } } }')
	t_check "device time p$p: bpftrace $x us within blktune's bucket (..., $u us] or a neighbour" \
		awk -v x="$x" -v u="$u" 'BEGIN { exit !(x != "none" && u != "inf" && x > u / 4 && x <= 2 * u) }'
done
echo none > $q/scheduler
t_done
