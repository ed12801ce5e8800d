#!/usr/bin/env bash
# A restore at quit that fails (issue 10): the full-screen view exits with
# status 1 and prints, after the screen is gone, what it could not restore
# and why, what it restored, and the summary. A made-up machine (--root, a
# copy of tests/fixtures/tunables-basic): read_ahead_kb of loop3 is changed,
# then its file is replaced by a FIFO (a kernel file that refuses the write:
# blktune opens without blocking and refuses what is not a regular file).
# Then the same with nothing refused: exit status 0.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux >/dev/null || t_skip "needs tmux"
command -v mkfifo >/dev/null || t_skip "needs mkfifo"
trap 'tm_stop; t_cleanup' EXIT
root=$T_TMP/root
cp -r "$T_TOP/tests/fixtures/tunables-basic" "$root"
printf '   7       3 loop3 10 0 80 5 0 0 0 0 0 5 5 0 0 0 0 0 0\n' > "$root/proc/diskstats"
echo "5000.00 9000.00" > "$root/proc/uptime"
q=$root/sys/block/loop3/queue
ra0=$(cat "$q/read_ahead_kb") nm0=$(cat "$q/nomerges")
jdir=$T_TMP/journal
bt="'$BLKTUNE' --root '$root' -d 0.5 -p loop3 --journal-dir '$jdir' 2>'$T_TMP/err'"

start() {
	rm -f "$T_TMP/exit" "$T_TMP/err"
	tm_start "$bt; echo EXIT=\$? >'$T_TMP/exit'; sleep 60"
	tm_wait "^DEVICE" 5
}
said() {
	if grep -qF -- "$2" "$T_TMP/err"; then t_ok "$1"; else t_fail "$1: stderr lacks '$2': $(tr '\n' '|' < "$T_TMP/err")"; fi
}
# change: ] doubles read_ahead_kb.
change() {
	tm_keys ']'
	t_check "read_ahead_kb doubled" wait_sysfs "$q/read_ahead_kb" $((ra0 * 2))
}

start
change
# The kernel file now refuses the write: a FIFO in its place.
rm "$q/read_ahead_kb"
mkfifo "$q/read_ahead_kb"
tm_keys q
t_check "quit asks restore or keep" tm_wait "r restore and quit" 2
tm_keys r
tm_wait_file "$T_TMP/exit" 5
tm_stop
t_eq "a failed restore at quit: exit status 1" "$(cat "$T_TMP/exit" 2>/dev/null)" "EXIT=1"
said "the value not restored is printed, with why" \
	"blktune: loop3 read_ahead_kb not restored to $ra0: not a regular file (a kernel file is never a FIFO or a device) (now unreadable); kept in the journal to retry"
said "a summary" "this session: 0 restored, 1 not restored, 0 kept changed"
t_check "the journal keeps the original for --restore" grep -q "loop3 .* read_ahead_kb $ra0\$" "$jdir/journal"

# Nothing refused: exit status 0.
rm -f "$q/read_ahead_kb" "$jdir/journal"
echo "$ra0" > "$q/read_ahead_kb"
start
change
tm_keys q
tm_wait "r restore and quit" 2
tm_keys r
tm_wait_file "$T_TMP/exit" 5
tm_stop
t_eq "everything restored at quit: exit status 0" "$(cat "$T_TMP/exit" 2>/dev/null)" "EXIT=0"
t_eq "read_ahead_kb back" "$(cat "$q/read_ahead_kb")" "$ra0"
said "restored and said" "loop3 read_ahead_kb $((ra0 * 2)) -> $ra0 restored"
t_done
