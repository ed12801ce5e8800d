#!/usr/bin/env bash
# --trace-processes counts what it could not follow instead of hiding it
# ("trace_loss" in the process and cgroup JSON), and counts a request once
# however many steps its end takes.
#  - A request in flight when tracing begins completes without a traced
#    start. The test holds exactly one there: loop device B's backing file
#    lies on an ext4 (on loop device A) that fsfreeze has frozen, so B's
#    worker blocks writing it; the kernel's own in-flight count
#    (/sys/block/B/inflight) says one write is pending when blktune starts.
#    After the thaw, B's done_without_start is that count, and its "_new"
#    says so in exactly one report.
#  - O_SYNC direct writes on a write-back B go through the flush machinery
#    (a FUA write becomes data, then a flush: diskstats' flush count rises).
#    block_io_done fires for the data step and again at the end: counting
#    the first would leave the second without a start. fio's pair must have
#    its write requests equal to diskstats' writes (fio's total_ios and as
#    many empty PREFLUSH writes of the fsync O_SYNC adds), each done once,
#    and the loss count stay put.
#  - The cgroup JSON carries the same trace_loss as the process JSON.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
command -v jq >/dev/null || t_skip "no jq"
command -v fsfreeze >/dev/null || t_skip "no fsfreeze"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
N=${N:-64}
command -v mkfs.ext4 >/dev/null || t_skip "no mkfs.ext4"
bpid=
stop_blktune() { [ -n "$bpid" ] && kill "$bpid" 2>/dev/null; }
T_CLEANUP_FIRST+=(stop_blktune)
t_held_loop || { t_fail "a loop device over a file on an ext4 made here"; t_done; exit 1; }
B=$T_HELD
b=$T_HELD_NAME
echo "write back" > "/sys/block/$b/queue/write_cache"

# one write held in flight on B
t_check "a write is held in flight on $b" t_hold_write
read -r held_r held_w < "/sys/block/$b/inflight"
held=$((held_r + held_w))
echo "# in flight on $b when tracing starts: $held"

"$BLKTUNE" -b --json --top-processes --cgroups --trace-processes -d 0.5 -n 40 > "$T_TMP/out.json" \
	2> "$T_TMP/err" &
bpid=$!
reports() { grep -c '^{' "$T_TMP/out.json" 2>/dev/null || true; }
t_until 20 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json' 2>/dev/null) -ge 2 ]" || { cat "$T_TMP/err"; t_fail "blktune reports"; }
loss() { # REPORT-FILTER: B's done_without_start in that report (0 without a line)
	jq -s -r --arg d "$b" "[.[] | .processes.trace_loss.devices[] | select(.device == \$d) |
		.done_without_start] | $1 // 0" "$T_TMP/out.json"
}
t_eq "nothing lost while the write is still in flight" "$(loss last)" 0
t_release || t_fail "the held write completed after the thaw"
read -r _ w < "/sys/block/$b/inflight"
t_eq "nothing in flight on $b after the thaw" "$w" 0
n0=$(reports)
t_until 5 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json') -gt $n0 ]" || t_fail "a report after the thaw"
t_eq "its completion is counted without a start" "$(loss last)" "$held"

# O_SYNC direct writes: FUA on a write-back cache without FUA, so data, then a flush
f0=$(awk -v d="$b" '$3 == d { print $19 }' /proc/diskstats)
w0=$(awk -v d="$b" '$3 == d { print $8 }' /proc/diskstats)
fio --thread --name=sync --filename="$B" --rw=write --bs=4k --size="$((N * 4))k" --direct=1 --sync=1 \
	--ioengine=psync --name=hold --ioengine=null --rw=read --size=1m --time_based --runtime=2 \
	--output-format=json --output="$T_TMP/fio.json" >/dev/null 2>&1 &
fpid=$!
wait "$fpid" || t_fail "fio ran"
f1=$(awk -v d="$b" '$3 == d { print $19 }' /proc/diskstats)
w1=$(awk -v d="$b" '$3 == d { print $8 }' /proc/diskstats)
echo "# diskstats flushes on $b during fio: $((f1 - f0))"
t_check "the writes went through the flush machinery (flushes $((f1 - f0)) >= $N)" test $((f1 - f0)) -ge "$N"
n0=$(reports)
t_until 5 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json') -gt $n0 ]" || t_fail "a report after fio"
kill "$bpid" 2>/dev/null
wait "$bpid"
bpid=

tot=$(jq -r '.jobs[] | select(.jobname == "sync") | .write.total_ios' "$T_TMP/fio.json")
t_eq "fio wrote N blocks" "$tot" "$N"
pair=$(jq -s -r --argjson p "$fpid" --arg d "$b" '[.[] | .processes.rows[] | select(.pid == $p) | .devices[] |
	select(.device == $d) | "\(.write_requests) \(.done)"] | last // "none"' "$T_TMP/out.json")
t_check "fio's pair is in a report ($pair)" test "$pair" != none
read -r wreq done <<< "$pair"
# each O_SYNC write is a FUA write, then fsync's empty PREFLUSH write: both
# are writes to diskstats too
t_eq "its write requests are diskstats' writes during fio" "$wreq" "$((w1 - w0))"
t_check "they hold fio's $tot writes ($wreq)" test "$wreq" -ge "$tot"
t_eq "each is done once, at its end" "$done" "$wreq"
t_eq "no completion of those writes is without a start" "$(loss last)" "$held"
t_eq "the held write is new in exactly one report" \
	"$(jq -s -r --arg d "$b" '[.[] | .processes.trace_loss.devices[] | select(.device == $d) |
		select(.done_without_start_new > 0)] | length' "$T_TMP/out.json")" 1
t_eq "the cgroup JSON has the same trace_loss in every report" \
	"$(jq -s -r '[.[] | select(.processes.trace_loss != .cgroups.trace_loss)] | length' "$T_TMP/out.json")" 0
counts() { jq -s -e 'all(.[]; .processes.trace_loss.runs_skipped | type == "number")' "$T_TMP/out.json" >/dev/null; }
t_check "runs skipped is a count" counts
echo "# runs skipped: $(jq -s -r 'last.processes.trace_loss.runs_skipped' "$T_TMP/out.json")"
# a map refusing a start or a loss (procs_bpf_unkept) has no cause here:
# none, said as a count in every report
t_eq "nothing a map refused to store (not_kept 0 in every report)" \
	"$(jq -s -r '[.[] | .processes.trace_loss.not_kept] | unique | map(tostring) | join(",")' "$T_TMP/out.json")" 0
t_done
