#!/usr/bin/env bash
# A hang-up while the tracer is still loading restores too: the loader is a
# thread beside the main loop, and a signal delivered to it (rather than to
# the main loop's signalfd) ended the process with the tunable left changed.
# The BPF helper is replaced by one that sleeps (BLKTUNE_BPF_HELPER), so the
# loader waits 8 s for it; read_ahead_kb of a loop device made here is changed
# with ], then SIGHUP and SIGTERM must each restore it at once and exit 0 (once
# the loader gives up on the helper: a hung helper delays the exit, bounded
# by the loader's 30 s timeout, never the restore).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
t_loop_create 64 || t_skip "cannot create a loop device"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
trap 'tm_stop; t_cleanup' EXIT
ra0=$(cat $q/read_ahead_kb)
printf '#!/bin/sh\nsleep 8\n' >"$T_TMP/slow-helper"
chmod +x "$T_TMP/slow-helper"
for sig in HUP TERM; do
	rm -f "$T_TMP/exit"
	tm_start "BLKTUNE_BPF_HELPER='$T_TMP/slow-helper' '$BLKTUNE' -d 0.5 --journal-dir '$T_TMP/j' -p '$name'; echo EXIT=\$? >'$T_TMP/exit'; sleep 60"
	tm_wait "^DEVICE" 5
	t_check "SIG$sig: the tracer is still loading" tm_wait "tracer loading\|trace loading\|loading" 2
	tm_keys ']'
	t_check "SIG$sig: ] doubled read_ahead_kb" wait_sysfs $q/read_ahead_kb $((ra0 * 2))
	pid=$(pgrep -f "^$BLKTUNE -d 0.5 --journal-dir $T_TMP/j" | head -n 1)
	t_check "SIG$sig: blktune is running (pid $pid)" test -n "$pid"
	t_check "SIG$sig: still loading when the signal is sent" tm_wait "loading" 1
	kill -$sig "$pid"
	t_check "SIG$sig: read_ahead_kb restored at once" wait_sysfs $q/read_ahead_kb "$ra0"
	t_check "SIG$sig: blktune exited" tm_wait_file "$T_TMP/exit" 15
	t_eq "SIG$sig: exit status 0, everything restored" "$(cat "$T_TMP/exit" 2>/dev/null)" "EXIT=0"
	tm_stop
	pkill -f "^$T_TMP/slow-helper" 2>/dev/null
	[ "$(cat $q/read_ahead_kb)" = "$ra0" ] || echo "$ra0" >$q/read_ahead_kb
done
t_done
