# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers of the host-side tests; sourced, never run.

# pram_fsck IMAGE [OPTIONS]: fsck.pramfs (built if needed) on an NVRAM
# file, -fn unless OPTIONS say otherwise; its exit status.
pram_fsck() {
	local img=$1 repo
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	shift
	make -s -C "$repo/tools" O="$repo/build/tools" || return 8
	"$repo/build/tools/fsck.pramfs" "${@:--fn}" "$img"
}
