// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS block map arithmetic: a regular file's inode points to a row
 * block of little-endian u32 block numbers of column blocks, whose
 * entries are the block numbers of the data blocks. Pure code.
 */
#include <linux/errno.h>
#include "pramfs.h"

/**
 * pram_map_entries() - block numbers per map block
 * @bits: log2 of the block size
 */
u32 pram_map_entries(u32 bits)
{
	return 1U << (bits - 2);
}
EXPORT_SYMBOL_IF_KUNIT(pram_map_entries);

/**
 * pram_max_file_size() - the largest file the block map can reach
 * @bits: log2 of the block size
 *
 * Return: (bs / 4)^2 blocks of bs bytes: 8 MiB at 512, 4 GiB at 4096.
 */
u64 pram_max_file_size(u32 bits)
{
	u64 entries = pram_map_entries(bits);

	return (entries * entries) << bits;
}
EXPORT_SYMBOL_IF_KUNIT(pram_max_file_size);

/**
 * pram_map_index() - where file block @fblock sits in the map
 * @bits: log2 of the block size
 * @fblock: block index within the file
 * @row: the entry of the row block
 * @col: the entry of that column block
 *
 * Return: 0, or -EFBIG past the largest file.
 */
int pram_map_index(u32 bits, u64 fblock, u32 *row, u32 *col)
{
	u32 entries = pram_map_entries(bits);

	if (fblock >= (u64)entries * entries)
		return -EFBIG;
	*row = fblock >> (bits - 2);
	*col = fblock & (entries - 1);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_map_index);

/**
 * pram_block_range() - the file blocks bytes [@pos, @pos + @len) touch
 * @bits: log2 of the block size
 * @pos: first byte
 * @len: bytes; 0 touches no block
 * @first: first block touched
 * @last: last block touched
 *
 * Return: the number of blocks touched.
 */
u64 pram_block_range(u32 bits, u64 pos, u64 len, u64 *first, u64 *last)
{
	if (!len)
		return 0;
	*first = pos >> bits;
	*last = (pos + len - 1) >> bits;
	return *last - *first + 1;
}
EXPORT_SYMBOL_IF_KUNIT(pram_block_range);

/**
 * pram_blocks_for_size() - file blocks a file of @size bytes may hold
 * @bits: log2 of the block size
 * @size: the file size
 *
 * Truncating to @size frees every block at or past this index.
 */
u64 pram_blocks_for_size(u32 bits, u64 size)
{
	return (size + (1ULL << bits) - 1) >> bits;
}
EXPORT_SYMBOL_IF_KUNIT(pram_blocks_for_size);
