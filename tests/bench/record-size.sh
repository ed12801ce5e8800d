#!/usr/bin/env bash
# The size of a 24 h recording at 1 s on 64 devices (blktune -w): an hour of
# synthetic samples per scenario (tests/bench/record-size.c) through the real
# recorder, scaled to 86400 intervals; the target is under 100 MB with
# tracing for a handful of busy devices ("typical"); "worst" is every
# traced bucket, per-CPU count and matrix cell of 64 devices moving. Beside
# each, what zstd -3 would make of the same file (the whole file at once:
# the most per-frame compression could reach).
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d /tmp/blktune-bench-record.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
objs=$(ls "$build"/obj/*.o | grep -v -e '/main\.o$' -e '/test-[^/]*\.o$')
# shellcheck disable=SC2086
cc -O2 -D_GNU_SOURCE -Iinclude -I"$build" $(pkg-config --cflags ncursesw libbpf 2> /dev/null) \
	-o "$tmp/record-size" tests/bench/record-size.c $objs \
	$(pkg-config --libs ncursesw libproc2 libbpf libmicrohttpd 2> /dev/null) -lsensors -lm -pthread || exit 1
echo "recording size, 64 devices, 24 h at 1 s (target < 100 MB with tracing)"
for s in idle typical-untraced typical busy-untraced busy worst; do
	line=$("$tmp/record-size" "$s" "$tmp/$s.btr") || { echo "record-size $s failed"; exit 1; }
	z=""
	if command -v zstd > /dev/null; then
		for lvl in 3; do
			zb=$(zstd -q -$lvl -c "$tmp/$s.btr" | wc -c)
			z="$z  zstd -$lvl: $(awk -v b="$zb" 'BEGIN { printf "%.1f MB/24h", b * 24 / 1e6 }')"
		done
	fi
	echo "  $line$z"
done
