#!/usr/bin/env bash
# Rows whose tunables differ from their originals are marked "name*" (issue
# 11): by value, not by key presses, so stepping back to the original, undo
# and U take the mark away. The mark is drawn in its own attribute (bold
# magenta, view.c's VC_CHANGED) on a row not selected, and not on a row
# unmarked. On two loop devices made here, the first selected.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
# Fresh devices (a queue no test has used: a loop device's queue keeps its
# tunables after a detach). On one whose max_sectors_kb another test left
# below max_hw_sectors_kb, } would double it, and the kernel then sets
# read_ahead_kb anew (2 x max_sectors_kb on 6.18): u would not bring back ra0.
t_loop_create_fresh 16 || t_skip "cannot create a loop device"
t_loop_create_fresh 16 || t_skip "cannot create a second loop device"
# by name (natural order, the default sort): the first row is selected
read -r name other <<< "$(printf '%s\n' "${T_LOOPS[@]#/dev/}" | sort -V | tr '\n' ' ')"
q=/sys/block/$name/queue
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat "$q/read_ahead_kb")
# colours on whatever the caller's environment and config say
tm_start "env -u NO_COLOR XDG_CONFIG_HOME='$T_TMP/config' XDG_STATE_HOME='$T_TMP/state' '$BLKTUNE' -d 0.2 -p '$name' -p '$other' --no-trace --journal-dir '$T_TMP/j'; sleep 60"
plain() { tm_screen | grep -qE "^$name +[0-9]"; }
marked() { tm_screen | grep -qE "^$name\\* +[0-9]"; }
t_check "the row is up, unmarked" t_until 5 plain
t_check "and $other's row under it" tm_wait "^$other  *[0-9]" 2
sel_attrs=$(tm_row_attrs "$name")
t_eq "$other, unmarked and not selected, is drawn plain" "$(tm_row_attrs "$other")" -
tm_keys ']'
t_check "] doubles read_ahead_kb" wait_sysfs "$q/read_ahead_kb" $((ra0 * 2))
t_check "the row is marked $name*" t_until 2 marked
tm_keys '['
t_check "[ halves it back to the original" wait_sysfs "$q/read_ahead_kb" "$ra0"
t_check "the mark goes: the value is the original again" t_until 2 plain
# A fresh loop device's max_sectors_kb is its max_hw_sectors_kb: } cannot
# raise it and says so on the status line, leaving sysfs as it was.
ms0=$(cat "$q/max_sectors_kb")
mshw=$(cat "$q/max_hw_sectors_kb")
t_eq "a fresh queue's max_sectors_kb is its hardware limit" "$ms0" "$mshw"
tm_keys '}'
t_check "} says max_sectors_kb is already at its maximum" \
	tm_wait "$name max_sectors_kb already at its maximum ($ms0)" 2
t_eq "} left max_sectors_kb as it was" "$(cat "$q/max_sectors_kb")" "$ms0"
tm_keys ']'
t_check "] again: marked" t_until 2 marked
tm_keys u
t_check "u undoes the last change" wait_sysfs "$q/read_ahead_kb" "$ra0"
tm_keys U
t_check "U restores the rest: unmarked" t_until 2 plain
# The selected row has the selection's attributes, the mark's only show on
# a row not selected.
tm_keys ']'
t_check "] again: marked" t_until 2 marked
tm_keys j
selected_is() { [ "$(tm_row_attrs "$1")" = "$sel_attrs" ]; }
t_check "j selects $other" t_until 2 selected_is "$other"
mark_attrs=$(tm_row_attrs "$name")
t_check "the marked row, not selected, is bold ($mark_attrs)" grep -qw bold <<< "$mark_attrs"
t_check "and magenta" grep -qw fg=35 <<< "$mark_attrs"
tm_keys U
t_check "U: unmarked" t_until 2 plain
t_eq "unmarked, the row is drawn plain again" "$(tm_row_attrs "$name")" -
tm_keys q
tm_stop
echo "$ra0" > "$q/read_ahead_kb"
t_done
