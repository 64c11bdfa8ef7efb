#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
# The profiled workload, in the bench guest (qemu/prof/run boots it):
#   sh /bench/prof.sh WORKLOAD N
# PRAMFS (4 KiB blocks, protection on; PROF_OPTS adds mount options; with
# PROF_FS=pramfs-nojournal made without the journal), or
# with PROF_FS=ext4-dax ext4 with DAX on the legacy pmem region, is made
# at /mnt/b (PROF_FS=tmpfs: tmpfs of the same size), then sync(2) starts the count (tbprof's reset) and
# sethostname(2) ends it (stop): only WORKLOAD's N operations are counted.
# pramfs.ko's symbols go to /host/kallsyms for the report.
set -u
export PATH=/bench:/usr/bin:$PATH
M=/mnt/b
mkdir -p $M
# As the benchmark does: the pmem driver lets go of the NVRAM.
. /bench/lib.sh
nvram_release
grep '\[pramfs\]' /proc/kallsyms >/host/kallsyms
case ${PROF_FS:-pramfs} in
pramfs)
	mount -t pramfs -o "physaddr=$PRAM_PHYS,init=${PROF_MB}M,bs=4096${PROF_OPTS:-}" none $M ;;
pramfs-nojournal)
	mkfs.pramfs -q -O ^journal -b 4096 --phys "$PRAM_PHYS" --size "${PROF_MB}M" &&
		mount -t pramfs -o "physaddr=$PRAM_PHYS${PROF_OPTS:-}" none $M ;;
ext4-dax)
	# The legacy pmem region (memmap=), as the benchmark's ext4-DAX.
	PMEM=
	for b in /sys/block/pmem*; do
		[ -e "$b" ] && PMEM=/dev/${b##*/} && break
	done
	[ -n "$PMEM" ] || { echo "prof.sh: no pmem device for ext4-dax" >&2; exit 1; }
	/usr/bin/mke2fs -q -F -t ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 \
		"$PMEM" "${PROF_MB}M" && mount -t ext4 -o dax "$PMEM" $M ;;
tmpfs)
	mount -t tmpfs -o "size=${PROF_MB}M" none $M ;;
*)
	false ;;
esac || exit 1
n=$2
fio_job() {
	fio --name=p --directory=$M --rw="$1" --bs="$2" --size="$3" --numjobs=1 \
		--ioengine=psync --direct=1 --fallocate=none --unlink=0 --disk_util=0 --minimal \
		--filename=f >/dev/null
}
# pram_mounts N: mount the filesystem N times, and unmount it but the last.
pram_mounts() {
	i=0
	while [ $i -lt "$1" ]; do
		[ $i -eq 0 ] || umount $M || return
		mount -t pramfs -o "physaddr=$PRAM_PHYS${PROF_OPTS:-}" none $M || return
		i=$((i + 1))
	done
}
# Only a workload that ran through reaches the stop mark.
case $1 in
create)
	mkdir $M/d && sync && pramfs_bench create $M/d/e "$n" ;;
unlink)
	mkdir $M/d && pramfs_bench create $M/d/e "$n" >/dev/null && sync &&
		rm -rf $M/d/e ;;
meta)
	sync && pramfs_bench meta $M/meta "$n" 0 ;;
meta4k)
	sync && pramfs_bench meta $M/meta "$n" 4096 ;;
replace)
	pramfs_bench replace $M/d "$((n + 1))" ;;
mount)
	umount $M && sync && pram_mounts "$n" ;;
randwrite)
	sync && fio_job randwrite 4k $((n * 4))k ;;
write)
	sync && fio_job write 1m "${n}m" ;;
read)
	fio_job write 1m "${n}m" && sync && fio_job read 1m "${n}m" ;;
randread)
	fio_job write 1m "$((n * 4))k" && sync && fio_job randread 4k "$((n * 4))k" ;;
remove)
	fio_job write 1m "${n}m" && sync && rm $M/f ;;
remove-random)
	fio_job randwrite 4k "${n}m" && sync && rm $M/f ;;
*)
	false ;;
esac || { echo "prof.sh: workload $1 $n failed" >&2; exit 1; }
hostname profiled
umount $M
