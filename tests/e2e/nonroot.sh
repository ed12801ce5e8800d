#!/usr/bin/env bash
# Without root (issue 11): each command that writes kernel settings says so in
# its own words and how to run it (not the full screen's "tunables are shown
# read-only", nor "/run/blktune is owned by uid 0"), and w in the full
# screen names the directory it could not write. Run as nobody via setpriv,
# on a loop device made here (nothing is written to it: nobody cannot).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
command -v setpriv > /dev/null || t_skip "needs setpriv"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
nobody "$BLKTUNE" -V > /dev/null 2>&1 || t_skip "nobody cannot run $BLKTUNE"
t_loop_create 16 || t_fail "losetup"
name=${T_LOOP#/dev/}
q=/sys/block/$name/queue
ra0=$(cat $q/read_ahead_kb)
chmod 755 "$T_TMP"
trap 'fr_stop; tm_stop; t_cleanup' EXIT

# said CMD WANT...: one line on stderr, exit 1
said() {
	local desc=$1 want=$2
	shift 2
	nobody "$@" > /dev/null 2> "$T_TMP/err"
	t_eq "$desc: exit 1" "$?" 1
	t_check "$desc: \"$want\"" grep -qF -- "$want" "$T_TMP/err"
	t_check "$desc: no words of the full screen" sh -c "! grep -qE 'shown read-only|owned by uid' '$T_TMP/err'"
}
said "--set" "blktune: --set writes kernel settings: run it as root (sudo blktune --set $name:read_ahead_kb=256)" \
	"$BLKTUNE" --set "$name:read_ahead_kb=256"
t_eq "--set: nothing written" "$(cat $q/read_ahead_kb)" "$ra0"
# a journal that is there, in root's directory as /run/blktune is
mkdir -m 0700 "$T_TMP/journal"
printf 'blktune-journal 2\n' > "$T_TMP/journal/journal"
chmod 755 "$T_TMP/journal"
said "--restore" "blktune: --restore writes kernel settings: run it as root (sudo blktune --restore)" \
	"$BLKTUNE" --restore --journal-dir "$T_TMP/journal"
mkdir -m 0755 "$T_TMP/rules"
said "persist" "blktune persist: $T_TMP/rules is root's: run it as root to write the rule above" \
	"$BLKTUNE" persist "$name" read_ahead_kb=256 --rules-dir "$T_TMP/rules" --yes
t_eq "persist: no rule written" "$(ls "$T_TMP/rules" | wc -l)" 0
said "sweep" "blktune sweep: a sweep writes $name's read_ahead_kb: run it as root" \
	"$BLKTUNE" sweep "$name" read_ahead_kb=128,256

# w in the full screen: HOME has no directory to make the snapshots in
root=$T_TMP/root
fr_start "$root" 4 1
chmod -R a+rX "$root"
TM_W=80 TM_H=24 tm_start "env -u XDG_STATE_HOME HOME=/nonexistent setpriv --reuid=65534 --regid=65534 --clear-groups '$BLKTUNE' --root '$root' -d 0.2 --no-trace -p loop1; sleep 60"
t_check "the table is up" tm_wait "^loop1 " 5
# a again until A holds an interval (the first may come before one has ended)
a_taken() { tm_keys a; tm_wait "A: loop1, [1-9][0-9]* busy intervals" 1; }
t_check "a takes A" t_until 5 a_taken
tm_keys w
t_check "w names the directory it could not make" \
	tm_wait "A not saved: cannot create /nonexistent: Permission denied (set XDG_STATE_HOME)" 3
tm_stop
fr_stop
t_done
