#!/usr/bin/env bash
# The header says the interval the samples are taken at: -d 0.25 is
# "interval 0.25 s", not the "0.2 s" that one decimal made of it (and
# 0.15 read "0.1" or "0.2"); the steps of + and - keep their one decimal.
# On the sata capture, no root needed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux >/dev/null || t_skip "needs tmux"
root=$T_TOP/tests/fixtures/sata
trap 'tm_stop; t_cleanup' EXIT

for pair in "0.25 0.25" "0.123 0.123" "2 2.0" "0.1 0.1" "12.5 12.5"; do
	set -- $pair
	tm_start "XDG_CONFIG_HOME='$T_TMP/xdg' '$BLKTUNE' --root '$root' --no-trace -d $1 --journal-dir '$T_TMP/j'; sleep 60"
	t_check "-d $1: the header says interval $2 s" tm_wait "^blktune  interval $2 s  " 5
	tm_keys q
	tm_stop
done
t_done
