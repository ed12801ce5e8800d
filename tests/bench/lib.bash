# Helpers of the benchmark scripts (sourced; tests/bench/run runs only *.sh).
# bench_median: the median of numbers on stdin, one a line.
bench_median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# bench_cpu WARM SPAN CMD...: CPU seconds CMD spends over SPAN seconds after
# WARM seconds of start-up (/proc/PID/schedstat), then CMD is stopped.
bench_cpu() {
	local warm=$1 span=$2 pid a b
	shift 2
	"$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$warm"
	a=$(awk '{ print $1 }' "/proc/$pid/schedstat")
	sleep "$span"
	b=$(awk '{ print $1 }' "/proc/$pid/schedstat")
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.9f\n", (b - a) / 1e9 }'
}
# The readahead mode's probe (build/ra-probe) as a coprocess, for the
# readahead benches. ra_probe_start PROBE DEV: start it and wait for
# "ready" (a skip, exit 77, when it does not come); ra_probe_stop: end it;
# ra_probe_stats: "NAME run_cnt run_time_ns" per program line. ra_ppid is
# its PID while it runs, for the caller's cleanup.
ra_ppid=
ra_probe_start() {
	coproc PROBE { exec "$1" "$2" 2>/dev/null; }
	ra_ppid=$PROBE_PID
	local line
	read -r -t 15 line <&"${PROBE[0]}" && [ "$line" = ready ] ||
		{ echo "skip - readahead source did not start"; exit 77; }
}
ra_probe_stop() {
	eval "exec ${PROBE[1]}>&-"
	wait "$ra_ppid" 2>/dev/null
	ra_ppid=
}
ra_probe_stats() {
	local w
	echo stats >&"${PROBE[1]}"
	while read -r -a w <&"${PROBE[0]}"; do
		[ "${w[0]}" = end ] && return
		echo "${w[1]} ${w[3]} ${w[5]}"
	done
}
