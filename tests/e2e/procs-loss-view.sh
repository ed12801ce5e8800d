#!/usr/bin/env bash
# The process and cgroup views say what --trace-processes could not follow.
# A write is held in flight on loop device B (its backing file lies on an
# ext4 that fsfreeze froze) while blktune starts in tmux; while it is held
# the process view has no such line; after the thaw its completion has no
# traced start, and the view says "not followed since tracing began: 1
# completion without a traced start", highlighted in the interval that
# added it, plain after; C's cgroup view says the same.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
command -v fsfreeze >/dev/null || t_skip "no fsfreeze"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
command -v mkfs.ext4 >/dev/null || t_skip "no mkfs.ext4"
t_held_loop || { t_fail "a loop device over a file on an ext4 made here"; t_done; exit 1; }
b=$T_HELD_NAME
t_check "a write is held in flight on $b" t_hold_write

TM_W=200 tm_start "'$BLKTUNE' -d 1 --trace-processes -p $b; sleep 30"
tm_wait "^DEVICE" 10 || t_fail "the device table came up"
tm_keys o
t_check "o opens the process view" tm_wait "^processes:" 3
t_check "tracing is on" tm_wait "^traced: block requests per device" 3
# two intervals with the write still held
sleep 2.5
t_check "nothing lost while the write is held" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' |
	grep -q 'not followed'"
t_release || t_fail "the held write completed after the thaw"
line="^not followed since tracing began: 1 completion without a traced start"
t_check "the view says its completion had no traced start" tm_wait "$line (1 in the interval;" 4
hl() { tm_screen_attrs | grep "|not followed since" | cut -d'|' -f1; }
first=$(hl)
t_check "highlighted in the interval that added it ($first)" test "$first" != - -a -n "$first"
t_check "then counted since tracing began, none new" tm_wait "$line (0 in the interval;" 4
t_eq "and no longer highlighted" "$(hl)" "-"
tm_keys C
t_check "C's cgroup view says the same" tm_wait "$line (0 in the interval;" 4
tm_keys q
t_done
