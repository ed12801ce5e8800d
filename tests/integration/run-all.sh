#!/usr/bin/env bash
# tests/run-all itself, over made-up parts: a unit binary that prints Check's
# summary, a passing script, a script that skips with its reason, one that
# exits 77 saying nothing, one that sub-skips a part and goes on, one whose
# part needs a kernel feature that is absent, one that fails. Without CI every skip is listed with its reason and only the failure
# fails; under CI=true each skip is a failure too (make check cannot pass on
# unit tests alone), and a clean set of parts passes. No root needed.
. "$(dirname "$0")/../lib.sh"
runall=$T_TOP/tests/run-all
b=$T_TMP/build
s=$T_TMP/scripts
mkdir -p "$b/asan" "$s"
for u in "$b/test-unit" "$b/asan/test-unit"; do
	printf '#!/bin/sh\necho "100%%: Checks: 3, Failures: 0, Errors: 0"\n' >"$u"
	chmod +x "$u"
done
printf 'echo "ok - one"; echo "ok - two"; exit 0\n' >"$s/a-pass.sh"
printf 'echo "skip - needs a unicorn"; exit 77\n' >"$s/b-skip.sh"
printf 'exit 77\n' >"$s/c-silent.sh"
printf 'echo "ok - the rest"; echo "skip - one CPU: the pinned part"; exit 0\n' >"$s/d-subskip.sh"

# run [ENV...]: run-all over the made-up parts; output in $T_TMP/out, status in rc
run() {
	env -u CI "$@" BLKTUNE_RUN_ALL_DIRS="$s" "$runall" "$b" >"$T_TMP/out" 2>&1
	rc=$?
}
has() { grep -qF -- "$1" "$T_TMP/out"; }
show() { sed 's/^/# | /' "$T_TMP/out"; }

run
t_eq "skips alone, not under CI: exit status" "$rc" 0
t_check "the closing line counts 3+3 unit checks, 3 oks and 3 skips" has "9 passed, 0 failed, 3 skipped"
t_check "a skip is listed with its reason" has "skipped: $s/b-skip.sh: needs a unicorn"
t_check "an exit 77 without a reason is listed as such" \
	has "skipped: $s/c-silent.sh: exit 77 without a \"skip - reason\" line"
t_check "a sub-skip of a script that goes on is listed" has "skipped: $s/d-subskip.sh: one CPU: the pinned part"
[ "$rc" = 0 ] || show

for ci in true 1 yes; do
	run CI=$ci
	t_eq "CI=$ci: skips fail make check" "$rc" 1
	t_check "CI=$ci: each of the 3 skips is a failure" has "9 passed, 3 failed, 0 skipped"
	t_check "CI=$ci: the skip says why it failed" has "not ok - $s/b-skip.sh skipped under CI: needs a unicorn"
	t_check "CI=$ci: so does the sub-skip" has "not ok - $s/d-subskip.sh skipped under CI: one CPU: the pinned part"
	t_check "CI=$ci: the skip is in the closing list" has "failed: $s/d-subskip.sh: skipped under CI: one CPU: the pinned part"
done
[ "$rc" = 1 ] || show

# Without the skipping parts: CI passes.
rm "$s/b-skip.sh" "$s/c-silent.sh" "$s/d-subskip.sh"
run CI=true
t_eq "CI with nothing skipped: exit status" "$rc" 0
t_check "CI with nothing skipped: the closing line" has "8 passed, 0 failed, 0 skipped"
# A part whose kernel feature is absent (t_absent) is listed, also under CI,
# and fails nothing.
printf 'echo "ok - the rest"; echo "absent - scheduler bfq: untested here"; exit 0\n' >"$s/d-absent.sh"
run CI=true
t_eq "CI with a kernel feature absent: exit status" "$rc" 0
t_check "CI with a kernel feature absent: the closing line" has "9 passed, 0 failed, 0 skipped"
t_check "the absent part is listed with its script" has "not in this kernel: $s/d-absent.sh: scheduler bfq: untested here"
rm "$s/d-absent.sh"

# A failing assertion, and a script that dies without one, fail either way.
printf 'echo "not ok - broken"; exit 1\n' >"$s/e-fail.sh"
printf 'exit 3\n' >"$s/f-dies.sh"
run
t_eq "a failure: exit status" "$rc" 1
t_check "a failure: counted" has "8 passed, 2 failed, 0 skipped"
t_check "a script dying with no 'not ok' line is a failure" has "not ok - $s/f-dies.sh exited 3"
# The failures are repeated after the closing part: CI shows a log's tail.
t_check "the failures are listed again at the end" sh -c \
	"tail -n 4 '$T_TMP/out' | grep -qxF 'failed: $s/e-fail.sh: broken' &&
	 tail -n 4 '$T_TMP/out' | grep -qxF 'failed: $s/f-dies.sh: exited 3'"
# A unit binary without Check's summary (it crashed) is a failure.
rm "$s/e-fail.sh" "$s/f-dies.sh"

# A script that hangs is ended at BLKTUNE_SCRIPT_LIMIT: a failure that says
# so, its EXIT trap (lib.sh's cleanup) runs, its children go with it, and
# the scripts after it still run.
cat >"$s/g-hangs.sh" <<EOF
. "$T_TOP/tests/lib.sh"
mark() { touch "$T_TMP/cleaned"; }
T_CLEANUP_FIRST+=(mark)
echo "ok - before the hang"
sleep 600 & echo \$! > "$T_TMP/child"
wait
EOF
printf 'echo "ok - after"\n' >"$s/h-after.sh"
run CI=true BLKTUNE_SCRIPT_LIMIT=3
t_eq "a hung script: exit status" "$rc" 1
t_check "a hung script: said, with the limit" has "not ok - $s/g-hangs.sh did not end within 3 s (BLKTUNE_SCRIPT_LIMIT)"
t_check "a hung script: its cleanup ran" test -e "$T_TMP/cleaned"
t_check "a hung script: its child was ended too" sh -c "! kill -0 \$(cat '$T_TMP/child') 2>/dev/null"
t_check "a hung script: the scripts after it ran; the counts" has "10 passed, 1 failed, 0 skipped"
[ "$rc" = 1 ] || show
rm "$s/g-hangs.sh" "$s/h-after.sh"

# A unit test's failure: counted, and Check's own line is in the closing list.
printf '#!/bin/sh\necho "tests/unit/test-x.c:12:F:model:test_y:0: want 2, got 3"\necho "66%%: Checks: 3, Failures: 1, Errors: 0"\n' >"$b/test-unit"
run
t_eq "a failing unit check: exit status" "$rc" 1
t_check "a failing unit check: counted" has "7 passed, 1 failed, 0 skipped"
t_check "a failing unit check: in the closing list" has "failed: unit tests: tests/unit/test-x.c:12:F:model:test_y:0: want 2, got 3"
printf '#!/bin/sh\necho "100%%: Checks: 3, Failures: 0, Errors: 0"\n' >"$b/test-unit"

printf '#!/bin/sh\nexit 1\n' >"$b/asan/test-unit"
run
t_eq "a unit binary without a summary: exit status" "$rc" 1
t_check "a unit binary without a summary: said" has "unit tests under ASan/UBSan: no Check summary"
t_check "a unit binary without a summary: in the closing list" has "failed: unit tests under ASan/UBSan: no Check summary"
t_done
