#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debian's attr and acl tools (getfattr, setfattr, getfacl, setfacl) and
# coreutils' cp on PRAMFS, with their shared libraries from the test
# initramfs: recursive ACL edits and dumps that come back the same after
# a remount, and a labelled tree copied with cp -a into PRAMFS and out
# again with every attribute and ACL kept.
#
# Needs root, pramfs.ko, PRAM_PHYS and PRAM_SIZE (qemu/init exports them).

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"

MNT=/mnt/pram
WORK=/tmp/pramfs_attr_tools
# Debian's tools, and coreutils' cp (busybox's copies no attributes),
# before any busybox applet of the same name.
PATH=/usr/bin:$PATH
CP=/usr/bin/cp

ktap_print_header

for tool in getfattr setfattr getfacl setfacl cp; do
	if [ ! -x "/usr/bin/$tool" ]; then
		ktap_skip_all "/usr/bin/$tool is missing: the test initramfs copies it"
		exit "$KSFT_SKIP"
	fi
done
if [ "$(id -u)" -ne 0 ] || [ -z "$PRAM_PHYS" ] || [ -z "$PRAM_SIZE" ] ||
   ! grep -q pramfs /proc/filesystems; then
	ktap_skip_all "needs root, pramfs.ko, PRAM_PHYS and PRAM_SIZE"
	exit "$KSFT_SKIP"
fi

ktap_set_plan 7

# check DESCRIPTION CMD...: one KTAP line for CMD's status; its output is
# shown only on failure.
check() {
	desc=$1
	shift
	if out=$("$@" 2>&1); then
		ktap_test_pass "$desc"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		ktap_test_fail "$desc"
	fi
}

remount() {
	umount "$MNT" && mount -t pramfs -o "physaddr=$PRAM_PHYS" none "$MNT"
}

# same A B: the two files are equal, or the difference and status 1.
same() {
	diff -u "$1" "$2"
}

# Every attribute (all namespaces, ACLs included as system.posix_acl_*)
# and every ACL under the current directory, in relative paths sorted by
# name: directories list in a different order on each filesystem.
attr_dump() {
	find . | sort | while read -r f; do
		getfattr -h -d -m - -e hex "$f"
	done | grep -v '^$'
}

acl_dump() {
	find . ! -type l | sort | while read -r f; do
		getfacl -p -n "$f"
	done
}

# A tree with every kind of attribute: user, trusted and security
# (a label as an LSM would write it), access and default ACLs, on a
# directory, files, a nested directory and a symlink.
make_tree() {
	mkdir -p "$1/etc/conf.d" "$1/data" &&
	echo config >"$1/etc/app.conf" &&
	echo nested >"$1/etc/conf.d/10-local" &&
	dd if=/dev/zero of="$1/data/blob" bs=4096 count=3 2>/dev/null &&
	ln -s ../etc/app.conf "$1/data/link" &&
	setfattr -n user.origin -v factory "$1/etc/app.conf" &&
	setfattr -n user.big -v "0x$(head -c 1500 /dev/zero | od -An -tx1 -v | tr -d ' \n')" \
		"$1/data/blob" &&
	setfattr -n trusted.md5 -v 0xd41d8cd98f00b204e9800998ecf8427e "$1/data/blob" &&
	setfattr -n security.label -v system_u:object_r:etc_t "$1/etc" &&
	setfattr -n security.label -v app_conf_t "$1/etc/app.conf" &&
	setfattr -h -n security.label -v link_t "$1/data/link" &&
	setfacl -m u:1000:rw,g:1000:r "$1/etc/app.conf" &&
	setfacl -d -m u:1001:rwx,m::rx "$1/etc" &&
	setfacl -m u:1002:rx "$1/etc/conf.d"
}

# A recursive setfacl, a dump with getfacl -R, everything stripped with
# setfacl -R -b and put back with setfacl --restore: after a remount the
# tree's ACLs are those of the dump.
acl_round_trip() {
	cd "$MNT/tree" || return 1
	setfacl -R -m u:1003:rX,g:1003:r . || return 1
	getfacl -R -p -n . >"$WORK/acl.restore" && acl_dump >"$WORK/acl.before" || return 1
	grep -q '^user:1003:r-x$' "$WORK/acl.before" || { echo "setfacl -R left no ACL"; return 1; }
	setfacl -R -b . || return 1
	if acl_dump | grep -qE '^(default:)?(user|group):[0-9]'; then
		echo "setfacl -R -b left named entries"
		return 1
	fi
	setfacl --restore="$WORK/acl.restore" || return 1
	cd / && remount && cd "$MNT/tree" || return 1
	acl_dump >"$WORK/acl.after" && same "$WORK/acl.before" "$WORK/acl.after"
}

# What make_tree set, as path, name and value: text attributes, and
# ACL entries as getfacl shows them.
TEXT_ATTRS="
etc/app.conf user.origin factory
etc security.label system_u:object_r:etc_t
etc/app.conf security.label app_conf_t
data/link security.label link_t
"
ACL_ENTRIES="
etc/app.conf user:1000:rw-
etc/app.conf group:1000:r--
etc default:user:1001:rwx
etc default:mask::r-x
etc/conf.d user:1002:r-x
"

# Each of TEXT_ATTRS and ACL_ENTRIES read back under the current
# directory.
expect_attrs() {
	echo "$TEXT_ATTRS" | while read -r path name value; do
		[ -n "$path" ] || continue
		got=$(getfattr -h --only-values -n "$name" "$path") || return 1
		if [ "$got" != "$value" ]; then
			echo "$path: $name is '$got', not '$value'"
			return 1
		fi
	done || return 1
	echo "$ACL_ENTRIES" | while read -r path entry; do
		[ -n "$path" ] || continue
		if ! getfacl -p -n "$path" | grep -q "^$entry"; then
			echo "$path: no ACL entry $entry"
			return 1
		fi
	done
}

# The attributes set by make_tree: read back after a remount, and the
# whole dump the same as before it.
attrs_survive_remount() {
	cd "$MNT/tree" && attr_dump >"$WORK/attr.before" || return 1
	cd / && remount && cd "$MNT/tree" && attr_dump >"$WORK/attr.after" &&
		same "$WORK/attr.before" "$WORK/attr.after" && expect_attrs
}

# cp -a SRC DST, then the copy's attributes and ACLs against the source's.
copy_keeps_attrs() {
	$CP -a "$1" "$2" || return 1
	(cd "$2" && expect_attrs) || return 1
	(cd "$1" && attr_dump) >"$WORK/src.attr" &&
	(cd "$2" && attr_dump) >"$WORK/dst.attr" &&
	same "$WORK/src.attr" "$WORK/dst.attr" || return 1
	(cd "$1" && acl_dump) >"$WORK/src.acl" &&
	(cd "$2" && acl_dump) >"$WORK/dst.acl" &&
	same "$WORK/src.acl" "$WORK/dst.acl"
}

# Out to tmpfs and in again: PRAMFS's listxattr and getxattr, then its
# setxattr and set_acl, as cp uses them.
tmpfs_round_trip() {
	copy_keeps_attrs "$MNT/tree" "$WORK/tmpfs/tree" &&
		copy_keeps_attrs "$WORK/tmpfs/tree" "$MNT/back"
}

# A file created under the directory with a default ACL inherits it, as
# getfacl shows it after a remount.
inherited_after_remount() {
	echo new >"$MNT/tree/etc/new.conf" && remount &&
		getfacl -p -n "$MNT/tree/etc/new.conf" | grep -q '^user:1001:rwx'
}

fsck_clean() {
	umount "$MNT" || return 1
	fsck.pramfs -fn --phys "$PRAM_PHYS" --size "$PRAM_SIZE"
	status=$?
	mount -t pramfs -o "physaddr=$PRAM_PHYS" none "$MNT" || return 1
	return $status
}

umount "$MNT" 2>/dev/null
rm -rf "$WORK" && mkdir -p "$WORK/tmpfs" || exit "$KSFT_FAIL"
mount -t tmpfs tmpfs "$WORK/tmpfs" || exit "$KSFT_FAIL"
if ! mount -t pramfs -o "physaddr=$PRAM_PHYS,init=$PRAM_SIZE" none "$MNT"; then
	ktap_test_fail "mount a new PRAMFS"
	ktap_finished
fi

check "setfattr and setfacl build a labelled tree" make_tree "$MNT/tree"
check "attributes and ACLs survive a remount" attrs_survive_remount
check "setfacl -R, getfacl -R and setfacl --restore round trip across a remount" \
	acl_round_trip
check "cp -a within PRAMFS keeps attributes and ACLs" \
	copy_keeps_attrs "$MNT/tree" "$MNT/copy"
check "cp -a from PRAMFS to tmpfs and back keeps them" tmpfs_round_trip
check "a default ACL is inherited by a new file, after a remount" inherited_after_remount
check "fsck.pramfs -fn finds the filesystem clean" fsck_clean

umount "$MNT"
umount "$WORK/tmpfs"
rm -rf "$WORK"
ktap_finished
