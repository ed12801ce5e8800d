#!/usr/bin/env bash
# The cgroup view (C) in tmux: a cgroup this test creates, doing a known
# number of direct writes on a fresh loop device where its own limitless
# throttle rule turns v1 blk-throttle's counters on, shows under its name
# with exactly those writes and bytes; a second fresh device, counted by
# nobody, is named as such; j/k scroll; Esc and C go back to the table; the
# view leaves no tunable changed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
V1=/sys/fs/cgroup/blkio
[ -e $V1/blkio.throttle.io_service_bytes_recursive ] || t_skip "no v1 blkio hierarchy"
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
CG=$V1/blktune-test-view-$$
trap 'tm_stop; [ -d "$CG" ] && rmdir "$CG"; t_cleanup' EXIT
t_loop_create_fresh 64 || t_skip "no free loop device number"
a=${T_LOOP#/dev/}
t_loop_create_fresh 64 || t_skip "no second free loop device number"
b=${T_LOOP#/dev/}
mkdir "$CG" || t_skip "cannot create a blkio cgroup"
echo "$(cat /sys/block/$a/dev) 18446744073709551615" > "$CG/blkio.throttle.read_bps_device"
sched0=$(cat /sys/block/$a/queue/scheduler)

tm_start "'$BLKTUNE' -d 0.5 --no-trace -p $a -p $b; sleep 30"
tm_wait "^DEVICE" 5 || t_fail "the device table came up"
tm_keys C
t_check "C opens the cgroup view" tm_wait "cgroups: v1 blkio, /sys/fs/cgroup/blkio" 3
t_check "the uncounted device is named" tm_wait "not counted by any cgroup:.* $b" 3
bash -c 'echo $$ > "$0/cgroup.procs" && exec dd if=/dev/zero of="$1" bs=4k count=300 oflag=direct status=none' "$CG" \
	"/dev/$a"
row() { tm_screen | awk -v n="blktune-test-view-$$" -v d="$a" '$1 == n && $2 == d'; }
shown() { [ -n "$(row)" ] && [ "$(row | awk '{ print $10 }')" = 300 ]; }
t_until 5 shown
r=$(row)
echo "# $r"
t_eq "the cgroup's row: writes" "$(echo "$r" | awk '{ print $10 }')" 300
t_eq "written: 300 x 4 KiB" "$(echo "$r" | awk '{ print $8 }')" "1.2M"
t_eq "reads" "$(echo "$r" | awk '{ print $9 }')" 0
t_eq "counter" "$(echo "$r" | awk '{ print $11 }')" throttle
t_check "the root cgroup is the tree's top" sh -c "tm() { tmux -S '$TM_SOCK' \"\$@\"; }; \
	tm capture-pane -p -t '$TM_SESS' | grep -q '^/  *$a '"
idle() { [ "$(row | awk '{ print $6 }')" = 0 ]; }
t_check "the write rate falls to 0 once dd is done (rates are per interval)" t_until 5 idle
tm_keys j
t_check "j keeps the view" tm_wait "cgroups: v1 blkio" 2
tm_keys Escape
t_check "Esc goes back to the device table" tm_wait "^DEVICE" 3
tm_keys C
t_check "C again" tm_wait "cgroups: v1 blkio" 3
tm_keys C
t_check "C closes it" tm_wait "^DEVICE" 3
t_eq "no tunable changed" "$(cat /sys/block/$a/queue/scheduler)" "$sched0"
tm_keys q
t_done
