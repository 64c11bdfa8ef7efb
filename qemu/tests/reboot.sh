#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side test across two QEMU boots on one NVRAM file: boot 1 formats,
# boot 2 mounts without init= and finds the same filesystem (geometry,
# root attributes, UUID), with the mount count advanced by one.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/qemu/tests/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nv=$work/nvram.img
mkdir "$work/share"

# What a boot sees: statfs and the root directory's attributes.
describe='stat -f -c "type=%t bsize=%S blocks=%b free=%f files=%c ffree=%d" /mnt/pram; stat -c "mode=%a uid=%u gid=%g ctime=%z" /mnt/pram'

u32_at() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u16_at() { od -An -tu2 -j "$2" -N2 "$1" | tr -d ' '; }
uuid() { od -An -tx1 -j 96 -N16 "$1" | tr -d ' \n'; }

"$REPO/qemu/run" --nvram "$nv" --nvram-size 32M --share "$work/share" -- \
	"mount -t pramfs -o physaddr=\$PRAM_PHYS,init=\$PRAM_SIZE,bs=1024,mode=0751 none /mnt/pram && ($describe) >/host/boot1 && umount /mnt/pram"
echo "boot 1:"; cat "$work/share/boot1"
count1=$(u32_at "$nv" 68)
uuid1=$(uuid "$nv")
# A clean unmount marks the superblock clean (s_state bit 0).
[ $(($(u16_at "$nv" 88) & 1)) -eq 1 ]

"$REPO/qemu/run" --nvram "$nv" --share "$work/share" -- \
	"mount -t pramfs -o physaddr=\$PRAM_PHYS none /mnt/pram && ($describe) >/host/boot2 && umount /mnt/pram"
echo "boot 2:"; cat "$work/share/boot2"
count2=$(u32_at "$nv" 68)

grep -q 'type=effa bsize=1024' "$work/share/boot1"
grep -q 'mode=751 uid=0 gid=0' "$work/share/boot1"
cmp "$work/share/boot1" "$work/share/boot2"
[ "$(uuid "$nv")" = "$uuid1" ] && [ "$uuid1" != 00000000000000000000000000000000 ]
echo "mount count: $count1 then $count2"
[ "$count1" -eq 1 ] && [ "$count2" -eq 2 ]
# The redundant copy matches the primary on the host file too.
cmp <(head -c 128 "$nv") <(tail -c +129 "$nv" | head -c 128)
# What the kernel left checks clean.
pram_fsck "$nv"
echo "reboot: ok"
