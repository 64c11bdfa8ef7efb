#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side test across two QEMU boots on one NVRAM file: boot 1 formats
# and writes a tree of files (several sizes, sparse ones, content made on
# the host), directories, symlinks, device nodes and a FIFO, with chosen
# modes, owners and times; boot 2 mounts without init= and must find
# every byte (checked against the host's copies), mode, owner, size,
# block count and timestamp as boot 1 left them.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/qemu/tests/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nv=$work/nvram.img
share=$work/share
mkdir -p "$share/src"

# The content, made here so the guest cannot agree with itself.
for size in 0 1 2047 2048 2049 100000 1048579; do
	head -c "$size" /dev/urandom >"$share/src/f$size"
done
head -c 3000 /dev/urandom >"$share/src/head"
long=$(printf 'L%.0s' $(seq 2000))

# What a boot sees: one line per name with its attributes, plus the
# md5 of each file's bytes and each symlink's target.
cat >"$share/manifest.sh" <<'EOF'
cd /mnt/pram && find . | sort | while read -r f; do
	stat -c '%n %A %u %g %s %b %t:%T mtime=%y ctime=%z' "$f"
	if [ -L "$f" ]; then
		echo "  -> $(readlink "$f" | md5sum | cut -d' ' -f1)"
	elif [ -f "$f" ]; then
		echo "  md5 $(md5sum <"$f" | cut -d' ' -f1)"
	fi
done
EOF

cat >"$share/make-tree.sh" <<EOF
set -e
mount -t pramfs -o physaddr=\$PRAM_PHYS,init=\$PRAM_SIZE none /mnt/pram
cd /mnt/pram
mkdir -p a/b/c data dev
for f in /host/src/f*; do cp "\$f" data/; done
cp /host/src/f100000 a/b/c/deep
# Sparse: a head, a hole of 5 MB, a tail; and one that is only a hole.
cp /host/src/head sparse
dd if=/host/src/f2049 of=sparse bs=1 seek=5000000 conv=notrunc 2>/dev/null
truncate -s 3000000 holes
ln -s data/f2048 rel
ln -s /mnt/pram/a/b abs
ln -s "$long" long
mknod dev/null c 1 3
mknod dev/loop b 7 300
mkfifo dev/fifo
chmod 0700 a/b
chmod 2775 a
chmod 4755 data/f1
chown 1000:2000 data/f2047 a/b/c
touch -d '2001-02-03 04:05:06' data/f0 a/b/c
sh /host/manifest.sh >/host/boot1
cd /
umount /mnt/pram
EOF

cat >"$share/check-tree.sh" <<'EOF'
set -e
mount -t pramfs -o physaddr=$PRAM_PHYS none /mnt/pram
sh /host/manifest.sh >/host/boot2
for f in /host/src/f*; do cmp "$f" "/mnt/pram/data/${f##*/}"; done
cmp /host/src/f100000 /mnt/pram/a/b/c/deep
umount /mnt/pram
EOF

"$REPO/qemu/run" --nvram "$nv" --nvram-size 64M --share "$share" -- \
	'sh /host/make-tree.sh'
"$REPO/qemu/run" --nvram "$nv" --share "$share" -- 'sh /host/check-tree.sh'

echo "boot 1:"; cat "$share/boot1"
diff -u "$share/boot1" "$share/boot2"
# The manifest describes what was made (so an empty one cannot pass).
grep -q '^./data/f1048579 -rw-r--r-- 0 0 1048579 ' "$share/boot1"
grep -q '^./data/f1 -rwsr-xr-x ' "$share/boot1"
grep -q '^./data/f2047 -rw-r--r-- 1000 2000 2047 ' "$share/boot1"
grep -q '^./a drwxrwsr-x ' "$share/boot1"
grep -q '^./dev/loop brw-r--r-- 0 0 0 0 7:12c ' "$share/boot1"
grep -q '^./dev/fifo prw-r--r-- ' "$share/boot1"
grep -q '^./long lrwxrwxrwx 0 0 2000 ' "$share/boot1"
grep -q '^./data/f0 .* mtime=2001-02-03 04:05:06.000000000' "$share/boot1"
# Sparse files keep their holes: 3000 + 2049 bytes of data, 2 KiB blocks.
grep -q '^./sparse -rw-r--r-- 0 0 5002049 ' "$share/boot1"
grep -q '^./holes -rw-r--r-- 0 0 3000000 0 ' "$share/boot1"
pram_fsck "$nv"
echo "tree: ok"
