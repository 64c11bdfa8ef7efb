/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and crafting a PRAMFS image through /dev/mem, for the tests:
 * field offsets as Documentation/filesystems/pramfs.rst gives them, and
 * setters that recompute the checksums, so that what a test checks is the
 * validation behind the checksum, not the checksum itself.
 *
 * An independent reading of the format: nothing here comes from the
 * kernel's headers.
 */
#ifndef PRAMFS_IMAGE_H
#define PRAMFS_IMAGE_H

#include "pramfs_util.h"

#define SB_SIZE		128
#define INODE_SIZE	128
#define ROOT_INO	2

/* Superblock fields: offset in bytes. */
enum {
	SB_CSUM = 0, SB_MAGIC = 4, SB_COMPAT = 12, SB_RO_COMPAT = 16,
	SB_INCOMPAT = 20, SB_SIZE_FIELD = 24, SB_BLOCKSIZE = 32,
	SB_INODES = 36, SB_FREE_INODES = 40, SB_INODE_HINT = 44,
	SB_BLOCKS = 48, SB_FREE_BLOCKS = 52, SB_BLOCK_HINT = 56,
	SB_BITMAP_START = 60, SB_BITMAP_BLOCKS = 64, SB_MOUNT_COUNT = 68,
	SB_STATE = 88, SB_JOURNAL = 92, SB_UUID = 96,
};

#define STATE_CLEAN	0x1
#define STATE_ERRORS	0x2
#define INCOMPAT_XATTR	0x8

/* Inode fields. */
enum {
	I_CSUM = 0, I_MODE = 4, I_LINKS = 6, I_UID = 8, I_SIZE = 16,
	I_BLOCKS = 24, I_FLAGS = 28, I_XATTR = 56, I_ROW = 60, I_HEAD = 60,
	I_DIRECT = 64, I_TAIL = 64, I_NEXT = 68, I_PREV = 72, I_PARENT = 76, I_NAME = 80,
};

#define NAME_LEN	48

static inline uint64_t le_get(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

static inline void le_put(uint8_t *p, int bytes, uint64_t v)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = v >> (8 * i);
}

static inline uint32_t sb_csum(const uint8_t *sb)
{
	return crc32c(~0U, sb + 4, SB_SIZE - 4);
}

static inline uint8_t *inode_at(uint8_t *nv, uint32_t ino)
{
	return nv + (uint64_t)ino * INODE_SIZE;
}

/* crc32c of the inode number, then of bytes 4-127. */
static inline uint32_t inode_csum(const uint8_t *pi, uint32_t ino)
{
	uint8_t seed[4];

	le_put(seed, 4, ino);
	return crc32c(crc32c(~0U, seed, 4), pi + 4, INODE_SIZE - 4);
}

static inline void inode_resum(uint8_t *nv, uint32_t ino)
{
	le_put(inode_at(nv, ino), 4, inode_csum(inode_at(nv, ino), ino));
}

/* Set a field of inode @ino and keep its checksum valid. */
static inline void inode_set(uint8_t *nv, uint32_t ino, int off, int bytes,
			     uint64_t v)
{
	le_put(inode_at(nv, ino) + off, bytes, v);
	inode_resum(nv, ino);
}

static inline uint64_t inode_get(uint8_t *nv, uint32_t ino, int off, int bytes)
{
	return le_get(inode_at(nv, ino) + off, bytes);
}

/* Give inode @ino the name @name (up to 48 bytes), checksum kept valid. */
static inline void inode_set_name(uint8_t *nv, uint32_t ino, const char *name,
				  size_t len)
{
	memset(inode_at(nv, ino) + I_NAME, 0, NAME_LEN);
	memcpy(inode_at(nv, ino) + I_NAME, name, len);
	inode_resum(nv, ino);
}

/* Set a field of both superblock copies and keep their checksums valid. */
static inline void sb_set(uint8_t *nv, int off, int bytes, uint64_t v)
{
	int copy;

	for (copy = 0; copy < 2; copy++) {
		le_put(nv + copy * SB_SIZE + off, bytes, v);
		le_put(nv + copy * SB_SIZE, 4, sb_csum(nv + copy * SB_SIZE));
	}
}

static inline uint64_t sb_get(const uint8_t *nv, int off, int bytes)
{
	return le_get(nv + off, bytes);
}

/* The byte at which block @block starts. */
static inline uint64_t block_off(const uint8_t *nv, uint32_t block)
{
	return (uint64_t)block * sb_get(nv, SB_BLOCKSIZE, 4);
}

/*
 * The geometry the documentation gives for a filesystem of @size bytes
 * as init= makes it (with the 16 KiB undo journal after the bitmap): an
 * independent oracle for the kernel's pram_geometry_compute().
 */
#define JOURNAL_BYTES	16384

struct geometry {
	unsigned long long blocks, inodes, data_start;
	unsigned long long bitmap_start, bitmap_blocks;
	unsigned long long journal_start;
};

static inline int geometry(unsigned long long size, unsigned int bs,
		    unsigned long long bpi, unsigned long long n,
		    struct geometry *g)
{
	unsigned long long itable_end;
	int bits = __builtin_ctz(bs);

	g->blocks = size >> bits;
	if (!n)
		n = size / (bpi ? bpi : 20 * 128) ?: 1;
	itable_end = (256 + n * 128 + bs - 1) / bs * bs;
	if (itable_end >= size)
		return -1;
	g->inodes = (itable_end - 256) / 128;
	g->bitmap_start = itable_end >> bits;
	g->bitmap_blocks = ((g->blocks + 7) / 8 + bs - 1) / bs;
	g->journal_start = g->bitmap_start + g->bitmap_blocks;
	g->data_start = g->journal_start + JOURNAL_BYTES / bs;
	return g->data_start < g->blocks ? 0 : -1;
}


#endif /* PRAMFS_IMAGE_H */
