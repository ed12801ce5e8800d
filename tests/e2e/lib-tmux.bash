# tmux helpers for the end-to-end tests (sourced after tests/lib.sh).
# tm_start CMD: blktune in a 120x40 pane on a private tmux server.
TM_SESS=blktune-e2e-$$
TM_SOCK=$T_TMP/tmux.sock
tm() { tmux -S "$TM_SOCK" "$@"; }
tm_start() { tm new-session -d -s "$TM_SESS" -x "${TM_W:-120}" -y "${TM_H:-40}" "$1"; }
tm_keys() { tm send-keys -t "$TM_SESS" "$@"; }
tm_text() { tm send-keys -t "$TM_SESS" -l "$1"; }
tm_screen() { tm capture-pane -p -t "$TM_SESS"; }
# tm_screen_attrs: the screen's lines, each "ATTRS|TEXT" with ATTRS the
# attributes in effect at the line's first character ("-" when plain;
# else sorted words: bold dim italic underline blink reverse, fg=N bg=N with
# N the SGR colour: 30-37, 90-97, 5;N or 2;R;G;B). capture-pane -e writes an
# attribute only where it changes, so a line's own text may carry none:
# the state is carried from line to line.
tm_screen_attrs() {
	tm capture-pane -e -p -t "$TM_SESS" | python3 -c '
import re, sys
names = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 5: "blink", 7: "reverse"}
offs = {22: (1, 2), 23: (3,), 24: (4,), 25: (5,), 27: (7,)}
on, fg, bg = set(), None, None
for line in sys.stdin.read().split("\n"):
    first, text, pos = None, "", 0
    for m in re.finditer(r"\x1b\[([0-9;]*)m|\x1b\[[0-9;?]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Z]|\x1b.|([^\x1b]+)", line):
        if m.group(2) is not None:
            if first is None:
                first = sorted(names[a] for a in on) + ["fg=%s" % fg] * (fg is not None) + ["bg=%s" % bg] * (bg is not None)
            text += m.group(2)
            continue
        if m.group(1) is None:
            continue
        codes = [int(c) if c else 0 for c in m.group(1).split(";")]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                on, fg, bg = set(), None, None
            elif c in names:
                on.add(c)
            elif c in offs:
                on -= set(offs[c])
            elif 30 <= c <= 37 or 90 <= c <= 97:
                fg = str(c)
            elif 40 <= c <= 47 or 100 <= c <= 107:
                bg = str(c)
            elif c == 39:
                fg = None
            elif c == 49:
                bg = None
            elif c in (38, 48):
                n = 3 if codes[i + 1 : i + 2] == [5] else 5
                v = ";".join(str(x) for x in codes[i + 1 : i + n])
                if c == 38:
                    fg = v
                else:
                    bg = v
                i += n - 1
            i += 1
    print("%s|%s" % (" ".join(first) if first else "-", text))'
}
# tm_row_attrs DEV: those attributes on the table row of DEV (its name, or
# name* when marked, at the start of the line)
tm_row_attrs() {
	tm_screen_attrs | awk -F'|' -v dev="$1" '{ t = substr($0, length($1) + 2); split(t, w, " ") }
		w[1] == dev || w[1] == dev "*" { print $1; exit }'
}
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
# tm_ab_a DEV N / tm_ab_b DEV N: take A (a), or B (Escape b: the A/B view),
# and succeed when it holds N busy intervals or more by blktune's own count;
# under t_until they are taken again until it does, whatever the pace.
tm_ab_a() {
	tm_keys a
	tm_wait "A: $1, [0-9]* busy intervals" 1 &&
		[ "$(tm_screen | sed -nE "s/.*A: $1, ([0-9]+) busy intervals.*/\1/p" | tail -n 1)" -ge "$2" ]
}
tm_ab_b() {
	tm_keys Escape b
	tm_wait "^A/B $1 .*B: [0-9]* busy" 1 &&
		[ "$(tm_screen | sed -nE "s/^A\/B $1 .*B: ([0-9]+) busy intervals.*/\1/p" | tail -n 1)" -ge "$2" ]
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
