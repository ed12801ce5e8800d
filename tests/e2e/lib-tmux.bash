# tmux helpers for the end-to-end tests (sourced after tests/lib.sh).
# tm_start CMD: blktune in a 120x40 pane on a private tmux server.
TM_SESS=blktune-e2e-$$
TM_SOCK=$T_TMP/tmux.sock
tm() { tmux -S "$TM_SOCK" "$@"; }
tm_start() { tm new-session -d -s "$TM_SESS" -x "${TM_W:-120}" -y "${TM_H:-40}" "$1"; }
tm_keys() { tm send-keys -t "$TM_SESS" "$@"; }
tm_text() { tm send-keys -t "$TM_SESS" -l "$1"; }
tm_screen() { tm capture-pane -p -t "$TM_SESS"; }
# tm_wait PATTERN [SECONDS]: until the screen shows it
tm_wait() {
	tm_wait_exact "$1" "$(t_wait_secs "${2:-5}")"
}
# tm_wait_exact PATTERN SECONDS: the same, giving up after exactly SECONDS
# (for loops that press a key and look again when the time is up)
tm_wait_exact() {
	local end=$((SECONDS + $2 + 1)) i
	for ((i = 0; i < $2 * 10 && SECONDS < end; i++)); do
		tm_screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	tm_screen | grep -q -- "$1"
}
# tm_cell DEV COLUMN: the device table's value under COLUMN in DEV's row
tm_cell() {
	tm_screen | awk -v dev="$1" -v col="$2" '
		/^DEVICE/ { for (i = 1; i <= NF; i++) if ($i == col) c = i }
		$1 == dev && c { print $c; exit }'
}
# tm_wait_file FILE [SECONDS]: until FILE is non-empty
tm_wait_file() {
	local i n
	n=$(t_wait_secs "${2:-5}")
	for ((i = 0; i < n * 10; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_sysfs FILE VALUE [SECONDS]: until the file reads VALUE
wait_sysfs() {
	local i n
	n=$(t_wait_secs "${3:-3}")
	for ((i = 0; i < n * 10; i++)); do
		[ "$(cat "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# tm_consumed PID [SECONDS]: until the program PID has read every key sent
# to the pane (its terminal's input queue is empty) and is back asleep in its
# event loop's epoll_wait (x86-64 syscalls 232, 281): a key it ignores has
# then been handled. For checks that something did NOT happen after a key.
tm_consumed() {
	local tty
	tty=$(tm display-message -p -t "$TM_SESS" '#{pane_tty}') || return 1
	t_until "${2:-5}" python3 -c '
import fcntl, os, struct, sys, termios
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
queued = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
call = open("/proc/%s/syscall" % sys.argv[2]).read().split()[0]
sys.exit(0 if queued == 0 and call in ("232", "281") else 1)' "$tty" "$1"
}
# The server exits asynchronously: let it go before the next tm_start.
tm_stop() {
	local i
	tm kill-server 2>/dev/null
	for ((i = 0; i < 30; i++)); do
		tm has-session 2>/dev/null || break
		sleep 0.1
	done
	rm -f "$TM_SOCK"
}
# t_done removes $T_TMP, the socket with it: stop the server before that.
T_CLEANUP_FIRST+=(tm_stop)
