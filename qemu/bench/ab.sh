#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
# qemu/bench/ab's guest side (/bench/ab.sh ROUNDS N), with old.ko and
# new.ko in /host. Each round loads both modules in turn (old first in
# odd rounds), makes a new PRAMFS and runs pramfs_bench meta over N files
# of 0 B and of 4 KiB; each figure prints as
#   AB <old|new> r<round> s<size> <figure> <files/s>
set -u
export PATH=/bench:/usr/bin:$PATH
rounds=$1
n=$2
M=/mnt/b
mkdir -p $M

. /bench/lib.sh
nvram_release

one() {
	rmmod pramfs 2>/dev/null
	insmod "/host/$1.ko" || { echo "E insmod $1.ko"; return; }
	mount -t pramfs -o "physaddr=$PRAM_PHYS,init=512M,bs=4096" none $M ||
		{ echo "E mount with $1.ko"; return; }
	for size in 0 4096; do
		pramfs_bench meta $M/meta "$n" $size |
			sed "s/^/AB $1 r$2 s$size /"
		rm -rf $M/meta
	done
	umount $M
}

r=1
while [ $r -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		one old $r
		one new $r
	else
		one new $r
		one old $r
	fi
	r=$((r + 1))
done
