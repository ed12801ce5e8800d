#!/usr/bin/env bash
# Prometheus exporter checked by the real thing: Debian's prometheus scrapes
# blktune --listen every second while fio reads a test-created loop device at
# a fixed rate; through Prometheus' HTTP API, rate() of the read-bytes counter
# matches fio's own bandwidth within 5 %, and the counters' increase over the
# run equals fio's byte count exactly. promtool checks the exposition, and the
# --textfile output is the same format, replaced whole.
. "$(dirname "$0")/../lib.sh"
t_need_root
for c in prometheus promtool fio curl python3; do
	command -v $c > /dev/null || t_skip "no $c (contrib/install-deps test installs it)"
done
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
bport=$(free_port)
pport=$(free_port)
while [ "$pport" = "$bport" ]; do pport=$(free_port); done
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; t_cleanup' EXIT
# wait_for N CMD...: up to N tenths of a second (at least T_WAIT_MIN s, as
# t_until) until CMD succeeds
wait_for() {
	local s=$((($1 + 9) / 10))
	shift
	t_until "$s" "$@" > /dev/null 2>&1
}

t_loop_create 256 || t_fail "losetup"
dev=${T_LOOP#/dev/}
mkdir -p "$T_TMP/textfile"
# start_on PORTVAR LOG PATH START: START PORT runs a server in the background
# (its stderr in LOG), waited for until it answers PATH or dies; server_pid is
# its PID. A port found free can be taken before the server binds it (other
# tests run servers too): another one, a few times.
start_on() {
	local var=$1 log=$2 path=$3 start=$4 port try
	for ((try = 0; try < 5; try++)); do
		port=${!var}
		$start "$port" 2> "$log" &
		server_pid=$!
		t_until 30 sh -c "curl -sf 'http://127.0.0.1:$port$path' > /dev/null || ! kill -0 $server_pid 2> /dev/null"
		kill -0 $server_pid 2> /dev/null && return 0
		grep -qi "address already in use" "$log" || return 1
		printf -v "$var" %s "$(free_port)"
	done
}
# exec: start_on runs these in a background subshell; the server must be
# that process, so that killing server_pid ends it (a child left behind
# outlived the test)
blktune_on() { exec "$BLKTUNE" -b -d 1 --listen "127.0.0.1:$1" --textfile "$T_TMP/textfile" -p "$dev" > /dev/null; }
ids0=$(t_bpf_prog_ids)
start_on bport "$T_TMP/blktune.err" /metrics blktune_on
pids+=($server_pid)
t_check "blktune serves /metrics" wait_for 100 curl -sf "http://127.0.0.1:$bport/metrics"
curl -s "http://127.0.0.1:$bport/metrics" > "$T_TMP/metrics.txt"
promtool check metrics < "$T_TMP/metrics.txt" > "$T_TMP/promtool.txt" 2>&1
t_eq "promtool check metrics exit status" "$?" 0
t_eq "promtool finds nothing to lint" "$(cat "$T_TMP/promtool.txt")" ""
t_check "the test's device is exported" grep -q "^blktune_read_bytes_total{device=\"$dev\"} " "$T_TMP/metrics.txt"
t_check "no scientific notation" test -z "$(grep -E '[0-9]e[-+][0-9]' "$T_TMP/metrics.txt")"
fams=$(awk '$1 == "#" && $2 == "TYPE" { print $3 }' "$T_TMP/metrics.txt" | sort -u)
t_check "the tracer's losses are exported ($(grep -c '^blktune_trace_' "$T_TMP/metrics.txt") lines)" \
	sh -c "grep -q '^blktune_trace_runs_skipped_total [0-9]' '$T_TMP/metrics.txt' &&
		grep -q '^blktune_trace_map_full_total [0-9]' '$T_TMP/metrics.txt'"
# runs_skipped is the kernel's count (bpftool's recursion_misses) of
# blktune's own programs: at least what it was before two refreshes (-d 1)
# and at most what it is after the scrape
# (batch mode loads the tracer before it serves the first sample)
blk_progs=$(t_bpf_progs_since "$ids0")
t_check "blktune's programs are loaded ($blk_progs)" test -n "$blk_progs"
# shellcheck disable=SC2086
k0=$(t_bpf_misses $blk_progs)
sleep 2.5
sk=$(curl -s "http://127.0.0.1:$bport/metrics" | awk '$1 == "blktune_trace_runs_skipped_total" { print $2 }')
# shellcheck disable=SC2086
k1=$(t_bpf_misses $blk_progs)
t_check "blktune_trace_runs_skipped_total ($sk) is the kernel's count of its programs' skipped runs ($k0..$k1, programs $blk_progs)" \
	test -n "$sk" -a "$sk" -ge "$k0" -a "$sk" -le "$k1"
undocumented=$(for f in $fams; do grep -q "$f" "$T_TOP/man/blktune.8" || echo "$f"; done)
t_eq "the man page names every family exported ($(echo $fams | wc -w))" "$undocumented" ""
t_eq "other paths are 404" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$bport/")" 404
t_eq "POST is refused (405)" "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$bport/metrics")" 405
t_check "textfile written" wait_for 30 test -s "$T_TMP/textfile/blktune.prom"
promtool check metrics < "$T_TMP/textfile/blktune.prom" > /dev/null 2>&1
t_eq "promtool accepts the textfile" "$?" 0
t_eq "only the textfile in its directory (temporary renamed away)" "$(ls -A "$T_TMP/textfile")" blktune.prom

cat > "$T_TMP/prom.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: blktune
    static_configs:
      - targets: ['127.0.0.1:$bport']
YML
prometheus_on() {
	exec prometheus --config.file="$T_TMP/prom.yml" --storage.tsdb.path="$T_TMP/tsdb" --web.listen-address="127.0.0.1:$1"
}
start_on pport "$T_TMP/prometheus.log" /-/ready prometheus_on
pids+=($server_pid)
api="http://127.0.0.1:$pport/api/v1"
# q EXPR [TIME]: the first result's value, or empty
q() {
	curl -s --get "$api/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
up_once() { [ "$(q 'up{job="blktune"}')" = 1 ]; }
t_check "prometheus scrapes blktune" wait_for 300 up_once
sel="{device=\"$dev\"}"
# two scrapes of the idle device before fio starts
scrapes() { [ "$(q "count_over_time(blktune_read_bytes_total$sel[5m])")" -ge "$1" ] 2>/dev/null; }
t_check "two scrapes before fio starts" wait_for 300 scrapes 2
t0=$(date +%s.%N)
fio --name=prom --filename="$T_LOOP" --direct=1 --rw=read --bs=64k --size=256m --rate=16m \
	--time_based --runtime=12 --output-format=json > "$T_TMP/fio.json" 2> "$T_TMP/fio.err"
t_eq "fio exit status" "$?" 0
t1=$(date +%s.%N)
# a scrape of a blktune refresh taken after fio's last I/O: one scraped more
# than two intervals (blktune's and Prometheus', 1 s each) after fio ended
scraped_after() { awk -v t="$(q "timestamp(blktune_read_bytes_total$sel)")" -v e="$t1" 'BEGIN { exit !(t != "" && t > e + 2) }'; }
t_check "a scrape after fio's last I/O" wait_for 300 scraped_after
# fio's I/O ran from its report time minus its runtime: rate() over a 6 s
# window from 3 s into it (on a loaded machine fio can take a second or more
# to start, so the window is placed by fio's clock, not by when it was run)
read -r fio_bytes fio_bw fio_ios io0 < <(python3 -c '
import json,sys; o=json.load(open(sys.argv[1])); j=o["jobs"][0]["read"]
print(j["io_bytes"], j["bw_bytes"], j["total_ios"], (o["timestamp_ms"] - j["runtime"]) / 1000)' "$T_TMP/fio.json")
mid=$(awk -v a="$io0" 'BEGIN { printf "%.3f", a + 9 }')
rate=$(q "rate(blktune_read_bytes_total$sel[6s])" "$mid")
t_near "rate() of blktune_read_bytes_total vs fio's bw_bytes (within 5%)" "$rate" "$fio_bw" \
	"$(awk -v b="$fio_bw" 'BEGIN { print b * 0.05 }')"
end=$(date +%s.%N)
before=$(q "blktune_read_bytes_total$sel" "$t0")
after=$(q "blktune_read_bytes_total$sel" "$end")
t_eq "read bytes over the run through Prometheus equal fio's io_bytes" \
	"$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.0f", a - b }')" "$fio_bytes"
# Traced sizes (when the tracer is on): the histogram's _sum grew by fio's bytes.
if grep -q "^blktune_request_size_bytes_sum{device=\"$dev\",op=\"read\"}" "$T_TMP/textfile/blktune.prom"; then
	b=$(q "blktune_request_size_bytes_sum{device=\"$dev\",op=\"read\"}" "$t0")
	a=$(q "blktune_request_size_bytes_sum{device=\"$dev\",op=\"read\"}" "$end")
	# the tracer may miss a completion taken on an idle CPU (0.02-0.4 %,
	# see the man page's TRACING): the same allowance as the trace tests
	t_near "traced read-size histogram's _sum grew by fio's io_bytes (0.4 %)" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.0f", a - b }')" "$fio_bytes" \
		"$(awk -v b="$fio_bytes" 'BEGIN { printf "%.0f", b * 0.004 + 3 * 65536 }')"
	n=$(q "histogram_quantile(0.5, rate(blktune_request_size_bytes_bucket{device=\"$dev\",op=\"read\"}[6s]))" "$mid")
	# all of fio's 64 KiB reads sit in the (32 KiB, 64 KiB] bucket: its midpoint
	t_near "median traced read size, interpolated in the 64 KiB bucket" "$n" 49152 1
	# one device-time sample per read request: as many as diskstats completed
	b=$(q "blktune_request_device_seconds_count{device=\"$dev\",op=\"read\"}" "$t0")
	a=$(q "blktune_request_device_seconds_count{device=\"$dev\",op=\"read\"}" "$end")
	rb=$(q "blktune_reads_completed_total$sel" "$t0")
	ra=$(q "blktune_reads_completed_total$sel" "$end")
	reads=$(awk -v a="$ra" -v b="$rb" 'BEGIN { printf "%.0f", a - b }')
	t_near "traced device-time samples equal diskstats' reads over the run (0.4 %)" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.0f", a - b }')" "$reads" \
		"$(awk -v r="$reads" 'BEGIN { printf "%.0f", r * 0.004 + 3 }')"
else
	t_fail "the tracer did not export histograms ($(head -c 200 "$T_TMP/blktune.err"))"
fi
t_done
