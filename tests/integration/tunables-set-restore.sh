#!/usr/bin/env bash
# Every writable tunable of a loop device made here is changed through
# blktune --set (validation, journal, write, read back), then blktune --restore
# puts every queue/* value back. Also checks what kernel 6.18 does with odd values.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tunables-lib.bash"
t_need_root
[ -n "$T_CLI" ] || { t_fail "build/blktune is not built"; t_done; exit 1; }

t_loop_create 64 || t_skip "cannot create a loop device"
dev=$T_LOOP
n=${dev#/dev/}
q=/sys/block/$n/queue
t_queue_snapshot "$n" > "$T_TMP/before"

# set NAME VALUE EXPECT_IN_SYSFS [WORDS_IN_OUTPUT]
set_ok() {
	local out
	out=$(tcli --set "$n:$1=$2" 2>&1)
	t_eq "set $1=$2: exit status" "$?" 0
	t_eq "set $1=$2: sysfs" "$(cat "$q/$1")" "$3"
	if [ -n "${4:-}" ]; then
		case $out in *"$4"*) t_ok "set $1=$2 says '$4'" ;; *) t_fail "set $1=$2 output: $out" ;; esac
	fi
}
# refuse SPEC WORDS: exit 2 (checked before any write), message, nothing changed
refuse() {
	local out before=$(t_queue_snapshot "$n")
	out=$(tcli --set "$1" 2>&1)
	t_eq "refuse $1: exit status" "$?" 2
	case $out in *"$2"*) t_ok "refuse $1 says '$2'" ;; *) t_fail "refuse $1 output: $out" ;; esac
	if [ "$(t_queue_snapshot "$n")" = "$before" ]; then t_ok "refuse $1: queue unchanged"
	else t_fail "refuse $1: queue changed"; fi
}

set_ok read_ahead_kb 4096 4096 "(files opened before keep the old value)"
set_ok read_ahead_kb 3 0 "asked 3, kernel set 0"
set_ok read_ahead_kb 5 4 "asked 5, kernel set 4"
hw=$(cat "$q/max_hw_sectors_kb")
set_ok max_sectors_kb 256 256
refuse "$n:max_sectors_kb=$((hw + 1))" "above the device's limit ($hw, the device's max_hw_sectors_kb)"
# The limit is the tag depth with scheduler none, the kernel's 2048 with a
# scheduler (a reused loop device keeps the scheduler its last user chose).
if grep -q '\[none\]' "$q/scheduler"; then
	depth=$(cat "/sys/block/$n/mq/0/nr_tags")
else
	depth=2048
fi
set_ok nr_requests 64 64
set_ok nr_requests 4 4
# below 4 the kernel would set 4 (BLKDEV_MIN_RQ): refused, as the range says
refuse "$n:nr_requests=3" "nr_requests 3 refused: below the minimum 4"
refuse "$n:nr_requests=100000" "nr_requests 100000 refused: above the device's limit ($depth"
set_ok rq_affinity 2 2
set_ok rq_affinity 0 0
refuse "$n:rq_affinity=3" "above the maximum 2"
set_ok nomerges 2 2
refuse "$n:nomerges=5" "above the maximum 2"
set_ok wbt_lat_usec 5000 5000
out=$(tcli --set "$n:wbt_lat_usec=-1" 2>&1)
t_eq "wbt_lat_usec=-1 accepted" "$?" 0
case $out in *"asked -1 = the kernel's default"*) t_ok "wbt_lat_usec -1 reported as the default ($(cat "$q/wbt_lat_usec"))" ;;
	*) t_fail "wbt_lat_usec=-1 output: $out" ;; esac
refuse "$n:wbt_lat_usec=-2" "below the minimum -1"
set_ok add_random 1 1
set_ok iostats 0 0
set_ok iostats 1 1
refuse "$n:write_cache=write through" "read-only"
refuse "$n:scheduler=foo" "not one of"
refuse "$n:read_ahead_kb=abc" "not a number"
refuse "$n:read_ahead_kb=-1" "negative"
refuse "../$n:read_ahead_kb=128" "not a block device name"
refuse "nosuchdev0:read_ahead_kb=128" "no block device nosuchdev0"

# Schedulers and their parameters (queue/iosched/ changes with the scheduler).
for s in mq-deadline kyber bfq; do
	# a scheduler built as a module shows up once loaded; bfq's parameters
	# are also in the table tests (tests/unit/test-tunable-table.c)
	if ! t_have_sched "$s" "$q"; then
		t_absent "scheduler $s ($(cat "$q/scheduler")): its parameters untested here"
		continue
	fi
	out=$(tcli --set "$n:scheduler=$s" 2>&1)
	t_eq "scheduler=$s" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" "$s"
	case $s in
	mq-deadline)
		set_ok iosched/fifo_batch 32 32
		set_ok iosched/read_expire 1 4 "asked 1, kernel set 4" # jiffies at HZ=250
		set_ok iosched/write_expire 2000 2000
		set_ok iosched/front_merges 0 0
		set_ok iosched/writes_starved 4 4
		set_ok iosched/prio_aging_expire 8000 8000
		out=$(tcli --set "$n:nr_requests=64" 2>&1)
		case $out in *"kernel also set iosched/async_depth"*) t_ok "nr_requests also moves async_depth" ;;
			*) t_fail "nr_requests under mq-deadline: $out" ;; esac
		set_ok iosched/async_depth 32 32
		refuse "$n:iosched/read_expire=2147483647" "above the maximum"
		;;
	kyber)
		set_ok iosched/read_lat_nsec 1000000 1000000
		set_ok iosched/write_lat_nsec 5000000 5000000
		;;
	bfq)
		set_ok iosched/slice_idle 0 0
		set_ok iosched/low_latency 0 0
		set_ok iosched/back_seek_max 8192 8192
		set_ok iosched/timeout_sync 200 200
		set_ok nr_requests 1024 1024
		;;
	esac
done
refuse "$n:iosched/no_such_knob=1" "has no iosched/no_such_knob"

# Several specs are all checked before any is written, each under the
# scheduler the ones before it set: under none nr_requests may not pass the
# hardware queue depth (mq/*/nr_tags), so from mq-deadline "scheduler=none
# nr_requests=2048" is refused whole, nothing written or journaled.
if t_have_sched mq-deadline "$q"; then
	tcli --set "$n:scheduler=mq-deadline" >/dev/null 2>&1
	tags=$(sort -n /sys/block/"$n"/mq/*/nr_tags | head -1)
	before=$(t_queue_snapshot "$n")
	jbefore=$(cat "$T_JDIR/journal" 2>/dev/null)
	out=$(tcli --set "$n:scheduler=none" --set "$n:nr_requests=2048" 2>&1)
	t_eq "scheduler=none nr_requests=2048: exit status" "$?" 2
	t_eq "scheduler=none nr_requests=2048: one line" "$out" "blktune: --set $n:nr_requests=2048: $n nr_requests \
2048 refused: above the device's limit ($tags, the hardware queue depth, scheduler none); nothing changed"
	t_check "scheduler=none nr_requests=2048: queue unchanged" [ "$(t_queue_snapshot "$n")" = "$before" ]
	t_check "scheduler=none nr_requests=2048: nothing journaled" [ "$(cat "$T_JDIR/journal" 2>/dev/null)" = "$jbefore" ]
	out=$(tcli --set "$n:scheduler=none" --set "$n:iosched/fifo_batch=8" 2>&1)
	t_eq "scheduler=none then a parameter: exit status" "$?" 2
	case $out in *"has no iosched/fifo_batch under scheduler none; nothing changed") t_ok "a parameter of no scheduler refused first" ;;
		*) t_fail "scheduler=none then a parameter: $out" ;; esac
	t_check "scheduler=none then a parameter: queue unchanged" [ "$(t_queue_snapshot "$n")" = "$before" ]
	out=$(tcli --set "$n:scheduler=none" --set "$n:nr_requests=$tags" 2>&1)
	t_eq "scheduler=none nr_requests=$tags: exit status" "$?" 0
	t_eq "scheduler=none nr_requests=$tags: sysfs" "$(cat "$q/nr_requests")" "$tags"
else
	t_absent "mq-deadline ($(cat "$q/scheduler")): --set checked under a scheduler not in force"
fi
# A write refused when it is made (a parameter not in the table, of a
# scheduler an earlier spec selects) stops there: those before stay applied
# and journaled, the rest are not tried, and stderr says so.
if t_have_sched kyber "$q"; then
	tcli --set "$n:scheduler=none" --set "$n:read_ahead_kb=128" --set "$n:nomerges=0" >/dev/null 2>&1
	out=$(tcli --set "$n:read_ahead_kb=256" --set "$n:scheduler=kyber" --set "$n:iosched/no_such_knob=1" \
		--set "$n:nomerges=1" 2>&1)
	t_eq "stopped at a refused write: exit status" "$?" 1
	case $out in *"blktune: --set stopped at $n:iosched/no_such_knob=1: the 2 before it stay applied (blktune --restore puts them back), the 1 after it were not tried"*)
		t_ok "stopped at a refused write: says what stays and what was not tried" ;;
		*) t_fail "stopped at a refused write: $out" ;; esac
	t_eq "stopped at a refused write: read_ahead_kb stays" "$(cat "$q/read_ahead_kb")" 256
	t_eq "stopped at a refused write: scheduler stays" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" kyber
	t_eq "stopped at a refused write: nomerges not tried" "$(cat "$q/nomerges")" 0
	case $out in *"originals kept in $T_JDIR/journal"*) t_ok "stopped at a refused write: originals journaled" ;;
		*) t_fail "stopped at a refused write, journal: $out" ;; esac
else
	t_absent "kyber ($(cat "$q/scheduler")): --set stopped by a refused write"
fi
out=$(tcli --set "$n:read_ahead_kb" 2>&1)
t_eq "malformed spec: exit status 2" "$?" 2
out=$(tcli --set "$n:read_ahead_kb=$(printf '1%.0s' {1..300})" 2>&1)
t_eq "a 300-byte value: exit status 2" "$?" 2
case $out in *"longer than blktune takes"*) t_ok "a 300-byte value: says it is too long" ;;
	*) t_fail "a 300-byte value: $out" ;; esac

t_check "journal pending before --restore" [ -s "$T_JDIR/journal" ]
out=$(tcli --restore 2>&1)
t_eq "--restore exit status" "$?" 0
case $out in *"$n scheduler"*"restored"*) t_ok "--restore prints each value" ;; *) t_fail "--restore output: $out" ;; esac
t_queue_snapshot "$n" > "$T_TMP/after"
if diff "$T_TMP/before" "$T_TMP/after" > "$T_TMP/diff"; then
	t_ok "every queue/* value is back"
else
	t_fail "queue/* differs after --restore: $(cat "$T_TMP/diff")"
fi
t_check "journal removed after a full restore" [ ! -e "$T_JDIR/journal" ]
out=$(tcli --restore 2>&1)
t_eq "--restore with nothing pending" "$?" 0
t_done
