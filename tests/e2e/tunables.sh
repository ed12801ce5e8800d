#!/usr/bin/env bash
# Tunables from the full-screen view, for real: keys change read_ahead_kb and
# the scheduler of a loop device this test made, sysfs shows it; quitting with
# restore, a hang-up (SIGHUP) and a kill -9 followed by the start-up offer all
# leave the device as it was.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
t_loop_create 64 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
q=/sys/block/$name/queue
jdir=$T_TMP/journal
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat $q/read_ahead_kb)
sched0=$(sed -E 's/.*\[([^]]*)\].*/\1/' $q/scheduler)
# -p: only this device, matched exactly (the name filter below matches
# substrings: loop1 would also select someone's loop10)
bt="'$BLKTUNE' -d 0.5 --journal-dir '$jdir' -p '$name'"

# start blktune with only our device in the table, selected
start() {
	rm -f "$T_TMP/exit"
	tm_start "$bt; echo EXIT=\$? >'$T_TMP/exit'; sleep 60"
	tm_wait "^DEVICE" 5
	tm_keys / && tm_text "$name" && tm_keys Enter
	tm_wait "matching \"$name\"" 2
}
sched() { sed -E 's/.*\[([^]]*)\].*/\1/' $q/scheduler; }

start
tm_keys ']'
t_check "] doubles read_ahead_kb in sysfs" wait_sysfs $q/read_ahead_kb $((ra0 * 2))
t_check "the status line says what the kernel set" tm_wait "$name read_ahead_kb $ra0 -> $((ra0 * 2))" 2
t_check "and that open files keep the old value" tm_wait "files opened before keep the old value" 1
sched_is_not() { [ "$(sched)" != "$1" ]; }
tm_keys S
t_check "S changes the scheduler" t_until 3 sched_is_not "$sched0"
tm_keys t
t_check "t opens the tunables panel" tm_wait "tunables of $name" 2
t_check "the panel shows the value at start" tm_wait "^read_ahead_kb *$((ra0 * 2)) *$ra0 " 2
# the panel opens on the last tunable changed (the scheduler, S); read_ahead_kb
# is its first row: up there, type an exact value
t_check "the panel opens on the scheduler, changed last" tm_wait "scheduler of the request queue" 2
for i in 1 2 3 4 5 6 7 8; do tm_keys Up; done
tm_keys Enter
t_check "Enter asks for a value" tm_wait "read_ahead_kb = " 2
for i in 1 2 3 4 5 6 7 8; do tm_keys BSpace; done
tm_text 3 && tm_keys Enter
t_check "an exact value reaches sysfs, rounded by the kernel (asked 3)" wait_sysfs $q/read_ahead_kb 0
t_check "the read-back difference is reported" tm_wait "asked 3, kernel set 0" 2
tm_keys Enter
for i in 1 2 3 4 5 6 7 8; do tm_keys BSpace; done
tm_text abc && tm_keys Enter
t_check "a bad value gets a one-line refusal" tm_wait "$name read_ahead_kb abc refused: not a number" 2
t_eq "a bad value changes nothing" "$(cat $q/read_ahead_kb)" 0
tm_keys u
t_check "u undoes the last change" wait_sysfs $q/read_ahead_kb $((ra0 * 2))
tm_keys Escape q
t_check "q with changes asks restore or keep" tm_wait "r restore and quit" 2
tm_keys r
tm_wait_file "$T_TMP/exit" 5
t_eq "quit with restore exits 0" "$(cat "$T_TMP/exit")" EXIT=0
t_eq "read_ahead_kb restored" "$(cat $q/read_ahead_kb)" "$ra0"
t_eq "scheduler restored" "$(sched)" "$sched0"
t_check "journal emptied" test ! -s "$jdir/journal"
tm_stop

# A dropped ssh session: SIGHUP restores.
start
tm_keys ']' && wait_sysfs $q/read_ahead_kb $((ra0 * 2))
rqa0=$(cat $q/rq_affinity)
rqa_is_not() { [ "$(cat $q/rq_affinity)" != "$1" ]; }
tm_keys x
t_check "x changes rq_affinity (was $rqa0)" t_until 3 rqa_is_not "$rqa0"
rqa=$(cat $q/rq_affinity)
pid=$(pgrep -f "^$BLKTUNE -d 0.5 --journal-dir $jdir" | head -n 1)
t_check "blktune is running (pid $pid)" test -n "$pid"
kill -HUP "$pid"
tm_wait_file "$T_TMP/exit" 5
t_eq "SIGHUP restores read_ahead_kb" "$(cat $q/read_ahead_kb)" "$ra0"
t_eq "SIGHUP restores rq_affinity (was changed to $rqa)" "$(cat $q/rq_affinity)" "$rqa0"
tm_stop

# kill -9: the journal survives; the next start offers to restore it.
start
# { halves max_sectors_kb, [ halves read_ahead_kb: the kill lands once the
# program says (on its status line) that its last change is done.
ms=$(cat $q/max_sectors_kb)
tm_keys '{'
t_check "{ is done (status line)" tm_wait "$name max_sectors_kb $ms -> $((ms / 2))" 5
ra=$(cat $q/read_ahead_kb)
tm_keys '['
t_check "[ is done (status line)" tm_wait "$name read_ahead_kb $ra -> $((ra / 2))" 5
t_check "changed before the kill" test "$(cat $q/read_ahead_kb)" != "$ra0"
pkill -9 -f "^$BLKTUNE -d 0.5 --journal-dir $jdir"
t_check "killed (the shell after it records the exit)" tm_wait_file "$T_TMP/exit" 5
t_eq "killed by SIGKILL" "$(cat "$T_TMP/exit")" EXIT=137
t_check "the journal remains after kill -9" grep -q "read_ahead_kb $ra0\$" "$jdir/journal"
tm_stop
rm -f "$T_TMP/exit"
tm_start "$bt; echo EXIT=\$? >'$T_TMP/exit'; sleep 60"
t_check "the next start offers to restore it in a box" tm_wait "restore? " 5
t_check "the box says what was left" tm_wait "An earlier blktune left [0-9][0-9]* tunable(s) changed" 1
t_check "and its answers" tm_wait "y, Enter  restore the originals now" 1
# r is the table's key, not an answer: the question stays, nothing is written
# (checked once blktune has read r and is waiting for the next key)
pid=$(pgrep -f "^$BLKTUNE -d 0.5 --journal-dir $jdir" | head -n 1)
tm_keys r
t_check "blktune read r and waits again" tm_consumed "$pid"
t_check "r is no answer: still asked" tm_wait "y, Enter  restore the originals now" 1
t_check "r is no answer: nothing restored" test "$(cat $q/read_ahead_kb)" != "$ra0"
tm_keys y
t_check "y restores" wait_sysfs $q/read_ahead_kb "$ra0"
t_check "y restores max_sectors_kb too" wait_sysfs $q/max_sectors_kb "$ms"
t_check "the box is gone" t_until 2 sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q 'y, Enter  restore'"
tm_keys q
tm_wait_file "$T_TMP/exit" 5
t_eq "nothing left to ask at quit" "$(cat "$T_TMP/exit")" EXIT=0
t_done
