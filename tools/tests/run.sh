#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The PRAMFS tools' own tests, on the host, built with ASan and UBSan
# (any report fails): mkfs.pramfs's refusals in the kernel's words and
# its -d errors; every case of the corruption table (pramfs-corrupt):
# fsck.pramfs -n finds it (4), -y repairs it (1), then -n and a second -y
# find nothing (0), and -p repairs it (1) or stops (4) as the problem
# table says; what pramfs-corrupt makes valid (a direct file) checks
# clean and extracts whole; pramfs-dump shows and extracts, also from an
# image whose superblocks both fail. The guest half (the kernel mounting
# what the tools made and repaired) is qemu/tests/tools.sh.
#
# tools/tests/run.sh [BUILD_DIR]: the tools are built into BUILD_DIR
# (default build/tools-asan).
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/tools/tests/cases.sh"
B=${1:-$REPO/build/tools-asan}
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
make -s -C "$REPO/tools" O="$B" SANITIZE=1 -j"$(nproc)" >/dev/null || { echo "tools: build failed"; exit 1; }
MKFS=$B/mkfs.pramfs FSCK=$B/fsck.pramfs DUMP=$B/pramfs-dump CORRUPT=$B/pramfs-corrupt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect STATUS DESCRIPTION CMD...: CMD exits with STATUS.
expect() {
	local want=$1 what=$2 rc=0
	shift 2
	"$@" >"$work/out" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$what: status $rc, not $want"; tail -n 5 "$work/out"; fi
}

# says TEXT DESCRIPTION CMD...: CMD fails and says TEXT.
says() {
	local text=$1 what=$2
	shift 2
	if ! "$@" >"$work/out" 2>&1 && grep -qF -- "$text" "$work/out"; then ok
	else bad "$what: expected \"$text\""; tail -n 3 "$work/out"; fi
}

# ---- mkfs.pramfs refuses what the kernel refuses, in its words ----
says "bs=3000: must be 512, 1024, 2048 or 4096" "mkfs -b 3000" "$MKFS" -b 3000 "$work/x" 1M
says "bpi=64: at least 128 bytes per inode" "mkfs -i 64" "$MKFS" -i 64 "$work/x" 1M
says "N=0: must be 1 to" "mkfs -N 0" "$MKFS" -N 0 "$work/x" 1M
says "init=1000: the inode table does not fit" "mkfs of 1000 bytes" "$MKFS" "$work/x" 1000
says "init=1048576: the inode table does not fit" "mkfs -N too many" "$MKFS" -N 4000000 "$work/x" 1M
says "mode=99999: not a permission mode" "mkfs -m 99999" "$MKFS" -m 99999 "$work/x" 1M
expect 16 "mkfs without a target" "$MKFS"
expect 0 "mkfs --help" "$MKFS" --help

# ---- a tree, and what -d cannot store ----
tree=$work/tree
make_case_tree "$tree"
# The corruption cases need /a/f2 mapped, as an older kernel writes it.
expect 0 "mkfs -d" "$MKFS" -q -b 1024 -O ^direct -d "$tree" "$work/base.img" 2M
expect 0 "fsck -fn of what mkfs -d made" "$FSCK" -fn "$work/base.img"
if "$FSCK" -fnv "$work/base.img" | grep -qE '^ +9 regular files$' &&
   "$FSCK" -fnv "$work/base.img" | grep -qE '^ +1 symbolic links$' &&
   "$FSCK" -fnv "$work/base.img" | grep -qE '^ +1 link entries' &&
   "$FSCK" -fnv "$work/base.img" | grep -qE '^ +2 name records'; then ok
else bad "fsck -v: what the tree holds, by type"; fi
# The second name, the long one and the attributes: features set, the
# link counted, the attributes shown.
if "$DUMP" "$work/base.img" | grep -qE '^features.* journal links longnames xattr slot$' &&
   "$DUMP" -i /a/f4 "$work/base.img" | grep -qE '^links +2$' &&
   "$DUMP" -i /a/f2 "$work/base.img" | grep -qF 'attribute              user.colour (4 bytes) "blue"' &&
   "$DUMP" -i /a/f2 "$work/base.img" | grep -qF 'attribute              trusted.origin (4 bytes) "host"' &&
   "$DUMP" -i /a/f4 "$work/base.img" | grep -qF 'attribute              system.posix_acl_access (' &&
   "$DUMP" -i /a/sub "$work/base.img" | grep -qF 'attribute              system.posix_acl_default (' &&
   "$DUMP" -d /c "$work/base.img" | grep -qF '"f4-link" -> inode' &&
   "$DUMP" -d /c "$work/base.img" | grep -qF "\"$LONG_NAME\" (name records"; then ok
else bad "mkfs -d: a hard link, a long name, attributes and ACLs"; fi
# By default a file of one block that holds data is direct, as the
# kernel writes one: /a/f2 (900 bytes) one block, named by its inode;
# /a/f1 (5 blocks) mapped. With -O ^direct (base.img) none is.
expect 0 "mkfs -d, direct files" "$MKFS" -q -b 1024 -d "$tree" "$work/direct.img" 2M
expect 0 "fsck -fn of mkfs -d's direct files" "$FSCK" -fn "$work/direct.img"
rm -rf "$work/x" && "$DUMP" --extract / "$work/x" "$work/direct.img" >/dev/null 2>&1
if "$DUMP" "$work/direct.img" | grep -qE '^features.* xattr direct slot$' &&
   "$DUMP" -i /a/f2 "$work/direct.img" | grep -qE '^direct block +[1-9]' &&
   "$DUMP" -i /a/f2 "$work/direct.img" | grep -qE '^blocks +1$' &&
   "$DUMP" -i /a/f1 "$work/direct.img" | grep -qE '^direct block +0$' &&
   ! "$DUMP" "$work/base.img" | grep -qE ' direct( |$)' &&
   diff -r --no-dereference "$tree" "$work/x" >/dev/null; then ok
else bad "mkfs -d: files of one block direct, -O ^direct none"; fi
# The root takes the source directory's mode, owner, attributes and ACL;
# -u overrides the owner, and -m with an access ACL is refused.
rm -rf "$work/top" && mkdir -p "$work/top/d" && chmod 750 "$work/top"
setfattr -n user.root -v top "$work/top" && setfacl -m u:1000:rx "$work/top"
expect 0 "mkfs -d: the root's own attributes" "$MKFS" -q -u 7 -d "$work/top" "$work/top.img" 1M
if "$DUMP" -i / "$work/top.img" | grep -qE '^mode +40750$' &&
   "$DUMP" -i / "$work/top.img" | grep -qE "^owner +7:$(id -g)$" &&
   "$DUMP" -i / "$work/top.img" | grep -qF 'attribute              user.root (3 bytes) "top"' &&
   "$DUMP" -i / "$work/top.img" | grep -qF 'attribute              system.posix_acl_access ('; then ok
else bad "mkfs -d: the root's mode, owner, attributes and ACL"; "$DUMP" -i / "$work/top.img"; fi
expect 0 "fsck -fn of a root with attributes" "$FSCK" -fn "$work/top.img"
says "top: -m and an access ACL on the directory" "mkfs -d -m with the root's ACL" \
	"$MKFS" -q -m 755 -d "$work/top" "$work/top.img" 1M
# A tree without them leaves those features off (its one file of a
# block is direct).
rm -rf "$work/plain" && mkdir -p "$work/plain/d" && echo x >"$work/plain/d/f"
expect 0 "mkfs -d of a plain tree" "$MKFS" -q -d "$work/plain" "$work/plain.img" 1M
if "$DUMP" "$work/plain.img" | grep -qE '^features.* journal direct slot$'; then ok
else bad "mkfs -d: links, longnames and xattr only when used"; fi

# Each is refused naming the path, and leaves no valid filesystem.
no_fs() { ! "$DUMP" -i 2 "$1" >/dev/null 2>&1; }
cant_store() {
	local what=$1 setup=$2 bs=${3:-1024} t=$work/bad
	rm -rf "$t" && mkdir -p "$t" && (cd "$t" && eval "$setup")
	if ! "$MKFS" -q -b "$bs" -d "$t" "$work/bad.img" 2M >"$work/out" 2>&1 &&
	   grep -q "$t" "$work/out" && no_fs "$work/bad.img"; then ok
	else bad "mkfs -d: $what"; tail -n 3 "$work/out"; fi
}
cant_store "a symlink target of a block" "ln -s $(printf 'x%.0s' $(seq 1024)) l"
cant_store "a file past the largest" "truncate -s 9M big" 512
# The kernel's link limit: 65533 subdirectories fit, one more does not.
rm -rf "$work/many" && mkdir -p "$work/many/d" && (cd "$work/many/d" && seq 65533 | xargs mkdir)
expect 0 "mkfs -d: 65533 subdirectories" "$MKFS" -q -b 512 -N 70000 -d "$work/many" "$work/many.img" 16M
mkdir "$work/many/d/one-more"
says "many/d/one-more: too many links" "mkfs -d: 65534 subdirectories" \
	"$MKFS" -q -b 512 -N 70000 -d "$work/many" "$work/many.img" 16M
rm -rf "$work/many" "$work/many.img"

# ---- the corruption table (cases.sh) ----
[ "$(printf '%s\n' "$CASES" "$VALID_CASES" | wc -l)" -eq "$("$CORRUPT" --list | wc -l)" ] ||
	bad "the tables and pramfs-corrupt --list differ"
# After dup-block and direct-dup: /a/f1 (the lower inode) keeps its
# blocks, and /a/f2 holds none of them (seen through pramfs-dump, not
# fsck).
blocks_of() { "$DUMP" -m "$2" "$1" | sed -n 's/.*: blocks \([0-9]*\)-\([0-9]*\)$/\1 \2/p' |
	while read -r a b; do seq "$a" "$b"; done; }
check_dup() {
	if [ "$(blocks_of "$1" /a/f1)" = "$(blocks_of "$work/base.img" /a/f1)" ] &&
	   [ -z "$(comm -12 <(blocks_of "$1" /a/f1 | sort) <(blocks_of "$1" /a/f2 | sort))" ]; then ok
	else bad "$2: f1 must keep its blocks and share none with f2"; fi
}
# Does the image's superblock list every feature of @2 ("a-b": a and b)?
has_features() {
	local f features
	features=$("$DUMP" "$1" | sed -n 's/^features (c\/ro\/in) *//p')
	for f in ${2//-/ }; do
		[[ " $features " == *" $f "* ]] || return 1
	done
}
# Is every line of the journal past its head zero?
journal_lines_clear() {
	local bs start
	bs=$("$DUMP" "$1" | sed -n 's/^block size  *//p' | head -n 1)
	start=$("$DUMP" "$1" | sed -n 's/^journal at block  *//p' | head -n 1)
	[ "${start:-0}" -gt 0 ] &&
	cmp -s <(tail -c +$((start * bs + 64 + 1)) "$1" | head -c $((16384 - 64))) \
		<(head -c $((16384 - 64)) /dev/zero)
}
# After orphan: /a/f5 in /lost+found with its bytes; after orphan-dir: /b
# there with its entry; after deleted: /a/f5 freed, not brought back;
# after unlisted-name: /a/f4 valid through its other name.
check_moved() {
	local right
	case $1 in
	# Undone at the last generation of a round, or found at 0 with a line
	# of the last round: no line is left.
	journal-wrap | journal-round) journal_lines_clear "$work/$1.img" ;;
	# The slot entries' undo restores the record's checksum too: fsck
	# finds the journal's operation and nothing after it.
	journal-slot) rm -f "$work/$1.out" && cp "$work/base.img" "$work/$1.again" &&
		"$CORRUPT" "$work/$1.again" "$1" &&
		{ "$FSCK" -fy "$work/$1.again" >"$work/$1.out" || true; } &&
		grep -q 'power cut left half done' "$work/$1.out" &&
		! grep -q 'checksum is wrong' "$work/$1.out" ;;
	orphan) cmp -s "$tree/a/f5" "$work/x/lost+found/f5" ;;
	orphan-dir) diff -r "$tree/b" "$work/x/lost+found/b" >/dev/null ;;
	deleted) [ ! -e "$work/x/lost+found/f5" ] && [ ! -e "$work/x/a/f5" ] ;;
	# The block already free: freeing the record is the whole repair.
	deleted-freed) rm -f "$work/$1.out" &&
		[ ! -e "$work/x/b/h1" ] && [ ! -e "$work/x/lost+found/h1" ] &&
		cp "$work/base.img" "$work/$1.again" && "$CORRUPT" "$work/$1.again" "$1" &&
		{ "$FSCK" -fy "$work/$1.again" >"$work/$1.out" || true; } &&
		grep -q 'was deleted' "$work/$1.out" && ! grep -q 'marked free' "$work/$1.out" ;;
	# f4 lives on through /c/f4-link, as a record the kernel takes.
	unlisted-name) "$DUMP" -i /c/f4-link "$work/$1.img" | grep -q '^Inode [0-9]*: regular, valid$' ;;
	# f2's direct block was f1's first: f2 keeps a copy of it as its
	# direct block; with no block free for a copy, a hole of no blocks.
	direct-dup) [ "$(stat -c %s "$work/x/a/f2")" = 900 ] && cmp -s -n 900 "$tree/a/f1" "$work/x/a/f2" &&
		"$DUMP" -i /a/f2 "$work/$1.img" | grep -qE '^direct block +[1-9]' ;;
	direct-dup-full) cmp -s <(head -c 900 /dev/zero) "$work/x/a/f2" &&
		"$DUMP" -i /a/f2 "$work/$1.img" | grep -qE '^blocks +0$' ;;
	# f2's row block was f1's: f2 stays, 900 bytes of holes, no block.
	dup-row) cmp -s <(head -c 900 /dev/zero) "$work/x/a/f2" &&
		"$DUMP" -i /a/f2 "$work/$1.img" | grep -qE '^blocks +0$' ;;
	# A direct block the record may not name: cleared, as a bad row block.
	direct-range) [ ! -e "$work/x/a/f2" ] && [ ! -e "$work/x/lost+found/f2" ] ;;
	# Its name dropped, its data in /lost+found, the bit set again.
	unlisted-direct-nofeature) has_features "$work/$1.img" direct &&
		cmp -s "$tree/a/f2" "$(find "$work/x/lost+found" -type f | head -n 1)" ;;
	# No witness (deleted, or a link entry naming a free slot or a
	# directory): the bit stays off, the record goes. (The journal's
	# bit, on the same line of pramfs-dump, shows the line is there.)
	deleted-direct-nofeature) has_features "$work/$1.img" journal &&
		! has_features "$work/$1.img" direct &&
		[ -z "$(find "$work/x/lost+found" -type f 2>/dev/null)" ] ;;
	link-*-nofeature) has_features "$work/$1.img" journal &&
		! has_features "$work/$1.img" links && [ ! -e "$work/x/c/f4-link" ] ;;
	# A feature bit lost, the records that use it valid: the bit is set
	# again and every file kept (the diff above), its attributes too.
	*-nofeature) has_features "$work/$1.img" "${1%-nofeature}" &&
		"$DUMP" -i /a/f2 "$work/$1.img" | grep -qF 'attribute              user.colour (4 bytes) "blue"' ;;
	# A record with a stale checksum is no witness: the bit stays off,
	# /a/f3 is cleared, /a/f1 keeps its block.
	direct-stray) ! has_features "$work/$1.img" direct && [ ! -e "$work/x/a/f3" ] &&
		cmp -s "$tree/a/f1" "$work/x/a/f1" ;;
	*) return ;;
	esac
	right=$?
	if [ "$right" -eq 0 ]; then ok; else bad "$1: what the repair was to keep or free"; fi
}
mkdir -p "$work/repaired"
while read -r c preen changed; do
	img=$work/$c.img
	if ! cp "$work/base.img" "$img" || ! "$CORRUPT" "$img" "$c"; then
		bad "corrupt $c"
		continue
	fi
	cp "$img" "$img.p"
	expect 4 "$c: fsck -n finds it" "$FSCK" -fn "$img"
	expect "$preen" "$c: fsck -p" "$FSCK" -fp "$img.p"
	expect 1 "$c: fsck -y repairs it" "$FSCK" -fy "$img"
	expect 0 "$c: fsck -n after -y" "$FSCK" -fn "$img"
	expect 0 "$c: fsck -y again finds nothing" "$FSCK" -fy "$img"
	# Nothing else changed: every other file extracts as it went in.
	excl=(--no-dereference -x lost+found -x "#*")
	[ "$changed" != - ] && excl+=(-x "$changed")
	rm -rf "$work/x"
	"$DUMP" --extract / "$work/x" "$img" >/dev/null 2>&1
	if diff -r "${excl[@]}" "$tree" "$work/x" >/dev/null; then ok
	else bad "$c: a file the case does not touch changed"; fi
	case $c in dup-block | direct-dup | dup-row) check_dup "$img" "$c" ;; esac
	check_moved "$c"
	cp "$img" "$work/repaired/$c.img"
done <<<"$CASES"

# ---- what pramfs-corrupt makes valid (cases.sh) ----
# direct: the feature shown, the block in the record and no map, and
# pramfs-dump -m shows it as file block 0.
check_valid() {
	local img=$work/$1.img b
	case $1 in
	direct)
		b=$("$DUMP" -i /a/f2 "$img" | sed -n 's/^direct block  *//p')
		[ "${b:-0}" -gt 0 ] &&
		"$DUMP" "$img" | grep -qE '^features.* xattr direct slot$' &&
		"$DUMP" -i /a/f2 "$img" | grep -qE '^row block +0$' &&
		"$DUMP" -i /a/f2 "$img" | grep -qE '^blocks +1$' &&
		"$DUMP" -m /a/f2 "$img" | grep -qx "  file blocks 0-0: blocks $b-$b" ;;
	*) false ;;
	esac
}
while read -r c; do
	img=$work/$c.img
	if ! cp "$work/base.img" "$img" || ! "$CORRUPT" "$img" "$c"; then
		bad "make $c"
		continue
	fi
	expect 0 "$c: fsck -n finds nothing" "$FSCK" -fn "$img"
	expect 0 "$c: fsck -p finds nothing" "$FSCK" -fp "$img"
	expect 0 "$c: fsck -y finds nothing" "$FSCK" -fy "$img"
	rm -rf "$work/x"
	expect 0 "$c: pramfs-dump --extract /" "$DUMP" --extract / "$work/x" "$img"
	if diff -r "$tree" "$work/x" >/dev/null; then ok; else bad "$c: extract: the tree differs"; fi
	if check_valid "$c"; then ok; else bad "$c: what pramfs-dump shows"; fi
done <<<"$VALID_CASES"

# ---- fsck.pramfs: operational errors and usage ----
expect 8 "fsck of a missing file" "$FSCK" -n "$work/none.img"
head -c 1M /dev/zero >"$work/zero.img"
says "no usable superblock" "fsck of zeros" "$FSCK" -n "$work/zero.img"
expect 16 "fsck -n -y" "$FSCK" -n -y "$work/base.img"
expect 0 "fsck of a clean image without -f" "$FSCK" -n "$work/base.img"

# ---- the journal: mkfs makes one unless -O ^journal ----
"$MKFS" -q "$work/j.img" 1M && "$MKFS" -q -O ^journal "$work/nj.img" 1M
if "$DUMP" "$work/j.img" | grep -qE "^journal at block +[1-9]" &&
   "$DUMP" "$work/nj.img" | grep -qE "^journal at block +0$"; then ok
else bad "mkfs: a journal by default, none with -O ^journal"; fi
expect 0 "fsck -fn without a journal" "$FSCK" -fn "$work/nj.img"
says "-O bogus: the features are journal and direct" "mkfs -O bogus" "$MKFS" -O bogus "$work/x" 1M

# ---- pramfs-dump ----
"$MKFS" -q -L board -U 01234567-89ab-cdef-0123-456789abcdef "$work/l.img" 1M
if "$DUMP" "$work/l.img" | grep -q "volume name *board" &&
   "$DUMP" "$work/l.img" | grep -q "UUID *01234567-89ab-cdef-0123-456789abcdef"; then ok
else bad "pramfs-dump -h: label and UUID"; fi
if "$DUMP" -d /a "$work/base.img" | grep -q '"f1"' && "$DUMP" -m /sparse "$work/base.img" |
	grep -q "file blocks 68-68"; then ok; else bad "pramfs-dump -d, -m"; fi
rm -rf "$work/x1" && expect 0 "pramfs-dump --extract /" "$DUMP" --extract / "$work/x1" "$work/base.img"
if diff -r "$tree" "$work/x1" >/dev/null; then ok; else bad "extract: the tree differs"; fi
# What is already in DIR is never written through nor over: a symlink
# where a file or a directory goes is left alone, and said so.
rm -rf "$work/x3" "$work/outside" && mkdir -p "$work/x3" "$work/outside"
echo keep >"$work/outside/victim" && chmod 0600 "$work/outside/victim"
ln -s "$work/outside/victim" "$work/x3/sparse" && ln -s "$work/outside" "$work/x3/a"
expect 1 "extract over symlinks: skipped" "$DUMP" --extract / "$work/x3" "$work/base.img"
if [ "$(cat "$work/outside/victim")" = keep ] && [ ! -e "$work/outside/f1" ] &&
   [ "$(stat -c %a "$work/outside/victim")" = 600 ] &&
   grep -q "x3/sparse: skipped: File exists" "$work/out" &&
   diff -r "$tree/b" "$work/x3/b" >/dev/null; then ok
else bad "extract wrote through a symlink in DIR"; fi
# Rescue: both superblocks bad, a block map entry bad.
cp "$work/base.img" "$work/r.img"
$CORRUPT "$work/r.img" map-range && "$CORRUPT" "$work/r.img" sb-both
rm -rf "$work/x2" && expect 1 "extract from a refused image: something skipped" \
	"$DUMP" --extract / "$work/x2" "$work/r.img"
if grep -q "no valid superblock" "$work/out" && grep -q "skipped" "$work/out" &&
   cmp -s "$tree/a/f4" "$work/x2/a/f4" && diff -r "$tree/b" "$work/x2/b" >/dev/null; then ok
else bad "rescue: what could be read"; fi

echo "tools: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
