#!/usr/bin/env bash
# The full-screen tests at 80x24 and 200x60, each with LANG=C and C.UTF-8
# (issue 11: over ssh the terminal is often small and the locale C). Each
# script below runs under every combination it is written for; its lines are
# passed on with the combination in front ("ok - [80x24 C] ..."), so
# tests/run-all counts them. The golden captures are 80x24 by definition.
# Scripts that pin a size of their own (tui-80x24.sh, tui-layout.sh) and the
# ones that need a loaded device or fio run once, outside this matrix.
. "$(dirname "$0")/../lib.sh"
command -v tmux > /dev/null || t_skip "needs tmux"
here=$(cd "$(dirname "$0")" && pwd)
# script and the sizes it holds at (the filter's 22 rows need 200x60; the
# table, help and sort checks of tui.sh need more than 24 lines)
runs=(
	"tui-keys.sh 80x24 200x60"
	"tui-dev-arg.sh 80x24 200x60"
	"tui-ab-same.sh 80x24 200x60"
	"tui-cpu-quick.sh 80x24 200x60"
	"tui-columns.sh 80x24 200x60"
	"golden.sh 80x24"
	"tui-filter.sh 200x60"
	"tui.sh 200x60"
)
for run in "${runs[@]}"; do
	read -r script sizes <<< "$run"
	for size in $sizes; do
		for loc in C C.UTF-8; do
			tag="[$size $loc]"
			TM_W=${size%x*} TM_H=${size#*x} LANG=$loc LC_ALL=$loc bash "$here/$script" > "$T_TMP/out" 2>&1
			rc=$?
			# a script that cannot run here (no root for a loop device) says why
			if [ "$rc" -eq 77 ]; then
				sed -n "s/^skip - /skip - $script $tag: /p" "$T_TMP/out"
				continue
			fi
			while IFS= read -r line; do
				case $line in
				"ok - "*) t_ok "$script $tag ${line#ok - }" ;;
				"not ok - "*) t_fail "$script $tag ${line#not ok - }" ;;
				"# "*) echo "# $script $tag ${line#\# }" ;;
				esac
			done < "$T_TMP/out"
			grep -qE '^# [0-9]+ passed, [0-9]+ failed' "$T_TMP/out" || t_fail "$script $tag: no summary (exit $rc)"
		done
	done
done
t_done
