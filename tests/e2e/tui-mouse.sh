#!/usr/bin/env bash
# The mouse (issue 11): a click on a row selects that device, a click on a
# column's header sorts by it, a second click the other way. Clicks are sent
# as the terminal sends them (X10 encoding: ESC [ M, button, x, y). On the
# sata capture (no root needed).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
trap 'tm_stop; t_cleanup' EXIT
# click X Y (0-based): press and release of button 1
click() {
	local cx cy
	cx=$(printf '\\%03o' $((33 + $1)))
	cy=$(printf '\\%03o' $((33 + $2)))
	tm_text "$(printf "\\033[M %b%b" "$cx" "$cy")"
	tm_text "$(printf "\\033[M#%b%b" "$cx" "$cy")"
}
TM_W=100 TM_H=30 tm_start "'$BLKTUNE' --root '$T_TOP/tests/fixtures/sata' -d 1 --no-trace --journal-dir '$T_TMP/j'"
t_check "the table is up" tm_wait "^DEVICE" 5
y=$(tm_screen | grep -n '^sdb ' | cut -d: -f1)
t_check "sdb is on line $y" test -n "$y"
click 2 $((y - 1))
tm_keys d
t_check "a click on sdb's row selects it (its detail pane)" tm_wait "^sdb  disk" 2
tm_keys d
x=$(tm_screen | grep -m1 '^DEVICE' | awk '{ print index($0, "w/s") }')
hy=$(($(tm_screen | grep -n '^DEVICE' | cut -d: -f1) - 1))
click $((x - 1)) $hy
t_check "a click on the w/s header sorts by it" tm_wait "sorted by w/s (descending)" 2
t_check "the header marks it" tm_wait "^DEVICE .* w/sv" 1
click $((x - 1)) $hy
t_check "a second click sorts the other way" tm_wait "sorted by w/s (ascending)" 2
t_done
