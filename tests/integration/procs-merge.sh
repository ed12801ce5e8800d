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
t_done
