#!/usr/bin/env bash
# Record and replay: blktune -b --json --trace-processes -w FILE records a
# fio run on a loop device the test made; blktune -r FILE -b --json prints
# the very same lines (every figure, traced histograms and the traced
# requests per process and cgroup included), and the reads and writes it
# shows add up to fio's own counts, the traced requests of fio's cgroup
# too. A recording of the format before (version 4) replays as its live
# run printed. A recorder killed with SIGKILL leaves a
# file that replays; a torn tail costs its last interval only, with a
# warning, and so does a frame that holds no sample. A device attached and
# detached mid-recording (churn: the words of every device after it move)
# replays exactly too, present in the intervals it existed only. Junk, another format version and an
# existing -w file are one line on stderr and exit status 2.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio > /dev/null || t_skip "no fio (contrib/install-deps test installs it)"
command -v python3 > /dev/null || t_skip "no python3"

t_loop_create 128 || t_fail "losetup"
dev=${T_LOOP#/dev/}
# The cgroup view needs a device some cgroup counter counts: on v1 blkio
# (this machine) blk-throttle counts per cgroup once a rule names the device
# (bfq would too, where the kernel has it; a kernel without modules may
# not), so fio's cgroup gets a rule without a limit. fio runs in a cgroup
# of its own, so its row is one this test made, not whatever other tests
# left behind; removing the cgroup removes the rule.
V1=/sys/fs/cgroup/blkio
CG=$V1/blktune-test-rec-$$
trap '[ -d "$CG" ] && rmdir "$CG"; t_cleanup' EXIT
if [ -e $V1/blkio.throttle.io_service_bytes_recursive ]; then
	mkdir "$CG" || t_fail "a blkio cgroup"
	echo "$(cat /sys/block/$dev/dev) 18446744073709551615" > "$CG/blkio.throttle.read_bps_device" ||
		t_fail "a throttle rule without a limit for $dev"
	in_cg() { bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CG" "$@"; }
	rel=/${CG#$V1/}
else # v2 with the io controller counts every device: the job's own cgroup
	in_cg() { "$@"; }
	rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
fi
rec=$T_TMP/run.btr
XDG_STATE_HOME=$T_TMP/state "$BLKTUNE" -b --json --cgroups --top-processes --trace-processes -d 0.5 -n 16 -w "$rec" \
	> "$T_TMP/live.json" 2> "$T_TMP/live.err" &
bpid=$!
# fio runs inside the recorded window: after the first report, well before the last
t_until 20 test -s "$T_TMP/live.json"
in_cg fio --name=rec --filename="$T_LOOP" --direct=1 --rw=randrw --bs=4k --size=64m --ioengine=psync \
	--time_based --runtime=3 --output-format=json > "$T_TMP/fio.json" 2> "$T_TMP/fio.err"
t_eq "fio exit status" "$?" 0
# churn: a new loop device (a number none had) comes, does I/O, and is
# removed while recording
loop1=$T_LOOP
t_loop_create_fresh 16 || t_fail "losetup (churn)"
churn=$T_LOOP
T_LOOP=$loop1
dd if=/dev/zero of="$churn" bs=64k count=32 oflag=direct status=none
sleep 1.2
losetup -d "$churn"
python3 -c 'import fcntl, os, sys
fd = os.open("/dev/loop-control", os.O_RDWR)
fcntl.ioctl(fd, 0x4C81, int(sys.argv[1]))' "${churn#/dev/loop}"
# gone: its number may be someone else's by the cleanup
T_LOOPS=("$loop1")
T_LOOPS_FRESH=()
wait $bpid
t_eq "recording blktune's exit status" "$?" 0
t_eq "recording blktune said nothing on stderr" "$(cat "$T_TMP/live.err")" ""
t_eq "live reports" "$(wc -l < "$T_TMP/live.json")" 16

"$BLKTUNE" -r "$rec" -b --json --cgroups --top-processes > "$T_TMP/replay.json" 2> "$T_TMP/replay.err"
t_eq "replay exit status" "$?" 0
t_eq "replay said nothing on stderr" "$(cat "$T_TMP/replay.err")" ""
t_check "replay -b --json prints exactly what live printed" cmp -s "$T_TMP/live.json" "$T_TMP/replay.json"
seen=$(python3 -c '
import json,sys
print(sum(any(d["disk_device"] == sys.argv[2] for d in json.loads(l)["disk"]) for l in open(sys.argv[1])))' \
	"$T_TMP/replay.json" "${churn#/dev/}")
t_check "the device that came and went is in some replayed intervals, not all ($seen of 16)" \
	test "$seen" -gt 0 -a "$seen" -lt 16
diff <(cut -c1-300 "$T_TMP/live.json") <(cut -c1-300 "$T_TMP/replay.json") | head -4
# with the live run's options, --trace-processes too (it crashed: a replay
# has no root for the tracer to check)
"$BLKTUNE" -r "$rec" -b --json --cgroups --top-processes --trace-processes > "$T_TMP/replay-tp.json" 2> "$T_TMP/replay-tp.err"
t_eq "replay with --trace-processes: exit status" "$?" 0
t_check "... prints exactly what live printed" cmp -s "$T_TMP/live.json" "$T_TMP/replay-tp.json"
"$BLKTUNE" -r "$rec" -b --json --cgroups --top-processes -n 5 > "$T_TMP/replay5.json"
t_check "-n 5 replays the first five intervals" cmp -s <(head -n 5 "$T_TMP/live.json") "$T_TMP/replay5.json"
"$BLKTUNE" -r "$rec" -b --json -p "$dev" > "$T_TMP/replay-p.json"
t_eq "-p with -r: one device per report" \
	"$(python3 -c 'import json,sys; print(sorted({len(json.loads(l)["disk"]) for l in open(sys.argv[1])}))' "$T_TMP/replay-p.json")" "[1]"
"$BLKTUNE" -r "$rec" -b > "$T_TMP/replay.txt"
t_eq "-r -b text: a report per interval" "$(grep -c "interval" "$T_TMP/replay.txt")" 16

t_check "the processes' figures are replayed (fio among them)" grep -q '"command": "fio"' "$T_TMP/replay.json"
in_rows() { python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    for g in json.loads(line)["cgroups"]["groups"]:
        n += g["path"] == sys.argv[2] and g["device"] == sys.argv[3] and g["rios"] + g["wios"] > 0
print(n)' "$T_TMP/replay.json" "$rel" "$dev"; }
n=$(in_rows)
t_check "the cgroups' figures are replayed: fio's cgroup $rel on $dev in $n intervals" test "$n" -gt 0
# The replayed figures against fio: requests and sectors over the run.
read -r fr fw < <(python3 -c '
import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["write"]["total_ios"])' "$T_TMP/fio.json")
read -r rr rw traced < <(python3 -c '
import json,sys
r = w = 0.0; traced = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    for d in o["disk"]:
        if d["disk_device"] == sys.argv[2]:
            r += d["r/s"] * o["interval_s"]; w += d["w/s"] * o["interval_s"]
            traced += sum(b["count"] for b in d.get("lat_hist_us") or []) > 0
print(round(r), round(w), traced)' "$T_TMP/replay.json" "$dev")
t_near "replayed reads add up to fio's" "$rr" "$fr" 2
t_near "replayed writes add up to fio's" "$rw" "$fw" 2
t_check "traced figures are in the replay ($traced intervals)" test "$traced" -gt 0
# --trace-processes' figures: the replay calls them traced, shows fio's
# requests on the device, and fio's cgroup's traced requests on it at the
# end are fio's reads and writes, one by one.
procs_traced() { grep -o '"processes": {[^[]*' "$1" | grep -o '"traced": [a-z]*' | sort -u | tr '\n' ' '; }
t_eq "the replay's processes are traced, as live" "$(procs_traced "$T_TMP/replay.json")" '"traced": true '
read -r fio_req cg_req < <(python3 -c '
import json, sys
fio = cg = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    for r in o["processes"].get("rows", []):
        if r["command"] == "fio":
            fio = max([fio] + [d["read_requests"] + d["write_requests"] for d in r["devices"] if d["device"] == sys.argv[2]])
    cg = sum(g["traced"]["requests"] for g in o["cgroups"]["groups"]
             if g["path"] == sys.argv[3] and g["device"] == sys.argv[2] and g.get("traced"))
print(fio, cg)' "$T_TMP/replay.json" "$dev" "$rel")
t_check "fio's traced requests on $dev are in the replayed process rows ($fio_req, of $((fr + fw)))" \
	test "$fio_req" -gt 0 -a "$fio_req" -le $((fr + fw))
t_eq "fio's cgroup's traced requests on $dev at the end of the replay are fio's" "$cg_req" $((fr + fw))

# A last frame that decodes but holds no sample (a key of three words):
# open stops before it, so replay is the 16 intervals and a warning.
cp "$rec" "$T_TMP/nosample.btr"
at=$(stat -c %s "$rec")
python3 -c 'import struct, sys
def crc32c(data):
    c = 0xffffffff
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0x82f63b78 if c & 1 else c >> 1
    return c ^ 0xffffffff
payload = bytes([2, 1, 3, 0, 0, 0])  # one new segment, 3 words, no string, no bits, none changed
body = bytes([2, len(payload)]) + payload
sys.stdout.buffer.write(body + struct.pack("<I", crc32c(body)))' >> "$T_TMP/nosample.btr"
"$BLKTUNE" -r "$T_TMP/nosample.btr" -b --json --cgroups --top-processes > "$T_TMP/nosample.json" 2> "$T_TMP/nosample.err"
t_eq "a frame that is no sample: replay exit status" "$?" 0
t_check "... the intervals before it unchanged" cmp -s "$T_TMP/nosample.json" "$T_TMP/replay.json"
t_check "... and says where on stderr" grep -q "malformed record (type 2) at byte $at" "$T_TMP/nosample.err"

# SIGKILL while recording: the file replays.
kill9=$T_TMP/killed.btr
"$BLKTUNE" -b -d 0.1 -w "$kill9" > /dev/null 2>&1 &
kpid=$!
t_until 20 test "$(stat -c %s "$kill9" 2> /dev/null || echo 0)" -gt 20000
kill -9 $kpid
wait $kpid 2> /dev/null
"$BLKTUNE" -r "$kill9" -b --json > "$T_TMP/killed.json" 2> "$T_TMP/killed.err"
t_eq "a recording cut by kill -9 replays (exit status)" "$?" 0
n=$(wc -l < "$T_TMP/killed.json")
t_check "... and has its intervals ($n)" test "$n" -gt 2
# A torn last frame (a kill in the middle of a write): one interval less, a warning.
size=$(stat -c %s "$kill9")
truncate -s $((size - 3)) "$kill9"
"$BLKTUNE" -r "$kill9" -b --json > "$T_TMP/torn.json" 2> "$T_TMP/torn.err"
t_eq "a torn tail replays (exit status)" "$?" 0
t_eq "... one interval less" "$(wc -l < "$T_TMP/torn.json")" $((n - 1))
t_check "... the earlier intervals unchanged" cmp -s "$T_TMP/torn.json" <(head -n $((n - 1)) "$T_TMP/killed.json")
t_check "... and says so on stderr" grep -q "torn record" "$T_TMP/torn.err"

# Refusals: one line, exit status 2.
refuse() { # DESC EXPECTED-TEXT ARGS...
	local desc=$1 want=$2
	shift 2
	"$BLKTUNE" "$@" > "$T_TMP/out" 2> "$T_TMP/err" < /dev/null
	t_eq "$desc: exit status" "$?" 2
	t_eq "$desc: one line" "$(wc -l < "$T_TMP/err")" 1
	t_check "$desc: says '$want'" grep -q -- "$want" "$T_TMP/err"
	t_eq "$desc: nothing on stdout" "$(wc -c < "$T_TMP/out")" 0
}
head -c 4096 /dev/urandom > "$T_TMP/junk"
refuse "junk" "not a blktune recording" -r "$T_TMP/junk" -b --json
cp "$rec" "$T_TMP/v1.btr"
printf '\001' | dd of="$T_TMP/v1.btr" bs=1 seek=8 conv=notrunc status=none
refuse "an older format version" "format version 1 (an older blktune's)" -r "$T_TMP/v1.btr" -b --json
cp "$rec" "$T_TMP/v9.btr"
printf '\011' | dd of="$T_TMP/v9.btr" bs=1 seek=8 conv=notrunc status=none
refuse "a newer format version" "format version 9 (a newer blktune's)" -r "$T_TMP/v9.btr" -b --json
sum=$(md5sum < "$rec")
refuse "-w over an existing file" "exists" -b -n 1 -w "$rec"
t_eq "... which is untouched" "$(md5sum < "$rec")" "$sum"
refuse "-w with -r" "not both" -b -r "$rec" -w "$T_TMP/new.btr"
t_check "... and wrote nothing" test ! -e "$T_TMP/new.btr"
refuse "a missing file" "No such file" -b -r "$T_TMP/none.btr"
# A recording of format 4 (before the traced requests per process and
# cgroup), written by the blktune of its time: replayed line for line.
fix=${BLKTUNE_FIXTURES:-$T_TOP/tests/fixtures}/record
"$BLKTUNE" -r "$fix/v4.btr" -b --json --cgroups > "$T_TMP/v4.json" 2> "$T_TMP/v4.err"
t_eq "a format 4 recording: replay exit status" "$?" 0
t_eq "... nothing on stderr" "$(cat "$T_TMP/v4.err")" ""
t_check "... what its live run printed" cmp -s "$T_TMP/v4.json" "$fix/v4.json"
# An untraced run says why in its JSON (trace_off); the replay says the same
XDG_STATE_HOME=$T_TMP/state "$BLKTUNE" -b --json -n 3 -d 0.2 --no-trace -w "$T_TMP/off.btr" \
	> "$T_TMP/off-live.json" 2>/dev/null
t_eq "--no-trace: every report says why it is untraced" \
	"$(grep -c '"trace_off": "off (--no-trace)"' "$T_TMP/off-live.json")" 3
"$BLKTUNE" -r "$T_TMP/off.btr" -b --json > "$T_TMP/off-replay.json" 2>&1
t_check "... and its replay prints the same lines" cmp -s "$T_TMP/off-live.json" "$T_TMP/off-replay.json"
t_done
