#!/usr/bin/env bash
# make fuzz builds every target of mk/fuzz.mk and each runs its seeds
# (issue 10: the snapshot and /proc targets stopped linking when sample.c
# began to need cgroup-sample.c, and nothing noticed). Each target runs over
# its corpus once (-runs=0: the seeds only), with the sanitizers on: a seed
# that crashes a target fails here. Needs clang (make fuzz uses it).
. "$(dirname "$0")/../lib.sh"
command -v "${FUZZ_CC:-clang}" >/dev/null || t_skip "needs clang for make fuzz"
targets=$(make -s -C "$T_TOP" --no-print-directory -f GNUmakefile print-fuzz-targets 2>/dev/null)
[ -n "$targets" ] || t_fail "make print-fuzz-targets names the fuzz targets"
# The suite's build directory (where $BLKTUNE is): its generated headers are there.
build=$(dirname "$BLKTUNE")
for t in $targets; do
	out=$T_TMP/fuzz-$t
	if ! make -s -C "$T_TOP" --no-print-directory BUILD="$build" "$build/fuzz/fuzz-$t" >"$out.build" 2>&1; then
		t_fail "fuzz-$t builds: $(grep -m3 -E 'error|undefined' "$out.build" | tr '\n' '|')"
		continue
	fi
	t_ok "fuzz-$t builds"
	mkdir -p "$out.corpus"
	cp "$T_TOP/tests/fuzz/corpus-$t"/* "$out.corpus/"
	n=$(ls "$out.corpus" | wc -l)
	if "$build/fuzz/fuzz-$t" -runs=0 -artifact_prefix="$out." "$out.corpus" >"$out.log" 2>&1; then
		t_ok "fuzz-$t runs its $n seeds without a finding"
	else
		t_fail "fuzz-$t on its seeds: $(grep -m3 -E 'ERROR|runtime error' "$out.log" | tr '\n' '|')"
	fi
	t_check "fuzz-$t read the seeds ($n)" grep -q "INITED" "$out.log"
done
t_done
