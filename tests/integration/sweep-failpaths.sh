#!/usr/bin/env bash
# blktune sweep's failure paths and quiet success, on a loop device made here:
# a clean sweep writes nothing to stderr and restores on stdout; a command
# that exits 1 makes the sweep exit 1 and says so; a --report that cannot
# be written is a one-line error and exit 2; a --dir that cannot be made is
# refused with the options (exit 2, the device untouched), a journal
# directory that is a file before anything changes (exit 1); an unknown device
# is exit 1; a --metric
# reaches sweep.info (blktune report names it); a command that does no I/O
# of its own gets no "command's MB/s" table (all zeros say nothing); a
# restore the kernel refuses is an error (stderr, exit 1); a --dir at the
# PATH_MAX boundary still gets sweep.info and sweep.csv; a value the device
# refuses is said before anything changes (exit 2); no cache drop unless
# asked; the baseline is the original value when it is swept, else the first.
. "$(dirname "$0")/../lib.sh"
t_need_root
umask 022
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
t_loop_create 32 || t_skip "cannot create a loop device"
dev=$T_LOOP
n=${dev#/dev/}
ra=/sys/block/$n/queue/read_ahead_kb
orig=$(cat "$ra")
sw() { "$BLKTUNE" sweep "$dev" read_ahead_kb=128,256 -d 0.2 --settle 0 "$@" >"$T_TMP/out" 2>"$T_TMP/err"; }
errs() { tr '\n' '|' <"$T_TMP/err"; }

# 1. a clean sweep; its command reads nothing and prints a metric
sw --run "echo hits=5; sleep 1" --metric 'hits=hits=([0-9]+)' --dir "$T_TMP/ok" --report "$T_TMP/ok.txt"
t_eq "clean sweep: exit status" "$?" 0
t_eq "clean sweep: nothing on stderr" "$(errs)" ""
t_check "clean sweep: --report written" grep -q "^Warnings" "$T_TMP/ok.txt"
t_check "clean sweep: the restore is reported on stdout" grep -q "^restore: $n read_ahead_kb 256 -> $orig restored" "$T_TMP/out"
t_eq "clean sweep: original back" "$(cat "$ra")" "$orig"
t_eq "clean sweep: a snapshot per value" "$(ls "$T_TMP/ok"/*.snap 2>/dev/null | wc -l)" 2
t_check "no --shuffle: no shuffled order said" sh -c "! grep -q '^shuffled order' '$T_TMP/out'"
t_check "no --shuffle: sweep.info's order is interleaved" grep -qx "order interleaved" "$T_TMP/ok/sweep.info"
t_check "the command's own MB/s (all zero) gets no table" sh -c "! grep -q \"^the command's MB/s\" '$T_TMP/out'"
# the device's tunables as the sweep found them: one line each, every one a
# file of the device's queue directory (nothing past the list blktune read)
bad=$(awk '$1 == "tunable" { print $2 }' "$T_TMP/ok/sweep.info" | while read -r t; do
	[ -n "$t" ] && [ -e "/sys/block/$n/queue/$t" ] || echo "'$t'"; done | tr '\n' ' ')
t_eq "sweep.info: every tunable line names a queue file of $n" "$bad" ""
t_check "sweep.info: read_ahead_kb at its original value" grep -qx "tunable read_ahead_kb $orig" "$T_TMP/ok/sweep.info"
t_check "sweep.info records the --metric" grep -qx "metric hits hits=(\[0-9\]+)" "$T_TMP/ok/sweep.info"
"$BLKTUNE" report "$T_TMP/ok" >"$T_TMP/rep" 2>&1
t_eq "blktune report: exit status" "$?" 0
t_check "blktune report names the metric" grep -q "metric hits: last number matching /hits=(\[0-9\]+)/" "$T_TMP/rep"
t_check "and has its table" grep -q "^hits (--metric, higher/lower only) (metric:hits)" "$T_TMP/rep"

# 2. a command that fails; no --dir: the results go to a new directory
#    under $XDG_STATE_HOME/blktune
sw --run "exit 1"
t_eq "a command exiting 1: sweep exit status" "$?" 1
t_check "and says so" grep -q "the command exited with status 1" "$T_TMP/out"
t_eq "no --dir: one new results directory, with its CSV" \
	"$(ls "$XDG_STATE_HOME"/blktune/sweep-*-"$n"/sweep.csv 2>/dev/null | wc -l)" 1
t_eq "no --dir: nothing else on stderr" "$(errs)" ""
t_eq "no --dir: the results directory is 0755 (umask 022)" \
	"$(stat -c %a "$XDG_STATE_HOME"/blktune/sweep-*-"$n" 2>/dev/null)" 755
t_eq "a failed command: original back" "$(cat "$ra")" "$orig"

# 3. a --report that cannot be written: refused before anything changes
sw --run "true" --dir "$T_TMP/rep3" --report "$T_TMP/missing/report.txt"
t_eq "an unwritable --report: exit status" "$?" 2
t_check "an unwritable --report: one line naming it" \
	grep -q "^blktune sweep: --report $T_TMP/missing.*: No such file or directory" "$T_TMP/err"
t_check "an unwritable --report: no value was set" sh -c "! grep -q 'read_ahead_kb $orig -> 128' '$T_TMP/out'"
t_eq "an unwritable --report: original back" "$(cat "$ra")" "$orig"

# 4. a --dir that cannot be made (missing parents are made, but a parent
#    that is a file cannot be): nothing is changed
: >"$T_TMP/file"
sw --run "true" --dir "$T_TMP/file/dir"
t_eq "an impossible --dir: refused when the options are read, exit status" "$?" 2
t_check "an impossible --dir: one line naming it" \
	grep -q "$T_TMP/file.*Not a directory" "$T_TMP/err"
t_check "an impossible --dir: no value was set" sh -c "! grep -q 'read_ahead_kb $orig -> 128' '$T_TMP/out'"
t_eq "an impossible --dir: untouched" "$(cat "$ra")" "$orig"

# 4b. a journal directory that is a file: refused before anything changes,
#    in one line, with nothing written in the results directory (not every
#    run refused and then a restore said to have failed)
BLKTUNE_JOURNAL_DIR=$T_TMP/file sw --run "true" --dir "$T_TMP/nojournal"
t_eq "no journal: exit status" "$?" 1
t_eq "no journal: one line saying so" "$(errs)" \
	"blktune sweep: no journal, nothing changed: journal directory $T_TMP/file is not a directory|"
t_eq "no journal: nothing in the results directory" "$(ls -A "$T_TMP/nojournal" 2>/dev/null)" ""
t_eq "no journal: untouched" "$(cat "$ra")" "$orig"

# 5. no such device
"$BLKTUNE" sweep nosuchdev read_ahead_kb=128,256 --run true >"$T_TMP/out" 2>"$T_TMP/err"
t_eq "an unknown device: exit status" "$?" 1
t_check "an unknown device: said" grep -q "no block device nosuchdev" "$T_TMP/err"

# 6. the kernel refuses the original at the restore: with mq-deadline the
#    device's nr_requests is set to 200 here; the command switches the
#    scheduler to none on the last run, where the kernel takes at most the
#    tag depth (128). The refused restore goes to stderr, the sweep exits 1,
#    and the original is kept aside in journal.rejected.
q=/sys/block/$n/queue
if echo mq-deadline >"$q/scheduler" 2>/dev/null && echo 200 >"$q/nr_requests" 2>/dev/null &&
	[ "$(cat "$q/nr_requests")" = 200 ]; then
	"$BLKTUNE" sweep "$dev" nr_requests=64,128 -d 0.2 --settle 0 --dir "$T_TMP/refused" \
		--run "[ \$(cat $q/nr_requests) = 128 ] && echo none >$q/scheduler; true" >"$T_TMP/out" 2>"$T_TMP/err"
	t_eq "a restore the kernel refuses: sweep exit status" "$?" 1
	t_check "the refused restore is reported on stderr" grep -q "^restore: $n nr_requests 200 not restored" "$T_TMP/err"
	t_check "and not on stdout" sh -c "! grep -q '^restore: $n nr_requests' '$T_TMP/out'"
	t_check "the summary does not promise a retry that --restore would not make" \
		grep -q "^blktune sweep: the original value could not be restored: kept aside as said above, not retried" "$T_TMP/err"
	"$BLKTUNE" --restore > "$T_TMP/restore.out" 2>&1
	t_check "--restore indeed has nothing to retry" grep -q "nothing to restore" "$T_TMP/restore.out"
	t_check "the original is kept aside in journal.rejected" \
		grep -q "orig $n [0-9:]* [0-9]* nr_requests 200\$" "$BLKTUNE_JOURNAL_DIR/journal.rejected"
	t_eq "nr_requests as the kernel left it" "$(cat "$q/nr_requests")" 128
	echo none >"$q/scheduler"
else
	t_subskip "mq-deadline with nr_requests 200 on $n"
fi

# 7. a --dir at the PATH_MAX boundary: 4,069 bytes, so that the longest
#    file in it, read_ahead_kb=128-r1.snap, is a path of 4,095 bytes, the
#    most the kernel takes; sweep.info and sweep.csv are written under their
#    names (4,080 and 4,079 bytes).
long=$T_TMP/long
while [ $((${#long} + 200)) -lt 4069 ]; do long=$long/$(printf 'd%.0s' $(seq 199)); done
long=$long/$(printf 'e%.0s' $(seq $((4069 - ${#long} - 1))))
sw --run "true" --dir "$long"
t_eq "a --dir of ${#long} bytes: exit status" "$?" 0
t_check "its sweep.info" test -s "$long/sweep.info"
t_check "its sweep.csv" test -s "$long/sweep.csv"
t_eq "nothing else in it" "$(ls "$long" | grep -cv '\.snap$')" 2
t_eq "a --dir of ${#long} bytes: original back" "$(cat "$ra")" "$orig"

# 8. a value the device refuses (nr_requests above the tag depth with
#    scheduler none): found before anything changes, said on stderr, exit 2
q=/sys/block/$n/queue
if echo none >"$q/scheduler" 2>/dev/null && [ "$(cat "$q/nr_requests")" -lt 4096 ]; then
	nr=$(cat "$q/nr_requests")
	"$BLKTUNE" sweep "$dev" nr_requests=64,4096 -d 0.2 --settle 0 --run "sleep 0.6" --dir "$T_TMP/refval" \
		>"$T_TMP/out" 2>"$T_TMP/err"
	t_eq "a value the device refuses: sweep exit status" "$?" 2
	t_check "the refusal is said on stderr" grep -q "nr_requests 4096 refused: above the device's limit" "$T_TMP/err"
	t_check "the other value is not set first" sh -c "! grep -q 'nr_requests $nr -> 64' '$T_TMP/out'"
	t_eq "nothing measured" "$(ls "$T_TMP/refval"/*.snap 2>/dev/null | wc -l)" 0
	t_eq "a value the device refuses: untouched" "$(cat "$q/nr_requests")" "$nr"
else
	t_subskip "scheduler none with nr_requests below 4096 on $n"
fi

# 9. --shuffle=SEED: the order is said with the seed that repeats it, and
#    both values are measured
# (each run lasts some intervals: a run of "true" can end before the first
# interval does, and a run with no interval has no snapshot)
sw --run "sleep 0.6" --shuffle=7 --repeat 2 --dir "$T_TMP/shuf"
t_eq "--shuffle=7: exit status" "$?" 0
t_check "--shuffle=7: the seed is said" grep -qx "shuffled order, seed 7 (--shuffle=7 repeats it)" "$T_TMP/out"
t_check "--shuffle=7: sweep.info records the order and seed" grep -qx "order shuffled (seed 7)" "$T_TMP/shuf/sweep.info"
t_eq "--shuffle=7 --repeat 2: a snapshot per run" "$(ls "$T_TMP/shuf"/*.snap 2>/dev/null | wc -l)" 4
t_eq "--shuffle=7 --repeat 2: sweep.csv's order column counts the runs" \
	"$(awk -F, 'NR > 1 { printf "%s ", $4 }' "$T_TMP/shuf/sweep.csv")" "1 2 3 4 "

# 10. without --drop-caches the sweep never opens /proc/sys/vm/drop_caches
#     (a syscall trace: the page cache itself is shared with everyone)
if command -v strace >/dev/null; then
	strace -f -qq -o "$T_TMP/strace" -e trace=open,openat sh -c \
		'exec "$0" sweep "$1" read_ahead_kb=128,256 -d 0.2 --settle 0 --run true --dir "$2"' \
		"$BLKTUNE" "$dev" "$T_TMP/nodrop" >"$T_TMP/out" 2>"$T_TMP/err"
	t_eq "a sweep under strace: exit status" "$?" 0
	t_check "the trace has the sweep's opens" grep -q "sweep.info" "$T_TMP/strace"
	t_check "no --drop-caches: drop_caches never opened" sh -c "! grep -q drop_caches '$T_TMP/strace'"
else
	t_subskip "no strace"
fi

# 11. the baseline is the original value when it is swept, wherever it is
#     in the list; else the first value
for vals in "$((orig * 2)),$orig:$orig" "$((orig * 2)),$((orig * 4)):$((orig * 2))"; do
	"$BLKTUNE" sweep "$dev" read_ahead_kb="${vals%:*}" -d 0.2 --settle 0 --run true --dir "$T_TMP/base-${vals%:*}" \
		>"$T_TMP/out" 2>"$T_TMP/err"
	t_check "values ${vals%:*} (original $orig): the baseline is ${vals#*:}" \
		grep -qx "baseline ${vals#*:}" "$T_TMP/base-${vals%:*}/sweep.info"
done
t_eq "original back after the baseline sweeps" "$(cat "$ra")" "$orig"
t_done
