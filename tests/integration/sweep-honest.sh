#!/usr/bin/env bash
# What a sweep says is what happened, on a loop device made here:
# - a failed fio run gets no fio figures, not those of a file an earlier
#   run left under its name; a --dir holding an earlier sweep is refused;
# - the --duration limit and Ctrl-C end a command that ignores SIGTERM
#   (SIGKILL 2 s later), and the output says so;
# - results that cannot be saved (DIR/sweep.csv, --csv) make the exit status
#   1; a --csv or --report directory that is not there is refused at once;
# - a --run, a value list or a command line too long for sweep.info is
#   refused before anything changes, never cut; a long one is kept whole;
# - every value is validated before the first change (stderr, exit 2);
# - a quote in --dir keeps fio's figures;
# - a second signal during the restore does not cut the output short;
# - an unsafe default results directory is exit 2 with nothing made in it.
. "$(dirname "$0")/../lib.sh"
t_need_root
umask 022
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
t_loop_create 64 || t_skip "cannot create a loop device"
dev=$T_LOOP
n=${dev#/dev/}
ra=/sys/block/$n/queue/read_ahead_kb
orig=$(cat "$ra")
sw() { "$BLKTUNE" sweep "$dev" "$@" -d 0.1 --settle 0 >"$T_TMP/out" 2>"$T_TMP/err"; }
errs() { tr '\n' '|' <"$T_TMP/err"; }
changed() { grep -q "read_ahead_kb $orig -> " "$T_TMP/out"; }
now_ms() { date +%s%3N; }
# column NAME of sweep.csv's row ROW (from 1) in DIR
csv_cell() {
	awk -F, -v c="$2" -v r="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		NR == r + 1 { print $k }' "$1/sweep.csv"
}
have_fio=$(command -v fio)
fio_job="fio --name=j --filename=$dev --rw=read --bs=128k --size=16M --direct=1"

# 1. a failed fio run and a JSON file already under its name (left by an
#    earlier run, or an earlier sweep in this directory): no fio figures
if [ -n "$have_fio" ]; then
	mkdir -p "$T_TMP/stale"
	$fio_job --output-format=json --output="$T_TMP/stale/read_ahead_kb=128-r1.fio.json" >/dev/null 2>&1
	t_check "a planted fio JSON with figures" grep -q '"bw_bytes" : [1-9]' "$T_TMP/stale/read_ahead_kb=128-r1.fio.json"
	sw read_ahead_kb=128 --dir "$T_TMP/stale" --run "$fio_job --ioengine=nosuchengine"
	t_eq "a failed fio run: exit status" "$?" 1
	t_check "a failed fio run: said" grep -q "the command exited with status 1" "$T_TMP/out"
	t_check "a failed fio run: no fio MB/s printed" sh -c "! grep -q '; fio [0-9]' '$T_TMP/out'"
	t_eq "a failed fio run: no fio_read_mb_s in sweep.csv" "$(csv_cell "$T_TMP/stale" fio_read_mb_s 1)" ""
	t_check "a failed fio run: the earlier JSON is gone" test ! -e "$T_TMP/stale/read_ahead_kb=128-r1.fio.json"
else
	t_subskip "no fio"
fi

# 1b. a --dir that holds an earlier sweep is refused, nothing changed
sw read_ahead_kb=128,256 --run true --dir "$T_TMP/first"
t_eq "a first sweep: exit status" "$?" 0
sw read_ahead_kb=128,256 --run true --dir "$T_TMP/first"
t_eq "the same --dir again: exit status" "$?" 2
t_eq "the same --dir again: one line" "$(errs)" \
	"blktune sweep: --dir $T_TMP/first holds an earlier sweep (sweep.info): name a new or empty directory|"
t_check "the same --dir again: nothing changed" sh -c "! grep -q -- '->' '$T_TMP/out'"

# 2. a command that ignores SIGTERM: the --duration limit ends it (SIGKILL
#    2 s after SIGTERM), and the output says so
t0=$(now_ms)
sw read_ahead_kb=128 --duration 0.5 --dir "$T_TMP/term" --run "trap '' TERM; sleep 6"
rc=$? ms=$(($(now_ms) - t0))
t_eq "a command ignoring SIGTERM at the --duration limit: exit status" "$rc" 0
t_check "and it ended within 4 s, not at its 6 s ($ms ms)" test "$ms" -lt 4000
t_check "the output says it took SIGKILL" \
	grep -q "stopped at the --duration limit: it ignored SIGTERM, SIGKILL 2 s later" "$T_TMP/out"
t_eq "--duration with SIGKILL: original back" "$(cat "$ra")" "$orig"

# 2b. Ctrl-C during such a command: the sweep ends within the grace time
rm -f "$T_TMP/started"
"$BLKTUNE" sweep "$dev" read_ahead_kb=128 -d 0.1 --settle 0 --dir "$T_TMP/int" \
	--run "trap '' TERM; touch $T_TMP/started; sleep 8" >"$T_TMP/out" 2>"$T_TMP/err" &
pid=$!
t_until 10 test -e "$T_TMP/started"
t0=$(now_ms)
kill -INT "$pid"
wait "$pid"
rc=$? ms=$(($(now_ms) - t0))
t_eq "Ctrl-C during a command ignoring SIGTERM: exit status" "$rc" 130
t_check "and it ended within 4 s of the signal, not with the command ($ms ms)" test "$ms" -lt 4000
t_eq "Ctrl-C: original back" "$(cat "$ra")" "$orig"

# 3. DIR/sweep.csv that cannot be saved (the command puts a directory in
#    its way): exit status 1, and no "blktune report DIR" promise
sw read_ahead_kb=128 --dir "$T_TMP/nocsv" --run "mkdir $T_TMP/nocsv/sweep.csv"
t_eq "DIR/sweep.csv not saved: exit status" "$?" 1
t_check "DIR/sweep.csv not saved: said on stderr" grep -q "sweep.csv" "$T_TMP/err"
t_check "DIR/sweep.csv not saved: no blktune report promise" \
	sh -c "! grep -q 'prints the full report' '$T_TMP/out'"

# 3b. --csv not saved at the end, --report saved: still exit status 1
sw read_ahead_kb=128 --dir "$T_TMP/csvlate" --csv "$T_TMP/late.csv" --report "$T_TMP/late.txt" \
	--run "mkdir $T_TMP/late.csv"
t_eq "--csv not saved, --report saved: exit status" "$?" 1
t_check "--report was written" grep -q "^Warnings" "$T_TMP/late.txt"

# 3c. --csv or --report in a directory that is not there: refused before
#     anything changes
for opt in --csv --report; do
	sw read_ahead_kb=128 --dir "$T_TMP/dest$opt" "$opt" "$T_TMP/missing/x" --run true
	t_eq "$opt in a missing directory: exit status" "$?" 2
	t_check "$opt in a missing directory: one line naming it" \
		grep -q "^blktune sweep: $opt $T_TMP/missing: No such file or directory" "$T_TMP/err"
	t_eq "$opt in a missing directory: one line only" "$(wc -l <"$T_TMP/err")" 1
	t_check "$opt in a missing directory: nothing changed" sh -c "! grep -q -- '->' '$T_TMP/out'"
done

# 4. a --run too long for sweep.info is refused whole, never cut and run
long=$(printf 'x%.0s' $(seq 8200))
sw read_ahead_kb=128 --dir "$T_TMP/cut" --run "echo start >$T_TMP/cut.log; : $long; echo end >>$T_TMP/cut.log"
t_eq "a --run of 8 KiB: exit status" "$?" 2
t_check "a --run of 8 KiB: said" grep -q "^blktune sweep: --run too long: 82[0-9][0-9] bytes, at most 4095" "$T_TMP/err"
t_check "a --run of 8 KiB: nothing of it ran" test ! -e "$T_TMP/cut.log"
t_check "a --run of 8 KiB: nothing changed" sh -c "! grep -q -- '->' '$T_TMP/out'"

# 4b. a --run of 4,000 bytes is kept whole in the report, and so is the
#     command line that holds it
run=": $(printf 'y%.0s' $(seq 3998))"
sw read_ahead_kb=128 --dir "$T_TMP/longrun" --run "$run"
t_eq "a --run of 4,000 bytes: exit status" "$?" 0
"$BLKTUNE" report "$T_TMP/longrun" >"$T_TMP/rep" 2>&1
t_eq "the report's each run: line holds it whole" "$(grep -cxF "  each run: $run" "$T_TMP/rep")" 1
t_eq "the report's command line holds it whole" \
	"$(grep -cF -- "--dir $T_TMP/longrun --run '$run' -d 0.1 --settle 0" "$T_TMP/rep")" 1

# 5. a value list longer than sweep.info's (64 values of 43 characters)
vals=$(for i in $(seq 100 163); do printf '%043d,' "$i"; done)
sw "read_ahead_kb=${vals%,}" --dir "$T_TMP/vals" --run true
t_eq "64 values of 43 characters: exit status" "$?" 2
t_eq "64 values of 43 characters: one line" "$(errs)" \
	"blktune sweep: values too long: 2815 characters after read_ahead_kb=, at most 2047|"
t_check "64 values of 43 characters: nothing changed" sh -c "! grep -q -- '->' '$T_TMP/out'"

# 9. bad values are found before the first change, on stderr
sw read_ahead_kb=128,4k,-5,99999999999999999999 --dir "$T_TMP/bad" --run true
t_eq "bad values: exit status" "$?" 2
t_eq "bad values: one line each on stderr" "$(grep -c "^blktune sweep: $n read_ahead_kb .* refused" "$T_TMP/err")" 3
t_check "bad values: the first is not set" sh -c "! grep -q -- '->' '$T_TMP/out'"
t_eq "bad values: nothing on stdout" "$(cat "$T_TMP/out")" ""
t_eq "bad values: untouched" "$(cat "$ra")" "$orig"

# 12. a quote in --dir: fio still gets its JSON options
if [ -n "$have_fio" ]; then
	sw read_ahead_kb=128 --dir "$T_TMP/it's" --run "$fio_job"
	t_eq "a quote in --dir with fio: exit status" "$?" 0
	t_check "a quote in --dir: fio's JSON written" test -s "$T_TMP/it's/read_ahead_kb=128-r1.fio.json"
	t_check "a quote in --dir: fio_read_mb_s in sweep.csv" \
		test -n "$(csv_cell "$T_TMP/it's" fio_read_mb_s 1)"
else
	t_subskip "no fio"
fi

# 13. a second signal while the first one's restore runs (the command
#     ignores SIGTERM: the sweep waits up to 2 s for it): the restore, the
#     table and the files are all written, the exit status is the first's
rm -f "$T_TMP/started"
"$BLKTUNE" sweep "$dev" read_ahead_kb=128,256 -d 0.1 --settle 0 --dir "$T_TMP/twice" \
	--run "if [ \$(cat $ra) = 256 ]; then touch $T_TMP/started; trap '' TERM; sleep 8; fi" \
	>"$T_TMP/out" 2>"$T_TMP/err" &
pid=$!
t_until 20 test -e "$T_TMP/started"
kill -INT "$pid"
sleep 0.5
kill -TERM "$pid"
wait "$pid"
t_eq "two signals: the exit status is the first's" "$?" 130
t_check "two signals: the interruption is said" grep -q "^interrupted by signal 2" "$T_TMP/out"
t_check "two signals: the restore is said" grep -q "^restore: $n read_ahead_kb 256 -> $orig restored" "$T_TMP/out"
t_check "two signals: the table is printed" grep -q "^Warnings" "$T_TMP/out"
t_eq "two signals: the output's last line is written" "$(tail -n 1 "$T_TMP/out")" \
	"blktune report $T_TMP/twice prints the full report"
t_eq "two signals: original back" "$(cat "$ra")" "$orig"

# 14. an unsafe state directory (mode 777, not sticky) and no --dir:
#     refused as an unsafe --dir is, and nothing made inside it
mkdir -m 777 "$T_TMP/open"
chmod 777 "$T_TMP/open"
XDG_STATE_HOME=$T_TMP/open sw read_ahead_kb=128 --run true
t_eq "an unsafe state directory: exit status" "$?" 2
t_check "an unsafe state directory: one line naming it" \
	grep -q "^blktune sweep: results directory: $T_TMP/open/blktune: $T_TMP/open above it is writable by group or others" \
	"$T_TMP/err"
t_eq "an unsafe state directory: nothing made in it" "$(ls -A "$T_TMP/open")" ""
t_eq "an unsafe state directory: untouched" "$(cat "$ra")" "$orig"
t_done
