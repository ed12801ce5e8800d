#!/usr/bin/env bash
# The header's device count (issue 11): "N devices" and "N of M devices"
# count what the table can show. Partitions hidden (the default) are not
# counted; P shows them and the count follows. The expected figures come from
# the capture itself: its /sys/block entries (disks) and /proc/diskstats
# lines (disks and partitions), and the rows the table draws.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TOP/tests/fixtures/sata
trap 'tm_stop; t_cleanup' EXIT
disks=$(ls "$root/sys/block" | wc -l)
all=$(grep -c . "$root/proc/diskstats")
t_check "the capture has partitions" test "$all" -gt "$disks"
# rows under the DEVICE header, up to the first blank line
rows() { tm_screen | awk '/^DEVICE/ { on = 1; next } on && /^$/ { exit } on { n++ } END { print n + 0 }'; }

TM_H=40 tm_start "'$BLKTUNE' --root '$root' --no-trace --journal-dir '$T_TMP/j'; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
t_check "partitions hidden: the header counts the disks ($disks)" tm_wait "^blktune .* $disks devices" 2
t_eq "as many as the table shows" "$(rows)" "$disks"
tm_keys /
tm_text sd
tm_keys Enter
t_check "with a filter: N of the disks" tm_wait "^blktune .*3 of $disks devices  filter sd" 2
t_eq "N is the rows shown" "$(rows)" 3
tm_keys Escape P
t_check "P: partitions count too ($all)" tm_wait "^blktune .* $all devices" 2
t_eq "and show" "$(rows)" "$all"
t_done
