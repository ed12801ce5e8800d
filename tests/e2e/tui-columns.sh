#!/usr/bin/env bash
# The columns panel (issue 11, top's f): f lists every column, the shown ones
# first in their order; space shows or hides the selected one (a shown one
# goes to the end, the last one cannot go), K/J move it earlier/later, s sorts
# by it; the table follows, and W keeps the layout for the next start. On the
# sata capture (no root needed).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TOP/tests/fixtures/sata
x=$T_TMP/xdg
conf=$x/blktune/config
trap 'tm_stop; t_cleanup' EXIT
start() { tm_start "XDG_CONFIG_HOME='$x' '$BLKTUNE' --root '$root' --no-trace --journal-dir '$T_TMP/j' $*; echo EXITED \$?; sleep 60"; }
header() { tm_screen | grep -m1 '^DEVICE' | tr -s ' '; }
# the panel's rows: "[x]  1  r/s ..." -> "x1:r/s", "[ ] d/s" -> "-d/s"
panel() { tm_screen | sed -nE 's/^\[x\] +([0-9]+) +([^ ]+).*/x\1:\2/p; s/^\[ \] +([^ ]+).*/-\1/p' | tr '\n' ' '; }
ncols=$("$BLKTUNE" --list columns | grep -c '^  ')

start -o "'r/s,w/s,%util'"
t_check "the table is up" tm_wait "^DEVICE" 5
tm_keys f
t_check "f opens the columns panel" tm_wait "^columns of the device table" 2
t_check "counts shown and hidden" tm_wait "3 shown, $((ncols - 4)) hidden" 1
t_eq "shown first, in their order" "$(panel | cut -d' ' -f1-4)" "x1:r/s x2:w/s x3:%util -rMB/s"
tm_keys ' '
t_check "space hides the selected column" tm_wait "r/s hidden" 2
t_eq "r/s among the hidden" "$(panel | cut -d' ' -f1-3)" "x1:w/s x2:%util -r/s"
tm_keys ' '
t_check "space again shows it" tm_wait "r/s shown, at the end" 2
t_eq "at the end" "$(panel | cut -d' ' -f1-3)" "x1:w/s x2:%util x3:r/s"
tm_keys K
t_check "K moves it earlier" tm_wait "^\[x\]  2  r/s" 2
tm_keys j K K K
t_check "K at the top stays" tm_wait "^\[x\]  1  %util" 2
t_eq "order after the moves" "$(panel | cut -d' ' -f1-3)" "x1:%util x2:w/s x3:r/s"
tm_keys j j j
tm_keys J
t_check "J on a hidden column says why" tm_wait "rMB/s is hidden: space shows it" 2
tm_keys k k k s
t_check "s sorts by the selected column" tm_wait "sorted by %util (descending)" 2
tm_keys Escape
t_check "Esc goes back to the table" tm_wait "^DEVICE" 2
t_eq "the table shows the new layout" "$(header)" "DEVICE %utilv w/s r/s"
tm_keys W
t_check "W writes the config" tm_wait "written $conf" 2
t_check "the file keeps the panel's order" grep -qx "columns %util,w/s,r/s" "$conf"
t_check "and its sort" grep -qx "sort %util desc" "$conf"
tm_keys q
tm_stop

start
t_check "the next start takes the layout" tm_wait "^DEVICE" 5
t_eq "in the panel's order" "$(header)" "DEVICE %utilv w/s r/s"
tm_keys f J
t_check "J moves the first column later" tm_wait "^\[x\]  2  %util" 2
tm_keys f
t_eq "f closes the panel, the table follows" "$(tm_wait '^DEVICE' 2; header)" "DEVICE w/s %utilv r/s"
tm_stop

start -o r/s
t_check "the table is up" tm_wait "^DEVICE" 5
tm_keys f ' '
t_check "the last shown column cannot be hidden" tm_wait "r/s is the last column shown" 2
t_eq "and stays" "$(panel | cut -d' ' -f1)" "x1:r/s"
tm_keys '?' G
for _ in 1 2 3; do tm_wait_exact "^Columns panel (f)" 1 && break; tm_keys PPage; done
t_check "help lists the panel's keys" tm_wait "^Columns panel (f)" 1
t_check "with the move key" tm_wait "^  J  *move the selected column one place later" 1
t_done
