#!/usr/bin/env bash
# Keys act on what the person chose, and quitting leaves the devices as
# found (found by review, stop 26):
#  - the selection and an open value prompt stay on their device when the
#    rows are sorted afresh (before, the prompt wrote another device's
#    tunable once a busier device took the row);
#  - a key the terminal sends as a sequence curses does not know (Esc [ ...)
#    is ignored whole: its "[" must not halve read_ahead_kb, nor its Esc
#    cancel a prompt;
#  - keys typed behind the quit answer are not run ("qr]" left a change);
#  - a modified key is named as typed ("Ctrl-Right", not "code 568");
#  - a change stepped back leaves no journal behind;
#  - K keeps the changes made so far, not later ones;
#  - an earlier session's journal the person chose to leave (n) is left:
#    quit restores this session's changes only, k does not drop it;
#  - leaving the process or cgroup view by another key stops its sampling;
#  - a typed value is never cut (the prompt held 63 characters);
#  - an interval changed while paused is the pace after resume;
#  - A and B with no device selected change nothing.
# On two loop devices this test made; everything is put back.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 64 || t_fail "losetup"
a=${T_LOOP#/dev/}
t_loop_create 64 || t_fail "losetup"
b=${T_LOOP#/dev/}
qa=/sys/block/$a/queue
qb=/sys/block/$b/queue
ra_a=$(cat $qa/read_ahead_kb) nm_a=$(cat $qa/nomerges) ra_b=$(cat $qb/read_ahead_kb) nm_b=$(cat $qb/nomerges)
jdir=$T_TMP/journal
load=
put_back() {
	[ -n "$load" ] && kill "$load" 2> /dev/null
	echo "$ra_a" > $qa/read_ahead_kb
	echo "$nm_a" > $qa/nomerges
	echo "$ra_b" > $qb/read_ahead_kb
	echo "$nm_b" > $qb/nomerges
}
trap 'put_back; tm_stop; t_cleanup' EXIT
pid_of_blktune() { pgrep -P "$(tm display-message -p -t "$TM_SESS" '#{pane_pid}')" | head -n 1; }
start() {
	rm -f "$T_TMP/exit" "$T_TMP/err"
	tm_start "XDG_STATE_HOME='$T_TMP/state' '$BLKTUNE' -d 0.3 --no-trace --journal-dir '$jdir' -p $a -p $b 2> '$T_TMP/err'; echo EXIT=\$? > '$T_TMP/exit'; sleep 60"
	tm_wait "^DEVICE" 5
}
quit_restore() {
	tm_keys q
	tm_wait "r restore and quit" 2 && tm_keys r
	tm_wait_file "$T_TMP/exit" 5
	tm_stop
}
first_row() { tm_screen | awk '/^DEVICE/ { getline; sub(/\*$/, "", $1); print $1; exit }'; }
first_row_is() { [ "$(first_row)" = "$1" ]; }

# 1. The value prompt stays on its device and tunable while the rows move.
start
tm_keys '>' # sort by r/s, busiest first
tm_keys t
t_check "the panel opens on $a (the first row)" tm_wait "tunables of $a" 3
tm_keys Enter
t_check "Enter asks for $a read_ahead_kb" tm_wait "$a read_ahead_kb = ${ra_a}_" 2
tm_text 512
# reads on b make it the busiest: it takes the first row
(end=$((SECONDS + 15)); for ((i = 0; i < 20000 && SECONDS < end; i++)); do
	dd if=/dev/$b of=/dev/null bs=4k count=64 iflag=direct status=none; done) &
load=$!
t_check "$b takes the first row" t_until 10 first_row_is "$b"
t_check "the panel stays on $a" tm_wait "tunables of $a" 3
t_check "so does the prompt, with what was typed" tm_wait "$a read_ahead_kb = 512_" 2
tm_keys Enter
t_check "Enter writes $a's read_ahead_kb" wait_sysfs $qa/read_ahead_kb 512
t_eq "and not $b's" "$(cat $qb/read_ahead_kb)" "$ra_b"
tm_keys Escape
kill "$load" 2> /dev/null
wait "$load" 2> /dev/null
load=
quit_restore
t_eq "quit restores $a" "$(cat $qa/read_ahead_kb)" "$ra_a"

# 2. Unknown key sequences are swallowed whole, in the table and in a prompt.
start
pid=$(pid_of_blktune)
tm_text $'\e[1;9C'
t_check "an unknown sequence is said to be ignored" tm_wait "unknown sequence: ignored" 3
t_check "blktune read it" tm_consumed "$pid"
t_eq "its [ did not halve read_ahead_kb" "$(cat $qa/read_ahead_kb)" "$ra_a"
t_check "its C did not open the cgroup view" tm_wait "^DEVICE" 1
tm_keys t
tm_wait "tunables of $a" 3
tm_keys Enter
tm_wait "$a read_ahead_kb = ${ra_a}_" 2
tm_text 256
tm_text $'\e[1;9D'
t_check "blktune read it" tm_consumed "$pid"
t_check "in a prompt it is ignored too: the prompt stays" tm_wait "$a read_ahead_kb = 256_" 2
t_eq "and nothing was written" "$(cat $qa/read_ahead_kb)" "$ra_a"
tm_keys Escape Escape
tm_wait "^DEVICE" 2

# 3. Keys behind the quit answer are not run.
tm_keys ']'
t_check "] doubles read_ahead_kb" wait_sysfs $qa/read_ahead_kb $((ra_a * 2))
tm_text 'qr]'
t_check "q r ] in one write: blktune leaves" tm_wait_file "$T_TMP/exit" 5
t_eq "restored, and the ] behind it not run" "$(cat $qa/read_ahead_kb)" "$ra_a"
t_eq "exit status 0" "$(cat "$T_TMP/exit")" EXIT=0
tm_stop

# 3b. A modified key the terminal knows (xterm's Ctrl-Right, a code past
# KEY_MAX) is named as typed, not by its code.
rm -f "$T_TMP/exit"
tm_start "TERM=xterm-256color XDG_STATE_HOME='$T_TMP/state' '$BLKTUNE' -d 0.3 --no-trace --journal-dir '$jdir' -p $a -p $b; echo EXIT=\$? > '$T_TMP/exit'; sleep 60"
tm_wait "^DEVICE" 5
tm_text $'\e[1;5C'
t_check "Ctrl-Right is said by its name" tm_wait "no action for Ctrl-Right here" 3
tm_text $'\e[1;2A'
t_check "Shift-Up too" tm_wait "no action for Shift-Up here" 3
tm_keys q
t_check "q quits at once (nothing changed)" tm_wait_file "$T_TMP/exit" 5
tm_stop

# 4. A change stepped back: q quits at once and leaves no journal.
start
tm_keys ']'
wait_sysfs $qa/read_ahead_kb $((ra_a * 2))
tm_keys '['
t_check "[ puts it back" wait_sysfs $qa/read_ahead_kb "$ra_a"
tm_keys q
t_check "q quits without asking" tm_wait_file "$T_TMP/exit" 5
t_check "and leaves no journal to offer at the next start" test ! -s "$jdir/journal"
tm_stop

# 5. K keeps the changes made so far; a later one is asked about and restored.
start
tm_keys ']'
wait_sysfs $qa/read_ahead_kb $((ra_a * 2))
tm_keys K
t_check "K keeps" tm_wait "changes kept" 2
tm_keys j t
tm_wait "tunables of $b" 3
tm_keys Enter
tm_wait "$b read_ahead_kb = " 2
tm_keys C-u
tm_text 1024
tm_keys Enter
t_check "a change after K" wait_sysfs $qb/read_ahead_kb 1024
tm_keys Escape q
t_check "q asks again" tm_wait "1 tunable change(s): r restore" 3
tm_keys r
tm_wait_file "$T_TMP/exit" 5
t_eq "the change after K is restored" "$(cat $qb/read_ahead_kb)" "$ra_b"
t_eq "the one kept stays" "$(cat $qa/read_ahead_kb)" $((ra_a * 2))
tm_stop
echo "$ra_a" > $qa/read_ahead_kb

# 6. An earlier session's journal left with n stays left.
echo 2 > $qb/nomerges
seq_b=$(cat "/sys/block/$b/diskseq" 2> /dev/null || echo -)
printf 'blktune-journal 2\norig %s %s %s nomerges %s\n' "$b" "$(cat /sys/block/$b/dev)" "$seq_b" "$nm_b" > "$jdir/journal"
start
tm_wait "An earlier blktune left 1 tunable(s) changed" 3
tm_keys n
t_check "n leaves it" tm_wait "journal left as it is" 2
tm_keys ']'
wait_sysfs $qa/read_ahead_kb $((ra_a * 2))
tm_keys q
t_check "q counts this session's change only" tm_wait "1 tunable change(s): r restore" 3
tm_keys r
tm_wait_file "$T_TMP/exit" 5
t_eq "r restores this session's change" "$(cat $qa/read_ahead_kb)" "$ra_a"
t_eq "and leaves the earlier one's" "$(cat $qb/nomerges)" 2
t_check "whose original is still in the journal" grep -q "^orig $b .* nomerges $nm_b\$" "$jdir/journal"
t_check "the journal holds nothing of this session" test "$(grep -c '^orig' "$jdir/journal")" = 1
t_check "the exit report says the earlier journal is as it was" \
	grep -q "the journal an earlier blktune left (1 line) is as it was" "$T_TMP/err"
tm_stop
start
tm_wait "An earlier blktune left 1 tunable(s) changed" 3
tm_keys n
tm_keys ']'
wait_sysfs $qa/read_ahead_kb $((ra_a * 2))
tm_keys q
tm_wait "1 tunable change(s): r restore" 3
tm_keys k
tm_wait_file "$T_TMP/exit" 5
t_check "k keeps this session's change and the earlier original stays" grep -q "^orig $b .* nomerges $nm_b\$" "$jdir/journal"
t_check "and only it" test "$(grep -c '^orig' "$jdir/journal")" = 1
tm_stop
echo "$ra_a" > $qa/read_ahead_kb
BLKTUNE_JOURNAL_DIR=$jdir "$BLKTUNE" --journal-dir "$jdir" --restore > /dev/null 2>&1
t_eq "--restore puts the earlier session's original back" "$(cat $qb/nomerges)" "$nm_b"
# changed again here, an earlier original is this session's to put back
echo $((ra_a * 4)) > $qa/read_ahead_kb
seq_a=$(cat "/sys/block/$a/diskseq" 2> /dev/null || echo -)
printf 'blktune-journal 2\norig %s %s %s read_ahead_kb %s\n' "$a" "$(cat /sys/block/$a/dev)" "$seq_a" "$ra_a" > "$jdir/journal"
start
tm_wait "An earlier blktune left 1 tunable(s) changed" 3
tm_keys n
tm_wait "journal left as it is" 2
tm_keys '['
t_check "[ halves the earlier session's value" wait_sysfs $qa/read_ahead_kb $((ra_a * 2))
tm_keys q
t_check "q counts it as this session's change" tm_wait "1 tunable change(s): r restore" 3
tm_keys r
tm_wait_file "$T_TMP/exit" 5
t_eq "r puts back the earlier original" "$(cat $qa/read_ahead_kb)" "$ra_a"
t_check "the journal is empty" test ! -s "$jdir/journal"
t_check "and the exit report does not call it as it was" sh -c "! grep -q 'is as it was' '$T_TMP/err'"
tm_stop
# 7. A view's sampling stops when another key leaves the view (the process
# view's /proc/PID/io, the cgroup view's blkio files are read only while
# shown). strace watches what blktune opens for 1.5 s (6 refreshes).
opens() { timeout -s INT 1.5 strace -qq -p "$1" -e trace=openat,open -o "$T_TMP/opens" 2> /dev/null; cat "$T_TMP/opens"; }
rm -f "$jdir/journal"
start
pid=$(pid_of_blktune)
tm_keys o
tm_wait "process view" 3
t_check "the process view reads /proc/PID/io" bash -c "$(declare -f opens); T_TMP='$T_TMP' opens $pid | grep -qE '/proc/[0-9]+/io'"
tm_keys t
tm_wait "tunables of" 3
tm_keys Escape
tm_wait "^DEVICE" 3
t_check "left by t: /proc/PID/io is no longer read" bash -c "! { $(declare -f opens); T_TMP='$T_TMP' opens $pid | grep -qE '/proc/[0-9]+/io'; }"
tm_keys C
tm_wait "cgroup view" 3
t_check "the cgroup view reads the blkio files" bash -c "$(declare -f opens); T_TMP='$T_TMP' opens $pid | grep -q blkio"
tm_keys '?'
tm_wait "Esc" 3
tm_keys '?'
tm_wait "^DEVICE" 3
t_check "left by ? twice: the blkio files are no longer read" bash -c "! { $(declare -f opens); T_TMP='$T_TMP' opens $pid | grep -q blkio; }"
tm_keys q
tm_wait_file "$T_TMP/exit" 5
tm_stop
# 8. A typed value is never cut: 100 characters (512 behind 97 zeros; a
# CPU list of a many-CPU machine is as long) are written whole.
start
tm_keys t
tm_wait "tunables of $a" 3
tm_keys Enter
tm_wait "$a read_ahead_kb = " 2
tm_keys C-u
tm_text "$(printf '0%.0s' $(seq 97))512"
t_check "the prompt shows the value's end" tm_wait "0000512_" 2
tm_keys Enter
t_check "all of it is written: 512 (cut at 63 characters it was 0)" wait_sysfs $qa/read_ahead_kb 512
tm_keys Escape

# 9. An interval changed while paused is the pace after resume.
pid=$(pid_of_blktune)
tm_keys Space
tm_wait "paused" 2
tm_keys + + + +
t_check "four + from 0.3 s: 5.0 s" tm_wait "interval 5.0 s" 2
t_check "blktune read them" tm_consumed "$pid"
timeout -s INT 3 strace -qq -p "$pid" -e trace=timerfd_settime -o "$T_TMP/timer" 2> /dev/null &
tracer=$!
sleep 1
tm_keys Space
wait "$tracer"
t_check "resume arms the timer at 5 s, not the 0.3 s before the pause" \
	grep -q 'it_interval={tv_sec=5, tv_nsec=0}' "$T_TMP/timer"
quit_restore
t_eq "quit restores $a" "$(cat $qa/read_ahead_kb)" "$ra_a"
# 10. A and B act on the selected device: with none selected (a filter that
# matches nothing) they change nothing, rather than every device of A.
start
# A needs busy intervals: reads on a for at most 10 s
(end=$((SECONDS + 10)); for ((i = 0; i < 20000 && SECONDS < end; i++)); do
	dd if=/dev/$a of=/dev/null bs=4k count=64 iflag=direct status=none; done) &
load=$!
a_taken() { tm_keys a; tm_wait "A: $a" 1; }
t_check "a takes A" t_until 8 a_taken
kill "$load" 2> /dev/null
wait "$load" 2> /dev/null
load=
tm_keys ']'
wait_sysfs $qa/read_ahead_kb $((ra_a * 2))
tm_keys / && tm_text nomatch && tm_keys Enter
t_check "the filter leaves no device" tm_wait 'showing devices matching "nomatch"' 2
tm_keys A
t_check "A says no device is selected" tm_wait "no device selected: A re-applies" 2
t_eq "and leaves $a as it is" "$(cat $qa/read_ahead_kb)" $((ra_a * 2))
tm_keys Escape
quit_restore
t_eq "quit restores $a" "$(cat $qa/read_ahead_kb)" "$ra_a"
t_done
