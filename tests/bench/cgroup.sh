#!/usr/bin/env bash
# Cost of the cgroup view's counters (--cgroups reads the same files the C
# view does): CPU per refresh of blktune -b --json --cgroups against the same
# command without --cgroups, interleaved, medians of REPEATS, with CGROUPS
# empty cgroups made here under v1 blkio (or the v2 hierarchy with io) and
# removed afterwards. Steady state from /proc/PID/schedstat, start-up left
# out. Prints both, the difference per cgroup and the ratio.
# Usage: tests/bench/cgroup.sh [build-dir]   (env REPEATS, SPAN, CGROUPS)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
REPEATS=${REPEATS:-3}
SPAN=${SPAN:-5}
CGROUPS=${CGROUPS:-100}
IV=0.1
[ "$(id -u)" -eq 0 ] || { echo "skip - cgroup bench needs root"; exit 77; }
if [ -e /sys/fs/cgroup/blkio/blkio.throttle.io_service_bytes_recursive ]; then
	base=/sys/fs/cgroup/blkio
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	base=/sys/fs/cgroup
else
	echo "skip - no v1 blkio and no v2 io controller"; exit 77
fi
tmp=$(mktemp -d /tmp/blktune-cgbench.XXXXXX)
cg=$base/blktune-bench-$$
cleanup() {
	local i
	for ((i = 1; i <= CGROUPS; i++)); do rmdir "$cg/c$i" 2>/dev/null; done
	rmdir "$cg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$cg" || exit 1
for ((i = 1; i <= CGROUPS; i++)); do mkdir "$cg/c$i" || exit 1; done
export BLKTUNE_JOURNAL_DIR=$tmp/journal XDG_STATE_HOME=$tmp/state

. "$top/tests/bench/lib.bash"
# per_refresh CMD...: CPU seconds per refresh after 2 s of start-up
per_refresh() { bench_cpu 2 "$SPAN" "$@" | awk -v s="$SPAN" -v iv=$IV '{ printf "%.9f\n", $1 / (s / iv) }'; }
: > "$tmp/cg"; : > "$tmp/b"
for ((r = 0; r < REPEATS; r++)); do
	per_refresh "$build/blktune" -b --json --no-trace -d $IV --cgroups >> "$tmp/cg"
	per_refresh "$build/blktune" -b --json --no-trace -d $IV >> "$tmp/b"
done
c=$(bench_median < "$tmp/cg"); b=$(bench_median < "$tmp/b")
n=$(find "$base" -mindepth 1 -type d | wc -l)
awk -v c="$c" -v b="$b" -v n="$n" 'BEGIN {
	printf "cgroups read: %d; blktune -b --json --cgroups: %.3f ms CPU per refresh; without: %.3f ms; ", n + 1, c * 1e3, b * 1e3
	printf "difference %.1f us per cgroup; ratio %.2f\n", (c - b) * 1e6 / (n + 1), (b > 0 ? c / b : 0) }'
echo "medians of $REPEATS interleaved runs over ${SPAN} s each at ${IV} s, after 2 s of start-up"
