#!/usr/bin/env bash
# --trace-processes keeps the requests of a process that exits within the
# interval. A quick dd (300 direct 4 KiB reads, a few tens of ms) starts
# right after a report and has exited before the next sample's /proc walk:
# before this, its pair was read and deleted and the process was in no
# walk, so no row had its requests while the device and the cgroup view
# counted them. blktune -b --json --top-processes --cgroups
# --trace-processes -d 1 runs on a loop device this test creates; in the
# report after the dd
#  - a row with the dd's PID says "exited": true (in one report only: the
#    pair is deleted), its command "dd", and the
#    /proc figures it no longer has as null (not 0): user, rbytes, rbytes_s;
#  - its pair on the device has read_requests 300 (diskstats' reads over
#    the dd) and a rate of them over the interval.
# Needs root (BPF), jq.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v jq >/dev/null || t_skip "no jq"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
N=300
t_loop_create 64 || t_skip "no loop device"
dev=$T_LOOP
name=${dev#/dev/}
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
sleep 0.3
"$BLKTUNE" -b --json --top-processes --cgroups --trace-processes -d 1 -n 6 -p "$name" > "$T_TMP/out.json" \
	2> "$T_TMP/err" &
bpid=$!
reports() { grep -c '^{' "$T_TMP/out.json" 2>/dev/null || true; }
t_until 20 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json' 2>/dev/null) -ge 2 ]" || { cat "$T_TMP/err"; t_fail "blktune reports"; }
n0=$(reports)
t_until 5 sh -c "[ \$(grep -c '^{' '$T_TMP/out.json') -gt $n0 ]" || t_fail "a third report"
r0=$(awk -v n="$name" '$3 == n { print $4 }' /proc/diskstats)
dd if="$dev" of=/dev/null bs=4k count=$N iflag=direct status=none &
dpid=$!
wait "$dpid" || t_fail "dd ran"
r1=$(awk -v n="$name" '$3 == n { print $4 }' /proc/diskstats)
wait "$bpid" || { cat "$T_TMP/err"; t_fail "blktune ran"; }
t_eq "diskstats: the dd's reads" "$((r1 - r0))" "$N"
# (a stalled machine may have seen the dd alive in one walk: then it is an
# ordinary row first and the exited one next)
rows=$(jq -c --argjson p "$dpid" '.processes.rows[] | select(.pid == $p and .exited == true)' "$T_TMP/out.json")
t_eq "the dd is an exited row in one report" "$(grep -c . <<< "$rows")" 1
row=$(head -1 <<< "$rows")
echo "# $row"
t_eq "named by its pair's comm" "$(jq -r .command <<< "$row")" dd
t_eq "its /proc figures unknown, not 0" "$(jq -c '[.user, .rbytes, .rbytes_s]' <<< "$row")" "[null,null,null]"
t_eq "its read requests on the device" \
	"$(jq -r --arg d "$name" '.devices[] | select(.device == $d) | .read_requests' <<< "$row")" "$N"
rate=$(jq -r --arg d "$name" '.devices[] | select(.device == $d) | .read_requests_s' <<< "$row")
t_check "with a rate in the interval ($rate)" awk -v r="$rate" 'BEGIN { exit !(r + 0 > 0) }'
t_done
