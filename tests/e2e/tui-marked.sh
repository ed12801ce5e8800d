#!/usr/bin/env bash
# Rows whose tunables differ from their originals are marked "name*" (issue
# 11): by value, not by key presses, so stepping back to the original, undo
# and U take the mark away. On a loop device made here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_skip "cannot create a loop device"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat "$q/read_ahead_kb")
tm_start "'$BLKTUNE' -d 0.2 -p '$name' --no-trace --journal-dir '$T_TMP/j'; sleep 60"
plain() { tm_screen | grep -qE "^$name +[0-9]"; }
marked() { tm_screen | grep -qE "^$name\\* +[0-9]"; }
t_check "the row is up, unmarked" t_until 5 plain
tm_keys ']'
t_check "] doubles read_ahead_kb" wait_sysfs "$q/read_ahead_kb" $((ra0 * 2))
t_check "the row is marked $name*" t_until 2 marked
tm_keys '['
t_check "[ halves it back to the original" wait_sysfs "$q/read_ahead_kb" "$ra0"
t_check "the mark goes: the value is the original again" t_until 2 plain
tm_keys '}'
t_check "} changes max_sectors_kb or says why not" t_until 2 sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q max_sectors_kb"
tm_keys ']'
t_check "] again: marked" t_until 2 marked
tm_keys u
t_check "u undoes the last change" wait_sysfs "$q/read_ahead_kb" "$ra0"
tm_keys U
t_check "U restores the rest: unmarked" t_until 2 plain
tm_keys q
tm_stop
echo "$ra0" > "$q/read_ahead_kb"
t_done
