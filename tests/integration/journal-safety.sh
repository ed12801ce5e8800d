#!/usr/bin/env bash
# The journal is trusted only when it is safe, and --restore writes only what
# --set would: the repros of issue 10 on a loop device made here, with journal
# directories under this test's temporary directory.
#   - a directory another user owns or can write, a planted symlink (lock,
#     journal, journal.tmp), a journal another user wrote, a FIFO or a link to
#     /dev/zero: refused in one line, exit 2, nothing written anywhere; the
#     same for sweep --dir;
#   - a write_cache line or nr_requests 0 in the journal: refused, reported,
#     sysfs unchanged;
#   - a malformed line (NUL byte, 600 bytes, junk) or a value the kernel
#     refuses: reported with its line, kept aside in journal.rejected, exit 1,
#     and a later --set journals the real original;
#   - a loop device re-created under the same name (new diskseq): "another
#     device now", exit 1, nothing written to the new device.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tunables-lib.bash"
t_need_root
[ -n "$T_CLI" ] || { t_fail "build/blktune is not built"; t_done; exit 1; }
id nobody > /dev/null 2>&1 || t_skip "no user nobody"

t_loop_create 16 || t_skip "cannot create a loop device"
n=${T_LOOP#/dev/}
q=/sys/block/$n/queue
seq=$(cat "/sys/block/$n/diskseq" 2>/dev/null || echo -)

victim=$T_TMP/victim
reset_victim() { printf 'precious\n' > "$victim"; chmod 0644 "$victim"; }
victim_same() { [ "$(cat "$victim")" = precious ]; }

# run DESC WANT_STATUS CMD...: runs blktune with a 20 s guard (a hang is a
# failure of its own, the assertion is on the status); output in $out.
run() {
	local desc=$1 want=$2
	shift 2
	out=$(timeout -s KILL 20 "$T_CLI" "$@" 2>&1 < /dev/null)
	st=$?
	[ "$st" -eq 137 ] && { t_fail "$desc: hung (killed by the guard)"; return; }
	t_eq "$desc: exit status" "$st" "$want"
}
says() { case $out in *"$2"*) t_ok "$1 says '$2'" ;; *) t_fail "$1: output '$out' lacks '$2'" ;; esac; }
one_line() { t_eq "$1: one line" "$(printf '%s\n' "$out" | wc -l)" 1; }

# -- directories and files another user controls --------------------------
d=$T_TMP/j-nobody
mkdir "$d" && chown nobody "$d" && chmod 0777 "$d"
reset_victim
ln -s "$victim" "$d/lock" && chown -h nobody "$d/lock"
ra=$(cat "$q/read_ahead_kb")
run "0777 dir owned by nobody, lock -> victim" 2 --journal-dir "$d" --set "$n:read_ahead_kb=1024"
one_line "0777 dir"
says "0777 dir" "owned by uid 65534"
t_check "0777 dir: victim unchanged" victim_same
t_eq "0777 dir: read_ahead_kb unchanged" "$(cat "$q/read_ahead_kb")" "$ra"

d=$T_TMP/j-groupw
mkdir "$d" && chmod 0770 "$d"
run "root's dir writable by its group" 2 --journal-dir "$d" --set "$n:read_ahead_kb=1024"
says "group-writable dir" "writable by group or others"
t_eq "group-writable dir: read_ahead_kb unchanged" "$(cat "$q/read_ahead_kb")" "$ra"

# A regular file where the directory should be: not safe either (2, as the
# man page says; it was 1)
d=$T_TMP/j-file
: > "$d"
run "a regular file as journal directory, --set" 2 --journal-dir "$d" --set "$n:read_ahead_kb=1024"
one_line "file as journal directory"
says "file as journal directory" "is not a directory"
t_eq "file as journal directory: read_ahead_kb unchanged" "$(cat "$q/read_ahead_kb")" "$ra"
run "a regular file as journal directory, --restore" 2 --journal-dir "$d" --restore
says "file as journal directory, --restore" "is not a directory"

d=$T_TMP/j-open/inner
mkdir -p "$d" && chmod 0777 "$T_TMP/j-open"
run "safe dir below a 0777 directory" 2 --journal-dir "$d" --set "$n:read_ahead_kb=1024"
says "0777 parent" "above it is writable by group or others"

# Planted links in a directory that is safe now (planted before it was).
for f in lock journal; do
	d=$T_TMP/j-link-$f
	mkdir -m 0700 "$d"
	reset_victim
	ln -s "$victim" "$d/$f"
	run "$f -> victim" 2 --journal-dir "$d" --set "$n:read_ahead_kb=1024"
	one_line "$f link"
	says "$f link" "is a symbolic link: refused"
	t_check "$f link: victim unchanged" victim_same
	t_eq "$f link: read_ahead_kb unchanged" "$(cat "$q/read_ahead_kb")" "$ra"
done

# journal.tmp -> victim while the journal is rewritten (a torn last line).
d=$T_TMP/j-tmp
mkdir -m 0700 "$d"
reset_victim
ln -s "$victim" "$d/journal.tmp"
printf 'blktune-journal 1\norig %s %s nomerges %s\norig %s %s nomer' "$n" "$seq" "$(cat "$q/nomerges")" "$n" "$seq" \
	> "$d/journal"
run "journal.tmp -> victim, journal rewritten" 0 --journal-dir "$d" --set "$n:read_ahead_kb=1024"
t_check "journal.tmp link: victim unchanged" victim_same
t_check "journal.tmp link: still a link" [ -L "$d/journal.tmp" ]
run "journal.tmp link: restore" 0 --journal-dir "$d" --restore
t_eq "journal.tmp link: read_ahead_kb restored" "$(cat "$q/read_ahead_kb")" "$ra"

# A journal nobody wrote, in root's own directory: its values are not root's choice.
d=$T_TMP/j-file-nobody
mkdir -m 0700 "$d"
printf 'blktune-journal 1\norig %s %s read_ahead_kb 2048\n' "$n" "$seq" > "$d/journal"
chown nobody "$d/journal"
run "journal owned by nobody: --restore" 2 --journal-dir "$d" --restore
one_line "journal owned by nobody"
says "journal owned by nobody" "journal is owned by uid 65534"
t_eq "journal owned by nobody: read_ahead_kb not written" "$(cat "$q/read_ahead_kb")" "$ra"
chown root "$d/journal" && chmod 0666 "$d/journal"
run "journal mode 0666: --restore" 2 --journal-dir "$d" --restore
says "journal mode 0666" "writable by group or others"
t_eq "journal mode 0666: read_ahead_kb not written" "$(cat "$q/read_ahead_kb")" "$ra"
d=$T_TMP/j-dir-nobody
mkdir -m 0755 "$d"
printf 'blktune-journal 1\norig %s %s read_ahead_kb 2048\n' "$n" "$seq" > "$d/journal"
chown nobody "$d"
run "journal dir owned by nobody (0755): --restore" 2 --journal-dir "$d" --restore
t_eq "dir owned by nobody: read_ahead_kb not written" "$(cat "$q/read_ahead_kb")" "$ra"

# Not a regular file: a FIFO, a link to /dev/zero. Never hangs, never read.
d=$T_TMP/j-fifo
mkdir -m 0700 "$d"
mkfifo "$d/journal"
run "FIFO journal: --restore" 2 --journal-dir "$d" --restore
says "FIFO journal" "not a regular file"
run "FIFO journal: --set" 2 --journal-dir "$d" --set "$n:read_ahead_kb=1024"
t_eq "FIFO journal: read_ahead_kb unchanged" "$(cat "$q/read_ahead_kb")" "$ra"
d=$T_TMP/j-zero
mkdir -m 0700 "$d"
ln -s /dev/zero "$d/journal"
run "journal -> /dev/zero: --restore" 2 --journal-dir "$d" --restore
says "journal -> /dev/zero" "symbolic link"

# sweep --dir: the same rules (checked before anything changes).
d=$T_TMP/sw-open
mkdir -m 0700 "$d" && chmod 0777 "$d"
BLKTUNE_JOURNAL_DIR=$T_TMP/j-sweep run "sweep --dir writable by others" 2 \
	sweep "$n" read_ahead_kb=128,256 --duration 1 -d 0.5 --dir "$d"
one_line "sweep --dir"
says "sweep --dir" "is writable by group or others (mode 0777): refused"
t_eq "sweep --dir refused: read_ahead_kb unchanged" "$(cat "$q/read_ahead_kb")" "$ra"
t_eq "sweep --dir refused: nothing written there" "$(ls -A "$d" | wc -l)" 0

# -- --restore applies --set's table and validation ------------------------
d=$T_TMP/j-wc
mkdir -m 0700 "$d"
wc_before=$(cat "$q/write_cache")
other="write back"; [ "$wc_before" = "write back" ] && other="write through"
printf 'blktune-journal 1\norig %s %s write_cache %s\n' "$n" "$seq" "$other" > "$d/journal"
run "write_cache line: --restore" 1 --journal-dir "$d" --restore
says "write_cache line" "journal line 2: $n write_cache $other not restored"
says "write_cache line" "kept aside in $d/journal.rejected"
t_eq "write_cache line: sysfs unchanged" "$(cat "$q/write_cache")" "$wc_before"
t_check "write_cache line: in journal.rejected" grep -q "write_cache $other" "$d/journal.rejected"
t_check "write_cache line: out of the journal" [ ! -e "$d/journal" ]
run "write_cache line: restore again" 0 --journal-dir "$d" --restore
says "write_cache line: restore again" "nothing to restore: no journal"

d=$T_TMP/j-nr0
mkdir -m 0700 "$d"
nr=$(cat "$q/nr_requests")
printf 'blktune-journal 1\norig %s %s nr_requests 0\n' "$n" "$seq" > "$d/journal"
run "nr_requests 0: --restore" 1 --journal-dir "$d" --restore
says "nr_requests 0" "below the minimum 4"
t_eq "nr_requests 0: sysfs unchanged" "$(cat "$q/nr_requests")" "$nr"

# -- malformed and refused entries are reported, kept aside, never block ---
d=$T_TMP/j-bad
mkdir -m 0700 "$d"
{
	printf 'blktune-journal 1\n'
	printf 'orig %s %s nomerges 1\n' "$n" "$seq"
	printf 'orig %s %s rq_aff\0inity 2\n' "$n" "$seq"
	printf 'orig %s %s iostats %0600d\n' "$n" "$seq" 0
	printf 'junk junk junk\n'
	printf 'orig %s %s read_ahead_kb -1\n' "$n" "$seq"
} > "$d/journal"
nm=$(cat "$q/nomerges")
[ "$nm" = 1 ] && echo 0 > "$q/nomerges" && nm=0
run "malformed lines: --restore" 1 --journal-dir "$d" --restore
says "NUL byte" "journal line 3: NUL byte"
says "600-byte line" "journal line 4: line of"
says "junk line" "journal line 5: too few fields"
says "read_ahead_kb -1" "journal line 6: $n read_ahead_kb -1 not restored"
t_eq "the valid line among them is restored" "$(cat "$q/nomerges")" 1
echo "$nm" > "$q/nomerges"
t_eq "journal.rejected holds the 4 lines (and its header)" "$(grep -c 'line [3-6]: ' "$d/journal.rejected")" 4
t_check "nothing left in the journal" [ ! -e "$d/journal" ]
run "malformed lines: restore again" 0 --journal-dir "$d" --restore
ra=$(cat "$q/read_ahead_kb")
run "--set read_ahead_kb after the refused entry" 0 --journal-dir "$d" --set "$n:read_ahead_kb=256"
t_check "the journal holds the real original $ra" grep -q " read_ahead_kb $ra\$" "$d/journal"
run "and --restore puts it back" 0 --journal-dir "$d" --restore
t_eq "read_ahead_kb back" "$(cat "$q/read_ahead_kb")" "$ra"

# A file that is all junk is not "no journal".
d=$T_TMP/j-junk
mkdir -m 0700 "$d"
printf 'hello\nworld\n' > "$d/journal"
run "junk file: --restore" 1 --journal-dir "$d" --restore
says "junk file" "journal line 1: not a blktune journal header"
says "junk file" "journal line 2: in a file without a blktune journal header"

# -- the same name, another device -----------------------------------------
if [ "$seq" != - ]; then
	d=$T_TMP/j-recreated
	mkdir -m 0700 "$d"
	ra=$(cat "$q/read_ahead_kb")
	run "set on the first device" 0 --journal-dir "$d" --set "$n:read_ahead_kb=4096"
	file=$(losetup -n -O BACK-FILE "$T_LOOP")
	losetup -d "$T_LOOP"
	if losetup "$T_LOOP" "$file" 2> /dev/null; then
		seq2=$(cat "/sys/block/$n/diskseq")
		t_check "re-created $n has a new diskseq ($seq -> $seq2)" [ "$seq2" != "$seq" ]
		echo 512 > "$q/read_ahead_kb"
		run "another device now: --restore" 1 --journal-dir "$d" --restore
		says "another device now" "journal line 2: $n read_ahead_kb $ra not restored: another device now (diskseq $seq2, was $seq)"
		t_eq "the new device's read_ahead_kb is not written" "$(cat "$q/read_ahead_kb")" 512
		t_check "the entry is kept aside" grep -q "another device now" "$d/journal.rejected"
		run "another device: restore again" 0 --journal-dir "$d" --restore
	else
		t_fail "could not re-attach $T_LOOP (taken meanwhile?)"
	fi
fi
t_done
