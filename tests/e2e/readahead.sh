#!/usr/bin/env bash
# The readahead mode on screen: R turns it on, the table gains ra_hit%, the
# readahead page shows the totals for ext4 on a loop device made here while a
# file is read sequentially, checked against bpftrace's own count of the
# pages the kernel added to that filesystem's page cache meanwhile, and R
# again turns it off (the column goes).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
. "$(dirname "$0")/../integration/readahead-common.bash"
t_need_root
command -v tmux >/dev/null || t_skip "needs tmux"
command -v bpftrace >/dev/null || t_skip "needs bpftrace (the independent count)"
trap 'tm_stop; [ -n "${load:-}" ] && kill $load 2>/dev/null; [ -n "${bt:-}" ] && kill $bt 2>/dev/null; wait 2>/dev/null; ra_cleanup' EXIT
ra_fs 200
name=${RA_DEV#/dev/}
ra_file f 96

tm_start "'$BLKTUNE' -d 0.5; sleep 30"
tm_wait "^DEVICE" 5
tm_keys / && tm_text "$name" && tm_keys Enter
tm_wait "matching \"$name\"" 2
t_check "no ra_hit% column while the mode is off" bash -c "! tmux -S '$TM_SOCK' capture-pane -p -t '$TM_SESS' | grep -q 'ra_hit%'"
# bpftrace counts the pages added to this filesystem's page cache (every
# folio, 1 << order pages), from before the mode is on to after the load
kdev=$(( ($(stat -c %t "$RA_DEV" | sed 's/^/0x/') << 20) | $(stat -c %T "$RA_DEV" | sed 's/^/0x/') ))
t_bpftrace "$T_TMP/bt.out" "tracepoint:filemap:mm_filemap_add_to_page_cache /args->s_dev == $kdev/ { @pages += 1 << args->order; }
interval:ms:200 { printf(\"pages %d\\n\", @pages); }" || t_fail "bpftrace attached"
bt=$T_BT_PID
tm_keys R
# the load starts only once the programs are attached (a busy machine takes
# seconds to verify them)
t_check "R turns the mode on" tm_wait "readahead mode on" 30
t_check "the table gains ra_hit%" tm_wait "ra_hit%" 2
# read the file 3 times, its cache dropped each time
(for i in 1 2 3; do dd if="$RA_MNT/f" iflag=nocache count=0 status=none; dd if="$RA_MNT/f" of=/dev/null bs=64k status=none || break; done) &
load=$!
t_check "the readahead page shows this interval's figures" tm_wait "$name, this interval: [0-9]* pages/s" 5
wait $load; load=
# bpftrace prints its running count every 0.2 s: a line printed after the
# load ended is the total (no reliance on its exit handler). Wait for two
# more lines than there were when the load ended (the first may have been
# taken while the last read completed).
bt_lines() { grep -c '^pages ' "$T_TMP/bt.out"; }
at_end=$(bt_lines)
bt_after() { [ "$(bt_lines)" -ge $((at_end + 2)) ]; }
t_check "bpftrace counted on after the load" t_until 10 bt_after
t_stop "$bt" TERM; bt=
added=$(awk '$1 == "pages" { n = $2 } END { print n }' "$T_TMP/bt.out")
# wait for a refresh after the load (the figures since the mode was on settle)
tm_wait "$name, this interval: 0 pages/s" 5
line=$(tm_screen | grep "since the mode was turned on" | head -n 1)
pages=$(echo "$line" | sed -E 's/.*: ([0-9]+) readahead pages = .*/\1/')
echo "# blktune: $pages readahead pages; bpftrace: ${added:-?} pages added to the page cache"
t_check "readahead pages were counted ($pages)" test "${pages:-0}" -gt 0
# every readahead page is a page added; the rest of the added pages are the
# few each pass waited for (its first read)
t_check "readahead pages $pages <= pages added (bpftrace) $added" test "$pages" -le "${added:-0}"
t_check "readahead pages $pages >= 99% of pages added (bpftrace) $added" test "$((pages * 100))" -ge "$((${added:-0} * 99))"
tm_keys R
t_check "R again turns it off" tm_wait "readahead mode off" 3
no_ra_column() { ! tm_screen | grep -q 'ra_hit%'; }
t_check "and the column goes" t_until 3 no_ra_column
tm_keys q
ra_done
