#!/usr/bin/env bash
# A scheduler's parameters did not exist at start when the device started
# with another scheduler: the panel's AT START column says "(absent)", as the
# A/B view does, not the value the file had when it appeared (issue 11).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_fail "losetup"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
sched() { sed -E 's/.*\[([^]]*)\].*/\1/' $q/scheduler; }
sched0=$(sched)
echo none > $q/scheduler # the test's own device: start without a scheduler
trap 'echo "$sched0" > $q/scheduler; tm_stop; t_cleanup' EXIT
tm_start "'$BLKTUNE' -d 0.5 --no-trace --journal-dir '$T_TMP/journal' -p $name; sleep 60"
tm_wait "^DEVICE" 5
is_deadline() { [ "$(sched)" = mq-deadline ]; }
# S (device table) steps to the next scheduler: none -> mq-deadline
tm_keys S
t_until 3 is_deadline
t_check "S chose mq-deadline (a scheduler with parameters)" is_deadline
tm_keys t
tm_wait "tunables of $name" 3
t_check "its parameters are listed" tm_wait "^ *iosched/fifo_batch " 4
line=$(tm_screen | grep -E '^ *iosched/fifo_batch ' | head -n 1)
t_check "AT START of iosched/fifo_batch is (absent) ($line)" grep -qE 'iosched/fifo_batch +[0-9]+ +\(absent\)' <<< "$line"
t_done
