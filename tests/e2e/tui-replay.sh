#!/usr/bin/env bash
# The full-screen replay (blktune -r FILE), for real: the TUI records
# (-w) a loop device made here while fio reads it at 2 MiB/s, ] doubles
# read_ahead_kb, fio reads at 6 MiB/s, q restores. The recording is
# checked against /proc/diskstats read before and after (an independent
# count of the same reads). Then the replay: it starts paused on interval
# 1; T and t step one interval and the header's time and the row's figures
# are those of the same interval in `-r FILE -b --json`; J jumps to a typed
# time; n goes to the recorded change and says what it was; E takes A
# before it and B after it, and the verdict and the A/B view's figures are
# those of the snapshots w saves; keys that change the kernel are refused
# in one line and sysfs does not move; space plays to the end and pauses.
# -r -b prints the recorded change in the interval n finds; -n 3 replays
# the first three intervals only. The same recording with its wall clock
# set back halfway: J finds times of both parts and refuses one never read.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
command -v fio > /dev/null || t_skip "needs fio"
command -v python3 > /dev/null || t_skip "needs python3"
t_loop_create 256 || t_skip "cannot create a loop device"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
rec=$T_TMP/run.btr
export XDG_STATE_HOME=$T_TMP/state
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat $q/read_ahead_kb)

reads() { awk -v d="$name" '$3 == d { print $4 }' /proc/diskstats; }
# fio_rate NAME RATE: O_DIRECT 64 KiB reads at RATE for 5 s, to completion
fio_rate() {
	fio --name="$1" --filename="$T_LOOP" --rw=read --bs=64k --direct=1 --ioengine=psync --rate="$2" \
		--time_based --runtime=5 --output-format=json --output="$T_TMP/$1.json" > /dev/null 2>&1
}
grows() { [ "$(stat -c %s "$rec")" -gt "$1" ]; }

r0=$(reads)
tm_start "XDG_STATE_HOME='$XDG_STATE_HOME' '$BLKTUNE' -d 1 --journal-dir '$T_TMP/journal' -p '$name' -w '$rec'; echo blktune-exited; sleep 60"
t_check "the recording TUI is up" tm_wait "^$name " 10
t_check "fio at 2 MiB/s ran" fio_rate a 2m
tm_keys ']'
t_check "] doubled read_ahead_kb while recording" wait_sysfs $q/read_ahead_kb $((ra0 * 2)) 3
t_check "fio at 6 MiB/s ran" fio_rate b 6m
# two more intervals into the file, then q and restore
s=$(stat -c %s "$rec")
t_until 5 grows "$s"
s=$(stat -c %s "$rec")
t_until 5 grows "$s"
tm_keys q
tm_wait "r restore and quit" 3 && tm_keys r
t_check "the recorder quit" tm_wait blktune-exited 5
t_eq "quit restored read_ahead_kb" "$(cat $q/read_ahead_kb)" "$ra0"
r1=$(reads)
tm_stop

"$BLKTUNE" -r "$rec" -b --json -p "$name" > "$T_TMP/replay.json" 2> "$T_TMP/replay.err"
t_eq "-r -b --json exit status" "$?" 0
n=$(wc -l < "$T_TMP/replay.json")
t_check "the recording holds intervals ($n)" test "$n" -ge 12
# interval k (line k of the JSON): its time as the header prints it, and r/s
python3 -c '
import json,sys
for i, l in enumerate(open(sys.argv[1]), 1):
    o = json.loads(l); t = o["timestamp"]
    print(i, t[:10], t[11:19], "%.2f" % o["disk"][0]["r/s"])' "$T_TMP/replay.json" > "$T_TMP/intervals"
when() { awk -v k="$1" '$1 == k { print $2, $3 }' "$T_TMP/intervals"; }
rps() { awk -v k="$1" '$1 == k { print $4 }' "$T_TMP/intervals"; }
total=$(python3 -c '
import json,sys
print(round(sum(json.loads(l)["disk"][0]["r/s"] * json.loads(l)["interval_s"] for l in open(sys.argv[1]))))' "$T_TMP/replay.json")
t_near "reads replayed over the recording = /proc/diskstats before and after ($((r1 - r0)))" "$total" $((r1 - r0)) 1
fio_ios=$(python3 -c '
import json,sys
print(sum(json.load(open(f))["jobs"][0]["read"]["total_ios"] for f in sys.argv[1:]))' "$T_TMP/a.json" "$T_TMP/b.json")
t_near "... and fio's own count" "$total" "$fio_ios" 1

tm_start "XDG_STATE_HOME='$XDG_STATE_HOME' '$BLKTUNE' -r '$rec' -p '$name'; echo replay-exited; sleep 60"
header() { tm_screen | head -n 1; }
row_rps() { tm_screen | awk -v d="$name" '$1 == d { print $2; exit }'; }
# the screen's r/s (one decimal) is the JSON's (two) rounded: within 0.05
same_rps() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && d <= 0.0501 && d >= -0.0501) }'; }
# at interval K: the header's time and place, and the row's r/s
at() {
	tm_wait "REPLAY $(when "$1")  *$1/$n " 3 && same_rps "$(row_rps)" "$(rps "$1")"
}
t_check "the replay starts on interval 1 of $n, paused, REPLAY and its time in the header" \
	tm_wait "REPLAY $(when 1)  *1/$n .*\[paused\]" 5
t_check "interval 1's r/s is the JSON's ($(rps 1))" same_rps "$(row_rps)" "$(rps 1)"
tm_keys T T T
t_check "T T T: interval 4, its time and r/s ($(rps 4))" at 4
tm_keys t
t_check "t: back to interval 3, its time and r/s ($(rps 3))" at 3
t_check "the time moved with it" bash -c "[ '$(when 3)' != '$(when 4)' ]"
tm_keys t t t
t_check "t at the first interval stays there and says so" tm_wait "the first interval of the recording" 3
t_check "... still interval 1" at 1

# J: a typed time; the first interval ending at or after it
k=$((n / 2))
target=$(when "$k" | cut -c12-)
want=$(awk -v t="$target" '$3 >= t { print $1; exit }' "$T_TMP/intervals")
tm_keys J
t_check "J asks for a time" tm_wait "jump to the time HH:MM or HH:MM:SS" 2
tm_text "$target" && tm_keys Enter
t_check "J $target: interval $want, its time and r/s" at "$want"
tm_keys J && tm_text "25:00" && tm_keys Enter
t_check "J 25:00 is refused in one line" tm_wait 'time "25:00": HH:MM or HH:MM:SS' 2
t_check "... and the replay stays where it was" at "$want"

# n: to the recorded change
tm_keys J && tm_text "$(when 1 | cut -c12-)" && tm_keys Enter
t_check "back at interval 1" at 1
tm_keys n
t_check "n: the change, as recorded" tm_wait "change at [0-9:]*: $name read_ahead_kb $ra0 -> $((ra0 * 2))" 3
chg=$(header | sed -nE "s|.* ([0-9]+)/$n .*|\1|p")
t_check "... at an interval inside the recording ($chg)" test "${chg:-0}" -gt 2 -a "${chg:-0}" -lt "$n"
# the batch replay prints the recorded change in that same interval: in
# its JSON report, and as a line before its text report
t_eq "-r -b --json: one report holds the recorded change" "$(grep -c '"tunable_changes"' "$T_TMP/replay.json")" 1
t_eq "... interval $chg's: read_ahead_kb $ra0 -> $((ra0 * 2))" "$(python3 -c '
import json,sys
for i, l in enumerate(open(sys.argv[1]), 1):
    for c in json.loads(l).get("tunable_changes", []):
        print(i, c["disk_device"], c["tunable"], c["from"], c["to"])' "$T_TMP/replay.json")" \
	"$chg $name read_ahead_kb $ra0 $((ra0 * 2))"
"$BLKTUNE" -r "$rec" -b -p "$name" > "$T_TMP/replay.txt"
t_eq "-r -b text: the change's line, once" \
	"$(grep -c "^tunable change at [0-9:]*: $name read_ahead_kb $ra0 -> $((ra0 * 2))\$" "$T_TMP/replay.txt")" 1
t_eq "... before interval $chg's report (the reports' headers before it: $((chg - 1)))" \
	"$(sed -n '/^tunable change/q;p' "$T_TMP/replay.txt" | grep -c '  interval [0-9.]* s')" $((chg - 1))

# keys that change the kernel: refused, sysfs unchanged
tm_keys ']'
t_check "] in a replay: one line, nothing written" tm_wait "replay: \] would change this machine" 2
tm_keys U
t_check "U too" tm_wait "replay: U would change this machine" 2
t_eq "read_ahead_kb untouched by the replay" "$(cat $q/read_ahead_kb)" "$ra0"
tm_keys F2
t_check "F2: the recorded tunables, read-only" tm_wait "read-only: a replay" 2
t_check "... read_ahead_kb as recorded after the change" \
	tm_wait "^read_ahead_kb  *$((ra0 * 2))  *$ra0" 2
tm_keys Escape

# E: A before the change, B after, compared; w saves both
tm_keys E
t_check "E compares around the change and opens the A/B view" tm_wait "^A/B $name" 5
t_check "the status names the change" tm_wait "around the change at [0-9:]* ($name read_ahead_kb $ra0 -> $((ra0 * 2)))" 2
t_check "read_ahead_kb is the tunable that differs" tm_wait "read_ahead_kb *$ra0 -> $((ra0 * 2))" 2
read -r _ va vb _ verdict <<< "$(tm_screen | grep -E '^rMB/s ' | head -n 1)"
tm_keys w
t_check "w saves A and B" tm_wait "saved: blktune diff" 3
fa=$(ls "$XDG_STATE_HOME"/blktune/*A* 2> /dev/null | head -n 1)
fb=$(ls "$XDG_STATE_HOME"/blktune/*B* 2> /dev/null | head -n 1)
mean() { awk '$1 == "stat" && $2 == "rMB/s" { print $4 }' "$1"; }
tun() { awk -v t="$2" '$1 == "tunable" && $2 == t { print $3 }' "$1"; }
ma=$(mean "$fa") mb=$(mean "$fb")
echo "# snapshot rMB/s means: A $ma B $mb; A/B view: $va $vb $verdict"
t_eq "the view's A is the A snapshot's mean" "$va" "$(printf %.2f "$ma")"
t_eq "the view's B is the B snapshot's mean" "$vb" "$(printf %.2f "$mb")"
# fio's own bandwidth (MB/s): a window's mean may hold an interval fio
# started or ended in (a loaded machine starts fio late), so it may fall
# short of fio's rate by a part of one interval in five, never exceed it, and
# a window that mixed in the other value's intervals ((2 + 6) / 2) is out
fbw() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["bw_bytes"] / 1e6)' "$T_TMP/$1.json"; }
bwa=$(fbw a) bwb=$(fbw b)
t_check "A is fio's 2 MiB/s ($ma; fio $bwa)" awk -v m="$ma" -v f="$bwa" 'BEGIN { exit !(m > 0.75 * f && m < 1.1 * f) }'
t_check "B is fio's 6 MiB/s ($mb; fio $bwb)" awk -v m="$mb" -v f="$bwb" 'BEGIN { exit !(m > 0.75 * f && m < 1.1 * f) }'
t_check "the verdict has the snapshots' sign: $verdict" bash -c "[[ '$verdict' == higher,* ]]"
t_eq "A's read_ahead_kb is the one before the change" "$(tun "$fa" read_ahead_kb)" "$ra0"
t_eq "B's is the one after" "$(tun "$fb" read_ahead_kb)" $((ra0 * 2))
span_end_a=$(awk '$1 == "span" { print $3 }' "$fa")
span_start_b=$(awk '$1 == "span" { print $2 }' "$fb")
t_check "A ends before B starts ($span_end_a < $span_start_b)" \
	awk -v a="$span_end_a" -v b="$span_start_b" 'BEGIN { exit !(a < b) }'
tm_keys Escape

# space plays to the end, and the replay pauses there
tm_keys J && tm_text "$(when $((n - 2)) | cut -c12-)" && tm_keys Enter
tm_keys ' '
t_check "space plays" tm_wait "\[playing\]" 3
t_check "... to the end, where it pauses" tm_wait "end of the recording" 10
t_check "... on the last interval" at "$n"
tm_keys q
t_check "q quits the replay at once (nothing to restore)" tm_wait replay-exited 3
tm_stop

# -n 3: the replay holds the recording's first 3 intervals, those -r -b
# -n 3 prints; playing stops at the third
tm_start "XDG_STATE_HOME='$XDG_STATE_HOME' '$BLKTUNE' -r '$rec' -p '$name' -n 3; echo replay-exited; sleep 60"
t_check "-n 3: interval 1 of 3" tm_wait "REPLAY $(when 1)  *1/3 .*\[paused\]" 5
t_check "... and the status says -n made it so" tm_wait "replay: 3 intervals (-n: the recording's first)" 3
tm_keys ' '
t_check "space plays to the end of the 3" tm_wait "end of the recording" 10
t_check "... interval 3, its time and r/s" tm_wait "REPLAY $(when 3)  *3/3 " 3
t_check "... r/s of interval 3 ($(rps 3))" same_rps "$(row_rps)" "$(rps 3)"
tm_keys T
t_check "T: no interval past the third" tm_wait "the last interval of the recording" 3
tm_keys q
t_check "q quits" tm_wait replay-exited 3
tm_stop

# A wall clock set back two hours while recording: the same recording with
# the wall times from sample k on moved (tests/e2e/record-step.c, built
# against this build's objects). J finds a time of either part in the
# samples (a search of the wall times as if they only increased refused
# both); an hour before the start was never read and is refused, saying
# the clock jumped.
objs=$(ls "$(dirname "$BLKTUNE")"/obj/*.o 2> /dev/null | grep -v -e '/main\.o$' -e '/test-[^/]*\.o$')
# shellcheck disable=SC2086
if [ -z "$objs" ] || ! cc -O2 -std=gnu11 -D_GNU_SOURCE -I"$T_TOP/include" -I"$(dirname "$BLKTUNE")" \
	$(pkg-config --cflags ncursesw libbpf 2> /dev/null) -o "$T_TMP/record-step" "$T_TOP/tests/e2e/record-step.c" \
	$objs $(pkg-config --libs ncursesw libproc2 libbpf libmicrohttpd 2> /dev/null) -lsensors -lm -pthread; then
	t_subskip "the clock set back: no build objects beside $BLKTUNE to build record-step with"
	t_done
fi
k=$((n / 2))
t_check "record-step: the recording with its clock set back at sample $k" \
	"$T_TMP/record-step" "$rec" "$T_TMP/step.btr" "$k" -7200
"$BLKTUNE" -r "$T_TMP/step.btr" -b --json -p "$name" > "$T_TMP/replay.json" 2> "$T_TMP/replay.err"
python3 -c '
import json,sys
for i, l in enumerate(open(sys.argv[1]), 1):
    o = json.loads(l); t = o["timestamp"]
    print(i, t[:10], t[11:19], "%.2f" % o["disk"][0]["r/s"])' "$T_TMP/replay.json" > "$T_TMP/intervals"
t_eq "the stepped recording replays its $n intervals" "$(wc -l < "$T_TMP/intervals")" "$n"
tm_start "XDG_STATE_HOME='$XDG_STATE_HOME' '$BLKTUNE' -r '$T_TMP/step.btr' -p '$name'; echo replay-exited; sleep 60"
t_check "the stepped replay says the clock jumped" tm_wait "replay: $n intervals, .*(the clock jumped)" 5
after=$((k + 2))
tm_keys J && tm_text "$(when $after | cut -c12-)" && tm_keys Enter
t_check "J $(when $after | cut -c12-), after the step: interval $after" at "$after"
tm_keys J && tm_text "$(when 2 | cut -c12-)" && tm_keys Enter
t_check "J $(when 2 | cut -c12-), before it: interval 2" at 2
never=$(date -d "$(when 1) 1 hour ago" +%H:%M:%S)
tm_keys J && tm_text "$never" && tm_keys Enter
t_check "J $never (never read) is refused, saying the clock jumped" \
	tm_wait "$never is not in the recording: it holds .* not all between (the clock jumped 1 time)" 3
t_check "... and the replay stays where it was" at 2
tm_keys q
t_check "q quits" tm_wait replay-exited 3
tm_stop

# The header of a replay says why the live run was untraced, as it said then.
XDG_STATE_HOME=$XDG_STATE_HOME "$BLKTUNE" -b -n 2 -d 0.2 --no-trace -p "$name" -w "$T_TMP/off.btr" > /dev/null
t_eq "a --no-trace recording" "$?" 0
tm_start "XDG_STATE_HOME='$XDG_STATE_HOME' '$BLKTUNE' -r '$T_TMP/off.btr' -p '$name'; echo off-exited; sleep 60"
t_check "its replay's header says it was --no-trace" tm_wait "trace off in the recording (--no-trace)" 5
tm_keys q
t_check "q quits" tm_wait off-exited 3
t_done
