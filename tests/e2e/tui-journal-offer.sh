#!/usr/bin/env bash
# The start-of-session restore offer (a journal an earlier blktune left) is
# a box answered by y/Enter or n/Esc only: r, the table's key (and the quit
# question's "restore"), neither restores nor closes it. Then n leaves the
# journal (the next start asks again) and y restores. On a loop device made
# here, whose read_ahead_kb the "earlier session" doubled; its journal is
# written by this test.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
# a fresh device, removed at the end: a failed run leaves no changed queue
t_loop_create_fresh 16 || t_skip "cannot create a loop device"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
jdir=$T_TMP/journal
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat "$q/read_ahead_kb")
ra1=$((ra0 * 2))
echo "$ra1" > "$q/read_ahead_kb"
seq=$(cat "/sys/block/$name/diskseq" 2> /dev/null || echo -)
mkdir -m 0700 "$jdir"
printf 'blktune-journal 2\norig %s %s %s read_ahead_kb %s\n' "$name" "$(cat "/sys/block/$name/dev")" "$seq" "$ra0" \
	> "$jdir/journal"
bt="XDG_STATE_HOME='$T_TMP/state' BLKTUNE_JOURNAL_DIR='$jdir' '$BLKTUNE' -d 0.5 -p '$name' --no-trace --journal-dir '$jdir'"
start() {
	rm -f "$T_TMP/exit"
	tm_start "$bt; echo EXIT=\$? > '$T_TMP/exit'; sleep 60"
}
box_up() { tm_screen | grep -q 'y, Enter  restore the originals now'; }
box_gone() { ! box_up; }
# blktune is the pane's shell's child
pid_of_blktune() { pgrep -P "$(tm display-message -p -t "$TM_SESS" '#{pane_pid}')" | head -n 1; }
# the column where the box's answer line starts (empty: no box)
box_column() { tm_screen | awk '{ i = index($0, "y, Enter  restore the originals now") } i { print i; exit }'; }
box_at() { [ "$(box_column)" = "$1" ]; }

start
t_check "the start offers the journal in a box" t_until 5 box_up
t_check "the box says what was left" tm_wait "An earlier blktune left 1 tunable(s) changed" 1
pid=$(pid_of_blktune)
t_check "blktune is running (pid $pid)" test -n "$pid"
tm_keys r
t_check "blktune read r and waits for the next key" tm_consumed "$pid"
# a restore would have been written before blktune went back to waiting
t_eq "r is no answer: read_ahead_kb not restored" "$(cat "$q/read_ahead_kb")" "$ra1"
t_check "and the journal still holds the original" grep -q "read_ahead_kb $ra0\$" "$jdir/journal"
# The screen may lag behind what blktune wrote: look at a frame certainly
# drawn after r, one for a narrower window (the box is centred: 20 columns
# less, 10 to the left; tmux only cuts the old lines).
col=$(box_column)
tm resize-window -t "$TM_SESS" -x $(($(tm display-message -p -t "$TM_SESS" '#{window_width}') - 20))
t_check "r is no answer: the box is still up, redrawn for the new width" t_until 5 box_at $((col - 10))
tm_keys n
t_check "n answers: the box goes" t_until 5 box_gone
t_check "and the status line says the journal is left" tm_wait "journal left as it is" 2
t_eq "n restores nothing" "$(cat "$q/read_ahead_kb")" "$ra1"
tm_keys q
t_check "q quits" tm_wait_file "$T_TMP/exit" 5
tm_stop

start
t_check "the next start asks again" t_until 5 box_up
tm_keys y
t_check "y restores the original" wait_sysfs "$q/read_ahead_kb" "$ra0"
t_check "and the box goes" t_until 5 box_gone
t_check "the journal is emptied" t_until 5 test ! -s "$jdir/journal"
tm_keys q
t_check "q quits" tm_wait_file "$T_TMP/exit" 5
t_eq "nothing left: exit status 0" "$(cat "$T_TMP/exit")" EXIT=0
tm_stop
t_done
