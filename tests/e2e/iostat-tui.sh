#!/usr/bin/env bash
# The iostat habits in the full-screen view, on the lvm-names fixture tree
# (proc/uptime 250.00): the first frame shows averages since boot, marked in
# the header, until the first interval has passed; mapper and -j names in
# the table; the m key cycles the throughput columns through kB, MB, GB.
# Figures are worked out by hand from the tree's proc/diskstats: sda read
# 2444371 sectors = 1222185.5 kB in 250 s = 4888.742 kB/s = 4.774 MB/s
# = 0.00466 GB/s; 55043 reads / 250 s = 220.2 r/s; 17556 writes = 70.2 w/s.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux >/dev/null || t_skip "needs tmux"
fix=$T_TOP/tests/fixtures/lvm-names
trap 'tm_stop; t_cleanup' EXIT
export XDG_STATE_HOME=$T_TMP/state
run="TERM=xterm-256color '$BLKTUNE' --root '$fix' --journal-dir '$T_TMP/journal'"
row() { tm_screen | grep -E "^$1 " | head -n 1; }

tm_start "$run -d 8; sleep 30"
t_check "the first frame is marked as averages since boot" tm_wait "\[averages since boot\]" 5
t_check "the status line says so" tm_wait "averages since boot until 8.0 s" 1
t_check "sda's since-boot row: 220.2 r/s, 70.2 w/s, 4.77 rMB/s, 1.08 wMB/s" \
	bash -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -qE '^sda +220\.2 +70\.2 +4\.77 +1\.08 '"
t_check "dm-0 is shown by its mapper name" tm_wait "^vg_foo.4059-lv_foo.4059 " 1
t_check "the DEVICE column is as wide as the mapper name" \
	bash -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -qE '^DEVICE\^? {18,}r/s'"
t_check "no row is shown by the kernel name dm-0" bash -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^dm-0 '"

tm_keys m
t_check "m: throughput in GB/s" tm_wait "rGB/s *wGB/s" 2
t_eq "sda's rGB/s is 4888.742 / 1048576 = 0.005" "$(row sda | awk '{print $4}')" "0.005"
tm_keys m
t_check "m again: kB/s" tm_wait "rkB/s *wkB/s" 2
t_eq "sda's rkB/s is 4888.7" "$(row sda | awk '{print $4}')" "4888.7"
t_eq "sda's wkB/s is 553842 / 2 / 250 = 1107.7" "$(row sda | awk '{print $5}')" "1107.7"
tm_keys m
t_check "m a third time: back to MB/s" tm_wait "rMB/s *wMB/s" 2
t_eq "sda's rMB/s is 4.77" "$(row sda | awk '{print $4}')" "4.77"
t_check "the key is in the help generated from the key table" \
	bash -c "'$BLKTUNE' --list keys | grep -qE '^  m +throughput columns in kB/s, MB/s or GB/s'"

# The captured tree does not change: after the first interval every rate is 0.
t_check "after the first interval the since-boot mark goes" \
	bash -c "for i in \$(seq 120); do tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q 'averages since boot' || exit 0; sleep 0.1; done; exit 1"
t_eq "and sda's r/s is the interval's: 0.0" "$(row sda | awk '{print $2}')" "0.0"
tm_stop

# -z: the TUI starts with idle devices hidden (its i key): the unused loop4
# is left out of the since-boot frame; i shows it again.
tm_start "$run -z -d 8; sleep 30"
t_check "-z: sda is shown" tm_wait "^sda " 5
t_check "-z: the never-used loop4 is not" bash -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^loop4 '"
tm_keys i
t_check "i shows idle devices again: loop4" tm_wait "^loop4 " 2
tm_stop

# -j LABEL: labelled devices show their label; the rest keep their names.
tm_start "$run -j LABEL --partitions; sleep 30"
t_check "-j LABEL: dm-0 is 'data'" tm_wait "^data " 5
t_eq "-j LABEL: sda4 is 'root', 54299 reads / 250 s = 217.2 r/s" "$(row root | awk '{print $2}')" "217.2"
t_check "-j LABEL: sda has no label and keeps its name" tm_wait "^sda " 1
tm_stop
t_done
