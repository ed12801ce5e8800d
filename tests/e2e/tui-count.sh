#!/usr/bin/env bash
# -n in the full-screen view (issue 11), as top -n: leave after COUNT
# refreshes; tunables changed in the session are restored first and the
# restore is printed. On a loop device made here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_skip "cannot create a loop device"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat "$q/read_ahead_kb")
bt() { echo "'$BLKTUNE' -d 0.2 -n $1 -p '$name' --no-trace --journal-dir '$T_TMP/j' 2>'$T_TMP/err'; echo EXIT=\$? >'$T_TMP/exit'; sleep 60"; }

# Nothing changed: out after the count, exit 0, nothing to restore.
rm -f "$T_TMP/exit"
tm_start "$(bt 3)"
t_check "-n 3: the full-screen view starts" tm_wait "^DEVICE" 5
t_check "and leaves by itself after 3 refreshes" tm_wait_file "$T_TMP/exit" 5
t_eq "with exit status 0" "$(cat "$T_TMP/exit")" "EXIT=0"
t_check "nothing was restored, so nothing is said about it" sh -c "! grep -q restored '$T_TMP/err'"
tm_stop

# A tunable changed: restored on the way out, and said.
rm -f "$T_TMP/exit"
tm_start "$(bt 25)"
tm_wait "^DEVICE" 5
tm_keys ']'
t_check "] doubles read_ahead_kb" wait_sysfs "$q/read_ahead_kb" $((ra0 * 2)) 3
t_check "-n 25 (5 s): leaves by itself" tm_wait_file "$T_TMP/exit" 10
t_eq "with exit status 0" "$(cat "$T_TMP/exit")" "EXIT=0"
t_eq "read_ahead_kb is restored" "$(cat "$q/read_ahead_kb")" "$ra0"
t_check "and the restore is printed" grep -qF "blktune: $name read_ahead_kb $((ra0 * 2)) -> $ra0 restored" "$T_TMP/err"
tm_stop
echo "$ra0" > "$q/read_ahead_kb"
t_done
