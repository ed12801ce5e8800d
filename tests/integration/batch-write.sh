#!/usr/bin/env bash
# Batch output that cannot be written is a failure, said on stderr: a full
# disk (/dev/full) lost the report, so the exit status is 1, not the 0 of a
# run that printed it. A reader that went away (head) still ends the run
# quietly: SIGPIPE, or with SIGPIPE ignored, exit 0 and nothing said.
# Before the fix every failed write ended with exit 0 and no word.
. "$(dirname "$0")/../lib.sh"
fix=$T_TOP/tests/fixtures/lvm-names
[ -w /dev/full ] || t_skip "no /dev/full"

for args in "-b -n 1 -d 0.1" "-b -n 1 -d 0.1 --json" "-b -n 1 -d 0.1 -h" "--since-boot" "--since-boot --json"; do
	# shellcheck disable=SC2086
	"$BLKTUNE" --root "$fix" $args >/dev/full 2>"$T_TMP/err"
	t_eq "blktune $args >/dev/full: exit status" "$?" 1
	t_eq "blktune $args >/dev/full: one line on stderr" "$(wc -l <"$T_TMP/err")" 1
	t_check "blktune $args >/dev/full: says why" grep -q "No space left on device" "$T_TMP/err"
done

# The reader leaves after the first line: SIGPIPE as any filter's.
"$BLKTUNE" --root "$fix" -b -n 50 -d 0.1 2>"$T_TMP/err" | head -n 1 >/dev/null
t_eq "a reader that leaves: killed by SIGPIPE" "${PIPESTATUS[0]}" 141
# With SIGPIPE ignored the write fails with EPIPE: the end, not an error.
(trap '' PIPE; exec "$BLKTUNE" --root "$fix" -b -n 50 -d 0.1 2>"$T_TMP/err") | head -n 1 >/dev/null
t_eq "EPIPE with SIGPIPE ignored: exit status" "${PIPESTATUS[0]}" 0
t_eq "EPIPE: nothing said" "$(cat "$T_TMP/err")" ""

# Written whole: 0.
"$BLKTUNE" --root "$fix" -b -n 1 -d 0.1 --json >"$T_TMP/out" 2>"$T_TMP/err"
t_eq "a report written: exit status" "$?" 0
t_eq "a report written: one line" "$(wc -l <"$T_TMP/out")" 1
t_done
