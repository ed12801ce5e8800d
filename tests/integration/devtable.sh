#!/usr/bin/env bash
# The device table against a real loop device made here: an exact O_DIRECT
# read workload inside one batch run, and devices that come and go.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v python3 >/dev/null || t_skip "needs python3 to read JSON"

t_loop_create 512 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
out=$T_TMP/batch.json
# udev and blkid probe a new device: let them finish before counting (the
# read counter stops moving).
command -v udevadm >/dev/null && udevadm settle
reads_now() { awk '{print $1}' "/sys/block/$name/stat"; }
last_reads=
reads_settled() {
	local r
	r=$(reads_now)
	[ "$r" = "$last_reads" ] && return 0
	last_reads=$r
	sleep 0.2
	return 1
}
t_until 10 reads_settled
reads0=$(reads_now)
lines() { [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ]; }

# 4096 reads of 64 KiB with O_DIRECT while blktune samples every 2 s: they
# start once blktune has printed its first report (so its first sample is
# taken); once they end, the next report closes the interval they ended in,
# and SIGINT ends the run (-n bounds it on a machine too loaded for that).
"$BLKTUNE" -b -d 2 -n 100 --json -p "$name" >"$out" &
bt=$!
t_check "the first report comes" t_until 10 lines "$out" 1
dd if="$dev" of=/dev/null bs=64k count=4096 iflag=direct status=none
n=$(wc -l <"$out")
t_check "the report after the reads ended comes" t_until 10 lines "$out" $((n + 1))
kill -INT $bt
wait $bt
t_eq "batch exits 0 on SIGINT" "$?" 0
t_check "at least two JSON reports" lines "$out" 2

read -r reads maxsz lines <<<"$(python3 - "$out" "$name" <<'PY'
import json, sys
reads, sizes, lines = 0.0, [], 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    for d in o["disk"]:
        assert d["disk_device"] == sys.argv[2], d["disk_device"]
        reads += d["r/s"] * o["interval_s"]
        if d["r/s"] > 0:
            sizes.append(d["rareq-sz"])
    lines += 1
print(round(reads, 3), max(sizes) if sizes else 0, lines)
PY
)"
reads1=$(awk '{print $1}' "/sys/block/$name/stat")
t_eq "the kernel counted the 4096 reads" "$((reads1 - reads0))" 4096
t_near "sum of r/s x interval equals the reads" "$reads" 4096 0.05
t_near "rareq-sz is 64 KiB" "$maxsz" 64 0.01

# Text mode: aligned columns, header per interval, the device's row.
"$BLKTUNE" -b -d 0.2 -n 2 -p "$name" >"$T_TMP/batch.txt"
t_eq "text mode prints a header per interval" "$(grep -c '^DEVICE' "$T_TMP/batch.txt")" 2
t_check "text mode shows the device" grep -q "^$name " "$T_TMP/batch.txt"

# Devices come and go: a loop device attached and detached mid-run.
# Each step waits for blktune's own reports: one before the device exists,
# one showing its reads, two after it is gone.
# -n bounds it: long enough for a loaded machine, ended by SIGINT below.
"$BLKTUNE" -b -d 0.3 -n 400 --json >"$T_TMP/churn.json" 2>"$T_TMP/churn.err" &
bt=$!
t_until 10 lines "$T_TMP/churn.json" 1
t_loop_create 16
dev2=$T_LOOP
name2=${dev2#/dev/}
# Attaching gives the loop device a new diskseq: a new device, whose first
# interval has no rate. Read once blktune reports it with one.
# (The name was listed before, unattached, with the old diskseq.)
attached() { tail -n 1 "$T_TMP/churn.json" | python3 -c 'import json, sys
o = json.loads(sys.stdin.read())
seq = int(open("/sys/block/%s/diskseq" % sys.argv[1]).read())
sys.exit(not any(d["disk_device"] == sys.argv[1] and d["state"] == "ok" and d["diskseq"] == seq for d in o["disk"]))' \
	"$name2" 2>/dev/null; }
t_check "the attached device is reported as a device with a rate" t_until 10 attached
dd if="$dev2" of=/dev/null bs=4k count=100 iflag=direct status=none
shows_reads() { grep -q "\"disk_device\": \"$name2\", \"mapper_name\": null, \"r/s\": [1-9]" "$T_TMP/churn.json"; }
t_check "its reads are reported" t_until 10 shows_reads
losetup -d "$dev2"
n=$(wc -l <"$T_TMP/churn.json")
t_until 10 lines "$T_TMP/churn.json" $((n + 2))
kill -INT $bt 2>/dev/null
wait $bt
t_eq "survives a device coming and going" "$?" 0
seen=$(grep -c "\"disk_device\": \"$name2\"" "$T_TMP/churn.json")
last=$(tail -n 1 "$T_TMP/churn.json" | grep -c "\"disk_device\": \"$name2\", \"mapper_name\": null, \"r/s\": [1-9]")
t_check "the new device appeared ($seen reports)" test "$seen" -gt 0
t_eq "no activity reported for it after detach" "$last" 0

# Bad options: one line on stderr, exit 2.
"$BLKTUNE" -b -d 0 2>"$T_TMP/err"
t_eq "bad interval exits 2" "$?" 2
t_eq "bad interval: one line" "$(wc -l <"$T_TMP/err")" 1
"$BLKTUNE" --bogus 2>"$T_TMP/err"
t_eq "unknown option exits 2" "$?" 2
"$BLKTUNE" -b -n x 2>/dev/null
t_eq "bad count exits 2" "$?" 2
"$BLKTUNE" -b -n 1 --root "$T_TMP/no-such-root" 2>"$T_TMP/err"
t_eq "missing root exits 1" "$?" 1
t_check "missing root says so" grep -q "cannot open root" "$T_TMP/err"
t_done
