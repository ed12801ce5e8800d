#!/usr/bin/env bash
# Readahead state of a device that goes away is freed (issue 10): a file is
# read on ext4 over a loop device made here while the mode is on, so the
# kernel map holds counters for it; after the filesystem is unmounted and the
# loop device detached, the next sample leaves it out and the kernel map no
# longer holds it. Then a loop device with the same number attached again is
# a new device (its diskseq differs): it starts from zero. Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/readahead-common.bash"
t_need_root
trap ra_cleanup EXIT
ra_fs 64
ra_file f 16
ra_remount || t_skip "cannot re-mount"
ra_open
ra_cmd start
cat "$RA_MNT/f" >/dev/null
ra_cmd stop || t_fail "probe answered"
t_check "the device was counted (${RA[pages]:-none} readahead pages)" test "${RA[pages]:-0}" -gt 0
echo read >&"${RAP[1]}"
read -r -t 30 w has <&"${RAP[0]}"
t_eq "its state is in the kernel map while it exists" "$w $has" "has 1"

img=$(losetup -n -O BACK-FILE "$RA_DEV")
umount "$RA_MNT"
losetup -d "$RA_DEV"
echo read >&"${RAP[1]}"
read -r -t 30 w has <&"${RAP[0]}"
t_eq "gone: the next sample frees its state in the kernel map" "$w $has" "has 0"
ra_cmd stop
t_eq "gone: no figures for it" "${RA[error]:-}" "No such file or directory"

# The same number again: another device (its diskseq differs). Counted,
# then replaced by yet another device with no sample in between: the next
# sample sees the diskseq change and frees the old state, and the next
# interval counts the new device from zero.
if losetup "$RA_DEV" "$img" 2>/dev/null; then
	mount "$RA_DEV" "$RA_MNT" || t_fail "mount on the new device"
	cat "$RA_MNT/f" >/dev/null
	echo read >&"${RAP[1]}"
	read -r -t 30 w has <&"${RAP[0]}"
	t_eq "the new device is counted" "$w $has" "has 1"
	umount "$RA_MNT"
	losetup -d "$RA_DEV"
	losetup "$RA_DEV" "$img" || t_fail "re-attach $RA_DEV"
	mount "$RA_DEV" "$RA_MNT" || t_fail "mount on the third device"
	cat "$RA_MNT/f" >/dev/null
	echo read >&"${RAP[1]}"
	read -r -t 30 w has <&"${RAP[0]}"
	t_eq "replaced (diskseq changed): its state is freed" "$w $has" "has 0"
	ra_remount
	ra_cmd start
	cat "$RA_MNT/f" >/dev/null
	ra_cmd stop || t_fail "probe answered"
	t_check "the third device counts from zero (${RA[cum_pages]:-none} pages since attach <= the file's 4096)" \
		test "${RA[cum_pages]:-99999}" -le 4096
else
	T_LOOPS=() # not ours any more: never detach it
	t_fail "$RA_DEV was taken by another test meanwhile: the diskseq part could not run"
fi
ra_done
