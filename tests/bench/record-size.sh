#!/usr/bin/env bash
# The size of a 24 h recording at 1 s on 64 devices (blktune -w): an hour of
# synthetic samples per scenario (tests/bench/record-size.c) through the real
# recorder, scaled to 86400 intervals; the target is under 100 MB with
# tracing for a handful of busy devices ("typical"); "worst" is every
# traced bucket, per-CPU count and matrix cell of 64 devices moving. Beside
# each, what zstd -3 would make of the same file (the whole file at once:
# the most per-frame compression could reach). Then this machine's own
# devices, measured: blktune -b -d 1 (traced) records 30 intervals while fio
# does 4 KiB random reads and writes at 2000 IOPS on a loop device made here;
# the median sample frame, with the devices and busy devices it covered, and
# where its bytes go (tests/bench/record-breakdown.c: per field group).
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d /tmp/blktune-bench-record.XXXXXX)
loop=""
fiopid=""
cleanup() {
	[ -n "$fiopid" ] && kill "$fiopid" 2> /dev/null && wait "$fiopid" 2> /dev/null
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$tmp"
}
trap cleanup EXIT
objs=$(ls "$build"/obj/*.o | grep -v -e '/main\.o$' -e '/test-[^/]*\.o$')
# shellcheck disable=SC2086
cc -O2 -D_GNU_SOURCE -Iinclude -I"$build" $(pkg-config --cflags ncursesw libbpf 2> /dev/null) \
	-o "$tmp/record-size" tests/bench/record-size.c $objs \
	$(pkg-config --libs ncursesw libproc2 libbpf libmicrohttpd 2> /dev/null) -lsensors -lm -pthread || exit 1
# shellcheck disable=SC2086
cc -O2 -D_GNU_SOURCE -Iinclude -I"$build" $(pkg-config --cflags ncursesw libbpf 2> /dev/null) \
	-o "$tmp/record-breakdown" tests/bench/record-breakdown.c $objs \
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
[ "$(id -u)" -eq 0 ] && command -v fio > /dev/null && command -v python3 > /dev/null || {
	echo "  this machine: skipped (needs root, fio and python3)"
	exit 0
}
truncate -s 256M "$tmp/img"
loop=$(losetup -f --show "$tmp/img") || { echo "  this machine: no loop device"; exit 1; }
fio --name=rec --filename="$loop" --direct=1 --rw=randrw --bs=4k --ioengine=psync --rate_iops=1000,1000 \
	--time_based --runtime=60 > /dev/null 2>&1 &
fiopid=$!
"$build/blktune" -b --json -d 1 -n 31 -w "$tmp/real.btr" > "$tmp/real.json" 2> "$tmp/real.err" ||
	{ echo "  this machine: blktune failed: $(head -n 1 "$tmp/real.err")"; exit 1; }
python3 - "$tmp/real.btr" "$tmp/real.json" "${loop#/dev/}" << 'EOF'
import json, sys
b = open(sys.argv[1], "rb").read()
def varint(p):
    r = s = 0
    while True:
        c = b[p]; p += 1; r |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return r, p
p, delta = 12, []
while p < len(b):
    t = b[p]; n, q = varint(p + 1)
    if t == 3:
        delta.append(q + n + 4 - p)
    p = q + n + 4
busy, devs = [], 0
for line in open(sys.argv[2]):
    o = json.loads(line)
    devs = len(o["disk"])
    busy.append(sum(1 for d in o["disk"] if (d.get("r/s") or 0) + (d.get("w/s") or 0) > 0))
med = lambda v: sorted(v)[len(v) // 2]
m = med(delta)
print("  this machine     %d devices, %d busy (%s at 2000 IOPS), traced: median %d B/interval %.1f MB/24h"
      % (devs, med(busy), sys.argv[3], m, m * 86400 / 1e6))
EOF
"$tmp/record-breakdown" "$tmp/real.btr" | sed 's/^/    /'
