#!/bin/bash
# tests/mutate-sandbox.sh CMD...: run CMD (a mutant's integration script) as
# root in a mount namespace of its own, where a mutant blktune cannot change
# anything that is not the script's own:
#  - /sys/devices is read-only, so no block device's tunables (the root disk,
#    zram, other people's loop devices, present or made later) can be
#    written; a loop device the script attaches (losetup, through a shim
#    first in PATH) gets its own directory back read-write;
#  - /proc/irq (IRQ affinity) and /proc/sys (drop_caches: the page cache
#    is everyone's) are read-only;
#  - /run is a private tmpfs with the host's entries bound back, so a
#    journal that lands in the default /run/blktune stays in the namespace;
#  - BLKTUNE_JOURNAL_DIR and XDG_STATE_HOME point into a private directory.
# A write the sandbox refuses fails the script, which kills the mutant: a
# mutant that reaches for a device it was not given is a real bug.
# On SIGTERM (the driver's time limit) the script's process group is ended
# by the driver; loop devices the script attached are detached here.
set -u
if [ "${MUTATE_SANDBOX_INSIDE:-}" != 1 ]; then
	[ "$(id -u)" -eq 0 ] || { echo "mutate-sandbox: needs root" >&2; exit 2; }
	MUTATE_SANDBOX_INSIDE=1 exec unshare --mount --propagation private "$0" "$@"
fi

real_losetup=$(command -v losetup) || { echo "mutate-sandbox: no losetup" >&2; exit 2; }
P=$(mktemp -d /tmp/blktune-mutate-sandbox.XXXXXX)
mkdir -p "$P/sysfs" "$P/run-host" "$P/bin" "$P/state" "$P/journal"
: >"$P/loops"

die() { echo "mutate-sandbox: $*" >&2; exit 2; }

# A read-write view of sysfs to give the script's own loop devices back.
mount -t sysfs sysfs "$P/sysfs" || die "cannot mount sysfs"
mount --bind /sys/devices /sys/devices && mount -o remount,bind,ro /sys/devices ||
	die "cannot make /sys/devices read-only"
for d in /proc/irq /proc/sys; do
	mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" || die "cannot make $d read-only"
done

# /run: a tmpfs, the host's entries bound back one by one (udevadm settle
# needs /run/udev), anything new stays here.
mount --rbind /run "$P/run-host" || die "cannot bind /run"
mount -t tmpfs -o mode=0755 tmpfs /run || die "cannot mount a tmpfs on /run"
for e in "$P"/run-host/* "$P"/run-host/.[!.]*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	n=/run/${e##*/}
	if [ -L "$e" ]; then
		cp -P "$e" "$n"
	elif [ -d "$e" ]; then
		mkdir -p "$n" && mount --rbind "$e" "$n"
	else
		: >"$n" && mount --bind "$e" "$n"
	fi
done

cat >"$P/bin/losetup" <<EOF
#!/bin/bash
# losetup, then the loop device it attached gets its sysfs directory back
# read-write in this namespace (see tests/mutate-sandbox.sh)
out=\$("$real_losetup" "\$@"); rc=\$?
[ -n "\$out" ] && printf '%s\n' "\$out"
[ \$rc -eq 0 ] || exit \$rc
dev=
case " \$* " in *" -d "*|*" --detach "*)
	# detached: its directory is read-only again (the number may be reused)
	for a in "\$@"; do
		case \$a in /dev/loop[0-9]*) umount "/sys/devices/virtual/block/\${a#/dev/}" 2>/dev/null ;; esac
	done
	exit 0 ;;
*" -D "*|*" --detach-all "*) exit 0 ;;
esac
for a in "\$@" \$out; do
	case \$a in /dev/loop[0-9]*) dev=\${a#/dev/} ;; esac
done
[ -n "\$dev" ] && [ -d "/sys/devices/virtual/block/\$dev" ] || exit 0
# only a device bound to a file under /tmp (the script's own directory)
bf=\$(cat "$P/sysfs/devices/virtual/block/\$dev/loop/backing_file" 2>/dev/null) || exit 0
case \$bf in /tmp/*) ;; *) exit 0 ;; esac
grep -qx "\$dev" "$P/loops" || echo "\$dev" >>"$P/loops"
mountpoint -q "/sys/devices/virtual/block/\$dev" ||
	mount --bind "$P/sysfs/devices/virtual/block/\$dev" "/sys/devices/virtual/block/\$dev"
exit 0
EOF
chmod +x "$P/bin/losetup"

cleanup() {
	local d bf
	# loop devices the script attached and left (a time limit cut it short)
	while read -r d; do
		bf=$(cat "$P/sysfs/devices/virtual/block/$d/loop/backing_file" 2>/dev/null) || continue
		case $bf in /tmp/*) "$real_losetup" -d "/dev/$d" 2>/dev/null ;; esac
	done <"$P/loops"
	umount -R "$P/run-host" 2>/dev/null || umount -l "$P/run-host" 2>/dev/null
	umount "$P/sysfs" 2>/dev/null
	rm -rf "$P"
}

export PATH="$P/bin:$PATH" BLKTUNE_JOURNAL_DIR="$P/journal" XDG_STATE_HOME="$P/state"
"$@" &
child=$!
trap 'kill -TERM $child 2>/dev/null' TERM HUP INT
rc=0
while :; do
	wait $child
	rc=$?
	kill -0 $child 2>/dev/null || break
done
cleanup
exit $rc
