#!/usr/bin/env bash
# The full-screen view for real: blktune in a tmux pane, keys in, screen out.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"

t_loop_create 256 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
sess=blktune-e2e-$$
sock=$T_TMP/tmux.sock
tm() { tmux -S "$sock" "$@"; }
screen() { tm capture-pane -p -t "$sess"; }
# wait_for PATTERN [SECONDS]: until the screen shows it
wait_for() {
	local i
	for ((i = 0; i < ${2:-5} * 10; i++)); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
cleanup_tui() {
	tm kill-server 2>/dev/null
	[ -n "${load:-}" ] && kill "$load" 2>/dev/null
	wait 2>/dev/null
}
trap 'cleanup_tui; t_cleanup' EXIT

# A steady read load on our loop device, so sorting by r/s puts it first.
(while :; do dd if="$dev" of=/dev/null bs=4k count=20000 iflag=direct status=none || break; done) &
load=$!

tm new-session -d -s "$sess" -x 120 -y 40 \
	"TERM=xterm-256color '$BLKTUNE' -d 0.5; echo EXIT=\$? >'$T_TMP/exit'; stty -a >'$T_TMP/stty'; sleep 30"
t_check "the table shows the test's loop device" wait_for "^$name " 5
t_check "the header names the host and kernel" wait_for "$(uname -r)" 2
t_check "the detail pane is shown" wait_for "^limits " 2

tm send-keys -t "$sess" '?'
t_check "? shows the help generated from the key table" wait_for "sort by the next column" 2
t_check "help lists the column formulas" wait_for "io_ticks (ms) / interval" 2
tm send-keys -t "$sess" Escape
t_check "Esc closes help" wait_for "^DEVICE" 2

# Sort by r/s (the first column after DEVICE), largest first.
tm send-keys -t "$sess" '>'
t_check "sort key marks the r/s column" wait_for "r/sv" 2
sleep 1.2
first=$(screen | sed -n 5p | awk '{print $1}')
t_eq "sorted by r/s, the loaded loop device is first" "$first" "$name"
tm send-keys -t "$sess" '<'
sleep 0.7
screen | sed -n '5,$p' | awk 'NF == 0 { exit } { print $1 }' | grep -E '^[a-z]' >"$T_TMP/names"
t_check "< sorts back by name: rows in name order ($(wc -l <"$T_TMP/names") rows)" sort -c "$T_TMP/names"

# Filter by name: only our device.
tm send-keys -t "$sess" '/' && tm send-keys -t "$sess" -l "$name" && tm send-keys -t "$sess" Enter
sleep 0.7
rows=$(screen | sed -n '5,20p' | grep -cE '^(loop|vd|sd|nvme|zram|dm-|md|sr)')
t_eq "the name filter leaves one row" "$rows" 1
tm send-keys -t "$sess" Escape

# Pause freezes the figures; space resumes.
tm send-keys -t "$sess" ' '
t_check "space pauses" wait_for "\[paused\]" 2
tm send-keys -t "$sess" ' '
sleep 0.3
t_check "space resumes" bash -c "! tmux -S '$sock' capture-pane -p -t '$sess' | grep -q '\[paused\]'"

# Interval keys.
tm send-keys -t "$sess" '+'
t_check "+ lengthens the interval" wait_for "interval 1.0 s" 2

# An unknown key is reported, not fatal.
tm send-keys -t "$sess" 'Z'
t_check "an unbound key gets a one-line message" wait_for "key 'Z' does nothing" 2

tm resize-window -t "$sess" -x 80 -y 24
sleep 0.7
t_check "still alive after resizing to 80x24" wait_for "^DEVICE" 2
width=$(screen | awk '{ if (length($0) > w) w = length($0) } END { print w }')
t_check "nothing drawn beyond 80 columns ($width)" test "$width" -le 80

tm send-keys -t "$sess" q
for i in $(seq 50); do [ -s "$T_TMP/exit" ] && break; sleep 0.1; done
t_eq "q exits 0" "$(cat "$T_TMP/exit" 2>/dev/null)" "EXIT=0"
t_check "the terminal is sane afterwards (echo, icanon)" grep -qE '(^| )icanon( |$).*' "$T_TMP/stty"
t_check "echo is back on" grep -qE '(^| )echo( |$)' "$T_TMP/stty"
t_done
