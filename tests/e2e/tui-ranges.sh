#!/usr/bin/env bash
# The tunables panel's ranges say what is useful (issue 11): nr_requests
# starts at 4, the kernel's minimum (1 was shown, and 3 was written and
# became 4); read_ahead_kb ends at the machine's memory, not at 2^32-1 KiB.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_fail "losetup"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
trap 'tm_stop; t_cleanup' EXIT
mem=$(awk '$1 == "MemTotal:" { print int($2 / 4) * 4 }' /proc/meminfo)
nr0=$(cat $q/nr_requests)
tm_start "'$BLKTUNE' -d 0.5 --no-trace --journal-dir '$T_TMP/journal' -p $name; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
tm_keys t
t_check "the panel is open" tm_wait "tunables of $name" 3
row() { tm_screen | awk -v n="$1" '$1 == n'; }
t_eq "read_ahead_kb's range ends at MemTotal" "$(row read_ahead_kb | awk '{ print $NF, $(NF - 1) }')" "KiB 0..$mem"
t_check "nr_requests' range starts at 4" grep -qE ' 4\.\.[0-9]+$' <<< "$(row nr_requests)"
# nr_requests is the third row
tm_keys Down Down Enter
t_check "the value prompt is on nr_requests" tm_wait "$name nr_requests = " 2
tm_text 3 && tm_keys Enter
t_check "3 is refused in words" tm_wait "below the minimum 4" 3
t_eq "and nr_requests is as it was" "$(cat $q/nr_requests)" "$nr0"
tm_keys Up Up Enter
t_check "the value prompt is on read_ahead_kb" tm_wait "$name read_ahead_kb = " 2
tm_text $((mem + 4)) && tm_keys Enter
t_check "a window past memory is refused, saying why" tm_wait "refused: above the device's limit ($mem, this machine's memory" 3
tm_keys q
tm_stop
t_done
