#!/usr/bin/env bash
# Cost of the readahead mode (issue 5): fio 4 KiB buffered sequential reads
# (psync, one job) of a 64 MiB file whose pages are all cached, on an ext4 made
# here on a loop device made here, with the mode off and on (build/ra-probe
# holding the programs attached), interleaved ABBA, REPEATS pairs; prints the
# median throughput of each and their ratio. Every such read fires
# mm_filemap_get_pages: the worst case per byte. --invalidate=0: by default
# fio drops the file's page cache at the start of every pass over it, so
# each pass is read again through readahead and every read() hits a
# readahead page. Then runs with kernel.bpf_stats_enabled=1 give the
# in-kernel ns per program run (the sysctl is restored), for those cached
# reads and for that re-read through readahead (fio's default: a read
# that finds and clears its readahead page). Usage:
# tests/bench/readahead.sh [build-dir] (env REPEATS, RUNTIME)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/lib.bash"
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
dev= mnt=$tmp/mnt
stats_old=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
	[ -n "$ra_ppid" ] && kill "$ra_ppid" 2>/dev/null && wait "$ra_ppid" 2>/dev/null
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

# fio_mbs [FIO-ARGS]: cached reads unless the arguments say otherwise
fio_mbs() {
	fio --name=ra-bench --filename="$mnt/f" --rw=read --bs=4k --ioengine=psync --size=64M \
		--time_based --runtime="$RUNTIME" --invalidate=0 "$@" --output-format=json 2>/dev/null |
		python3 -c 'import json,sys; print(round(json.load(sys.stdin)["jobs"][0]["read"]["bw"] / 1024))'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

off=() on=()
sysctl -q -w kernel.bpf_stats_enabled=0
for ((i = 0; i < REPEATS; i++)); do
	for mode in $( ((i % 2)) && echo "on off" || echo "off on"); do
		if [ "$mode" = on ]; then
			ra_probe_start "$probe" "$dev"
			v=$(fio_mbs)
			ra_probe_stop
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
# event of this workload. Medians of REPEATS runs of each workload:
#   cached  the reads above: no readahead page is pending;
#   reread  fio's default --invalidate=1: each pass over the file drops its
#           cache and reads it again through readahead, so every read()
#           finds and clears a readahead page (and the readahead, page-cache
#           insertion and eviction programs run too).
sysctl -q -w kernel.bpf_stats_enabled=1
declare -A all=() gp=() fl=() ratio=()
for ((i = 0; i < REPEATS; i++)); do
	for wl in cached reread; do
		ra_probe_start "$probe" "$dev"
		echo floor >&"${PROBE[1]}"
		read -r w f <&"${PROBE[0]}"
		[ "$w" = floor ] && [ "$f" = 0 ] || { echo "skip - floor program did not attach ($w $f)"; exit 77; }
		declare -A c0=() t0=()
		while read -r name c t; do c0[$name]=$c t0[$name]=$t; done < <(ra_probe_stats)
		if [ "$wl" = cached ]; then fio_mbs >/dev/null; else fio_mbs --invalidate=1 >/dev/null; fi
		declare -A c1=() t1=()
		while read -r name c t; do c1[$name]=$c t1[$name]=$t; done < <(ra_probe_stats)
		ra_probe_stop
		per() { awk -v c="$(( c1[$1] - c0[$1] ))" -v t="$(( t1[$1] - t0[$1] ))" 'BEGIN { printf "%.1f", c ? t / c : 0 }'; }
		all[$wl]+="$(per all) " gp[$wl]+="$(per get_pages) " fl[$wl]+="$(per floor) "
		ratio[$wl]+="$(awk -v a="$(per get_pages)" -v b="$(per floor)" 'BEGIN { printf "%.3f", b ? a / b : 0 }') "
		echo "# run $((i + 1)) $wl: $(( c1[all] - c0[all] )) events, all programs $(per all) ns/event, get_pages $(per get_pages) ns, floor $(per floor) ns"
	done
done
sysctl -q -w kernel.bpf_stats_enabled="$stats_old"
for wl in cached reread; do
	m() { printf '%s\n' $1 | median; }
	echo "readahead: bpf_stats ns per event, $wl reads (median of $REPEATS): all programs $(m "${all[$wl]}")," \
		"get_pages $(m "${gp[$wl]}"), empty-program floor $(m "${fl[$wl]}"), get_pages/floor $(m "${ratio[$wl]}")"
done
