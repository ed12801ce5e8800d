#!/usr/bin/env bash
# The split latency page and the table on a bio-based device (zram0, used
# only when it exists and is unused, reset afterwards): no request queue, so
# no queue part. The table's q_p99_us and d_p99_us say n/a, the page's queue
# and device cells say n/a and a line says why, never zeros; the
# allocation-to-completion figure (here bio queue to completion) is still
# measured.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
z=/sys/block/zram0
[ -e $z ] || t_skip "no /sys/block/zram0 (zram module not loaded)"
[ "$(cat $z/disksize)" = 0 ] || t_skip "zram0 is in use (disksize $(cat $z/disksize))"
[ -z "$(ls $z/holders 2>/dev/null)" ] || t_skip "zram0 has holders"
grep -q '^/dev/zram0 ' /proc/swaps /proc/mounts && t_skip "zram0 is swap or mounted"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
echo 64M > $z/disksize || t_skip "cannot size zram0"
load=
# The load's running dd keeps zram0 open after its loop is killed, and a
# reset of an open zram fails (EBUSY): stop both, and retry the reset while
# a dd started between the two kills finishes (bounded: 5 s).
zram_reset() {
	local i
	for i in $(seq 50); do
		{ echo 1 > $z/reset; } 2>/dev/null && return 0
		sleep 0.1
	done
	echo "# zram0 could not be reset: $(cat $z/disksize) bytes still set" >&2
}
stop_load() {
	[ -n "$load" ] || return 0
	pkill -P "$load" 2>/dev/null
	kill "$load" 2>/dev/null
	wait 2>/dev/null
	load=
}
trap 'tm_stop; stop_load; zram_reset; t_cleanup' EXIT
dd if=/dev/zero of=/dev/zram0 bs=1M count=64 oflag=direct status=none
# reads for as long as the test runs: bounded by time (60 s) and count
# (20000 rounds), not by count alone: 600 rounds of 4000 reads were over in
# about 3 s on a faster machine, before the table was looked at.
(end=$((SECONDS + 60))
for i in $(seq 20000); do
	[ "$SECONDS" -lt "$end" ] || break
	dd if=/dev/zram0 of=/dev/null bs=4k count=4000 iflag=direct status=none || break
done) &
load=$!

TM_W=200 tm_start "'$BLKTUNE' -d 0.5 -p zram0; sleep 30"
tm_wait "^DEVICE" 5 || t_fail "the device table came up"
t_check "tracing is on" tm_wait "trace on" 5
cell() { tm_cell zram0 "$1"; }
# a number (zram's reads can take under half a microsecond: "0"), and a p99
# bucket above 0
lat_shown() {
	awk -v v="$(cell t_avg_us)" -v p="$(cell t_p99_us)" \
		'BEGIN { exit !(v ~ /^[0-9.]+k?$/ && p ~ /^[0-9.]+k?$/ && p + 0 > 0) }'
}
t_check "the traced latency is measured (mean $(cell t_avg_us) us, p99 $(cell t_p99_us) us)" t_until 5 lat_shown
t_eq "table: q_p99_us is n/a (no queue part)" "$(cell q_p99_us)" "n/a"
t_eq "table: d_p99_us is n/a" "$(cell d_p99_us)" "n/a"
tm_keys d
tm_keys Tab
tm_keys Tab
t_check "Tab twice: where the time goes" tm_wait "where the time goes" 2
t_check "the page says why there is no split" tm_wait "bio-based device (zram, dm, md): no request queue, so no queue part" 2
# (basic regular expressions: "|" is literal)
na="  *n/a"
t_check "reads: counted, alloc> measured, queue and device n/a" \
	tm_wait "^read  *[1-9][0-9]*  *[0-9][0-9]*  *|$na$na$na$na  *|$na$na$na$na  *| n/a" 3
t_check "no row shows a zero queue time" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q '^read .*|  *0  *0 '"
tm_keys q
t_done
