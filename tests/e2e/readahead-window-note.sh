#!/usr/bin/env bash
# A readahead window larger than read_ahead_kb is explained on the readahead
# page, from what was measured: fio's sequential reads call
# posix_fadvise(POSIX_FADV_SEQUENTIAL) by default (fadvise_hint=1), and the
# kernel doubles that file's window (mm/fadvise.c: ra_pages = bdi ra_pages * 2).
# With fio's default the page must show an average window of twice the
# device's read_ahead_kb (from sysfs) and the note; with fadvise_hint=0 a window
# of read_ahead_kb and no note. ext4 on a loop device made here. Needs root.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/../integration/readahead-common.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
command -v fio >/dev/null || t_skip "needs fio"
trap 'tm_stop; [ -n "${load:-}" ] && kill $load 2>/dev/null; wait 2>/dev/null; ra_cleanup' EXIT
ra_fs 300
name=${RA_DEV#/dev/}
ra=$(cat /sys/block/$name/queue/read_ahead_kb)
ra_file f 200
note="above read_ahead_kb: fadvise SEQUENTIAL doubles a file's window"

tm_start "'$BLKTUNE' -d 0.5 -p '$name' --journal-dir '$T_TMP/j'; sleep 30"
tm_wait "^DEVICE" 5
tm_keys R
t_check "R turns the mode on" tm_wait "readahead mode on" 30
# read HINT: the whole file at 100 MB/s (several intervals) after its cache went
read_with() {
	ra_remount || return 1
	fio --name=r --filename="$RA_MNT/f" --rw=read --bs=128k --rate=100m --fadvise_hint="$1" \
		--output-format=terse >/dev/null 2>"$T_TMP/fio.err" &
	load=$!
}
read_with 1 || t_fail "re-mount"
t_check "fio's default: the page shows an average window of 2 x read_ahead_kb ($((2 * ra)) KiB)" \
	tm_wait "average window $((2 * ra)) KiB over" 10
t_check "and explains it" tm_wait "  $note" 1
wait $load; load=
t_check "fio read the file ($(head -c 200 "$T_TMP/fio.err"))" test ! -s "$T_TMP/fio.err"
# idle again: the last interval's window line goes to "-"
tm_wait "average window -" 10
read_with 0 || t_fail "re-mount"
t_check "fadvise_hint=0: an average window of read_ahead_kb ($ra KiB)" tm_wait "average window $ra KiB over" 10
t_check "and no note" bash -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -qF \"$note\""
wait $load; load=
t_done
