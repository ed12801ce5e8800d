#!/usr/bin/env bash
# The documentation and the program agree: the man page's key, column and
# tunable lists are what the program's tables say; every option of --help is
# in the man page and the README; the README starts with the two commands.
. "$(dirname "$0")/../lib.sh"
page=$T_TOP/man/blktune.8
readme=$T_TOP/README

for what in keys columns tunables; do
	awk -v what="$what" '
		$0 == ".\\\" BEGIN " what { on = 1; next }
		$0 == ".\\\" END " what { on = 0 }
		on' "$page" >"$T_TMP/page-$what"
	"$BLKTUNE" --list "$what:man" >"$T_TMP/prog-$what"
	t_check "man page $what list matches the program's table (contrib/update-man)" \
		cmp -s "$T_TMP/page-$what" "$T_TMP/prog-$what"
	t_check "man page $what list is not empty" test -s "$T_TMP/page-$what"
done
for opt in $("$BLKTUNE" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	t_check "man page documents $opt" grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$page"
	t_check "README documents $opt" grep -q -- "$opt" "$readme"
done
t_eq "README's first command is make run" "$(grep -m1 -oE '^ +make [a-z]+' "$readme" | tr -d ' ')" "makerun"
t_eq "README's second command is make check" "$(grep -oE '^ +make [a-z]+' "$readme" | sed -n 2p | tr -d ' ')" "makecheck"
groff -man -Tutf8 -ww -z "$page" 2>"$T_TMP/groff.err"
t_check "man page renders without groff warnings" test ! -s "$T_TMP/groff.err"
head -5 "$T_TMP/groff.err"
t_done
