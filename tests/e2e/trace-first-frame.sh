#!/usr/bin/env bash
# First frame first: the TUI draws from diskstats and sysfs before the BPF
# tracer has loaded (it loads in a thread; BLKTUNE_TRACE_LOAD_DELAY_MS holds
# the load back 4 s here so the window can be seen), the header says "tracer
# loading", keys work meanwhile, and tracing comes on by itself afterwards.
# Batch mode loads first, as before. Needs root (BPF) and tmux.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
trap 'tm_stop; t_cleanup' EXIT

tm_start "BLKTUNE_TRACE_LOAD_DELAY_MS=4000 '$BLKTUNE' -d 0.5 --journal-dir '$T_TMP/j'; sleep 30"
t_check "the device table is drawn at once" tm_wait "^DEVICE" 2
t_check "the header says the tracer is loading" tm_wait "tracer loading" 1
tm_keys '?'
t_check "keys work while it loads (? opens help)" tm_wait "^Everywhere (? or Esc closes help" 1
t_check "still loading then" tm_wait "tracer loading" 1
tm_keys Escape
t_check "back to the table" tm_wait "^DEVICE" 1
t_check "tracing comes on by itself" tm_wait "trace on" 8
t_check "the loading note is gone" bash -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q 'tracer loading'"
tm_keys q
tm_stop

# Batch mode is unchanged: its first report is already traced.
BLKTUNE_TRACE_LOAD_DELAY_MS=4000 "$BLKTUNE" -b --json -n 1 -d 0.2 --journal-dir "$T_TMP/j2" >"$T_TMP/b.json" 2>&1
t_check "batch: traced from the first report" grep -q '"traced": true' "$T_TMP/b.json"
t_done
