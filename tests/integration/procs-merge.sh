#!/usr/bin/env bash
# --trace-processes counts a request's bytes whole when bios merge into it
# after its start. block_io_start fires when the first bio becomes a
# request; bios the submitter's plug (or the scheduler) merges into it
# later are part of the request (diskstats counts them as merges, the
# sectors in full) but were no part of the bytes counted there, so a
# sequential job's read_bytes came short by one bio per merge.
# fio reads 32 MiB sequentially with direct 4 KiB I/O at depth 32, each
# batch submitted at once (libaio, iodepth_batch_submit): the plug merges
# some neighbours (31 of 8192 on this machine). blktune -b --json
# --top-processes --cgroups --trace-processes runs from before the job to
# after it on a loop device this test creates; a null-engine job keeps the
# fio process alive past its last I/O. Then
#  - fio's (process, device) pair has read_bytes = fio's io_bytes exactly,
#    and read_requests = diskstats' completed reads over the job;
#  - the cgroup view's traced pair for the device the same bytes.
# Then the scheduler's merges: requests held in mq-deadline while the loop
# device's backing file lies on a frozen ext4 (t_held_loop), fio writes the
# even 4 KiB blocks of a range (each a request of its own, held) and then
# the odd ones: each odd bio merges into the request before it, which then
# swallows the one after it (block_rq_merge: a request started, never
# issued nor done). Before, each swallowed request counted as a request (257
# against diskstats' 132) and the odd bios' bytes not at all. After the
# thaw, fio's pair has write_requests = diskstats' writes, write_bytes =
# fio's io_bytes, and done = write_requests.
# Needs root (BPF), fio and jq.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
command -v jq >/dev/null || t_skip "no jq"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
t_loop_create 64 || t_skip "no loop device"
dev=$T_LOOP
name=${dev#/dev/}
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; t_cleanup' EXIT
reads() { awk -v n="$name" '$3 == n { print $4, $5 }' /proc/diskstats; }
tp_settle() { command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null; sleep 0.3; }
tp_settle

"$BLKTUNE" -b --json --top-processes --cgroups --trace-processes -d 1 -n 30 -p "$name" > "$T_TMP/out.json" \
	2> "$T_TMP/err" &
bpid=$!
pids+=($bpid)
t_until 20 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json' 2>/dev/null) -ge 1 ]" || { cat "$T_TMP/err"; t_fail "blktune reports"; }
read -r r0 m0 <<< "$(reads)"
fio --thread --name=seq --filename="$dev" --rw=read --bs=4k --size=32m --direct=1 --ioengine=libaio \
	--iodepth=32 --iodepth_batch_submit=32 --runtime=15 \
	--name=hold --ioengine=null --rw=read --size=1m --time_based --runtime=3 \
	--output-format=json --output="$T_TMP/fio.json" >/dev/null 2>&1 &
fpid=$!
pids+=($fpid)
wait "$fpid" || t_fail "fio ran"
read -r r1 m1 <<< "$(reads)"
# one more report after the job
n0=$(grep -c '^{' "$T_TMP/out.json")
t_until 5 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json') -gt $n0 ]" || t_fail "a report after the job"
kill -INT "$bpid" 2>/dev/null
wait "$bpid"
pids=()

bytes=$(jq -r '.jobs[] | select(.jobname == "seq") | .read.io_bytes' "$T_TMP/fio.json")
t_eq "fio read 32 MiB" "$bytes" 33554432
merges=$((m1 - m0))
echo "# diskstats over the job: $((r1 - r0)) reads, $merges merges"
[ "$merges" -gt 0 ] || t_subskip "no merge this run: the test shows nothing about merged bios"
last=$(jq -s -r --argjson p "$fpid" --arg d "$name" '[.[] | .processes.rows[] | select(.pid == $p) |
	.devices[] | select(.device == $d) | "\(.read_bytes) \(.read_requests)"] | last // "none none"' "$T_TMP/out.json")
read -r pbytes preqs <<< "$last"
t_eq "the pair's read_bytes are fio's io_bytes, merged bios included" "$pbytes" "$bytes"
t_eq "the pair's read_requests are diskstats' reads (requests, after merging)" "$preqs" "$((r1 - r0))"
cg=$(jq -s -r --arg d "$name" '[.[] | .cgroups.groups[] | select(.device == $d and .traced != null) |
	.traced.read_bytes] | last // "none"' "$T_TMP/out.json")
t_eq "the cgroup's traced read_bytes the same" "$cg" "$bytes"

# requests merged into others in the scheduler
if ! t_held_loop; then
	t_subskip "no ext4 on a loop device to hold requests: the scheduler's merges are not checked"
	t_done
	exit
fi
h=$T_HELD_NAME
t_have_sched mq-deadline "/sys/block/$h/queue" || { t_subskip "no mq-deadline"; t_done; exit; }
echo mq-deadline > "/sys/block/$h/queue/scheduler"
wrs() { awk -v n="$h" '$3 == n { print $8, $9 }' /proc/diskstats; }
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
"$BLKTUNE" -b --json --top-processes --cgroups --trace-processes -d 1 -n 40 -p "$h" > "$T_TMP/out2.json" \
	2> "$T_TMP/err2" &
bpid=$!
pids+=($bpid)
t_until 20 sh -c "[ \$(grep -c '^{' '$T_TMP/out2.json' 2>/dev/null) -ge 1 ]" || { cat "$T_TMP/err2"; t_fail "blktune reports"; }
read -r w0 wm0 <<< "$(wrs)"
fsfreeze -f "$T_TMP/held" || t_fail "freeze"
fio --thread --ioengine=libaio --direct=1 --bs=4k --iodepth=256 \
	--name=even --filename="$T_HELD" --rw=write:4k --number_ios=256 --size=8m \
	--name=odd --filename="$T_HELD" --rw=write:4k --offset=$((257 * 4096)) --number_ios=127 --size=4m \
	--startdelay=1 \
	--name=hold --ioengine=null --rw=read --size=1m --time_based --runtime=6 \
	--output-format=json --output="$T_TMP/fio2.json" >/dev/null 2>&1 &
fpid=$!
pids+=($fpid)
sleep 3
fsfreeze -u "$T_TMP/held"
wait "$fpid" || t_fail "fio ran"
read -r w1 wm1 <<< "$(wrs)"
n0=$(grep -c '^{' "$T_TMP/out2.json")
t_until 5 sh -c "[ \$(grep -c '^{' '$T_TMP/out2.json') -gt $n0 ]" || t_fail "a report after the job"
kill -INT "$bpid" 2>/dev/null
wait "$bpid"
pids=()
echo none > "/sys/block/$h/queue/scheduler"
bytes=$(jq -s -r '[.[].jobs[]? // empty] | map(.write.io_bytes) | add' "$T_TMP/fio2.json")
echo "# diskstats over the job: $((w1 - w0)) writes, $((wm1 - wm0)) merges; fio wrote $bytes bytes"
t_eq "fio wrote 383 blocks" "$bytes" $((383 * 4096))
# the cgroup's pair: a process's row goes once its requests stop
cg=$(jq -s -r --arg d "$h" '[.[] | .cgroups.groups[] | select(.device == $d and .traced != null) |
	"\(.traced.write_requests) \(.traced.write_bytes) \(.traced.done)"] | last // "none"' "$T_TMP/out2.json")
read -r creqs cbytes cdone <<< "$cg"
t_eq "write_requests are diskstats' writes (swallowed requests not counted)" "$creqs" "$((w1 - w0))"
t_eq "write_bytes are fio's, merged bios included" "$cbytes" "$bytes"
t_eq "every counted request done" "$cdone" "$creqs"
pw=$(jq -s -r --argjson p "$fpid" --arg d "$h" '[.[] | .processes.rows[] | select(.pid == $p) |
	.devices[] | select(.device == $d) | .write_requests] | last // "none"' "$T_TMP/out2.json")
t_eq "fio's pair the same requests" "$pw" "$((w1 - w0))"
t_done
