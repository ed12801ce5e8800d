#!/usr/bin/env bash
# A request that completes in steps is sized whole. A loop device whose
# backing file was cut short under it ends a direct 64 KiB read that
# crosses the new end in two block_rq_complete events: the 48 KiB the file
# still had (a partial completion; the loop driver requeues the rest), then
# the 16 KiB left, with an I/O error. The request is counted once, at its
# last step (as diskstats counts it), where the kernel's request holds only
# those 16 KiB: before this, the size histogram filed it under <=16K with
# 16384 bytes although it was 64 KiB (rkB/s: 64). blktune -b --json runs on
# a loop device this test creates; over its reports the read histogram
# must hold exactly one request, in the <=64K bucket, with 65536 bytes, and
# the 4 KiB reads done afterwards in <=4K (the step's state is gone).
# Needs root (BPF), jq.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v jq >/dev/null || t_skip "no jq"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
t_loop_create 64 || t_skip "no loop device"
dev=$T_LOOP
name=${dev#/dev/}
back=$(losetup -n -O BACK-FILE "$dev" | sed 's/ *$//')
[ -f "$back" ] || t_skip "cannot find the backing file of $dev"
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
sleep 0.3
"$BLKTUNE" -b --json -d 1 -n 30 -p "$name" > "$T_TMP/out.json" 2> "$T_TMP/err" &
bpid=$!
t_until 20 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json' 2>/dev/null) -ge 1 ]" || { cat "$T_TMP/err"; t_fail "blktune reports"; }
truncate -s $((32 * 1024 * 1024 + 48 * 1024)) "$back"
dd if="$dev" of=/dev/null bs=64k count=1 skip=512 iflag=direct status=none 2>/dev/null
t_eq "the read across the file's end fails (EIO)" "$?" 1
dd if="$dev" of=/dev/null bs=4k count=10 iflag=direct status=none
n0=$(grep -c '^{' "$T_TMP/out.json")
t_until 5 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json') -gt $n0 ]" || t_fail "a report after the reads"
kill -INT "$bpid" 2>/dev/null
wait "$bpid"
hist=$(jq -s -c '[.[] | .disk[0].rq_size_hist.read // empty | .[] | select(.count > 0)] |
	group_by(.bytes_le) | map({le: .[0].bytes_le, n: (map(.count) | add), bytes: (map(.bytes) | add)})' \
	"$T_TMP/out.json")
echo "# read sizes: $hist"
t_eq "the 64 KiB request once, in <=64K, with its 65536 bytes" \
	"$(jq -c '[.[] | select(.le == 65536)]' <<< "$hist")" '[{"le":65536,"n":1,"bytes":65536}]'
t_eq "nothing in <=16K" "$(jq -c '[.[] | select(.le == 16384)] | length' <<< "$hist")" 0
n4=$(jq -c '[.[] | select(.le == 4096) | .n] | add' <<< "$hist")
# (udev may read the device too)
t_check "the 4 KiB reads after it in <=4K ($n4)" test "${n4:-0}" -ge 10
t_done
