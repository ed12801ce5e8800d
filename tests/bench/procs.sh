#!/usr/bin/env bash
# Cost of the process view's counters (--top-processes reads what the o view
# reads: libproc2 opens stat, status, cmdline and io of every process): CPU
# per refresh of blktune -b --json --top-processes against the same command
# without it, interleaved, medians of REPEATS. Steady state from
# /proc/PID/schedstat, start-up left out. Prints both, the difference per
# process and the ratio.
# Usage: tests/bench/procs.sh [build-dir]   (env REPEATS, SPAN)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
REPEATS=${REPEATS:-3}
SPAN=${SPAN:-5}
IV=0.1
[ "$(id -u)" -eq 0 ] || { echo "skip - process bench needs root (to read every process)"; exit 77; }
tmp=$(mktemp -d /tmp/blktune-procbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export BLKTUNE_JOURNAL_DIR=$tmp/journal XDG_STATE_HOME=$tmp/state

. "$top/tests/bench/lib.bash"
# per_refresh CMD...: CPU seconds per refresh after 2 s of start-up
per_refresh() { bench_cpu 2 "$SPAN" "$@" | awk -v s="$SPAN" -v iv=$IV '{ printf "%.9f\n", $1 / (s / iv) }'; }
: > "$tmp/p"; : > "$tmp/b"
for ((r = 0; r < REPEATS; r++)); do
	per_refresh "$build/blktune" -b --json --no-trace -d $IV --top-processes >> "$tmp/p"
	per_refresh "$build/blktune" -b --json --no-trace -d $IV >> "$tmp/b"
done
p=$(bench_median < "$tmp/p"); b=$(bench_median < "$tmp/b")
n=$(find /proc -maxdepth 1 -name '[0-9]*' | wc -l)
awk -v p="$p" -v b="$b" -v n="$n" 'BEGIN {
	printf "processes: %d; blktune -b --json --top-processes: %.3f ms CPU per refresh; without: %.3f ms; ", n, p * 1e3, b * 1e3
	printf "difference %.1f us per process; ratio %.2f\n", (p - b) * 1e6 / n, (b > 0 ? p / b : 0) }'
echo "medians of $REPEATS interleaved runs over ${SPAN} s each at ${IV} s, after 2 s of start-up"
