#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side test of the tools with the kernel, in one boot. The NVRAM
# file is a row of 4 MiB slots; PRAMFS mounts at any page-aligned address
# of the range, so each slot is a filesystem of its own:
#
#   0-3   mkfs.pramfs at each block size with -L, -U, -N or -i, -m, -u,
#         -g: the guest mounts each without init= and finds what was
#         asked, the label and UUID in its log;
#   4     mkfs.pramfs -d of a tree of every file type, odd modes and
#         owners, ns times, sparse files, deep paths, hard links and
#         names of up to 255 bytes: compared in the
#         guest, entry by entry and byte by byte, with the tree itself;
#   5     init= with the options of slot 1: byte for byte what mkfs made,
#         but for the UUID, the times, the mount counter and checksums;
#   6     mkfs.pramfs in the guest through /dev/mem (--phys), a mount, a
#         write, an unmount, fsck.pramfs there: clean;
#   7-10  a workload of the kernel at each block size, checked clean by
#         fsck.pramfs in the guest and again on the host;
#   11-12 images of the first revision of the format, with and without
#         the journal (tools/tests/images, made by mkfs.pramfs at
#         fdbc5a1): each mounts read-write, keeps its files, takes a hard
#         link and a long name (and then has those features), and checks
#         clean;
#   13-   every case of the corruption table (tools/tests/cases.sh), as
#         fsck.pramfs -y repaired it: each mounts, is walked, read-write
#         and read-only, with no error in the kernel log.
# And make run's first boot on an empty NVRAM says it formats a new one,
# without the kernel's refusal first.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/tools/tests/cases.sh"
T=$REPO/build/tools
make -s -C "$REPO/tools" O="$T"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
share=$work/share nv=$work/nvram.img
SLOT=$((4 << 20))
mkdir -p "$share"
ncases=$(echo "$CASES" | wc -l)
nvalid=$(wc -w <<<"$VALID_CASES")
nslots=$((13 + ncases + nvalid))
truncate -s $((nslots * SLOT)) "$nv"

put_slot() { dd if="$1" of="$nv" bs=$SLOT seek="$2" conv=notrunc status=none; }
get_slot() { dd if="$nv" of="$2" bs=$SLOT skip="$1" count=1 status=none; }

# Slots 0-3: what mkfs.pramfs was asked, at each block size.
inodes_opts=("-N 200" "-i 4096" "-N 300" "-i 16384")
for k in 0 1 2 3; do
	bs=$((512 << k))
	# shellcheck disable=SC2086 # an option and its value
	"$T/mkfs.pramfs" -q -b $bs ${inodes_opts[$k]} -m 750 -u 12 -g 34 -L "bs$bs" \
		-U "0000000$k-1111-2222-3333-444444444444" "$work/rt$k.img" 4M
	put_slot "$work/rt$k.img" $k
done

# Slot 4: a tree of every file type.
tree=$share/tree
mkdir -p "$tree/d1/d2/d3/d4/d5/d6/d7/d8" "$tree/setgid" "$tree/sticky" "$tree/dev"
echo deep >"$tree/d1/d2/d3/d4/d5/d6/d7/d8/bottom"
for size in 0 1 2047 2048 2049 100000; do
	head -c $size /dev/urandom >"$tree/f$size"
done
head -c 3000 /dev/urandom >"$tree/sparse"
truncate -s 5000000 "$tree/sparse" && echo tail >>"$tree/sparse"
truncate -s 1000000 "$tree/holes"
ln -s f1 "$tree/short"
ln -s "$(printf 'L%.0s' $(seq 2000))" "$tree/long"
mknod "$tree/dev/null" c 1 3
mknod "$tree/dev/loop" b 7 300
mkfifo "$tree/dev/fifo"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$tree/dev/sock"
chmod 0000 "$tree/f0"
chmod 4755 "$tree/f1"
chmod 2775 "$tree/setgid"
chmod 1777 "$tree/sticky"
chown 1234:5678 "$tree/f2047" "$tree/d1/d2"
ln "$tree/f2049" "$tree/d1/f2049-again" && ln "$tree/f2049" "$tree/d1/d2/third"
ln "$tree/dev/fifo" "$tree/fifo-again"
touch "$tree/d1/$(printf 'n%.0s' $(seq 255))" "$tree/$(printf 'm%.0s' $(seq 100))"
ln "$tree/f1" "$tree/d1/d2/$(printf 'h%.0s' $(seq 200))"
touch -h -d '2001-02-03 04:05:06.123456789' "$tree/f2048" "$tree/short" "$tree/d1"
"$T/mkfs.pramfs" -q -d "$tree" "$work/tree.img" 4M
put_slot "$work/tree.img" 4

# Slots 11-12: images of the first revision.
put_slot "$REPO/tools/tests/images/rev1-journal.img" 11
put_slot "$REPO/tools/tests/images/rev1-nojournal.img" 12

# Slots 13-: the corruption cases, repaired.
make_case_tree "$work/ctree"
"$T/mkfs.pramfs" -q -b 1024 -O ^direct -d "$work/ctree" "$work/base.img" 2M
k=13
while read -r c _; do
	cp "$work/base.img" "$work/c.img"
	"$T/pramfs-corrupt" "$work/c.img" "$c"
	rc=0
	"$T/fsck.pramfs" -fy "$work/c.img" >/dev/null || rc=$?
	[ "$rc" -eq 1 ] || { echo "fsck -y of $c: status $rc"; exit 1; }
	put_slot "$work/c.img" $k
	k=$((k + 1))
done <<<"$CASES"
# Then what pramfs-corrupt makes valid (a direct file: /a/f2), as it is.
for c in $VALID_CASES; do
	cp "$work/base.img" "$work/c.img"
	"$T/pramfs-corrupt" "$work/c.img" "$c"
	put_slot "$work/c.img" $k
	k=$((k + 1))
done

cat >"$share/guest.sh" <<EOF
S=$SLOT
NCASES=$ncases
VALID="$VALID_CASES"
EOF
cat >>"$share/guest.sh" <<'EOF'
slot() { printf '%#x' $((PRAM_PHYS + $1 * S)); }
on() { mount -t pramfs -o "physaddr=$(slot "$1")$2" none /mnt/pram; }
# One line per entry below the top: attributes (not atime, which reading
# moves; not a directory's size, which is the host filesystem's), contents.
manifest() {
	(cd "$1" && find . -mindepth 1 | sort | while read -r f; do
		if [ -d "$f" ] && [ ! -L "$f" ]; then
			stat -c '%n %A %u %g %y %z' "$f"
		else
			stat -c '%n %A %h %u %g %s %t:%T %y %z' "$f"
		fi
		if [ -L "$f" ]; then readlink "$f"
		elif [ -f "$f" ]; then md5sum <"$f" | cut -d' ' -f1; fi
	done)
}
# A workload that fits a slot: files of several sizes, sparse and grown,
# a tree, a symlink, a device and a FIFO, renames and removals.
workload() {
	cd /mnt/pram || return
	mkdir -p a/b/c
	for i in 1 2 3 4 5 6 7 8; do
		dd if=/dev/urandom of="a/b/c/f$i" bs=1k count=$((i * 37)) 2>/dev/null
		echo $i >"n$i"
	done
	dd if=/dev/urandom of=big bs=1k count=700 2>/dev/null
	dd if=/dev/urandom of=sparse bs=1k seek=900 count=3 2>/dev/null
	truncate -s 100 big && truncate -s 500000 grown
	ln -s a/b link && mknod null c 1 3 && mkfifo fifo
	mv n1 a/moved && mv n2 n3 && rm n4 n5 && mv a/b/c a/c2
	cd /
}
for k in 0 1 2 3; do
	on $k "" || echo "RT$k mount failed"
	stat -f -c "RT$k bsize=%S blocks=%b free=%f files=%c ffree=%d" /mnt/pram
	stat -c "RT$k mode=%a uid=%u gid=%g" /mnt/pram
	umount /mnt/pram
done
dmesg | grep 'mounted read-write: uuid' >/host/rt.log
on 4 "" && manifest /mnt/pram >/host/tree.pram && umount /mnt/pram
manifest /host/tree >/host/tree.host
mount -t pramfs -o "physaddr=$(slot 5),init=$S,bs=1024,bpi=4096,mode=0750,uid=12,gid=34" none /mnt/pram &&
	umount /mnt/pram
mkfs.pramfs -q -L guest --phys "$(slot 6)" --size $S && on 6 "" &&
	workload && umount /mnt/pram
fsck.pramfs -fn --phys "$(slot 6)" --size $S >/host/g6.log; echo "GUEST-FSCK $?"
k=7
for bs in 512 1024 2048 4096; do
	mount -t pramfs -o "physaddr=$(slot $k),init=$S,bs=$bs" none /mnt/pram &&
		workload && umount /mnt/pram
	fsck.pramfs -fn --phys "$(slot $k)" --size $S >/host/w$k.log; echo "WORK$bs $?"
	k=$((k + 1))
done
for k in 11 12; do
	on $k "" && [ "$(cat /mnt/pram/old/f)" = "made by revision 1" ] &&
		ln /mnt/pram/old/f /mnt/pram/old/g &&
		echo long >"/mnt/pram/old/d/$(printf 'l%.0s' $(seq 200))" &&
		[ "$(stat -c %h /mnt/pram/old/g)" = 2 ] && umount /mnt/pram
	fsck.pramfs -fn --phys "$(slot $k)" --size 512K >/host/old$k.log; echo "OLD$k $?"
done
dmesg -c >/dev/null
k=13
while [ $k -lt $((13 + NCASES)) ]; do
	for ro in "" ",ro"; do
		on $k "$ro" || { echo "CASE$k mount$ro failed"; continue; }
		find /mnt/pram | while read -r f; do
			stat "$f" >/dev/null; [ -f "$f" ] && cat "$f" >/dev/null
			[ -L "$f" ] && readlink "$f" >/dev/null
		done
		[ -z "$ro" ] && echo x >/mnt/pram/new && rm /mnt/pram/new
		umount /mnt/pram
	done
	k=$((k + 1))
done
# The valid crafted images: read as they are, then f2 grows a map.
for c in $VALID; do
	on $k "" && md5sum </mnt/pram/a/f2 | cut -d' ' -f1 >"/host/valid-$c.md5" &&
		truncate -s 3000 /mnt/pram/a/f2 && echo x >>/mnt/pram/a/f2 &&
		umount /mnt/pram && on $k ",ro" &&
		echo "GREW-$c $(stat -c %s /mnt/pram/a/f2)" && umount /mnt/pram
	fsck.pramfs -fn --phys "$(slot $k)" --size $S >/host/valid-$c.log; echo "VALID-$c $?"
	k=$((k + 1))
done
dmesg | grep -E 'pramfs.*error|BUG:|WARNING:|Call Trace' >/host/cases.log
echo TOOLS-GUEST-DONE
EOF
"$REPO/qemu/run" --nvram "$nv" --share "$share" -- 'sh /host/guest.sh' | tee "$work/guest.log"
grep -q TOOLS-GUEST-DONE "$work/guest.log"
fails=0 checks=0
check() {
	checks=$((checks + 1))
	if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails + 1)); fi
}
# A field of the primary superblock as pramfs-dump shows it.
field() { "$T/pramfs-dump" "$1" | awk -v f="$2" -v n="$3" '$0 ~ "^" f { print $n; exit }' | tr -d ,; }

for k in 0 1 2 3; do
	bs=$((512 << k))
	blocks=$(field "$work/rt$k.img" "blocks " 2)
	start=$(field "$work/rt$k.img" "bitmap at block" 4)
	nbm=$(field "$work/rt$k.img" "bitmap at block" 5)
	inodes=$(field "$work/rt$k.img" "inodes " 2)
	# The data start after the bitmap, and after the journal when there is one.
	data=$((start + nbm))
	journal=$(field "$work/rt$k.img" "journal at block" 4)
	[ "$journal" -gt 0 ] && data=$((journal + 16384 / bs))
	check "slot $k: statfs as mkfs made it" \
		"grep -q '^RT$k bsize=$bs blocks=$((blocks - data)) .* files=$inodes ' '$work/guest.log'"
	check "slot $k: root mode, owner" "grep -q '^RT$k mode=750 uid=12 gid=34$' '$work/guest.log'"
	check "slot $k: the kernel logs its UUID and label" \
		"grep -q 'pram@$(printf %x $((0x100000000 + k * SLOT)))): mounted read-write: uuid 0000000$k-1111-2222-3333-444444444444, label \"bs$bs\"' '$share/rt.log'"
done
check "the -d tree is what the host has" "diff -u '$share/tree.host' '$share/tree.pram'"
check "the tree's manifest is not empty" "[ \$(wc -l <'$share/tree.pram') -gt 30 ]"
get_slot 5 "$work/init.img"
# The bytes init= and mkfs may differ in: each superblock's checksum, mount
# count and times (its offsets 0-3, 68-87) and UUID (96-111); the root's
# checksum and times (its offsets 0-3, 32-55); and the label, which only
# mkfs was given. cmp -l counts from 1.
allowed() {
	awk '{ o = $1 - 1 }
	     o < 256 { s = o % 128; if (s < 4 || (s >= 68 && s < 88) || s >= 96) next }
	     o >= 256 && o < 384 { r = o - 256; if (r < 4 || (r >= 32 && r < 56)) next }
	     { print; bad = 1 } END { exit bad }'
}
check "init= makes what mkfs makes, byte for byte" \
	"cmp -l '$work/init.img' '$work/rt1.img' | allowed"
check "the tools in the guest, on the NVRAM" "grep -q '^GUEST-FSCK 0$' '$work/guest.log'"
for k in 7 8 9 10; do
	bs=$((512 << (k - 7)))
	check "the kernel's workload at bs=$bs checks clean in the guest" \
		"grep -q '^WORK$bs 0$' '$work/guest.log'"
	get_slot $k "$work/w.img"
	check "and on the host" "'$T/fsck.pramfs' -fn '$work/w.img' >/dev/null"
done
for k in 11 12; do
	get_slot $k "$work/old.img"
	check "a first-revision image (slot $k) mounts, works and checks clean" \
		"grep -q '^OLD$k 0$' '$work/guest.log'"
	check "and gains the features it used, no other" \
		"'$T/pramfs-dump' '$work/old.img' | grep -qE '^features[^0-9]*0 0 $([ $k = 11 ] && echo '0x17 journal' || echo 0x16) links longnames direct$'"
done
check "every repaired image mounts and walks with a clean log" "[ ! -s '$share/cases.log' ]"
for c in $VALID_CASES; do
	check "the kernel reads what pramfs-corrupt makes valid ($c) as the host file" \
		"[ \"\$(md5sum <'$work/ctree/a/f2' | cut -d' ' -f1)\" = \"\$(cat '$share/valid-$c.md5')\" ]"
	check "and, after the file grows past its block, it checks clean" \
		"grep -q '^GREW-$c 3002$' '$work/guest.log' && grep -q '^VALID-$c 0$' '$work/guest.log'"
done
grep -q 'failed' "$work/guest.log" && { echo "FAIL: a mount failed"; fails=$((fails + 1)); }
[ -s "$share/cases.log" ] && cat "$share/cases.log"

# make run on an empty NVRAM, then on the filesystem it made.
for boot in first second; do
	PRAMFS_APPEND=PRAM_AUTOMOUNT=1 "$REPO/qemu/run" --nvram "$work/run.img" \
		--nvram-size 16M -- 'dmesg | grep -c "no valid pramfs" || true' >"$work/$boot.log" 2>&1
done
check "make run's first boot formats, and says so" \
	"grep -q 'no PRAMFS on the NVRAM: formatting a new one' '$work/first.log' &&
	 grep -qx 0 '$work/first.log'"
check "and the second finds it" \
	"! grep -q 'formatting' '$work/second.log' && grep -q ' /mnt/pram pramfs ' '$work/second.log'"
# Every check ran: a shell error skips the rest of a loop silently.
want=$((31 + 2 * nvalid))
[ "$checks" -eq "$want" ] || { echo "FAIL: $checks checks ran, not $want"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ]
echo "tools: ok"
