#!/usr/bin/env bash
# Cost of --trace-processes: fio 4 KiB random reads (io_uring, iodepth 32,
# O_DIRECT) on a loop device over a file in /dev/shm, with blktune -b --json
# --top-processes --trace-processes running and without any blktune,
# interleaved ABBA, REPEATS pairs (default 4). With kernel.bpf_stats_enabled=1
# (restored afterwards) the in-kernel ns per call of its programs that run
# once per request (io_start at block_io_start, rq_issue at block_rq_issue,
# io_done at block_io_done) and their sum. Prints the medians and the IOPS
# ratio. The default tracer (blktune.bpf.o) is off here
# (--no-trace is refused with --trace-processes, so the figures are of both:
# tests/bench/trace-overhead.sh measures the default tracer alone).
# Usage: tests/bench/procs-trace.sh [build-dir]   (env REPEATS, RUNTIME)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
REPEATS=${REPEATS:-4}
RUNTIME=${RUNTIME:-3}
[ "$(id -u)" -eq 0 ] || { echo "skip - needs root"; exit 77; }
command -v fio >/dev/null || { echo "skip - fio not installed"; exit 77; }
command -v bpftool >/dev/null || { echo "skip - bpftool not installed"; exit 77; }
command -v jq >/dev/null || { echo "skip - jq not installed"; exit 77; }
img=$(mktemp /dev/shm/blktune-pbench.XXXXXX)
tmp=$(mktemp -d /tmp/blktune-pbench.XXXXXX)
dev=
bt=
stats_old=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
	[ -n "$bt" ] && kill "$bt" 2>/dev/null && wait "$bt" 2>/dev/null
	sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -f "$img"
	rm -rf "$tmp"
}
trap cleanup EXIT
export BLKTUNE_JOURNAL_DIR=$tmp/journal XDG_STATE_HOME=$tmp/state
truncate -s 512M "$img"
dev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null || losetup -f --show "$img") || exit 1
dd if=/dev/zero of="$dev" bs=1M count=512 oflag=direct status=none
iops() {
	fio --name=b --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine=io_uring --iodepth=32 \
		--time_based --runtime="$RUNTIME" --randrepeat=0 --output-format=json | jq '.jobs[0].read.iops'
}
# prog_stats NAME: "run_cnt run_time_ns" of the newest loaded program called
# NAME (the previous run's may still be listed while the kernel frees it)
prog_stats() {
	bpftool -j prog show | jq -r --arg n "$1" '[.[] | select(.name == $n)] | max_by(.id) | "\(.run_cnt // 0) \(.run_time_ns // 0)"'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# the programs of procs.bpf.c that run once per request in this job (merge
# runs only when requests merge: a random read job has none)
progs="io_start rq_issue io_done"
traced() {
	local p before after r
	"$build/blktune" -b --json --top-processes --trace-processes -d 1 -p "${dev#/dev/}" > "$tmp/out.json" 2>/dev/null &
	bt=$!
	for ((i = 0; i < 100; i++)); do [ -s "$tmp/out.json" ] && break; sleep 0.1; done
	before=$(for p in $progs; do prog_stats "$p"; done | tr '\n' ' ')
	r=$(iops)
	after=$(for p in $progs; do prog_stats "$p"; done | tr '\n' ' ')
	echo "$r" >> "$tmp/t"
	set -- $before $after
	for p in $progs; do
		awk -v a="$1" -v b="$2" -v c="${7}" -v d="${8}" 'BEGIN { if (c > a) printf "%.1f\n", (d - b) / (c - a) }' \
			>> "$tmp/ns_$p"
		shift 2
	done
	kill "$bt"; wait "$bt" 2>/dev/null; bt=
}
sysctl -q -w kernel.bpf_stats_enabled=1
: > "$tmp/t"; : > "$tmp/b"
for p in $progs; do : > "$tmp/ns_$p"; done
for ((r = 0; r < REPEATS; r++)); do
	if ((r % 2)); then traced; iops >> "$tmp/b"; else iops >> "$tmp/b"; traced; fi
done
t=$(median < "$tmp/t"); b=$(median < "$tmp/b")
echo "--trace-processes: fio 4k randread qd32 on loop over /dev/shm: $t IOPS traced, $b untraced, ratio" \
	"$(awk -v t="$t" -v b="$b" 'BEGIN { printf "%.3f", t / b }') (medians of $REPEATS ABBA pairs, ${RUNTIME} s runs)"
# the per-pair ratios (run i traced against run i untraced): their spread
# says how much the machine's other load moved the IOPS
paste "$tmp/t" "$tmp/b" | awk '$2 > 0 { printf "%.3f\n", $1 / $2 }' | sort -g > "$tmp/ratios"
echo "per-pair IOPS ratios: $(tr '\n' ' ' < "$tmp/ratios")(min $(head -n 1 "$tmp/ratios"), max $(tail -n 1 "$tmp/ratios"))"
total=0
for p in $progs; do
	m=$(median < "$tmp/ns_$p")
	echo "bpf_stats ns per call (median of $REPEATS): $p $m; each run: $(tr '\n' ' ' < "$tmp/ns_$p")"
	total=$(awk -v a="$total" -v b="${m:-0}" 'BEGIN { print a + b }')
done
echo "bpf_stats ns per request, the three programs' medians summed: $total"
