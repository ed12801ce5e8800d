#!/usr/bin/env bash
# What the full-screen view says when it exits (after endwin, on stderr):
# every value it restored, kept, or could not restore (with the journal line
# and why), and a journal it left as it was. On a loop device made here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
t_loop_create 16 || t_skip "cannot create a loop device"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
jdir=$T_TMP/journal
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat "$q/read_ahead_kb")
nm0=$(cat "$q/nomerges")
seq=$(cat "/sys/block/$name/diskseq" 2>/dev/null || echo -)
# -p: only our device, as the one row (a name filter would also match
# loop10 when ours is loop1, and another test's device must never change).
bt="'$BLKTUNE' -d 0.5 -p '$name' --journal-dir '$jdir' 2>'$T_TMP/err'"

start() {
	rm -f "$T_TMP/exit" "$T_TMP/err"
	tm_start "$bt; echo EXIT=\$? >'$T_TMP/exit'; sleep 60"
	tm_wait "^DEVICE" 5
}
# start_asked: with a journal waiting, the first screen asks about it.
start_asked() {
	rm -f "$T_TMP/exit" "$T_TMP/err"
	tm_start "$bt; echo EXIT=\$? >'$T_TMP/exit'; sleep 60"
}
quit() {
	tm_wait_file "$T_TMP/exit" 5
	tm_stop
}
said() {
	if grep -qF -- "$2" "$T_TMP/err"; then t_ok "$1"; else t_fail "$1: stderr lacks '$2': $(tr '\n' '|' < "$T_TMP/err")"; fi
}

# Quit with restore: each value restored is listed.
start
tm_keys ']'
wait_sysfs "$q/read_ahead_kb" $((ra0 * 2))
tm_keys q
tm_wait "r restore and quit" 2
tm_keys r
quit
t_eq "restore and quit: read_ahead_kb back" "$(cat "$q/read_ahead_kb")" "$ra0"
said "restore and quit: the value restored is printed" "blktune: $name read_ahead_kb $((ra0 * 2)) -> $ra0 restored"
said "restore and quit: a summary" "this session: 1 restored, 0 not restored, 0 kept changed"
t_eq "restore and quit: exit status 0" "$(cat "$T_TMP/exit")" "EXIT=0"

# Quit with keep: each value kept is listed (it is no longer journaled).
start
tm_keys ']'
wait_sysfs "$q/read_ahead_kb" $((ra0 * 2))
tm_keys q
tm_wait "r restore and quit" 2
tm_keys k
quit
said "keep and quit: the value kept is printed" \
	"blktune: $name read_ahead_kb kept at $((ra0 * 2)) (original $ra0, no longer journaled)"
said "keep and quit: a summary" "this session: 0 restored, 0 not restored, 1 kept changed"
t_eq "keep and quit: exit status 0 (kept is not a failure)" "$(cat "$T_TMP/exit")" "EXIT=0"
echo "$ra0" > "$q/read_ahead_kb"

# An earlier journal with an entry the checks refuse and one of an earlier
# device of this name: restored at start, both reported at exit with their lines.
if [ "$seq" != - ]; then
	mkdir -p -m 0700 "$jdir"
	printf 'blktune-journal 1\norig %s %s read_ahead_kb -1\norig %s %s nomerges 2\n' \
		"$name" "$seq" "$name" $((seq - 1)) > "$jdir/journal"
	start_asked
	t_check "the start offers the earlier journal" tm_wait "An earlier blktune left" 5
	tm_keys Enter
	offer_gone() { ! tm_screen | grep -q 'y, Enter  restore the originals now'; }
	t_check "Enter answers it (the box goes)" t_until 5 offer_gone
	tm_keys q
	quit
	said "refused entry: printed with its line" "blktune: journal line 2: $name read_ahead_kb -1 not restored"
	said "another device: printed with its line" \
		"blktune: journal line 3: $name nomerges 2 not restored: another device now (diskseq $seq, was $((seq - 1)))"
	said "both kept aside" "kept aside in $jdir/journal.rejected"
	said "a summary" "this session: 0 restored, 2 not restored, 0 kept changed"
	t_eq "entries not restored: exit status 1" "$(cat "$T_TMP/exit")" "EXIT=1"
	t_eq "nomerges of this device not written" "$(cat "$q/nomerges")" "$nm0"
fi

# An earlier journal left as it was: said at exit.
mkdir -p -m 0700 "$jdir"
printf 'blktune-journal 1\norig %s %s read_ahead_kb %s\n' "$name" "$seq" "$ra0" > "$jdir/journal"
start_asked
tm_wait "An earlier blktune left" 5
tm_keys n
tm_keys q
quit
said "a journal left as it was is said at exit" "the journal an earlier blktune left (1 line) is as it was"
t_eq "a journal left as it was by choice: exit status 0" "$(cat "$T_TMP/exit")" "EXIT=0"
t_done
