# Shell test helpers, sourced by tests/integration/*.sh and tests/e2e/*.sh.
# Each assertion prints "ok - ..." or "not ok - ..."; tests/run-all counts them.
# A script that cannot run here (not root, no tmux) prints "skip - reason" and exits 77.
set -u
T_FAILS=0
T_PASSES=0
T_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BLKTUNE=${BLKTUNE:-$T_TOP/build/blktune}
T_LOOPS=()
T_TMP=$(mktemp -d /tmp/blktune-test.XXXXXX)

t_ok() { T_PASSES=$((T_PASSES + 1)); echo "ok - $*"; }
t_fail() { T_FAILS=$((T_FAILS + 1)); echo "not ok - $*"; }
t_skip() { echo "skip - $*"; t_cleanup; exit 77; }
# t_check DESC CMD...: passes when CMD succeeds
t_check() { local d=$1; shift; if "$@"; then t_ok "$d"; else t_fail "$d"; fi; }
t_eq() { if [ "$2" = "$3" ]; then t_ok "$1 ($2)"; else t_fail "$1: got '$2', want '$3'"; fi; }
# t_near DESC GOT WANT TOLERANCE (floats)
t_near() {
	if awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }'; then
		t_ok "$1 ($2 ~ $3)"
	else
		t_fail "$1: got '$2', want '$3' +- $4"
	fi
}
# t_subskip WHY: a part of the script cannot run here; the rest goes on.
# tests/run-all lists it (and fails it under CI) like a whole-script skip.
t_subskip() { echo "skip - $*"; }
# t_absent WHY: a part needs a kernel feature this kernel lacks (not a
# package: those CI installs) and the script has made sure it is absent, not
# merely unloaded. tests/run-all lists it, also under CI, and does not fail
# it: the feature's code is tested on fixture trees.
t_absent() { echo "absent - $*"; }
# t_have_sched NAME QUEUE: the I/O scheduler NAME can be chosen on the queue
# directory QUEUE, after loading its module where there is one (0), or this
# kernel has no such scheduler (1).
t_have_sched() {
	grep -qw "$1" "$2/scheduler" && return 0
	modprobe -q "$1-iosched" 2>/dev/null || modprobe -q "$1" 2>/dev/null
	grep -qw "$1" "$2/scheduler"
}
# t_until SECONDS CMD...: poll CMD every 0.05 s until it succeeds (0) or the
# time is up (1): wait for a condition, never for a fixed time.
# A condition waited for may take far longer than asked on a loaded machine
# (CI, other jobs): every wait lasts at least T_WAIT_MIN seconds (default 20)
# before it gives up. That costs nothing when the condition comes; only a
# failing check waits longer. t_until_exact waits exactly the time asked, for
# polling loops that try something else when the time is up.
t_wait_secs() { local s=$1 m=${T_WAIT_MIN:-20}; echo $((s < m ? m : s)); }
t_until() {
	local s
	s=$(t_wait_secs "$1"); shift
	t_until_exact "$s" "$@"
}
t_until_exact() {
	local end=$((SECONDS + $1 + 1)) n=$(($1 * 20)) i
	shift
	for ((i = 0; i < n && SECONDS < end; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	"$@"
}
# t_stop PID [SIGNAL]: signal a process this script started and reap it;
# one that has not ended after t_wait_secs 10 is killed (and said), so a
# tool that ignores the signal cannot hang the test.
t_stop() {
	local pid=$1 sig=${2:-INT}
	kill -"$sig" "$pid" 2>/dev/null
	# bpftrace has been seen to miss a first SIGINT: a second one, then KILL
	if ! t_until_exact 5 sh -c "! kill -0 $pid 2>/dev/null"; then
		kill -"$sig" "$pid" 2>/dev/null
	fi
	if ! t_until 10 sh -c "! kill -0 $pid 2>/dev/null"; then
		echo "# pid $pid did not end on SIG$sig: killed"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}
# t_bpftrace OUT PROGRAM: start bpftrace on PROGRAM in the background, its
# stdout in OUT (stderr in OUT.err), and return once its probes are attached:
# a BEGIN probe, which bpftrace fires after attaching every other probe,
# prints the marker waited for ("Attaching N probes..." comes before the
# attach, so events right after it could be lost). The pid is in T_BT_PID;
# end it with t_stop "$T_BT_PID" INT. Returns 1, saying why, if bpftrace
# did not attach within t_wait_secs 20. T_BT_PROGS: the ids of the BPF
# programs loaded meanwhile, bpftrace's (this bpftool names no owner), for
# t_bt_misses.
t_bpftrace() {
	local out=$1 prog=$2 before
	before=$(t_bpf_prog_ids)
	bpftrace -e "BEGIN { printf(\"blktune-test: attached\\n\"); }
$prog" >"$out" 2>"$out.err" &
	T_BT_PID=$!
	if t_until 20 grep -q '^blktune-test: attached' "$out"; then
		T_BT_PROGS=$(t_bpf_progs_since "$before")
		return 0
	fi
	echo "# bpftrace did not attach: $(head -c 300 "$out.err")"
	return 1
}
# t_bt_tail KDEV: bpftrace probes (for t_bpftrace's program) timing each
# read of device KDEV from block_rq_complete, where traced times end, to
# block_io_done, where the kernel accounts it (r_await), matched by sector;
# the program's END must clear(@e). t_bt_tail_us OUT: their mean in us from
# bpftrace's output file, "" when none was timed.
t_bt_tail() {
	echo 'tracepoint:block:block_rq_complete /args->dev == '"$1"' && strncmp(args->rwbs, "R", 1) == 0/ { @e[args->sector] = nsecs; }
tracepoint:block:block_io_done /args->dev == '"$1"' && @e[args->sector]/ {
	@tail_ns = sum(nsecs - @e[args->sector]); @tail_n = count(); delete(@e[args->sector]); }'
}
t_bt_tail_us() {
	awk '/^@tail_ns:/ { s = $2 } /^@tail_n:/ { n = $2 } END { if (n > 0) printf "%.3f", s / n / 1000 }' "$1"
}
# t_bpf_prog_ids: the ids of the loaded BPF programs, space-separated.
t_bpf_prog_ids() {
	command -v bpftool >/dev/null || return 0
	bpftool -j prog show 2>/dev/null | python3 -c 'import json, sys
print(" ".join(str(p["id"]) for p in json.load(sys.stdin)))'
}
# t_bpf_progs_since IDS: the ids of the programs loaded now that the
# space-separated IDS (an earlier t_bpf_prog_ids) did not hold.
t_bpf_progs_since() {
	comm -13 <(tr ' ' '\n' <<<"$1" | sort) <(t_bpf_prog_ids | tr ' ' '\n' | sort) | xargs
}
# t_bpf_misses ID...: how many times the kernel skipped the BPF programs
# ID... (bpftool's recursion_misses, summed; 0 where bpftool leaves it out).
# A classic tracepoint program does not run while another such program, or
# a bpf() map call from user space (bpf_disable_instrumentation), holds its
# CPU's bpf_prog_active; a tp_btf program not while it runs already on that
# CPU. Each skip loses one event, of whichever device it was for.
t_bpf_misses() {
	command -v bpftool >/dev/null || { echo 0; return 0; }
	bpftool -j prog show 2>/dev/null | python3 -c 'import json, sys
ids = set(int(i) for i in sys.argv[1:])
print(sum(p.get("recursion_misses", 0) for p in json.load(sys.stdin) if p["id"] in ids))' "$@"
}
# t_bt_misses: t_bpf_misses of bpftrace's programs (T_BT_PROGS): the events
# it lost since it attached. Read it before bpftrace ends.
t_bt_misses() {
	# shellcheck disable=SC2086
	t_bpf_misses $T_BT_PROGS
}
t_need_root() { [ "$(id -u)" -eq 0 ] || t_skip "needs root"; }

# t_loop_create SIZE_MB [FILE]: a loop device over a fresh file (FILE, a new
# one under $T_TMP, else a temporary one), in $T_LOOP (not echoed: a $(...)
# subshell would lose the record and leak the device).
# Only loop devices made here are ever changed by tests; t_cleanup detaches them.
t_loop_create() {
	local f=${2:-}
	T_LOOP=
	[ -n "$f" ] || f=$(mktemp "$T_TMP/loop.XXXXXX")
	truncate -s "${1}M" "$f"
	T_LOOP=$(losetup -f --show --direct-io=on "$f" 2>/dev/null || losetup -f --show "$f") || return 1
	T_LOOPS+=("$T_LOOP")
}

# t_loop_create_fresh SIZE_MB: like t_loop_create, but with a number no
# loop device has now (700-799), so its queue is new: per-queue state that
# outlives a detach (v1 blk-throttle once activated) is not there. t_cleanup
# detaches it and removes the device (LOOP_CTL_REMOVE).
T_LOOPS_FRESH=()
t_loop_create_fresh() {
	local f n
	T_LOOP=
	f=$(mktemp "$T_TMP/loop.XXXXXX")
	truncate -s "${1}M" "$f"
	for n in $(seq 700 799); do
		[ -e /sys/block/loop$n ] && continue
		losetup --direct-io=on /dev/loop$n "$f" 2>/dev/null || continue
		T_LOOP=/dev/loop$n
		T_LOOPS+=("$T_LOOP")
		T_LOOPS_FRESH+=("$n")
		return 0
	done
	return 1
}

# t_held_loop: a loop device T_HELD (T_HELD_NAME its name) whose backing
# file lies on an ext4 on a loop device made here (mounted at
# $T_TMP/held); t_hold_write freezes that ext4 (fsfreeze) and starts a 4k
# direct write to T_HELD in the background (T_HELD_PID), which stays in
# flight until t_release thaws it: the loop device's worker blocks writing
# the backing file. t_cleanup thaws and detaches first.
T_HELD= T_HELD_NAME= T_HELD_PID=
t_held_loop() {
	local m=$T_TMP/held
	t_loop_create 64 || return 1
	mkfs.ext4 -q -F "$T_LOOP" && mkdir -p "$m" && mount "$T_LOOP" "$m" || return 1
	truncate -s 32M "$m/back"
	T_HELD=$(losetup -f --show "$m/back") || return 1
	T_HELD_NAME=${T_HELD#/dev/}
	T_CLEANUP_FIRST+=(t_held_cleanup)
}
t_held_cleanup() {
	fsfreeze -u "$T_TMP/held" 2>/dev/null
	[ -n "$T_HELD" ] && losetup -d "$T_HELD" 2>/dev/null
	T_HELD=
}
t_held_pending() { local w; read -r _ w < "/sys/block/$T_HELD_NAME/inflight"; [ "$w" -ge 1 ]; }
t_hold_write() {
	fsfreeze -f "$T_TMP/held" || return 1
	timeout 120 dd if=/dev/zero of="$T_HELD" bs=4k count=1 oflag=direct status=none &
	T_HELD_PID=$!
	t_until 10 t_held_pending
}
t_release() { fsfreeze -u "$T_TMP/held" && wait "$T_HELD_PID"; }

# Commands t_cleanup runs first, while the test's directory still exists: a
# helper library that starts something living in it (lib-tmux.bash's server,
# whose socket is there) adds its stop here, so t_done's cleanup stops it too.
T_CLEANUP_FIRST=()
# The shell that sourced this file: only it cleans up. A child forked for a
# background job (cmd &) is a copy of this shell, EXIT trap included, until
# it execs; a signal in that window (a test stopping a job it has just
# started) would run the trap there and remove $T_TMP and the loop devices
# under the test's feet.
T_MAIN=$BASHPID
t_cleanup() {
	local d m
	[ "$BASHPID" = "$T_MAIN" ] || return 0
	# background jobs the script left running (a load, a tracer) end with it
	for d in $(jobs -p); do
		kill "$d" 2>/dev/null
	done
	for d in "${T_CLEANUP_FIRST[@]}"; do
		"$d"
	done
	# A filesystem a test mounted below its own directory and could not
	# unmount (a process still inside) would survive its loop device and
	# the rm below: take it down first, lazily if it is busy.
	if [ -n "${T_TMP:-}" ]; then
		while read -r _ m _; do
			case $m in "$T_TMP"/*) umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ;; esac
		done < /proc/mounts
	fi
	for d in "${T_LOOPS[@]:-}"; do
		[ -n "$d" ] && losetup -d "$d" 2>/dev/null
	done
	T_LOOPS=()
	for d in "${T_LOOPS_FRESH[@]:-}"; do
		[ -n "$d" ] && python3 -c 'import fcntl, os, sys
fd = os.open("/dev/loop-control", os.O_RDWR)
fcntl.ioctl(fd, 0x4C81, int(sys.argv[1]))' "$d" 2>/dev/null
	done
	T_LOOPS_FRESH=()
	[ -n "${T_TMP:-}" ] && rm -rf "$T_TMP"
}

t_done() {
	t_cleanup
	echo "# $T_PASSES passed, $T_FAILS failed"
	[ "$T_FAILS" -eq 0 ]
}
trap t_cleanup EXIT
# A TERM (run-all's time limit; timeout(1) sends it to the script and then
# to its whole process group, so twice) ends the script through the EXIT
# trap, which a second TERM must not cut short.
trap 'trap "" TERM; exit 143' TERM
