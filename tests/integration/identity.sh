#!/usr/bin/env bash
# Every rate is one device's: a loop device detached and attached again under
# the same name and number (a new diskseq, counters that carry on) must get no
# rate across the change while `blktune -b --json` runs.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v python3 >/dev/null || t_skip "needs python3 to read JSON"

t_loop_create 64 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
file=$(losetup -n -O BACK-FILE "$dev")
[ -r "/sys/block/$name/diskseq" ] || t_skip "kernel has no diskseq"
command -v udevadm >/dev/null && udevadm settle
out=$T_TMP/reattach.json

# blktune's own reports pace the steps (a loaded machine can take seconds
# for one); -n bounds the run, SIGINT ends it.
"$BLKTUNE" -b -d 0.5 -n 400 --json -p "$name" >"$out" 2>"$T_TMP/err" &
bt=$!
# rated SEQ: a report of the device with that diskseq has a rate
rated() { python3 - "$out" "$name" "$1" <<'PY' 2>/dev/null
import json, sys
for line in open(sys.argv[1]):
    for d in json.loads(line)["disk"]:
        if d["disk_device"] == sys.argv[2] and d["diskseq"] == int(sys.argv[3]) and d["state"] == "ok":
            sys.exit(0)
sys.exit(1)
PY
}
lines() { [ "$(wc -l <"$out")" -ge "$1" ]; }
seq_a=$(cat "/sys/block/$name/diskseq")
t_check "the device is reported with a rate before it goes" t_until 20 rated "$seq_a"
# Reads on the old device right before it goes, on the new one right after:
# the interval that holds the change holds I/O of both.
dd if="$dev" of=/dev/null bs=4k count=2000 iflag=direct status=none
losetup -d "$dev"
if ! losetup "$dev" "$file"; then
	# Another process took the free device in between: it is not ours to
	# detach at cleanup any more.
	T_LOOPS=()
	t_fail "could not attach $dev again (taken by another process?)"
	kill -INT $bt; wait $bt
	t_done
	exit 1
fi
dd if="$dev" of=/dev/null bs=4k count=2000 iflag=direct status=none
seq1=$(cat "/sys/block/$name/diskseq")
t_check "the new device is reported with a rate" t_until 20 rated "$seq1"
dd if="$dev" of=/dev/null bs=4k count=1000 iflag=direct status=none
n=$(wc -l <"$out")
t_check "and the interval of its last reads is reported" t_until 20 lines $((n + 1))
kill -INT $bt
wait $bt
t_eq "batch exits 0 on SIGINT" "$?" 0
t_check "sysfs: the re-attached device has another diskseq ($seq_a -> $seq1)" test "$seq1" -gt "$seq_a"

# One line per report: diskseq state r/s reads-in-interval
python3 - "$out" "$name" >"$T_TMP/rows" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    for d in o["disk"]:
        if d["disk_device"] != sys.argv[2]:
            continue
        r = d["r/s"]
        print(d["diskseq"], d["state"], "null" if r is None else r,
              "null" if r is None else round(r * o["interval_s"]))
PY
t_check "four reports or more ($(wc -l <"$T_TMP/rows"))" test "$(wc -l <"$T_TMP/rows")" -ge 4
t_check "a report of the old device ($seq_a) comes before" awk -v s="$seq_a" '$1 == s && $2 == "ok" { f = 1 } END { exit !f }' "$T_TMP/rows"
t_eq "the last report is of the new device, with a rate" "$(tail -n 1 "$T_TMP/rows" | cut -d' ' -f1,2)" "$seq1 ok"
# Wherever diskseq changes from one report to the next (the re-attach; a
# sample taken while detached adds a step) the report is a new device: no
# rate at all. Any other report has one.
read -r changes spanning <<<"$(awk '
	NR > 1 && $1 != prev { n++; if ($2 != "new" || $3 != "null") bad++ }
	NR > 1 && $1 == prev && $2 != "ok" { bad++ }
	{ prev = $1 }
	END { print n + 0, bad + 0 }' "$T_TMP/rows")"
t_check "diskseq changes in the reports ($changes times)" test "$changes" -ge 1
t_eq "no rate spans a diskseq change, every other report has one" "$spanning" 0
# The change is seen by the first report after it, not later: no rate holds
# reads of both devices (2000 on each, back to back; one device's interval
# holds at most its 2000 and udev's probe reads).
both=$(awk '$2 == "ok" && $4 > 2200 { n++ } END { print n + 0 }' "$T_TMP/rows")
t_eq "no report counts reads of the old and the new device together" "$both" 0
# Reads counted on the new device after its first interval: at most what we
# issued on it (2000 + 1000) plus udev's probe reads, never the old device's.
new_reads=$(awk -v s1="$seq1" '$1 == s1 && $2 == "ok" { n += $4 } END { print n + 0 }' "$T_TMP/rows")
t_check "reads of the new device ($new_reads) are its own" test "$new_reads" -le 3200
t_done
