# A made-up machine for TUI tests that need many devices and no root
# (sourced after tests/lib.sh): fr_start ROOT N BUSY... writes ROOT with
# loop0..loop(N-1) and a feeder rewriting ROOT/proc/diskstats in place
# (blktune keeps the file open), the BUSY ones reading 100 I/Os each 0.1 s,
# at most 300 times. fr_stop ends the feeder; $FR_FEEDER is its pid.
# FR_FIELDS=14 or 18 writes the lines of an older kernel (no discard or no
# flush fields); 20 by default.
fr_start() {
	local root=$1 n=$2 i
	shift 2
	mkdir -p "$root/proc"
	echo "5000.00 9000.00" > "$root/proc/uptime"
	for ((i = 0; i < n; i++)); do
		mkdir -p "$root/sys/block/loop$i/queue"
		echo "7:$i" > "$root/sys/block/loop$i/dev"
	done
	python3 - "$root/proc/diskstats" "${FR_FIELDS:-20}" "$n" "$@" <<'PY' &
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
nf, n, busy = int(sys.argv[2]), int(sys.argv[3]), {int(b) for b in sys.argv[4:]}
for k in range(300):
    lines = []
    for i in range(n):
        r = k * 100 if i in busy else 0
        line = "   7 %2d loop%-2d %08d 0 %08d %08d 0 0 0 0 0 %08d %08d 0 0 0 0 0 0" % (i, i, r, r * 8, r, r, r)
        lines.append(" ".join(line.split(" ")[: len(line.split(" ")) - (20 - nf)]))
    os.pwrite(fd, ("\n".join(lines) + "\n").encode(), 0)
    time.sleep(0.1)
PY
	FR_FEEDER=$!
	t_until 5 test -s "$root/proc/diskstats"
}
fr_stop() {
	[ -n "${FR_FEEDER:-}" ] || return 0
	kill "$FR_FEEDER" 2> /dev/null
	wait "$FR_FEEDER" 2> /dev/null
	FR_FEEDER=
}
