#!/usr/bin/env bash
# The process view (o) in tmux: a fio job writing at 1 MiB/s on a loop
# device made here shows under its PID with its command line, writing and
# not reading; the sort keys move the header's arrow (> < r) and reorder;
# i shows every process (PID 1 among them); f on a selected process says
# that its devices need --trace-processes; Esc and o go back to the table.
# Then as nobody (setpriv): the view says only nobody's own processes are
# shown, and root's are not among them.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
command -v fio >/dev/null || t_skip "no fio"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
fpid=
trap '[ -n "$fpid" ] && kill "$fpid" 2>/dev/null; tm_stop; t_cleanup' EXIT
t_loop_create 64 || t_skip "no loop device"
name=${T_LOOP#/dev/}
sched0=$(cat /sys/block/$name/queue/scheduler)

fio --thread --name=procview-tmux --filename="$T_LOOP" --rw=write --rate=1m --bs=4k --direct=1 --ioengine=psync \
	--time_based --runtime=60 --output="$T_TMP/fio.out" >/dev/null 2>&1 &
fpid=$!
TM_W=160 tm_start "'$BLKTUNE' -d 0.5 --no-trace -p $name; sleep 30"
tm_wait "^DEVICE" 5 || t_fail "the device table came up"
tm_keys o
t_check "o opens the process view" tm_wait "^processes: [0-9]* with I/O of [0-9]*" 3
t_check "it says where the bytes come from" tm_wait "bytes from /proc/PID/io" 1
t_check "it says devices need --trace-processes" tm_wait "devices per process: only with --trace-processes" 1
row() { tm_screen | awk -v p="$fpid" '$1 == p'; }
t_check "fio's row appears under its PID" t_until 5 sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' |
	awk -v p=$fpid '\$1 == p' | grep -q 'fio --thread --name=procview-tmux'"
r=$(row)
echo "# $r"
t_eq "user" "$(echo "$r" | awk '{ print $2 }')" root
t_eq "rB/s is 0" "$(echo "$r" | awk '{ print $3 }')" 0
t_check "wB/s is a rate in K or M ($(echo "$r" | awk '{ print $4 }'))" sh -c "echo '$r' | awk '{ print \$4 }' | grep -qE '^[0-9.]+[KM]$'"
t_check "the header marks the sort: B/s, largest first" tm_wait " B/sv " 1
tm_keys '>'
t_check "> sorts by the next column (read)" tm_wait " readv " 2
tm_keys '<' '<'
t_check "< < by wB/s" tm_wait " wB/sv " 2
t_check "sorted by wB/s, the writer is the first row" t_until 5 sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' |
	awk '/^ *PID /{ getline; print \$1; exit }' | grep -qx $fpid"
tm_keys r
t_check "r reverses it" tm_wait " wB/s^ " 2
tm_keys i
t_check "i shows every process" tm_wait "^processes: [0-9]* shown of" 3
t_check "PID 1 is among them" t_until 5 sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | awk '\$1 == 1' | grep -q ."
tm_keys f
t_check "f without a selection asks for one" tm_wait "select a process first" 2
tm_keys j f
t_check "j then f: the devices of the selected process need --trace-processes" \
	tm_wait "which devices process [0-9]* uses is known only while --trace-processes" 2
tm_keys Escape
t_check "Esc goes back to the device table" tm_wait "^DEVICE" 3
tm_keys o
t_check "o again" tm_wait "^processes:" 3
tm_keys o
t_check "o closes it" tm_wait "^DEVICE" 3
tm_keys q
t_eq "no tunable changed" "$(cat /sys/block/$name/queue/scheduler)" "$sched0"
tm_stop

if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups "$BLKTUNE" -V >/dev/null 2>&1; then
	chmod 755 "$T_TMP"
	tm_start "env HOME=/nonexistent XDG_STATE_HOME=$T_TMP/nobody setpriv --reuid=65534 --regid=65534 --clear-groups \
		'$BLKTUNE' -d 0.5 --no-trace -p $name; sleep 30"
	tm_wait "^DEVICE" 5 || t_fail "the device table came up as nobody"
	tm_keys o i
	t_check "as nobody: says only your own processes are shown" \
		tm_wait "not root: only your own processes (uid 65534) are shown; [0-9]* others' /proc/PID/io" 3
	t_check "as nobody: fio (root's) is not a row" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' |
		awk -v p=$fpid '\$1 == p' | grep -q ."
	t_check "as nobody: PID 1 (root's) is not a row" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' |
		awk '\$1 == 1' | grep -q ."
	tm_keys q
else
	t_subskip "nobody cannot run $BLKTUNE (setpriv)"
fi
t_done
