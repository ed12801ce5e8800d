#!/usr/bin/env bash
# The main screens at 80x24 against golden captures a reviewer can read
# (tests/e2e/golden/utf8/*.txt, golden/ascii/*.txt where the locale is not
# UTF-8): the device table, the detail pane, the tunables panel, the
# CPU view and the A/B view's first words, on the sata capture (--root: no
# live numbers; digits are masked to 9 anyway, so a number's width still
# counts and its value does not). A difference prints a unified diff.
# UPDATE_GOLDEN=1 rewrites the files (read the diff before committing it).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TOP/tests/fixtures/sata
case "${LC_ALL:-${LC_CTYPE:-${LANG:-C}}}" in *UTF-8 | *utf8 | *UTF8) set=utf8 ;; *) set=ascii ;; esac
dir=$T_TOP/tests/e2e/golden/$set
trap 'tm_stop; t_cleanup' EXIT
mkdir -p "$dir"
# Digits in numbers become 9; device names (sda1, nvme0n1) keep theirs.
mask() { sed -E ':a; s/(^|[^A-Za-z0-9_])([0-9.]*)[0-8]/\1\29/; ta' | sed -E 's/ +$//'; }
golden() {
	tm_screen | mask > "$T_TMP/$1.txt"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$T_TMP/$1.txt" "$dir/$1.txt"
		t_ok "$set/$1.txt written"
	elif diff -u "$dir/$1.txt" "$T_TMP/$1.txt" > "$T_TMP/$1.diff"; then
		t_ok "$set/$1 as golden"
	else
		sed 's/^/# /' "$T_TMP/$1.diff"
		t_fail "$set/$1 differs from $dir/$1.txt"
	fi
}
TM_W=80 TM_H=24 tm_start "'$BLKTUNE' --root '$root' -d 0.5 --no-trace --journal-dir '$T_TMP/j'"
t_check "the table is up" tm_wait "^DEVICE" 5
t_check "the first interval has passed" tm_wait "^? help  q quit" 5
golden table
tm_keys d
t_check "the detail pane" tm_wait "^device   size" 2
# the sparklines need two samples after the first: without them the pane is
# two lines shorter and sits lower (a capture taken one refresh early)
t_check "the detail pane's sparklines" tm_wait "^IOPS  " 5
golden detail
# Help is the key table's (tests/integration/docs.sh, tui-keys.sh): no
# golden copy that every new key would have to rewrite.
tm_keys d t
t_check "the tunables panel" tm_wait "^tunables of " 2
golden tunables
tm_keys t c
t_check "the CPU view" tm_wait "^CPUs for nvme0n1" 2
golden cpus
tm_keys Escape v
t_check "the A/B view refused without snapshots" tm_wait "no snapshot yet" 2
golden ab-empty
tm_keys /
t_check "the filter prompt" tm_wait "^filter: " 2
golden filter
t_done
