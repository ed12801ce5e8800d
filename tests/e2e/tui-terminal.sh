#!/usr/bin/env bash
# The terminal as people have it over ssh (issue 11): TERM=dumb is refused
# with a pointer to -b, like a non-terminal stdin; under LANG=C the
# sparklines are ASCII, under C.UTF-8 block characters. Runs on a --root tree
# whose one device this test keeps busy (rewritten in place, bounded).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
trap 'kill $feeder 2> /dev/null; tm_stop; t_cleanup' EXIT
root=$T_TMP/root
mkdir -p "$root/proc" "$root/sys/block/loop0/queue"
echo "7:0" > "$root/sys/block/loop0/dev"
echo "5000.00 9000.00" > "$root/proc/uptime"
python3 - "$root/proc/diskstats" <<'PY' &
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
for n in range(400):
    r = n * (100 + 90 * (n % 3))  # uneven, so the sparkline has levels
    os.pwrite(fd, ("   7 0 loop0 %010d 0 %010d %010d 0 0 0 0 0 %010d %010d 0 0 0 0 0 0\n" % (r, r * 8, r, r, r)).encode(), 0)
    time.sleep(0.1)
PY
feeder=$!
t_until 5 test -s "$root/proc/diskstats"
bt="'$BLKTUNE' --root '$root' -d 0.5 --no-trace --journal-dir '$T_TMP/j'"

tm_start "TERM=dumb $bt; echo EXIT=\$?; sleep 30"
t_check "TERM=dumb is refused, pointing to -b" tm_wait "TERM=dumb cannot move the cursor.*use -b" 5
t_check "with exit status 2" tm_wait "^EXIT=2" 2
tm_stop

# spark LOCALE: the MB/s sparkline line of the detail pane, once it has points
spark() {
	tm_start "LANG=$1 LC_ALL=$1 $bt; sleep 30"
	tm_wait "^DEVICE" 5
	has_points() { tm_screen | grep -E '^MB/s ' | grep -qvE '^MB/s +max'; }
	t_until 8 has_points
	tm_screen | grep -E '^MB/s ' | head -n 1
	tm_stop
}
line=$(spark C)
t_check "LANG=C: a sparkline is drawn ($line)" grep -qE '^MB/s +[ .,:=+*#-]*[.,:=+*#-]' <<< "$line"
t_check "LANG=C: only ASCII on it" test -z "$(LC_ALL=C grep -P '[^\x20-\x7e]' <<< "$line")"
t_check "LANG=C: no meta notation (~V~H)" test -z "$(grep -F '~' <<< "$line")"
line=$(spark C.UTF-8)
t_check "C.UTF-8: block characters ($line)" grep -q '[▁▂▃▄▅▆▇█]' <<< "$line"
t_done
