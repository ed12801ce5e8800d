#!/usr/bin/env bash
# The full-screen view for real: blktune in a tmux pane, keys in, screen out.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"

t_loop_create 256 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
cleanup_tui() {
	tm_stop
	[ -n "${load:-}" ] && kill "$load" 2>/dev/null
	wait 2>/dev/null
}
trap 'cleanup_tui; t_cleanup' EXIT

# A steady read load on our loop device, so sorting by r/s puts it first.
(while :; do dd if="$dev" of=/dev/null bs=4k count=20000 iflag=direct status=none || break; done) &
load=$!

# stty's answer is written before the exit file the test waits for (the
# other order once let the check read an empty file on a busy machine)
tm_start \
	"TERM=xterm-256color '$BLKTUNE' -d 0.5; e=\$?; stty -a >'$T_TMP/stty'; echo EXIT=\$e >'$T_TMP/exit'; sleep 30"
t_check "the table shows the test's loop device" tm_wait "^$name " 5
t_check "the header names the host and kernel" tm_wait "$(uname -r)" 2
t_check "the detail pane is shown" tm_wait "^limits " 2

tm_keys '?'
t_check "? shows the help generated from the key table" tm_wait "pause or resume sampling" 2
# the key list grows with every view: page down until the formulas show
formulas() { local i; for i in 1 2 3 4 5 6; do tm_keys NPage; tm_wait "io_ticks (ms) / interval" 1 && return 0; done; return 1; }
t_check "PgDn scrolls help to the column formulas" formulas
tm_keys Escape
t_check "Esc closes help" tm_wait "^DEVICE" 2

# Sort by r/s (the first column after DEVICE), largest first.
tm_keys '>'
t_check "sort key marks the r/s column" tm_wait "r/sv" 2
first_row() { tm_screen | sed -n 5p | awk '{print $1}'; }
first_is() { [ "$(first_row)" = "$1" ]; }
t_until 5 first_is "$name"
t_eq "sorted by r/s, the loaded loop device is first" "$(first_row)" "$name"
# by name: the rows in order, and more than one of them (the loop devices
# and the root disk at least), or the order proves nothing; the table ends
# at a line whose second field is no figure (a full table meets the pane)
names_sorted() {
	tm_screen | sed -n '5,$p' | awk 'NF == 0 || $2 !~ /^[0-9.-]+$/ { exit } { print $1 }' | grep -E '^[a-z]' >"$T_TMP/names"
	[ "$(wc -l <"$T_TMP/names")" -ge 2 ] && sort -c -V "$T_TMP/names" 2>/dev/null
}
tm_keys '<'
t_check "< sorts back by name: rows in name order" t_until 5 names_sorted
echo "# $(wc -l <"$T_TMP/names") rows: $(tr '\n' ' ' <"$T_TMP/names")"

# Filter by name: only our device.
# the header's count: other tests' devices may be more than the screen holds
rows() { tm_screen | head -1 | sed -nE 's/.* ([0-9]+) of [0-9]+ devices.*/\1/p'; }
# the filter matches substrings: other disks (loop10 for loop1) may match too
want=$(ls /sys/block | grep -cF -- "$name")
want_rows() { [ "$(rows)" = "$want" ]; }
tm_keys '/' && tm_text "$name" && tm_keys Enter
t_until 5 want_rows
t_eq "the name filter leaves the disks whose name holds $name (/sys/block)" "$(rows)" "$want"
tm_keys Escape

# Pause freezes the figures; space resumes.
tm_keys ' '
t_check "space pauses" tm_wait "\[paused\]" 2
not_paused() { ! tm_screen | grep -q '\[paused\]'; }
tm_keys ' '
t_check "space resumes" t_until 3 not_paused

# Interval keys.
tm_keys '+'
t_check "+ lengthens the interval" tm_wait "interval 1.0 s" 2

# An unknown key is reported, not fatal.
tm_keys 'Z'
t_check "an unbound key gets a one-line message" tm_wait "no action for Z here" 2

# the widest line in terminal columns (mawk's length() counts bytes: a
# UTF-8 sparkline block is three)
width() { tm_screen | LC_ALL=C.UTF-8 wc -L; }
redrawn_80() { tm_screen | grep -q "^DEVICE" && [ "$(width)" -le 80 ]; }
tm resize-window -t "$TM_SESS" -x 80 -y 24
t_until 5 redrawn_80
t_check "still alive after resizing to 80x24" tm_wait "^DEVICE" 2
width=$(width)
t_check "nothing drawn beyond 80 columns ($width)" test "$width" -le 80

tm_keys q
tm_wait_file "$T_TMP/exit" 5
t_eq "q exits 0" "$(cat "$T_TMP/exit" 2>/dev/null)" "EXIT=0"
t_check "the terminal is sane afterwards (echo, icanon)" grep -qE '(^| )icanon( |$).*' "$T_TMP/stty"
t_check "echo is back on" grep -qE '(^| )echo( |$)' "$T_TMP/stty"
t_done
