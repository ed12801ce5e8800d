#!/usr/bin/env bash
# A job shorter than one interval gets its rate in the interval it ran: its
# (process, device) pair and its (cgroup, device) pair are new since the
# previous traced sample, created at zero by bpf/procs.bpf.c, so their rates
# are all their requests over the interval (model_procs_zero). blktune -b
# --json --top-processes --cgroups --trace-processes -d 1 runs on a loop
# device this test creates; right after a report (so the burst lies inside
# one interval) fio reads N direct 4k blocks at depth 1 (no merges: N
# requests, fio's total_ios) in a few tens of ms, in a v1 blkio cgroup of its
# own, and a null-engine job keeps the fio process alive past the next
# sample (a process gone by then is not in the process view). In the first
# report with the pair:
#  - read_requests_s is its read_requests (counted since the pair was
#    created) / interval within 5 %, not null (before this change: null
#    until the pair's second interval), and by the pair's last report its
#    read_requests are fio's total_ios (normally the whole job falls in
#    the first interval; a stalled machine may split it);
#  - it has latency percentiles (its whole histogram);
#  - the cgroup's traced read_requests_s the same;
#  - once fio has exited, the next samples delete its pair from the map
#    (bpftool on blktune's own map), so a new process given its PID
#    starts from zero.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
command -v jq >/dev/null || t_skip "no jq"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
N=${N:-400}
V1=/sys/fs/cgroup/blkio
CG=
t_loop_create 64 || t_skip "no loop device"
dev=$T_LOOP
name=${dev#/dev/}
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; [ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG"; t_cleanup' EXIT
if [ -d $V1 ] && mkdir "$V1/blktune-test-short-$$" 2>/dev/null; then
	CG=$V1/blktune-test-short-$$
else
	t_subskip "no v1 blkio cgroup of our own: the cgroup view's part is not checked"
fi

"$BLKTUNE" -b --json --top-processes --cgroups --trace-processes -d 1 -n 12 -p "$name" > "$T_TMP/out.json" \
	2> "$T_TMP/err" &
pids+=($!)
bpid=$!
reports() { grep -c '^{' "$T_TMP/out.json" 2>/dev/null || true; }
# two reports: the next sample's previous one is traced
t_until 20 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json' 2>/dev/null) -ge 2 ]" || { cat "$T_TMP/err"; t_fail "blktune reports"; }
n0=$(reports)
t_until 5 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json') -gt $n0 ]" || t_fail "a third report"
# right after a report: the burst is early in the interval
sh -c 'if [ -n "$0" ]; then echo $$ > "$0/cgroup.procs" || exit 1; fi; exec "$@"' "$CG" \
	fio --thread --name=short --filename="$dev" --rw=randread --bs=4k --size="$((N * 4))k" --direct=1 \
	--ioengine=psync --randrepeat=0 \
	--name=hold --ioengine=null --rw=read --size=1m --time_based --runtime=3 \
	--output-format=json --output="$T_TMP/fio.json" >/dev/null 2>&1 &
fpid=$!
pids+=($fpid)
# fio's pair in blktune's own map (bpftool: the key is tgid, then the
# kernel's dev_t, major << 20 | minor, both little-endian u32)
mid=
if command -v bpftool >/dev/null; then
	for p in $bpid $(pgrep -P "$bpid"); do
		for i in $(awk '/^map_id/ { print $2 }' /proc/"$p"/fdinfo/* 2>/dev/null); do
			bpftool map show id "$i" 2>/dev/null | grep -q " name procs " && mid=$i
		done
	done
	[ -n "$mid" ] || t_fail "blktune's procs map found"
else
	t_subskip "no bpftool: the pair's deletion at exit is not checked"
fi
le32() { printf '%02x %02x %02x %02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
kdev=$(( $(stat -L -c '0x%t' "$dev") << 20 | $(stat -L -c '0x%T' "$dev") ))
key="$(le32 "$fpid") $(le32 "$kdev")"
lookup() { bpftool map lookup id "$mid" key hex $key 2>&1; }
in_map() { lookup | grep -q "value"; }
# not found while blktune lives (its map then still does)
not_in_map() { lookup | grep -q 'Not found' && kill -0 "$bpid" 2>/dev/null; }
[ -n "$mid" ] && t_check "fio's pair is in the map while it runs" t_until 5 in_map
wait "$fpid" || t_fail "fio ran"
[ -n "$mid" ] && t_check "its pair is deleted once it has exited" t_until_exact 4 not_in_map
wait "$bpid" || { cat "$T_TMP/err"; t_fail "blktune ran"; }
pids=()

tot=$(jq -r '.jobs[] | select(.jobname == "short") | .read.total_ios' "$T_TMP/fio.json")
t_eq "fio read N blocks" "$tot" "$N"
t_eq "traced in every report" "$(jq -s -r 'map(.processes.traced) | unique | join(",")' "$T_TMP/out.json")" true
# the first report with fio's pair on our device: "interval requests requests_s p50"
first=$(jq -s -r --argjson p "$fpid" --arg d "$name" '[.[] | .processes.interval as $i | .processes.rows[] |
	select(.pid == $p) | .devices[] | select(.device == $d) |
	"\($i) \(.read_requests) \(.read_requests_s) \(.lat_p50_us)"] | first // "none"' "$T_TMP/out.json")
# (without a rate the process is not in the rows at all: no bytes in the
# interval it ran, and none after)
t_check "fio's pair is in a report ($first)" test "$first" != none
read -r ivl reqs reqs_s p50 <<< "$first"
echo "# first report with the pair: interval $ivl s, $reqs requests, $reqs_s/s, p50 $p50 us"
# Normally the whole job falls in that interval; a stalled machine may split
# it over two, so the checks hold either way: the requests counted by the
# pair's last report are fio's, and the first report's rate is its
# requests since tracing started (the pair's counters) over the interval:
# counted from zero.
last=$(jq -s -r --argjson p "$fpid" --arg d "$name" '[.[] | .processes.rows[] | select(.pid == $p) |
	.devices[] | select(.device == $d) | .read_requests] | last // "none"' "$T_TMP/out.json")
t_eq "the pair's requests by its last report are fio's total_ios" "$last" "$tot"
[ "$reqs" = "$tot" ] || echo "# the job was split over two intervals: $reqs of $tot requests in the first"
t_check "a rate in its first interval ($reqs_s)" awk -v r="$reqs_s" 'BEGIN { exit !(r + 0 > 0) }'
want=$(awk -v n="$reqs" -v i="$ivl" 'BEGIN { printf "%.3f", (i > 0 ? n / i : -1) }')
t_near "the rate is its requests / interval within 5 % (counted from zero)" "$reqs_s" "$want" \
	"$(awk -v w="$want" 'BEGIN { print w * 0.05 }')"
t_check "latency percentiles in its first interval ($p50)" awk -v p="$p50" 'BEGIN { exit !(p + 0 > 0) }'

if [ -n "$CG" ]; then
	cgid=$(stat -c %i "$CG")
	first=$(jq -s -r --arg id "$cgid" --arg d "$name" '[.[] | .processes.interval as $i | .cgroups.groups[] |
		select((.id | tostring) == $id and .device == $d and .traced != null) |
		"\($i) \(.traced.read_requests) \(.traced.read_requests_s)"] | first // "none"' "$T_TMP/out.json")
	t_check "the cgroup's pair is in a report ($first)" test "$first" != none
	read -r ivl reqs reqs_s <<< "$first"
	echo "# first report with the cgroup's pair: interval $ivl s, $reqs requests, $reqs_s/s"
	last=$(jq -s -r --arg id "$cgid" --arg d "$name" '[.[] | .cgroups.groups[] |
		select((.id | tostring) == $id and .device == $d and .traced != null) | .traced.read_requests] |
		last // "none"' "$T_TMP/out.json")
	t_eq "cgroup: its pair's requests by its last report are fio's total_ios" "$last" "$tot"
	want=$(awk -v n="$reqs" -v i="$ivl" 'BEGIN { printf "%.3f", (i > 0 ? n / i : -1) }')
	t_near "cgroup: a rate in its first interval, its requests / interval within 5 %" "$reqs_s" "$want" \
		"$(awk -v w="$want" 'BEGIN { print w * 0.05 }')"
fi
t_done
