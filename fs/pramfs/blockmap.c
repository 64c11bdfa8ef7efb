// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS block map arithmetic: a regular file's inode points to a row
 * block of little-endian u32 block numbers of column blocks, whose
 * entries are the block numbers of the data blocks; and which pages of
 * a mapping those blocks make. Pure code.
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include "format.h"

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

/**
 * pram_page_blocks() - blocks in a page
 * @bits: log2 of the block size, at most PAGE_SHIFT
 *
 * A mapping maps the NVRAM itself only when this is 1; with more, the
 * blocks of a page need not lie together and pages are copies.
 */
u32 pram_page_blocks(u32 bits)
{
	return 1U << (PAGE_SHIFT - bits);
}
EXPORT_SYMBOL_IF_KUNIT(pram_page_blocks);

/**
 * pram_fault_window() - the pages a read fault at @pgoff maps
 * @pgoff: the page that faulted
 * @first: in, the first page that may be mapped; out, the window's first
 * @last: in, the page past the last that may be; out, past the window's
 *
 * The window is the PRAM_FAULT_AROUND-aligned group of pages holding
 * @pgoff, cut to [@first, @last) (the mapping and the file's size).
 *
 * Return: true if the window holds pages besides @pgoff.
 */
bool pram_fault_window(pgoff_t pgoff, pgoff_t *first, pgoff_t *last)
{
	pgoff_t start = round_down(pgoff, PRAM_FAULT_AROUND);

	if (pgoff < *first || pgoff >= *last)
		return false;
	*first = max(*first, start);
	*last = min(*last, start + PRAM_FAULT_AROUND);
	return *last - *first > 1;
}
EXPORT_SYMBOL_IF_KUNIT(pram_fault_window);

/*
 * Entry @idx of the map block @block of the image at @base: a block
 * number, 0, or -EUCLEAN for one outside the data area.
 */
static long pram_map_entry(const struct pram_geometry *g, const void *base,
			   u32 block, u32 idx)
{
	const __le32 *map = base + pram_block_offset(g, block);
	u32 v = le32_to_cpu(map[idx]);

	if (v && !pram_block_valid(g, v))
		return -EUCLEAN;
	return v;
}

/**
 * pram_map_run() - the data block holding file block @fblock, and the run
 * of file blocks from it that lie together
 * @g: the geometry
 * @base: the filesystem image
 * @row_block: the file's row block, 0 for none
 * @fblock: block index within the file
 * @max: the most file blocks the run may hold, at least 1
 * @run: out, file blocks from @fblock (at most @max, within the span of
 *	 one column block, absent or not) mapped to consecutive blocks from
 *	 the one returned or, for a hole, holes; a bad entry ends a run
 *	 before it
 *
 * Reading a run copies once where a block at a time copies per block.
 *
 * Return: the block number, 0 for a hole (past the largest file too), or
 * -EUCLEAN for a map that names a block outside the data area.
 */
long pram_map_run(const struct pram_geometry *g, const void *base,
		  u32 row_block, u64 fblock, u64 max, u64 *run)
{
	u32 entries = pram_map_entries(g->blocksize_bits), row, col, i, n, v;
	const __le32 *map;
	long column, block;

	/* Holes too end with their column: a caller copies a run at once. */
	n = min_t(u64, max, entries - (fblock & (entries - 1)));
	*run = n;
	if (!row_block || pram_map_index(g->blocksize_bits, fblock, &row, &col))
		return 0;
	if (!pram_block_valid(g, row_block))
		return -EUCLEAN;
	column = pram_map_entry(g, base, row_block, row);
	if (column <= 0)
		return column;
	block = pram_map_entry(g, base, column, col);
	if (block < 0)
		return block;
	map = base + pram_block_offset(g, column);
	for (i = 1; i < n; i++) {
		v = le32_to_cpu(map[col + i]);
		if (v != (block ? block + i : 0) ||
		    (v && !pram_block_valid(g, v)))
			break;
	}
	*run = i;
	return block;
}
EXPORT_SYMBOL_IF_KUNIT(pram_map_run);

/**
 * pram_map_lookup() - the data block holding file block @fblock
 * @g: the geometry
 * @base: the filesystem image
 * @row_block: the file's row block, 0 for none
 * @fblock: block index within the file
 *
 * Return: the block number, 0 for a hole (past the largest file too), or
 * -EUCLEAN for a map that names a block outside the data area.
 */
long pram_map_lookup(const struct pram_geometry *g, const void *base,
		     u32 row_block, u64 fblock)
{
	u64 run;

	return pram_map_run(g, base, row_block, fblock, 1, &run);
}
EXPORT_SYMBOL_IF_KUNIT(pram_map_lookup);

/**
 * pram_map_seek() - the first mapped block, or the first hole, in a range
 * @g: the geometry
 * @base: the filesystem image
 * @row_block: the file's row block, 0 for none
 * @from: first file block to look at
 * @end: file block to stop at
 * @data: true to look for a mapped block, false for a hole
 *
 * A column block that is absent is skipped (or found) whole.
 *
 * Return: the file block found, @end if none, or -EUCLEAN.
 */
s64 pram_map_seek(const struct pram_geometry *g, const void *base,
		  u32 row_block, u64 from, u64 end, bool data)
{
	u32 bits = g->blocksize_bits, entries = pram_map_entries(bits);
	long column, block;
	u64 f = from;
	u32 col;

	end = min_t(u64, end, (u64)entries * entries);
	if (!row_block)
		return data ? end : min(from, end);
	if (!pram_block_valid(g, row_block))
		return -EUCLEAN;
	while (f < end) {
		column = pram_map_entry(g, base, row_block, f >> (bits - 2));
		if (column < 0)
			return column;
		if (!column) {
			if (!data)
				return f;
			f = round_up(f + 1, entries);
			continue;
		}
		for (col = f & (entries - 1); col < entries && f < end; col++, f++) {
			block = pram_map_entry(g, base, column, col);
			if (block < 0)
				return block;
			if (!!block == data)
				return f;
		}
	}
	return end;
}
EXPORT_SYMBOL_IF_KUNIT(pram_map_seek);

/*
 * ---- a regular file's record: its row block's map, or its direct block ----
 *
 * A file of one block, file block 0, may name it in i_type.reg.direct
 * (PRAM_FEATURE_INCOMPAT_DIRECT) with row_block 0: every other file
 * block is a hole. A read fault reads the record while a write may be
 * turning such a file into a mapped one: that write stores row_block,
 * then (after smp_wmb()) clears direct, so direct is read first, then
 * (after smp_rmb()) row_block: while direct is set it is right, and once
 * it reads 0 the row is there.
 */

/* The file's direct block, or 0 with its row block in *@row. */
static u32 pram_file_root(const struct pram_inode *pi, u32 *row)
{
	u32 direct = le32_to_cpu(READ_ONCE(pi->i_type.reg.direct));

	if (!direct) {
		smp_rmb();	/* pairs with pram_record_row()'s smp_wmb() */
		*row = le32_to_cpu(READ_ONCE(pi->i_type.reg.row_block));
	}
	return direct;
}

/**
 * pram_file_run() - pram_map_run() for the file whose record is @pi
 * @g: the geometry
 * @base: the filesystem image
 * @pi: the file's record
 * @fblock: block index within the file
 * @max: the most file blocks the run may hold, at least 1
 * @run: out, as pram_map_run()'s
 *
 * Return: the block number, 0 for a hole, or -EUCLEAN.
 */
long pram_file_run(const struct pram_geometry *g, const void *base,
		   const struct pram_inode *pi, u64 fblock, u64 max, u64 *run)
{
	u32 entries = pram_map_entries(g->blocksize_bits), row = 0;
	u32 direct = pram_file_root(pi, &row);

	if (!direct)
		return pram_map_run(g, base, row, fblock, max, run);
	*run = fblock ? min_t(u64, max, entries - (fblock & (entries - 1))) : 1;
	if (!pram_block_valid(g, direct))
		return -EUCLEAN;
	return fblock ? 0 : (long)direct;
}
EXPORT_SYMBOL_IF_KUNIT(pram_file_run);

/**
 * pram_file_lookup() - pram_map_lookup() for the file whose record is @pi
 * @g: the geometry
 * @base: the filesystem image
 * @pi: the file's record
 * @fblock: block index within the file
 *
 * Return: the block number, 0 for a hole, or -EUCLEAN.
 */
long pram_file_lookup(const struct pram_geometry *g, const void *base,
		      const struct pram_inode *pi, u64 fblock)
{
	u64 run;

	return pram_file_run(g, base, pi, fblock, 1, &run);
}
EXPORT_SYMBOL_IF_KUNIT(pram_file_lookup);

/**
 * pram_file_seek() - pram_map_seek() for the file whose record is @pi
 * @g: the geometry
 * @base: the filesystem image
 * @pi: the file's record
 * @from: first file block to look at
 * @end: file block to stop at
 * @data: true to look for a mapped block, false for a hole
 *
 * Return: the file block found, @end if none, or -EUCLEAN.
 */
s64 pram_file_seek(const struct pram_geometry *g, const void *base,
		   const struct pram_inode *pi, u64 from, u64 end, bool data)
{
	u32 row = 0, direct = pram_file_root(pi, &row);

	if (!direct)
		return pram_map_seek(g, base, row, from, end, data);
	if (!pram_block_valid(g, direct))
		return -EUCLEAN;
	if (from >= end)
		return end;
	/* Block 0 is data, every other one a hole. */
	if (data)
		return from ? end : 0;
	return from ? from : min_t(u64, 1, end);
}
EXPORT_SYMBOL_IF_KUNIT(pram_file_seek);

/**
 * pram_file_map_check() - pram_map_check() for the regular file whose
 * record is @pi
 * @g: the geometry
 * @base: the filesystem image
 * @pi: the file's record, whose fields pram_inode_check() passed
 * @blocks: out, the blocks its map or its direct block hold
 * @why: on error, the reason, for the log
 *
 * Return: 0, or -EINVAL for a bad map.
 */
int pram_file_map_check(const struct pram_geometry *g, const void *base,
			const struct pram_inode *pi, u32 *blocks,
			const char **why)
{
	u32 direct = le32_to_cpu(pi->i_type.reg.direct);

	if (!direct)
		return pram_map_check(g, base,
				      le32_to_cpu(pi->i_type.reg.row_block),
				      le32_to_cpu(pi->i_xattr), blocks, why);
	if (!pram_block_valid(g, direct)) {
		*why = "direct block outside the data area";
		return -EINVAL;
	}
	*blocks = 1;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_file_map_check);

/* Why @v, an entry of a map block, is not a data block other than @a and @b. */
static const char *pram_map_entry_bad(const struct pram_geometry *g, u32 v,
				      u32 a, u32 b)
{
	if (!pram_block_valid(g, v))
		return "block map entry outside the data area";
	if (v == a || v == b)
		return "block map entry names a block of the map";
	return NULL;
}

/* The entries of map block @map, a row (whose columns it descends) or not. */
static int pram_map_walk_block(const struct pram_geometry *g, const void *base,
			       u32 row, u32 map, bool is_row,
			       int (*visit)(void *arg, const struct pram_map_ent *e),
			       void *arg)
{
	const __le32 *entries = base + pram_block_offset(g, map);
	u32 n = pram_map_entries(g->blocksize_bits), i;
	struct pram_map_ent e = { .map = map, .is_row = is_row };
	int ret;

	for (e.idx = 0; e.idx < n; e.idx++) {
		e.block = le32_to_cpu(entries[e.idx]);
		if (!e.block)
			continue;
		e.bad = pram_map_entry_bad(g, e.block, row, map);
		ret = visit(arg, &e);
		if (ret < 0)
			return ret;
		/* The visitor may have cleared or changed the entry. */
		i = le32_to_cpu(entries[e.idx]);
		if (!is_row || ret == PRAM_MAP_SKIP || !i ||
		    pram_map_entry_bad(g, i, row, map))
			continue;
		ret = pram_map_walk_block(g, base, row, i, false, visit, arg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/**
 * pram_map_walk() - visit every entry of a block map, or of one column
 * @g: the geometry
 * @base: the filesystem image
 * @row: the file's row block (a valid data block)
 * @map: the block to walk: @row, or one of its columns
 * @visit: called for each nonzero entry, the bad ones too (with the
 *	   reason in ->bad); returns 0 to go on (into a row entry's
 *	   column), PRAM_MAP_SKIP not to descend, or a negative errno to
 *	   stop. It may change the entry: the walk descends into what the
 *	   entry holds after the call, if that is a good column.
 * @arg: for @visit
 *
 * The one walk of a map: the kernel's check at iget and fsck's passes.
 *
 * Return: 0, or what @visit stopped with.
 */
int pram_map_walk(const struct pram_geometry *g, const void *base, u32 row,
		  u32 map, int (*visit)(void *arg, const struct pram_map_ent *e),
		  void *arg)
{
	return pram_map_walk_block(g, base, row, map, map == row, visit, arg);
}
EXPORT_SYMBOL_IF_KUNIT(pram_map_walk);

struct pram_map_count {
	u32		xattr;
	u32		blocks;
	const char	*bad;
};

static int pram_map_count(void *arg, const struct pram_map_ent *e)
{
	struct pram_map_count *c = arg;

	c->bad = e->bad;
	/* The next change of the attributes would free it under the file. */
	if (!c->bad && e->block == c->xattr)
		c->bad = "block map entry names the attribute block";
	if (c->bad)
		return -EINVAL;
	c->blocks++;
	return 0;
}

/**
 * pram_map_check() - check a regular file's block map and count its blocks
 * @g: the geometry
 * @base: the filesystem image
 * @row_block: the file's row block, 0 for none
 * @xattr: the file's attribute block, 0 for none
 * @blocks: the blocks the map holds: the row block, its column blocks
 *	    and their data blocks, as i_blocks counts them
 * @why: on error, the reason, for the log
 *
 * Every column and data block must be a data block other than the row
 * block, the attribute block (and, for a data block, its own column).
 * Reads the whole map: one entry per (bs / 4) blocks of the file besides
 * the row.
 *
 * Return: 0, or -EINVAL for a bad map.
 */
int pram_map_check(const struct pram_geometry *g, const void *base,
		   u32 row_block, u32 xattr, u32 *blocks, const char **why)
{
	struct pram_map_count c = { .xattr = xattr, .blocks = 1 };

	*blocks = 0;
	if (!row_block)
		return 0;
	if (!pram_block_valid(g, row_block)) {
		*why = "block map outside the data area";
		return -EINVAL;
	}
	if (pram_map_walk(g, base, row_block, row_block, pram_map_count, &c)) {
		*why = c.bad;
		return -EINVAL;
	}
	*blocks = c.blocks;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_map_check);
