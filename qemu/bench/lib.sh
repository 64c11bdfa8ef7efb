#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
# What the bench guest's scripts share (/bench/lib.sh): the benchmark
# (guest.sh), the profile (prof.sh) and the A/B (ab.sh).

# The pmem driver binds the NVRAM's nvdimm too: let PRAMFS have it. The
# other pmem device is the legacy region (memmap=) ext4-DAX runs on.
nvram_release() {
	for ns in /sys/bus/nd/devices/namespace*; do
		[ -e "$ns/driver" ] || continue
		[ $(($(cat "$ns/resource"))) -eq $((PRAM_PHYS)) ] || continue
		echo "${ns##*/}" >"$ns/driver/unbind"
	done
}

# fio_mbs DIR RW BS MB JOBS LOOPS DIRECT: one fio job of the benchmark's
# kind (psync, no fallocate, the file removed after, no disk statistics),
# its MB/s on standard output; on failure nothing there and fio's last
# line in /tmp/fio.err.
fio_mbs() {
	local f
	fio --name=b --directory="$1" --rw="$2" --bs="$3" --size="${4}M" \
		--numjobs="$5" --loops="$6" --group_reporting --ioengine=psync \
		--direct="$7" --fallocate=none --unlink=1 --disk_util=0 \
		--minimal >/tmp/fio.out 2>&1 ||
		{ tail -n 1 /tmp/fio.out >/tmp/fio.err; return 1; }
	# terse format 3: field 7 is read KiB/s, 48 write KiB/s
	case $2 in
	*write) f=48 ;;
	*) f=7 ;;
	esac
	cut -s -d';' -f$f /tmp/fio.out | awk '{ printf "%.1f\n", $1 * 1024 / 1e6 }'
}
