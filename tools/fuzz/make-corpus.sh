#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/fuzz/make-corpus.sh TOOLS_DIR OUT_DIR: the seed corpus of
# fuzz-fsck (tools/fuzz/corpus, made by this script and kept in the repo):
# the tools' test tree (tools/tests/cases.sh) by mkfs.pramfs -d at each block size
# (64 KiB; 128 KiB at 2 KiB blocks, 160 KiB at 4 KiB), and at 1 KiB the corruption cases that reach the
# most code: a half-done operation in the journal (and one in slot
# entries), a broken journal head,
# an inode deleted while open, an orphaned directory, a cycle, a block
# held twice, both superblocks bad, a link entry naming a free inode, one
# in no directory, a bad name record, a bad attribute block, a direct
# block (a good one, and one held twice), a row block held twice.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/tools/tests/cases.sh"
T=$1 OUT=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"
make_case_tree "$work/tree"
# Small enough for the 64 KiB images: the big files shrunk.
truncate -s 1500 "$work/tree/a/f1"
truncate -s 9000 "$work/tree/sparse" && echo end >>"$work/tree/sparse"
for bs in 512 1024 2048 4096; do
	size=64K
	[ $bs -eq 2048 ] && size=128K
	# The attribute blocks take three of its 32 blocks.
	[ $bs -eq 4096 ] && size=160K
	"$T/mkfs.pramfs" -q -O ^direct -b $bs -N 32 -U "$(printf 00000000-0000-0000-0000-%012d $bs)" \
		-d "$work/tree" "$OUT/bs$bs.img" $size
done
for c in journal-undo journal-slot journal-head deleted orphan-dir cycle dup-block sb-both \
	link-target link-orphan name-rec-bad xattr-bad direct direct-dup dup-row; do
	cp "$OUT/bs1024.img" "$OUT/$c.img"
	"$T/pramfs-corrupt" "$OUT/$c.img" "$c"
done
