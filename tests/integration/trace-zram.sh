#!/usr/bin/env bash
# Bio-based tracing on zram (no blk-mq: only block_bio_* fire). Uses zram0 only
# when it exists and is unused (disksize 0, no holders, not swap or mounted),
# and resets it afterwards. Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/trace-common.bash"
t_need_root
z=/sys/block/zram0
[ -e $z ] || t_skip "no /sys/block/zram0 (zram module not loaded)"
[ "$(cat $z/disksize)" = 0 ] || t_skip "zram0 is in use (disksize $(cat $z/disksize))"
[ -z "$(ls $z/holders 2>/dev/null)" ] || t_skip "zram0 has holders"
grep -q '^/dev/zram0 ' /proc/swaps /proc/mounts && t_skip "zram0 is swap or mounted"
echo 64M > $z/disksize || t_skip "cannot size zram0"
zram_reset() { echo 1 > $z/reset 2>/dev/null; }
trap 'tp_close; zram_reset; t_cleanup' EXIT
tp_settle
tp_open /dev/zram0

# the kernel's own counts of completed reads and writes (diskstats 1 and 5)
ios() { awk '{print $1 + $5}' $z/stat; }
io0=$(ios)
tp_cmd start
dd if=/dev/zero of=/dev/zram0 bs=4k count=500 oflag=direct status=none
dd if=/dev/zram0 of=/dev/null bs=4k count=1000 iflag=direct status=none
dd if=/dev/zram0 of=/dev/null bs=64k count=200 skip=100 iflag=direct status=none
tp_cmd stop || t_fail "probe answered"
io1=$(ios)

t_eq "traced as bio-based" "${TP[path]:-}" bio
t_eq "reads issued" "${TP[issued_read]:-}" 1200
t_eq "reads completed" "${TP[completed_read]:-}" 1200
t_eq "4 KiB read bucket" "${TP[size_read_le_4096]:-}" 1000
t_eq "64 KiB read bucket" "${TP[size_read_le_65536]:-}" 200
t_eq "writes issued" "${TP[issued_write]:-}" 500
t_eq "writes completed" "${TP[completed_write]:-}" 500
t_eq "4 KiB write bucket" "${TP[size_write_le_4096]:-}" 500
t_eq "the kernel counted 1700 bios (diskstats)" "$((io1 - io0))" 1700
t_eq "completions summed over CPUs = the kernel's count (diskstats)" "$(tp_sum cpu _completed)" "$((io1 - io0))"
# bios carry no submitting CPU: no classes, by design
t_eq "no CPU classes for bio-based" "$(tp_sum class_ '')" 0
echo "# latency: ${TP[lat_n]:-0} bios timed, ${TP[no_start]:-0} without a queue time, p50 ${TP[lat_p50_us]:-} us"
t_eq "timed + untimed = completed" "$(( ${TP[lat_n]:-0} + ${TP[no_start]:-0} ))" "${TP[completed]:-}"
t_eq "every bio has a latency (queued while traced)" "${TP[lat_n]:-0}" "${TP[completed]:-}"
t_check "a p50 latency is measured (${TP[lat_p50_us]:-} us)" awk -v v="${TP[lat_p50_us]:-nan}" 'BEGIN { exit !(v + 0 > 0) }'
# bio-based: no request queue, so no queue/device split: null, never zeros
t_eq "no queue/device split on a bio-based device" "${TP[split]:-}" 0
t_check "JSON: lat_split, q_p99_us and d_p99_us are null" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["lat_split"] is None and d["q_p99_us"] is None and d["d_p99_us"] is None' "${TP[json]}"
tp_close
zram_reset
t_eq "zram0 reset afterwards" "$(cat $z/disksize)" 0
t_done
