# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# The corruption table of the tools' tests, shared by tools/tests/run.sh
# and qemu/tests/tools.sh; sourced, never run.

# The tree the cases are made on (pramfs-corrupt names its paths).
make_case_tree() {
	local t=$1
	mkdir -p "$t/a/sub" "$t/b"
	head -c 5000 /dev/urandom >"$t/a/f1"
	head -c 900 /dev/urandom >"$t/a/f2"
	: >"$t/a/f3"
	head -c 3000 /dev/urandom >"$t/a/f4"
	head -c 2100 /dev/urandom >"$t/a/f5"
	echo g >"$t/a/sub/g1"
	echo h >"$t/b/h1"
	ln -s a/f1 "$t/link"
	truncate -s 70000 "$t/sparse" && echo end >>"$t/sparse"
	# A second name of /a/f4, and a name of 200 bytes.
	mkdir -p "$t/c"
	ln "$t/a/f4" "$t/c/f4-link"
	head -c 700 /dev/urandom >"$t/c/$LONG_NAME"
	# Attributes and ACLs (the xattr feature): copied by mkfs -d.
	setfattr -n user.colour -v blue "$t/a/f2"
	setfattr -n trusted.origin -v host "$t/a/f2"
	setfacl -m u:1000:r "$t/a/f4"
	setfacl -d -m u:1000:rx "$t/a/sub"
}

# The long name of /c's file: 200 bytes, two name records.
LONG_NAME=long-$(printf 'n%.0s' $(seq 195))

# Each case; what fsck.pramfs -p does with it: 1 repairs it, 4 stops (not
# a repair to make without asking); and the files whose bytes or names a
# repair may change ("-": none). Every other file must come out as it
# went in.
CASES="sb-primary 1 -
sb-both 4 -
sb-geometry 4 -
hints 1 -
inode-csum 1 -
inode-bad 4 f2
free-in-list 1 f2
cycle 1 -
back-link 1 -
tail 1 -
parent 4 -
name-bad 4 f3
name-dup 4 f4
links 1 -
map-meta 4 f1
map-range 4 f1
dup-block 4 f2
i-blocks 1 -
symlink-nul 4 -
bitmap-clear 1 -
leaked 1 -
orphan 4 f5
errors-flag 1 -
deleted 1 f5
deleted-freed 1 h1
orphan-dir 4 b
sb-copy-stale 1 -
two-breaks 1 -
journal-undo 1 -
journal-wrap 1 -
journal-slot 1 -
journal-round 1 -
journal-head 1 -
hardlink-count 1 -
link-target 4 f4-link
link-orphan 1 -
name-rec-bad 4 long-*
name-rec-orphan 1 -
unlisted-name 1 f4
link-orphan-dir 1 -
xattr-bad 4 -
xattr-shared 4 f5
direct-dup 4 f2
direct-dup-full 4 f2
direct-range 4 f2
direct-nofeature 4 -
dup-row 4 f2
links-nofeature 4 -
longnames-nofeature 4 -
xattr-nofeature 4 -
direct-xattr-nofeature 4 -
direct-stray 4 f3
unlisted-direct-nofeature 4 f2
deleted-direct-nofeature 4 f2
link-target-nofeature 4 f4-link
link-dir-nofeature 4 f4-link
free-dirty 1 -"

# What pramfs-corrupt makes valid, for what mkfs.pramfs -d never makes:
# fsck.pramfs -fn and -fy find nothing (0), and every file extracts as it
# went in. direct: /a/f2 a direct file (INCOMPAT_DIRECT), as the kernel
# leaves one; the direct-* cases above break one.
VALID_CASES="direct"
