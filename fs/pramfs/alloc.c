// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS allocators: the block bitmap and the free-inode search.
 *
 * Pure code over a bitmap or an inode table in memory; the callers hold
 * the locks and open the write window. Bit b of the bitmap (little-endian
 * bit order, as ext2) is block b of the filesystem; the metadata blocks
 * and the padding past the last block are always set.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/bitmap.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include "format.h"

/**
 * pram_bitmap_format() - write an empty bitmap for @g
 * @bitmap: the bitmap's first byte, g->bitmap_blocks blocks long
 * @g: the geometry
 */
void pram_bitmap_format(void *bitmap, const struct pram_geometry *g)
{
	memset(bitmap, 0, (size_t)g->bitmap_blocks << g->blocksize_bits);
	pram_bitmap_mark_meta(bitmap, g);
}
EXPORT_SYMBOL_IF_KUNIT(pram_bitmap_format);

/**
 * pram_bitmap_mark_meta() - set the bits that are always set
 * @bitmap: the bitmap
 * @g: the geometry
 *
 * The metadata blocks' and the padding's past the last block; the data
 * blocks' bits are left as they are.
 */
void pram_bitmap_mark_meta(void *bitmap, const struct pram_geometry *g)
{
	u64 nbits = ((u64)g->bitmap_blocks << g->blocksize_bits) * BITS_PER_BYTE;
	u64 b;

	for (b = 0; b < g->data_start; b++)
		__set_bit_le(b, bitmap);
	for (b = g->blocks_count; b < nbits; b++)
		__set_bit_le(b, bitmap);
}
EXPORT_SYMBOL_IF_KUNIT(pram_bitmap_mark_meta);

/**
 * pram_bitmap_find_free() - find the first free block at or after @hint
 * @bitmap: the bitmap
 * @g: the geometry
 * @hint: where to start; the search wraps round to the first data block
 * @block: the free block found; the bitmap is not changed
 *
 * Return: 0, or -ENOSPC when every data block is in use.
 */
int pram_bitmap_find_free(const void *bitmap, const struct pram_geometry *g,
			  u32 hint, u32 *block)
{
	unsigned long b;

	if (!pram_block_valid(g, hint))
		hint = g->data_start;
	b = find_next_zero_bit_le(bitmap, g->blocks_count, hint);
	if (b >= g->blocks_count) {
		b = find_next_zero_bit_le(bitmap, hint, g->data_start);
		if (b >= hint)
			return -ENOSPC;
	}
	*block = b;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_bitmap_find_free);

/**
 * pram_bitmap_alloc() - take the first free block at or after @hint
 * @bitmap: the bitmap
 * @g: the geometry
 * @hint: as for pram_bitmap_find_free()
 * @block: the block taken
 *
 * Return: 0, or -ENOSPC when every data block is in use.
 */
int pram_bitmap_alloc(void *bitmap, const struct pram_geometry *g, u32 hint,
		      u32 *block)
{
	int err = pram_bitmap_find_free(bitmap, g, hint, block);

	if (!err)
		__set_bit_le(*block, bitmap);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(pram_bitmap_alloc);

/**
 * pram_bitmap_free() - give a data block back
 * @bitmap: the bitmap
 * @g: the geometry
 * @block: the block
 *
 * Return: 0, or -EUCLEAN for a block outside the data area or one that
 * was already free (a corrupt block map).
 */
int pram_bitmap_free(void *bitmap, const struct pram_geometry *g, u32 block)
{
	if (!pram_block_valid(g, block))
		return -EUCLEAN;
	if (!__test_and_clear_bit_le(block, bitmap))
		return -EUCLEAN;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_bitmap_free);

/**
 * pram_bitmap_span() - the bitmap bytes that hold the bits of a map's blocks
 * @g: the geometry
 * @map: a map block's entries: 0 for none, else a block number
 * @n: how many
 * @self: the map block, a data block: its bit is in the span too
 * @first: set to the span's first byte, a multiple of 8
 *
 * Entries outside the data area are left out: freeing them is refused,
 * and reported, one by one.
 *
 * Return: the span's length in bytes, a multiple of 8.
 */
u32 pram_bitmap_span(const struct pram_geometry *g, const __le32 *map, u32 n,
		     u32 self, u32 *first)
{
	u32 lo = self, hi = self, block, i;

	for (i = 0; i < n; i++) {
		block = le32_to_cpu(map[i]);
		if (!pram_block_valid(g, block))
			continue;
		lo = min(lo, block);
		hi = max(hi, block);
	}
	*first = lo / 64 * 8;
	return (hi / 64 + 1) * 8 - *first;
}
EXPORT_SYMBOL_IF_KUNIT(pram_bitmap_span);

/**
 * pram_bitmap_count_free() - count the free data blocks
 * @bitmap: the bitmap
 * @g: the geometry
 *
 * Run at every mount: 64 bits at a time, so a 1 GiB filesystem of 4 KiB
 * blocks costs 4,096 word counts rather than a search per free block.
 */
u32 pram_bitmap_count_free(const void *bitmap, const struct pram_geometry *g)
{
	const u8 *map = bitmap;
	u64 b = g->data_start, end = g->blocks_count;
	u64 used = 0;

	/* Bit by bit to a 64-bit boundary and after the last whole word. */
	for (; b < end && b % 64; b++)
		used += test_bit_le(b, bitmap);
	for (; b + 64 <= end; b += 64)
		used += hweight64(get_unaligned_le64(map + b / 8));
	for (; b < end; b++)
		used += test_bit_le(b, bitmap);
	return end - g->data_start - used;
}
EXPORT_SYMBOL_IF_KUNIT(pram_bitmap_count_free);

/**
 * pram_itable_find_free() - find a free inode at or after @hint
 * @itable: the inode table (the inode PRAM_ROOT_INO first)
 * @g: the geometry
 * @hint: inode number to start from; the search wraps round
 * @ino: the free inode's number
 *
 * Return: 0, or -ENOSPC when every inode is in use.
 */
int pram_itable_find_free(const void *itable, const struct pram_geometry *g,
			  u32 hint, u32 *ino)
{
	const struct pram_inode *pi = itable;
	u64 start, i, idx;

	start = pram_ino_valid(g, hint) ? hint - PRAM_ROOT_INO : 0;
	for (i = 0; i < g->inodes_count; i++) {
		idx = start + i;
		if (idx >= g->inodes_count)
			idx -= g->inodes_count;
		if (!pi[idx].i_mode) {
			*ino = idx + PRAM_ROOT_INO;
			return 0;
		}
	}
	return -ENOSPC;
}
EXPORT_SYMBOL_IF_KUNIT(pram_itable_find_free);

/**
 * pram_itable_count_free() - count the free inodes of the table
 * @itable: the inode table (the inode PRAM_ROOT_INO first)
 * @g: the geometry
 *
 * Reads every slot's mode: run at mount only when the count in the
 * superblock cannot be trusted (no clean unmount before).
 */
u32 pram_itable_count_free(const void *itable, const struct pram_geometry *g)
{
	const struct pram_inode *pi = itable;
	u32 i, free = 0;

	for (i = 0; i < g->inodes_count; i++)
		free += !pi[i].i_mode;
	return free;
}
EXPORT_SYMBOL_IF_KUNIT(pram_itable_count_free);
