#!/usr/bin/env bash
# Filter and hide-idle in the header (issue 11): on a made-up machine of 60
# loop devices (loop1-loop3 busy), the header says "N of 60 devices" with the
# active filter and "idle hidden"; / takes a glob (fnmatch), and text without
# a glob character still matches as a substring.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
trap 'fr_stop; tm_stop; t_cleanup' EXIT
fr_start "$root" 60 1 2 3
TM_W=${TM_W:-200} TM_H=${TM_H:-60} tm_start "'$BLKTUNE' --root '$root' -d 0.2 --no-trace --journal-dir '$T_TMP/j'; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
header() { tm_screen | head -1; }
t_check "no filter: the header counts every device" tm_wait "^blktune .* 60 devices" 2
rows() { tm_screen | grep -cE '^loop[0-9]+ +[0-9]'; }  # table rows, not the pane's title
nrows() { [ "$(rows)" -eq "$1" ]; }

tm_keys / && tm_text 'loop[12]*' && tm_keys Enter
t_check "/loop[12]* is a glob: loop1, loop1x, loop2, loop2x (22 rows)" t_until 3 nrows 22
t_check "no other device matches it" test "$(tm_screen | grep -E '^loop[0-9]+ ' | grep -cvE '^loop[12][0-9]? ')" -eq 0
t_check "the header says 22 of 60 and the filter" tm_wait "^blktune .*22 of 60 devices  filter loop\[12\]\*" 2
tm_keys i
t_check "i too: only the busy loop1 and loop2" t_until 3 nrows 2
t_check "the header says 2 of 60, the filter and idle hidden" \
	tm_wait "^blktune .*2 of 60 devices  filter loop\[12\]\*  idle hidden" 2

tm_keys / C-u && tm_text 'oop5' && tm_keys Enter
tm_keys i
t_check "text without a glob character is a substring: oop5 shows loop5, loop50-59" t_until 3 nrows 11
t_check "the header says 11 of 60 and the filter" tm_wait "^blktune .*11 of 60 devices  filter oop5" 2
no_idle_hidden() { ! header | grep -q 'idle hidden'; }
t_check "i again: the header no longer says idle hidden" no_idle_hidden

tm_keys / C-u && tm_text 'x[' && tm_keys Enter
t_check "a glob that matches nothing: no devices, and the header says 0 of 60" tm_wait "0 of 60 devices  filter x\[" 2

tm_keys Escape
t_check "Esc clears the filter" tm_wait "filter cleared" 2
t_check "and the header counts every device again" tm_wait "^blktune .* 60 devices" 2
no_filter() { ! header | grep -q 'filter'; }
t_check "and shows no filter" no_filter
fr_stop
t_done
