#!/usr/bin/env bash
# Columns and the config file (issue 11, top's habits): -o chooses and
# orders the table's columns; W writes columns, sort, interval and colours to
# $XDG_CONFIG_HOME/blktune/config (a new file, fsynced, renamed), the next
# start takes them, the command line wins over them; a config that does not
# parse is one line and exit 2 at start, and W never overwrites it; a config
# that is a symbolic link is refused. On the sata capture (no root needed).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TOP/tests/fixtures/sata
x=$T_TMP/xdg
conf=$x/blktune/config
trap 'tm_stop; t_cleanup' EXIT
start() { tm_start "XDG_CONFIG_HOME='$x' '$BLKTUNE' --root '$root' --no-trace --journal-dir '$T_TMP/j' $*; echo EXITED \$?; sleep 60"; }
header() { tm_screen | grep -m1 '^DEVICE' | tr -s ' '; }

"$BLKTUNE" -o 'r/s,nosuch' > /dev/null 2> "$T_TMP/err"
t_eq "-o with an unknown column: exit 2" "$?" 2
t_check "-o: the column named" grep -q 'no column "nosuch"' "$T_TMP/err"
"$BLKTUNE" -b -o 'r/s' > /dev/null 2>&1
t_eq "-o in batch mode: exit 2" "$?" 2

start -d 0.5 -o "'%util,r/s,stack'"
t_check "the table is up" tm_wait "^DEVICE" 5
t_eq "-o: those columns in that order" "$(header)" "DEVICE^ %util r/s stack"
tm_keys '>'
t_check "> sorts by the first chosen column" tm_wait "sorted by %util" 2
tm_keys W
t_check "W says where it wrote" tm_wait "written $conf" 2
t_check "the file: columns" grep -qx "columns %util,r/s,stack" "$conf"
t_check "the file: sort" grep -qx "sort %util desc" "$conf"
t_check "the file: interval" grep -qx "interval 0.5" "$conf"
t_check "the file: colours" grep -qE "^color (on|off)$" "$conf"
t_eq "the file is the user's alone" "$(stat -c %a "$conf")" 600
t_check "no temporary file left" sh -c "[ \$(ls -A '$x/blktune' | wc -l) -eq 1 ]"
tm_keys q
tm_stop

start
t_check "the next start takes the columns" tm_wait "^DEVICE" 5
t_eq "columns and sort from the file" "$(header)" "DEVICE %utilv r/s stack"
t_check "and the interval" tm_wait "interval 0.5 s" 1
tm_stop
start -d 2 -o r/s --no-color
t_check "the command line wins" tm_wait "interval 2.0 s" 5
t_eq "-o over the file" "$(header)" "DEVICE r/s"
# the file turns bad while blktune runs: W must not replace it
printf 'blktune-config 1\ncolumns r/s\ninterval 0\n' > "$conf"
cp "$conf" "$T_TMP/bad"
tm_keys W
t_check "W refuses a file that does not parse" tm_wait "line 3: interval 0: seconds from 0.1 to 60: not overwritten" 2
t_check "and leaves it as it was" cmp -s "$conf" "$T_TMP/bad"
tm_stop

start
t_check "a bad config at start: exit 2" tm_wait "^EXITED 2" 5
t_check "in one line naming the file and the line" tm_wait "^blktune: config $conf line 3: interval 0" 1
tm_stop

# a symbolic link in the config's place is never followed
rm "$conf"
echo "blktune-config 1" > "$T_TMP/elsewhere"
ln -s "$T_TMP/elsewhere" "$conf"
start
t_check "a symlinked config: exit 2" tm_wait "^EXITED 2" 5
t_check "said: a symbolic link" tm_wait "^blktune: config $conf is a symbolic link" 1
t_done
