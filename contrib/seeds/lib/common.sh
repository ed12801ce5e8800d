# Shared by the seed experiments (sourced by bash): device checks, blktune and
# fio lookup, the sweep invocation. Every seed writes to or reformats the
# device it is given, so it refuses a device that holds a filesystem (or any
# signature wipefs knows), is mounted, or has a mounted partition, unless
# --force.

seed_die() { echo "${SEED_NAME:-seed}: $*" >&2; exit 2; }

# seed_blktune: the blktune to run ($BLKTUNE, else the tree's build, else PATH)
seed_blktune() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
	if [ -n "${BLKTUNE:-}" ]; then echo "$BLKTUNE"
	elif [ -x "$top/build/blktune" ]; then echo "$top/build/blktune"
	else command -v blktune || seed_die "blktune not found: make, or set BLKTUNE"
	fi
}

# seed_check_device DEV FORCE: a whole block device with a request queue,
# not mounted, no filesystem or partition table on it (unless FORCE=1).
seed_check_device() {
	local dev=$1 force=$2 name sig mnt
	[ -b "$dev" ] || seed_die "$dev is not a block device"
	name=$(basename "$(readlink -f "$dev")")
	[ -d "/sys/block/$name/queue" ] ||
		seed_die "$dev has no request queue of its own (a partition? give the whole disk)"
	# the device or any partition of it, mounted or used as swap
	mnt=$(lsblk -nro MOUNTPOINT "$dev" 2>/dev/null | grep -v '^$' | head -n 1 || true)
	# (without lsblk: /proc/mounts; sda's partitions are sda1, loop3's loop3p1)
	[ -n "$mnt" ] || mnt=$(awk -v d="$(readlink -f "$dev")" '
		BEGIN { part = d ~ /[0-9]$/ ? "^p[0-9]+$" : "^[0-9]+$" }
		$1 == d || (index($1, d) == 1 && substr($1, length(d) + 1) ~ part) { print $2; exit }' /proc/mounts)
	if [ -n "$mnt" ]; then
		[ "$force" = 1 ] || seed_die "$dev (or a partition of it) is mounted on $mnt: refusing (--force overrides)"
		echo "${SEED_NAME:-seed}: warning: $dev is mounted on $mnt, going on (--force)" >&2
	fi
	sig=$(wipefs -n -O TYPE --noheadings "$dev" 2>/dev/null | sort -u | tr '\n' ' ' || true)
	[ -n "$sig" ] || sig=$(blkid -p -o value -s TYPE "$dev" 2>/dev/null || true)
	if [ -n "$sig" ]; then
		[ "$force" = 1 ] || seed_die "$dev holds ${sig% } (wipefs -n): its data would be destroyed; refusing (--force overrides)"
		echo "${SEED_NAME:-seed}: warning: $dev holds ${sig% }, overwriting it (--force)" >&2
	fi
	SEED_DEVNAME=$name
}

seed_need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || seed_die "needs $t"
	done
}
