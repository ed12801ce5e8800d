#!/usr/bin/env bash
# An idle traced device (no traced event since the last sample) has no
# figures of an interval: the table's t_avg_us says - (traced, nothing in the
# interval; n/a is for a device not traced at all), the size page says
# there was no traced I/O, batch JSON has "traced": true and no histograms,
# never the last busy interval's latency. A busy one always shows its
# latency, again as soon as I/O resumes (issue 10: the idle shortcut once
# showed a busy device as n/a).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
command -v python3 >/dev/null || t_skip "needs python3"
t_loop_create 64 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
load=
start_load() { # direct 4 KiB reads for as long as needed (bounded: 300 rounds)
	(for _ in $(seq 300); do dd if="$dev" of=/dev/null bs=4k count=2000 iflag=direct status=none || break; done) &
	load=$!
}
stop_load() {
	[ -n "$load" ] || return 0
	pkill -P "$load" 2>/dev/null
	kill "$load" 2>/dev/null
	wait "$load" 2>/dev/null
	load=
}
trap 'tm_stop; stop_load; t_cleanup' EXIT
# udev's probe of the new device is I/O too: wait until it has none
udevadm settle 2>/dev/null
still() { local a; a=$(cat "/sys/block/$name/stat"); sleep 0.5; [ "$a" = "$(cat "/sys/block/$name/stat")" ]; }
t_until 10 still || t_skip "$name does not go idle"

# batch: reads in the first intervals, then none. Every report after the
# first busy one in which diskstats saw no I/O has the device traced and
# nothing derived (the programs know the device by then: what is checked is
# an idle interval, not a device never seen); every report with reads has a
# latency.
"$BLKTUNE" -b --json -n 14 -d 0.3 -p "$name" --journal-dir "$T_TMP/j1" >"$T_TMP/b.json" 2>"$T_TMP/b.err" &
bpid=$!
tm_wait_file "$T_TMP/b.json" 10
dd if="$dev" of=/dev/null bs=4k count=3000 iflag=direct status=none
wait "$bpid"
grep -q '"traced": true' "$T_TMP/b.json" || t_skip "tracing unavailable here: $(head -c 200 "$T_TMP/b.err")"
python3 -c '
import json, sys
busy = idle = 0
seen = False
for n, line in enumerate(open(sys.argv[1])):
    if not line.strip() or n == 0:
        continue
    d = [d for d in json.loads(line)["disk"] if d["disk_device"] == sys.argv[2]][0]
    if d["r/s"] > 0:
        seen = True
        busy += 1
        if not (d["traced"] is True and isinstance(d.get("lat_avg_us"), (int, float)) and d["lat_avg_us"] > 0):
            sys.exit("report %d: reads without a latency: %s" % (n, line[:300]))
    elif seen and d["w/s"] == 0:
        idle += 1
        if d["traced"] is not True or any(k in d for k in ("lat_hist_us", "rq_size_hist", "lat_avg_us")):
            sys.exit("report %d: idle with figures: %s" % (n, json.dumps(d)[:400]))
print("%d %d" % (busy, idle))' "$T_TMP/b.json" "$name" >"$T_TMP/counts" 2>"$T_TMP/why"
t_check "batch: busy reports have a latency, idle ones traced and nothing derived ($(cat "$T_TMP/why"))" \
	test -s "$T_TMP/counts"
read -r busy idle <"$T_TMP/counts"
t_check "batch: both kinds were seen (busy ${busy:-0}, idle ${idle:-0})" test "${busy:-0}" -ge 1 -a "${idle:-0}" -ge 2

# the TUI: busy, then idle, then busy again
start_load
TM_W=200 tm_start "'$BLKTUNE' -d 0.5 -p $name --journal-dir '$T_TMP/j3'; sleep 60"
tm_wait "^DEVICE" 5 || t_fail "the device table came up"
t_check "tracing is on" tm_wait "trace on" 10
cell() { tm_cell "$name" "$1"; }
lat_shown() { awk -v v="$(cell t_avg_us)" 'BEGIN { exit !(v ~ /^[0-9.]+k?$/ && v + 0 > 0) }'; }
lat_none() { [ "$(cell t_avg_us)" = "-" ]; }
t_until 10 lat_shown
t_check "busy: the traced mean latency is shown ($(cell t_avg_us) us)" lat_shown
# shown on every refresh while busy, not now and then: 6 screens, 0.5 s apart
shown=0
for _ in 1 2 3 4 5 6; do
	lat_shown && shown=$((shown + 1))
	sleep 0.5
done
t_eq "busy: latency on every screen of 6" "$shown" 6
stop_load
t_check "idle: t_avg_us is -, not the last busy figure" t_until 5 lat_none
t_eq "idle: still traced (not n/a)" "$(cell t_avg_us)" "-"
tm_keys Tab
t_check "idle: the size page says there was no traced I/O" \
	tm_wait "no traced I/O on this device in the last interval" 3
start_load
t_until 5 lat_shown
t_check "busy again: the latency is back ($(cell t_avg_us) us)" lat_shown
stop_load
tm_keys q
t_done
