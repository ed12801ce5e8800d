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

# Independent counts for the checks below, filled by ra_run and ra_evict:
#   RD[...]     the reader's own counts (tests/integration/readahead-reader.py)
#   RA_CACHED   pages of the file in the page cache after the run (fincore)
declare -A RD
RA_READER=$T_TOP/tests/integration/readahead-reader.py
RA_CACHED=

# ra_cached FILE: pages of FILE in the page cache, as fincore counts them.
ra_cached() {
	fincore -n -o PAGES "$1" | tr -d ' '
}

# ra_run FILE MODE ARGS...: empty FILE's cache (re-mount), start the probe's
# interval, run the reader, count the cached pages, end the interval.
# With RA_WANT_CACHED set (a reader of the whole file), a run after which
# fincore finds fewer pages was disturbed from outside (another process
# dropped the caches meanwhile): it is said and run again, at most 3 times.
ra_run() {
	local f=$1 k v try
	shift
	for try in 1 2 3; do
		ra_remount || t_fail "re-mount"
		ra_cmd start
		RD=()
		while read -r k v; do RD[$k]=$v; done < <(python3 "$RA_READER" "$1" "$f" "${@:2}")
		RA_CACHED=$(ra_cached "$f")
		ra_cmd stop || t_fail "probe answered"
		[ -z "${RA_WANT_CACHED:-}" ] || [ "$RA_CACHED" = "$RA_WANT_CACHED" ] && return 0
		echo "# run $try disturbed: fincore $RA_CACHED of $RA_WANT_CACHED pages cached (caches dropped meanwhile?)"
	done
}

# ra_evict: a second interval over the eviction of every page (re-mount).
ra_evict() {
	ra_cmd start
	ra_remount || t_fail "re-mount"
	ra_cmd stop || t_fail "probe answered"
}

# ra_near DESC GOT WANT PCT: GOT within PCT % of WANT (at least 2 pages).
ra_near() {
	local tol=$(( $3 * $4 / 100 ))
	[ "$tol" -ge 2 ] || tol=2
	t_near "$1" "$2" "$3" "$tol"
}

# ra_cache_check WHAT: the pages blktune saw added (readahead + demand), less
# those it saw evicted unread (waste: reclaim can take some during a run),
# are the pages the page cache holds (fincore; the cache was empty before;
# within 0.1 %: once in many runs a few pages of a busy machine's run
# differ), and no page state was lost.
ra_cache_check() {
	t_near "$1: readahead + demand - evicted unread pages = pages cached (fincore)" \
		"$((RA[pages] + RA[demand] - ${RA[waste]:-0}))" "$RA_CACHED" "$((RA_CACHED / 1000 + 2))"
	t_eq "$1: no page state dropped" "${RA[dropped]}" 0
}

# ra_mmap_check WHAT TOL% HITTOL% [ABOVE%]: mmap figures against the reader's own
# counts. Every page in the reader's page table is demand, hit or mapped
# (within TOL %); a hit is a fault the reader took on a cached page (within
# HITTOL %: a page whose read is still in flight when fault-around passes
# over it is skipped by the kernel but counted mapped here, so a later
# fault on it is no hit; a reader right behind the readahead meets many).
# ABOVE% (default TOL%): how far blktune's count may lie above the page
# table's. Fault-around skips a page it cannot take at that moment (its
# read still in flight, its folio locked), and blktune counts that page
# mapped (the man page says so): the error only ever adds, and by how
# much depends on the run. With a new thread a touch it was 0.2 to 1.1 %
# (15 to 94 of about 8900 pages, 11 runs, the blktune count the same
# every time), so that case gets 2 % above.
ra_mmap_check() {
	local got=$((RA[hit] + RA[mapped] + RA[demand])) want=${RD[mapped]} below above
	below=$((want * $2 / 100)) above=$((want * ${4:-$2} / 100))
	[ "$below" -ge 2 ] || below=2
	[ "$above" -ge 2 ] || above=2
	t_check "$1: hit + mapped + demand = pages in the reader's page table (pagemap) ($got in $want -$below +$above)" \
		[ "$got" -ge "$((want - below))" -a "$got" -le "$((want + above))" ]
	ra_near "$1: hit = faults the reader took on cached pages (cachestat)" \
		"${RA[hit]}" "${RD[cached_faults]}" "$3"
	t_check "$1: hit ${RA[hit]} <= faults on cached pages ${RD[cached_faults]}" \
		[ "${RA[hit]}" -le "${RD[cached_faults]}" ]
}

# ra_set_kb KB: read_ahead_kb of our own loop device through blktune --set
# (validated, read back, journaled in $T_TMP). A failure is the test's
# failure: there is no other way in.
ra_set_kb() {
	local n=${RA_DEV#/dev/}
	t_check "blktune --set $n:read_ahead_kb=$1" \
		"$BLKTUNE" --journal-dir "$T_TMP/journal" --set "$n:read_ahead_kb=$1"
	t_eq "read_ahead_kb set to $1" "$(cat "/sys/block/$n/queue/read_ahead_kb")" "$1"
}

# ra_restore_kb: blktune --restore puts the original back (checked in sysfs).
ra_restore_kb() {
	local n=${RA_DEV#/dev/}
	t_check "blktune --restore" "$BLKTUNE" --journal-dir "$T_TMP/journal" --restore
	t_eq "read_ahead_kb restored" "$(cat "/sys/block/$n/queue/read_ahead_kb")" "${RA_KB_ORIG:-}"
}

# Cleanup only, after the assertions: if a failed test left our own loop
# device changed, put it back before it is detached.
ra_reset_kb() {
	local n=${RA_DEV#/dev/}
	[ -n "${RA_KB_ORIG:-}" ] && [ -e "/sys/block/$n/queue/read_ahead_kb" ] &&
		[ "$(cat "/sys/block/$n/queue/read_ahead_kb")" != "$RA_KB_ORIG" ] &&
		echo "$RA_KB_ORIG" > "/sys/block/$n/queue/read_ahead_kb"
	return 0
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
