#!/usr/bin/env bash
# A partition deleted and added again under the same name and major:minor
# between two samples is another device: its counters start afresh, and its
# diskseq is its disk's, so name, number and diskseq all match the old one.
# blktune -b --json must report it as new, never a rate across the old and
# the new counters. Before the fix the interval showed "ok" with the new
# partition's reads minus the old one's (2000 of 3000 reads here).
. "$(dirname "$0")/../lib.sh"
t_need_root
for c in python3 addpart delpart; do
	command -v $c >/dev/null || t_skip "needs $c"
done

t_loop_create 64 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
# udev probes a new device: let it finish, or addpart finds it busy
command -v udevadm >/dev/null && udevadm settle
# A loop device keeps a partition added by hand after its detach: one left
# by an earlier user of this number makes addpart busy. The device is ours
# now: remove it, and ours at the end (before t_cleanup detaches).
delpart "$dev" 1 2>/dev/null
trap 'delpart "$dev" 1 2>/dev/null; t_cleanup' EXIT
addpart "$dev" 1 2048 40000 || t_skip "addpart on a loop device failed"
command -v udevadm >/dev/null && udevadm settle
part=${name}p1
[ -e "/sys/block/$name/$part/dev" ] || t_skip "no $part in sysfs"
dd if="${dev}p1" of=/dev/null bs=4k count=1000 iflag=direct status=none
dev0=$(cat "/sys/block/$name/$part/dev")
out=$T_TMP/part.json
lines() { [ "$(wc -l <"$out" 2>/dev/null || echo 0)" -ge "$1" ]; }

# recorded too (-w): a replay must tell the new partition from the old as
# the live run did (the generation is a word of format 5)
XDG_STATE_HOME=$T_TMP/state "$BLKTUNE" -b -d 1 -n 400 --json --no-trace -p "$part" -w "$T_TMP/part.btr" \
	>"$out" 2>"$T_TMP/err" &
bt=$!
t_check "the first report comes" t_until 20 lines 1
# The kernel may hand out another minor: delete and add until the number
# is the old one again (it cycles through the free ones).
same=false
for _ in $(seq 1 12); do
	delpart "$dev" 1 && addpart "$dev" 1 2048 40000 || break
	[ "$(cat "/sys/block/$name/$part/dev")" = "$dev0" ] && { same=true; break; }
done
dd if="${dev}p1" of=/dev/null bs=4k count=3000 iflag=direct status=none
n=$(wc -l <"$out")
t_check "the report after the re-creation comes" t_until 20 lines $((n + 2))
kill -INT $bt
wait $bt
t_eq "batch exits 0 on SIGINT" "$?" 0
$same || t_skip "the partition never got its number $dev0 back"

# state of each report after the first, and the reads it counted
python3 - "$out" "$part" >"$T_TMP/rows" <<'PY'
import json, sys
for i, line in enumerate(open(sys.argv[1])):
    o = json.loads(line)
    for d in o["disk"]:
        if d["disk_device"] == sys.argv[2] and i > 0:
            print(d["state"], "-" if d["r/s"] is None else round(d["r/s"] * o["interval_s"]))
PY
sed 's/^/# /' "$T_TMP/rows"
t_check "the re-created partition is reported as a new device" grep -q '^new ' "$T_TMP/rows"
t_eq "no interval counts the new reads minus the old (3000 - 1000)" "$(grep -c '^ok 2[0-9][0-9][0-9]$' "$T_TMP/rows")" 0
"$BLKTUNE" -r "$T_TMP/part.btr" -b --json -p "$part" >"$T_TMP/replay.json" 2>"$T_TMP/replay.err"
t_eq "the replay exits 0" "$?" 0
t_check "the replay prints what the live run printed, the new partition's interval too" \
	cmp -s "$out" "$T_TMP/replay.json"
t_done
