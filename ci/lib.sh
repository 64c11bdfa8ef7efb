# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Shared paths and helpers for the PRAMFS rig; sourced, never run.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$REPO/build
CACHE=${PRAMFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pramfs}
KSRC_TAR=/usr/src/linux-source-6.12.tar.xz
KVER_PKG=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)
TREE=$CACHE/src/linux-source-6.12-$KVER_PKG
# Two guest kernels: "test" (the default: KASAN and lockdep, for make
# check) and "bench" (lean, with the filesystems the benchmark compares),
# chosen by PRAMFS_GUEST. Each has its own module, initramfs and logs
# under GUEST_BUILD.
case ${PRAMFS_GUEST:=test} in
test)
	GUEST_FRAGS="$REPO/qemu/guest.config $REPO/qemu/test.config"
	GUEST_BUILD=$BUILD ;;
bench)
	GUEST_FRAGS="$REPO/qemu/guest.config $REPO/qemu/bench.config"
	GUEST_BUILD=$BUILD/bench ;;
*)
	echo "PRAMFS_GUEST must be test or bench" >&2
	exit 2 ;;
esac
# A guest build is keyed by the package version and its config fragments.
# shellcheck disable=SC2086 # a list of paths without blanks
GUEST_KEY=$({ cat $GUEST_FRAGS 2>/dev/null; echo "$KVER_PKG"; } | sha1sum | cut -c1-12)
GUEST_O=$CACHE/guest-$GUEST_KEY
KUNIT_O=$CACHE/kunit-$(echo "$KVER_PKG" | sha1sum | cut -c1-12)
export CCACHE_DIR=$CACHE/ccache
export CCACHE_BASEDIR=$REPO
JOBS=$(nproc)

mkdir -p "$BUILD/log" "$GUEST_BUILD/log" "$CACHE"

# step NAME CMD...: one line when a long step starts, one with its time
# when it ends; its output goes to build/log/NAME.log, whose tail is shown
# on failure.
step() {
	local name=$1 log t0 rc
	shift
	log=$GUEST_BUILD/log/$name.log
	t0=$(date +%s)
	echo ">> $name: started $(date +%T) (log: ${log#"$REPO"/})"
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo ">> $name: FAILED after $(($(date +%s) - t0)) s; last lines of $log:"
		tail -n 40 "$log"
		return $rc
	fi
	echo ">> $name: done in $(($(date +%s) - t0)) s"
}
