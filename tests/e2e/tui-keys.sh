#!/usr/bin/env bash
# top and htop habits (issue 11), on a made-up machine (a --root tree, no
# root needed): F2 tunables, F6 sort, F10 quit; s types an exact interval
# (0.1 to 60 s, anything else refused in one line); an unbound key is named
# as a person types it (Ctrl-X, F5, Alt-z), never KEY_F(5) or ^X; help
# scrolls with j/k, g/G and PgUp/PgDn.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
trap 'fr_stop; tm_stop; t_cleanup' EXIT
fr_start "$root" 12 1 2
TM_W=${TM_W:-80} TM_H=${TM_H:-24} tm_start "'$BLKTUNE' --root '$root' -d 0.5 --no-trace --journal-dir '$T_TMP/j'; echo EXITED \$?; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
status() { tm_screen | tail -1; }

tm_keys F6
t_check "F6 sorts by the next column (r/s)" tm_wait "sorted by r/s" 2
tm_keys F2
t_check "F2 opens the tunables panel" tm_wait "^tunables of " 2
tm_keys F2
t_check "F2 again closes it" t_until 2 sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^tunables of '"

tm_keys s
t_check "s asks for the interval, pre-filled with 0.5" tm_wait "interval in seconds, 0.1 to 60: 0.5_" 2
tm_text 2.5 && tm_keys Enter
t_check "typing replaces it: 2.5 s in the header" tm_wait "interval 2.5 s" 2
for bad in 0.05 61 abc 1x; do
	tm_keys s && tm_text "$bad" && tm_keys Enter
	t_check "s $bad is refused in one line" tm_wait "interval \"$bad\": seconds from 0.1 to 60; still 2.5 s" 2
	t_check "and the interval is still 2.5 s" tm_wait "interval 2.5 s " 1
done
tm_keys s && tm_text 0.1 && tm_keys Enter
t_check "0.1, the lower bound, is taken" tm_wait "interval 0.1 s" 2
tm_keys s && tm_text 60 && tm_keys Escape
t_check "Esc cancels: still 0.1 s" tm_wait "interval 0.1 s" 2

unbound() {
	tm_keys "$1"
	t_check "$1 unbound: \"no action for $2\"" tm_wait "no action for $2 here" 2
	t_check "and no ncurses name on screen" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -qE 'KEY_|\\^[A-Z]'"
}
unbound C-x Ctrl-X
unbound F5 F5
unbound M-z Alt-z
unbound z z
unbound F12 F12

tm_keys '?'
t_check "help is open" tm_wait "^Everywhere" 2
tm_keys G
t_check "G goes to help's end: the last column's line" tm_wait "$("$BLKTUNE" --list columns | tail -1 | awk '{ print $1 }')" 2
t_check "and its top is scrolled off" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^Everywhere'"
tm_keys g
t_check "g goes back to the top" tm_wait "^Everywhere" 2
tm_keys NPage
t_check "PgDn scrolls help a page" t_until 2 sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^Everywhere'"
tm_keys PPage
t_check "PgUp scrolls it back" tm_wait "^Everywhere" 2
tm_keys j
t_check "j scrolls a line" t_until 2 sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^Everywhere'"
tm_keys k
t_check "k scrolls back" tm_wait "^Everywhere" 2
tm_keys '?'
helpless() { ! tmux -S "$TM_SOCK" capture-pane -p -t "$TM_SESS" | grep -q '^Everywhere'; }
t_check "? again closes help" t_until 2 helpless
tm_keys F1
t_check "F1 opens help, as htop's does" tm_wait "^Everywhere" 2
tm_keys F1
t_check "F1 again closes it" t_until 2 helpless

tm_keys F10
t_check "F10 quits, as q does" tm_wait "^EXITED 0" 3
keys=$("$BLKTUNE" --list keys)
for k in "q, F10" "t, F2" ">, F6" "s "; do
	t_check "--list keys has \"$k\"" grep -qF "  $k" <<< "$keys"
done
fr_stop
t_done
