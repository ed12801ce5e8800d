#!/usr/bin/env bash
# Every message readable at 80x24 and 120x40 (issue 11): the selected
# tunable's help is wrapped, not cut at the screen width (read_ahead_kb's
# lost its point at 120 columns), and the footer fits 80 columns.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_fail "losetup"
name=${T_LOOP#/dev/}
trap 'tm_stop; t_cleanup' EXIT
# the help text as the program's own table has it
help=$("$BLKTUNE" --list tunables | awk '$1 == "read_ahead_kb" { $1 = ""; sub(/^ +/, ""); print }')
t_check "the table has read_ahead_kb's help" test -n "$help"
for size in 80x24 120x40; do
	TM_W=${size%x*} TM_H=${size#*x} tm_start "'$BLKTUNE' -d 0.5 --no-trace --journal-dir '$T_TMP/journal' -p $name; sleep 60"
	tm_wait "^DEVICE" 5
	t_check "$size: the footer is not cut (ends with i idle)" tm_wait "  i idle *$" 2
	tm_keys t
	tm_wait "tunables of $name" 3
	# read_ahead_kb is selected: its help is below the line, over several lines
	shown=$(tm_screen | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
i = next((k for k, l in enumerate(lines) if l.startswith("\u2500" * 20) or l.startswith("q" * 20)), len(lines))
print(" ".join(" ".join(lines[i + 1:]).split()))')
	tm_screen > "$T_TMP/screen-$size"
	t_check "$size: the whole help of read_ahead_kb is on screen" grep -qF -- "$(echo $help)" <<< "$shown"
	t_check "$size: no line is wider than the screen" \
		test "$(tm_screen | python3 -c 'import sys; w = int(sys.argv[1]); print(sum(len(l.rstrip("\n")) > w for l in sys.stdin))' "${size%x*}")" -eq 0
	if [ "$size" = 120x40 ]; then
		wc_line=$(tm_screen | grep -E '^ *write_cache ')
		t_eq "write_cache says read-only once ($wc_line)" "$(grep -o 'read-only' <<< "$wc_line" | wc -l)" 1
	fi
	tm_stop
done
t_done
