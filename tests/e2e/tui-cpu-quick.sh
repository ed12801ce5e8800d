#!/usr/bin/env bash
# Tunable quick keys in the CPU view (issue 11, seed 002): x flips
# rq_affinity while the completions are watched (it said "no action for x");
# the tunables panel opens on the row of the last tunable changed, or on
# read_ahead_kb, never on a row left from another device.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_fail "losetup"
a=${T_LOOP#/dev/}
t_loop_create 16 || t_fail "losetup"
b=${T_LOOP#/dev/}
trap 'tm_stop; t_cleanup' EXIT
qa=/sys/block/$a/queue
rqa0=$(cat $qa/rq_affinity)
ra0=$(cat $qa/read_ahead_kb)
tm_start "'$BLKTUNE' -d 0.5 --no-trace --journal-dir '$T_TMP/journal' -p $a -p $b; echo EXITED \$?; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
# the first row is selected; natural order puts the lower number first
first=$(printf '%s\n%s\n' "$a" "$b" | sort -V | head -1)
second=$(printf '%s\n%s\n' "$a" "$b" | sort -V | tail -1)
[ "$first" = "$a" ] || tm_keys j
tm_keys c
t_check "the CPU view is up" tm_wait "$a" 3
tm_keys x
t_check "x in the CPU view changes rq_affinity" t_until 3 sh -c "[ \"\$(cat $qa/rq_affinity)\" != $rqa0 ]"
t_check "and says so on the status line" tm_wait "$a rq_affinity $rqa0 -> " 2
t_check "the CPU view is still shown" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^DEVICE'"
tm_keys ']'
t_check "] in the CPU view doubles read_ahead_kb" wait_sysfs $qa/read_ahead_kb $((ra0 * 2))
tm_keys x
t_check "x again (rq_affinity is last changed)" tm_wait "$a rq_affinity [0-9] -> " 2
tm_keys Escape
t_check "Esc: back to the table" tm_wait "^DEVICE" 3
# The panel's selected row shows its help under the line.
help_of() { "$BLKTUNE" --list tunables | awk -v n="$1" '$1 == n { print $2, $3, $4 }'; }
tm_keys t
t_check "the panel opens on rq_affinity, the last changed ($(help_of rq_affinity))" tm_wait "^$(help_of rq_affinity)" 3
tm_keys Down Down
t_check "moved to another row" t_until 2 sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^$(help_of rq_affinity)'"
tm_keys t
tm_keys j
tm_keys t
t_check "the other device's panel" tm_wait "tunables of $([ "$first" = "$a" ] && echo "$second" || echo "$first")" 3
t_check "opens on read_ahead_kb, not the row left from $a" tm_wait "^$(help_of read_ahead_kb)" 2
tm_keys t
tm_keys k
tm_keys t
t_check "back on $a: rq_affinity again" tm_wait "^$(help_of rq_affinity)" 3
tm_keys q
tm_keys r
t_check "quit, restoring" tm_wait "^EXITED 0" 5
t_eq "rq_affinity restored" "$(cat $qa/rq_affinity)" "$rqa0"
t_eq "read_ahead_kb restored" "$(cat $qa/read_ahead_kb)" "$ra0"
tm_stop
t_done
