#!/usr/bin/env bash
# Device context (issue 11): the detail pane says what a device is (size,
# model and vendor or a loop device's backing file, rotational) and what is
# on it (mountpoints, filesystem); partitions are listed under their disk
# with the stack column filled ("of loopN"). On a loop device made here with
# a partition (addpart) holding an ext4 mounted in the test's directory.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
t_need_root
command -v tmux > /dev/null || t_skip "needs tmux"
command -v addpart > /dev/null || t_skip "needs addpart (util-linux)"
command -v mkfs.ext4 > /dev/null || t_skip "needs mkfs.ext4"
img=$T_TMP/disk.img
truncate -s 64M "$img"
# partscan (-P): the kernel takes partitions on this loop device
T_LOOP=$(losetup -f --show -P "$img") || t_skip "cannot create a loop device"
T_LOOPS+=("$T_LOOP")
name=${T_LOOP#/dev/}
trap 'tm_stop; t_cleanup' EXIT
t_check "addpart makes ${name}p1" addpart "$T_LOOP" 1 2048 40960
t_until 3 test -b "${T_LOOP}p1"
mkfs.ext4 -q "${T_LOOP}p1" || t_fail "mkfs.ext4"
mkdir "$T_TMP/mnt"
t_check "mounted" mount "${T_LOOP}p1" "$T_TMP/mnt"

TM_W=200 TM_H=50 tm_start "'$BLKTUNE' -d 0.5 --no-trace --journal-dir '$T_TMP/journal' -p $name -p ${name}p1; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
table() { tm_screen | sed -n '/^DEVICE/,/^$/p'; }
t_eq "the disk, then its partition under it" "$(table | awk 'NR > 1 && NF { print $1 }' | tr '\n' ' ')" "$name ${name}p1 "
t_check "the partition's stack column: of $name" sh -c "tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -E '^${name}p1 ' | grep -qE ' of $name *\$'"
# the disk is selected; at 200x50 the detail pane is open
t_check "the disk's size (64M)" tm_wait "^device   size 64M" 3
rot=no
[ "$(cat /sys/block/$name/queue/rotational)" = 1 ] && rot=yes
t_check "its backing file, rotational as sysfs says ($rot)" tm_wait "  file $img  rotational $rot" 1
t_check "nothing mounted from the disk itself" tm_wait "^mounted  -" 1
tm_keys j
t_check "the partition: 20M" tm_wait "^device   size 20M" 3
t_check "mounted at the test's directory, ext4" tm_wait "^mounted  $T_TMP/mnt (ext4)" 3
tm_stop
umount "$T_TMP/mnt"
t_done
