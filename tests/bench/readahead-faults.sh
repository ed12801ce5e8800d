#!/usr/bin/env bash
# What the readahead mode costs processes that read no file: while it is on,
# every user page fault of every process runs fault_user, every RSS counter
# change rss_stat, every exit task_exit. The workload (tests/bench/faults.c)
# maps anonymous memory and writes each page, ROUNDS rounds of PAGES pages,
# and forks a child that exits at once every round. Mode off and on
# (build/ra-probe holding the programs attached), interleaved ABBA, REPEATS
# pairs: medians (and min..max) of the workload's wall-clock and CPU
# seconds and their ratios. Then runs with kernel.bpf_stats_enabled=1 (the
# sysctl is restored) give ns per run of fault_user, rss_stat and task_exit,
# beside empty programs on page_fault_user and rss_stat attached in the same
# run (the floors), and the extra ns per page fault: the three programs' time over
# that span divided by the page faults. Counts are machine-wide (other
# processes' faults are in them too). Usage:
# tests/bench/readahead-faults.sh [build-dir] (env REPEATS, ROUNDS, PAGES)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/lib.bash"
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
probe=$build/ra-probe
REPEATS=${REPEATS:-5}
ROUNDS=${ROUNDS:-300}
PAGES=${PAGES:-256}
[ "$(id -u)" -eq 0 ] || { echo "skip - readahead bench needs root"; exit 77; }
[ -x "$probe" ] || { echo "skip - $probe missing (make $build/ra-probe)"; exit 77; }

tmp=$(mktemp -d /tmp/blktune-rafaults.XXXXXX)
stats_old=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
	[ -n "$ra_ppid" ] && kill "$ra_ppid" 2>/dev/null && wait "$ra_ppid" 2>/dev/null
	sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
	rm -rf "$tmp"
}
trap cleanup EXIT
cc -O2 -o "$tmp/faults" "$top/tests/bench/faults.c" || exit 1

# spread: "median (min..max)" of numbers on stdin
spread() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%.4g (%.4g..%.4g)", m, v[1], v[NR] }'; }
workload() { "$tmp/faults" "$ROUNDS" "$PAGES"; }

sysctl -q -w kernel.bpf_stats_enabled=0
wall_off=() wall_on=() cpu_off=() cpu_on=() rw=() rc=()
for ((i = 0; i < REPEATS; i++)); do
	declare -A w=() c=()
	for mode in $( ((i % 2)) && echo "on off" || echo "off on"); do
		[ "$mode" = on ] && ra_probe_start "$probe" 0:1
		read -r _ _ _ w[$mode] _ c[$mode] < <(workload)
		[ "$mode" = on ] && ra_probe_stop
		echo "# pair $((i + 1)) mode $mode: wall ${w[$mode]} s cpu ${c[$mode]} s"
	done
	wall_off+=("${w[off]}") wall_on+=("${w[on]}") cpu_off+=("${c[off]}") cpu_on+=("${c[on]}")
	rw+=("$(awk -v a="${w[on]}" -v b="${w[off]}" 'BEGIN { printf "%.4f", a / b }')")
	rc+=("$(awk -v a="${c[on]}" -v b="${c[off]}" 'BEGIN { printf "%.4f", a / b }')")
done
echo "readahead-faults: $ROUNDS rounds of $PAGES anonymous pages written + a fork/exit, $REPEATS ABBA pairs, median (min..max)"
echo "readahead-faults: wall s off $(printf '%s\n' "${wall_off[@]}" | spread), on $(printf '%s\n' "${wall_on[@]}" | spread)," \
	"on/off $(printf '%s\n' "${rw[@]}" | spread)"
echo "readahead-faults: cpu s off $(printf '%s\n' "${cpu_off[@]}" | spread), on $(printf '%s\n' "${cpu_on[@]}" | spread)," \
	"on/off $(printf '%s\n' "${rc[@]}" | spread)"

sysctl -q -w kernel.bpf_stats_enabled=1
declare -A ns=()
for ((i = 0; i < REPEATS; i++)); do
	ra_probe_start "$probe" 0:1
	echo "floor fault" >&"${PROBE[1]}"
	read -r x f <&"${PROBE[0]}"
	[ "$x" = floor ] && [ "$f" = 0 ] || { echo "skip - floor program did not attach ($x $f)"; exit 77; }
	declare -A c0=() t0=() c1=() t1=()
	while read -r name c t; do c0[$name]=$c t0[$name]=$t; done < <(ra_probe_stats)
	workload >/dev/null
	while read -r name c t; do c1[$name]=$c t1[$name]=$t; done < <(ra_probe_stats)
	ra_probe_stop
	per() { awk -v c="$((c1[$1] - c0[$1]))" -v t="$((t1[$1] - t0[$1]))" 'BEGIN { printf "%.1f", c ? t / c : 0 }'; }
	line="# run $((i + 1)): $((c1[fault_user] - c0[fault_user])) faults, $((c1[rss_stat] - c0[rss_stat])) rss changes, $((c1[task_exit] - c0[task_exit])) exits;"
	for p in fault_user rss_stat task_exit floor floor_rss; do
		ns[$p]+="$(per "$p") "
		line+=" $p $(per "$p")"
	done
	# extra ns per page fault: the three programs' time over the faults
	v=$(awk -v t="$((t1[fault_user] - t0[fault_user] + t1[rss_stat] - t0[rss_stat] + t1[task_exit] - t0[task_exit]))" \
		-v c="$((c1[fault_user] - c0[fault_user]))" 'BEGIN { printf "%.1f", c ? t / c : 0 }')
	ns[per_fault]+="$v "
	echo "$line ns; per fault $v ns"
done
sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
m() { printf '%s\n' ${ns[$1]} | spread; }
echo "readahead-faults: bpf_stats ns per run, median (min..max) of $REPEATS: fault_user $(m fault_user)," \
	"rss_stat $(m rss_stat), task_exit $(m task_exit); empty programs: on page_fault_user $(m floor)," \
	"on rss_stat $(m floor_rss)"
echo "readahead-faults: extra ns per page fault (fault_user + rss_stat + task_exit time / faults): $(m per_fault)"
