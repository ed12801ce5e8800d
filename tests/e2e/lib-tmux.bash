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
	local i
	for ((i = 0; i < ${2:-5} * 10; i++)); do
		tm_screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# tm_wait_file FILE [SECONDS]: until FILE is non-empty
tm_wait_file() {
	local i
	for ((i = 0; i < ${2:-5} * 10; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_sysfs FILE VALUE [SECONDS]: until the file reads VALUE
wait_sysfs() {
	local i
	for ((i = 0; i < ${3:-3} * 10; i++)); do
		[ "$(cat "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
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
