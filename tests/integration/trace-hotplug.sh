#!/usr/bin/env bash
# Tracing state of disks that went away is freed: under a running, tracing
# blktune -b, 1,000 loop devices this test creates come and go (LOOP_CTL_ADD,
# losetup, a few direct reads, losetup -d, LOOP_CTL_REMOVE), each with a new
# index. Afterwards blktune's VmRSS and open fds are no more than after the
# first 100 cycles (fds: and 6 per block device more, other users' devices
# come and go), no fd names a block device that went, its BPF device hash
# holds no entry for a removed disk (its queue-id slot is skipped until
# reused), and a disk attached after all that is traced with a latency.
# Needs root.
. "$(dirname "$0")/../lib.sh"
t_need_root
CYCLES=${CYCLES:-1000}
FIRST=${FIRST:-3000} # loop indices FIRST.. are free on ordinary machines
cc -O2 -o "$T_TMP/loopctl" "$T_TOP/tests/bench/loopctl.c" || t_skip "cannot build loopctl"
[ -e /dev/loop-control ] || t_skip "no /dev/loop-control"
img=$T_TMP/img
truncate -s 4M "$img"
made=()
cleanup() {
	[ -n "${bpid:-}" ] && kill "$bpid" 2>/dev/null && wait "$bpid" 2>/dev/null
	[ -n "${rpid:-}" ] && kill "$rpid" 2>/dev/null && wait "$rpid" 2>/dev/null
	rpid=
	bpid=
	for i in "${made[@]:-}"; do
		[ -n "$i" ] || continue
		losetup -d "/dev/loop$i" 2>/dev/null
		"$T_TMP/loopctl" remove "$i" 2>/dev/null || { sleep 0.2; "$T_TMP/loopctl" remove "$i" 2>/dev/null; }
	done
	made=()
}
trap 'cleanup; t_cleanup' EXIT

"$BLKTUNE" -b --json -d 0.1 --journal-dir "$T_TMP/j" >/dev/null 2>"$T_TMP/b.err" &
bpid=$!
sleep 1.5
kill -0 "$bpid" 2>/dev/null || t_skip "blktune did not start: $(cat "$T_TMP/b.err")"
grep -q '"traced": true' <("$BLKTUNE" -b --json -n 2 -d 0.2 --journal-dir "$T_TMP/j2" 2>/dev/null) ||
	t_skip "tracing unavailable here"

# A second one in readahead mode: the buffered reads of each cycle give the
# readahead programs state for the device (its page cache) to free.
"$BLKTUNE" -b --json --readahead -d 0.1 --journal-dir "$T_TMP/jr" >"$T_TMP/r.json" 2>"$T_TMP/r.err" &
rpid=$!
sleep 1.5
kill -0 "$rpid" 2>/dev/null || { t_subskip "readahead mode did not start: $(head -c 200 "$T_TMP/r.err")"; rpid=; }

rss() { awk '/^VmRSS/ { print $2 }' "/proc/${1:-$bpid}/status"; }
fds() { ls "/proc/${1:-$bpid}/fd" | wc -l; }
# block devices present: other users' come and go on a shared machine, and
# blktune keeps up to 6 fds open for each (tunables, size, diskseq)
ndev() { ls /sys/block | wc -l; }
# fds that name a block device that is gone: what a device's leak leaves
stale() {
	local n=0 f t d
	for f in /proc/"${1:-$bpid}"/fd/*; do
		t=$(readlink "$f") || continue
		case $t in */block/*)
			d=${t#*/block/}
			[ -e "/sys/class/block/${d%%/*}" ] || n=$((n + 1)) ;;
		esac
	done
	echo "$n"
}
no_stale() { [ "$(stale "$@")" = 0 ]; }
# fds may grow by 6 per block device more than at the first reading
fds_flat() { [ "$2" -le $(($1 + 6 * ($4 > $3 ? $4 - $3 : 0))) ]; }
# cycle I: one loop device comes, does I/O (so the programs add it to their
# map), and goes; blktune is given time to see most of them.
cycle() {
	local i=$1 d=/dev/loop$1
	"$T_TMP/loopctl" add "$i" 1 >/dev/null || return 1
	made+=("$i")
	losetup "$d" "$img" 2>/dev/null || { "$T_TMP/loopctl" remove "$i"; unset 'made[-1]'; return 1; }
	dd if="$d" of=/dev/null bs=4k count=4 iflag=direct status=none
	dd if="$d" of=/dev/null bs=64k count=4 status=none # buffered: readahead
	losetup -d "$d"
	# kept in made (removed at exit) if the kernel still holds it
	if "$T_TMP/loopctl" remove "$i" 2>/dev/null || { sleep 0.05; "$T_TMP/loopctl" remove "$i" 2>/dev/null; }; then
		unset 'made[-1]'
	fi
}
ok=0
for ((k = 0; k < CYCLES; k++)); do
	cycle $((FIRST + k)) && ok=$((ok + 1))
	if [ "$k" -eq 99 ]; then
		sleep 0.5
		rss0=$(rss) fds0=$(fds) ndev0=$(ndev)
		[ -n "$rpid" ] && rrss0=$(rss "$rpid") rfds0=$(fds "$rpid")
	fi
done
sleep 0.5
rss1=$(rss) fds1=$(fds) ndev1=$(ndev)
if [ -n "$rpid" ]; then
	rrss1=$(rss "$rpid") rfds1=$(fds "$rpid")
	echo "# readahead mode: VmRSS ${rrss0} -> ${rrss1} KiB, fds ${rfds0} -> ${rfds1}"
	t_check "readahead mode: still running" kill -0 "$rpid"
	t_check "readahead mode: open fds did not grow: $rfds0 -> $rfds1 (block devices $ndev0 -> $ndev1)" \
		fds_flat "$rfds0" "$rfds1" "$ndev0" "$ndev1"
	t_check "readahead mode: no fd names a block device that went" t_until 3 no_stale "$rpid"
	t_check "readahead mode: VmRSS flat: $rrss0 -> $rrss1 KiB (at most +256 KiB)" test "$rrss1" -le $((rrss0 + 256))
	t_check "readahead mode: it reported readahead figures" grep -q '"readahead": {' "$T_TMP/r.json"
fi
echo "# $ok of $CYCLES cycles; VmRSS ${rss0} -> ${rss1} KiB, fds ${fds0} -> ${fds1}"
t_check "most cycles ran ($ok)" test "$ok" -ge $((CYCLES * 9 / 10))
t_check "blktune still running" kill -0 "$bpid"
# no more than after 100 cycles (fewer when a device of cycle 100 was still
# held then): one fd kept per device that went would be 900 more
t_check "open fds did not grow: $fds0 -> $fds1 (block devices $ndev0 -> $ndev1)" fds_flat "$fds0" "$fds1" "$ndev0" "$ndev1"
t_check "no fd names a block device that went" t_until 3 no_stale
t_check "VmRSS flat: $rss0 -> $rss1 KiB (at most +256 KiB)" test "$rss1" -le $((rss0 + 256))

# The kernel side: blktune's device map (the per-CPU hash named devs among
# the maps its fds hold) has no entry for a removed loop device.
if command -v bpftool >/dev/null; then
	ids=$(for f in /proc/$bpid/fdinfo/*; do awk '/^map_id:/ { print $2 }' "$f"; done)
	mid=
	for id in $ids; do
		bpftool map show id "$id" 2>/dev/null | grep -q 'percpu_hash  name devs ' && mid=$id
	done
	if [ -n "$mid" ]; then
		left() { bpftool -j map dump id "$mid" | python3 -c '
import json, sys
lo, hi = int(sys.argv[1]), int(sys.argv[2])
n = 0
for e in json.load(sys.stdin):
    k = e["key"]
    dev = int(k[0], 16) | int(k[1], 16) << 8 | int(k[2], 16) << 16 | int(k[3], 16) << 24
    if dev >> 20 == 7 and lo <= (dev & 0xfffff) < hi:
        n += 1
print(n)' "$FIRST" $((FIRST + CYCLES)); }
		# freed at the next refreshes, not at once: up to 3 s
		for _ in $(seq 30); do
			keys=$(left)
			[ "$keys" = 0 ] && break
			sleep 0.1
		done
		t_eq "no map entry left for the $CYCLES removed loop devices" "$keys" 0
	else
		t_fail "found blktune's devs map (map ids: $ids)"
	fi
fi

# A disk that comes after all this is traced, latency included.
"$T_TMP/loopctl" add "$FIRST" 1 >/dev/null && made+=("$FIRST")
losetup "/dev/loop$FIRST" "$img"
(for _ in 1 2 3 4 5 6; do dd if="/dev/loop$FIRST" of=/dev/null bs=4k count=200 iflag=direct status=none; sleep 0.2; done) &
io=$!
"$BLKTUNE" -b --json -d 0.3 -n 4 -p "loop$FIRST" --journal-dir "$T_TMP/j3" >"$T_TMP/new.json" 2>&1
wait "$io"
t_check "a new disk shows a latency" python3 -c '
import json, sys
ok = False
for line in open(sys.argv[1]):
    for d in json.loads(line)["disk"]:
        if d.get("traced") and d.get("lat_p50_us") is not None:
            ok = True
assert ok
' "$T_TMP/new.json"
# remove the devices here: t_done deletes loopctl with the temporary dir
cleanup
t_eq "no loop device of this test is left" "$(ls /dev/loop$FIRST 2>/dev/null)" ""
t_done
