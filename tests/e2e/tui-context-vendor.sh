#!/usr/bin/env bash
# The detail pane's device line names the vendor beside the model (issue 11's
# device context): loop devices have none, so this runs on a copy of the
# sata capture (--root, no root needed): sda and sr0 have a vendor (SCSI
# device/vendor, its padding cut), nvme0n1 has a model and no vendor file,
# and sdb's model is removed from the copy (a vendor alone still shows).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-tmux.bash"
command -v tmux > /dev/null || t_skip "needs tmux"
root=$T_TMP/sata
cp -a "$T_TOP/tests/fixtures/sata" "$root"
rm "$root/sys/block/sdb/device/model"
trap 'tm_stop; t_cleanup' EXIT
# at 120x40 the detail pane is open; rows by name: nvme0n1 sda sdb sr0, the
# first selected
TM_W=120 TM_H=40 tm_start "XDG_STATE_HOME='$T_TMP/state' '$BLKTUNE' --root '$root' -d 0.5 --no-trace --journal-dir '$T_TMP/j' \
	-p nvme0n1 -p sda -p sdb -p sr0; sleep 60"
t_check "the table is up" tm_wait "^DEVICE" 5
t_check "nvme0n1: its model, no vendor file, no vendor said" \
	tm_wait "^device   size 953.9G  model KINGSTON SFYR2S1T0  rotational no" 3
tm_keys j
t_check "sda: model and vendor (ATA)" tm_wait "^device   size 223.6G  model KINGSTON SH103S3 (vendor ATA)  rotational no" 3
tm_keys j
t_check "sdb: no model file, the vendor still said" tm_wait "^device   size 74.5G  model - (vendor ATA)  rotational yes" 3
tm_keys j
# sr0 is 2097151 sectors, 512 bytes short of 1 GiB: 1.0G (it once read 1024.0M)
t_check "sr0: vendor HL-DT-ST" tm_wait "^device   size 1.0G  model DVD+-RW GH82N (vendor HL-DT-ST)  rotational no" 3
t_done
