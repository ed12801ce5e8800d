#!/usr/bin/env bash
# p in the tunables panel: the udev rule for the selected value is shown,
# written only after y, into $BLKTUNE_RULES_DIR (a directory of this test's);
# rows a rule may not write are refused with the reason.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
t_loop_create 16 || t_fail "losetup"
name=${T_LOOP#/dev/}
rules=$T_TMP/rules
mkdir -m 0755 "$rules"
sched0=$(sed -E 's/.*\[([^]]*)\].*/\1/' "/sys/block/$name/queue/scheduler")
nr0=$(cat "/sys/block/$name/queue/nr_requests")
trap 'echo "$sched0" > "/sys/block/$name/queue/scheduler"; echo "$nr0" > "/sys/block/$name/queue/nr_requests"
	tm_stop; t_cleanup' EXIT
ra=$(cat "/sys/block/$name/queue/read_ahead_kb")
backing=$(cat "/sys/block/$name/loop/backing_file")
# wide: the status line after y names the rules file (this test's long
# directory, the loop file's name, a hash) before what udev sets
TM_W=160 tm_start "BLKTUNE_RULES_DIR='$rules' XDG_STATE_HOME='$T_TMP/state' '$BLKTUNE' -d 0.5 --no-trace \
	--journal-dir '$T_TMP/journal' -p $name; sleep 60"
tm_wait "^DEVICE" 5
tm_keys t
t_check "the tunables panel opens" tm_wait "tunables of $name" 3
# the rule wraps over several lines: read the screen as one string, with
# the spaces that end a line (-N), where the rule may wrap
joined() { tm capture-pane -p -N -t "$TM_SESS" | tr -d '\n' | grep -qF -- "$1"; }
# joined_wait TEXT: joined TEXT within 3 s
joined_wait() {
	local i
	for ((i = 0; i < 60; i++)); do
		joined "$1" && return 0
		sleep 0.05
	done
	return 1
}
# pick TEXT: select the row whose help line holds TEXT (the selection is
# not marked in the screen's text)
pick() {
	local i
	for ((i = 0; i < 80; i++)); do
		tm_screen | grep -qF -- "$1" && return 0
		((i < 40)) && tm_keys j || tm_keys k
		sleep 0.05
	done
	return 1
}
# read_ahead_kb is the panel's first row
tm_keys p
t_check "p asks before writing" tm_wait "y writes the rule above" 3
t_check "the rule shown matches the backing file" joined "ATTR{loop/backing_file}==\"$backing\""
t_check "and sets read_ahead_kb to its value now" joined "ATTR{queue/read_ahead_kb}=\"$ra\""
tm_keys n
t_check "another key cancels" tm_wait "not persisted" 3
t_eq "nothing written" "$(ls -A "$rules" | wc -l)" 0
tm_keys p
tm_wait "y writes the rule" 3
tm_keys y
t_check "y writes it and says so" tm_wait "written $rules/60-blktune-loop-" 3
f=$(ls "$rules"/60-blktune-loop-*.rules 2> /dev/null)
t_check "the rule file is there" test -f "$f"
t_check "holding the value" grep -qF "ATTR{queue/read_ahead_kb}=\"$ra\"" "$f"
t_check "matched on the backing file, not the name" grep -qF "ATTR{loop/backing_file}==\"$backing\"" "$f"
# a second row persisted: added to the disk's rule, the first one kept
# (nr_requests is the panel's third row, after max_sectors_kb)
nr=$(cat "/sys/block/$name/queue/nr_requests")
tm_keys j j p
t_check "the second rule shown holds nr_requests" tm_wait "y writes the rule above" 3
t_check "and still read_ahead_kb" joined "ATTR{queue/read_ahead_kb}=\"$ra\""
tm_keys y
t_check "y writes it" tm_wait "udev sets $name nr_requests=$nr" 3
t_check "the rule file holds nr_requests" grep -qF "ATTR{queue/nr_requests}=\"$nr\"" "$f"
t_check "and read_ahead_kb, persisted before" grep -qF "ATTR{queue/read_ahead_kb}=\"$ra\"" "$f"
t_eq "one rule file" "$(ls "$rules" | wc -l)" 1
# the rule is read at p and written at y: one edited by hand between the
# two is left as it is, not replaced by the merge of what p read
tm_keys p
tm_wait "y writes the rule above" 3
echo "# edited while p asked" >> "$f"
cp "$f" "$T_TMP/edited"
tm_keys y
t_check "y after a hand edit refuses to write over it" joined_wait "rules changed since it was read"
t_check "the edit stays" cmp -s "$f" "$T_TMP/edited"
sed -i '/^# edited while p asked$/d' "$f"
# a rule edited by hand is never replaced
sed -i 's/$/, RUN+="\/bin\/true"/' "$f"
cp "$f" "$T_TMP/edited"
tm_keys p
t_check "a rule edited by hand is left as it is" tm_wait "is not the rule blktune wrote for this disk" 3
t_check "unchanged" cmp -s "$f" "$T_TMP/edited"
# rows a rule may not write: write_cache, found by its help line
t_check "the write_cache row is selected" pick "Shown, never written"
tm_keys p
t_check "write_cache cannot be persisted, and it says why" tm_wait "write_cache cannot be persisted" 3
rm -f "$f"
# A scheduler parameter: the rule selects its scheduler first (at boot the
# disk has the kernel's default one, whose iosched/ lacks it), and a later
# p on another scheduler's parameter replaces the scheduler and drops the
# first one's parameters, saying so. The row is found by its help line.
q=/sys/block/$name/queue
if t_have_sched kyber "$q" && t_have_sched mq-deadline "$q"; then
	echo kyber > "$q/scheduler"
	tm_wait "^ *iosched/read_lat_nsec " 3
	lat=$(cat "$q/iosched/read_lat_nsec")
	t_check "the kyber row is selected" pick "Target read latency"
	tm_keys p
	t_check "p on a kyber parameter says it adds the scheduler" tm_wait "scheduler kyber added" 3
	t_check "the rule shown selects kyber, then the parameter" \
		joined "ATTR{queue/scheduler}=\"kyber\", ATTR{queue/iosched/read_lat_nsec}=\"$lat\""
	tm_keys y
	t_check "y writes it" tm_wait "udev sets $name iosched/read_lat_nsec=$lat" 3
	f=$(ls "$rules"/60-blktune-loop-*.rules 2> /dev/null)
	t_check "the file selects kyber before its parameter" \
		grep -qE "ATTR\{queue/scheduler\}=\"kyber\", ATTR\{queue/iosched/read_lat_nsec\}=\"$lat\"" "$f"
	echo mq-deadline > "$q/scheduler"
	tm_wait "^ *iosched/fifo_batch " 3
	fb=$(cat "$q/iosched/fifo_batch")
	t_check "the mq-deadline row is selected" pick "Requests dispatched in one sorted batch"
	tm_keys p
	t_check "p on an mq-deadline parameter says what it replaces" \
		tm_wait "dropped iosched/read_lat_nsec (not mq-deadline's); scheduler kyber replaced by mq-deadline" 3
	tm_keys y
	t_check "y writes it" tm_wait "udev sets $name iosched/fifo_batch=$fb" 3
	t_check "the file selects mq-deadline, then fifo_batch" \
		grep -qE "ATTR\{queue/scheduler\}=\"mq-deadline\", ATTR\{queue/iosched/fifo_batch\}=\"$fb\"" "$f"
	t_eq "and no longer holds kyber's parameter" "$(grep -c read_lat_nsec "$f")" 0
	t_eq "nor kyber" "$(grep -c kyber "$f")" 0
	rm -f "$f"
else
	t_absent "kyber or mq-deadline ($(cat "$q/scheduler")): scheduler parameters' rules untested here"
fi
# nr_requests is checked under the scheduler the rule selects, not the one
# in force: under none its limit is the hardware queue depth, and udev's
# write of a larger value would fail at boot.
depth=$(sort -n "/sys/block/$name"/mq/*/nr_tags 2> /dev/null | head -1)
if t_have_sched mq-deadline "$q" && [ -n "$depth" ] && [ "$depth" -lt 2048 ]; then
	"$BLKTUNE" persist "$name" scheduler=none --rules-dir "$rules" --yes > /dev/null 2>&1
	f=$(ls "$rules"/60-blktune-loop-*.rules 2> /dev/null)
	cp "$f" "$T_TMP/kept"
	echo mq-deadline > "$q/scheduler"
	echo 2048 > "$q/nr_requests"
	t_check "the panel shows nr_requests 2048" tm_wait "^ *nr_requests  *2048 " 3
	t_check "the nr_requests row is selected" pick "Requests the queue may hold"
	tm_keys p
	t_check "p refuses it over the queue depth under the rule's scheduler none" \
		tm_wait "not persisted: nr_requests 2048 refused under scheduler none" 3
	t_check "the rule is left as it was" cmp -s "$f" "$T_TMP/kept"
	rm -f "$f"
else
	t_absent "mq-deadline or a queue depth under 2048 ($(cat "$q/scheduler"), ${depth:-no mq/}): p's nr_requests limit untested here"
fi
# A rule older blktune wrote under the name without the hash: p adds to it,
# says it moves it, and y writes the new name and removes the old one.
mkdir -m 0755 "$T_TMP/older"
"$BLKTUNE" persist "$name" nr_requests --rules-dir "$T_TMP/older" --yes > /dev/null 2>&1
old=$rules/60-blktune-loop-${backing##*/}.rules
mv "$T_TMP/older"/*.rules "$old"
t_check "the read_ahead_kb row is selected" pick "Largest readahead window"
tm_keys p
t_check "p on a disk with an old-named rule says it moves it" joined_wait "moved from ${old##*/}"
t_check "and keeps its nr_requests" joined "ATTR{queue/nr_requests}="
tm_keys y
t_check "y writes it" tm_wait "udev sets $name read_ahead_kb=" 3
f=$(ls "$rules"/60-blktune-loop-*-*.rules 2> /dev/null)
t_check "under the new name" test "$(echo "$f" | wc -w)" -eq 1
t_check "the old name is gone" test ! -e "$old"
t_check "the rule holds both" grep -qE 'nr_requests.*read_ahead_kb' "$f"
t_done
