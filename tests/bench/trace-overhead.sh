#!/usr/bin/env bash
# Cost of blktune's block tracing (issue 4): fio 4 KiB random reads (io_uring,
# iodepth 32, O_DIRECT) on a loop device over a file in /dev/shm, with and
# without the tracer (build/trace-probe holding the BPF programs attached),
# interleaved ABBA, REPEATS pairs; prints median IOPS of each and their ratio
# (target >= 0.985). Then one traced run with kernel.bpf_stats_enabled=1 gives
# the in-kernel ns per program call; the sysctl is restored afterwards.
# Usage: tests/bench/trace-overhead.sh [build-dir]   (env REPEATS, RUNTIME)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
probe=$top/$build/trace-probe
REPEATS=${REPEATS:-4}
RUNTIME=${RUNTIME:-5}
[ "$(id -u)" -eq 0 ] || { echo "skip - trace-overhead needs root"; exit 77; }
command -v fio >/dev/null || { echo "skip - fio not installed"; exit 77; }
command -v python3 >/dev/null || { echo "skip - python3 needed to read fio's JSON"; exit 77; }
[ -x "$probe" ] || { echo "skip - $probe missing (make $build/trace-probe)"; exit 77; }

img=$(mktemp /dev/shm/blktune-bench.XXXXXX)
dev=
stats_old=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
	[ -n "${PPID_PROBE:-}" ] && kill "$PPID_PROBE" 2>/dev/null && wait "$PPID_PROBE" 2>/dev/null
	sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -f "$img" "${fifo:-}"
}
trap cleanup EXIT
truncate -s 1G "$img"
dio=on
dev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null) || { dio=off; dev=$(losetup -f --show "$img"); } || exit 1
# Fill the file so reads hit real pages, not tmpfs holes.
dd if=/dev/zero of="$dev" bs=1M count=1024 oflag=direct status=none
command -v udevadm >/dev/null && udevadm settle -t 10

fio_iops() {
	fio --name=trace-overhead --filename="$dev" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --time_based --runtime="$RUNTIME" --ramp_time=1 \
		--output-format=json 2>/dev/null |
		python3 -c 'import json,sys; print(round(json.load(sys.stdin)["jobs"][0]["read"]["iops"]))'
}

# The tracer runs as a coprocess; "stats" on its stdin prints per-program counters.
fifo=$(mktemp -u /tmp/blktune-bench.XXXXXX)
probe_start() {
	coproc PROBE { exec "$probe" "$dev" 2>/dev/null; }
	PPID_PROBE=$PROBE_PID
	local line
	read -r -t 10 line <&"${PROBE[0]}" && [ "${line%% *}" = ready ] ||
		{ echo "skip - tracer did not start"; exit 77; }
}
probe_stop() {
	eval "exec ${PROBE[1]}>&-"
	wait "$PPID_PROBE" 2>/dev/null
	PPID_PROBE=
}
probe_stats() { # prints "name run_cnt run_time_ns" lines
	local w
	echo stats >&"${PROBE[1]}"
	while read -r -a w <&"${PROBE[0]}"; do
		[ "${w[0]}" = end ] && return
		echo "${w[1]} ${w[5]} ${w[7]}"
	done
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

base=() traced=()
sysctl -q -w kernel.bpf_stats_enabled=0
for ((i = 0; i < REPEATS; i++)); do
	for mode in $( ((i % 2)) && echo "traced base" || echo "base traced"); do
		if [ "$mode" = traced ]; then
			probe_start
			v=$(fio_iops)
			probe_stop
			traced+=("$v")
		else
			v=$(fio_iops)
			base+=("$v")
		fi
		echo "# run $((i + 1)) $mode: $v IOPS"
	done
done
mb=$(printf '%s\n' "${base[@]}" | median)
mt=$(printf '%s\n' "${traced[@]}" | median)
ratio=$(awk -v t="$mt" -v b="$mb" 'BEGIN { printf "%.4f", t / b }')
echo "trace-overhead: loop over /dev/shm (direct-io=$dio), fio randread 4k io_uring qd32, ${RUNTIME}s x $REPEATS pairs"
echo "trace-overhead: median IOPS untraced $mb, traced $mt, ratio $ratio (target >= 0.985)"

# In-kernel cost per call: bpf_stats times every run (adding its own clock
# reads), so it is enabled only for this separate run.
sysctl -q -w kernel.bpf_stats_enabled=1
probe_start
before=$(probe_stats)
fio_iops >/dev/null
after=$(probe_stats)
probe_stop
sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
join <(echo "$before" | sort) <(echo "$after" | sort) | while read -r name c0 t0 c1 t1; do
	n=$((c1 - c0))
	if [ "$n" -gt 0 ]; then
		echo "trace-overhead: $name $n calls, $(( (t1 - t0) / n )) ns per call"
	else
		echo "trace-overhead: $name 0 calls"
	fi
done
