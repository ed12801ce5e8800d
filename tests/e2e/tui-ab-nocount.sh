#!/usr/bin/env bash
# A/B on a made-up machine (no root) with a kernel before 4.18: 14-field
# diskstats lines, no discard or flush counts. The view, the saved
# snapshots, blktune show and blktune diff (text and JSON) call those
# figures n/a (null), never 0 "same" or "zero on both sides".
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
trap 'fr_stop; tm_stop; t_cleanup' EXIT
FR_FIELDS=14 fr_start "$root" 2 1
t_eq "the feeder writes 14-field lines" "$(awk '{ print NF }' "$root/proc/diskstats" | sort -u)" 14
tm_start "XDG_STATE_HOME='$T_TMP/state' '$BLKTUNE' --root '$root' -d 0.2 --no-trace --journal-dir '$T_TMP/j' -p loop1"
t_check "the table is up" tm_wait "^loop1 " 5
t_check "a takes A, 3 intervals or more" t_until 10 tm_ab_a loop1 3
t_check "b compares, B 3 intervals or more" t_until 10 tm_ab_b loop1 3
t_check "the view lists what the kernel does not count" \
	tm_wait "^n/a, not counted by the kernel: d/s f/s dkB/s drqm/s %drqm d_await f_await dareq-sz" 3
t_check "no d/s or f/s row" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -E '^(d/s|f/s) '"
tm_keys w
t_check "w saves A and B" t_until 5 sh -c "[ \$(ls '$T_TMP/state/blktune/'*.snap 2> /dev/null | wc -l) -eq 2 ]"
fr_stop
a=$(ls "$T_TMP/state/blktune/"*-A.snap) b=$(ls "$T_TMP/state/blktune/"*-B.snap)
t_check "A has a w/s stat line" grep -q '^stat w/s ' "$a"
t_check "A has no discard or flush stat line" sh -c "! grep -E '^stat (d|f|dkB|drqm)' '$a'"
t_check "show: n/a line" sh -c "'$BLKTUNE' show '$a' | grep -qx '  n/a, not counted by the kernel: d/s f/s dkB/s drqm/s %drqm d_await f_await dareq-sz'"
out=$("$BLKTUNE" diff "$a" "$b")
t_check "diff: n/a line" grep -qx '  n/a, not counted by the kernel: d/s f/s dkB/s drqm/s %drqm d_await f_await dareq-sz' <<<"$out"
# w/s wkB/s wMB/s rrqm/s wrqm/s %rrqm %wrqm: zero; the eight above are not
t_check "diff: the uncounted are not among the zero figures" grep -qx '  (7 metrics zero on both sides not shown)' <<<"$out"
"$BLKTUNE" diff "$a" "$b" --json > "$T_TMP/diff.json"
t_check "diff --json: d/s and f_await are null, n/a" python3 -c "
import json
d = json.load(open('$T_TMP/diff.json'))
m = {x['metric']: x for x in d['devices'][0]['metrics']}
for k in ('d/s', 'f/s', 'dkB/s', 'f_await'):
    assert m[k]['a'] == {'n': 0, 'mean': None, 'sd': None, 'min': None, 'max': None}, m[k]
    assert m[k]['b']['mean'] is None and m[k]['verdict'] == 'n/a', m[k]
assert m['w/s']['a']['n'] >= 3
"
t_done
