#!/usr/bin/env bash
# A/B on a made-up machine (no root) whose loop1 reads 4 KiB requests at a
# steady 1 ms: rareq-sz and r_await did not move between A and B, and the
# verdict says "same", not "within noise" (there was no noise to be within).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
trap 'fr_stop; tm_stop; t_cleanup' EXIT
fr_start "$root" 4 1
tm_start "XDG_STATE_HOME='$T_TMP/state' '$BLKTUNE' --root '$root' -d 0.2 --no-trace --journal-dir '$T_TMP/j' -p loop1"
t_check "the table is up" tm_wait "^loop1 " 5
# a and b are taken again until each side holds 5 intervals (by blktune's
# own count), so "same" is judged on several, whatever the machine's pace.
t_check "a takes A, 5 intervals or more" t_until 10 tm_ab_a loop1 5
t_check "b compares, B 5 intervals or more" t_until 10 tm_ab_b loop1 5
t_check "b compares" tm_wait "^metric .*verdict" 3
verdict() { tm_screen | awk -v m="$1" '$1 == m { print $NF }'; }
t_eq "rareq-sz: 4.0 on both sides is the same" "$(verdict rareq-sz)" same
t_eq "r_await: 1.00 on both sides is the same" "$(verdict r_await)" same
t_check "nothing constant is called noise" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -E '^(rareq-sz|r_await) ' | grep -q noise"
fr_stop
t_done
