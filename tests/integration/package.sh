#!/usr/bin/env bash
# Installing like a package: make install / uninstall (DESTDIR, PREFIX, SETCAP),
# the .deb from contrib/debian (lintian clean, installs into a scratch root and
# runs from there), and the bash completion driven in a real bash under tmux.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../e2e/lib-tmux.bash"
t_need_root
for c in tmux setcap getcap dpkg-buildpackage lintian dpkg-deb; do
	command -v $c > /dev/null || t_skip "no $c (contrib/install-deps test installs it)"
done
build=$(dirname "$BLKTUNE")
version=$(sed -n 's/^#define BLKTUNE_VERSION "\(.*\)"/\1/p' "$T_TOP/src/main.c")
trap 'tm_stop; t_cleanup' EXIT

# make install into a scratch DESTDIR, with capabilities, then uninstall.
d=$T_TMP/inst
make -s -C "$T_TOP" BUILD="$build" DESTDIR="$d" PREFIX=/usr SETCAP=1 install > "$T_TMP/install.log" 2>&1
t_eq "make install exit status" "$?" 0
for f in usr/sbin/blktune usr/share/man/man8/blktune.8 usr/share/bash-completion/completions/blktune; do
	t_check "make install put $f" test -f "$d/$f"
done
t_eq "installed binary runs" "$("$d/usr/sbin/blktune" --version)" "blktune $version"
caps=$(getcap "$d/usr/sbin/blktune")
t_check "SETCAP=1 gives cap_bpf,cap_perfmon (getcap: $caps)" \
	grep -Eq 'cap_perfmon,cap_bpf[+=]ep|cap_bpf,cap_perfmon[+=]ep' <<< "$caps"
make -s -C "$T_TOP" BUILD="$build" DESTDIR="$d" PREFIX=/usr install > /dev/null 2>&1
t_eq "without SETCAP no capabilities" "$(getcap "$d/usr/sbin/blktune")" ""
make -s -C "$T_TOP" BUILD="$build" DESTDIR="$d" PREFIX=/usr uninstall > /dev/null 2>&1
t_eq "make uninstall leaves no file" "$(find "$d" -type f | wc -l)" 0

# The Debian package.
deb=$("$T_TOP/contrib/build-deb" "$T_TMP/deb" 2> "$T_TMP/deb.err")
rc=$?
t_eq "contrib/build-deb exit status (dpkg-buildpackage, lintian without errors)" "$rc" 0
[ $rc -eq 0 ] || sed 's/^/# /' "$T_TMP/deb.err"
t_eq "lintian errors" "$(grep -c '^E: ' "$T_TMP/deb/lintian.txt")" 0
t_eq "package version is the program's" "$(dpkg-deb -f "$deb" Version)" "$version"
r=$T_TMP/scratch-root
dpkg-deb -x "$deb" "$r"
t_eq "blktune --version from the scratch root" "$("$r/usr/sbin/blktune" --version)" "blktune $version"
t_check "package holds the man page" test -s "$r/usr/share/man/man8/blktune.8.gz"
t_check "package holds the completion" cmp -s "$r/usr/share/bash-completion/completions/blktune" \
	"$T_TOP/contrib/bash-completion/blktune"
t_check "package has no /usr/local" test ! -e "$r/usr/local"

# Completion in a real bash: type, press Tab, read the line.
t_loop_create 16 || t_fail "losetup"
dev=${T_LOOP#/dev/}
cat > "$T_TMP/rc" <<RC
PS1='$ '
PATH=$build:\$PATH
# a machine with hundreds of devices: list them all at once, never ask
# "Display all N possibilities?" nor page with --More--
bind 'set completion-query-items 0'
bind 'set page-completions off'
. $T_TOP/contrib/bash-completion/blktune
RC
TM_W=200 TM_H=30 tm_start "bash --noprofile --rcfile $T_TMP/rc -i"
tm_wait '^\$ ' 5
# complete LINE EXPECTED: type LINE, Tab, then '|' (tmux trims trailing
# blanks, and the '|' shows whether the completion ended the word with one).
complete_to() {
	tm_keys C-u
	tm_text "$1"
	tm_keys Tab
	tm_text "|"
	if tm_wait "^\\$ $2|\$" 5; then t_ok "Tab after '$1' gives '$2'"
	else t_fail "Tab after '$1': line is '$(tm_screen | grep '^\$ ' | tail -n 1)', want '$2|'"; fi
}
complete_to "blktune --jso" "blktune --json "
complete_to "blktune swe" "blktune sweep "
complete_to "blktune pers" "blktune persist "
complete_to "blktune persist $dev read_ah" "blktune persist $dev read_ahead_kb "
complete_to "blktune --set $dev:read_ah" "blktune --set $dev:read_ahead_kb="
complete_to "blktune --set $dev:read_ahead_kb=" "blktune --set $dev:read_ahead_kb=$(cat /sys/block/$dev/queue/read_ahead_kb) "
complete_to "blktune --set $dev:sched" "blktune --set $dev:scheduler="
complete_to "blktune --set $dev:scheduler=mq-d" "blktune --set $dev:scheduler=mq-deadline "
complete_to "blktune sweep $dev max_sec" "blktune sweep $dev max_sectors_kb="
complete_to "blktune --list tun" "blktune --list tunables"
# -p's candidates, as bash's Tab would get them (a screen cannot show the
# hundreds of devices a busy machine has): complete -p names the function
tm_keys C-u
tm_text "f=\$(complete -p blktune | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p'); COMP_WORDS=(blktune -p ''); COMP_CWORD=2; COMP_LINE='blktune -p '; COMP_POINT=11; \$f blktune '' -p; printf '%s\\n' \"\${COMPREPLY[@]}\" > $T_TMP/p.txt"
tm_keys Enter
t_check "-p offers the test's device" t_until 5 grep -qx "$dev" "$T_TMP/p.txt"
# write_cache is never offered: blktune never writes it
tm_keys C-u; tm_text "blktune --set $dev:write_"; tm_keys Tab Tab; tm_text "|"
t_check "write_cache is not offered" tm_wait "^\\$ blktune --set $dev:write_|\$" 5
t_done
