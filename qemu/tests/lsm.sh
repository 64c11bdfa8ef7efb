#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side test: the test guest booted with Smack (lsm=smack; built in
# by qemu/test.config, started only here) runs pramfs_lsm_test: new
# inodes carry their creator's label in security.SMACK64, stored by
# PRAMFS, read back after a remount. Passes when every test passed and
# the kernel log is clean.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT

PRAMFS_APPEND="lsm=smack" "$REPO/qemu/run" --nvram-size 16M -- \
	'cat /sys/kernel/security/lsm 2>/dev/null; dmesg | grep -m1 "LSM: initializing"; cd /kselftest/pramfs && ./pramfs_lsm_test; echo "LSM-TEST-EXIT=$?"; dmesg | grep -E "BUG:|WARNING:|KASAN|circular locking|Call Trace" && echo "KERNEL-LOG: reports found" || echo "KERNEL-LOG: clean"' \
	>"$out" 2>&1 || true
cat "$out"
# expect PATTERN WHAT: the boot's output has PATTERN, or WHAT failed.
expect() {
	grep -qE "$1" "$out" || { echo "lsm.sh: $2"; exit 1; }
}
expect 'LSM: initializing lsm=.*smack' "Smack did not start"
expect '^LSM-TEST-EXIT=0' "pramfs_lsm_test failed"
expect '^# PASSED: [1-9][0-9]* / [1-9][0-9]* tests passed' "pramfs_lsm_test ran no test"
expect '^KERNEL-LOG: clean' "the kernel log has reports"
