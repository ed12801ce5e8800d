#!/usr/bin/env bash
# The process figures (blktune -b --json --top-processes) against fio's own
# JSON: two fio jobs with different names on one loop device this test
# creates, one writing at 1 MiB/s and one reading at 512 KiB/s (fio --rate,
# direct 4k I/O), each in a fio process of its own started here (--thread:
# the job runs inside that process, whose PID is $!).
#
# This machine is shared and fio keeps its rate by catching up after a
# stall, so one interval's rate may be far from fio's; the test compares
# what holds whatever the load: blktune samples every 0.5 s from before the
# jobs start (--startdelay: each process is seen idle first, so its first
# bytes have a rate) until after they end (a second, null-engine job that
# starts when the first ends keeps the process alive past its last I/O), and
#  - each PID's rates, times their intervals, add up to fio's io_bytes
#    within 1 %, and over fio's runtime to fio's bw within 5 %;
#  - the other direction under 1 % (program page-ins), the command is fio, the job's name is in its
#    command line;
#  - every report's rows are in descending read + write B/s.
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v fio >/dev/null || t_skip "no fio"
command -v jq >/dev/null || t_skip "no jq"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
t_loop_create 256 || t_skip "no loop device"
dev=$T_LOOP
name=${dev#/dev/}
pids=()
# fio's JSON goes to tmpfs: a file written on a disk is write_bytes of the
# fio process (4 KiB of JSON would be the reader's "writes")
shm=$(mktemp -d /dev/shm/blktune-procs.XXXXXX)
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$shm"; t_cleanup' EXIT

# -n bounds the run; SIGINT ends it once both fio processes are gone (a
# loaded machine can start fio seconds late: no fixed count of reports)
"$BLKTUNE" -b --json --top-processes --no-trace -d 0.5 -n 400 -p "$name" > "$T_TMP/out.json" &
pids+=($!)
t_until 5 test -s "$T_TMP/out.json" || t_fail "blktune reports"
fio_job() { # NAME RW RATE OFFSET: direct 4k at RATE for 8 s after 1 s, then 4 s idle, JSON into $shm/NAME.json
	fio --thread --name="$1" --filename="$dev" --rw="$2" --rate="$3" --offset="$4" --size=64m --bs=4k \
		--direct=1 --ioengine=psync --time_based --runtime=8 --startdelay=1 \
		--name=hold --ioengine=null --rw=read --size=1m --startdelay=9 --time_based --runtime=4 \
		--output-format=json --output="$shm/$1.json" >/dev/null 2>&1 &
	pids+=($!)
}
fio_job procview-writer write 1m 0
wpid=${pids[1]}
fio_job procview-reader read 512k 128m
rpid=${pids[2]}
wait "$wpid" || t_fail "the writer ran"
wait "$rpid" || t_fail "the reader ran"
kill -INT "${pids[0]}"
wait "${pids[0]}" || t_fail "blktune ran"
pids=()
echo "# $(jq -s -c --argjson w "$wpid" 'map([.processes.rows[] | select(.pid == $w) | .wbytes_s][0])' "$T_TMP/out.json")"

t_eq "a processes object in every report" \
	"$(jq -s -r 'map(.processes.rows | type) | unique | join(",")' "$T_TMP/out.json")" array
t_eq "as root every process is read" "$(jq -s -r 'map(.processes.all_users) | unique | join(",")' "$T_TMP/out.json")" true
# bytes PID moved in direction FIELD (a rate) by blktune's figures: each
# interval's rate times the interval, 0 where the process had no row
bytes() {
	jq -s -r --argjson p "$1" --arg f "$2" 'map(.processes.interval * ([.processes.rows[] | select(.pid == $p) |
		.[$f]][0] // 0)) | add | round' "$T_TMP/out.json"
}
fiov() { jq -r ".jobs[0].$2" "$shm/$1.json"; }
cmd() { jq -s -r --argjson p "$1" '[.[].processes.rows[] | select(.pid == $p) | .cmdline][0]' "$T_TMP/out.json"; }
# within PERCENT GOT WANT
within() { awk -v p="$1" -v g="$2" -v w="$3" 'BEGIN { d = (g - w) / w; if (d < 0) d = -d; exit !(w > 0 && d * 100 <= p) }'; }
check() { # JOB PID DIR(read|write) FIELD OTHER
	local b fb rt bw rate
	b=$(bytes "$2" "$4")
	fb=$(fiov "$1" "$3.io_bytes")
	rt=$(fiov "$1" "$3.runtime")
	bw=$(fiov "$1" "$3.bw_bytes")
	rate=$(awk -v b="$b" -v t="$rt" 'BEGIN { printf "%.0f", b / (t / 1000) }')
	t_check "$1: the rates add up to fio's $3 bytes within 1 % ($b vs $fb)" within 1 "$b" "$fb"
	t_check "$1: $4 over fio's runtime within 5 % of fio's bw ($rate vs $bw B/s)" within 5 "$rate" "$bw"
	# /proc/PID/io is not per device: fio paging in its own program from the
	# root disk at start (a loaded machine evicts it) is a read of its own
	t_check "$1: the other direction under 1 % ($(bytes "$2" "$5") bytes)" \
		awk -v o="$(bytes "$2" "$5")" -v b="$b" 'BEGIN { exit !(o * 100 <= b) }'
	t_check "$1: the command line names the job" sh -c "echo '$(cmd "$2")' | grep -q -- --name=$1"
}
check procview-writer "$wpid" write wbytes_s rbytes_s
check procview-reader "$rpid" read rbytes_s wbytes_s
t_eq "the command is fio" "$(jq -s -r --argjson p "$wpid" '[.[].processes.rows[] | select(.pid == $p) | .command][0]' \
	"$T_TMP/out.json")" fio
t_check "both jobs are rows of one report" test "$(jq -s --argjson w "$wpid" --argjson r "$rpid" \
	'map(.processes.rows | map(.pid) | index($w) != null and index($r) != null) | any' "$T_TMP/out.json")" = true
# (each rate is printed to 0.1 B/s: two sums may swap by 0.1 in print)
t_eq "every report's rows are in descending read + write B/s" "$(jq -s -r 'map(.processes.rows |
	map(.rbytes_s + .wbytes_s) | [range(1; length) as $i | .[$i - 1] >= .[$i] - 0.15] | all) | all' \
	"$T_TMP/out.json")" true

# without -b --json it is refused in one line, exit 2
out=$("$BLKTUNE" -b --top-processes -n 1 2>&1)
t_eq "--top-processes without --json: exit 2" "$?" 2
t_eq "and says why in one line" "$(printf '%s\n' "$out" | wc -l)" 1
mkdir -p "$T_TMP/root/proc"
cp /proc/diskstats "$T_TMP/root/proc/"
out=$("$BLKTUNE" -b --json --top-processes --root "$T_TMP/root" -n 1 2>&1)
t_eq "--top-processes with --root: exit 2" "$?" 2
t_check "says the figures come from the live /proc ($out)" sh -c "echo '$out' | grep -q 'live /proc'"
t_done
