#!/usr/bin/env bash
# Failure paths of --set and --restore on a loop device made here:
#  - each original is in the journal and fsynced (and the journal's directory
#    too, when the file is new) before its sysfs write, seen in a syscall
#    trace (kill -9 keeps the page cache, so only the order proves it);
#  - a restore of a value refused for good is reported with its journal
#    line, exits non-zero and is kept aside in journal.rejected (it does not
#    block the journal: the next --restore has nothing left, a later --set
#    journals the real original), while the other entries are restored.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tunables-lib.bash"
t_need_root
[ -n "$T_CLI" ] || { t_fail "build/blktune is not built"; t_done; exit 1; }
t_loop_create 64 || t_skip "cannot create a loop device"
n=$(basename "$T_LOOP")
q=/sys/block/$n/queue
t_queue_snapshot "$n" >"$T_TMP/before"

# --- journal before change, in syscall order -------------------------------
# ordered TRACE: for every tunable written under queue/, its journal line was
# written and the journal fsynced before the first write; the directory fsync
# of a new journal comes before any sysfs write. Prints what is wrong.
ordered() {
	awk -v jf="$T_JDIR/journal" -v jd="$T_JDIR" '
	index($0, "write(") && index($0, "<" jf ">") {
		if (match($0, /"orig [^ ]+ [^ ]+ [^ ]+ [^ ]+ /)) {
			split(substr($0, RSTART + 1, RLENGTH - 1), f, " ")
			pending[f[5]] = 1
		}
		next
	}
	index($0, "fsync(") && index($0, "<" jf ">") { for (k in pending) { synced[k] = 1; delete pending[k] } next }
	index($0, "fsync(") && index($0, "<" jd ">") { dirsynced = 1; next }
	/write\([0-9]+<\/sys\/[^>]*\/queue\// {
		match($0, /\/queue\/[^>]*>/)
		name = substr($0, RSTART + 7, RLENGTH - 8)
		writes++
		if (!(name in synced)) { print "wrote " name " before its journal line was fsynced"; bad = 1 }
		if (!dirsynced) { print "wrote " name " before the new journal'"'"'s directory was fsynced"; bad = 1 }
	}
	END { if (!writes) { print "no sysfs write traced"; bad = 1 } exit bad }' "$1"
}

ra0=$(cat $q/read_ahead_kb)
if ! command -v strace >/dev/null; then
	t_subskip "strace missing (contrib/install-deps test installs it): journal order unchecked"
else
	strace -f -y -qq -s 256 -e trace=openat,write,fsync,fdatasync,rename,unlink -o "$T_TMP/set.trace" \
		"$T_CLI" --journal-dir "$T_JDIR" --set "$n:read_ahead_kb=$((ra0 * 2))" --set "$n:nomerges=1" \
		--set "$n:read_ahead_kb=$((ra0 * 4))" --set "$n:scheduler=mq-deadline" \
		--set "$n:iosched/fifo_batch=8" >"$T_TMP/set.log" 2>&1
	t_eq "traced --set exit status" "$?" 0
	t_eq "traced --set changed read_ahead_kb" "$(cat $q/read_ahead_kb)" $((ra0 * 4))
	t_check "the journal has each original" grep -q " nomerges $(sed -n 's/^nomerges=//p' "$T_TMP/before")\$" \
		"$T_JDIR/journal"
	if ordered "$T_TMP/set.trace" >"$T_TMP/order"; then
		t_ok "every original journaled and fsynced before its sysfs write ($(grep -c 'fsync(' "$T_TMP/set.trace") fsyncs)"
	else
		t_fail "journal order: $(tr '\n' ';' <"$T_TMP/order")"
		grep -E 'journal|/queue/' "$T_TMP/set.trace" | grep -v O_PATH | sed 's/^/# /' | head -60
	fi
	# The restore: each value is back in sysfs before the journal lets go of it.
	strace -f -y -qq -s 256 -e trace=openat,write,fsync,rename,renameat,renameat2,unlink,unlinkat \
		-o "$T_TMP/restore.trace" \
		"$T_CLI" --journal-dir "$T_JDIR" --restore >"$T_TMP/restore.log" 2>&1
	t_eq "traced --restore exit status" "$?" 0
	last_sysfs=$(grep -n 'write([0-9]*</sys/' "$T_TMP/restore.trace" | tail -n 1 | cut -d: -f1)
	# The journal goes by its name in the journal directory's descriptor.
	drop=$(grep -nE '(unlink|rename)(at2?)?\(.*"journal"' "$T_TMP/restore.trace" | head -n 1 | cut -d: -f1)
	t_check "the journal is dropped after the last sysfs write (lines ${last_sysfs:-none} < ${drop:-none})" \
		test -n "$last_sysfs" -a -n "$drop" -a "${drop:-0}" -gt "${last_sysfs:-0}"
fi
if t_queue_snapshot "$n" | diff "$T_TMP/before" - >"$T_TMP/diff"; then
	t_ok "every queue/* value back"
else
	t_fail "queue/* after restore: $(tr '\n' ' ' <"$T_TMP/diff")"
fi

# --- a restore of a value refused for good -----------------------------------
w0=$(cat $q/wbt_lat_usec)
ra0=$(cat $q/read_ahead_kb)
tcli --set "$n:wbt_lat_usec=$((w0 + 2000))" --set "$n:read_ahead_kb=$((ra0 * 2))" >"$T_TMP/set.log" 2>&1
t_eq "--set exit status" "$?" 0
t_eq "wbt_lat_usec changed" "$(cat $q/wbt_lat_usec)" $((w0 + 2000))
# The journal's original for wbt_lat_usec becomes a value that is refused
# (below -1: refused by the table, as --set refuses it; the kernel would say EINVAL).
sed -i "s/ wbt_lat_usec $w0\$/ wbt_lat_usec -5/" "$T_JDIR/journal"
t_check "journal entry edited" grep -q " wbt_lat_usec -5\$" "$T_JDIR/journal"
line=$(grep -n " wbt_lat_usec -5\$" "$T_JDIR/journal" | cut -d: -f1)
out=$(tcli --restore 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
t_eq "a refused restore exits 1" "$rc" 1
case $out in
*"journal line $line: $n wbt_lat_usec -5 not restored: -5 refused: below the minimum -1; kept aside in $T_JDIR/journal.rejected"*)
	t_ok "the refusal is reported with its journal line, the value and where it went" ;;
*) t_fail "refusal output: $out" ;;
esac
t_check "the refused entry is kept aside" grep -q "line $line: -5 refused: .* wbt_lat_usec -5\$" "$T_JDIR/journal.rejected"
t_check "and out of the journal (nothing else was left)" test ! -e "$T_JDIR/journal"
t_eq "the other entry is restored" "$(cat $q/read_ahead_kb)" "$ra0"
t_eq "the refused value did not land" "$(cat $q/wbt_lat_usec)" $((w0 + 2000))
out=$(tcli --restore 2>&1)
t_eq "restoring again: nothing left, exit 0" "$?" 0
t_eq "restoring again says so" "$out" "nothing to restore: no journal in $T_JDIR"
# A later change journals the real original (not the refused one).
tcli --set "$n:wbt_lat_usec=$((w0 + 4000))" >/dev/null 2>&1
t_check "a later --set journals the real original $((w0 + 2000))" grep -q " wbt_lat_usec $((w0 + 2000))\$" "$T_JDIR/journal"
tcli --restore >/dev/null 2>&1
t_eq "which --restore puts back" "$(cat $q/wbt_lat_usec)" $((w0 + 2000))
# Put our device back by hand.
echo "$w0" >$q/wbt_lat_usec
t_eq "wbt_lat_usec back" "$(cat $q/wbt_lat_usec)" "$w0"
t_done
