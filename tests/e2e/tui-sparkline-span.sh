#!/usr/bin/env bash
# The detail pane's sparklines say how long they span. A point covers at
# least a second, or one interval where -d is longer: at -d 5 the first
# point is 5 s of data. The pane once counted points as seconds ("last 1 s"
# at -d 5, "last 5 s" after 10 s at -d 2). On the sata capture, no root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux >/dev/null || t_skip "needs tmux"
root=$T_TOP/tests/fixtures/sata
trap 'tm_stop; t_cleanup' EXIT
span() { tm_screen | sed -n 's/^ *(last \([0-9]*\) s)$/\1/p' | head -n 1; }

for d in 5 2; do
	TM_H=50 tm_start "XDG_CONFIG_HOME='$T_TMP/xdg' '$BLKTUNE' --root '$root' --no-trace -d $d \
		--journal-dir '$T_TMP/j' -p sda; sleep 60"
	t_check "-d $d: the table is up" tm_wait "^DEVICE" 5
	# 50 lines: the detail pane starts open
	t_check "-d $d: the first sparkline point comes" tm_wait "(last [0-9]* s)" $((d + 5))
	t_eq "-d $d: one point spans one interval" "$(span)" "$d"
	if [ "$d" = 2 ]; then
		t_check "-d 2: a second point comes" tm_wait "(last [13-9][0-9]* s)" 10
		t_eq "-d 2: two points span 4 s" "$(span)" 4
	fi
	tm_keys q
	tm_stop
done
t_done
