#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Random power cuts: qemu/tests/powercut.sh [CUTS [SEED]] (make crash runs
# 200, make check 3). Each boot mounts the NVRAM (recovering what the last
# cut left), checks that every operation the workload logged before the
# cut is there and the one in flight wholly done or not at all
# (pramfs_powercut check: three processes creating, appending,
# truncating, renaming within and across directories, unlinking and
# chmodding in a shared tree, every step one system call, logged to the
# host share once it returned), unmounts, runs fsck.pramfs -fn on the
# NVRAM (it must find nothing), mounts again and restarts the workload;
# the host kills QEMU with SIGKILL at a random moment (from SEED) and
# boots again. Every other cut is made by the module's power-cut knob
# instead (CONFIG_PRAMFS_CRASH_TEST): at a random persistence point, with
# a random line of the window torn, the NVRAM stops taking stores, the
# workers stop logging, and then QEMU is killed; SIGKILL alone cannot
# tear a cache line, and under TCG seldom falls inside an operation.
# A failing image is kept under build/powercut/.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/qemu/tests/lib.sh"
cuts=${1:-3} seed=${2:-1}
work=$(mktemp -d)
trap 'pkill -KILL -f "mem-path=$work/" 2>/dev/null || true; rm -rf "$work"' EXIT
share=$work/share nv=$work/nvram.img keep=$REPO/build/powercut
mkdir -p "$share"
RANDOM=$seed

cat >"$share/boot.sh" <<GUEST
P=/kselftest/pramfs/pramfs_powercut
if [ -e /host/started ]; then
	mount -t pramfs -o "physaddr=\$PRAM_PHYS" none /mnt/pram || { echo "powercut: mount refused"; exit 1; }
	dmesg | grep -E 'pramfs.*(recovered|error)' | tail -n 3
	\$P check $seed /host || exit 1
	umount /mnt/pram || exit 1
	fsck.pramfs -fn --phys "\$PRAM_PHYS" --size "\$PRAM_SIZE" >/tmp/fsck.out 2>&1
	rc=\$?
	echo "powercut: fsck status \$rc"
	[ \$rc -eq 0 ] || { cat /tmp/fsck.out; exit 1; }
	mount -t pramfs -o "physaddr=\$PRAM_PHYS" none /mnt/pram || exit 1
else
	mount -t pramfs -o "physaddr=\$PRAM_PHYS,init=\$PRAM_SIZE,bs=1024" none /mnt/pram || exit 1
	: >/host/started
fi
if [ "\${POWERCUT_LAST:-}" = 1 ]; then
	umount /mnt/pram && echo "powercut: last check done"
	exit 0
fi
if [ -e /host/cut-after ]; then
	K=/sys/module/pramfs/parameters
	cat /host/cut-tear >\$K/crash_tear
	cat /host/cut-after >\$K/crash_after
	(while ! grep -q Y \$K/crashed; do sleep 0.2; done; : >/host/cut) &
fi
: >/host/running
\$P run $seed /host
GUEST

# boot N LAST: one boot: it checks what the last cut left, then runs the
# workload until cut N (by the knob for odd N, else SIGKILL after a
# random time). Prints the cut, then the check of the previous one.
boot() {
	local log=$work/boot$1.log delay
	rm -f "$share/running" "$share/cut" "$share/cut-after" "$share/cut-tear"
	# Odd cuts by the knob: a fence among the first few thousand.
	if [ $(($1 % 2)) -eq 1 ] && [ "$2" = 0 ]; then
		echo $((RANDOM % 3000 + 1)) >"$share/cut-after"
		echo $((RANDOM % 9 - 1)) >"$share/cut-tear"
	fi
	"$REPO/qemu/run" --nvram "$nv" --nvram-size 4M --share "$share" -- \
		"POWERCUT_LAST=$2 sh /host/boot.sh" >"$log" 2>&1 &
	if [ "$2" = 1 ]; then
		wait || true
	else
		# The console lags behind; the share does not.
		for _ in $(seq 600); do
			[ -e "$share/running" ] && break
			kill -0 $! 2>/dev/null || break
			sleep 0.5
		done
		if [ -e "$share/cut-after" ]; then
			for _ in $(seq 600); do
				[ -e "$share/cut" ] && break
				kill -0 $! 2>/dev/null || break
				sleep 0.2
			done
		else
			delay=$((RANDOM % 40 + 2))
			sleep "$(awk "BEGIN { print $delay / 10 }")"
		fi
		pkill -KILL -f "mem-path=$nv" || true
		wait || true
	fi
	[ -e "$share/cut-after" ] && echo -n "knob: fence $(cat "$share/cut-after"), tear $(cat "$share/cut-tear"); "
	grep '^powercut:' "$log" | tr '\n' ' '
	echo
	if [ "$1" -gt 0 ] && ! grep -q '^powercut: check ok' "$log" ||
	   grep -qE '^powercut: fsck status [1-9]|powercut: .*(FAIL|refused)' "$log"; then
		mkdir -p "$keep"
		cp "$nv" "$keep/cut$1-seed$seed.img"
		cp "$log" "$keep/cut$1-seed$seed.log"
		echo "powercut: cut $1 failed: image and log kept in build/powercut/"
		sed -n '/powercut\|pramfs/p' "$log" | tail -n 20
		return 1
	fi
}

for i in $(seq 0 "$cuts"); do
	boot "$i" "$([ "$i" -eq "$cuts" ] && echo 1 || echo 0)"
done
pram_fsck "$nv"
echo "powercut: $cuts cuts (seed $seed), every check ok"
