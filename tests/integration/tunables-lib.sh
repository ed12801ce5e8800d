# Shared by tests/integration/tunables-*.sh (sourced after tests/lib.sh).
# T_CLI runs blktune's --set/--restore code path: the real binary once main()
# knows --set, else build/tunable-cli (the same cli-tunable.c functions).
if "$BLKTUNE" --help 2>&1 | grep -q -- '--set'; then
	T_CLI=$BLKTUNE
elif [ -x "$T_TOP/build/tunable-cli" ]; then
	T_CLI=$T_TOP/build/tunable-cli
else
	T_CLI=
fi
T_JDIR=$T_TMP/journal

tcli() { "$T_CLI" --journal-dir "$T_JDIR" "$@"; }

# Every readable file of a device's queue/ (and queue/iosched/), "name=value".
t_queue_snapshot() {
	local q=/sys/block/$1/queue f
	for f in "$q"/* "$q"/iosched/*; do
		[ -f "$f" ] && [ -r "$f" ] && printf '%s=%s\n' "${f#"$q"/}" "$(cat "$f" 2>/dev/null)"
	done
}
