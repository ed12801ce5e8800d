#!/usr/bin/env bash
# The tunables panel keeps its selection on the tunable, not on the row
# number, when a scheduler change replaces the iosched/ rows above it (found
# by review, stop 26: a prompt for kyber's read_lat_nsec = 2000000, i.e.
# 2 ms, became one for mq-deadline's read_expire = 2000000, 2000 s). On a
# made-up machine (a --root tree, no root needed) whose queue/iosched/ also
# holds a file the table does not know, listed after the scheduler's own.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/lib-fakeroot.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/root
trap 'fr_stop; tm_stop; t_cleanup' EXIT
fr_start "$root" 1 0
q=$root/sys/block/loop0/queue
for f in read_ahead_kb:128 max_sectors_kb:512 max_hw_sectors_kb:1024 nr_requests:64 rq_affinity:1 \
	nomerges:0 wbt_lat_usec:0 add_random:0 iostats:1; do
	echo "${f#*:}" > "$q/${f%%:*}"
done
echo "write back" > "$q/write_cache"
mkdir -p "$q/iosched"
deadline() {
	rm -f "$q"/iosched/*_lat_nsec
	for f in read_expire:500 write_expire:5000 writes_starved:2 front_merges:1 fifo_batch:16 \
		async_depth:48 prio_aging_expire:10000; do
		echo "${f#*:}" > "$q/iosched/${f%%:*}"
	done
	echo "none [mq-deadline] kyber" > "$q/scheduler"
}
kyber() {
	rm -f "$q"/iosched/{read_expire,write_expire,writes_starved,front_merges,fifo_batch,async_depth,prio_aging_expire}
	echo 2000000 > "$q/iosched/read_lat_nsec"
	echo 10000000 > "$q/iosched/write_lat_nsec"
	echo "none mq-deadline [kyber]" > "$q/scheduler"
}
deadline
echo 7 > "$q/iosched/zz_vendor"
echo 8 > "$q/iosched/zz_other"
TM_W=100 TM_H=40 tm_start "'$BLKTUNE' --root '$root' -d 0.3 --no-trace --journal-dir '$T_TMP/j'; echo EXITED \$?; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
tm_keys t
t_check "the panel opens on loop0" tm_wait "tunables of loop0" 3
t_check "it lists mq-deadline's rows" tm_wait "read_expire" 2
for ((i = 0; i < 30; i++)); do tm_keys j; done
tm_keys k
# the panel's highlighted row: below its title, the one on the selection's
# background (yellow; changed rows are bold cyan, the header cyan)
selected() { tm_screen_attrs | awk -F'|' 'p && $1 ~ /bg=43/ { split($2, w, " "); print w[1]; exit } $2 ~ /^tunables of / { p = 1 }'; }
selected_is() { [ "$(selected)" = "$1" ]; }
# the last but one row: one of the two files the table does not know
# (their order is the directory's), so a row number kept across a shorter
# list would land on the other one, or on a row above
vendor_selected() { case $(selected) in iosched/zz_vendor | iosched/zz_other) true ;; *) false ;; esac; }
t_check "the last row but one, an unknown iosched/ file, is selected" t_until 3 vendor_selected
x=$(selected)
v=$(cat "$q/$x")
kyber
t_check "the rows change to kyber's" tm_wait "read_lat_nsec" 3
t_check "the selection stays on $x, five rows up" t_until 3 selected_is "$x"
tm_keys Enter
t_check "Enter asks for $x" tm_wait "loop0 $x = ${v}_" 2
tm_keys Escape
# up to kyber's read_lat_nsec, then back to mq-deadline: the name is gone,
# and the selection stays in the list, never past its end
tm_keys k k
t_check "k k: iosched/read_lat_nsec" t_until 3 selected_is iosched/read_lat_nsec
deadline
t_check "back to mq-deadline's rows" tm_wait "read_expire" 3
selected_iosched() { selected | grep -q '^iosched/'; }
t_check "a row of the list is selected" t_until 3 selected_iosched
tm_keys Escape
tm_keys q
t_check "q quits (nothing changed)" tm_wait "EXITED 0" 5
tm_stop
fr_stop
t_done
