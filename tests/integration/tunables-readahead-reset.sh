#!/usr/bin/env bash
# Since 6.11 add_random and iostats are queue limits: writing either commits
# the limits, and the kernel raises a read_ahead_kb below twice max_sectors_kb
# to that (as a max_sectors_kb write does). A read_ahead_kb set below it
# (here 64, by hand, before blktune) must be journaled with such a change,
# reported, and come back at --restore, also when read_ahead_kb itself was
# changed in the same session (restored first, it would be raised again).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tunables-lib.bash"
t_need_root
[ -n "$T_CLI" ] || { t_fail "build/blktune is not built"; t_done; exit 1; }

t_loop_create 64 || t_skip "cannot create a loop device"
n=${T_LOOP#/dev/}
q=/sys/block/$n/queue
ra0=$(cat "$q/read_ahead_kb")
trap 'echo "$ra0" > "$q/read_ahead_kb"; t_cleanup' EXIT
low=64
# The kernel's rule, measured here: none of this test means anything without it.
echo "$low" > "$q/read_ahead_kb"
add0=$(cat "$q/add_random")
echo $((1 - add0)) > "$q/add_random"
raised=$(cat "$q/read_ahead_kb")
echo "$add0" > "$q/add_random"
[ "$raised" -gt "$low" ] || t_skip "this kernel leaves read_ahead_kb alone on an add_random write"
echo "# an add_random write raised read_ahead_kb $low -> $raised"

for name in add_random iostats; do
	echo "$low" > "$q/read_ahead_kb"
	v0=$(cat "$q/$name")
	out=$(tcli --set "$n:$name=$((1 - v0))" 2>&1)
	t_eq "$name: --set exit status" "$?" 0
	case $out in *"kernel also set read_ahead_kb $low -> $raised"*) t_ok "$name: the raised read_ahead_kb is reported" ;;
		*) t_fail "$name: --set output: $out" ;; esac
	t_check "$name: read_ahead_kb journaled" grep -q " read_ahead_kb $low\$" "$T_JDIR/journal"
	out=$(tcli --restore 2>&1)
	t_eq "$name: --restore exit status" "$?" 0
	t_eq "$name: back" "$(cat "$q/$name")" "$v0"
	t_eq "$name: read_ahead_kb back" "$(cat "$q/read_ahead_kb")" "$low"

	# read_ahead_kb changed first, then the feature: the journal holds both.
	tcli --set "$n:read_ahead_kb=128" --set "$n:$name=$((1 - v0))" > /dev/null 2>&1
	out=$(tcli --restore 2>&1)
	t_eq "$name after read_ahead_kb: --restore exit status" "$?" 0
	t_eq "$name after read_ahead_kb: read_ahead_kb back (restored after $name)" \
		"$(cat "$q/read_ahead_kb")" "$low"
	t_eq "$name after read_ahead_kb: $name back" "$(cat "$q/$name")" "$v0"
done
t_done
