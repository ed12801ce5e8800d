#!/usr/bin/env bash
# Every device in /proc/diskstats is a row, however many: the kernel hands
# the file out a page (about 70 devices) per read, so a reader that takes a
# short read for the end silently drops the rest. 300 loop devices this test
# creates (LOOP_CTL_ADD, no backing file) must all be in blktune's report,
# and blktune's count of disks must match diskstats', and its metrics
# endpoint must serve them all. Needs root.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v python3 >/dev/null || t_skip "needs python3 to read JSON"
[ -e /dev/loop-control ] || t_skip "no /dev/loop-control"
N=300
FIRST=${FIRST:-6000} # loop indices FIRST.. are free on ordinary machines
cc -O2 -o "$T_TMP/loopctl" "$T_TOP/tests/bench/loopctl.c" || t_skip "cannot build loopctl"
made=()
# udev may still hold a new device open: try those again
cleanup() {
	local i try
	for ((try = 0; try < 10 && ${#made[@]} > 0; try++)); do
		[ "$try" -gt 0 ] && sleep 0.5
		"$T_TMP/loopctl" remove "${made[@]}" 2>/dev/null
		for i in "${!made[@]}"; do
			[ -e "/sys/block/loop${made[$i]}" ] || unset 'made[i]'
		done
	done
	made=()
}
trap 'cleanup; t_cleanup' EXIT
mapfile -t made < <("$T_TMP/loopctl" add "$FIRST" "$N")
t_check "created loop devices (${#made[@]} of $N)" test "${#made[@]}" -ge $((N * 9 / 10))
command -v udevadm >/dev/null && udevadm settle
t_check "diskstats is longer than one page ($(wc -c </proc/diskstats) bytes)" test "$(wc -c </proc/diskstats)" -gt 8192

"$BLKTUNE" -b --json --partitions -n 1 -d 0.2 --no-trace --journal-dir "$T_TMP/j" >"$T_TMP/out.json" 2>"$T_TMP/err"
t_eq "blktune exits 0" "$?" 0
python3 - "$T_TMP/out.json" >"$T_TMP/names" <<'PY'
import json, sys
o = json.loads(open(sys.argv[1]).readline())
for d in o["disk"]:
    print(d["disk_device"])
PY
missing=0
for i in "${made[@]}"; do
	grep -qx "loop$i" "$T_TMP/names" || missing=$((missing + 1))
done
t_eq "every one of ours is a row" "$missing" 0
t_check "the last of ours too (loop${made[-1]})" grep -qx "loop${made[-1]}" "$T_TMP/names"
# Others' devices may come and go meanwhile: the counts agree within a few.
rows=$(wc -l <"$T_TMP/names") lines=$(wc -l </proc/diskstats)
t_check "rows ($rows) = diskstats lines ($lines), give or take others' devices" test $((rows - lines)) -le 8 -a $((lines - rows)) -le 8
# The metrics endpoint on such a machine: blktune keeps a few files open per
# device, so an accepted connection's fd is past FD_SETSIZE (1024), where a
# select()-based HTTP server drops it unanswered (curl got an empty reply).
if command -v curl > /dev/null; then
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	# only a signal ends it: the HTTP server's thread must not take it
	"$BLKTUNE" -b -d 0.5 -n 100000 --no-trace --listen "127.0.0.1:$port" --journal-dir "$T_TMP/jl" \
		> /dev/null 2> "$T_TMP/listen.err" &
	bpid=$!
	served() { curl -sf -m 5 "http://127.0.0.1:$port/metrics" > "$T_TMP/metrics" && grep -q "^blktune_read_bytes_total{device=\"loop${made[-1]}\"} " "$T_TMP/metrics"; }
	t_check "/metrics is served with every device open" t_until 20 served
	fds=$(ls "/proc/$bpid/fd" 2> /dev/null | wc -l)
	t_check "with more files open than select() can watch ($fds)" test "$fds" -gt 1024
	missing=0
	for i in "${made[@]}"; do
		grep -q "^blktune_read_bytes_total{device=\"loop$i\"} " "$T_TMP/metrics" || missing=$((missing + 1))
	done
	t_eq "every one of ours is exported" "$missing" 0
	kill -INT $bpid
	t_check "SIGINT ends blktune --listen (a background job's SIGINT is ignored by default)" \
		t_until 20 sh -c "! kill -0 $bpid 2> /dev/null"
	kill -KILL $bpid 2> /dev/null
	wait $bpid
	t_eq "blktune --listen exits 0 on SIGINT" "$?" 0
else
	t_subskip "no curl for the metrics endpoint"
fi
cleanup # before t_done removes loopctl with the test's directory
t_done
