#!/usr/bin/env bash
# Tracing state of disks that went away (issue 10): a tracing blktune -b
# -d 0.1 runs while CYCLES (default 10,000) loop devices come and go
# (LOOP_CTL_ADD, losetup, 4 direct reads, losetup -d, LOOP_CTL_REMOVE, a new
# index each time). At 0, 1/4, 1/2, 3/4 and all of the cycles the churn pauses
# and blktune's CPU per refresh (/proc/PID/schedstat over SPAN s) and VmRSS
# are taken; prints each beside the first, as ratios. Flat means ~1.0. On a
# shared machine the first figure drifts with other load, so at the end a
# fresh blktune is measured over the same seconds as the long-running one:
# that ratio is the one to trust.
# Usage: tests/bench/hotplug.sh [build-dir]   (env CYCLES, SPAN, FIRST)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
CYCLES=${CYCLES:-10000}
SPAN=${SPAN:-3}
FIRST=${FIRST:-20000} # loop indices from here on are free on ordinary machines
[ "$(id -u)" -eq 0 ] || { echo "skip - hotplug bench needs root"; exit 77; }
[ -e /dev/loop-control ] || { echo "skip - no /dev/loop-control"; exit 77; }
tmp=$(mktemp -d /tmp/blktune-bench.XXXXXX)
cur=
cleanup() {
	[ -n "${bpid:-}" ] && kill "$bpid" 2>/dev/null && wait "$bpid" 2>/dev/null
	if [ -n "$cur" ]; then
		losetup -d "/dev/loop$cur" 2>/dev/null
		"$tmp/loopctl" remove "$cur" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$tmp/loopctl" "$top/tests/bench/loopctl.c" || exit 1
truncate -s 4M "$tmp/img"

"$top/$build/blktune" -b --json -d 0.1 --journal-dir "$tmp/j" >/dev/null 2>"$tmp/err" &
bpid=$!
sleep 2
kill -0 "$bpid" 2>/dev/null || { echo "skip - blktune did not start: $(cat "$tmp/err")"; exit 77; }

# CPU ns per refresh over SPAN s, and VmRSS KiB
measure() {
	local a b
	a=$(awk '{ print $1 }' "/proc/$bpid/schedstat")
	sleep "$SPAN"
	b=$(awk '{ print $1 }' "/proc/$bpid/schedstat")
	echo "$(( (b - a) / (SPAN * 10) )) $(awk '/^VmRSS/ { print $2 }' "/proc/$bpid/status")"
}
cycle() {
	local i=$1 d=/dev/loop$1
	"$tmp/loopctl" add "$i" 1 >/dev/null || return 1
	cur=$i
	if losetup "$d" "$tmp/img" 2>/dev/null; then
		dd if="$d" of=/dev/null bs=4k count=4 iflag=direct status=none
		losetup -d "$d"
	fi
	"$tmp/loopctl" remove "$i" 2>/dev/null || { sleep 0.05; "$tmp/loopctl" remove "$i" 2>/dev/null; }
	cur=
}
read -r cpu0 rss0 < <(measure)
printf '%8s %14s %10s %10s %8s\n' cycles "cpu/refresh" ratio rss_KiB ratio
printf '%8d %12dns %10.3f %10d %8.3f\n' 0 "$cpu0" 1 "$rss0" 1
done_=0
for q in 1 2 3 4; do
	until=$((CYCLES * q / 4))
	while [ "$done_" -lt "$until" ]; do
		cycle $((FIRST + done_))
		done_=$((done_ + 1))
	done
	sleep 0.5
	read -r cpu rss < <(measure)
	awk -v n="$done_" -v c="$cpu" -v c0="$cpu0" -v r="$rss" -v r0="$rss0" \
		'BEGIN { printf "%8d %12dns %10.3f %10d %8.3f\n", n, c, c / c0, r, r / r0 }'
done
# A fresh instance beside the long-running one, measured over the same span.
"$top/$build/blktune" -b --json -d 0.1 --journal-dir "$tmp/j2" >/dev/null 2>&1 &
fpid=$!
sleep 2
a=$(awk '{ print $1 }' "/proc/$bpid/schedstat") fa=$(awk '{ print $1 }' "/proc/$fpid/schedstat")
sleep "$SPAN"
b=$(awk '{ print $1 }' "/proc/$bpid/schedstat") fb=$(awk '{ print $1 }' "/proc/$fpid/schedstat")
r1=$(awk '/^VmRSS/ { print $2 }' "/proc/$bpid/status") rf=$(awk '/^VmRSS/ { print $2 }' "/proc/$fpid/status")
kill "$fpid"
wait "$fpid" 2>/dev/null
awk -v a=$((b - a)) -v f=$((fb - fa)) -v r="$r1" -v rf="$rf" -v n="$SPAN" 'BEGIN {
	printf "hotplug: after the churn, same %d s: long-running %dns/refresh %d KiB, fresh %dns/refresh %d KiB; ratios %.3f CPU, %.3f RSS\n",
		n, a / (n * 10), r, f / (n * 10), rf, a / f, r / rf }'
echo "hotplug: blktune -b -d 0.1 (tracing) while $CYCLES loop devices came and went; CPU per refresh"
echo "hotplug: from /proc/PID/schedstat over ${SPAN} s with the churn paused; flat = ratios near 1"
