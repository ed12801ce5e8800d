#!/usr/bin/env bash
# Rows never lost (issue 11): on a made-up machine of 60 loop devices (a
# --root tree this test writes, loop1-loop3 busy), at 80x24, after G the
# table must still show what it should when rows go away (i, a filter) or
# the table grows (d); names sort naturally (loop2 before loop10). The
# selection follows its device when the rows change (i, r), and takes the
# nearest row when its device is hidden: it is never off screen or lost.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
mkdir -p "$root/proc"
echo "5000.00 9000.00" > "$root/proc/uptime"
for i in $(seq 0 59); do
	mkdir -p "$root/sys/block/loop$i/queue"
	echo "7:$i" > "$root/sys/block/loop$i/dev"
done
# diskstats with loop1..loop3 busy. blktune keeps the file open (as it does
# /proc/diskstats), so it is rewritten in place, numbers zero-padded to one
# length: one pwrite of the whole file each 0.1 s, at most 300 times.
python3 - "$root/proc/diskstats" <<'PY' &
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
for n in range(300):
    lines = []
    for i in range(60):
        r = n * 100 if 1 <= i <= 3 else 0
        lines.append("   7 %2d loop%-2d %08d 0 %08d %08d 0 0 0 0 0 %08d %08d 0 0 0 0 0 0" % (i, i, r, r * 8, r, r, r))
    os.pwrite(fd, ("\n".join(lines) + "\n").encode(), 0)
    time.sleep(0.1)
PY
feeder=$!
trap 'kill $feeder 2> /dev/null; tm_stop; t_cleanup' EXIT
t_until 5 test -s "$root/proc/diskstats"
TM_W=80 TM_H=24 tm_start "'$BLKTUNE' --root '$root' -d 0.2 --no-trace --journal-dir '$T_TMP/j'; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
# (at 80x24 the detail pane starts closed: the table has the full height)
rows() { tm_screen | grep -cE '^loop[0-9]+ '; }
# blank lines between the table's last row and the next thing on screen
gap_after_rows() {
	tm_screen | awk '/^loop[0-9]+ / { last = NR } { line[NR] = $0 }
		END { n = 0; for (i = last + 1; i < NR; i++) { if (line[i] ~ /^ *$/) n++; else break } print n }'
}
t_check "names sort naturally (loop2 above loop10)" \
	test "$(tm_screen | grep -nE '^loop2 ' | cut -d: -f1)" -lt "$(tm_screen | grep -nE '^loop10 ' | cut -d: -f1)"
# The selected row is the one drawn as loop0 is at start (the first row is
# selected); "selected" prints the rows drawn so, one a line.
drawn_apart() { a=$(tm_row_attrs loop0) && [ -n "$a" ] && [ "$a" != "$(tm_row_attrs loop1)" ]; }
t_check "the selected row (loop0) is drawn apart from the others" t_until 3 drawn_apart
sel_attrs=$(tm_row_attrs loop0)
selected() { tm_screen_attrs | awk -F'|' -v a="$sel_attrs" '$1 == a && $2 ~ /^loop[0-9]+ / { split($2, w, " "); print w[1] }'; }
selected_is() { [ "$(selected)" = "$1" ]; }
# the first row under the header is $1
first_row_is() { [ "$(tm_screen | awk '/^DEVICE/ { getline; print $1; exit }')" = "$1" ]; }
tm_keys G
t_check "G selects the last device (loop59)" t_until 2 selected_is loop59
tm_keys i
busy3() { [ "$(tm_screen | grep -cE '^loop[123] ')" -eq 3 ]; }
t_check "G then i: the three busy devices are all on screen" t_until 3 busy3
# loop59 is hidden: its row position is kept, cut to the last row
t_check "G then i: the selection is on the last row, loop3 (loop59 hidden)" t_until 3 selected_is loop3
tm_keys i
t_check "i again: the idle devices are back" t_until 3 first_row_is loop0
t_check "and the selection stayed on loop3, not on its row (loop2)" selected_is loop3
tm_keys G
t_check "G again selects loop59" t_until 2 selected_is loop59
tm_keys r
t_check "G then r (names descending): loop59 is the first row" t_until 3 first_row_is loop59
t_check "and still selected (the device, not the last row, loop0 now)" selected_is loop59
tm_keys r
t_check "r again: ascending (DEVICE^)" tm_wait "^DEVICE^ " 2
t_check "and loop59 still selected, at the end again" t_until 3 selected_is loop59
tm_keys / && tm_text loop2 && tm_keys Enter
eleven() { [ "$(tm_screen | grep -cE '^loop2[0-9]* ')" -eq 11 ]; }
t_check "G then /loop2: all 11 matches on screen" t_until 3 eleven
tm_keys Escape
# (ESC and a key sent at once would read as Alt-key)
t_check "Esc clears the filter" tm_wait "filter cleared" 2
tm_keys G
tm_wait "^loop59 " 2
tm_keys d
t_check "G then d (pane opens): the selected row stays on screen" tm_wait "^loop59 " 2
t_eq "and no empty lines below the table's last row" "$(gap_after_rows)" 0
tm_keys d
pane_closed() { ! tm_screen | grep -q '^limits '; }
t_check "d again closes the pane" t_until 3 pane_closed
t_eq "G then d (pane closes): no empty lines below the last row" "$(gap_after_rows)" 0
t_check "and the table fills the screen (18 rows at 80x24)" test "$(rows)" -ge 18
kill $feeder 2> /dev/null; wait $feeder 2> /dev/null
t_done
