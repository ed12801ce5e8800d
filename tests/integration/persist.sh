#!/usr/bin/env bash
# blktune persist: the udev rule it writes matches the loop device by its
# backing file, and Debian's udevadm, run on the device with only that rule
# (a private mount of /etc/udev/rules.d), really sets the values; a second
# loop device is left alone. Refusals write nothing.
. "$(dirname "$0")/../lib.sh"
t_need_root
for c in udevadm unshare; do
	command -v $c > /dev/null || t_skip "no $c (contrib/install-deps test installs udev)"
done
t_loop_create 16 || t_fail "losetup A"
a=${T_LOOP#/dev/}
t_loop_create 16 || t_fail "losetup B"
b=${T_LOOP#/dev/}
q() { cat "/sys/block/$1/queue/$2"; }
sched() { sed -E 's/.*\[(.*)\].*/\1/' "/sys/block/$1/queue/scheduler"; }
a_ra=$(q "$a" read_ahead_kb) a_sched=$(sched "$a") b_ra=$(q "$b" read_ahead_kb) b_sched=$(sched "$b")
a_nr=$(q "$a" nr_requests)
restore() {
	echo "$a_ra" > "/sys/block/$a/queue/read_ahead_kb"
	echo "$a_sched" > "/sys/block/$a/queue/scheduler"
	echo "$a_nr" > "/sys/block/$a/queue/nr_requests"
	echo "$b_ra" > "/sys/block/$b/queue/read_ahead_kb"
	echo "$b_sched" > "/sys/block/$b/queue/scheduler"
}
trap 'restore; t_cleanup' EXIT
rules=$T_TMP/rules
mkdir -m 0755 "$rules"
[ "$a_ra" = 1024 ] && want_ra=512 || want_ra=1024
[ "$a_sched" = none ] && want_sched=mq-deadline || want_sched=none

# Refusals write nothing.
"$BLKTUNE" persist "$a" write_cache --rules-dir "$rules" --yes > /dev/null 2> "$T_TMP/err"
t_eq "write_cache refused (exit 2)" "$?" 2
t_check "and says blktune never writes it" grep -q "never writes it" "$T_TMP/err"
"$BLKTUNE" persist "$a" nr_requests=0 --rules-dir "$rules" --yes > /dev/null 2> "$T_TMP/err"
t_eq "nr_requests=0 refused like --set (exit 2)" "$?" 2
t_check "with the table's reason" grep -q "nr_requests 0 refused" "$T_TMP/err"
"$BLKTUNE" persist "$a" read_ahead_kb=$want_ra --rules-dir "$rules" < /dev/null > /dev/null 2> "$T_TMP/err"
t_eq "without a terminal or --yes nothing is written (exit 1)" "$?" 1
mkdir -m 0777 "$T_TMP/open"
"$BLKTUNE" persist "$a" read_ahead_kb=$want_ra --rules-dir "$T_TMP/open" --yes > /dev/null 2> "$T_TMP/err"
t_eq "a rules directory others can write is refused (exit 1)" "$?" 1
t_eq "nothing written in either" "$(find "$rules" "$T_TMP/open" -type f | wc -l)" 0
t_eq "the device's values untouched" "$(q "$a" read_ahead_kb)" "$a_ra"

# The rule.
"$BLKTUNE" persist "/dev/$a" read_ahead_kb=$want_ra scheduler=$want_sched --rules-dir "$rules" --yes > "$T_TMP/out" 2>&1
t_eq "persist exit status" "$?" 0
f=$(ls "$rules"/60-blktune-*.rules 2> /dev/null)
t_check "one rule file, 60-blktune-*.rules" test "$(echo "$f" | wc -w)" -eq 1
t_eq "its mode" "$(stat -c %a "$f")" 644
t_check "no temporary left" test -z "$(ls -A "$rules" | grep -v '^60-blktune-.*\.rules$')"
backing=$(cat "/sys/block/$a/loop/backing_file")
t_check "matches the backing file" grep -qF "ATTR{loop/backing_file}==\"$backing\"" "$f"
t_check "never the kernel name in a match" test -z "$(grep -v '^#' "$f" | grep -E "KERNEL|\\b$a\\b")"
t_check "scheduler before read_ahead_kb" \
	grep -qE "ATTR\{queue/scheduler\}=\"$want_sched\".*ATTR\{queue/read_ahead_kb\}=\"$want_ra\"" "$f"
t_check "the rule was shown before it was written" grep -qF "$(grep '^ACTION' "$f")" "$T_TMP/out"

# udev applies it: only this rule (or the files named) in a private
# /etc/udev/rules.d.
run_udev() {
	local dev=$1 files
	shift
	files=$(printf "'%s' " "${@:-$f}")
	unshare -m sh -c "mount -t tmpfs blktune-test /etc/udev/rules.d && cp $files /etc/udev/rules.d/ &&
		udevadm test --action=add /sys/block/$dev" > "$T_TMP/udev-$dev.log" 2>&1
}
mkdir -p /etc/udev/rules.d
run_udev "$a"
t_eq "udevadm test on $a set read_ahead_kb" "$(q "$a" read_ahead_kb)" "$want_ra"
t_eq "and the scheduler" "$(sched "$a")" "$want_sched"
run_udev "$b"
t_eq "the rule leaves $b's read_ahead_kb alone" "$(q "$b" read_ahead_kb)" "$b_ra"
t_eq "and its scheduler" "$(sched "$b")" "$b_sched"
t_check "the system's rules directory was not touched" test ! -e "/etc/udev/rules.d/$(basename "$f")"

# A rule with nr_requests and mq-deadline's async_depth: writing nr_requests
# resets async_depth, so the rule must write it first.
qa=/sys/block/$a/queue
if t_have_sched mq-deadline "$qa"; then
	echo mq-deadline > "$qa/scheduler"
	"$BLKTUNE" persist "$a" scheduler=mq-deadline iosched/async_depth=48 nr_requests=96 --rules-dir "$rules" \
		--yes > "$T_TMP/out" 2>&1
	t_eq "persist with async_depth and nr_requests: exit status" "$?" 0
	t_check "nr_requests before the parameters" \
		grep -qE 'ATTR\{queue/nr_requests\}="96".*ATTR\{queue/iosched/async_depth\}="48"' "$f"
	echo none > "$qa/scheduler"
	run_udev "$a"
	t_eq "udevadm test: the scheduler" "$(sched "$a")" mq-deadline
	t_eq "udevadm test: nr_requests" "$(q "$a" nr_requests)" 96
	t_eq "udevadm test: async_depth as persisted, not reset by nr_requests" "$(q "$a" iosched/async_depth)" 48
else
	t_absent "mq-deadline ($(cat "$qa/scheduler")): async_depth order untested here"
fi

# A scheduler parameter alone: the rule selects its scheduler first, else at
# boot the parameter is written under the kernel's default scheduler (none
# here: no iosched/ at all) and lost. kyber is not the default of any disk.
if t_have_sched kyber "$qa"; then
	rm -f "$f" # a rule of its own, not added to the one above
	echo kyber > "$qa/scheduler"
	lat=$(($(q "$a" iosched/read_lat_nsec) + 1000000))
	echo "$lat" > "$qa/iosched/read_lat_nsec"
	"$BLKTUNE" persist "$a" iosched/read_lat_nsec --rules-dir "$rules" --yes > "$T_TMP/out" 2> "$T_TMP/err"
	t_eq "persist a kyber parameter alone: exit status" "$?" 0
	t_check "the rule selects kyber before its parameter" \
		grep -qE "ATTR\{queue/scheduler\}=\"kyber\".*ATTR\{queue/iosched/read_lat_nsec\}=\"$lat\"" "$f"
	t_check "and says it added the scheduler" grep -q "scheduler kyber added" "$T_TMP/err"
	echo none > "$qa/scheduler"
	run_udev "$a"
	t_eq "udevadm test from scheduler none: kyber" "$(sched "$a")" kyber
	t_eq "udevadm test: read_lat_nsec as persisted" "$(q "$a" iosched/read_lat_nsec)" "$lat"
	cp "$f" "$T_TMP/kept"
	"$BLKTUNE" persist "$a" scheduler=mq-deadline iosched/read_lat_nsec --rules-dir "$rules" --yes \
		> /dev/null 2> "$T_TMP/err"
	t_eq "another scheduler with kyber's parameter is refused (exit 2)" "$?" 2
	t_check "saying whose parameter it is" grep -q "read_lat_nsec is a parameter of kyber" "$T_TMP/err"
	t_check "and the rule is left as it was" cmp -s "$f" "$T_TMP/kept"
else
	t_absent "kyber ($(cat "$qa/scheduler")): a parameter persisted alone untested here"
fi

# A later call adds to the rule blktune wrote before; a rule edited by hand
# is never replaced, as p refuses it.
rm -f "$f"
"$BLKTUNE" persist "$a" read_ahead_kb=$want_ra --rules-dir "$rules" --yes > /dev/null 2>&1
"$BLKTUNE" persist "$a" nr_requests=64 --rules-dir "$rules" --yes > /dev/null 2>&1
t_eq "a second persist: exit status" "$?" 0
t_check "the rule holds the new nr_requests" grep -qF 'ATTR{queue/nr_requests}="64"' "$f"
t_check "and read_ahead_kb, persisted before" grep -qF "ATTR{queue/read_ahead_kb}=\"$want_ra\"" "$f"
sed -i '/^ACTION/s/$/, RUN+="\/bin\/true"/' "$f"
cp "$f" "$T_TMP/edited"
"$BLKTUNE" persist "$a" nr_requests=32 --rules-dir "$rules" --yes > /dev/null 2> "$T_TMP/err"
t_eq "a rule edited by hand is refused (exit 2)" "$?" 2
t_check "in one line naming the file" grep -qxF "blktune persist: $f is not the rule blktune wrote for this disk: left as it is" "$T_TMP/err"
t_check "and it is left as it was" cmp -s "$f" "$T_TMP/edited"

# The rule is read before the y/N prompt and written after it: one edited by
# hand meanwhile (or made where there was none) is left as it is, not
# replaced by the merge of what was read.
tty_answer=$(dirname "$0")/tty-answer.py
if command -v python3 > /dev/null; then
	for before in "a rule" "no rule"; do
		rm -f "$f"
		[ "$before" = "a rule" ] && "$BLKTUNE" persist "$a" read_ahead_kb=$want_ra --rules-dir "$rules" --yes > /dev/null 2>&1
		python3 "$tty_answer" "[y/N]" "echo '# edited during the prompt' >> '$f'; cp '$f' '$T_TMP/edited'" y \
			"$BLKTUNE" persist "$a" nr_requests=64 --rules-dir "$rules" > "$T_TMP/out" 2>&1
		t_eq "$before, edited during the prompt: not written (exit 2)" "$?" 2
		t_check "$before, edited during the prompt: says so" grep -qF "blktune persist: not written: $f changed since it was read (a hand edit?): left as it is" "$T_TMP/out"
		t_check "$before, edited during the prompt: the edit stays" cmp -s "$f" "$T_TMP/edited"
		t_check "$before, edited during the prompt: no temporary file left" test "$(ls -A "$rules")" = "${f##*/}"
	done
	rm -f "$f"
	"$BLKTUNE" persist "$a" read_ahead_kb=$want_ra --rules-dir "$rules" --yes > /dev/null 2>&1
	python3 "$tty_answer" "[y/N]" true y "$BLKTUNE" persist "$a" nr_requests=64 --rules-dir "$rules" > "$T_TMP/out" 2>&1
	t_eq "not edited during the prompt: y writes it" "$?" 0
	t_check "with the new nr_requests" grep -qF 'ATTR{queue/nr_requests}="64"' "$f"
else
	t_absent "python3: the rule edited during the prompt untested here"
fi

# nr_requests is checked against its limit under the rule's scheduler: with
# none it is the hardware queue depth (loop: 128), with a scheduler 2048;
# udev writes the scheduler first, and a value over the limit is EINVAL.
rm -f "$f"
depth=$(sort -n "/sys/block/$a"/mq/*/nr_tags 2> /dev/null | head -1)
if t_have_sched mq-deadline "$qa" && [ -n "$depth" ] && [ "$depth" -lt 2048 ]; then
	echo mq-deadline > "$qa/scheduler"
	"$BLKTUNE" persist "$a" scheduler=none nr_requests=2048 --rules-dir "$rules" --yes > /dev/null 2> "$T_TMP/err"
	t_eq "nr_requests over the queue depth with scheduler none, mq-deadline in force: refused (exit 2)" "$?" 2
	t_check "saying the limit under none" grep -q "nr_requests 2048 refused under scheduler none.*($depth, the hardware queue depth" "$T_TMP/err"
	t_check "nothing written" test ! -e "$f"
	"$BLKTUNE" persist "$a" scheduler=none nr_requests=$depth --rules-dir "$rules" --yes > /dev/null 2>&1
	t_eq "nr_requests at the queue depth with none: exit status" "$?" 0
	cp "$f" "$T_TMP/kept"
	"$BLKTUNE" persist "$a" nr_requests=2048 --rules-dir "$rules" --yes > /dev/null 2> "$T_TMP/err"
	t_eq "then nr_requests=2048 alone, mq-deadline in force: refused under the rule's none (exit 2)" "$?" 2
	t_check "the rule left as it was" cmp -s "$f" "$T_TMP/kept"
	echo none > "$qa/scheduler"
	"$BLKTUNE" persist "$a" scheduler=mq-deadline nr_requests=1024 --rules-dir "$rules" --yes > /dev/null 2>&1
	t_eq "nr_requests=1024 with mq-deadline, none in force: exit status" "$?" 0
	run_udev "$a"
	t_eq "udevadm test: mq-deadline" "$(sched "$a")" mq-deadline
	t_eq "udevadm test: nr_requests 1024 written under it" "$(q "$a" nr_requests)" 1024
	t_check "udev wrote every value" test -z "$(grep 'Failed to write' "$T_TMP/udev-$a.log")"
else
	t_absent "mq-deadline or a queue depth under 2048 ($(cat "$qa/scheduler"), ${depth:-no mq/}): nr_requests' limit untested here"
fi

# --remove
"$BLKTUNE" persist --remove "$a" --rules-dir "$rules" > /dev/null
t_eq "--remove exit status" "$?" 0
t_check "the file is gone" test ! -e "$f"
"$BLKTUNE" persist --remove "$a" --rules-dir "$rules" > /dev/null 2>&1
t_eq "--remove with no rule exits 1" "$?" 1

# Two loop devices over files of one name in two directories: the readable
# part of their rule file names is the same ("img"), the names are not.
# Older blktune named a rule by it alone: one it wrote for the first is
# moved by the first's next persist, and left alone by the second's.
mkdir "$T_TMP/one" "$T_TMP/two"
t_loop_create 16 "$T_TMP/one/img" || t_fail "losetup C"
c=${T_LOOP#/dev/}
t_loop_create 16 "$T_TMP/two/img" || t_fail "losetup D"
d=${T_LOOP#/dev/}
c_ra=$(q "$c" read_ahead_kb) d_ra=$(q "$d" read_ahead_kb)
trap 'restore; echo "$c_ra" > "/sys/block/$c/queue/read_ahead_kb"; echo "$d_ra" > "/sys/block/$d/queue/read_ahead_kb"
	t_cleanup' EXIT
old=$rules/60-blktune-loop-img.rules
mkdir -m 0755 "$T_TMP/older"
"$BLKTUNE" persist "$c" read_ahead_kb=$want_ra --rules-dir "$T_TMP/older" --yes > /dev/null 2>&1
mv "$T_TMP/older"/*.rules "$old" # the text older blktune wrote too, under its name
cp "$old" "$T_TMP/old"
"$BLKTUNE" persist "$d" read_ahead_kb=256 --rules-dir "$rules" --yes > /dev/null 2> "$T_TMP/err"
t_eq "the second device's persist beside the first's old-named rule: exit status" "$?" 0
fd=$(ls "$rules"/60-blktune-loop-img-*.rules 2> /dev/null)
t_check "one rule file of its own, 60-blktune-loop-img-HASH.rules" test "$(echo "$fd" | wc -w)" -eq 1
t_check "matching its backing file" grep -qF "ATTR{loop/backing_file}==\"$T_TMP/two/img\"" "$fd"
t_check "the first's old-named rule left as it was" cmp -s "$old" "$T_TMP/old"
"$BLKTUNE" persist "$c" nr_requests=64 --rules-dir "$rules" --yes > "$T_TMP/out" 2> "$T_TMP/err"
t_eq "the first device's persist: exit status" "$?" 0
t_check "says it moves the old-named rule" grep -qF "(moved from $old):" "$T_TMP/out"
t_check "the old name is gone" test ! -e "$old"
fc=$(ls "$rules"/60-blktune-loop-img-*.rules | grep -vxF "$fd")
t_check "two rule files now, both 60-blktune-loop-img-HASH.rules" test "$(echo "$fc" | wc -w)" -eq 1
t_check "the first's matches its backing file" grep -qF "ATTR{loop/backing_file}==\"$T_TMP/one/img\"" "$fc"
t_check "and keeps read_ahead_kb from the old-named rule" grep -qF "ATTR{queue/read_ahead_kb}=\"$want_ra\"" "$fc"
t_check "with the new nr_requests" grep -qF 'ATTR{queue/nr_requests}="64"' "$fc"
t_check "the second's rule left as it was" grep -qF 'ATTR{queue/read_ahead_kb}="256"' "$fd"
echo 128 > "/sys/block/$c/queue/read_ahead_kb"
echo 128 > "/sys/block/$d/queue/read_ahead_kb"
run_udev "$c" "$fc" "$fd"
t_eq "udevadm test with both rules: $c's read_ahead_kb" "$(q "$c" read_ahead_kb)" "$want_ra"
run_udev "$d" "$fc" "$fd"
t_eq "udevadm test with both rules: $d's read_ahead_kb" "$(q "$d" read_ahead_kb)" 256
"$BLKTUNE" persist --remove "$d" --rules-dir "$rules" > /dev/null
t_eq "--remove of the second: exit status" "$?" 0
t_eq "the first's rule is what is left" "$(ls "$rules"/*.rules)" "$fc"
# An older blktune writes the first's rule again under the old name, which
# sorts after the new one and would win at boot: refused, both left.
cp "$T_TMP/old" "$old"
cp "$fc" "$T_TMP/fc"
"$BLKTUNE" persist "$c" nr_requests=32 --rules-dir "$rules" --yes > /dev/null 2> "$T_TMP/err"
t_eq "its rule under both names: exit status" "$?" 2
t_check "says the old-named rule would override the new one" grep -qF "$old (an older blktune's name) holds this disk's rule too" "$T_TMP/err"
t_check "the old-named rule left as it was" cmp -s "$old" "$T_TMP/old"
t_check "the new-named rule left as it was" cmp -s "$fc" "$T_TMP/fc"
t_done
