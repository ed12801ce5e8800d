# Shared by tests/integration/tunables-*.sh (sourced after tests/lib.sh).
# T_CLI: the blktune binary's --set/--restore code path.
T_CLI=
[ -x "$BLKTUNE" ] && T_CLI=$BLKTUNE
T_JDIR=$T_TMP/journal

tcli() { "$T_CLI" --journal-dir "$T_JDIR" "$@"; }

# Every readable file of a device's queue/ (and queue/iosched/), "name=value".
t_queue_snapshot() {
	local q=/sys/block/$1/queue f
	for f in "$q"/* "$q"/iosched/*; do
		[ -f "$f" ] && [ -r "$f" ] && printf '%s=%s\n' "${f#"$q"/}" "$(cat "$f" 2>/dev/null)"
	done
}
