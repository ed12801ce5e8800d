#!/usr/bin/env bash
# The readahead mode on screen: R turns it on, the table gains ra_hit%, the
# readahead page shows the identity hit + mapped + waste + unread = pages for
# ext4 on a loop device made here while a file is read sequentially, and R
# again turns it off (the column goes).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/../integration/readahead-common.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
trap 'tm_stop; [ -n "${load:-}" ] && kill $load 2>/dev/null; wait 2>/dev/null; ra_cleanup' EXIT
ra_fs 200
name=${RA_DEV#/dev/}
ra_file f 96

tm_start "'$BLKTUNE' -d 0.5; sleep 30"
tm_wait "^DEVICE" 5
tm_keys / && tm_text "$name" && tm_keys Enter
tm_wait "matching \"$name\"" 2
t_check "no ra_hit% column while the mode is off" bash -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q 'ra_hit%'"
tm_keys R
t_check "R turns the mode on" tm_wait "readahead mode on" 3
t_check "the table gains ra_hit%" tm_wait "ra_hit%" 2
# read the file again and again, its cache dropped each time
(while :; do dd if="$RA_MNT/f" iflag=nocache count=0 status=none; dd if="$RA_MNT/f" of=/dev/null bs=64k status=none || break; done) &
load=$!
t_check "the readahead page shows this interval's figures" tm_wait "$name, this interval: [0-9]* pages/s" 5
line=$(tm_screen | grep "since the mode was turned on" | head -n 1)
read -r pages hit mapped waste unread <<<"$(echo "$line" | sed -E 's/.*: ([0-9]+) readahead pages = ([0-9]+) hit \+ ([0-9]+) mapped \+ ([0-9]+) waste \+ ([0-9]+) unread.*/\1 \2 \3 \4 \5/')"
t_check "readahead pages were counted ($pages)" test "${pages:-0}" -gt 0
t_eq "hit + mapped + waste + unread = readahead pages" "$((hit + mapped + waste + unread))" "$pages"
kill $load; wait $load 2>/dev/null; load=
tm_keys R
t_check "R again turns it off" tm_wait "readahead mode off" 3
sleep 0.6
t_check "and the column goes" bash -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q 'ra_hit%'"
tm_keys q
ra_done
