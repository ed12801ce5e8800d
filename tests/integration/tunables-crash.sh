#!/usr/bin/env bash
# kill -9 in the middle of a tuning session, then blktune --restore: every
# queue/* value of the loop device equals its value before the session. The
# kill lands at a different point each round (between journal and write, in
# the middle of a scheduler switch, during a restore), picked from the
# session's progress (journal, sysfs); the invariant must hold wherever it
# lands, because each original is fsynced before its change.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tunables-lib.bash"
t_need_root
[ -n "$T_CLI" ] || { t_fail "build/blktune is not built"; t_done; exit 1; }

t_loop_create 64 || t_skip "cannot create a loop device"
n=$(basename "$T_LOOP")
q=/sys/block/$n/queue
t_queue_snapshot "$n" > "$T_TMP/before"

# A long session touching every writable tunable, schedulers and their parameters.
specs=()
for round in 1 2 3; do
	specs+=(--set "$n:scheduler=mq-deadline" --set "$n:iosched/fifo_batch=$((8 * round))"
		--set "$n:nr_requests=$((64 * round))" --set "$n:read_ahead_kb=$((1024 * round))"
		--set "$n:max_sectors_kb=$((128 * round))" --set "$n:rq_affinity=$((round % 3))"
		--set "$n:nomerges=$(((round + 1) % 3))" --set "$n:wbt_lat_usec=$((round * 3000))"
		--set "$n:add_random=$((round % 2))" --set "$n:iostats=$(((round + 1) % 2))"
		--set "$n:scheduler=kyber" --set "$n:iosched/write_lat_nsec=$((round * 1000000))"
		--set "$n:scheduler=none"
		--set "$n:scheduler=kyber" --set "$n:iosched/read_lat_nsec=$((round * 500000))"
		--set "$n:nr_requests=$((32 * round))")
done

# Kill points come from the session's own progress, not from delays (which
# land elsewhere on a faster or busier machine): the journal's Nth original
# is on disk, or the device shows a value the session is known to write at
# that step. The polls use only shell builtins (no fork) so they see states
# that last a few hundred microseconds.
journal_has() { # N: at least N originals in the journal
	local l c=0
	[ -e "$T_JDIR/journal" ] || return 1
	{ mapfile -t l <"$T_JDIR/journal"; } 2>/dev/null || return 1
	for x in "${l[@]}"; do [[ $x == orig\ * ]] && c=$((c + 1)); done
	[ "$c" -ge "$1" ]
}
sysfs_is() { # FILE GLOB (brackets escaped: \[kyber\])
	local v
	{ read -r v <"$q/$1"; } 2>/dev/null && [[ $v == $2 ]]
}
# at DESC COND...: start the session, busy-poll COND (at most 20 s), kill -9.
at() {
	local desc=$1 alive changed end=$((SECONDS + 20))
	shift
	"$T_CLI" --journal-dir "$T_JDIR" "${specs[@]}" > "$T_TMP/session.log" 2>&1 &
	pid=$!
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] && kill -0 "$pid" 2>/dev/null || break
	done
	kill -9 "$pid" 2>/dev/null && alive=1 || alive=0
	wait "$pid" 2>/dev/null
	t_check "killed at '$desc' while the session ran" test "$alive" = 1
	changed=$(t_queue_snapshot "$n" | diff "$T_TMP/before" - | grep -c '^>')
	cp "$T_JDIR/journal" "$T_TMP/journal.killed" 2>/dev/null || : > "$T_TMP/journal.killed"
	tcli --restore > "$T_TMP/restore.log" 2>&1
	t_eq "killed at '$desc' ($changed values changed): --restore exit status" "$?" 0
	if t_queue_snapshot "$n" | diff "$T_TMP/before" - > "$T_TMP/diff"; then
		t_ok "killed at '$desc': every queue/* value is back"
	else
		t_fail "killed at '$desc': $(tr '\n' ' ' < "$T_TMP/diff")"
		sed 's/^/# journal: /' "$T_TMP/journal.killed"
		sed 's/^/# restore: /' "$T_TMP/restore.log"
	fi
}
at "first original journaled" journal_has 1
at "2 originals journaled" journal_has 2
at "5 originals journaled" journal_has 5
at "8 originals journaled" journal_has 8
at "round 1, switched to kyber" sysfs_is scheduler '*\[kyber\]*'
at "round 1, kyber's write_lat_nsec 1 ms" sysfs_is iosched/write_lat_nsec 1000000
at "round 1, kyber again, read_lat_nsec 0.5 ms" sysfs_is iosched/read_lat_nsec 500000
at "round 2, read_ahead_kb 2048" sysfs_is read_ahead_kb 2048
at "round 3, fifo_batch 24" sysfs_is iosched/fifo_batch 24

# A session that completes, then a restore killed halfway: restoring again finishes the job.
tcli "${specs[@]}" > "$T_TMP/session.log" 2>&1
if t_queue_snapshot "$n" | diff -q "$T_TMP/before" - > /dev/null; then
	t_fail "the full session changed nothing"
else
	t_ok "the full session changed the device"
fi
# killed once the restore has put the scheduler back (its first step)
sched0=$(sed -n 's/^scheduler=//p' "$T_TMP/before")
sched0=${sched0#*[}
sched0=${sched0%%]*}
"$T_CLI" --journal-dir "$T_JDIR" --restore > "$T_TMP/restore.log" 2>&1 &
pid=$!
end=$((SECONDS + 20))
until sysfs_is scheduler "*\\[$sched0\\]*"; do
	[ "$SECONDS" -lt "$end" ] && kill -0 "$pid" 2>/dev/null || break
done
kill -9 "$pid" 2>/dev/null && alive=1 || alive=0
wait "$pid" 2>/dev/null
t_check "the restore was killed halfway (scheduler back to $sched0)" test "$alive" = 1
tcli --restore > "$T_TMP/restore.log" 2>&1
t_eq "second --restore after a killed one" "$?" 0
if t_queue_snapshot "$n" | diff "$T_TMP/before" - > "$T_TMP/diff"; then
	t_ok "after a killed restore, every queue/* value is back"
else
	t_fail "after a killed restore: $(tr '\n' ' ' < "$T_TMP/diff")"
fi
t_check "journal removed" [ ! -e "$T_JDIR/journal" ]
t_done
