#!/usr/bin/env bash
# Cost of a sweep's exact window (issue 9): while a run is on, blktune sweep
# reads the device's stat every 5 ms (and its command's cgroup counters)
# besides the 1 s interval samples. Measured as the CPU per second of a
# sampling-only sweep of an idle loop device made here (steady state from
# /proc/PID/schedstat, start-up left out), against blktune -b -d 1 -p on the
# same device (the interval sampling alone), interleaved, medians of REPEATS;
# prints both and their ratio. Usage: tests/bench/sweep-poll.sh [build-dir]
# (env REPEATS, SPAN)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
REPEATS=${REPEATS:-3}
SPAN=${SPAN:-8}
[ "$(id -u)" -eq 0 ] || { echo "skip - sweep bench needs root"; exit 77; }
tmp=$(mktemp -d /tmp/blktune-swbench.XXXXXX)
dev=
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
trap cleanup EXIT
truncate -s 64M "$tmp/img"
dev=$(losetup -f --show "$tmp/img") || exit 1
n=${dev#/dev/}
export BLKTUNE_JOURNAL_DIR=$tmp/journal XDG_STATE_HOME=$tmp/state

. "$top/tests/bench/lib.bash"
# cpu_per_s CMD...: CPU seconds per second of CMD after 3 s of start-up
cpu_per_s() { bench_cpu 3 "$SPAN" "$@" | awk -v s="$SPAN" '{ printf "%.9f\n", $1 / s }'; }
: > "$tmp/sw"; : > "$tmp/b"
for ((r = 0; r < REPEATS; r++)); do
	cpu_per_s "$build/blktune" sweep "$dev" read_ahead_kb=256 --settle 0 --duration 60 --dir "$tmp/d$r" >> "$tmp/sw"
	cpu_per_s "$build/blktune" -b -d 1 -p "$n" >> "$tmp/b"
done
sw=$(bench_median < "$tmp/sw"); b=$(bench_median < "$tmp/b")
[ -n "$sw" ] && [ -n "$b" ] || { echo "sweep bench: no measurement (sw=$sw b=$b)"; exit 1; }
awk -v sw="$sw" -v b="$b" 'BEGIN {
	printf "sweep run (5 ms stat polls + 1 s samples): %.2f ms CPU/s; blktune -b -d 1 -p: %.2f ms CPU/s; ratio %.2f\n",
		sw * 1e3, b * 1e3, (b > 0 ? sw / b : 0) }'
echo "medians of $REPEATS interleaved runs over ${SPAN} s each, after 3 s of start-up"
