#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile images: qemu/tests/fuzz.sh [N [SEED]] (make fuzz runs 10,000,
# make check 300). One boot of the test guest (KASAN, lockdep, the
# hung-task detector) runs pramfs_fuzz: N images mutated from seed
# images the kernel makes, each mounted, walked, changed and emptied by
# the kernel, then repaired by fsck.pramfs -fy and mounted and walked
# again (selftests/pramfs/pramfs_fuzz.c says what fails). A failing image
# is kept in build/fuzz/guest/ with its mutations and the kernel log.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-300} seed=${2:-1}
work=$(mktemp -d)
trap 'pkill -KILL -f "mem-path=$work/" 2>/dev/null || true; rm -rf "$work"' EXIT
share=$work/share keep=$REPO/build/fuzz/guest
mkdir -p "$share"
# About 2 s an image under TCG with KASAN: the bound leaves room.
export PRAMFS_TIMEOUT=$((n * 8 + 600))
"$REPO/qemu/run" --nvram "$work/nvram.img" --nvram-size 4M --share "$share" -- \
	"/kselftest/pramfs/pramfs_fuzz $n $seed /host; echo \"fuzz: status \$?\"" \
	>"$work/console.log" 2>&1 || true
grep '^fuzz:' "$work/console.log" || true
if ls "$share"/fail-* >/dev/null 2>&1; then
	mkdir -p "$keep"
	cp "$share"/fail-* "$keep/"
	echo "fuzz: failing images kept in build/fuzz/guest/"
fi
grep -q '^fuzz: status 0' "$work/console.log" || {
	echo "fuzz: FAILED (the guest's console, last lines:)"
	tail -n 30 "$work/console.log"
	exit 1
}
