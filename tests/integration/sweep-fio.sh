#!/usr/bin/env bash
# blktune sweep against fio's own JSON on loop devices made here:
# - per-value throughput (mean over repeats) within 3% of fio's;
# - on a device that an unrelated fio job also loads, the command's own I/O
#   equals its fio's totals (1%), the device totals include the other job's
#   and stay within /proc/diskstats' count over the whole sweep;
# - interval counts per run; the cgroups are gone afterwards;
# - blktune sweep ... | head -1 restores the tunable (SIGPIPE);
# - blktune report of a 3-value, 3-repeat sweep: fields present, mean and
#   CI recomputed in python from the CSV (t = 4.303 for 3 runs).
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
BG=
cleanup_bg() { [ -n "$BG" ] && kill "$BG" 2>/dev/null; wait 2>/dev/null; BG=; }
trap 'cleanup_bg; t_cleanup' EXIT
cgroups_left() { ls -d /sys/fs/cgroup/blkio/blktune-sweep-$1-* /sys/fs/cgroup/cpuacct/blktune-sweep-$1-* \
	/sys/fs/cgroup/blktune-sweep-$1-* 2>/dev/null | wc -l; }

t_loop_create 512 || t_skip "cannot create a loop device"
dev=$T_LOOP
n=${dev#/dev/}
# a reused loop device keeps its queue settings: counters on
echo 1 > "/sys/block/$n/queue/iostats"
msk=/sys/block/$n/queue/max_sectors_kb
orig=$(cat "$msk")

# 1. throughput against fio's JSON, two values x two repeats
job="fio --name=seq --filename=$dev --rw=read --bs=1M --direct=1 --ioengine=libaio --iodepth=4 --time_based --runtime=2"
"$BLKTUNE" sweep "$dev" max_sectors_kb=64,1024 --repeat 2 --settle 0.2 -d 0.25 --dir "$T_TMP/fio" \
	--run "$job" > "$T_TMP/fio.out" 2>&1 &
pid=$!
wait "$pid"
t_eq "fio sweep exit status" "$?" 0
t_eq "max_sectors_kb restored" "$(cat "$msk")" "$orig"
t_eq "no cgroup left" "$(cgroups_left "$pid")" 0
t_check "four fio JSON files" test "$(ls "$T_TMP/fio"/*.fio.json 2>/dev/null | wc -l)" -eq 4
python3 - "$T_TMP/fio" > "$T_TMP/fio.cmp" 2>&1 <<'PY'
import csv, glob, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/sweep.csv")))
def fio(path):
    t = open(path).read()
    j = json.loads(t[t.index("{"):])
    return j["jobs"]
for v in ("64", "1024"):
    ours, theirs = [], []
    for r in rows:
        if r["asked"] != v:
            continue
        jobs = fio("%s/max_sectors_kb=%s-r%s.fio.json" % (d, r["value"], r["repeat"]))
        theirs.append(sum(j["read"]["bw_bytes"] + j["write"]["bw_bytes"] for j in jobs) / 2**20)
        ours.append(float(r["mb_s"]))
        own = float(r["own_read_bytes"]); fb = sum(j["read"]["io_bytes"] for j in jobs)
        print("own-vs-fio %s %s %.6f" % (v, r["repeat"], abs(own - fb) / fb))
        w, d_ = float(r["window_s"]), 0.25
        print("intervals %s %s %d %.3f" % (v, r["repeat"], int(r["intervals"]), w / d_))
        # the snapshot's completions: the kernel's and traced in its window
        # (the run's busy part). fio's bytes take at least fio_bytes /
        # max_sectors_kb requests (none is larger) and at most one per 4 KiB
        # page; and the CSV's trace_gap_pct from them
        k = t = None
        for line in open(r["snapshot"]):
            f = line.split()
            if f[:3] == ["vec", "trace", "completions"]:
                k, t = float(f[3]), float(f[4])
        fb = sum(j["read"]["io_bytes"] for j in jobs)
        print("completions %s %s %s %s %.0f:%.0f %s" % (v, r["repeat"], k, t, fb / (int(r["value"]) * 1024),
                                                       fb / 4096, r["trace_gap_pct"]))
    mo, mt = sum(ours) / len(ours), sum(theirs) / len(theirs)
    print("mbps %s %.2f %.2f %.6f" % (v, mo, mt, abs(mo - mt) / mt))
PY
cat "$T_TMP/fio.cmp"
while read -r what v a b c; do
	case $what in
	mbps) t_check "max_sectors_kb=$v: blktune $a MB/s within 3% of fio's $b MB/s (mean of 2)" \
		awk -v e="$c" 'BEGIN { exit !(e < 0.03) }' ;;
	own-vs-fio) t_check "max_sectors_kb=$v repeat $a: own read bytes equal fio's io_bytes (rel. diff $b)" \
		awk -v e="$b" 'BEGIN { exit !(e < 0.01) }' ;;
	intervals) # a run of W s at 0.25 s: floor(W/0.25) ticks, plus the last partial one unless a sliver
		t_check "max_sectors_kb=$v repeat $a: $b intervals for a $c-interval window" \
			awk -v n="$b" -v w="$c" 'BEGIN { f = int(w); exit !(n >= f && n <= f + 1 && n >= 8) }' ;;
	completions) read -r _ _ _ k t fr g <<<"$what $v $a $b $c"
		t_check "max_sectors_kb=$v repeat $a: the kernel's $k completions in the window, a quarter of fio's fewest to its most ($fr)" \
			awk -v k="$k" -v f="$fr" 'BEGIN { split(f, r, ":"); exit !(k >= r[1] / 4 && k <= r[2]) }'
		t_check "max_sectors_kb=$v repeat $a: $t traced, within 1% of them" \
			awk -v k="$k" -v t="$t" 'BEGIN { d = k - t; exit !(d * d <= k * k / 10000) }'
		t_check "max_sectors_kb=$v repeat $a: trace_gap_pct $g in the CSV is theirs" \
			awk -v k="$k" -v t="$t" -v g="$g" 'BEGIN { e = (k - t) / k * 100 - g; exit !(g != "" && e * e < 1e-4) }' ;;
	*) t_fail "python: $what $v $a $b $c" ;;
	esac
done < "$T_TMP/fio.cmp"
grep -q "trimmed idle head" "$T_TMP/fio.out" && t_ok "prints the trimmed idle head and tail" || t_fail "no trim line"
t_check "CSV has no scientific notation" sh -c "! grep -qE '[0-9][eE][+-]?[0-9]' '$T_TMP/fio/sweep.csv'"

# 2. sampling only: --duration 2 at 0.5 s is exactly 4 intervals per run
"$BLKTUNE" sweep "$dev" max_sectors_kb=128,256 --duration 2 -d 0.5 --settle 0 --dir "$T_TMP/dur" > /dev/null 2>&1
t_eq "duration sweep exit status" "$?" 0
t_eq "4 intervals in each run" "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "intervals") c = i; next }
	{ printf "%s ", $c }' "$T_TMP/dur/sweep.csv")" "4 4 "

# 3. a second, unrelated fio job loads the device: the sweep tells its own I/O
# (printf: mawk prints a number past 2^31 with 6 significant digits, and a
# loop device's counters pass that after a few GB: 1.84245e+10)
before=$(awk -v d="$n" '$3 == d { printf "%.0f\n", ($6 + $10) * 512 }' /proc/diskstats)
fio --name=bg --filename="$dev" --rw=randwrite --bs=64k --direct=1 --offset=256M --size=256M \
	--time_based --runtime=60 --rate=20m --output=/dev/null > /dev/null 2>&1 &
BG=$!
sleep 1
exp="fio --name=exp --filename=$dev --rw=read --bs=256k --direct=1 --size=200M --time_based --runtime=2"
"$BLKTUNE" sweep "$dev" read_ahead_kb=128,256 --settle 0.2 -d 0.25 --dir "$T_TMP/shared" --run "$exp" \
	> "$T_TMP/shared.out" 2>&1
t_eq "shared sweep exit status" "$?" 0
cleanup_bg
after=$(awk -v d="$n" '$3 == d { printf "%.0f\n", ($6 + $10) * 512 }' /proc/diskstats)
python3 - "$T_TMP/shared" "$before" "$after" > "$T_TMP/shared.cmp" 2>&1 <<'PY'
import csv, json, sys
d, before, after = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
total = 0
for r in csv.DictReader(open(d + "/sweep.csv")):
    t = open("%s/read_ahead_kb=%s-r1.fio.json" % (d, r["value"])).read()
    jobs = json.loads(t[t.index("{"):])["jobs"]
    fr = sum(j["read"]["io_bytes"] for j in jobs)
    fw = sum(j["write"]["io_bytes"] for j in jobs)
    own_r, own_w = float(r["own_read_bytes"]), float(r["own_write_bytes"])
    dev_r, dev_w = float(r["read_bytes"]), float(r["write_bytes"])
    print("own %s %d %d %.6f" % (r["value"], own_r, fr, abs(own_r - fr) / fr))
    print("ownw %s %d %d 0" % (r["value"], own_w, fw))
    print("devw %s %d %d 0" % (r["value"], dev_w, own_w))
    print("devr %s %d %d 0" % (r["value"], dev_r, own_r))
    total += dev_r + dev_w
print("total all %d %d 0" % (total, after - before))
PY
cat "$T_TMP/shared.cmp"
while read -r what v a b c; do
	case $what in
	own) t_check "read_ahead_kb=$v: own read bytes $a = fio's $b (rel. diff $c < 1%)" \
		awk -v e="$c" 'BEGIN { exit !(e < 0.01) }' ;;
	ownw) t_eq "read_ahead_kb=$v: own write bytes = fio's (the other job's writes are not ours)" "$a" "$b" ;;
	devw) t_check "read_ahead_kb=$v: device writes ($a) include the other job's" test "$a" -gt 0 ;;
	devr) t_check "read_ahead_kb=$v: device reads $a >= own reads $b" test "$a" -ge "$b" ;;
	total) t_check "device bytes over the runs ($a) within diskstats' count over the sweep ($b)" \
		test "$a" -le "$b" ;;
	*) t_fail "python: $what $v $a $b $c" ;;
	esac
done < "$T_TMP/shared.cmp"

# 4. | head -1: SIGPIPE must not leave the tunable changed
ra=/sys/block/$n/queue/read_ahead_kb
ra_orig=$(cat "$ra")
"$BLKTUNE" sweep "$dev" read_ahead_kb=64,4096 --duration 2 -d 0.5 --settle 0 --dir "$T_TMP/pipe" \
	--report "$T_TMP/pipe.txt" 2>"$T_TMP/pipe.err" | head -n 1 > "$T_TMP/pipe.out"
st=${PIPESTATUS[0]}
t_eq "sweep | head -1 exits 128 + SIGPIPE" "$st" 141
t_eq "read_ahead_kb restored after the pipe closed" "$(cat "$ra")" "$ra_orig"
t_check "journal emptied" test ! -s "$BLKTUNE_JOURNAL_DIR/journal"
t_check "head got the first line" grep -q "^sweep $n read_ahead_kb" "$T_TMP/pipe.out"
t_check "the --report file is written all the same" grep -q "^Warnings" "$T_TMP/pipe.txt"

# 5. blktune report of a 3-value, 3-repeat sweep, with a --metric
cmd="dd if=$dev of=/dev/null bs=1M count=64 iflag=direct"
"$BLKTUNE" sweep "$dev" read_ahead_kb=128,512,2048 --repeat 3 --settle 0 -d 0.25 --dir "$T_TMP/rep" \
	--run "$cmd" --metric 'copied=([0-9]+) bytes' --report "$T_TMP/report.txt" > "$T_TMP/rep.out" 2>&1
t_eq "3x3 sweep exit status" "$?" 0
t_eq "9 runs in the CSV" "$(($(wc -l < "$T_TMP/rep/sweep.csv") - 1))" 9
"$BLKTUNE" report "$T_TMP/rep" > "$T_TMP/report2.txt"
t_eq "blktune report exit status" "$?" 0
t_check "--report FILE is what blktune report DIR prints" cmp -s "$T_TMP/report.txt" "$T_TMP/report2.txt"
r=$T_TMP/report.txt
for want in "kernel: $(uname -r)" "host: $(uname -n)" "Device $n" "model: " "size: $((512 * 1024 * 1024)) bytes" \
	"max_hw_sectors_kb $(cat /sys/block/$n/queue/max_hw_sectors_kb)" \
	"max_segments $(cat /sys/block/$n/queue/max_segments)" \
	"logical_block_size $(cat /sys/block/$n/queue/logical_block_size)" \
	"rotational $(cat /sys/block/$n/queue/rotational)" "nr_hw_queues $(ls /sys/block/$n/mq | wc -l)" \
	"scheduler: $(sed "s/ *$//" /sys/block/$n/queue/scheduler)" "read_ahead_kb" "--repeat 3" "each run: $cmd" \
	"baseline: 128" "against read_ahead_kb (log scale)" "Warnings" "(metric:copied)"; do
	if grep -qF -- "$want" "$r"; then t_ok "report has '$want'"; else t_fail "report lacks '$want'"; fi
done
python3 - "$T_TMP/rep/sweep.csv" "$r" > "$T_TMP/rep.cmp" 2>&1 <<'PY'
import csv, math, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
text = open(sys.argv[2]).read()
block = text[text.index("(mb_s), the judged figure"):]
for v in ("128", "512", "2048"):
    x = [float(r["mb_s"]) for r in rows if r["asked"] == v]
    m = sum(x) / len(x)
    sd = math.sqrt(sum((a - m) ** 2 for a in x) / (len(x) - 1))
    ci = 4.302652729749464 * sd / math.sqrt(len(x))
    row = re.search(r"^  %s +(\d+) +([0-9.]+) +([0-9.]+)" % v, block, re.M)
    print("ci %s %s %.2f %.2f %s %s" % (v, row.group(1), m, ci, row.group(2), row.group(3)))
    print("metric %s %s" % (v, " ".join(r["metric:copied"] for r in rows if r["asked"] == v)))
    print("ownr %s %s" % (v, " ".join(r["own_read_bytes"] for r in rows if r["asked"] == v)))
PY
cat "$T_TMP/rep.cmp"
while read -r what v a b c d e; do
	case $what in
	ci) t_eq "read_ahead_kb=$v: 3 runs" "$a" 3
		t_eq "read_ahead_kb=$v: report mean = python's mean of the CSV" "$d" "$b"
		t_eq "read_ahead_kb=$v: report CI = 4.303 x sd / sqrt(3)" "$e" "$c" ;;
	metric) t_eq "read_ahead_kb=$v: --metric took dd's byte count" "$a $b $c" "67108864 67108864 67108864" ;;
	ownr) t_eq "read_ahead_kb=$v: own read bytes = dd's 64 MiB" "$a $b $c" "67108864 67108864 67108864" ;;
	*) t_fail "python: $what $v $a" ;;
	esac
done < "$T_TMP/rep.cmp"
t_check "report has no scientific notation" sh -c "! grep -qE '[0-9][eE][+-][0-9]' '$r'"
t_check "runs shorter than 5 s are warned about" grep -q "is shorter than 5 s" "$r"
"$BLKTUNE" report "$T_TMP/nonexistent" > /dev/null 2>&1
t_eq "report of a missing directory exits 1" "$?" 1
printf 'not a sweep\n' > "$T_TMP/rep/sweep.info"
out=$("$BLKTUNE" report "$T_TMP/rep" 2>&1)
t_eq "report of a bad sweep.info exits 1" "$?" 1
case $out in *"sweep.info:line 1"*) t_ok "names the file and line" ;; *) t_fail "bad info: $out" ;; esac
# 6. SIGINT in the middle of a run: the command is killed, the cgroup removed,
#    the value restored
"$BLKTUNE" sweep "$dev" max_sectors_kb=64,1024 --settle 0 -d 0.5 --dir "$T_TMP/int" \
	--run "fio --name=long --filename=$dev --rw=read --bs=64k --direct=1 --time_based --runtime=30" \
	> "$T_TMP/int.out" 2>&1 &
pid=$!
for _ in $(seq 50); do [ "$(cgroups_left "$pid")" -gt 0 ] && break; sleep 0.1; done
t_check "the command runs in a cgroup of its own" test "$(cgroups_left "$pid")" -gt 0
sleep 0.5
kill -INT "$pid"
wait "$pid"
t_eq "interrupted sweep exits 130" "$?" 130
t_eq "no cgroup left after SIGINT" "$(cgroups_left "$pid")" 0
t_check "its fio is gone" sh -c "! pgrep -f 'name=[l]ong --filename=$dev' >/dev/null"
t_eq "max_sectors_kb restored after SIGINT" "$(cat "$msk")" "$orig"
# 7. the device replaced under the sweep (detached and attached again: the
#    same name, a new diskseq): no figures from another device's counters
back=$(losetup -nO BACK-FILE "$dev" | sed 's/ *$//')
"$BLKTUNE" sweep "$dev" read_ahead_kb=256 --settle 0 -d 0.5 --duration 3 --dir "$T_TMP/repl" \
	> "$T_TMP/repl.out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ "$(cat "$ra")" = 256 ] && break; sleep 0.1; done
sleep 1
losetup -d "$dev" && losetup "$dev" "$back"
wait "$pid"
t_eq "a sweep whose device was replaced exits 1" "$?" 1
t_check "says the device was replaced" grep -q "was replaced during the run (diskseq changed)" "$T_TMP/repl.out"
t_eq "no run recorded from the replaced device" "$(($(wc -l < "$T_TMP/repl/sweep.csv") - 1))" 0
# 8. queue/iostats 0: the kernel counts nothing, and the sweep says so rather
#    than reporting zeros
echo 0 > "/sys/block/$n/queue/iostats"
"$BLKTUNE" sweep "$dev" read_ahead_kb=256 --settle 0 -d 0.5 --dir "$T_TMP/nostats" \
	--run "dd if=$dev of=/dev/null bs=1M count=16 iflag=direct" > "$T_TMP/nostats.out" 2>&1
echo 1 > "/sys/block/$n/queue/iostats"
t_check "iostats 0: says device figures are n/a" grep -q "queue/iostats is 0" "$T_TMP/nostats.out"
t_eq "iostats 0: mb_s and read_bytes empty, own bytes still counted" "$(python3 -c "
import csv; r = list(csv.DictReader(open('$T_TMP/nostats/sweep.csv')))[0]
print(repr(r['mb_s']), repr(r['read_bytes']), r['own_read_bytes'])")" "'' '' 16777216"
# 9. --duration with --run is a time limit: the window is that long, the
#    command is stopped, and that is no failure
"$BLKTUNE" sweep "$dev" read_ahead_kb=256 --settle 0 -d 0.25 --duration 1 --dir "$T_TMP/limit" \
	--run "sleep 29.75" > "$T_TMP/limit.out" 2>&1
t_eq "time-limited sweep exits 0" "$?" 0
t_check "says the command was stopped at the limit" grep -q "stopped at the --duration limit" "$T_TMP/limit.out"
w=$(python3 -c "import csv; print(list(csv.DictReader(open('$T_TMP/limit/sweep.csv')))[0]['window_s'])")
t_check "the window is the 1 s limit ($w)" awk -v w="$w" 'BEGIN { exit !(w >= 1 && w < 1.05) }'
t_check "sleep is gone" sh -c "! pgrep -x -f 'sleep 29.75' >/dev/null"
t_done
