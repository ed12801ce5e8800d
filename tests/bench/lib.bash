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
