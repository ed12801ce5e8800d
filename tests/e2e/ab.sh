#!/usr/bin/env bash
# A/B for real, as issue 9 tried it: on a loop device made here, blktune runs
# while the device is idle, then fio loads it (O_DIRECT 1 MiB sequential
# reads, time-based) and A is taken over a window that began idle; then
# max_sectors_kb is lowered with keys and the same fio load runs again; b
# takes B. Checked against fio's own JSON: the verdict on throughput has the
# sign fio measured (A's idle intervals must not drag A's mean down), the
# screen says how many idle intervals each side left out (about the idle time
# before and after the load), rareq-sz is "lower" and never judged, A puts
# A's value back, w saves two files blktune diff reads. Then a change made
# after A is what quit's restore must undo: sysfs is checked before and after.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
command -v fio >/dev/null || t_skip "needs fio"
command -v python3 >/dev/null || t_skip "needs python3 (reads fio's JSON)"
t_loop_create 256 || t_skip "cannot create a loop device"
dev=$T_LOOP
name=${dev#/dev/}
q=/sys/block/$name/queue
export XDG_STATE_HOME=$T_TMP/state
trap 'tm_stop; t_cleanup' EXIT
ms0=$(cat $q/max_sectors_kb)
# Small requests (as the seed's 32 KB): a difference far beyond the noise.
low=16
iv=0.5

# fio_phase NAME: the load, to completion; its own read bandwidth (KiB/s) in
# NAME.bw, and in NAME.steady the mean of its 0.5 s bandwidth log without the
# first and last entries and that mean's standard error: the steady part, as
# blktune's busy intervals are
# (the whole-run figure includes fio's ramp, and on a shared machine the other
# load moves from second to second).
fio_phase() {
	fio --name="$1" --filename="$dev" --rw=read --bs=1M --direct=1 --ioengine=psync \
		--time_based --runtime=5 --write_bw_log="$T_TMP/$1" --log_avg_msec=500 \
		--output-format=json --output="$T_TMP/$1.json" >/dev/null 2>&1 || return 1
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["bw"])' \
		"$T_TMP/$1.json" >"$T_TMP/$1.bw"
	awk -F, '{ v[n++] = $2 } END { if (n < 4) exit 1; m = n - 2; for (i = 1; i < n - 1; i++) s += v[i]
		for (i = 1; i < n - 1; i++) q += (v[i] - s / m) ^ 2; print s / m, sqrt(q / (m - 1) / m) }' \
		"$T_TMP/$1_bw.1.log" >"$T_TMP/$1.steady"
}

# -p: keys change tunables of this test's device only (the filter below
# matches substrings)
tm_start "XDG_STATE_HOME='$XDG_STATE_HOME' '$BLKTUNE' -d $iv --journal-dir '$T_TMP/journal' -p '$name'; echo blktune-exited; sleep 60"
tm_wait "^DEVICE" 5
tm_keys / && tm_text "$name" && tm_keys Enter
tm_wait "matching \"$name\"" 2
t0=$(date +%s.%N)
# Idle first: about 8 intervals with nothing on the device.
sleep 4
t1=$(date +%s.%N)
t_check "fio phase A ran" fio_phase a
t2=$(date +%s.%N)
tm_keys a
t3=$(date +%s.%N)
t_check "a takes snapshot A over a window that began idle" \
	tm_wait "A: $name, [0-9][0-9]* busy intervals .* [0-9][0-9]* idle left out (+[0-9] partial)" 3
line=$(tm_screen | grep -o "A: $name, [0-9]* busy intervals.*partial)" | tail -n 1)
a_busy=$(sed -E 's/.*, ([0-9]+) busy intervals.*/\1/' <<<"$line")
a_idle=$(sed -E 's/.* ([0-9]+) idle left out.*/\1/' <<<"$line")
a_part=$(sed -E 's/.*\(\+([0-9]+) partial\)/\1/' <<<"$line")
# Idle before fio started and after it ended, in intervals (the intervals
# fio's start and end fall into are busy, and left out as partial); the
# status line is read at once.
# At most: all of it but fio's 5 s (fio itself takes a while to start).
want=$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v iv="$iv" 'BEGIN { printf "%d", ((b - a) + (d - c)) / iv }')
most=$(awk -v a="$t0" -v d="$t3" -v iv="$iv" 'BEGIN { printf "%d", (d - a - 5) / iv + 1 }')
t_check "A left out $a_idle idle intervals, at least about the $want before and after fio, at most $most" \
	awk -v n="$a_idle" -v w="$want" -v m="$most" 'BEGIN { exit !(n >= w - 3 && n <= m && n >= 6) }'
t_check "A holds the load's steady intervals ($a_busy busy + $a_part partial, fio ran 5 s at $iv s)" \
	awk -v n="$a_busy" -v p="$a_part" 'BEGIN { exit !(n >= 8 && n <= 11 && p >= 1 && p <= 2) }'

for ((i = 0; i < 10; i++)); do
	cur=$(cat $q/max_sectors_kb)
	[ "$cur" -le "$low" ] && break
	tm_keys '{'
	wait_sysfs $q/max_sectors_kb $((cur / 2)) 2 || break
done
low=$(cat $q/max_sectors_kb)
t_check "max_sectors_kb lowered by keys ($ms0 -> $low)" test "$low" -lt "$ms0"
sleep 1
t_check "fio phase B ran" fio_phase b
tm_keys b
t_check "b takes B and opens the A/B view" tm_wait "^A/B $name" 3
t_check "the changed tunable is listed first" tm_wait "max_sectors_kb *$ms0 -> $low" 1
t_check "the view says how many idle intervals each side left out" \
	tm_wait "idle intervals left out: A $a_idle, B [0-9][0-9]* (partial: A $a_part, B [12])" 1

bw_a=$(cat "$T_TMP/a.bw") bw_b=$(cat "$T_TMP/b.bw")
echo "# fio bandwidth logs (KiB/s per 0.5 s): A $(cut -d, -f2 "$T_TMP/a_bw.1.log" | tr -d " " | tr "\n" " "); B $(cut -d, -f2 "$T_TMP/b_bw.1.log" | tr -d " " | tr "\n" " ")"
echo "# fio read bandwidth: A (max_sectors_kb $ms0) $bw_a KiB/s, B ($low) $bw_b KiB/s"
read -r _ ma mb change verdict <<<"$(tm_screen | grep -E '^rMB/s ' | head -n 1)"
echo "# blktune rMB/s: A $ma, B $mb, $change, $verdict"
fsign=$(awk -v a="$bw_a" -v b="$bw_b" 'BEGIN { print (b > a) ? "higher" : "lower" }')
t_check "rMB/s verdict has fio's sign: $verdict (fio: B $fsign than A)" \
	bash -c "[[ '$verdict' == $fsign,* ]]"
judged=$([ "$fsign" = higher ] && echo better || echo worse)
t_check "throughput, the primary figure, is judged: $verdict" bash -c "[[ '$verdict' == *', $judged' ]]"
# A's mean over steady busy intervals is fio's own steady figure (its
# bandwidth log without the partial first and last half-seconds), within 10%
# or two of that mean's standard errors where fio's own half-seconds spread
# more (a loaded machine: blktune's intervals do not line up with fio's).
near_fio() { # NAME MBPS
	local mean se
	read -r mean se <"$T_TMP/$1.steady"
	t_check "$1's rMB/s $2 near fio's steady $(awk -v b="$mean" -v e="$se" 'BEGIN { printf "%.1f +- %.1f", b / 1024, e / 1024 }')" \
		awk -v m="$2" -v b="$mean" -v e="$se" 'BEGIN { f = b / 1024; t = f * 0.1; if (2 * e / 1024 > t) t = 2 * e / 1024
			exit !(m <= f + t && m >= f - t) }'
}
near_fio a "$ma"
near_fio b "$mb"
t_check "the headline names the primary figure" tm_wait "primary MB/s: rMB/s .* $fsign, $judged" 1
read -r _ a b change verdict <<<"$(tm_screen | grep -E '^rareq-sz ' | head -n 1)"
t_check "rareq-sz fell from A to B ($a -> $b)" awk -v a="$a" -v b="$b" 'BEGIN { exit !(b + 0 < a + 0) }'
t_check "its verdict is 'lower', not judged ($verdict)" test "$verdict" = lower
read -r _ _ _ _ verdict <<<"$(tm_screen | grep -E '^r/s ' | head -n 1)"
t_check "r/s is not judged under MB/s ($verdict)" bash -c "[[ '$verdict' != *better* && '$verdict' != *worse* ]]"
tm_keys p
t_check "p judges IOPS instead" tm_wait "better/worse judged on IOPS" 2
t_check "and the headline is about r/s" tm_wait "^primary IOPS: r/s " 1
read -r _ _ _ _ verdict <<<"$(tm_screen | grep -E '^r/s ' | head -n 1)"
t_check "a significant r/s change is now judged ($verdict)" \
	bash -c "[[ '$verdict' == 'within noise' || '$verdict' == same || '$verdict' == *', better' || '$verdict' == *', worse' ]]"
read -r _ _ _ _ verdict <<<"$(tm_screen | grep -E '^rMB/s ' | head -n 1)"
t_check "and rMB/s no longer is ($verdict)" test "$verdict" = "$fsign"
t_check "histograms side by side" tm_wait "read request sizes (traced)" 1
# Units as the detail pages write them: sizes in bytes (never "(B)" beside
# snapshot B), latency buckets in µs/ms, us where the locale is not UTF-8
# (they read "<=1K", a thousand and twenty-four microseconds).
us=us
[ "$(locale charmap 2>/dev/null)" = UTF-8 ] && us=µs
t_check "sizes are in bytes" tm_wait "read request sizes (traced) (bytes): A | B" 1
t_check "no (B) for bytes" sh -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -qF '(B)'"
for _ in 1 2 3 4 5 6; do
	tm_screen | grep -qF "request latency, allocation to completion (traced) ($us): A | B" && break
	tm_keys NPage
	sleep 0.3
done
t_check "the latency histogram's unit is $us" \
	tm_wait "request latency, allocation to completion (traced) ($us): A | B" 1
lat_labels() { awk '/request latency, allocation/ { f = 1; next } f && NF == 0 { exit } f && /^[<>]/ { print $1 }'; }
tm_screen | lat_labels > "$T_TMP/lat-tui"
t_check "latency buckets on screen ($(head -c 60 "$T_TMP/lat-tui" | tr '\n' ' '))" test -s "$T_TMP/lat-tui"
t_check "each one in $us, ms or s" \
	sh -c "! grep -qvxE '(<=[0-9.]+($us|ms|s)|>[0-9]+s)' '$T_TMP/lat-tui'"

tm_keys A
t_check "A puts A's max_sectors_kb back" wait_sysfs $q/max_sectors_kb "$ms0"
tm_keys w
t_check "w saves both snapshots" tm_wait "saved" 2
files=$(ls "$XDG_STATE_HOME"/blktune/*.snap 2>/dev/null | wc -l)
t_eq "two snapshot files" "$files" 2
set -- "$XDG_STATE_HOME"/blktune/*.snap
t_check "A's file records the idle intervals left out" grep -Eq "^span [0-9.]+ [0-9.]+ $a_busy $a_idle $a_part\$" "$1"
t_check "and the value in force during A" grep -q "^tunable max_sectors_kb $ms0\$" "$1"
t_check "B's file the value in force during B" grep -q "^tunable max_sectors_kb $low\$" "$2"
"$BLKTUNE" diff "$1" "$2" >"$T_TMP/diff.txt"
t_eq "blktune diff reads them" "$?" 0
t_check "and lists max_sectors_kb" grep -q "max_sectors_kb *$ms0 -> $low" "$T_TMP/diff.txt"
t_check "with the same throughput verdict" grep -Eq "^  rMB/s .* $fsign, $judged" "$T_TMP/diff.txt"
for loc in C C.UTF-8; do
	u=us
	[ $loc = C.UTF-8 ] && u=µs
	LC_ALL=$loc "$BLKTUNE" diff "$1" "$2" | awk '/request latency, allocation/ { f = 1; next } f && !/^    / { exit }
		f && $1 ~ /^[<>]/ { print $1 }' > "$T_TMP/lat-$loc"
	t_check "diff under $loc: latency buckets ($(head -c 40 "$T_TMP/lat-$loc" | tr '\n' ' '))" test -s "$T_TMP/lat-$loc"
	t_check "diff under $loc: each in $u, ms or s" sh -c "! grep -qvxE '(<=[0-9.]+($u|ms|s)|>[0-9]+s)' '$T_TMP/lat-$loc'"
done
t_check "diff: sizes in bytes" grep -q "read request sizes (traced) (bytes)" "$T_TMP/diff.txt"
# each window's completions, the kernel's and traced: the kernel's are its
# r/s mean times its intervals (both diskstats; within 2 %, as intervals
# are not exactly $iv s long), the traced ones within 1 % of them
for f in "$1" "$2"; do
	read -r k t <<<"$(awk '$1 == "vec" && $2 == "trace" && $3 == "completions" { print $4, $5 }' "$f")"
	read -r n rs <<<"$(awk '$1 == "span" { n = $4 } $1 == "stat" && $2 == "r/s" { m = $4 } END { print n, m }' "$f")"
	t_check "$(basename "$f"): the kernel's $k completions in $n intervals of $iv s at $rs r/s" \
		awk -v k="$k" -v n="$n" -v r="$rs" -v i="$iv" 'BEGIN { e = k - n * r * i; exit !(k > 0 && e * e < k * k / 2500) }'
	t_check "$(basename "$f"): $t traced, within 1% of them" \
		awk -v k="$k" -v t="$t" 'BEGIN { d = k - t; exit !(d * d <= k * k / 10000) }'
done
t_check "diff: no warning for these two" sh -c "! grep -q '^warning' '$T_TMP/diff.txt'"
# a B whose traced count lacks 30 % of the kernel's: said in the text and JSON
awk -v k="$k" '$1 == "vec" && $3 == "completions" { $5 = int(k * 0.7) } { print }' "$2" > "$T_TMP/lossy.snap"
t_check "diff warns of a window whose traced figures lack completions" \
	sh -c "'$BLKTUNE' diff '$1' '$T_TMP/lossy.snap' | grep -q '^warning: $name in B: the traced figures lack 30.0% of the kernel.s $k completions'"
t_check "and so does its JSON" sh -c "'$BLKTUNE' diff '$1' '$T_TMP/lossy.snap' --json |
	jq -e '.warning | test(\"$name in B: the traced figures lack 30.0%\")' > /dev/null"
t_check "blktune show says what A left out" \
	bash -c "'$BLKTUNE' show '$1' | grep -q '$a_busy intervals, .*; $a_idle idle and $a_part partial intervals left out'"

# After A restored it, change it again: only quit's restore can undo this.
tm_keys Escape '{'
t_check "max_sectors_kb changed after A ($((ms0 / 2)))" wait_sysfs $q/max_sectors_kb $((ms0 / 2))
tm_keys q
t_check "quit asks to restore or keep" tm_wait "r restore and quit" 2
tm_keys r
t_check "blktune exits" tm_wait "blktune-exited" 5
t_eq "quit's restore put max_sectors_kb back" "$(cat $q/max_sectors_kb)" "$ms0"
t_done
