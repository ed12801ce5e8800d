#!/usr/bin/env bash
# Tracing state of disks that went away (issue 10): a tracing blktune -b
# -d 0.1 runs while CYCLES (default 10,000) loop devices come and go
# (LOOP_CTL_ADD, losetup, 4 direct reads, losetup -d, LOOP_CTL_REMOVE, a new
# index each time). At 0, 1/4, 1/2, 3/4 and all of the cycles the churn pauses
# and blktune's CPU per refresh (/proc/PID/schedstat over SPAN s) and VmRSS
# are taken, each beside the first and beside a fresh blktune started then
# and measured over the same seconds, as ratios. Flat means ~1.0. On a shared
# machine other users' devices come and go (blkdev: the block devices present)
# and the first figure drifts with them and with other load: /fresh is the
# ratio to trust.
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
	[ -n "${fpid:-}" ] && kill "$fpid" 2>/dev/null && wait "$fpid" 2>/dev/null
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

# The long-running instance and a fresh one started now, over the same SPAN
# s with the same devices present (other users' devices come and go on a
# shared machine): "cpu_ns_per_refresh rss_KiB fresh_cpu fresh_rss".
compare() {
	local a b fa fb r rf
	"$top/$build/blktune" -b --json -d 0.1 --journal-dir "$tmp/jf" >/dev/null 2>&1 &
	fpid=$!
	sleep 4 # past its start-up (the tracer's load, every device's first reads)
	a=$(awk '{ print $1 }' "/proc/$bpid/schedstat") fa=$(awk '{ print $1 }' "/proc/$fpid/schedstat")
	sleep "$SPAN"
	b=$(awk '{ print $1 }' "/proc/$bpid/schedstat") fb=$(awk '{ print $1 }' "/proc/$fpid/schedstat")
	r=$(awk '/^VmRSS/ { print $2 }' "/proc/$bpid/status") rf=$(awk '/^VmRSS/ { print $2 }' "/proc/$fpid/status")
	kill "$fpid"
	wait "$fpid" 2>/dev/null
	fpid=
	echo "$(( (b - a) / (SPAN * 10) )) $r $(( (fb - fa) / (SPAN * 10) )) $rf"
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
row() { # cycles, then compare's four figures
	awk -v n="$1" -v c="$2" -v r="$3" -v fc="$4" -v fr="$5" -v c0="$cpu0" -v r0="$rss0" -v nb="$(ls /sys/block | wc -l)" \
		'BEGIN { printf "%8d %6d %10dns %7.3f %7.3f %9d %7.3f %7.3f\n", n, nb, c, c / c0, c / fc, r, r / r0, r / fr }'
}
read -r cpu0 rss0 fcpu frss < <(compare)
printf '%8s %6s %12s %7s %7s %9s %7s %7s\n' cycles blkdev "cpu/refresh" "/first" "/fresh" rss_KiB "/first" "/fresh"
row 0 "$cpu0" "$rss0" "$fcpu" "$frss"
done_=0
for q in 1 2 3 4; do
	until=$((CYCLES * q / 4))
	while [ "$done_" -lt "$until" ]; do
		cycle $((FIRST + done_))
		done_=$((done_ + 1))
	done
	sleep 0.5
	read -r cpu rss fcpu frss < <(compare)
	row "$done_" "$cpu" "$rss" "$fcpu" "$frss"
done
echo "hotplug: blktune -b -d 0.1 (tracing) while $CYCLES loop devices came and went; CPU per refresh from"
echo "hotplug: /proc/PID/schedstat over ${SPAN} s with the churn paused, beside a fresh instance started then"
echo "hotplug: (same devices, same seconds: /fresh is the ratio to trust on a shared machine); flat = ratios near 1"
