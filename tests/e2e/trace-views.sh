#!/usr/bin/env bash
# Traced figures on screen: the table's latency columns, the size and latency
# histograms, per-CPU issue counts in the CPU view for a workload pinned to
# CPU 1, and n/a with the reason under --no-trace.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
[ "$(nproc)" -ge 2 ] || t_skip "needs two CPUs to pin a workload off CPU 0"
t_loop_create 256 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
trap 'tm_stop; [ -n "${load:-}" ] && kill $load 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT

# 4 KiB direct reads, pinned to CPU 1, for as long as the test runs
(while :; do taskset -c 1 dd if="$dev" of=/dev/null bs=4k count=5000 iflag=direct status=none || break; done) &
load=$!

select_dev() {
	tm_wait "^DEVICE" 5
	tm_keys / && tm_text "$name" && tm_keys Enter
	tm_wait "matching \"$name\"" 2
}
# wide enough for the q_p99_us and d_p99_us columns
TM_W=200 tm_start "'$BLKTUNE' -d 0.5; sleep 30"
select_dev
t_check "the header says tracing is on" tm_wait "trace on" 3
# the value under a header of the table: cell NAME
cell() { tm_cell "$name" "$1"; }
positive() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9.]+k?$/ && v + 0 > 0) }'; }
lat_shown() { positive "$(cell t_avg_us)"; }
# the first traced interval needs two samples
t_until 5 lat_shown
lat=$(cell t_avg_us)
t_check "traced mean latency is a positive number ($lat us)" \
	bash -c "awk -v v='$lat' 'BEGIN { exit !(v ~ /^[0-9.]+k?\$/ && v + 0 > 0) }'"
tm_keys Tab
t_check "Tab shows the request size histogram" tm_wait "request sizes (traced" 2
t_check "4 KiB reads land in the <=4K bucket" tm_wait "^<=4K *[1-9]" 3
t_check "with latency percentiles" tm_wait "p50 [0-9]" 3
for col in q_p99_us d_p99_us; do
	v=$(cell $col)
	t_check "table: $col is a number ($v)" bash -c "awk -v v='$v' 'BEGIN { exit !(v ~ /^[0-9.]+k?\$/) }'"
done
tm_keys Tab
t_check "Tab again: where the time goes" tm_wait "where the time goes" 2
# (tm_wait greps basic regular expressions: "|" is literal, " *" repeats)
n="  *[0-9][0-9]*" d="  *-"
t_check "reads split into queue and device time" tm_wait "^read  *[1-9][0-9]*$n  *|$n$n$n$n  *|$n$n$n$n  *| 0" 3
t_check "no writes: dashes, not zeros" tm_wait "^write  *0$d  *|$d$d$d$d  *|$d$d$d$d  *| 0" 2
tm_keys Tab
t_check "Tab again: per-CPU page" tm_wait "completions by where they were submitted" 2
tm_keys c
t_check "c opens the CPU view" tm_wait "CPUs for $name" 2
cpu1_busy() { awk -v v="$(tm_screen | awk '$1 == "1" { print $2; exit }')" 'BEGIN { exit !(v + 0 > 100) }'; }
t_until 5 cpu1_busy
cpu0=$(tm_screen | awk '$1 == "0" { print $2; exit }')
cpu1=$(tm_screen | awk '$1 == "1" { print $2; exit }')
t_check "the pinned workload issues on CPU 1 ($cpu1/s)" bash -c "awk -v v='$cpu1' 'BEGIN { exit !(v + 0 > 100) }'"
t_eq "and nothing of it on CPU 0" "$cpu0" 0
t_check "loop devices have no IRQ of their own, and it says so" tm_wait "no IRQ of its own" 1
tm_keys Escape
t_check "Esc leaves the CPU view" tm_wait "^DEVICE" 2
tm_keys q
tm_stop

tm_start "'$BLKTUNE' -d 0.5 --no-trace; sleep 30"
select_dev
t_check "--no-trace: the header says why" tm_wait "trace off (--no-trace)" 3
# rates need two samples: wait for the row's r/s, then read the traced cells
row_has_rate() { [ -n "$(cell r/s)" ] && [ "$(cell r/s)" != "-" ]; }
t_until 5 row_has_rate
t_eq "--no-trace: traced latency shows n/a" "$(cell t_avg_us)" "n/a"
t_eq "--no-trace: traced p99 shows n/a" "$(cell t_p99_us)" "n/a"
tm_keys q
t_done
