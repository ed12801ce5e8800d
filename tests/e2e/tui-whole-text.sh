#!/usr/bin/env bash
# Every message whole at 80x24 (issue 11): the CPU view's note, the detail
# pane's limits, tunables and figures, and the second instance's refusal are
# wrapped, not cut at the screen's edge. Each is compared with its full text
# (the figures with the program's own column list). On a copy of the sata
# capture (no root needed; the copy takes the tunable writes).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/sata
cp -a "$T_TOP/tests/fixtures/sata" "$root"
trap 'tm_stop; t_cleanup' EXIT
TM_W=80 TM_H=24
run() { echo "'$BLKTUNE' --root '$root' --no-trace --journal-dir '$T_TMP/j'; sleep 60"; }
# the screen's lines joined with single spaces
joined() { tm_screen | tr -s ' \n' '  '; }
in_screen() { joined | grep -qF -- "$1"; }
narrow() { test "$(tm_screen | wc -L)" -le 80; }

tm_start "$(run)"
t_check "the table is up" tm_wait "^DEVICE" 5
tm_keys c
t_check "the CPU view is up" tm_wait "^CPUs for" 2
note="per second; traced counts are requests, interrupts are not (one IRQ completes many at depth > 1); BLOCK softirqs are every device's"
t_check "the CPU view's note is whole" in_screen "$note"
t_check "and no line is wider than 80" narrow
tm_keys Escape d
t_check "the detail pane opens" tm_wait "^limits " 2
for w in nr_requests scheduler r_await rareq-sz wareq-sz dareq-sz f_await inflt; do
	t_check "detail pane: $w and its value" sh -c "tm_screen() { tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS'; }; tm_screen | tr -s ' \n' '  ' | grep -qE -- ' $w [0-9a-z-]'"
done
# figures, not "-", once a second sample has come (the pane can open first)
t_check "the detail pane has its first rates" tm_wait "^read  *r/s [0-9]" 5
for label in read write discard; do
	# every column of the line, from the program's own list of columns
	n=$(tm_screen | awk -v l="$label" '$1 == l { on = 1; print; next } on && /^         / { print; next } { on = 0 }' | grep -oE '[a-z%_/-]+ [0-9.]+' | wc -l)
	t_eq "detail pane: $label has all six figures" "$n" 6
done
t_check "and no line is wider than 80" narrow

# a second blktune over the same journal, while the first holds changes
tm_keys ']'
t_check "the first instance changed read_ahead_kb" tm_wait "read_ahead_kb 128 -> 256" 3
tm new-window -t "$TM_SESS" "$(run)"
sleep 0.1
t_check "the second is up" t_until 5 sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS:1' | grep -q '^DEVICE'"
tm send-keys -t "$TM_SESS:1" t
tm send-keys -t "$TM_SESS:1" ']'
sleep 0.3
t_until 3 sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS:1' | tail -3 | tr -s ' \n' '  ' | grep -q 'journal locked)'"
t_check "the refusal is whole on the status line, wrapped upwards" sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS:1' | tail -3 | tr -s ' \n' '  ' | grep -qE 'another blktune pid [0-9]+ is changing tunables \(journal locked\)'"
t_check "no line of it wider than 80" test "$(tm capture-pane -p -t "$TM_SESS:1" | wc -L)" -le 80
tm_stop

# the tunables panel at 80 columns, on a VM's capture with mq-deadline: the
# scheduler's choices (cut in the RANGE column) whole under the line, and
# iosched/prio_aging_expire's name whole
vm=$T_TMP/vm
cp -a "$T_TOP/tests/fixtures/live-vm/t0" "$vm"
choices=$(sed "s/[][]//g; s/ *$//" "$vm"/sys/devices/*/*/virtio*/block/vda/queue/scheduler)
tm_start "'$BLKTUNE' --root '$vm' --no-trace --journal-dir '$T_TMP/j3' -p vda; sleep 60"
t_check "the VM's table is up" tm_wait "^DEVICE" 5
tm_keys t
t_check "its tunables panel" tm_wait "^tunables of vda" 3
t_until 3 sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^read_ahead_kb'"
for _ in 1 2 3 4 5; do tm_keys j; done
t_check "the scheduler selected" tm_wait "^range: " 2
t_check "its choices whole: $choices" in_screen "range: $choices. I/O scheduler"
for _ in $(seq 1 20); do tm_keys j; done
t_check "iosched/prio_aging_expire's name is whole" tm_wait "^iosched/prio_aging_expire  *[0-9]" 2
t_check "no line of the panel wider than 80" narrow
t_done
