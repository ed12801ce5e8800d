#!/usr/bin/env bash
# Layout (issue 11), on a made-up machine of 12 loop devices (a --root tree,
# no root needed): at 80x24 the detail pane starts closed, so every device
# shows; opened, the pane is pinned to the bottom (its last line right above
# the status line), its unused lines given to the table above it. At 120x40
# the pane starts open, pinned the same way.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
trap 'fr_stop; tm_stop; t_cleanup' EXIT
fr_start "$root" 12 1 2
run() { tm_start "'$BLKTUNE' --root '$root' -d 0.2 --no-trace --journal-dir '$T_TMP/j'; sleep 60"; }
rows() { tm_screen | grep -cE '^loop[0-9]+ +[0-9]'; }
nrows() { [ "$(rows)" -eq "$1" ]; }
pane_open() { tm_screen | grep -qE '^loop[0-9]+ +[a-z]'; } # the pane's title: name, then words
pane_closed() { ! pane_open; }
# the line right above the status line (the screen's last) holds text
pinned() { [ -n "$(tm_screen | tail -2 | head -1 | tr -d ' ')" ]; }
# blank lines between the pane's title and the table's last row, and the
# table rows there should have been
gap() {
	tm_screen | awk '/^loop[0-9]+ +[0-9]/ { last = NR } /^loop[0-9]+ +[a-z]/ { title = NR } END { print title - last - 1 }'
}

TM_W=80 TM_H=24 run
t_check "80x24: the table is up" tm_wait "^DEVICE" 5
# once the first frame has every row, the pane (drawn in the same frame)
# would show
t_check "all 12 devices show (9 with the pane open)" t_until 3 nrows 12
t_check "so the detail pane starts closed" pane_closed
tm_keys d
t_check "d opens the pane" t_until 2 pane_open
t_check "pinned to the bottom: its last line is right above the status line" t_until 2 pinned
t_eq "the table gets the lines the pane does not use: no gap between" "$(gap)" 0
# the header at 80 columns: the count, filter and idle hidden come before
# the host part, which is cut at the edge rather than wrapped onto line 2
tm_keys / && tm_text 'loop1*' && tm_keys Enter
tm_keys i
t_check "80 columns: the header keeps the count, filter and idle hidden" \
	tm_wait "^blktune  interval 0.2 s  1 of 12 devices  filter loop1\*  idle hidden" 3
t_check "and the line under it is the CPU line, nothing wrapped onto it" \
	test "$(tm_screen | sed -n 2p | sed 's/ *$//')" = "cpu  n/a"
tm_stop

TM_W=120 TM_H=40 run
t_check "120x40: the table is up" tm_wait "^DEVICE" 5
t_check "the detail pane starts open" t_until 2 pane_open
t_check "all 12 devices show beside it" t_until 2 nrows 12
t_check "pinned to the bottom: its last line is right above the status line" t_until 2 pinned
t_check "with 12 devices, empty table lines stand between table and pane" test "$(gap)" -gt 0
tm_keys Tab
t_check "another page (Tab) is pinned too" t_until 2 pinned
fr_stop
t_done
