#!/usr/bin/env bash
# Cost of blktune's block tracing (issues 4, 14): fio 4 KiB random reads
# (io_uring, iodepth 32, O_DIRECT) on a loop device over a file in /dev/shm,
# with and without the tracer (build/trace-probe holding the BPF programs
# attached), interleaved ABBA, REPEATS pairs (default 10). Per run: IOPS, and
# CPU time per I/O = busy time of all CPUs (/proc/stat: everything but idle and
# iowait) over the run / I/Os done, which is far steadier than IOPS. Prints
# medians, their ratios, and the spread of the per-pair IOPS ratios.
# Then, with kernel.bpf_stats_enabled=1 (restored afterwards), the in-kernel
# ns per request of blktune's programs beside the floor measured in the same
# run: the same number of empty tp_btf programs on the same tracepoint
# (tests/bench/floor.bpf.c), what a per-CPU hash lookup by dev_t and a
# per-CPU array lookup by queue id cost on their own, and what one clock read
# (bpf_ktime_get_ns, the completion time every latency needs) costs.
# Usage: tests/bench/trace-overhead.sh [build-dir]
# (env REPEATS, RUNTIME; INTERLEAVE, WINDOW, SETTLE for the interleaved part)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
probe=$top/$build/trace-probe
REPEATS=${REPEATS:-10}
RUNTIME=${RUNTIME:-3}
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
	rm -rf "${ftmp:-}"
}
trap cleanup EXIT
truncate -s 1G "$img"
dio=on
dev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null) || { dio=off; dev=$(losetup -f --show "$img"); } || exit 1
# Fill the file so reads hit real pages, not tmpfs holes.
dd if=/dev/zero of="$dev" bs=1M count=1024 oflag=direct status=none
command -v udevadm >/dev/null && udevadm settle -t 10

HZ=$(getconf CLK_TCK)
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
# fio_run: prints "IOPS IOS CPU_NS_PER_IO" of one run
fio_run() {
	local b0 b1 out
	b0=$(busy)
	out=$(fio --name=trace-overhead --filename="$dev" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --time_based --runtime="$RUNTIME" --output-format=json 2>/dev/null |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["jobs"][0]["read"]; print(round(r["iops"]), r["total_ios"])')
	b1=$(busy)
	echo "$out" | awk -v b=$((b1 - b0)) -v hz="$HZ" '{ printf "%d %d %.1f\n", $1, $2, b * 1e9 / hz / $2 }'
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

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

base=() traced=() cbase=() ctraced=() pair=()
sysctl -q -w kernel.bpf_stats_enabled=0
for ((i = 0; i < REPEATS; i++)); do
	for mode in $( ((i % 2)) && echo "traced base" || echo "base traced"); do
		if [ "$mode" = traced ]; then
			probe_start
			read -r v n c < <(fio_run)
			probe_stop
			traced+=("$v") ctraced+=("$c") tv=$v
		else
			read -r v n c < <(fio_run)
			base+=("$v") cbase+=("$c") bv=$v
		fi
		echo "# run $((i + 1)) $mode: $v IOPS, $c ns CPU per I/O"
	done
	pair+=("$(awk -v t="$tv" -v b="$bv" 'BEGIN { printf "%.4f", t / b }')")
done
if [ "$REPEATS" -gt 0 ]; then
	mb=$(printf '%s\n' "${base[@]}" | median)
	mt=$(printf '%s\n' "${traced[@]}" | median)
	cb=$(printf '%s\n' "${cbase[@]}" | median)
	ct=$(printf '%s\n' "${ctraced[@]}" | median)
	pm=$(printf '%s\n' "${pair[@]}" | median)
	plo=$(printf '%s\n' "${pair[@]}" | sort -g | head -1)
	phi=$(printf '%s\n' "${pair[@]}" | sort -g | tail -1)
	echo "trace-overhead: loop over /dev/shm (direct-io=$dio), fio randread 4k io_uring qd32, ${RUNTIME}s x $REPEATS ABBA pairs"
	echo "trace-overhead: median IOPS untraced $mb, traced $mt, ratio $(awk -v t="$mt" -v b="$mb" 'BEGIN { printf "%.4f", t / b }') (target >= 0.98)"
	echo "trace-overhead: per-pair IOPS ratio median $pm, spread $plo..$phi"
	echo "trace-overhead: CPU per I/O (all CPUs' busy time / I/Os) untraced $cb ns, traced $ct ns, ratio $(awk -v t="$ct" -v b="$cb" 'BEGIN { printf "%.4f", t / b }') (target <= 1.02)"
fi

# Interleaved: one long fio run, the tracer attached and detached every
# WINDOW seconds (INTERLEAVE traced windows, each between two untraced ones).
# A window starts SETTLE seconds after the attach or detach and is measured
# from the device's own completed reads (/proc/diskstats) and all CPUs' busy
# time (/proc/stat), not from fio. Each traced window is compared with the
# mean of its two untraced neighbours, so a drift of the shared host slower
# than a few seconds cancels out, where separate 3 s fio runs (above) spread
# by tens of percent.
INTERLEAVE=${INTERLEAVE:-20}
WINDOW=${WINDOW:-1.5}
SETTLE=${SETTLE:-0.3}
if [ "$INTERLEAVE" -gt 0 ]; then
	devname=$(basename "$dev")
	# snap: "SECONDS READS_COMPLETED BUSY_TICKS"
	snap() {
		local t=$EPOCHREALTIME r b
		r=$(awk -v d="$devname" '$3 == d { print $4 }' /proc/diskstats)
		b=$(busy)
		echo "$t $r $b"
	}
	# window: "IOPS CPU_NS_PER_IO" over WINDOW seconds from now
	window() {
		local a b
		a=$(snap)
		sleep "$WINDOW"
		b=$(snap)
		echo "$a $b" | awk -v hz="$HZ" '{ n = $5 - $2; printf "%.1f %.1f\n", n / ($4 - $1), n ? ($6 - $3) * 1e9 / hz / n : 0 }'
	}
	span=$(awk -v n="$INTERLEAVE" -v w="$WINDOW" -v s="$SETTLE" 'BEGIN { printf "%d", (2 * n + 1) * (w + s + 1) + 30 }')
	fio --name=trace-overhead-interleaved --filename="$dev" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --time_based --runtime="$span" >/dev/null 2>&1 &
	fio_pid=$!
	sleep 2
	iw=() cw=()
	sleep "$SETTLE"
	read -r pu pc < <(window)
	for ((i = 0; i < INTERLEAVE; i++)); do
		probe_start
		sleep "$SETTLE"
		read -r tu tc < <(window)
		probe_stop
		sleep "$SETTLE"
		read -r nu nc < <(window)
		iw+=("$(awk -v t="$tu" -v a="$pu" -v b="$nu" 'BEGIN { printf "%.4f", 2 * t / (a + b) }')")
		cw+=("$(awk -v t="$tc" -v a="$pc" -v b="$nc" 'BEGIN { printf "%.4f", 2 * t / (a + b) }')")
		echo "# window $((i + 1)): untraced $pu IOPS, traced $tu IOPS ($tc ns CPU per I/O), untraced $nu IOPS; ratio ${iw[-1]}, CPU ${cw[-1]}"
		pu=$nu pc=$nc
	done
	kill "$fio_pid" 2>/dev/null
	wait "$fio_pid" 2>/dev/null
	# quartiles of a list on stdin: "Q1 MEDIAN Q3"
	quart() { sort -g | awk '{ a[NR] = $1 } END { printf "%s %s %s\n", a[int((NR + 3) / 4)], (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2, a[int((3 * NR + 3) / 4)] }'; }
	read -r i1 im i3 < <(printf '%s\n' "${iw[@]}" | quart)
	read -r c1 cm c3 < <(printf '%s\n' "${cw[@]}" | quart)
	echo "trace-overhead: interleaved, ${WINDOW}s windows, $INTERLEAVE traced windows each between two untraced ones in one fio run"
	echo "trace-overhead: interleaved IOPS traced / untraced neighbours: median $im, quartiles $i1..$i3 (target >= 0.98)"
	echo "trace-overhead: interleaved CPU per I/O traced / untraced neighbours: median $cm, quartiles $c1..$c3 (target <= 1.02)"
fi

# In-kernel cost: bpf_stats times every run (adding its own clock reads to
# blktune and floor alike), so it is on only for these runs. Floor and
# blktune alternate, three times each; medians.
ftmp=$(mktemp -d /tmp/blktune-bench.XXXXXX)
fl=
if clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$top/include" -I"$top/bpf" -I/usr/include/"$(uname -m)"-linux-gnu \
	-c "$top/tests/bench/floor.bpf.c" -o "$ftmp/floor.bpf.o" 2>"$ftmp/err" &&
	cc -O2 -o "$ftmp/floor" "$top/tests/bench/floor.c" -lbpf 2>>"$ftmp/err"; then
	fl=$ftmp/floor
else
	echo "trace-overhead: floor not built: $(head -c 300 "$ftmp/err")"
fi
# floor_ns PROG: ns per call of one floor program over one fio run
floor_ns() {
	local c0 t0 c1 t1
	coproc FL { exec "$fl" "$ftmp/floor.bpf.o" "$1" 2>/dev/null; }
	read -r -t 10 line <&"${FL[0]}" || return
	echo stats >&"${FL[1]}"; read -r c0 t0 <&"${FL[0]}"
	fio_run >/dev/null
	echo stats >&"${FL[1]}"; read -r c1 t1 <&"${FL[0]}"
	eval "exec ${FL[1]}>&-"
	wait "$FL_PID" 2>/dev/null
	awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) 'BEGIN { if (c) printf "%.1f\n", t / c }'
}
# blktune_ns: "NS_PER_REQUEST PROGRAMS_ATTACHED" over one fio run (all of
# blktune's attached programs' time / fio's I/Os)
blktune_ns() {
	local before after n
	probe_start
	before=$(probe_stats)
	read -r _ n _ < <(fio_run)
	after=$(probe_stats)
	probe_stop
	join <(echo "$before" | sort) <(echo "$after" | sort) |
		awk -v n="$n" '{ t += $5 - $3; if ($4 > $2) p++; printf "trace-overhead:   %s %d calls, %.1f ns per call\n", $1, $4 - $2, ($4 > $2) ? ($5 - $3) / ($4 - $2) : 0 > "/dev/stderr" }
			END { printf "%.1f %d\n", t / n, p }'
}
sysctl -q -w kernel.bpf_stats_enabled=1
fe=() bt=() fh=() fa=() fc=()
for ((r = 0; r < 3; r++)); do
	[ -n "$fl" ] && fe+=("$(floor_ns empty)")
	read -r v progs < <(blktune_ns)
	bt+=("$v")
done
if [ -n "$fl" ]; then
	fh+=("$(floor_ns hash_lookup)")
	fa+=("$(floor_ns array_lookup)")
	fc+=("$(floor_ns clock_read)")
fi
sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
mbt=$(printf '%s\n' "${bt[@]}" | median)
echo "trace-overhead: blktune $mbt ns per request ($progs program(s) attached) (target <= 110)"
if [ -n "$fl" ]; then
	mfe=$(printf '%s\n' "${fe[@]}" | median)
	echo "trace-overhead: floor: one empty tp_btf program $mfe ns per request; blktune above it: $(awk -v a="$mbt" -v b="$mfe" -v p="$progs" 'BEGIN { printf "%.1f", a - b * p }') ns"
	echo "trace-overhead: device lookup alone (with the empty program's cost): per-CPU hash by dev_t ${fh[0]:-?} ns, per-CPU array by queue id ${fa[0]:-?} ns"
	echo "trace-overhead: one clock read (bpf_ktime_get_ns, with the empty program's cost) ${fc[0]:-?} ns; clock source $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
fi
