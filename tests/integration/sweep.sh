#!/usr/bin/env bash
# blktune sweep on a loop device made here: a read_ahead_kb sweep with a
# sequential-read command gives one snapshot per value and puts the original
# value back; SIGINT in the middle of a sweep puts it back too; blktune diff
# of two of the saved snapshots prints the comparison, and --json parses.
. "$(dirname "$0")/../lib.sh"
t_need_root
T_SW=$BLKTUNE
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state

t_loop_create 128 || t_skip "cannot create a loop device"
dev=$T_LOOP
n=${dev#/dev/}
echo 1 > "/sys/block/$n/queue/iostats" # a reused loop device keeps its queue settings
ra=/sys/block/$n/queue/read_ahead_kb
orig=$(cat "$ra")

# Buffered sequential read of this device only; its cache is dropped first so
# every run reads from the device (blockdev --flushbufs on our loop device).
cmd="blockdev --flushbufs $dev; dd if=$dev of=/dev/null bs=64k count=1024 2>/dev/null; sleep 1"
out=$("$T_SW" sweep "$dev" read_ahead_kb=128,512,2048 --run "$cmd" -d 0.5 --settle 0.2 --dir "$T_TMP/sw" --csv "$T_TMP/sw.csv" 2>&1)
t_eq "sweep exit status" "$?" 0
t_eq "original read_ahead_kb back" "$(cat "$ra")" "$orig"
t_eq "one snapshot per value" "$(ls "$T_TMP/sw"/*.snap 2>/dev/null | wc -l)" 3
for v in 128 512 2048; do
	f=$(ls "$T_TMP/sw"/*"read_ahead_kb=$v-r1.snap" 2>/dev/null | head -n 1)
	if [ -n "$f" ] && grep -q "^tunable read_ahead_kb $v\$" "$f"; then
		t_ok "snapshot of $v records read_ahead_kb $v"
	else
		t_fail "snapshot of $v: ${f:-missing}"
	fi
done
case $out in *"read_ahead_kb $orig -> 128"*) t_ok "prints what the kernel set" ;; *) t_fail "sweep output: $out" ;; esac
case $out in *"restore: $n read_ahead_kb"*) t_ok "prints the restore" ;; *) t_fail "no restore line: $out" ;; esac
case $out in *"against read_ahead_kb (log scale)"*) t_ok "plots throughput on a log axis" ;; *) t_fail "no plot" ;; esac
t_eq "CSV: header + 3 rows" "$(wc -l < "$T_TMP/sw.csv")" 4
t_eq "CSV header" "$(head -n 1 "$T_TMP/sw.csv" | cut -d, -f1-11)" \
	"value,asked,repeat,order,started,window_s,busy_s,head_idle_s,tail_idle_s,idle_pct,intervals"
# 1024 x 64 KiB read per run: at least 64 MiB read from the device in the window.
rb=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "read_bytes") c = i } NR == 2 { print $c }' "$T_TMP/sw.csv")
t_check "CSV read_bytes of the first run covers the 64 MiB read ($rb)" awk -v v="$rb" 'BEGIN { exit !(v >= 67108864) }'
t_check "the sweep's directory holds the same CSV" cmp -s "$T_TMP/sw.csv" "$T_TMP/sw/sweep.csv"

# diff of two saved snapshots, text and JSON
a=$(ls "$T_TMP/sw"/*"read_ahead_kb=128-r1.snap"); b=$(ls "$T_TMP/sw"/*"read_ahead_kb=2048-r1.snap")
out=$("$T_SW" diff "$a" "$b" 2>&1)
t_eq "diff exit status" "$?" 0
case $out in *"read_ahead_kb"*"128 -> 2048"*) t_ok "diff shows the differing tunable first" ;; *) t_fail "diff: $out" ;; esac
case $out in *"rkB/s"*) t_ok "diff shows per-metric means" ;; *) t_fail "diff lacks metrics: $out" ;; esac
"$T_SW" diff "$a" "$b" --json > "$T_TMP/diff.json"
t_check "diff --json parses" python3 -c "
import json, sys
d = json.load(open('$T_TMP/diff.json'))
dev = d['devices'][0]
assert dev['device'] == '$n'
assert dev['tunables'][0]['name'] == 'read_ahead_kb' and dev['tunables'][0]['differs']
assert all(m['verdict'] in ('higher', 'lower', 'within noise', 'same', 'n/a') and m['judgement'] in (None, 'better', 'worse') for m in dev['metrics'])
"
out=$("$T_SW" show "$a" 2>&1)
t_eq "show exit status" "$?" 0
printf 'blktune-snapshot 9\n' > "$T_TMP/bad.snap"
out=$("$T_SW" show "$T_TMP/bad.snap" 2>&1)
t_eq "show of a bad file: exit status" "$?" 1
case $out in *"bad.snap:1: unknown version"*) t_ok "names file and line" ;; *) t_fail "show bad: $out" ;; esac
"$T_SW" diff "$a" > /dev/null 2>&1
t_eq "diff with one file: usage" "$?" 2
"$T_SW" sweep "$dev" read_ahead_kb > /dev/null 2>&1
t_eq "sweep without values: usage" "$?" 2

# SIGINT in the middle: the original value comes back, exit 130.
"$T_SW" sweep "$dev" read_ahead_kb=64,4096 --duration 20 -d 0.5 --settle 0 --dir "$T_TMP/int" > "$T_TMP/int.out" 2>&1 &
pid=$!
for _ in $(seq 50); do [ "$(cat "$ra")" = 64 ] && break; sleep 0.1; done
t_eq "sweep has set the first value" "$(cat "$ra")" 64
kill -INT "$pid"
wait "$pid"
t_eq "interrupted sweep exits 130" "$?" 130
t_eq "original read_ahead_kb back after SIGINT" "$(cat "$ra")" "$orig"
t_check "journal emptied" test ! -s "$BLKTUNE_JOURNAL_DIR/journal"

t_done
