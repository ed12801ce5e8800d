#!/usr/bin/env bash
# kill -9 in the middle of a tuning session, then blktune --restore: every
# queue/* value of the loop device equals its value before the session. The
# kill lands at a different point each round (between journal and write, in
# the middle of a scheduler switch, during a restore): the invariant must hold
# wherever it lands, because each original is fsynced before its change.
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
		--set "$n:scheduler=bfq" --set "$n:iosched/slice_idle=$round"
		--set "$n:scheduler=kyber" --set "$n:iosched/read_lat_nsec=$((round * 500000))"
		--set "$n:nr_requests=$((32 * round))")
done

delays="0.005 0.01 0.02 0.03 0.05 0.08 0.12 0.2"
for d in $delays; do
	# The binary itself in the background (a function would fork a subshell
	# and the kill would hit the subshell, not blktune).
	"$T_CLI" --journal-dir "$T_JDIR" "${specs[@]}" > "$T_TMP/session.log" 2>&1 &
	pid=$!
	sleep "$d"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	changed=$(t_queue_snapshot "$n" | diff "$T_TMP/before" - | grep -c '^>')
	cp "$T_JDIR/journal" "$T_TMP/journal.killed" 2>/dev/null || : > "$T_TMP/journal.killed"
	tcli --restore > "$T_TMP/restore.log" 2>&1
	t_eq "killed after ${d}s ($changed values changed): --restore exit status" "$?" 0
	if t_queue_snapshot "$n" | diff "$T_TMP/before" - > "$T_TMP/diff"; then
		t_ok "killed after ${d}s: every queue/* value is back"
	else
		t_fail "killed after ${d}s: $(tr '\n' ' ' < "$T_TMP/diff")"
		sed 's/^/# journal: /' "$T_TMP/journal.killed"
		sed 's/^/# restore: /' "$T_TMP/restore.log"
	fi
done

# A session that completes, then a restore killed halfway: restoring again finishes the job.
tcli "${specs[@]}" > "$T_TMP/session.log" 2>&1
if t_queue_snapshot "$n" | diff -q "$T_TMP/before" - > /dev/null; then
	t_fail "the full session changed nothing"
else
	t_ok "the full session changed the device"
fi
"$T_CLI" --journal-dir "$T_JDIR" --restore > "$T_TMP/restore.log" 2>&1 &
pid=$!
sleep 0.005
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
tcli --restore > "$T_TMP/restore.log" 2>&1
t_eq "second --restore after a killed one" "$?" 0
if t_queue_snapshot "$n" | diff "$T_TMP/before" - > "$T_TMP/diff"; then
	t_ok "after a killed restore, every queue/* value is back"
else
	t_fail "after a killed restore: $(tr '\n' ' ' < "$T_TMP/diff")"
fi
t_check "journal removed" [ ! -e "$T_JDIR/journal" ]
t_done
