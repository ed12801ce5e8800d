#!/usr/bin/env bash
# The cgroup view's figures (blktune -b --json --cgroups) against fio's own
# JSON, for fio jobs run in a cgroup this test creates, on a loop device this
# test creates with a number never used before (so its queue has never been
# throttled: v1 blk-throttle, once activated on a queue, stays so).
# On v1 blkio (this machine):
#  1. no throttle rule, scheduler mq-deadline: nothing counts the device;
#     blktune lists it as uncounted and shows no zeros for it;
#  2. scheduler bfq: bfq's counters; the job's reads exactly (requests: 4k
#     random direct I/O at depth 1 never merges), bytes exactly;
#  3. a limitless throttle rule in our own cgroup: throttle's counters from
#     then on (the reads of 2 are not in them), the job's writes exactly;
#  4. a second report has rates; the cgroup is removed afterwards.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
V1=/sys/fs/cgroup/blkio
[ -e $V1/blkio.throttle.io_service_bytes_recursive ] || t_skip "no v1 blkio hierarchy"
CG=$V1/blktune-test-cg-$$
trap '[ -d "$CG" ] && rmdir "$CG"; t_cleanup' EXIT

t_loop_create_fresh 64 || t_skip "no free loop device number in 700-799"
dev=$T_LOOP
name=${dev#/dev/}
sched=/sys/block/$name/queue/scheduler
mkdir "$CG" || t_skip "cannot create a blkio cgroup"
in_cg() { bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CG" "$@"; }
fio_job() { # NAME RW SIZE: 4k direct, depth 1, JSON into $T_TMP/NAME.json
	in_cg fio --name="$1" --filename=$dev --rw="$2" --bs=4k --size="$3" --direct=1 --ioengine=psync \
		--randrepeat=0 --output-format=json --output="$T_TMP/$1.json" >/dev/null 2>&1
}
fiov() { jq -r ".jobs[0].$2" "$T_TMP/$1.json"; }
report() { "$BLKTUNE" -b --json --cgroups --no-trace -n "${1:-1}" -d 0.2 -p "$name" > "$T_TMP/out.json"; }
cgv() { # PATH FIELD: the row of our device for cgroup PATH, or "none"
	jq -r --arg p "$1" --arg d "$name" '[.cgroups.groups[] | select(.path == $p and .device == $d)] |
		if length == 0 then "none" else .[0].'"$2"' end' "$T_TMP/out.json" | tail -1
}
rel=/${CG#$V1/}

# 1. no rule, not bfq
echo mq-deadline > $sched
fio_job w1 randwrite 4M || t_fail "fio ran"
report
t_eq "cgroup version" "$(jq -r .cgroups.version "$T_TMP/out.json")" 1
t_eq "the fresh device is listed as counted by nobody" \
	"$(jq -r --arg d "$name" '.cgroups.uncounted | index($d) != null' "$T_TMP/out.json")" true
t_eq "and has no row (no zeros shown)" "$(cgv "$rel" counter)" none

# 2. bfq: its per-cgroup request counters
if t_have_sched bfq /sys/block/$name/queue && echo bfq > $sched; then
	fio_job r2 randread 8M || t_fail "fio ran"
	report
	t_eq "bfq: the device is counted" \
		"$(jq -r --arg d "$name" '.cgroups.uncounted | index($d) == null' "$T_TMP/out.json")" true
	t_eq "bfq: counter" "$(cgv "$rel" counter)" bfq
	t_eq "bfq: reads = fio's" "$(cgv "$rel" rios)" "$(fiov r2 read.total_ios)"
	t_eq "bfq: read bytes = fio's" "$(cgv "$rel" rbytes)" "$(fiov r2 read.io_bytes)"
	t_eq "bfq: no writes counted (the first job ran before bfq)" "$(cgv "$rel" wios)" 0
	t_check "bfq: the root's recursive count holds the cgroup's" \
		test "$(cgv / rios)" -ge "$(cgv "$rel" rios)"
	t_eq "bfq: the cgroup id is its directory's inode" "$(cgv "$rel" id)" "$(stat -c %i "$CG")"
else
	# its files are read on the fixture tree (tests/unit/test-cgroup.c)
	t_absent "scheduler bfq ($(cat $sched)): its per-cgroup counters untested here"
fi

# 3. a limitless rule in our own cgroup turns throttle's counters on
echo "$(cat /sys/block/$name/dev) 18446744073709551615" > "$CG/blkio.throttle.read_bps_device"
fio_job w3 randwrite 6M || t_fail "fio ran"
report
t_eq "throttle: counter" "$(cgv "$rel" counter)" throttle
t_eq "throttle: writes = fio's" "$(cgv "$rel" wios)" "$(fiov w3 write.total_ios)"
t_eq "throttle: write bytes = fio's" "$(cgv "$rel" wbytes)" "$(fiov w3 write.io_bytes)"
t_eq "throttle: counts only since the rule (the bfq phase's reads are not in it)" "$(cgv "$rel" rios)" 0

# 4. rates: a job running across two reports
reads() { awk '{ print $1 }' /sys/block/$name/stat; }
r0=$(reads)
fio_job r4 randread 32M &
job=$!
moved() { [ "$(reads)" -gt $((r0 + 100)) ]; }
t_until 10 moved || t_fail "fio's reads started"
report 3
wait $job
# the cgroup's reads per second (submitted) against diskstats' r/s of the
# device (completed) in each report: at depth 1 they differ by one I/O per
# interval at either end, plus what completes between the two reads of a
# sample (the cgroup walk comes after diskstats): 5 %
rates=$(jq -r --arg d "$name" --arg p "$rel" '[(.cgroups.groups[] | select(.path == $p and .device == $d) |
	.rios_s), .disk[0]["r/s"], .interval_s] | @tsv' "$T_TMP/out.json" | tail -2)
t_check "rates in later reports" test "$(echo "$rates" | grep -vc null)" -eq 2
while read -r ours theirs iv; do
	t_near "cgroup r/s vs diskstats r/s" "$ours" "$theirs" "$(awk -v i="$iv" -v t="$theirs" 'BEGIN { print 2 / i + t * 0.05 }')"
done <<< "$rates"
t_check "bad input: --cgroups without --json is refused" \
	sh -c '! "$0" -b --cgroups -n 1 2>/dev/null' "$BLKTUNE"

rmdir "$CG"
t_check "cgroup removed" test ! -d "$CG"
t_done
