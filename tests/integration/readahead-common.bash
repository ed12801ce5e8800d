# Helpers for the readahead-*.sh tests: an ext4 made here on a loop device
# made here, build/ra-probe as a coprocess answering "key value" lines, and
# read_ahead_kb changed through blktune --set (own journal) and restored.
# Sourced after tests/lib.sh.
RA_PROBE=${RA_PROBE:-$T_TOP/build/ra-probe}
RA_MNT=$T_TMP/mnt
RA_DEV=
declare -A RA

# ra_fs SIZE_MB: loop device, ext4, mounted at $RA_MNT; sets RA_DEV.
ra_fs() {
	t_loop_create "$1" || t_skip "cannot create a loop device"
	RA_DEV=$T_LOOP
	command -v mkfs.ext4 >/dev/null || t_skip "mkfs.ext4 missing"
	mkfs.ext4 -q -F "$RA_DEV" || t_skip "mkfs.ext4 failed"
	mkdir -p "$RA_MNT"
	mount "$RA_DEV" "$RA_MNT" || t_skip "cannot mount ext4"
}

# Empty the page cache of the test filesystem only: unmounting evicts every
# page of its files (each eviction is traced), nothing else is touched.
ra_remount() {
	umount "$RA_MNT" && mount "$RA_DEV" "$RA_MNT"
}

ra_open() {
	[ -x "$RA_PROBE" ] || t_skip "build/ra-probe missing (make build/ra-probe)"
	coproc RAP { exec "$RA_PROBE" "$RA_DEV" 2>"$T_TMP/ra-probe.err"; }
	local line
	if ! read -r -t 15 line <&"${RAP[0]}" || [ "$line" != ready ]; then
		wait "$RAP_PID" 2>/dev/null
		t_skip "readahead tracing unavailable: $(cat "$T_TMP/ra-probe.err")"
	fi
}

# ra_cmd CMD: send a command, fill RA[key]=value until "end" / "started".
ra_cmd() {
	local k v
	RA=()
	echo "$1" >&"${RAP[1]}"
	while read -r -t 60 k v <&"${RAP[0]}"; do
		[ "$k" = end ] && return 0
		[ "$k" = started ] && return 0
		RA[$k]=$v
	done
	return 1
}

ra_close() {
	[ -n "${RAP_PID:-}" ] || return 0
	eval "exec ${RAP[1]}>&-"
	wait "$RAP_PID" 2>/dev/null
	RAP_PID=
}

# hit + mapped + waste + unread = pages, and unread is what the kernel's page
# map still holds (+ pages it had no room for): checked since attach.
ra_identity() {
	local sum=$((RA[cum_hit] + RA[cum_mapped] + RA[cum_waste] + RA[cum_unread]))
	t_eq "$1: hit + mapped + waste + unread = readahead pages" "$sum" "${RA[cum_pages]}"
	t_eq "$1: unread = pages still marked in the kernel map" "${RA[cum_unread]}" \
		"$((RA[live] + RA[cum_dropped]))"
	t_eq "$1: no page state dropped" "${RA[cum_dropped]}" 0
}

# ra_set_kb KB: read_ahead_kb of our own loop device, through blktune --set
# (validated, read back, journaled in $T_TMP), else sysfs directly.
ra_set_kb() {
	local n=${RA_DEV#/dev/}
	if [ -x "$BLKTUNE" ] && "$BLKTUNE" --journal-dir "$T_TMP/journal" --set "$n:read_ahead_kb=$1" >/dev/null 2>&1; then
		RA_VIA_BLKTUNE=1
	else
		echo "$1" > "/sys/block/$n/queue/read_ahead_kb"
	fi
	t_eq "read_ahead_kb set to $1" "$(cat "/sys/block/$n/queue/read_ahead_kb")" "$1"
}

ra_restore_kb() {
	local n=${RA_DEV#/dev/}
	if [ -n "${RA_VIA_BLKTUNE:-}" ]; then
		"$BLKTUNE" --journal-dir "$T_TMP/journal" --restore >/dev/null 2>&1
	fi
	[ -n "${RA_KB_ORIG:-}" ] && echo "$RA_KB_ORIG" > "/sys/block/$n/queue/read_ahead_kb"
	t_eq "read_ahead_kb restored" "$(cat "/sys/block/$n/queue/read_ahead_kb")" "${RA_KB_ORIG:-}"
}

# Unmount before tests/lib.sh detaches the loop device and removes $T_TMP.
ra_unmount() {
	ra_close
	if mountpoint -q "$RA_MNT" 2>/dev/null; then umount "$RA_MNT"; fi
}

ra_cleanup() {
	ra_unmount
	t_cleanup
}

ra_done() {
	ra_unmount
	t_done
}

# ra_file NAME MB: a file of MB MiB of data on the test filesystem, synced.
ra_file() {
	dd if=/dev/zero of="$RA_MNT/$1" bs=1M count="$2" status=none conv=fsync
}
