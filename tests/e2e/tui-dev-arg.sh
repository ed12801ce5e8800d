#!/usr/bin/env bash
# -p in the full-screen view (issue 11): a name that is no device is one
# line on stderr and exit 2 before any screen is drawn (it used to start an
# empty table and exit 0); a /dev/ path selects the device as --set and
# sweep take it. On a made-up machine: no root needed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
trap 'fr_stop; tm_stop; t_cleanup' EXIT
fr_start "$root" 12 3

for arg in nosuch /dev/nosuch loop3x; do
	tm_start "'$BLKTUNE' --root '$root' -d 0.5 --no-trace --journal-dir '$T_TMP/j' -p $arg 2> '$T_TMP/err'; echo EXITED \$?; sleep 60"
	t_check "-p $arg: exits 2" tm_wait "^EXITED 2" 5
	t_check "-p $arg: no table was drawn" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^DEVICE'"
	t_eq "-p $arg: one line on stderr" "$(wc -l < "$T_TMP/err")" 1
	t_check "-p $arg: it names the argument" grep -qx "blktune: -p $arg: no such block device" "$T_TMP/err"
	tm_stop
done

tm_start "'$BLKTUNE' --root '$root' -d 0.5 --no-trace --journal-dir '$T_TMP/j' -p /dev/loop3 2> '$T_TMP/err'; echo EXITED \$?; sleep 60"
t_check "-p /dev/loop3: the table is up" tm_wait "^DEVICE" 5
t_check "-p /dev/loop3: loop3's row" tm_wait "^loop3 " 3
t_eq "-p /dev/loop3: and no other" "$(tm_screen | sed -n "/^DEVICE/,/^$/p" | grep -cE "^loop[0-9]+ ")" 1
t_check "-p /dev/loop3: the header says 1 of 12" tm_wait "1 of 12 devices  -p loop3" 2
tm_keys q
t_check "-p /dev/loop3: q leaves with 0" tm_wait "^EXITED 0" 3
t_eq "-p /dev/loop3: nothing on stderr" "$(wc -c < "$T_TMP/err")" 0
tm_stop

# batch mode says the same
"$BLKTUNE" --root "$root" -b -n 1 --no-trace -p nosuch > /dev/null 2> "$T_TMP/err"
t_eq "-b -p nosuch: exit 2" "$?" 2
t_check "-b -p nosuch: the same line" grep -qx "blktune: -p nosuch: no such block device" "$T_TMP/err"
fr_stop
t_done
