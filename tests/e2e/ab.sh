#!/usr/bin/env bash
# A/B for real: under a steady O_DIRECT 1 MiB read load on a loop device made
# here, take A, lower max_sectors_kb with keys, take B: the A/B view lists the
# changed tunable, shows rareq-sz fell with a verdict that agrees with its
# numbers; A puts A's value back; w saves two snapshot files that
# blktune diff reads.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
t_loop_create 256 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
q=/sys/block/$name/queue
export XDG_STATE_HOME=$T_TMP/state
trap 'tm_stop; [ -n "${load:-}" ] && kill $load 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
ms0=$(cat $q/max_sectors_kb)

(while :; do dd if="$dev" of=/dev/null bs=1M count=256 iflag=direct status=none || break; done) &
load=$!
tm_start "XDG_STATE_HOME='$XDG_STATE_HOME' '$BLKTUNE' -d 0.5 --journal-dir '$T_TMP/journal'; sleep 60"
tm_wait "^DEVICE" 5
tm_keys / && tm_text "$name" && tm_keys Enter
tm_wait "matching \"$name\"" 2
sleep 4
tm_keys a
t_check "a takes snapshot A of the selected device" tm_wait "A: $name, [0-9][0-9]* busy intervals" 2
tm_keys '{' '{' '{'
t_check "max_sectors_kb lowered by keys" wait_sysfs $q/max_sectors_kb $((ms0 / 8))
sleep 4
tm_keys b
t_check "b takes B and opens the A/B view" tm_wait "^A/B $name" 3
t_check "the changed tunable is listed first" tm_wait "max_sectors_kb *$ms0 -> $((ms0 / 8))" 1
line=$(tm_screen | grep -E '^rareq-sz ' | head -n 1)
read -r _ a b change verdict <<<"$line"
t_check "rareq-sz fell from A to B ($a -> $b)" awk -v a="$a" -v b="$b" 'BEGIN { exit !(b + 0 < a + 0) }'
t_check "the change is negative ($change)" bash -c "[[ '$change' == -* ]]"
t_check "the verdict agrees: changed, not within noise ($verdict)" test "$verdict" = changed
t_check "histograms side by side" tm_wait "read request sizes (traced)" 1
tm_keys A
t_check "A puts A's max_sectors_kb back" wait_sysfs $q/max_sectors_kb "$ms0"
tm_keys w
t_check "w saves both snapshots" tm_wait "saved" 2
files=$(ls "$XDG_STATE_HOME"/blktune/*.snap 2>/dev/null | wc -l)
t_eq "two snapshot files" "$files" 2
set -- "$XDG_STATE_HOME"/blktune/*.snap
"$BLKTUNE" diff "$1" "$2" >"$T_TMP/diff.txt"
t_eq "blktune diff reads them" "$?" 0
t_check "and lists max_sectors_kb" grep -q max_sectors_kb "$T_TMP/diff.txt"
tm_keys Escape q
tm_wait "r restore and quit" 2 && tm_keys r
sleep 0.5
t_eq "max_sectors_kb as it was" "$(cat $q/max_sectors_kb)" "$ms0"
t_done
