# Helpers for the trace-*.sh tests: run build/trace-probe as a coprocess and
# read its "key value" answers. Sourced after tests/lib.sh.
PROBE=${PROBE:-$T_TOP/build/trace-probe}
declare -A TP

# tp_open DEV: start the probe on DEV; skips the test when tracing can't load.
tp_open() {
	[ -x "$PROBE" ] || t_skip "build/trace-probe missing (make build/trace-probe)"
	coproc TPROC { exec "$PROBE" "$1" 2>"$T_TMP/probe.err"; }
	local line
	if ! read -r -t 10 line <&"${TPROC[0]}" || [ "${line%% *}" != ready ]; then
		wait "$TPROC_PID" 2>/dev/null
		t_skip "tracing unavailable: $(cat "$T_TMP/probe.err")"
	fi
}

# tp_cmd CMD: send a command, fill TP[key]=value until "end".
tp_cmd() {
	local k v
	TP=()
	echo "$1" >&"${TPROC[1]}"
	while read -r -t 20 k v <&"${TPROC[0]}"; do
		[ "$k" = end ] && return 0
		[ "$k" = started ] && return 0
		TP[$k]=$v
	done
	return 1
}

tp_close() {
	[ -n "${TPROC_PID:-}" ] || return 0
	eval "exec ${TPROC[1]}>&-"
	wait "$TPROC_PID" 2>/dev/null
}

# tp_sum PREFIX SUFFIX: sum TP values whose key matches PREFIX*SUFFIX.
tp_sum() {
	local k s=0
	for k in "${!TP[@]}"; do
		case $k in $1*$2) s=$((s + TP[$k])) ;; esac
	done
	echo "$s"
}

# Let udev finish probing a new device so its reads don't land in a window.
tp_settle() {
	command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
	sleep 0.3
}
