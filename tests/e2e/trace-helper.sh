#!/usr/bin/env bash
# The BPF objects load in a helper process (bpf-loader): when it fails, the
# header (and for the readahead mode the status line, or batch's error) says
# why in one line, and blktune goes on untraced. When it works, the helper is
# gone (reaped) and tracing stays on. BLKTUNE_BPF_HELPER swaps the helper for
# a script that dies. Needs root (BPF) and tmux.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
trap 'tm_stop; t_cleanup' EXIT

printf '#!/bin/sh\nkill -9 $$\n' >"$T_TMP/killed"
printf '#!/bin/sh\nexit 3\n' >"$T_TMP/exits"
chmod +x "$T_TMP/killed" "$T_TMP/exits"

tm_start "BLKTUNE_BPF_HELPER='$T_TMP/killed' '$BLKTUNE' -d 0.5 --journal-dir '$T_TMP/j'; sleep 30"
t_check "helper killed: the table is drawn" tm_wait "^DEVICE" 5
t_check "helper killed: the header says so" tm_wait "trace BPF helper killed by signal 9" 5
tm_keys R
t_check "readahead mode: the status line says why" tm_wait "readahead mode: BPF helper killed by signal 9" 5
tm_keys q
tm_stop

tm_start "BLKTUNE_BPF_HELPER='$T_TMP/exits' '$BLKTUNE' -d 0.5 --journal-dir '$T_TMP/j'; sleep 30"
t_check "helper exits: the header says so" tm_wait "trace BPF helper exited with status 3 and no reply" 5
tm_keys q
tm_stop

out=$(BLKTUNE_BPF_HELPER="$T_TMP/exits" "$BLKTUNE" -b --readahead -n 1 -d 0.2 --journal-dir "$T_TMP/j" 2>&1 >/dev/null)
t_eq "batch --readahead: one line on stderr" "$out" "blktune: BPF helper exited with status 3 and no reply"

# batch JSON says why it has no traced figures, as the header does; a run
# that traces says nothing of the kind
trace_off() { python3 -c 'import json, sys; print(*(json.loads(l).get("trace_off") for l in sys.stdin), sep="|")'; }
out=$(BLKTUNE_BPF_HELPER="$T_TMP/exits" "$BLKTUNE" -b --json -n 2 -d 0.2 --journal-dir "$T_TMP/j" 2>/dev/null | trace_off)
t_eq "batch JSON: trace_off says why, in every report" "$out" \
	"BPF helper exited with status 3 and no reply|BPF helper exited with status 3 and no reply"
out=$("$BLKTUNE" -b --json -n 1 --no-trace --journal-dir "$T_TMP/j" 2>/dev/null | trace_off)
t_eq "batch JSON --no-trace: trace_off" "$out" "off (--no-trace)"
out=$("$BLKTUNE" -b --json -n 2 -d 0.2 --journal-dir "$T_TMP/j" 2>/dev/null | trace_off)
t_eq "batch JSON, tracing: no trace_off" "$out" "None|None"

# The real helper: tracing on, the helper reaped, no child left behind.
tm_start "'$BLKTUNE' -d 0.5 --journal-dir '$T_TMP/j'; sleep 30"
t_check "real helper: tracing comes on" tm_wait "trace on" 10
pid=$(pgrep -f -n -x "$BLKTUNE -d 0.5 --journal-dir $T_TMP/j")
t_check "blktune found" test -n "$pid"
t_eq "no helper left (reaped, not a zombie)" "$(ps -o pid= --ppid "$pid" | wc -l)" 0
tm_keys R
t_check "readahead mode loads through the helper" tm_wait "readahead mode on" 30
t_eq "still no helper left" "$(ps -o pid= --ppid "$pid" | wc -l)" 0
tm_keys q
tm_stop
t_done
