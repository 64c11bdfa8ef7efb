#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
# The benchmark, in the bench guest (qemu/bench/run boots it with this as
# the command). Every filesystem in BENCH_FS gets the same workloads; each
# measurement prints one line
#   R <filesystem> <workload> <figure> <unit> <value>
# and qemu/bench/run takes medians. "I" lines are notes, "E" lines errors.
#
# Sizes come from the environment (qemu/bench/run sets them): BENCH_REPS,
# BENCH_FS_MB (each filesystem), BENCH_FIO_MB (per fio job) and
# BENCH_FIO_LOOPS (a read job's passes, and memcpy's), BENCH_CHAR_MB,
# BENCH_BON_MB and BENCH_BON_N (bonnie++ -s per-character, -s for blocks,
# -n), BENCH_META_N (small files),
# BENCH_ENTRIES (one directory), BENCH_BIGDIR and BENCH_BIGDIR_FS (one
# large directory, on the filesystems that can make one in reasonable
# time), BENCH_MOUNT_MB (mount time), BENCH_EXEC_N (program starts).
set -u
export PATH=/bench:/usr/bin:$PATH
M=/mnt/b
mkdir -p $M

note() { echo "I $*"; }
err() { echo "E $fs $*"; }

. /bench/lib.sh
nvram_release
for PMEM in /sys/block/pmem*; do
	PMEM=/dev/${PMEM##*/}
	break
done

# pram_opts FS: PRAMFS's mount options for pramfs, pramfs-noprotect or
# pramfs-nojournal (the same code on an image without the journal).
pram_opts() {
	echo "physaddr=$PRAM_PHYS${1#pramfs}" | sed 's/-noprotect$/,noprotect/; s/-nojournal$//'
}

# fs_make FS MB [INODES]: a new filesystem of MB MiB, mounted at $M, with
# room for INODES files where the default would have less (ext4).
fs_make() {
	case $1 in
	pramfs-nojournal)
		mkfs.pramfs -q -O ^journal -b 4096 --phys "$PRAM_PHYS" --size "${2}M" &&
			mount -t pramfs -o "$(pram_opts "$1")" none $M ;;
	pramfs*)
		mount -t pramfs -o "$(pram_opts "$1"),init=${2}M,bs=4096" none $M ;;
	ext4-dax)
		/usr/bin/mke2fs -q -F -t ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 \
			${3:+-N "$3"} "$PMEM" "${2}M" && mount -t ext4 -o dax "$PMEM" $M ;;
	ext2-brd)
		/usr/bin/mke2fs -q -F -t ext2 -b 4096 /dev/ram0 "${2}M" &&
			mount -t ext2 /dev/ram0 $M ;;
	tmpfs)
		mount -t tmpfs -o "size=${2}M" tmpfs $M ;;
	esac
}

# fs_mount FS: mount the existing filesystem again, printing the time
# mount(2) took; tmpfs has none to find, so it gets a new one.
fs_mount() {
	case $1 in
	pramfs*) pramfs_bench mount pramfs none $M "$(pram_opts "$1")" ;;
	ext4-dax) pramfs_bench mount ext4 "$PMEM" $M dax ;;
	ext2-brd) pramfs_bench mount ext2 /dev/ram0 $M "" ;;
	tmpfs) pramfs_bench mount tmpfs tmpfs $M "size=${BENCH_FS_MB}M" ;;
	esac
}

# cold FS: forget what memory holds about the files: a remount, or for
# tmpfs (whose files live in the dentry cache) only the droppable caches.
cold() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	[ "$1" = tmpfs ] && return
	umount $M && fs_mount "$1" >/dev/null
}

# emit WORKLOAD UNIT: "figure value" lines on stdin to R lines.
emit() {
	while read -r fig val; do
		echo "R $fs $1 $fig $2 $val"
	done
}

# A write job writes its file of BENCH_FIO_MB MiB once, into a new file;
# a read job reads its file BENCH_FIO_LOOPS times (a quarter as many, at
# least once, at 4 KiB), laid out once. fio times a job in
# milliseconds: at 64 MiB, read once, a 1 MiB job took 20-30 ms, and one
# tick moved its figure by 5 %. Writes are not looped: fio times the
# removal of the last pass's file in the next pass. No disk statistics:
# fio would read ext4-DAX's pmem device's in sysfs while it times, and
# walk all of /sys/block for PRAMFS's, which has none.
fio_runs() {
	local direct=0 rw bs jobs name loops mbs
	pramfs_bench odirect $M && direct=1
	note "$fs fio direct=$direct"
	for rw in write read randwrite randread; do
		loops=$BENCH_FIO_LOOPS
		case $rw in
		write) bs=1m; name=seq-write-1m; loops=1 ;;
		read) bs=1m; name=seq-read-1m ;;
		randwrite) bs=4k; name=rand-write-4k; loops=1 ;;
		randread) bs=4k; name=rand-read-4k; loops=$(((loops + 3) / 4)) ;;
		esac
		for jobs in 1 2; do
			mbs=$(fio_mbs $M $rw $bs "$BENCH_FIO_MB" $jobs "$loops" $direct) ||
				{ err "fio $name-$jobs: $(cat /tmp/fio.err)"; continue; }
			echo "$name-${jobs}job $mbs" | emit fio MB/s
		done
	done
}

# bonnie++ runs twice: per-character (one write(2) or read(2) per byte)
# on a small file, then block I/O and file creation with -f. Its CSV
# (format 1.98): fields 10 per-char write, 12 block write, 14 rewrite, 16
# per-char read, 18 block read (KiB/s); 27, 31, 33, 37 sequential and
# random create and delete (files/s). bonnie++ prints +++++ for a phase
# shorter than its 0.5 s clock can time.
bonnie() {
	bonnie++ -d $M -r 0 -u root -q -m "$fs" "$@" >/tmp/bonnie.out 2>/tmp/bonnie.err ||
		{ err "bonnie++ $*: $(tail -n 1 /tmp/bonnie.err)"; return 1; }
	tail -n 1 /tmp/bonnie.out
}

bonnie_runs() {
	bonnie -s "$BENCH_CHAR_MB" -n 0 | awk -F, '{
		print "putc", $10; print "getc", $16 }' | emit bonnie KiB/s
	bonnie -s "$BENCH_BON_MB" -n "$BENCH_BON_N" -f >/tmp/bonnie.csv || return
	awk -F, '{ print "block-write", $12; print "rewrite", $14
		print "block-read", $18 }' /tmp/bonnie.csv | emit bonnie KiB/s
	awk -F, '{ print "seq-create", $27; print "seq-delete", $31
		print "random-create", $33; print "random-delete", $37 }' /tmp/bonnie.csv |
		emit bonnie files/s
}

meta_runs() {
	local size
	for size in 0 4096; do
		pramfs_bench meta $M/meta "$BENCH_META_N" $size |
			sed "s/^\([a-z]*\) /\1-${size}b /" | emit meta files/s
	done
	# fs_mark: 4 KiB files, no fsync, one pass; its last line ends
	# "... Files/sec App-Overhead"
	fs_mark -d $M/fsm -n "$BENCH_META_N" -s 4096 -S 0 -L 1 -k >/tmp/fsm.out 2>&1 ||
		{ err "fs_mark: $(tail -n 1 /tmp/fsm.out)"; return; }
	echo "create-4096b $(awk 'NF == 5 && $1 ~ /^[0-9]+$/ { v = $4 } END { print v }' /tmp/fsm.out)" |
		emit fs_mark files/s
	rm -rf $M/fsm
}

entries_runs() {
	local n
	for n in $BENCH_ENTRIES; do
		{
			pramfs_bench create $M/d "$n" &&
				cold "$fs" &&
				pramfs_bench lookup $M/d "$n" &&
				pramfs_bench readdir $M/d "$n"
		} | sed "s/^\([a-z]*\) /\1-$n /" | emit entries us/entry
		rm -rf $M/d
	done
	# The largest count again with names of 48 and of 200 bytes.
	local len
	for len in 48 200; do
		export BENCH_NAME_LEN=$len
		{
			pramfs_bench create $M/d "$n" &&
				cold "$fs" &&
				pramfs_bench lookup $M/d "$n" &&
				pramfs_bench readdir $M/d "$n"
		} | sed "s/^\([a-z]*\) /\1-${len}b-$n /" | emit entries us/entry
		unset BENCH_NAME_LEN
		rm -rf $M/d
	done
}

# One large directory on a filesystem of its own: per-entry create, cold
# lookup and readdir at BENCH_BIGDIR entries, measured as entries_runs
# does. Not on ext2, whose directories are lists: each create searches
# all of it.
bigdir_runs() {
	case " $BENCH_BIGDIR_FS " in *" $fs "*) ;; *) return ;; esac
	fs_make "$fs" "$BENCH_FS_MB" $((BENCH_BIGDIR * 2)) || { err "mkfs bigdir"; return; }
	local n=$BENCH_BIGDIR
	{
		pramfs_bench create $M/d "$n" &&
			cold "$fs" &&
			pramfs_bench lookup $M/d "$n" &&
			pramfs_bench readdir $M/d "$n"
	} | sed "s/^\([a-z]*\) /\1-$n /" | emit entries us/entry
	umount $M
}

# Mappings: a file written, then mapped (cold) and read through; and the
# time to start a static program stored on the filesystem BENCH_EXEC_N
# times (pramfs_bench itself, which exits at once).
mmap_runs() {
	pramfs_bench mkfile $M/mm "$BENCH_FIO_MB" && cold "$fs" &&
		pramfs_bench mmapread $M/mm | emit mmap MB/s
	rm -f $M/mm
	cp /bench/pramfs_bench $M/prog && cold "$fs" &&
		pramfs_bench exec $M/prog "$BENCH_EXEC_N" | emit exec ms
	rm -f $M/prog
}

mount_runs() {
	local mb
	for mb in $BENCH_MOUNT_MB; do
		fs_make "$fs" "$mb" || { err "mkfs $mb"; continue; }
		umount $M
		for _ in $(seq "$BENCH_REPS"); do
			sync
			echo 3 >/proc/sys/vm/drop_caches
			fs_mount "$fs" | sed "s/^mount /mount-${mb}m /" | emit mount us
			umount $M
		done
	done
}

# Warm up: a first pass over each filesystem's code and memory, so the
# first repetition does not pay for what later ones find ready.
for fs in $BENCH_FS; do
	fs_make "$fs" "$BENCH_FS_MB" || continue
	dd if=/dev/zero of=$M/warm bs=1M count="$BENCH_FIO_MB" 2>/dev/null
	umount $M
done

# rotate N WORD...: the words from the N-th on, then those before it.
rotate() {
	local n=$1 i=0 head='' tail='' w

	shift
	for w in "$@"; do
		if [ "$i" -lt $((n % $#)) ]; then
			head="$head $w"
		else
			tail="$tail $w"
		fi
		i=$((i + 1))
	done
	echo "${tail# }$head"
}

# Each repetition starts one filesystem further on, so that none runs in
# the same place every time (the first after memcpy was slower in every
# repetition of one run, on paths no option changes).
for rep in $(seq "$BENCH_REPS"); do
	# shellcheck disable=SC2086 # the list, a word each
	order=$(rotate $((rep - 1)) $BENCH_FS)
	note "repetition $rep of $BENCH_REPS: $order"
	fs=memcpy
	pramfs_bench memcpy "$BENCH_FIO_MB" "$BENCH_FIO_LOOPS" | emit memcpy MB/s
	for fs in $order; do
		t0=$(date +%s)
		fs_make "$fs" "$BENCH_FS_MB" || { err "mkfs"; continue; }
		fio_runs
		t1=$(date +%s)
		bonnie_runs
		t2=$(date +%s)
		meta_runs
		entries_runs
		mmap_runs
		umount $M
		t3=$(date +%s)
		bigdir_runs
		note "$fs seconds: fio $((t1 - t0)), bonnie++ $((t2 - t1)), metadata $((t3 - t2)), large directory $(($(date +%s) - t3))"
	done
done
for fs in $BENCH_FS; do
	mount_runs
done
dmesg | grep -E 'BUG:|WARNING:|Call Trace' && echo "E kernel log has reports"
note "done"
