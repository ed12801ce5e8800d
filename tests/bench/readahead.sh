#!/usr/bin/env bash
# Cost of the readahead mode (issue 5): fio 4 KiB buffered sequential reads
# (psync, one job) of a 64 MiB file whose pages are all cached, on an ext4 made
# here on a loop device made here, with the mode off and on (build/ra-probe
# holding the programs attached), interleaved ABBA, REPEATS pairs; prints the
# median throughput of each and their ratio. Every such read fires
# mm_filemap_get_pages: the worst case per byte. Then one run with
# kernel.bpf_stats_enabled=1 gives the in-kernel ns per program run (the
# sysctl is restored). Usage: tests/bench/readahead.sh [build-dir]
# (env REPEATS, RUNTIME)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
probe=$build/ra-probe
REPEATS=${REPEATS:-3}
RUNTIME=${RUNTIME:-4}
[ "$(id -u)" -eq 0 ] || { echo "skip - readahead bench needs root"; exit 77; }
command -v fio >/dev/null || { echo "skip - fio not installed"; exit 77; }
command -v python3 >/dev/null || { echo "skip - python3 needed to read fio's JSON"; exit 77; }
[ -x "$probe" ] || { echo "skip - $probe missing (make $build/ra-probe)"; exit 77; }

tmp=$(mktemp -d /tmp/blktune-rabench.XXXXXX)
dev= mnt=$tmp/mnt ppid=
stats_old=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
	[ -n "$ppid" ] && kill "$ppid" 2>/dev/null && wait "$ppid" 2>/dev/null
	sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
trap cleanup EXIT
truncate -s 128M "$tmp/img"
dev=$(losetup -f --show "$tmp/img") || exit 1
mkfs.ext4 -q -F "$dev" && mkdir -p "$mnt" && mount "$dev" "$mnt" || exit 1
dd if=/dev/zero of="$mnt/f" bs=1M count=64 status=none conv=fsync
cat "$mnt/f" >/dev/null # warm: every later read is a page-cache hit

fio_mbs() {
	fio --name=ra-bench --filename="$mnt/f" --rw=read --bs=4k --ioengine=psync --size=64M \
		--time_based --runtime="$RUNTIME" --output-format=json 2>/dev/null |
		python3 -c 'import json,sys; print(round(json.load(sys.stdin)["jobs"][0]["read"]["bw"] / 1024))'
}
probe_start() {
	coproc PROBE { exec "$probe" "$dev" 2>/dev/null; }
	ppid=$PROBE_PID
	local line
	read -r -t 15 line <&"${PROBE[0]}" && [ "$line" = ready ] ||
		{ echo "skip - readahead source did not start"; exit 77; }
}
probe_stop() {
	eval "exec ${PROBE[1]}>&-"
	wait "$ppid" 2>/dev/null
	ppid=
}
# probe_stats: "NAME run_cnt run_time_ns" per program line (all, get_pages,
# floor once attached)
probe_stats() {
	local w
	echo stats >&"${PROBE[1]}"
	while read -r -a w <&"${PROBE[0]}"; do
		[ "${w[0]}" = end ] && return
		echo "${w[1]} ${w[3]} ${w[5]}"
	done
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

off=() on=()
sysctl -q -w kernel.bpf_stats_enabled=0
for ((i = 0; i < REPEATS; i++)); do
	for mode in $( ((i % 2)) && echo "on off" || echo "off on"); do
		if [ "$mode" = on ]; then
			probe_start
			v=$(fio_mbs)
			probe_stop
			on+=("$v")
		else
			v=$(fio_mbs)
			off+=("$v")
		fi
		echo "# run $((i + 1)) mode $mode: $v MiB/s"
	done
done
moff=$(printf '%s\n' "${off[@]}" | median)
mon=$(printf '%s\n' "${on[@]}" | median)
echo "readahead: fio 4k buffered sequential reads of a cached 64 MiB file, ${RUNTIME}s x $REPEATS pairs"
echo "readahead: median MiB/s mode off $moff, on $mon, ratio $(awk -v a="$mon" -v b="$moff" 'BEGIN { printf "%.4f", a / b }')"

# Cost per event from bpf_stats, beside the floor: an empty program on
# mm_filemap_get_pages attached in the same run (the same events, the same
# load on a shared machine), so the difference is what the mode's code costs.
# "all" averages every program of the mode over every event it saw (page
# faults and RSS changes of other processes included); get_pages is the
# event of this workload. Medians of REPEATS runs.
sysctl -q -w kernel.bpf_stats_enabled=1
all=() gp=() fl=() ratio=()
for ((i = 0; i < REPEATS; i++)); do
	probe_start
	echo floor >&"${PROBE[1]}"
	read -r w f <&"${PROBE[0]}"
	[ "$w" = floor ] && [ "$f" = 0 ] || { echo "skip - floor program did not attach ($w $f)"; exit 77; }
	declare -A c0=() t0=()
	while read -r name c t; do c0[$name]=$c t0[$name]=$t; done < <(probe_stats)
	fio_mbs >/dev/null
	declare -A c1=() t1=()
	while read -r name c t; do c1[$name]=$c t1[$name]=$t; done < <(probe_stats)
	probe_stop
	per() { awk -v c="$(( c1[$1] - c0[$1] ))" -v t="$(( t1[$1] - t0[$1] ))" 'BEGIN { printf "%.1f", c ? t / c : 0 }'; }
	all+=("$(per all)") gp+=("$(per get_pages)") fl+=("$(per floor)")
	ratio+=("$(awk -v a="$(per get_pages)" -v b="$(per floor)" 'BEGIN { printf "%.3f", b ? a / b : 0 }')")
	echo "# run $((i + 1)): $(( c1[all] - c0[all] )) events, all programs $(per all) ns/event, get_pages $(per get_pages) ns, floor $(per floor) ns"
done
sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
echo "readahead: bpf_stats ns per event (median of $REPEATS): all programs $(printf '%s\n' "${all[@]}" | median)," \
	"get_pages $(printf '%s\n' "${gp[@]}" | median), empty-program floor $(printf '%s\n' "${fl[@]}" | median)," \
	"get_pages/floor $(printf '%s\n' "${ratio[@]}" | median)"
