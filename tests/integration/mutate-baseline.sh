#!/usr/bin/env bash
# tests/mutate.py itself, over a made-up tree: one module (fake_add, whose
# only mutant is a + b -> a - b), a unit suite too weak to see the mutant,
# and integration scripts: one that sees it, one that fails whatever the
# tree (broken, or flaky under load), one that hangs. The scripts are run
# on the unmutated tree first: a failing or hanging one is said, noted in
# the report and left out, so its failure is not counted as a kill. Root
# (the scripts run in tests/mutate-sandbox.sh's mount namespace).
. "$(dirname "$0")/../lib.sh"
t_need_root
command -v python3 >/dev/null || t_skip "no python3"
command -v cc >/dev/null || t_skip "no cc"

top=$T_TMP/top
mkdir -p "$top/src" "$top/include" "$top/tests/unit" "$top/tests/integration"
cp "$T_TOP/tests/mutate.py" "$T_TOP/tests/mutate-sandbox.sh" "$top/tests/"
cat >"$top/include/fake.h" <<'EOF'
int fake_add(int a, int b);
EOF
cat >"$top/src/fake.c" <<'EOF'
#include "fake.h"
int fake_add(int a, int b)
{
	return a + b;
}
EOF
# a module whose function a shared header declares (as output.h declares
# output-json.c's output_json): its suites are found all the same
cat >"$top/include/shared.h" <<'EOF'
int other_sub(int a, int b);
EOF
cat >"$top/src/other.c" <<'EOF'
#include "shared.h"
int other_sub(int a, int b)
{
	return a - b;
}
EOF
cat >"$top/src/main.c" <<'EOF'
#include <stdio.h>
#include "fake.h"
int main(void)
{
	printf("%d\n", fake_add(2, 2));
	return 0;
}
EOF
# the driver finds suites by their suite_create("name") call
cat >"$top/tests/unit/test-fake.c" <<'EOF'
#include <string.h>
#include "fake.h"
#include "shared.h"
static const char *suite_create(const char *name) { return name; }
int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], suite_create("fake")) == 0)
		return fake_add(0, 0) != 0;
	if (argc > 1 && strcmp(argv[1], suite_create("other")) == 0)
		return other_sub(3, 1) != 2;
	return 2;
}
EOF
cat >"$top/GNUmakefile" <<'EOF'
CFLAGS ?= -O0
build/asan/test-unit: src/fake.c src/other.c tests/unit/test-fake.c include/fake.h include/shared.h
	mkdir -p build/asan && $(CC) $(CFLAGS) -Iinclude -o $@ src/fake.c src/other.c tests/unit/test-fake.c
build/blktune: src/fake.c src/main.c include/fake.h
	mkdir -p build && $(CC) $(CFLAGS) -Iinclude -o $@ src/fake.c src/main.c
EOF
cat >"$top/tests/integration/adds.sh" <<'EOF'
got=$("$BLKTUNE")
[ "$got" = 4 ] && { echo "ok - 2 + 2"; exit 0; }
echo "not ok - 2 + 2 gave $got"; exit 1
EOF
cat >"$top/tests/integration/broken.sh" <<'EOF'
echo "not ok - fails whatever the tree"; exit 1
EOF
cat >"$top/tests/integration/dies.sh" <<'EOF'
exit 3
EOF
cat >"$top/tests/integration/hangs.sh" <<'EOF'
sleep 120
EOF
cat >"$top/tests/integration/skips.sh" <<'EOF'
echo "skip - needs a unicorn"; exit 77
EOF

# mut SCRIPTS [ARGS...]: the driver over the made-up tree; output in
# $T_TMP/out, report in $T_TMP/rep/report.txt, status in rc
mut() {
	local scripts=$1
	shift
	python3 "$top/tests/mutate.py" --modules fake --integration 1 --scripts "$scripts" \
		--report "$T_TMP/rep/report.txt" "$@" >"$T_TMP/out" 2>&1
	rc=$?
}
has() { grep -qF -- "$1" "$T_TMP/$2"; }
show() { sed 's/^/# | /' "$T_TMP/out"; }

mut "integration/adds.sh"
t_eq "a script that sees the mutant: exit status" "$rc" 0
t_check "a script that sees the mutant kills it" has "(script integration/adds.sh: fail: not ok - 2 + 2 gave 0)" out
t_check "... and the report counts it" has "== fake: killed 1 / 1 non-equivalent (100.0%)" rep/report.txt
[ "$rc" = 0 ] || show

mut "integration/broken.sh integration/dies.sh integration/skips.sh"
t_eq "scripts failing unmutated: exit status" "$rc" 0
t_check "a script failing unmutated is said" \
	has "mutate: script integration/broken.sh fails on the unmutated tree (fail: not ok - fails whatever the tree): left out" out
t_check "so is one that dies without a failed assertion" \
	has "mutate: script integration/dies.sh fails on the unmutated tree (exit status): left out" out
t_check "a skipping script is not left out" has "scripts integration/skips.sh; left out (failing unmutated) integration/broken.sh integration/dies.sh" out
t_check "the report says which scripts were left out and why" \
	has "script integration/broken.sh left out: it fails on the unmutated tree (fail: not ok - fails whatever the tree)" rep/report.txt
t_check "left out, they kill nothing: the mutant survives" has "== fake: killed 0 / 1 non-equivalent (0.0%)" rep/report.txt
t_check "... and its diff is in the report" has "+	return a - b;" rep/report.txt
[ "$rc" = 0 ] || show

# --timeout 1: a script's limit is 4 s
mut "integration/hangs.sh integration/broken.sh integration/adds.sh" --timeout 1
t_check "a script hanging unmutated is left out" \
	has "mutate: script integration/hangs.sh fails on the unmutated tree (timeout): left out" out
t_check "the script that sees the mutant still kills it, not the broken one" \
	has "(script integration/adds.sh: fail: not ok - 2 + 2 gave 0)" out
t_check "... counted once" has "== fake: killed 1 / 1 non-equivalent (100.0%)" rep/report.txt

# --no-baseline runs nothing unmutated: the broken script is not left out
# (and kills the mutant: the reason the baseline exists)
mut "integration/broken.sh" --no-baseline
t_check "--no-baseline: nothing run unmutated" sh -c "! grep -q 'unmutated tree' '$T_TMP/out'"
t_check "--no-baseline: the broken script kills" has "(script integration/broken.sh: fail: not ok - fails whatever the tree)" out
mut "" --modules other --integration 0
t_check "a module declared in a shared header: its suite kills the mutant" \
	has "== other: killed 1 / 1 non-equivalent (100.0%)" rep/report.txt
[ "$rc" = 0 ] || show
t_done
