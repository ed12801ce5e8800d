#!/usr/bin/env bash
# Flushes apart, as blktune prints them: ext4 on a loop device this test
# creates with a volatile cache ("write back"), fio writing with an fsync
# after every write, blktune -b --json sampling from before until after.
# Summed over its reports, the "lat_split" figures are held against
# /proc/diskstats over the same span (the device idle at both ends, so
# the span is the same requests):
#  - flush requests = diskstats' flushes, and the flush histograms (queue
#    and device) hold each of them once;
#  - write requests = diskstats' writes, and the write histograms hold
#    those and no more: none of the flushes;
# the counts within 0.5 % (at least 2): on this loaded 2-CPU machine the
# reports' sums came 0-4 writes (up to 0.26 %) and 0-2 flushes short of
# diskstats in four runs, while the histograms held exactly the requests
# counted; a flush filed as a write would put ~1000 too many there.
# trace-flush.sh checks the same through the probe.
# Needs root, fio, jq, mkfs.ext4.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
command -v jq >/dev/null || t_skip "no jq"
command -v mkfs.ext4 >/dev/null || t_skip "no mkfs.ext4"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
t_loop_create 256 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
echo "write back" > /sys/block/$name/queue/write_cache || t_skip "cannot set write_cache on $dev"
[ "$(cat /sys/block/$name/queue/write_cache)" = "write back" ] || t_skip "write_cache stays write through"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" || t_skip "mkfs.ext4 failed"
mnt=$T_TMP/mnt
mkdir -p "$mnt"
mount -o noatime "$dev" "$mnt" || t_skip "cannot mount ext4 on $dev"
bpid=
cleanup() { [ -n "$bpid" ] && kill "$bpid" 2>/dev/null; mountpoint -q "$mnt" && umount "$mnt"; t_cleanup; }
trap cleanup EXIT
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
sync

# diskstats after the name: 1 reads, 5 writes, 16 flushes
ds() { awk -v n="$name" '$3 == n { print $4, $8, $19 }' /proc/diskstats; }
# idle: no request completes on the device for 2 s (the mount's own
# journal writes done)
quiet() { local a b; a=$(ds); sleep 2; b=$(ds); [ "$a" = "$b" ]; }
"$BLKTUNE" -b --json -d 1 -n 600 -p "$name" > "$T_TMP/out.json" 2> "$T_TMP/err" &
bpid=$!
reports() { grep -a '}$' "$T_TMP/out.json"; }
traced_on() { [ "$(reports | head -n 1 | jq -r --arg d "$name" '.disk[] | select(.disk_device == $d) | .traced')" = true ]; }
t_until 20 traced_on || { cat "$T_TMP/err"; t_fail "blktune reports, traced"; }
# then quiet (the mount's journal writes done): the reports from here on
# hold every request diskstats counts from here on
t_until 30 quiet || t_fail "the new filesystem went quiet"
read -r r0 w0 f0 <<<"$(ds)"
first=$(($(reports | wc -l) + 1))
fio --name=fsync --directory="$mnt" --rw=randwrite --bs=4k --size=8m --io_size=2m --fsync=1 \
	--ioengine=psync --output-format=terse >/dev/null 2>"$T_TMP/fio.err" || t_fail "fio: $(cat "$T_TMP/fio.err")"
sync
t_until 30 quiet || t_fail "quiet after the job"
# a report that began after the device went quiet: everything counted
nreports=$(reports | wc -l)
one_more() { [ "$(reports | wc -l)" -gt $((nreports + 1)) ]; }
t_until 10 one_more || t_fail "blktune reported after the job"
kill "$bpid"
wait "$bpid" 2>/dev/null
bpid=
read -r r1 w1 f1 <<<"$(ds)"
dr=$((r1 - r0)) dw=$((w1 - w0)) df=$((f1 - f0))

# per op over the reports: requests, and the counts in its two histograms
sums() {
	reports | tail -n +"$first" | jq -s -r --arg d "$name" --arg op "$1" '[.[].disk[] | select(.disk_device == $d) |
		.lat_split[$op] | select(. != null)] |
		"\(map(.requests) | add // 0) \(map(.lat_hist_us.queue | map(.count) | add) | add // 0)" +
		" \(map(.lat_hist_us.device | map(.count) | add) | add // 0)"'
}
read -r fn fq fd <<<"$(sums flush)"
read -r wn wq wd <<<"$(sums write)"
read -r rn _ _ <<<"$(sums read)"
echo "# diskstats: reads $dr writes $dw flushes $df; blktune: reads $rn, writes $wn (histograms $wq, $wd), flushes $fn (histograms $fq, $fd)"
t_check "the workload flushed (diskstats flushes $df > 100)" test "$df" -gt 100
tol() { awk -v n="$1" 'BEGIN { t = int(n / 200 + 0.999); print (t < 2 ? 2 : t) }'; }
t_near "flush requests = diskstats flushes" "$fn" "$df" "$(tol "$df")"
t_near "write requests = diskstats writes" "$wn" "$dw" "$(tol "$dw")"
t_near "read requests = diskstats reads" "$rn" "$dr" "$(tol "$dr")"
t_eq "the flush queue histogram holds every flush once" "$fq" "$fn"
t_eq "the flush device histogram too" "$fd" "$fn"
t_eq "the write queue histogram holds the writes and none of the flushes" "$wq" "$wn"
t_eq "the write device histogram too" "$wd" "$wn"
t_done
