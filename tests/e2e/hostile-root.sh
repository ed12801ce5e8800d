#!/usr/bin/env bash
# Nothing blocks, hangs or lies on a doctored --root tree (a copy of the
# live-vm capture): FIFOs where kernel files should be, terminal escape
# sequences and bytes that are not UTF-8 in host, device and tunable text,
# garbage in number files, a snapshot with an impossible time. Batch text,
# JSON, show/diff and the full-screen view, each asserted on its output.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux >/dev/null || t_skip "needs tmux"
command -v python3 >/dev/null || t_skip "needs python3 to check JSON"
trap 'tm_stop; t_cleanup' EXIT

fixture=$T_TOP/tests/fixtures/live-vm/t0
# The guard only: a hang fails the assertion instead of the whole suite.
guard() { timeout 20 "$@"; }
esc=$(printf '\033')
# A byte found in output where it must never be: ESC, BEL, CSI (0x9b), 0xff.
has_controls() { LC_ALL=C grep -q "$(printf '[\033\007\233\377]')" "$1"; }

# ---- FIFOs in place of kernel files ----
fifo_root=$T_TMP/fifo
cp -a "$fixture/." "$fifo_root/"
blk=$fifo_root/sys/devices/virtual/block
for f in "$blk/loop1/queue/read_ahead_kb" "$blk/loop1/queue/scheduler" "$blk/loop1/diskseq" \
	"$fifo_root/proc/version" "$fifo_root/proc/uptime"; do
	rm -f "$f" && mkfifo "$f"
done
guard "$BLKTUNE" -b -n 2 -d 0.2 --root "$fifo_root" >"$T_TMP/fifo.out" 2>"$T_TMP/fifo.err"
t_eq "batch over FIFOs in sysfs and /proc finishes" "$?" 0
t_check "and reports loop1" grep -q '^loop1 ' "$T_TMP/fifo.out"
guard "$BLKTUNE" -b -n 2 -d 0.2 --json --root "$fifo_root" >"$T_TMP/fifo.json"
t_eq "JSON over FIFOs: loop1's read_ahead_kb is null, its diskseq null" \
	"$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = [d for d in json.loads(l)["disk"] if d["disk_device"] == "loop1"][0]
print(d["read_ahead_kb"], d["diskseq"])' "$T_TMP/fifo.json" | tail -n 1)" "None None"

tm_start "TERM=xterm-256color '$BLKTUNE' -d 0.3 --root '$fifo_root'; echo EXIT=\$? >'$T_TMP/exit'; sleep 30"
t_check "TUI over FIFOs draws the table" tm_wait "^loop1 " 10
tm_keys q
t_check "and q quits it" tm_wait_file "$T_TMP/exit" 10
t_eq "exit status 0" "$(cat "$T_TMP/exit" 2>/dev/null)" "EXIT=0"
tm_stop

rm -f "$fifo_root/proc/diskstats" && mkfifo "$fifo_root/proc/diskstats"
guard "$BLKTUNE" -b -n 1 --root "$fifo_root" >/dev/null 2>"$T_TMP/err"
t_eq "a FIFO as proc/diskstats: exit 1, not a hang" "$?" 1
t_check "one line naming the file and why" grep -q "proc/diskstats: not a regular file" "$T_TMP/err"
t_eq "just one line" "$(wc -l <"$T_TMP/err")" 1
rm -f "$T_TMP/exit"
tm_start "TERM=xterm-256color '$BLKTUNE' --root '$fifo_root'; echo EXIT=\$? >'$T_TMP/exit'; sleep 30"
t_check "TUI with a FIFO as proc/diskstats exits at once" tm_wait_file "$T_TMP/exit" 10
t_eq "exit status 1" "$(cat "$T_TMP/exit" 2>/dev/null)" "EXIT=1"
tm_stop

# ---- hostile text and garbage numbers ----
evil=$T_TMP/evil
cp -a "$fixture/." "$evil/"
blk=$evil/sys/devices/virtual/block
printf 'ev\033]0;pwned\007il\033[31mhost\377\233\n' >"$evil/proc/sys/kernel/hostname"
printf 'Linux version 6.18\033[2J-evil (x) #1\n' >"$evil/proc/version"
printf '[mq-deadl\033[5mine\377] none\n' >"$blk/loop1/queue/scheduler"
printf 'junk\n' >"$blk/loop2/queue/read_ahead_kb"
printf 'not-a-number\n' >"$evil/proc/uptime"
# Device names the kernel never makes: an ESC and a byte that is not UTF-8.
printf '   7       9 loop\0339 1 0 2 3 0 0 0 0 0 4 4 0 0 0 0 0 0\n   7      10 sd\377 1 0 2 3 0 0 0 0 0 4 4 0 0 0 0 0 0\n' \
	>>"$evil/proc/diskstats"

guard "$BLKTUNE" -b -n 2 -d 0.2 --root "$evil" >"$T_TMP/evil.out" 2>&1
t_eq "batch text over hostile text exits 0" "$?" 0
t_check "no control byte reaches the terminal (text)" sh -c "! LC_ALL=C grep -q '$(printf '[\033\007\233\377]')' '$T_TMP/evil.out'"
t_check "the host name is shown sanitised" grep -qF 'ev?]0;pwned?il?[31mhost??' "$T_TMP/evil.out"
t_eq "loop2's unreadable read_ahead_kb is n/a, not 0" \
	"$(awk '$1 == "loop2" { v = $(NF - 2) } END { print v }' "$T_TMP/evil.out")" "n/a"
t_check "the scheduler is shown sanitised (cut to its column)" grep -qF 'mq-deadl?[5' "$T_TMP/evil.out"
t_check "the devices with bad names are left out" sh -c "! grep -q '^sd\|^loop.9' '$T_TMP/evil.out'"

guard "$BLKTUNE" -b -n 2 -d 0.2 --json --root "$evil" >"$T_TMP/evil.json" 2>/dev/null
t_eq "batch JSON over hostile text exits 0" "$?" 0
# Strict: UTF-8 decoding that refuses bad bytes (json.tool's stdin would
# smuggle them through as surrogates), then the JSON parser.
json_ok() { python3 -c 'import json, sys
lines = open(sys.argv[1], "rb").read().splitlines()
assert lines
for l in lines:
    json.loads(l.decode("utf-8", "strict"))' "$1"; }
t_check "every JSON line is valid JSON (strict UTF-8)" json_ok "$T_TMP/evil.json"
t_check "no raw control byte in the JSON" sh -c "! LC_ALL=C grep -q '$(printf '[\033\007\233\377]')' '$T_TMP/evil.json'"
t_eq "JSON: loop2 read_ahead_kb null (unreadable), loop3 a number, scheduler sanitised" \
	"$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    ds = {d["disk_device"]: d for d in json.loads(l)["disk"]}
print(ds["loop2"]["read_ahead_kb"], type(ds["loop3"]["read_ahead_kb"]).__name__, ds["loop1"]["scheduler"])' \
		"$T_TMP/evil.json" | tail -n 1)" "None int mq-deadl?[5mine?"

tm_start "TERM=xterm-256color '$BLKTUNE' -d 0.3 --root '$evil'; echo EXIT=\$? >'$T_TMP/exit2'; sleep 30"
t_check "TUI over hostile text draws the table" tm_wait "^loop1 " 10
t_check "the header shows the sanitised host name" tm_wait "ev?]0;pwned?il?\[31mhost??" 3
t_check "an ESC ] 0 sequence did not retitle the pane" sh -c "! tmux -S '$TM_SOCK' display -p -t '$TM_SESS' '#{pane_title}' | grep -q pwned"
t_check "uptime garbage shows n/a" tm_wait "up n/a" 3
tm_keys q
t_check "q quits" tm_wait_file "$T_TMP/exit2" 10
tm_stop

# --set quotes the value it replaced (or the journal refuses to keep such an
# original): either way the message reaches the terminal sanitised.
printf '40\033[2J96\n' >"$blk/loop3/queue/read_ahead_kb"
mkdir -m 700 "$T_TMP/journal"
guard "$BLKTUNE" --root "$evil" --journal-dir "$T_TMP/journal" --set loop3:read_ahead_kb=256 >"$T_TMP/set.out" 2>&1
t_check "--set reports on loop3 read_ahead_kb" grep -qF 'loop3 read_ahead_kb' "$T_TMP/set.out"
t_check "and prints no control byte" sh -c "! LC_ALL=C grep -q '$esc' '$T_TMP/set.out'"

# ---- snapshots: impossible time, hostile text ----
snap() { # snap FILE HOST TIME (version 1: what older blktune wrote, still read)
	printf 'blktune-snapshot 1\nhost %s\nkernel 6.18\ntime %s\nwindow 30\ndevice loop0 7:0\nspan 0 1 1\nstat r/s 1 5 nan 5 5\nend-device\nend 1\n' \
		"$2" "$3" >"$1"
}
snap "$T_TMP/ok.snap" vm 1767225600
snap "$T_TMP/t1e300.snap" vm 1e300
snap "$T_TMP/esc.snap" "$(printf 'a\033[2Jb')" 1767225600
guard "$BLKTUNE" show "$T_TMP/ok.snap" >"$T_TMP/show.out" 2>&1
t_eq "show of a good snapshot exits 0" "$?" 0
guard "$BLKTUNE" show "$T_TMP/t1e300.snap" >"$T_TMP/show.out" 2>&1
t_check "show refuses time 1e300 (exit not 0)" test $? -ne 0
t_check "naming file, line and why" grep -q "t1e300.snap:4: time is not a date" "$T_TMP/show.out"
guard "$BLKTUNE" diff "$T_TMP/esc.snap" "$T_TMP/ok.snap" >"$T_TMP/diff.out" 2>&1
t_check "diff refuses a host with an escape sequence" grep -q "esc.snap:2: host with control characters" "$T_TMP/diff.out"
t_check "and its message holds no control byte" sh -c "! LC_ALL=C grep -q '$esc' '$T_TMP/diff.out'"
t_done
