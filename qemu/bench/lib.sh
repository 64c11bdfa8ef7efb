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
