#!/usr/bin/env bash
# A locale whose decimal separator is a comma (de_DE.UTF-8, built here with
# localedef into a private LOCPATH) changes nothing blktune writes or reads:
# the options take "0.5", batch JSON stays JSON, the Prometheus textfile
# passes promtool, and a snapshot file with fractions reads and prints the
# same as in the C locale. Before the fix, -d 0.5 was refused, the JSON held
# "interval_s": 1,002776 and show read 812.5 as 812.
. "$(dirname "$0")/../lib.sh"
for c in localedef python3 promtool; do
	command -v $c > /dev/null || t_skip "no $c (contrib/install-deps test installs locales, prometheus)"
done
[ -e /usr/share/i18n/locales/de_DE ] || t_skip "no locale sources (contrib/install-deps test installs locales)"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
loc=$T_TMP/locales
mkdir -p "$loc"
localedef -i de_DE -f UTF-8 "$loc/de_DE.UTF-8" > "$T_TMP/localedef" 2>&1 ||
	t_fail "localedef de_DE.UTF-8: $(head -c 300 "$T_TMP/localedef")"
de() { env LOCPATH="$loc" LC_ALL=de_DE.UTF-8 "$@"; }
# The locale must really be in force, or every check below passes vacuously.
t_eq "the comma locale's decimal point" "$(de locale decimal_point 2> /dev/null)" ","

# Options.
de "$BLKTUNE" -b -d 0.5 -n 2 > "$T_TMP/text" 2> "$T_TMP/err"
t_eq "-d 0.5 accepted (exit status)" "$?" 0
t_eq "and no complaint" "$(cat "$T_TMP/err")" ""
t_check "the text report says interval 0.50 s" grep -q "interval 0\.50 s" "$T_TMP/text"

# Batch JSON: every line parses, numbers are numbers.
de "$BLKTUNE" -b -d 0.5 -n 2 --json > "$T_TMP/json" 2> "$T_TMP/err"
t_eq "--json exit status" "$?" 0
python3 - "$T_TMP/json" > "$T_TMP/jcheck" 2>&1 <<'PYEOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, "%d lines" % len(lines)
for l in lines:
    d = json.loads(l)
    iv = d["interval_s"]
    assert isinstance(iv, float) and 0.3 < iv < 3, "interval_s %r" % iv
    assert isinstance(d["cpu"]["idle"], float), "cpu.idle %r" % d["cpu"]["idle"]
print("ok")
PYEOF
t_eq "each JSON line parses, interval_s a number near 0.5" "$(tail -1 "$T_TMP/jcheck")" "ok"

# Prometheus textfile.
mkdir -p "$T_TMP/prom"
de "$BLKTUNE" -b -d 0.5 -n 2 --textfile "$T_TMP/prom" > /dev/null 2>&1
t_check "textfile written" test -s "$T_TMP/prom/blktune.prom"
promtool check metrics < "$T_TMP/prom/blktune.prom" > "$T_TMP/promtool" 2>&1
t_eq "promtool check metrics on it (exit status)" "$?" 0
t_check "a fraction in it has a point" grep -Eq '^[a-z_]+(\{[^}]*\})? [0-9]+\.[0-9]' "$T_TMP/prom/blktune.prom"

# Snapshot files: read and printed alike in both locales.
snap=$T_TOP/tests/fuzz/corpus-snapshot/two-devices.snap
t_check "the snapshot holds fractions (812.5)" grep -q "stat r/s 30 812.5 " "$snap"
env LC_ALL=C.UTF-8 "$BLKTUNE" show "$snap" > "$T_TMP/show.c" 2>&1
t_eq "show in C.UTF-8 (exit status)" "$?" 0
de "$BLKTUNE" show "$snap" > "$T_TMP/show.de" 2>&1
t_eq "show in de_DE (exit status)" "$?" 0
t_check "show prints 812.5 r/s" grep -q "812\.5" "$T_TMP/show.c"
t_check "show prints the same in both locales" cmp -s "$T_TMP/show.c" "$T_TMP/show.de"
env LC_ALL=C.UTF-8 "$BLKTUNE" diff "$snap" "$snap" --json > "$T_TMP/diff.c" 2>&1
de "$BLKTUNE" diff "$snap" "$snap" --json > "$T_TMP/diff.de" 2>&1
t_eq "diff --json in de_DE (exit status)" "$?" 0
t_check "diff --json is the same in both locales" cmp -s "$T_TMP/diff.c" "$T_TMP/diff.de"
t_check "and parses" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T_TMP/diff.de"
t_done
