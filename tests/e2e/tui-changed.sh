#!/usr/bin/env bash
# "N changed" counts tunables that differ from their originals, not key
# presses (issue 11: "6 changed" after six presses; 5 after u with one
# tunable differing). On a loop device this test made.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_fail "losetup"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
ra0=$(cat $q/read_ahead_kb)
[ "$ra0" -ge 16 ] || echo 128 > $q/read_ahead_kb # room to halve and double
ra0=$(cat $q/read_ahead_kb)
trap 'echo "$ra0" > $q/read_ahead_kb; tm_stop; t_cleanup' EXIT
tm_start "'$BLKTUNE' -d 0.5 --no-trace --journal-dir '$T_TMP/journal' -p $name; echo EXIT=\$? > '$T_TMP/exit'; sleep 60"
tm_wait "^DEVICE" 5
tm_keys t
tm_wait "tunables of $name" 3
# read_ahead_kb is the panel's first row: three steps up
tm_keys ']'; wait_sysfs $q/read_ahead_kb $((ra0 * 2)) 3
tm_keys ']'; wait_sysfs $q/read_ahead_kb $((ra0 * 4)) 3
tm_keys ']'; wait_sysfs $q/read_ahead_kb $((ra0 * 8)) 3
t_check "three presses on one tunable: 1 changed" tm_wait " 1 changed " 3
tm_keys u; wait_sysfs $q/read_ahead_kb $((ra0 * 4)) 3
t_check "after u it still differs: 1 changed" tm_wait " 1 changed " 3
tm_keys '['; tm_keys '['
t_check "stepped back to the original by hand: nothing changed" wait_sysfs $q/read_ahead_kb "$ra0" 3
t_check "and the panel no longer says changed" t_until 3 sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q ' changed '"
tm_keys ']'
wait_sysfs $q/read_ahead_kb $((ra0 * 2)) 3
tm_keys Escape
tm_wait "^DEVICE" 2
tm_keys q
t_check "the quit prompt counts one changed tunable" tm_wait "^1 tunable change" 3
tm_keys r
tm_wait_file "$T_TMP/exit" 5
t_eq "restored at quit" "$(cat $q/read_ahead_kb)" "$ra0"
t_done
