#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
# qemu/bench/ab's guest side (/bench/ab.sh ROUNDS N), with old.ko and
# new.ko in /host. Each round loads both modules in turn (old first in
# odd rounds), makes a new PRAMFS and runs pramfs_bench meta over N files
# of 0 B and of 4 KiB, fio's 4 KiB random writes into a new file of
# AB_FIO_MB MiB, and AB_MOUNTS mounts of the filesystem, with the mount
# options AB_OLD_OPTS and AB_NEW_OPTS added (",noprotect"); with
# AB_OLD_MKFS or AB_NEW_MKFS (mkfs.pramfs options: "-O ^journal") that
# side's filesystem is made by mkfs.pramfs (the working tree's, for both
# sides), not by init=. Each figure prints as
#   AB <old|new> r<round> s<size> <figure> <value, higher is better>
set -u
export PATH=/bench:/usr/bin:$PATH
rounds=$1
n=$2
fio_mb=${AB_FIO_MB:-64}
mounts=${AB_MOUNTS:-5}
M=/mnt/b
mkdir -p $M

. /bench/lib.sh
nvram_release

# ab SIZE [FIGURE]: this round's figures from standard input, each a
# line "FIGURE VALUE" or, with FIGURE given, "VALUE".
ab() {
	sed "s/^/AB $which r$round s$1 ${2:+$2 }/"
}

# The benchmark's fio job (lib.sh), one, with O_DIRECT as PRAMFS gets it
# there: MB/s written.
randwrite() {
	fio_mbs $M randwrite 4k "$fio_mb" 1 1 1 ||
		echo "E fio with $which.ko: $(cat /tmp/fio.err)" >&2
}

# The median (the lower one of an even count) of AB_MOUNTS mounts of the
# filesystem, as mounts a second; nothing if one failed, which leaves the
# round without the figure.
remounts() {
	i=0
	: >/tmp/mounts
	while [ $i -lt "$mounts" ]; do
		umount $M
		pramfs_bench mount pramfs none $M "$OPTS" >>/tmp/mounts ||
			{ echo "E mount $i with $which.ko" >&2; return; }
		i=$((i + 1))
	done
	sort -n -k2 /tmp/mounts | sed -n "$(((mounts + 1) / 2))p" |
		awk '{ printf "%.1f\n", 1e6 / $2 }'
}

one() {
	which=$1
	round=$2
	case $which in
	old) OPTS="physaddr=$PRAM_PHYS${AB_OLD_OPTS:+,${AB_OLD_OPTS#,}}"
		mkfs=${AB_OLD_MKFS:-} ;;
	new) OPTS="physaddr=$PRAM_PHYS${AB_NEW_OPTS:+,${AB_NEW_OPTS#,}}"
		mkfs=${AB_NEW_MKFS:-} ;;
	esac
	rmmod pramfs 2>/dev/null
	insmod "/host/$which.ko" || { echo "E insmod $which.ko"; return; }
	if [ -n "$mkfs" ]; then
		# shellcheck disable=SC2086 # options, split
		mkfs.pramfs -q $mkfs -b 4096 --phys "$PRAM_PHYS" --size 512M &&
			mount -t pramfs -o "$OPTS" none $M
	else
		mount -t pramfs -o "$OPTS,init=512M,bs=4096" none $M
	fi || { echo "E mount with $which.ko"; return; }
	for size in 0 4096; do
		pramfs_bench meta $M/meta "$n" $size | ab $size
		rm -rf $M/meta
	done
	randwrite | ab 4096 randwrite
	remounts | ab 0 mount
	umount $M 2>/dev/null
}

round=1
while [ $round -le "$rounds" ]; do
	if [ $((round % 2)) = 1 ]; then
		one old "$round"
		one new "$round"
	else
		one new "$round"
		one old "$round"
	fi
	round=$((round + 1))
done
