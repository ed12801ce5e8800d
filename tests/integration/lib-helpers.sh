#!/usr/bin/env bash
# The shell helpers other tests lean on to never hang: t_stop ends a
# process that ignores the signal it is sent (killed, and said so), and
# reaps one that obeys; t_bpftrace returns only once bpftrace's probes are
# attached (an event right after it is counted), and returns 1 with
# bpftrace's error for a program that does not load. Needs root and
# bpftrace for the second part.
. "$(dirname "$0")/../lib.sh"
export T_WAIT_MIN=2

# A copy of this shell (a background job's child before it execs, here a
# subshell) does not clean up: a signal in that window used to remove $T_TMP.
( t_cleanup )
t_check "t_cleanup in a child of the test's shell leaves \$T_TMP alone" test -d "$T_TMP"

# a process that ignores INT, once it does (it says so by a file)
bash -c 'trap "" INT; touch "$0"; while :; do sleep 0.1; done' "$T_TMP/ignoring" &
p=$!
t_until 20 test -e "$T_TMP/ignoring"
# (t_stop runs in this shell, not in a $(...) subshell, which could not reap it)
t_stop "$p" INT > "$T_TMP/said" 2>&1
t_check "t_stop: a process ignoring INT is gone" sh -c "! kill -0 $p 2>/dev/null"
t_check "t_stop: and says it was killed ($(cat "$T_TMP/said"))" grep -q "did not end on SIGINT: killed" "$T_TMP/said"
sleep 600 &
p=$!
t_stop "$p" TERM > "$T_TMP/said" 2>&1
t_check "t_stop: a process that obeys is gone" sh -c "! kill -0 $p 2>/dev/null"
t_eq "t_stop: and nothing is said" "$(cat "$T_TMP/said")" ""

t_need_root
command -v bpftrace >/dev/null || t_skip "no bpftrace (apt-get install bpftrace)"
# an event right after t_bpftrace returns is counted: one run of a copy of
# true(1) under a name of its own, then INT prints the count
cp /bin/true "$T_TMP/bt-ready-probe"
t_bpftrace "$T_TMP/bt" 'tracepoint:syscalls:sys_enter_exit_group /comm == "bt-ready-probe"/ { @n = count(); }'
t_eq "t_bpftrace: returns 0 once attached" "$?" 0
"$T_TMP/bt-ready-probe"
t_check "t_bpftrace: T_BT_PROGS holds the programs it loaded ($T_BT_PROGS)" \
	sh -c 'for i; do bpftool prog show id $i | grep -q " tracepoint .*name sys_enter_exit_" && exit 0; done; exit 1' - $T_BT_PROGS
t_check "t_bt_misses: a count while bpftrace runs ($(t_bt_misses))" test "$(t_bt_misses)" -ge 0
t_stop "$T_BT_PID" INT
t_eq "t_bpftrace: the event right after it was counted; INT ends it and prints its maps" \
	"$(sed -n 's/^@n: //p' "$T_TMP/bt")" 1
# t_bt_misses sums recursion_misses over T_BT_PROGS only, and absent
# counts as 0 (bpftool leaves out a zero)
bpftool() { echo '[{"id": 5, "recursion_misses": 3}, {"id": 6}, {"id": 7, "recursion_misses": 100}, {"id": 8, "recursion_misses": 9}]'; }
T_BT_PROGS="5 6 8"
t_eq "t_bt_misses: the sum over bpftrace's programs only" "$(t_bt_misses)" 12
t_eq "t_bpf_prog_ids: every id" "$(t_bpf_prog_ids)" "5 6 7 8"
unset -f bpftool
out=$(t_bpftrace "$T_TMP/bad" 'tracepoint:nosuch:event { @n = count(); }')
t_eq "t_bpftrace: a program that does not load returns 1" "$?" 1
t_check "t_bpftrace: and says bpftrace's error ($out)" grep -q "bpftrace did not attach: ." <<<"$out"
t_done
