#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side test, the article's scenario: a kernel bug's stray write into
# the NVRAM. Boot 1 writes files (content made on the host), sets
# panic_on_oops and makes the fault module store a byte into an inode and
# a data block with a plain write: with write protection the kernel oopses
# and the guest dies. Boot 2 checks every checksum (fsck.pramfs) and
# every byte. The same with noprotect must show the damage: the stores
# land, and boot 2 finds the bad inode checksum and the changed data.
# fsck.pramfs checks every checksum, in the guest and on the host.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/qemu/tests/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
share=$work/share
mkdir -p "$share/src"
for i in 1 2 3 4 5; do
	head -c $((i * 7001)) /dev/urandom >"$share/src/f$i"
done

cat >"$share/boot1.sh" <<'GUEST'
set -e
opts=$1
mount -t pramfs -o "physaddr=$PRAM_PHYS,init=$PRAM_SIZE$opts" none /mnt/pram
mkdir /mnt/pram/data
cp /host/src/f* /mnt/pram/data/
insmod /kselftest/pramfs/pramfs_fault/pramfs_fault.ko
echo 1 >/proc/sys/kernel/panic_on_oops
echo "crash inode /mnt/pram/data/f1" >/proc/pramfs_fault
echo "STRAY WRITE LANDED"
echo "crash data /mnt/pram/data/f2" >/proc/pramfs_fault
GUEST

cat >"$share/boot2.sh" <<'GUEST'
fsck.pramfs -fn --phys "$PRAM_PHYS" --size "$PRAM_SIZE" && echo "CHECKSUMS OK"
mount -t pramfs -o "physaddr=$PRAM_PHYS" none /mnt/pram || exit 1
for f in /host/src/f*; do
	cmp "$f" "/mnt/pram/data/${f##*/}" && echo "SAME ${f##*/}"
done
umount /mnt/pram
GUEST

# boot 1 with mount options $1 into $2.log, boot 2 into $2.check
scenario() {
	local nv=$work/$2.img rc=0
	"$REPO/qemu/run" --nvram "$nv" --nvram-size 32M --share "$share" -- \
		"sh /host/boot1.sh '$1'" >"$work/$2.log" 2>&1 || rc=$?
	echo "== $2, boot 1 (qemu/run status $rc):"
	grep -E 'STRAY|Oops|BUG:|Kernel panic|pramfs_fault' "$work/$2.log" || true
	"$REPO/qemu/run" --nvram "$nv" --share "$share" -- 'sh /host/boot2.sh' \
		>"$work/$2.check" 2>&1 || true
	echo "== $2, boot 2:"
	grep -E 'superblock|[Ii]node|OK|SAME|differ|EOF|refused|cleaning' "$work/$2.check" || true
	return "$rc"
}

# Fails the test if pattern $1 is in file $2 ("! grep" would not).
absent() {
	if grep -q "$1" "$2"; then
		echo "unexpected '$1' in $(basename "$2")"
		exit 1
	fi
}

# Protected: the first stray write oopses; boot 2 finds everything intact.
rc=0
scenario "" protected || rc=$?
[ "$rc" -eq 125 ]
grep -q 'BUG: unable to handle page fault' "$work/protected.log"
absent 'STRAY WRITE LANDED' "$work/protected.log"
grep -q 'CHECKSUMS OK' "$work/protected.check"
[ "$(grep -c '^SAME ' "$work/protected.check")" -eq 5 ]
pram_fsck "$work/protected.img"

# noprotect: both stores land, and boot 2 sees the damage.
scenario ",noprotect" unprotected
grep -q 'STRAY WRITE LANDED' "$work/unprotected.log"
absent 'CHECKSUMS OK' "$work/unprotected.check"
grep -q 'checksum is wrong' "$work/unprotected.check"
rc=0
pram_fsck "$work/unprotected.img" || rc=$?
[ "$rc" -eq 4 ]
absent '^SAME f1$' "$work/unprotected.check"
absent '^SAME f2$' "$work/unprotected.check"
echo "crash: ok"
