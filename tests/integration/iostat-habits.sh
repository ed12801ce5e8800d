#!/usr/bin/env bash
# iostat's habits in batch mode: --since-boot, -z, mapper and persistent
# names (-p, -j), -h. On the lvm-names fixture tree (proc/uptime 250.00;
# expected figures worked out here from its proc/diskstats), then
# --since-boot on this machine against iostat -x -d run at the same moment.
. "$(dirname "$0")/../lib.sh"
fix=$T_TOP/tests/fixtures/lvm-names
command -v python3 >/dev/null || t_skip "needs python3"
bt() { "$BLKTUNE" --root "$fix" "$@"; }
# jget JSON DEVICE KEY: a figure of one disk object
jget() {
	python3 -c 'import json, sys
r = json.loads(sys.argv[1])
d = [x for x in r["disk"] if x["disk_device"] == sys.argv[2]]
print(d[0][sys.argv[3]] if d else "absent")' "$1" "$2" "$3"
}
jdevs() { python3 -c 'import json, sys; print(" ".join(d["disk_device"] for d in json.loads(sys.argv[1])["disk"]))' "$1"; }
# by hand: FIELD of DEV's proc/diskstats line (1-based after the name) / uptime
fld() { awk -v d="$1" -v f="$2" '$3 == d { print $(3 + f) }' "$fix/proc/diskstats"; }

# --since-boot: one JSON report, interval = proc/uptime.
j=$(bt --since-boot --json)
t_eq "--since-boot prints one line" "$(printf '%s\n' "$j" | wc -l)" 1
t_eq "interval_s is the tree's uptime" "$(jget "$j" sda interval_s 2>/dev/null || python3 -c 'import json,sys; print(json.loads(sys.argv[1])["interval_s"])' "$j")" "250.0"
t_eq "since_boot is true" "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["since_boot"])' "$j")" "True"
want=$(awk -v n="$(fld sda 1)" 'BEGIN { printf "%.2f", n / 250 }')
t_eq "sda r/s = reads / uptime = $(fld sda 1) / 250" "$(jget "$j" sda r/s)" "$want"
want=$(awk -v n="$(fld sda 3)" 'BEGIN { printf "%.2f", n / 2 / 250 }')
t_eq "sda rkB/s = sectors / 2 / uptime" "$(jget "$j" sda rkB/s)" "$want"
want=$(awk -v t="$(fld sda 8)" -v n="$(fld sda 5)" 'BEGIN { printf "%.2f", t / n }')
t_eq "sda w_await = write ticks / writes" "$(jget "$j" sda w_await)" "$want"
want=$(awk -v t="$(fld sda 11)" 'BEGIN { printf "%.2f", t / 250000 }')
t_eq "sda aqu-sz = time_in_queue / uptime (ms)" "$(jget "$j" sda aqu-sz)" "$want"
want=$(awk -v t="$(fld sda 10)" 'BEGIN { printf "%.2f", t / 250000 * 100 }')
t_eq "sda util = io_ticks / uptime (ms) x 100" "$(jget "$j" sda util)" "$want"
t_eq "disk_device keeps the kernel name; mapper_name beside it" "$(jget "$j" dm-0 mapper_name)" "vg_foo.4059-lv_foo.4059"
t_eq "mapper_name is null for other devices" "$(jget "$j" sda mapper_name)" "None"
t_eq "no persistent_name without -j" "$(python3 -c 'import sys; print("persistent_name" in sys.argv[1])' "$j")" "False"

# -z: loop4 never did I/O.
t_eq "without -z the idle loop4 is listed" "$(jget "$j" loop4 r/s)" "0.0"
t_eq "-z leaves loop4 out" "$(jget "$(bt --since-boot --json -z)" loop4 r/s)" "absent"
t_eq "-z keeps the others" "$(jdevs "$(bt --since-boot --json -z)")" "loop0 loop1 loop2 loop3 sda dm-0"
txt=$(bt --since-boot -z)
t_check "-z in text: no loop4 row" bash -c "! grep -q '^loop4 ' <<<'$txt'"
t_check "text shows dm-0 by its mapper name" grep -q '^vg_foo.4059-lv_foo.4059 ' <<<"$txt"
t_check "text header says since boot" grep -q 'averages since boot (uptime 250.00 s)' <<<"$txt"

# -p accepts any name of a device.
for p in dm-0 vg_foo.4059-lv_foo.4059 /dev/mapper/vg_foo.4059-lv_foo.4059 \
	/dev/disk/by-id/dm-name-vg_foo.4059-lv_foo.4059 /dev/disk/by-label/data /dev/dm-0; do
	t_eq "-p $p selects dm-0" "$(jdevs "$(bt --since-boot --json -p "$p")")" "dm-0"
done
t_eq "-j UUID -p 9C2E-1A7B selects sda1" "$(jdevs "$(bt --since-boot --json -j UUID -p 9C2E-1A7B)")" "sda1"
# Without -j a persistent name is not a device name: a one-line error, exit 2.
err=$(bt --since-boot --json -p 9C2E-1A7B 2>&1 >/dev/null); rc=$?
t_eq "without -j a persistent name is refused: exit status" "$rc" 2
t_eq "without -j: the one-line error" "$err" "blktune: -p 9C2E-1A7B: no such block device"
j=$(bt --since-boot --json -j ID -p sda)
t_eq "-j ID: persistent_name (first by-id link in name order)" "$(jget "$j" sda persistent_name)" \
	"ata-KINGSTON_SH103S3240G_50026B722600AF32"
txt=$(bt --since-boot -j PATH --partitions -p sda -p sda6)
t_check "-j PATH: text rows carry by-path names, uncut" \
	grep -qE '^pci-0000:00:1f.2-ata-1-part6 +0\.3 ' <<<"$txt"

# -h: iostat -x -h's layout and units.
txt=$(bt --since-boot -h -p sda)
t_check "-h: the read group header is iostat's" grep -qx '     r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz Device' <<<"$txt"
# 4888.742 kB/s / 1024 = 4.77 M; 1720 merges / 56763 = 3.0 %; 2444371 / 55043 / 2 = 22.2 k
t_check "-h: sda's read row" grep -qx '  220.17      4.8M     6.88   3.0%    0.32    22.2k sda' <<<"$txt"
# The tree's kernel prints 14 fields: no discard or flush counts, so n/a
# (JSON null), never 0 (which said "no discards" on a kernel that counts
# them as writes).
t_check "-h: sda's flush row (f/s n/a, aqu-sz 0.35, util 4.9%)" grep -qx '     n/a     n/a    0.35   4.9% sda' <<<"$txt"
t_check "-h: sda's discard row is n/a" grep -qx '     n/a       n/a      n/a    n/a     n/a      n/a sda' <<<"$txt"
t_eq "14 fields: d/s is null" "$(jget "$j" sda d/s)" "None"
t_eq "14 fields: f_await is null" "$(jget "$j" sda f_await)" "None"
# A recording keeps each line's field count: its replay says n/a too.
bt -b --json --no-trace -n 2 -d 0.1 -p sda -w "$T_TMP/14.btr" > /dev/null
j=$("$BLKTUNE" -r "$T_TMP/14.btr" -b --json | tail -n 1)
t_eq "replay of 14 fields: sda is measured" "$(jget "$j" sda state) $(jget "$j" sda r/s)" "ok 0.0"
t_eq "replay of 14 fields: d/s and f/s are null" "$(jget "$j" sda d/s) $(jget "$j" sda f/s)" "None None"
t_check "replay of 14 fields, text: n/a" sh -c "'$BLKTUNE' -r '$T_TMP/14.btr' -b | grep -E '^sda ' | tail -n 1 | grep -q 'n/a'"

# Bad input: one line, exit 2 (a -p naming no device is bad input too), or 1
# when the tree lacks what is asked.
check_bad() {
	local want=$1; shift
	"$BLKTUNE" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	local rc=$?
	t_eq "blktune $* exits $want" "$rc" "$want"
	t_eq "blktune $*: one line on stderr" "$(wc -l <"$T_TMP/err")" 1
}
check_bad 2 --root "$fix" -b -j SERIAL
check_bad 2 --root "$fix" -h
check_bad 2 --root "$fix" -b -h --json
check_bad 2 --root "$fix" --since-boot -n 2
check_bad 2 --root "$fix" --since-boot --readahead
check_bad 2 --root "$fix" -b -p /etc/passwd
check_bad 2 --root "$fix" --since-boot -p /dev/disk/by-id/nope
check_bad 2 --root "$fix" --since-boot -p nope
cp -a "$fix" "$T_TMP/noup" && rm "$T_TMP/noup/proc/uptime"
check_bad 1 --root "$T_TMP/noup" --since-boot
t_check "the missing uptime is named" grep -q 'proc/uptime' "$T_TMP/err"
t_check "--help still prints the options" bash -c "'$BLKTUNE' --help | grep -q -- '--since-boot'"

# This machine: blktune --since-boot between two iostat runs agrees with
# them to the drift between the two (plus the 0.01 of two-decimal printing).
if command -v iostat >/dev/null; then
	iostat -x -d -o JSON >"$T_TMP/i1.json"
	"$BLKTUNE" --since-boot --json >"$T_TMP/b.json"
	iostat -x -d -o JSON >"$T_TMP/i2.json"
	python3 - "$T_TMP/i1.json" "$T_TMP/b.json" "$T_TMP/i2.json" >"$T_TMP/cmp" <<'PY'
import json, sys
def iostat(p):
    st = json.load(open(p))["sysstat"]["hosts"][0]["statistics"][0]["disk"]
    return {d["disk_device"]: d for d in st}
i1, i2 = iostat(sys.argv[1]), iostat(sys.argv[3])
b = {d["disk_device"]: d for d in json.loads(open(sys.argv[2]).read())["disk"]}
keys = ["r/s", "w/s", "d/s", "f/s", "rkB/s", "wkB/s", "dkB/s", "rrqm/s", "wrqm/s", "rrqm", "wrqm",
        "r_await", "w_await", "d_await", "f_await", "rareq-sz", "wareq-sz", "aqu-sz", "util"]
n = 0
for dev in sorted(set(i1) & set(i2) & set(b)):
    for k in keys:
        x1, x2, y = i1[dev][k], i2[dev][k], b[dev][k]
        lo, hi = min(x1, x2), max(x1, x2)
        slack = 0.011 + 0.001 * hi
        ok = lo - slack <= y <= hi + slack
        print("%s %s %s %s iostat %.2f..%.2f blktune %.2f" % ("ok" if ok else "BAD", dev, k, "", lo, hi, y))
        n += 1
print("compared", n)
PY
	t_check "iostat and blktune share devices to compare ($(tail -n 1 "$T_TMP/cmp"))" \
		bash -c "[ \"\$(tail -n 1 '$T_TMP/cmp' | awk '{print \$2}')\" -ge 19 ]"
	bad=$(grep -c '^BAD' "$T_TMP/cmp")
	t_eq "--since-boot agrees with iostat -x -d on every figure of every device" "$bad" 0
	grep '^BAD' "$T_TMP/cmp" | head -5
	grep -E '^ok (vda|loop0) (r/s|rkB/s|r_await|util) ' "$T_TMP/cmp" | sed 's/^/# /'
	# The CPU line since boot against iostat's avg-cpu (iostat's %system
	# holds irq and softirq time; blktune shows them apart).
	iostat -c -o JSON >"$T_TMP/c1.json"
	"$BLKTUNE" --since-boot --json >"$T_TMP/bc.json"
	iostat -c -o JSON >"$T_TMP/c2.json"
	python3 - "$T_TMP/c1.json" "$T_TMP/bc.json" "$T_TMP/c2.json" >"$T_TMP/cpu" <<'PY'
import json, sys
def cpu(p):
    return json.load(open(p))["sysstat"]["hosts"][0]["statistics"][0]["avg-cpu"]
c1, c2 = cpu(sys.argv[1]), cpu(sys.argv[3])
b = json.loads(open(sys.argv[2]).read())["cpu"]
b = dict(b, system=b["system"] + b["irq"] + b["softirq"])
for k in ["user", "nice", "system", "iowait", "steal", "idle"]:
    lo, hi = min(c1[k], c2[k]), max(c1[k], c2[k])
    ok = lo - 0.011 <= b[k] <= hi + 0.011
    print("%s %s iostat %.2f..%.2f blktune %.2f" % ("ok" if ok else "BAD", k, lo, hi, b[k]))
PY
	t_eq "--since-boot's CPU shares agree with iostat's avg-cpu" "$(grep -c '^ok' "$T_TMP/cpu")" 6
	grep -v '^ok' "$T_TMP/cpu"
else
	t_fail "iostat (sysstat) is not installed: contrib/install-deps test installs it"
fi
t_done
