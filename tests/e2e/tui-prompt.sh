#!/usr/bin/env bash
# The value prompt of the tunables panel writes kernel settings, so typing
# must replace the pre-filled value (issue 11: asked for 3, it wrote 12803),
# and Ctrl-U, Ctrl-W and Esc work as in readline. On a loop device this test
# made; quitting with restore puts read_ahead_kb back.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_fail "losetup"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
ra0=$(cat $q/read_ahead_kb)
trap 'echo "$ra0" > $q/read_ahead_kb; tm_stop; t_cleanup' EXIT
tm_start "'$BLKTUNE' -d 0.5 --no-trace --journal-dir '$T_TMP/journal' -p $name; echo EXIT=\$? > '$T_TMP/exit'; sleep 60"
tm_wait "^DEVICE" 5
tm_keys t
t_check "tunables panel" tm_wait "tunables of $name" 3
# read_ahead_kb is the panel's first row
tm_keys Enter
t_check "Enter pre-fills the value in force" tm_wait "read_ahead_kb = ${ra0}_" 2
tm_text 3 && tm_keys Enter
t_check "typing replaces it: asked 3, the kernel set 0 (not ${ra0}3)" wait_sysfs $q/read_ahead_kb 0
tm_keys Enter
tm_wait "read_ahead_kb = 0_" 2
tm_keys BSpace && tm_text 64 && tm_keys Enter
t_check "Backspace edits the pre-filled value instead (0 -> 64)" wait_sysfs $q/read_ahead_kb 64
tm_keys Enter
tm_wait "read_ahead_kb = 64_" 2
tm_keys C-u && tm_text 256 && tm_keys Enter
t_check "Ctrl-U clears the line (256)" wait_sysfs $q/read_ahead_kb 256
tm_keys Enter
tm_wait "read_ahead_kb = 256_" 2
tm_keys BSpace && tm_text "12 99" && tm_keys C-w && tm_text 512
t_check "Ctrl-W deletes the last word" tm_wait "read_ahead_kb = 2512 512_" 2
tm_keys C-u && tm_text 128 && tm_keys Enter
t_check "and the value written is the line shown (128)" wait_sysfs $q/read_ahead_kb 128
tm_keys Enter
tm_wait "read_ahead_kb = 128_" 2
tm_text 999
tm_keys Escape
t_check "Esc cancels" tm_wait "tunables of $name" 2
t_eq "nothing written on Esc" "$(cat $q/read_ahead_kb)" 128
tm_keys Escape
t_check "back to the table" tm_wait "^DEVICE" 2
tm_keys q
tm_wait "r restore and quit" 2
tm_keys r
tm_wait_file "$T_TMP/exit" 5
t_eq "quit with restore puts read_ahead_kb back" "$(cat $q/read_ahead_kb)" "$ra0"
t_done
