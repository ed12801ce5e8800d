#!/usr/bin/env bash
# The process view with --trace-processes in tmux: a fio job reading at 200
# requests/s from a loop device made here shows that device under its row
# with its requests and latency, the screen says writeback appears under
# the flusher thread; f on the fio row narrows the device table to that one
# device (a second loop device made here leaves it), Esc brings it back;
# the detail pane names fio among the device's top processes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
command -v fio >/dev/null || t_skip "no fio"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
fpid=
trap '[ -n "$fpid" ] && kill "$fpid" 2>/dev/null; tm_stop; t_cleanup' EXIT
t_loop_create 64 || t_skip "no loop device"
a=${T_LOOP#/dev/}
t_loop_create 16 || t_skip "no second loop device"
b=${T_LOOP#/dev/}

TM_W=160 tm_start "'$BLKTUNE' -d 0.5 --trace-processes -p $a -p $b; sleep 30"
tm_wait "^DEVICE" 10 || t_fail "the device table came up"
t_check "both devices in the table" sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^$b '"
fio --thread --name=procs-trace-tmux --filename="/dev/$a" --rw=randread --rate_iops=200 --bs=4k --direct=1 \
	--ioengine=psync --time_based --runtime=60 --output=/dev/null >/dev/null 2>&1 &
fpid=$!
tm_keys o
t_check "o opens the process view" tm_wait "^processes:" 3
t_check "it says writeback appears under the flusher thread" tm_wait "writeback appears under the flusher thread" 2
t_check "fio's device is under its row, with requests and latency" \
	tm_wait "^ *$a  *r/s  *[0-9]* *w/s 0 *requests [0-9]* *p50 [0-9.]*[um]s" 5
# select fio: sorted by req/s (three columns after B/s) it is the first row
tm_keys '>' '>' '>'
t_check "sorted by req/s" tm_wait " req/sv " 2
# Select fio's row: o starts with nothing selected and the first j selects
# the first row. fio is usually first by req/s, but a process new in the
# interval (a page-in burst, another job on the machine) can outrank it
# there, so try the rows in turn: row k is k+1 presses of j after o, once
# the reopened view has its rows again (from its next interval: a j before
# that selects nothing).
tm_keys j f
for ((k = 1; k < 10; k++)); do
	tm_wait_exact "process $fpid (fio) submitted to" 2 && break
	tm_keys Escape o
	tm_wait_exact "^ *$fpid  *root .* fio --thread" 3
	for ((i = 0; i <= k % 5; i++)); do tm_keys j; done
	tm_keys f
done
# fio's own start-up page-ins (its libraries, from the root disk) count too:
# the devices it submitted to may be more than the loop device, which -p
# keeps out of the table; the lines below check which rows are left
t_check "f narrows the table to fio's devices" tm_wait "the [0-9]* devices* process $fpid (fio) submitted to" 3
t_check "the other device is not shown" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^$b '"
t_check "fio's device is" sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^$a '"
t_check "the detail pane names fio among its top processes" tm_wait "^top processes  fio\[$fpid\] [0-9]* req/s" 5
tm_keys Escape
t_check "Esc shows every device again" tm_wait "^$b " 3
tm_keys q
t_done
