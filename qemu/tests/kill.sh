#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side test of durability on return: the guest writes files one
# after another and prints a line after each write has returned; the host
# kills QEMU with SIGKILL (no unmount, no shutdown) after some of them,
# boots again on the same NVRAM file, mounts without init= and checks that
# every file reported written is there, byte for byte; after that mount's
# recovery (the undo journal, then the counts) and an unmount,
# fsck.pramfs -fn finds nothing at all.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/qemu/tests/lib.sh"
work=$(mktemp -d)
trap 'pkill -KILL -f "mem-path=$work/" 2>/dev/null || true; rm -rf "$work"' EXIT
share=$work/share nv=$work/nvram.img
mkdir -p "$share"
head -c 1048576 /dev/urandom >"$share/blob"

cat >"$share/writer.sh" <<'GUEST'
mount -t pramfs -o "physaddr=$PRAM_PHYS,init=$PRAM_SIZE" none /mnt/pram || exit 1
i=1
while [ $i -le 2000 ]; do
	head -c $((i * 997 % 30000 + 1)) /host/blob >/mnt/pram/f$i || exit 1
	echo "written $i"
	i=$((i + 1))
done
GUEST

"$REPO/qemu/run" --nvram "$nv" --nvram-size 32M --share "$share" -- \
	'sh /host/writer.sh' >"$work/boot1.log" 2>&1 &
for _ in $(seq 600); do
	grep -q '^written 40$' "$work/boot1.log" && break
	sleep 0.5
done
pkill -KILL -f "mem-path=$nv" || true
wait || true
last=$(grep -o '^written [0-9]*$' "$work/boot1.log" | tail -n 1 | cut -d' ' -f2)
echo "killed after file ${last:-none} was reported written"
[ "${last:-0}" -ge 40 ]
# No clean unmount: the superblock says so (s_state bit 0 clear), and the
# next mount counts the inodes instead of trusting the stored count.
state=$(od -An -tu2 -j 88 -N2 "$nv" | tr -d ' ')
echo "superblock state after the kill: $state"
[ $((state & 1)) -eq 0 ]

cat >"$share/check.sh" <<GUEST
mount -t pramfs -o "physaddr=\$PRAM_PHYS" none /mnt/pram || exit 1
i=1
while [ \$i -le $last ]; do
	head -c \$((i * 997 % 30000 + 1)) /host/blob | cmp - /mnt/pram/f\$i || exit 1
	i=\$((i + 1))
done
umount /mnt/pram || exit 1
echo "all $last files intact"
GUEST
"$REPO/qemu/run" --nvram "$nv" --share "$share" -- 'sh /host/check.sh' |
	tee "$work/boot2.log"
grep -q "all $last files intact" "$work/boot2.log"
pram_fsck "$nv"
echo "kill: ok"
