// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS regular files: the block map's upkeep, and direct, synchronous
 * I/O between user buffers and the NVRAM.
 *
 * There is no page cache: every read and write copies straight from or
 * to the NVRAM mapping, at any offset and length, and a write is durable
 * when it returns (the copy bypasses or writes back the CPU cache, and a
 * fence orders it). A block is allocated when first written, and it is
 * fully written or zeroed before the map points to it, so no stale data
 * can be read; the bytes of the last block past the end of the file are
 * always zero.
 */
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/libnvdimm.h>
#include <linux/sched.h>
#include <linux/sort.h>
#include <linux/uio.h>
#include <linux/posix_acl.h>
#include "pramfs.h"

/*
 * One write(): blocks reserved ahead (what is left is given back at the
 * end), and fresh blocks already written whose column entries, next to
 * each other, are set together, with the size the write has reached, in
 * one transaction: up to PRAM_RESERVE of them, filled PRAM_RUN at most
 * at a time through one window (PRAM_WP_MAX_PAGES pages at 4 KiB).
 */
#define PRAM_RESERVE	64
#define PRAM_RUN	16
/*
 * Columns a write may make before linking them: those of the pending
 * entries and of the blocks being mapped. The pending entries are file
 * blocks in a row, at most PRAM_RESERVE, and a write maps at most
 * PRAM_RUN blocks past them before they are set (pram_write_run()):
 * together no more than a column holds, so they lie in at most two
 * columns.
 */
#define PRAM_NEW_COLS	2

struct pram_reserve {
	unsigned int	n, next;
	u64		want;		/* blocks the write may still need */
	bool		direct;		/* file block 0 may be a direct block */
	u32		blocks[PRAM_RESERVE];
	__le32		*entry;		/* the first column entry to set */
	unsigned int	pending;	/* entries to set from there */
	u32		written[PRAM_RESERVE];
	loff_t		end;		/* the bytes written so far end here */
	loff_t		recorded;	/* the last commit's end, in the record */
	/*
	 * Map blocks made for the pending entries, zeroed but not linked
	 * yet: they are linked in the transaction that sets the entries,
	 * so a cut before it leaves the file as it was, blocks and all.
	 */
	u32		new_row;
	u32		direct_col;	/* with new_row: the direct block's */
	unsigned int	new_cols;
	struct {
		u32	r, block;	/* row entry r is to name block */
	}		new_col[PRAM_NEW_COLS];
};

/* Where file block @fblock goes in the map, and the data block for it. */
struct pram_slot {
	__le32	*entry;		/* its column entry; NULL for a direct block */
	u32	block;		/* the data block */
	bool	fresh;		/* reserved: unmapped, contents undefined */
};

/**
 * pram_row_block() - the row block of a regular file; a symlink's target
 * @inode: a regular file or a symlink
 */
u32 pram_row_block(struct inode *inode)
{
	struct pram_inode *pi = pram_get_inode(inode->i_sb, inode->i_ino);

	return le32_to_cpu(pi->i_type.reg.row_block);
}

/* A regular file's direct block (INCOMPAT_DIRECT), or 0. */
static u32 pram_direct_block(struct inode *inode)
{
	struct pram_inode *pi = pram_get_inode(inode->i_sb, inode->i_ino);

	return le32_to_cpu(READ_ONCE(pi->i_type.reg.direct));
}

/* Point the record at a row block (or a symlink's), direct block 0. */
static void pram_set_row_block(struct inode *inode, u32 block)
{
	struct pram_inode *pi = pram_record_begin(inode->i_sb, inode->i_ino);

	/*
	 * Not pram_record_begin_part(): both callers log the whole record
	 * next (pram_update_inode()), which would then save these bytes a
	 * second time, a line more in all.
	 */
	pi->i_type.reg.row_block = cpu_to_le32(block);
	pi->i_type.reg.direct = 0;
	pram_record_end(inode->i_sb, pi);
}

/*
 * Set the map entries [@entry, @entry + @n), which lie in one map block,
 * to @blocks, in the open transaction. In a map block that the same
 * transaction links (@fresh), they need no journal: a cut before the
 * commit leaves that block free again, and nothing points to it.
 */
static void pram_set_entries(struct super_block *sb, __le32 *entry,
			     const u32 *blocks, unsigned int n, bool fresh)
{
	size_t len = n * sizeof(*entry);
	unsigned int i;
	__le32 *w;

	if (!fresh)
		pram_tx_log(sb, entry, len);
	w = pram_wp_open(sb, entry, len);
	for (i = 0; i < n; i++)
		w[i] = cpu_to_le32(blocks[i]);
	pram_wp_close(sb, w, len);
}

static void pram_set_entry(struct super_block *sb, __le32 *entry, u32 block)
{
	pram_tx_begin(sb);
	pram_set_entries(sb, entry, &block, 1, false);
	pram_tx_end(sb);
}

static void pram_add_blocks(struct inode *inode, long n)
{
	inode->i_blocks += n << (inode->i_blkbits - 9);
}

/* Zero [@addr, @addr + @len) inside an open write window, durably. */
static void pram_zero(void *addr, size_t len)
{
	memset(addr, 0, len);
	pram_wb(addr, len);
}

/* Zero [@addr, @addr + @len) of the NVRAM through a window of its own. */
static void pram_zero_range(struct super_block *sb, void *addr, size_t len)
{
	void *w = pram_wp_open(sb, addr, len);

	pram_zero(w, len);
	pram_wp_close_flushed(sb, w, len);
}

static void pram_zero_block(struct super_block *sb, u32 block)
{
	pram_zero_range(sb, pram_block_addr(sb, block), sb->s_blocksize);
}

/*
 * Copy up to @len bytes from @from into the window @w, written back. Page
 * faults are off: a fault on user memory could sleep for ever (a
 * userfaultfd that is never served) while the window holds this CPU's
 * slots, which writers that hold s_lock or a record lock wait for. The
 * caller faults the pages in first and retries what comes up short.
 */
static size_t pram_copy_in(void *w, size_t len, struct iov_iter *from)
{
	size_t done;

	pagefault_disable();
	done = _copy_from_iter_flushcache(w, len, from);
	pagefault_enable();

	if (!IS_ENABLED(CONFIG_ARCH_HAS_UACCESS_FLUSHCACHE))
		pram_wb(w, done);
	return done;
}

static int pram_map_corrupt(struct inode *inode)
{
	pram_error(inode->i_sb, inode->i_ino,
		   "block map names a block outside the data area");
	return -EUCLEAN;
}

/**
 * pram_data_block() - the data block holding file block @fblock
 * @inode: a regular file
 * @fblock: block index within the file
 *
 * The map is read without a lock: its entries are single aligned words,
 * set only after the blocks they name are written, and a block is freed
 * only under the file's i_rwsem and invalidate_lock, both held. The
 * record's direct block is read before its row block, the reverse of
 * the order pram_record_row() writes them in (pram_file_root()).
 *
 * Return: the block number, 0 for a hole, or -EUCLEAN (logged).
 */
long pram_data_block(struct inode *inode, u64 fblock)
{
	struct pram_sb_info *sbi = PRAM_SB(inode->i_sb);
	long block = pram_file_lookup(&sbi->geo, sbi->virt_addr,
				      pram_get_inode(inode->i_sb, inode->i_ino),
				      fblock);

	return block < 0 ? pram_map_corrupt(inode) : block;
}

/*
 * A reserved block from @res, or a single one without @res: claimed when
 * it is linked (pram_link_map_block(), pram_commit_blocks()).
 */
static int pram_take_block(struct super_block *sb, struct pram_reserve *res,
			   u32 *block)
{
	int got;

	if (!res) {
		got = pram_reserve_blocks(sb, block, 1);
		return got < 0 ? got : 0;
	}
	if (res->next == res->n) {
		got = pram_reserve_blocks(sb, res->blocks,
					  clamp_t(u64, res->want, 1, PRAM_RESERVE));
		if (got < 0)
			return got;
		res->n = got;
		res->next = 0;
	}
	*block = res->blocks[res->next++];
	if (res->want)
		res->want--;
	return 0;
}

static void pram_reserve_release(struct super_block *sb,
				 struct pram_reserve *res)
{
	pram_unreserve_blocks(sb, res->blocks + res->next, res->n - res->next);
	res->n = 0;
	res->next = 0;
}

/*
 * Link a zeroed map block: claimed, pointed to by the row entry @entry
 * (or by the inode, when @entry is NULL) and counted, in the open
 * transaction or one of its own.
 */
static void pram_link_map_block(struct inode *inode, __le32 *entry, u32 block)
{
	struct super_block *sb = inode->i_sb;

	pram_tx_begin(sb);
	pram_claim_blocks(sb, &block, 1);
	if (entry)
		pram_set_entry(sb, entry, block);
	else
		pram_set_row_block(inode, block);
	pram_add_blocks(inode, 1);
	pram_update_inode(inode);
	pram_tx_end(sb);
}

/*
 * Point the open record @pi at a new row block; a direct file's block is
 * then column 0's entry 0. The row is named before the direct block
 * stops being named, so that a lockless lookup (pram_file_run()) finds
 * block 0 all along.
 */
static void pram_record_row(struct pram_inode *pi, u32 row)
{
	WRITE_ONCE(pi->i_type.reg.row_block, cpu_to_le32(row));
	smp_wmb();	/* pairs with pram_file_root()'s smp_rmb() */
	WRITE_ONCE(pi->i_type.reg.direct, 0);
}

/*
 * Link a new row block now, in the caller's transaction (fallocate's),
 * with @col, a direct file's new column that the row already names:
 * claimed, counted and named by the record.
 */
static void pram_link_row(struct inode *inode, u32 row, u32 col)
{
	struct super_block *sb = inode->i_sb;
	/* Ascending, as pram_claim_blocks() takes them. */
	u32 claim[2] = { min(row, col), max(row, col) };
	struct pram_inode *pi;

	pram_tx_begin(sb);
	pram_claim_blocks(sb, claim, ARRAY_SIZE(claim));
	pram_add_blocks(inode, ARRAY_SIZE(claim));
	pi = pram_record_begin(sb, inode->i_ino);
	pram_record_row(pi, row);
	pram_inode_to_record(inode, pi);
	pram_record_end(sb, pi);
	pram_tx_end(sb);
}

/*
 * A new map block, zeroed. Within a write (@res) it waits in @res to be
 * linked with the entries it holds (pram_commit_blocks()); otherwise it
 * is linked now.
 */
static int pram_new_map_block(struct inode *inode, struct pram_reserve *res,
			      __le32 *entry, u32 r, u32 *block)
{
	struct super_block *sb = inode->i_sb;
	int err;

	BUILD_BUG_ON(PRAM_MIN_BLOCK_SIZE / sizeof(__le32) <
		     PRAM_RESERVE + PRAM_RUN);
	if (res && entry && WARN_ON_ONCE(res->new_cols >= PRAM_NEW_COLS))
		return -EIO;
	err = pram_take_block(sb, res, block);
	if (err)
		return err;
	pram_zero_block(sb, *block);
	if (!res) {
		pram_link_map_block(inode, entry, *block);
	} else if (!entry) {
		res->new_row = *block;
	} else {
		res->new_col[res->new_cols].r = r;
		res->new_col[res->new_cols++].block = *block;
	}
	return 0;
}

/* The row block, or the write's new one not linked yet. */
static u32 pram_current_row(struct inode *inode, const struct pram_reserve *res)
{
	return pram_row_block(inode) ?: (res ? res->new_row : 0);
}

/* Column @r: in the row block, or the write's new one not linked yet. */
static u32 pram_current_column(const __le32 *rows, u32 r,
			       const struct pram_reserve *res)
{
	unsigned int i;

	if (rows[r] || !res)
		return le32_to_cpu(rows[r]);
	for (i = 0; i < res->new_cols; i++)
		if (res->new_col[i].r == r)
			return res->new_col[i].block;
	return 0;
}

/* What one commit of a write links: the blocks it claims, new map blocks. */
struct pram_link {
	u32		claim[PRAM_RESERVE + PRAM_NEW_COLS + 2];
	unsigned int	nclaim;
	u32		row;			/* a new row block, or 0 */
	u32		rows;			/* the row block they go in */
	u32		cols[PRAM_NEW_COLS + 1];	/* new column blocks */
	u32		col_r[PRAM_NEW_COLS + 1];	/* their row entries */
	unsigned int	ncols;
};

static u32 pram_block_of(struct super_block *sb, const void *addr)
{
	return (addr - PRAM_SB(sb)->virt_addr) >> sb->s_blocksize_bits;
}

/* The entries from @entry to the end of the map block holding it. */
static unsigned int pram_entries_left(struct super_block *sb,
				      const __le32 *entry)
{
	u32 off = ((const void *)entry - PRAM_SB(sb)->virt_addr) &
		  (sb->s_blocksize - 1);

	return (sb->s_blocksize - off) / sizeof(*entry);
}

/*
 * The new map blocks that entries [@entry, @entry + @n) lie in (two
 * columns next to each other in the NVRAM, at most), and the row if it
 * is new, with a direct file's new column (pram_undirect()): they go in
 * @l, to be claimed and counted with the data blocks, then linked
 * (pram_store_new_maps()). A new row's pointer is for the caller to set
 * in the inode's record.
 */
static void pram_link_new_maps(struct inode *inode, struct pram_reserve *res,
			       const __le32 *entry, unsigned int n,
			       struct pram_link *l)
{
	struct super_block *sb = inode->i_sb;
	u32 first = pram_block_of(sb, entry), b;
	u32 last = pram_block_of(sb, entry + n - 1);
	unsigned int i, j;

	l->rows = res->new_row ?: pram_row_block(inode);
	if (res->new_row) {
		l->row = res->new_row;
		l->claim[l->nclaim++] = l->row;
		res->new_row = 0;
	}
	/* A direct file's new column: already named by the row, entry 0. */
	if (res->direct_col) {
		l->claim[l->nclaim++] = res->direct_col;
		l->col_r[l->ncols] = 0;
		l->cols[l->ncols++] = res->direct_col;
		res->direct_col = 0;
	}
	for (i = 0, j = 0; i < res->new_cols; i++) {
		b = res->new_col[i].block;
		if (b < first || b > last) {
			res->new_col[j++] = res->new_col[i];
			continue;
		}
		l->claim[l->nclaim++] = b;
		l->col_r[l->ncols] = res->new_col[i].r;
		l->cols[l->ncols++] = b;
	}
	res->new_cols = j;
}

/*
 * Point the row entries at the new columns of @l, once they are claimed:
 * in a new row without the journal.
 */
static void pram_store_new_maps(struct super_block *sb,
				const struct pram_link *l)
{
	__le32 *rows = pram_block_addr(sb, l->rows);
	unsigned int i;

	for (i = 0; i < l->ncols; i++)
		pram_set_entries(sb, &rows[l->col_r[i]], &l->cols[i], 1,
				 l->row == l->rows);
}

/* Is map block @block one that @l links? */
static bool pram_link_fresh(const struct pram_link *l, u32 block)
{
	unsigned int i;

	for (i = 0; i < l->ncols; i++)
		if (l->cols[i] == block)
			return true;
	return false;
}

static int pram_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Sort @n blocks, ascending: a write's usually are already. */
static void pram_sort_blocks(u32 *blocks, unsigned int n)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (blocks[i] < blocks[i - 1])
			break;
	if (i < n)
		sort(blocks, n, sizeof(*blocks), pram_cmp_u32, NULL);
}

/* The write is over: map blocks it made and did not use go back. */
static void pram_drop_new_maps(struct super_block *sb, struct pram_reserve *res)
{
	unsigned int i;

	if (res->new_row)
		pram_unreserve_blocks(sb, &res->new_row, 1);
	if (res->direct_col)
		pram_unreserve_blocks(sb, &res->direct_col, 1);
	for (i = 0; i < res->new_cols; i++)
		pram_unreserve_blocks(sb, &res->new_col[i].block, 1);
	res->new_row = 0;
	res->direct_col = 0;
	res->new_cols = 0;
}

/* The column entry of @fblock, making the row and column blocks if needed. */
static int pram_map_column(struct inode *inode, u64 fblock,
			   struct pram_reserve *res, __le32 **entry)
{
	struct super_block *sb = inode->i_sb;
	const struct pram_geometry *g = &PRAM_SB(sb)->geo;
	u32 r, c, row = pram_current_row(inode, res), column;
	__le32 *rows;
	int err;

	err = pram_map_index(inode->i_blkbits, fblock, &r, &c);
	if (err)
		return err;
	if (!row) {
		err = pram_new_map_block(inode, res, NULL, 0, &row);
		if (err)
			return err;
	} else if (!pram_block_valid(g, row)) {
		return pram_map_corrupt(inode);
	}
	rows = pram_block_addr(sb, row);
	column = pram_current_column(rows, r, res);
	if (!column) {
		err = pram_new_map_block(inode, res, &rows[r], r, &column);
		if (err)
			return err;
	} else if (!pram_block_valid(g, column)) {
		return pram_map_corrupt(inode);
	}
	*entry = (__le32 *)pram_block_addr(sb, column) + c;
	return 0;
}

/* ---- a file of one block, named by its record (INCOMPAT_DIRECT) ---- */

/*
 * A direct file that is to hold a second block gets a row block and a
 * column first, both zeroed and filled before anything points to them:
 * the row's entry 0 names the column, whose entry 0 names the direct
 * block. Within a write (@res) they wait there to be linked with the
 * write's first entries (pram_commit_blocks()), so that a power cut
 * leaves the file as it was or with the new blocks; otherwise (inside
 * fallocate's transaction) they are linked now, and stay linked if the
 * fallocate then fails (ENOSPC), as the blocks it mapped before do.
 */
static int pram_undirect(struct inode *inode, u32 direct,
			 struct pram_reserve *res)
{
	struct super_block *sb = inode->i_sb;
	u32 row, col;
	int err;

	if (!pram_block_valid(&PRAM_SB(sb)->geo, direct))
		return pram_map_corrupt(inode);
	err = pram_take_block(sb, res, &row);
	if (err)
		return err;
	err = pram_take_block(sb, res, &col);
	if (err) {
		pram_unreserve_blocks(sb, &row, 1);
		return err;
	}
	pram_zero_block(sb, row);
	pram_zero_block(sb, col);
	pram_set_entries(sb, pram_block_addr(sb, row), &col, 1, true);
	pram_set_entries(sb, pram_block_addr(sb, col), &direct, 1, true);
	if (res) {
		res->new_row = row;
		res->direct_col = col;
	} else {
		pram_link_row(inode, row, col);
	}
	return 0;
}

/*
 * The slot of file block @fblock when the file has a direct block, or
 * may get one: that block, or a fresh one for a write that stays inside
 * block 0 of a file without blocks (@res->direct). Any other block of a
 * direct file needs its map first (pram_undirect()).
 * Return: 0 with @slot filled, 1 when the map gives the slot, or a
 * negative errno.
 */
static int pram_direct_slot(struct inode *inode, u64 fblock,
			    struct pram_reserve *res, struct pram_slot *slot)
{
	u32 direct = pram_direct_block(inode);
	int err;

	/* Its map is made, to be linked by the write: block 0 is there. */
	if (direct && res && res->new_row)
		return 1;
	if (direct && fblock) {
		err = pram_undirect(inode, direct, res);
		return err ?: 1;
	}
	if (direct) {
		if (!pram_block_valid(&PRAM_SB(inode->i_sb)->geo, direct))
			return pram_map_corrupt(inode);
		*slot = (struct pram_slot){ .block = direct };
		return 0;
	}
	if (fblock || !res || !res->direct || pram_current_row(inode, res))
		return 1;
	*slot = (struct pram_slot){ .fresh = true };
	return pram_take_block(inode->i_sb, res, &slot->block);
}

/*
 * Name a written fresh block as the file's direct block, in one
 * transaction with the block count, size (up to @end) and times.
 */
static void pram_commit_direct(struct inode *inode, u32 block, loff_t end)
{
	struct super_block *sb = inode->i_sb;
	struct pram_inode *pi;

	pram_tx_begin(sb);
	pram_set_incompat(sb, PRAM_FEATURE_INCOMPAT_DIRECT);
	pram_claim_blocks(sb, &block, 1);
	pram_add_blocks(inode, 1);
	if (end > i_size_read(inode))
		i_size_write(inode, end);
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	pi = pram_record_begin(sb, inode->i_ino);
	pi->i_type.reg.direct = cpu_to_le32(block);
	pram_inode_to_record(inode, pi);
	pram_record_end(sb, pi);
	pram_tx_end(sb);
}

/*
 * The block a pending entry (written, not yet in the map) will name, or 0.
 * A piece that came up short in a fresh block leaves it pending, and the
 * retry must write on into that block, not take a second one for it.
 */
static u32 pram_pending_block(const struct pram_reserve *res,
			      const __le32 *entry)
{
	if (!res || !res->pending || entry < res->entry ||
	    entry >= res->entry + res->pending)
		return 0;
	return res->written[entry - res->entry];
}

/*
 * The data block for @fblock: the mapped one (or the direct one), or a
 * fresh one that the caller fills and then maps with pram_map_commit()
 * (or, a direct block, pram_commit_direct()), or frees.
 */
static int pram_map_slot(struct inode *inode, u64 fblock,
			 struct pram_reserve *res, struct pram_slot *slot)
{
	int err = pram_direct_slot(inode, fblock, res, slot);

	if (err <= 0)
		return err;
	err = pram_map_column(inode, fblock, res, &slot->entry);
	if (err)
		return err;
	slot->block = pram_pending_block(res, slot->entry);
	if (slot->block) {
		slot->fresh = false;
		return 0;
	}
	slot->block = le32_to_cpu(*slot->entry);
	slot->fresh = !slot->block;
	if (slot->fresh)
		return pram_take_block(inode->i_sb, res, &slot->block);
	if (!pram_block_valid(&PRAM_SB(inode->i_sb)->geo, slot->block))
		return pram_map_corrupt(inode);
	return 0;
}

/*
 * Map @n written blocks from column entry @entry on, in one transaction:
 * all the blocks claimed first, the new map blocks they need linked, the
 * entries set, and the inode's block count, size (up to @end, when that
 * is past it) and times in one write of its record. A power cut leaves
 * the file as it was or with all of them.
 */
static void pram_commit_blocks(struct inode *inode, struct pram_reserve *res,
			       __le32 *entry, const u32 *blocks, unsigned int n,
			       loff_t end)
{
	struct super_block *sb = inode->i_sb;
	struct pram_link l = { };
	struct pram_inode *pi;
	unsigned int i, piece;

	pram_tx_begin(sb);
	if (res)
		pram_link_new_maps(inode, res, entry, n, &l);
	memcpy(l.claim + l.nclaim, blocks, n * sizeof(*blocks));
	l.nclaim += n;
	pram_sort_blocks(l.claim, l.nclaim);
	pram_claim_blocks(sb, l.claim, l.nclaim);
	pram_add_blocks(inode, l.nclaim);
	pram_store_new_maps(sb, &l);
	/* The entries may run into the next column, next in the NVRAM. */
	for (i = 0; i < n; i += piece) {
		piece = min(n - i, pram_entries_left(sb, entry + i));
		pram_set_entries(sb, entry + i, blocks + i, piece,
				 pram_link_fresh(&l, pram_block_of(sb, entry + i)));
	}
	if (end > i_size_read(inode))
		i_size_write(inode, end);
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	/*
	 * A write into a map that has its row: the size, count and times
	 * alone, one line. Not fallocate's blocks (@res NULL), many in one
	 * transaction: the record logged whole once is fewer lines.
	 */
	if (l.row || !res) {
		pi = pram_record_begin(sb, inode->i_ino);
		if (l.row)
			pram_record_row(pi, l.row);
		pram_inode_to_record(inode, pi);
	} else {
		pi = pram_record_begin_sizes(sb, inode->i_ino);
		pram_inode_sizes_to_record(inode, pi);
	}
	pram_record_end(sb, pi);
	pram_tx_end(sb);
}

static void pram_map_commit(struct inode *inode, struct pram_slot *slot)
{
	pram_commit_blocks(inode, NULL, slot->entry, &slot->block, 1, 0);
}

/* Point the pending column entries at their written blocks. */
static void pram_commit_pending(struct inode *inode, struct pram_reserve *res)
{
	if (!res->pending)
		return;
	pram_commit_blocks(inode, res, res->entry, res->written, res->pending,
			   res->end);
	res->pending = 0;
	res->recorded = res->end;
}

/* Map a written fresh block now, or with the entries next to it. */
static void pram_map_commit_later(struct inode *inode, struct pram_slot *slot,
				  struct pram_reserve *res)
{
	/* A direct block is committed by pram_fill_block(), never here. */
	if (WARN_ON_ONCE(!slot->entry)) {
		pram_unreserve_blocks(inode->i_sb, &slot->block, 1);
		return;
	}
	if (res->pending && (slot->entry != res->entry + res->pending ||
			     res->pending == PRAM_RESERVE))
		pram_commit_pending(inode, res);
	if (!res->pending)
		res->entry = slot->entry;
	res->written[res->pending++] = slot->block;
}

/* ---- read and write ---- */

/* Copy up to @len bytes from @from into file block @fblock at @off. */
/* Copy into @slot's block at @off; a fresh block is zeroed around it. */
static size_t pram_fill_block(struct inode *inode, struct pram_slot *slot,
			      u32 off, size_t len, struct iov_iter *from,
			      struct pram_reserve *res)
{
	struct super_block *sb = inode->i_sb;
	void *addr = pram_block_addr(sb, slot->block), *w;
	u32 bs = sb->s_blocksize;
	size_t done;

	if (!slot->fresh) {
		w = pram_wp_open(sb, addr + off, len);
		done = pram_copy_in(w, len, from);
		pram_wp_close_flushed(sb, w, len);
		return done;
	}
	/* A fresh block is whole before the map points to it. */
	w = pram_wp_open(sb, addr, bs);
	pram_zero(w, off);
	done = pram_copy_in(w + off, len, from);
	pram_zero(w + off + done, bs - off - done);
	pram_wp_close_flushed(sb, w, bs);
	if (!done) {
		pram_unreserve_blocks(sb, &slot->block, 1);
	} else if (!slot->entry) {
		/* A direct block: file block 0, so the write ends at off + done. */
		pram_commit_direct(inode, slot->block, off + done);
		res->recorded = off + done;
	} else {
		pram_map_commit_later(inode, slot, res);
	}
	return done;
}

/*
 * Whole fresh blocks that lie next to each other in the NVRAM are filled
 * through one window, @n of them from @slot.
 */
static size_t pram_fill_run(struct inode *inode, struct pram_slot *slot,
			    unsigned int n, struct iov_iter *from,
			    struct pram_reserve *res)
{
	struct super_block *sb = inode->i_sb;
	size_t len = (size_t)n << sb->s_blocksize_bits, done;
	unsigned int i;
	void *w;

	w = pram_wp_open(sb, pram_block_addr(sb, slot[0].block), len);
	done = pram_copy_in(w, len, from);
	pram_zero(w + done, len - done);
	pram_wp_close_flushed(sb, w, len);
	for (i = 0; i < n; i++) {
		if ((size_t)i << sb->s_blocksize_bits < done)
			pram_map_commit_later(inode, &slot[i], res);
		else
			pram_unreserve_blocks(sb, &slot[i].block, 1);
	}
	return done;
}

/*
 * Write up to @max whole blocks from file block @fblock: the leading
 * fresh blocks that are contiguous in the NVRAM through one window, then
 * the block that ended the run, if any, on its own.
 * Return: bytes written, or a negative errno if none were.
 */
static ssize_t pram_write_run(struct inode *inode, u64 fblock,
			      unsigned int max, struct iov_iter *from,
			      struct pram_reserve *res)
{
	struct pram_slot slot[PRAM_RUN];
	unsigned int n, run;
	size_t bs = i_blocksize(inode), done = 0;
	int err = 0;

	for (n = 0, run = 0; n < max; n++) {
		err = pram_map_slot(inode, fblock + n, res, &slot[n]);
		if (err)
			break;
		if (!slot[n].fresh || slot[n].block != slot[0].block + n) {
			n++;
			break;
		}
		run++;
	}
	if (run)
		done = pram_fill_run(inode, slot, run, from, res);
	if (n > run) {
		if (done < (size_t)run * bs) {
			if (slot[run].fresh)
				pram_unreserve_blocks(inode->i_sb,
						      &slot[run].block, 1);
		} else {
			done += pram_fill_block(inode, &slot[run], 0, bs, from,
						res);
		}
	}
	return done ?: err;
}

/*
 * The next piece of a write at @pos: up to PRAM_RUN whole blocks from
 * a block boundary (pram_write_run()), else the rest of the block.
 * Return: bytes written, 0 when a user page was not there, or a
 * negative errno.
 */
static ssize_t pram_write_piece(struct inode *inode, loff_t pos,
				struct iov_iter *from, struct pram_reserve *res)
{
	u32 bs = i_blocksize(inode);
	size_t len = min_t(size_t, iov_iter_count(from), bs - (pos & (bs - 1)));
	struct pram_slot slot;
	int err;

	if (!(pos & (bs - 1)) && iov_iter_count(from) >= 2 * bs) {
		len = min_t(size_t, iov_iter_count(from) / bs, PRAM_RUN);
		return pram_write_run(inode, pos >> inode->i_blkbits, len, from,
				      res);
	}
	err = pram_map_slot(inode, pos >> inode->i_blkbits, res, &slot);
	if (err)
		return err;
	return pram_fill_block(inode, &slot, pos & (bs - 1), len, from, res);
}

/*
 * Return: bytes written, or a negative errno if none were. The user pages
 * of each piece are faulted in before its window opens (pram_copy_in()
 * copies with faults off); a piece that comes up short is retried from
 * where it stopped, and -EFAULT ends the write only when no byte of the
 * rest can be faulted in. *@recorded says whether the inode's record
 * holds its size, block count and times as the write left them: the
 * last piece committed new blocks.
 */
static ssize_t pram_write_blocks(struct inode *inode, loff_t pos,
				 struct iov_iter *from, bool *recorded)
{
	struct pram_reserve res = { .recorded = -1 };
	ssize_t written = 0, done = 0;
	size_t len;
	u64 first, last;

	/* Data blocks, and a column block per bs / 4 of them. */
	res.want = pram_block_range(inode->i_blkbits, pos, iov_iter_count(from),
				    &first, &last);
	res.want += res.want / pram_map_entries(inode->i_blkbits) + 1;
	/* A write inside block 0 of a file without blocks: no map. */
	res.direct = pos + iov_iter_count(from) <= i_blocksize(inode) &&
		     !READ_ONCE(PRAM_SB(inode->i_sb)->opts.nodirect) &&
		     !pram_row_block(inode);
	while (iov_iter_count(from)) {
		len = min_t(size_t, iov_iter_count(from),
			    PRAM_RUN * i_blocksize(inode));
		if (fault_in_iov_iter_readable(from, len) == len) {
			done = -EFAULT;
			break;
		}
		if (fatal_signal_pending(current)) {
			done = -EINTR;
			break;
		}
		done = pram_write_piece(inode, pos, from, &res);
		if (done < 0)
			break;
		pos += done;
		res.end = pos;
		written += done;
		cond_resched();
	}
	pram_commit_pending(inode, &res);
	pram_drop_new_maps(inode->i_sb, &res);
	pram_reserve_release(inode->i_sb, &res);
	*recorded = written > 0 && res.recorded == pos;
	return written ?: done;
}

static ssize_t pram_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct inode *inode = file_inode(file);
	bool recorded = false;
	blkcnt_t blocks;
	ssize_t ret;

	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (!inode_trylock(inode))
			return -EAGAIN;
	} else {
		inode_lock(inode);
	}
	/* A file opened for writing before errors=remount-ro struck. */
	ret = -EROFS;
	if (sb_rdonly(inode->i_sb))
		goto unlock_inode;
	ret = generic_write_checks(iocb, from);
	if (ret <= 0)
		goto unlock_inode;
	ret = file_remove_privs(file);
	if (ret)
		goto unlock_inode;
	blocks = inode->i_blocks;
	ret = pram_write_blocks(inode, iocb->ki_pos, from, &recorded);
	if (ret > 0) {
		pram_mmap_written(inode, iocb->ki_pos, ret,
				  inode->i_blocks != blocks);
		iocb->ki_pos += ret;
		if (iocb->ki_pos > i_size_read(inode))
			i_size_write(inode, iocb->ki_pos);
		if (!recorded)
			inode_set_mtime_to_ts(inode,
					      inode_set_ctime_current(inode));
	}
	/* Size, times and blocks (taken even by a failed write) at once. */
	if (!recorded)
		pram_update_inode(inode);
unlock_inode:
	inode_unlock(inode);
	return ret;
}

/*
 * Return: bytes read, or a negative errno if none were. Each pass copies
 * a run of blocks that lie together (or zeroes a run of holes).
 */
static ssize_t pram_read_blocks(struct inode *inode, loff_t pos,
				struct iov_iter *to)
{
	struct super_block *sb = inode->i_sb;
	struct pram_sb_info *sbi = PRAM_SB(sb);
	loff_t size = i_size_read(inode);
	const struct pram_inode *pi = pram_get_inode(sb, inode->i_ino);
	u32 bits = sb->s_blocksize_bits, off;
	ssize_t read = 0;
	size_t len, done;
	u64 run, want;
	long block;

	while (pos < size && iov_iter_count(to)) {
		off = pos & (sb->s_blocksize - 1);
		len = min_t(loff_t, iov_iter_count(to), size - pos);
		want = pram_blocks_for_size(bits, off + len);
		block = pram_file_run(&sbi->geo, sbi->virt_addr, pi,
				      pos >> bits, want, &run);
		if (block < 0) {
			block = pram_map_corrupt(inode);
			return read ?: block;
		}
		len = min_t(u64, len, (run << bits) - off);
		if (block)
			done = _copy_mc_to_iter(pram_block_addr(sb, block) +
						off, len, to);
		else
			done = iov_iter_zero(len, to);
		pos += done;
		read += done;
		if (done < len)
			return read ?: -EFAULT;
		cond_resched();
	}
	return read;
}

static ssize_t pram_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	ssize_t ret;

	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (!inode_trylock_shared(inode))
			return -EAGAIN;
	} else {
		inode_lock_shared(inode);
	}
	ret = pram_read_blocks(inode, iocb->ki_pos, to);
	if (ret > 0)
		iocb->ki_pos += ret;
	inode_unlock_shared(inode);
	file_accessed(iocb->ki_filp);
	return ret;
}

/* ---- seeking: SEEK_DATA and SEEK_HOLE from the block map ---- */

static loff_t pram_seek_data_hole(struct inode *inode, loff_t offset,
				  int whence)
{
	struct pram_sb_info *sbi = PRAM_SB(inode->i_sb);
	u32 bits = inode->i_blkbits;
	loff_t size = i_size_read(inode);
	u64 end = pram_blocks_for_size(bits, size);
	s64 f;

	if (offset < 0 || offset >= size)
		return -ENXIO;
	f = pram_file_seek(&sbi->geo, sbi->virt_addr,
			   pram_get_inode(inode->i_sb, inode->i_ino),
			   offset >> bits, end, whence == SEEK_DATA);
	if (f < 0)
		return pram_map_corrupt(inode);
	if (f == end)
		return whence == SEEK_DATA ? -ENXIO : size;
	return max_t(loff_t, offset, f << bits);
}

static loff_t pram_file_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file_inode(file);

	if (whence != SEEK_DATA && whence != SEEK_HOLE)
		return generic_file_llseek(file, offset, whence);
	inode_lock_shared(inode);
	offset = pram_seek_data_hole(inode, offset, whence);
	inode_unlock_shared(inode);
	if (offset < 0)
		return offset;
	return vfs_setpos(file, offset, inode->i_sb->s_maxbytes);
}

/* ---- truncate and fallocate ---- */

static bool pram_entries_zero(const __le32 *map, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (map[i])
			return false;
	return true;
}

/*
 * Clear entries [@start, @end) of @map, 16 at a time: each piece clears
 * the entries, frees the blocks they named and counts them out of the
 * inode, in a transaction of its own or, inside pram_tx_begin_parts()
 * work, after a checkpoint: a power cut between two leaves a file whose
 * map and block count agree.
 */
static void pram_clear_entries(struct inode *inode, __le32 *map, u32 start,
			       u32 end)
{
	struct super_block *sb = inode->i_sb;
	u32 taken[16], i, j, n;
	size_t len;
	void *w;

	for (; start < end; start = j) {
		j = min_t(u32, end, start + ARRAY_SIZE(taken));
		for (n = 0, i = start; i < j; i++)
			if (map[i])
				taken[n++] = le32_to_cpu(map[i]);
		if (!n)
			continue;
		len = (j - start) * sizeof(*map);
		pram_tx_checkpoint(sb);
		pram_tx_begin(sb);
		pram_tx_log(sb, map + start, len);
		w = pram_wp_open(sb, map + start, len);
		memset(w, 0, len);
		pram_wp_close(sb, w, len);
		pram_free_blocks(sb, taken, n);
		pram_add_blocks(inode, -(long)n);
		pram_update_inode(inode);
		pram_tx_end(sb);
	}
}

/*
 * The row block (a symlink's block, a direct block) goes, with the
 * inode's pointer to it, in one transaction.
 */
static void pram_free_row(struct inode *inode, u32 row)
{
	struct super_block *sb = inode->i_sb;

	pram_tx_begin(sb);
	pram_set_row_block(inode, 0);
	pram_free_blocks(sb, &row, 1);
	pram_add_blocks(inode, -1);
	pram_update_inode(inode);
	pram_tx_end(sb);
}

/*
 * The most bitmap bytes one step of a truncate logs for a whole column
 * (pram_free_column()): 65,536 blocks' bits, 187 journal lines of the
 * 255 (the whole journal holds 11 KiB). A file written in order has its
 * column's blocks in a few words; one written at random across more
 * than 256 MiB of 4 KiB blocks goes in pieces of 16 entries.
 */
#define PRAM_FREE_SPAN	8192

/*
 * The column named by entry @r of the row block @rows, and every block
 * it names, in one step: the row's entry is cleared, their bits in one
 * window (pram_free_map()), and the block count. Return: false when
 * their bits lie too far apart for a step, or the journal has no room
 * for it and cannot commit here; the caller then frees them in pieces.
 */
static bool pram_free_column(struct inode *inode, __le32 *rows, u32 r,
			     u32 column)
{
	struct super_block *sb = inode->i_sb;
	u32 entries = pram_map_entries(inode->i_blkbits), first, len, n;
	__le32 *w;

	len = pram_bitmap_span(&PRAM_SB(sb)->geo, pram_block_addr(sb, column),
			       entries, column, &first);
	if (len > PRAM_FREE_SPAN ||
	    !pram_tx_checkpoint_for(sb, DIV_ROUND_UP(len, PRAM_JOURNAL_DATA) +
				    1 + PRAM_INODE_LOGGED / PRAM_JOURNAL_DATA))
		return false;
	pram_tx_begin(sb);
	pram_tx_log(sb, rows + r, sizeof(*rows));
	w = pram_wp_open(sb, rows + r, sizeof(*rows));
	*w = 0;
	pram_wp_close(sb, w, sizeof(*rows));
	n = pram_free_map(sb, column, entries, first, len);
	pram_add_blocks(inode, -(long)n);
	pram_update_inode(inode);
	pram_tx_end(sb);
	return true;
}

/*
 * Free every data block at or past @from, and the map blocks left empty;
 * a direct block when @from is 0. A column that goes whole goes in one
 * step (pram_free_column()), a part of one in pieces of 16 entries.
 */
static void pram_truncate_blocks(struct inode *inode, u64 from)
{
	struct super_block *sb = inode->i_sb;
	const struct pram_geometry *g = &PRAM_SB(sb)->geo;
	u32 entries = pram_map_entries(inode->i_blkbits);
	u32 row = pram_row_block(inode), r, c0, column;
	u32 direct = pram_direct_block(inode);
	__le32 *rows, *cols;

	if (direct && !from && pram_block_valid(g, direct))
		pram_free_row(inode, direct);
	else if (direct && !from)
		pram_map_corrupt(inode);
	if (!row || from >= (u64)entries * entries)
		return;
	if (!pram_block_valid(g, row)) {
		pram_map_corrupt(inode);
		return;
	}
	rows = pram_block_addr(sb, row);
	for (r = from / entries; r < entries; r++) {
		column = le32_to_cpu(rows[r]);
		if (!column)
			continue;
		if (!pram_block_valid(g, column)) {
			pram_map_corrupt(inode);
			continue;
		}
		cols = pram_block_addr(sb, column);
		c0 = r == from / entries ? from % entries : 0;
		if (c0 || !pram_free_column(inode, rows, r, column)) {
			pram_clear_entries(inode, cols, c0, entries);
			if (pram_entries_zero(cols, c0))
				pram_clear_entries(inode, rows, r, r + 1);
		}
		cond_resched();
	}
	if (pram_entries_zero(rows, entries))
		pram_free_row(inode, row);
}

/* Zero the last block past @size, so that a later extension reads zeros. */
static int pram_zero_tail(struct inode *inode, loff_t size)
{
	struct super_block *sb = inode->i_sb;
	u32 off = size & (sb->s_blocksize - 1);
	long block;

	if (!off)
		return 0;
	block = pram_data_block(inode, size >> sb->s_blocksize_bits);
	if (block <= 0)
		return block;
	pram_zero_range(sb, pram_block_addr(sb, block) + off,
			sb->s_blocksize - off);
	return 0;
}

static void pram_set_size_now(struct inode *inode, loff_t size)
{
	i_size_write(inode, size);
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	pram_update_inode(inode);
}

/* PRAM_INODE_TRUNCATE: a truncate is under way (with the journal only). */
static void pram_set_truncating(struct inode *inode, bool on)
{
	struct super_block *sb = inode->i_sb;
	struct pram_inode *pi;

	if (!PRAM_SB(sb)->geo.journal_blocks)
		return;
	pi = pram_record_begin_part(sb, inode->i_ino,
				    offsetof(struct pram_inode, i_flags),
				    sizeof(pi->i_flags));
	if (on)
		pi->i_flags |= cpu_to_le32(PRAM_INODE_TRUNCATE);
	else
		pi->i_flags &= ~cpu_to_le32(PRAM_INODE_TRUNCATE);
	pram_record_end(sb, pi);
}

/*
 * What follows the new size of a truncate: see pram_shrink(). Under the
 * mark, the blocks go as work in parts (pram_tx_begin_parts()).
 */
static void pram_truncate_tail(struct inode *inode, loff_t size)
{
	struct super_block *sb = inode->i_sb;

	pram_zero_tail(inode, size);
	pram_tx_begin_parts(sb);
	pram_truncate_blocks(inode, pram_blocks_for_size(inode->i_blkbits, size));
	pram_set_truncating(inode, false);
	pram_tx_end(sb);
}

/**
 * pram_finish_truncate() - finish a truncate that a power cut stopped
 * @inode: a regular file whose record has PRAM_INODE_TRUNCATE
 */
void pram_finish_truncate(struct inode *inode)
{
	pram_truncate_tail(inode, i_size_read(inode));
}

/*
 * Shrinking: the size goes first, in the transaction that marks the
 * inode PRAM_INODE_TRUNCATE; then the mappings of the pages past it
 * (private copies too); then the tail of the last block is zeroed (no
 * longer in the file, so a cut cannot show it zeroed under the old
 * size) and the blocks go, each piece a transaction; the mark goes last.
 * A power cut after the first transaction leaves the mark, and the next
 * mount finishes the truncate. invalidate_lock keeps a page fault from
 * mapping a block between its lookup and the unmap, so a freed block is
 * never reachable through a mapping.
 */
static int pram_shrink(struct inode *inode, loff_t size)
{
	struct address_space *mapping = inode->i_mapping;
	u32 bits = inode->i_blkbits;
	long block = 0;

	filemap_invalidate_lock(mapping);
	/* A bad map refuses the truncate before anything changes. */
	if (size & ((1 << bits) - 1))
		block = pram_data_block(inode, size >> bits);
	if (block >= 0) {
		pram_tx_begin(inode->i_sb);
		pram_set_size_now(inode, size);
		pram_set_truncating(inode, true);
		pram_tx_end(inode->i_sb);
		truncate_pagecache(inode, size);
		pram_truncate_tail(inode, size);
	}
	filemap_invalidate_unlock(mapping);
	return block < 0 ? block : 0;
}

static int pram_setsize(struct inode *inode, loff_t size)
{
	if (size < i_size_read(inode))
		return pram_shrink(inode, size);
	pram_set_size_now(inode, size);
	return 0;
}

/* Blocks a deleted file may have, map blocks included, to go in one step. */
#define PRAM_FREE_STEP	16

/*
 * The block the first used entry of @map[*@i, @n) names, or 0 when
 * there is none; *@i moves past that entry.
 */
static u32 pram_next_entry(const __le32 *map, u32 n, u32 *i)
{
	/* The first nonzero byte lies in the entry to take. */
	const void *byte = memchr_inv(map + *i, 0, (n - *i) * sizeof(*map));

	if (!byte) {
		*i = n;
		return 0;
	}
	*i = (byte - (const void *)map) / sizeof(*map) + 1;
	return le32_to_cpu(map[*i - 1]);
}

/*
 * Every block of a small deleted file, its map blocks included, in one
 * step: their bits are cleared; the record, which still names them, is
 * cleared by the caller before the step commits. The map blocks keep
 * their stale entries: they are free, and a map block is zeroed when it
 * is taken again. Each column is read as the row names it, and the
 * reading stops at the file's block count: a small file's entries are
 * usually the first of their blocks (a record whose count is too low,
 * which the checks at iget let by, leaves the blocks past it taken, for
 * fsck.pramfs to give back). Return: false when the file has
 * more blocks than a step frees, or a map block out of range; the caller
 * then frees them piece by piece.
 */
static bool pram_free_small_map(struct inode *inode, u32 row)
{
	struct super_block *sb = inode->i_sb;
	const struct pram_geometry *g = &PRAM_SB(sb)->geo;
	u32 entries = pram_map_entries(inode->i_blkbits), blocks[PRAM_FREE_STEP];
	unsigned int want = inode->i_blocks >> (inode->i_blkbits - 9), n = 1;
	u32 r = 0, c, column, data;
	const __le32 *map;

	if (want > PRAM_FREE_STEP || !pram_block_valid(g, row))
		return false;
	blocks[0] = row;
	map = pram_block_addr(sb, row);
	while (n < want && (column = pram_next_entry(map, entries, &r))) {
		if (!pram_block_valid(g, column))
			return false;
		blocks[n++] = column;
		c = 0;
		while (n < want &&
		       (data = pram_next_entry(pram_block_addr(sb, column),
					       entries, &c)))
			blocks[n++] = data;
	}
	pram_sort_blocks(blocks, n);
	pram_tx_checkpoint(sb);
	pram_free_blocks(sb, blocks, n);
	inode->i_blocks = 0;
	return true;
}

/* A direct file's block, in one step as pram_free_small_map()'s. */
static void pram_free_direct(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	u32 block = pram_direct_block(inode);

	if (!pram_block_valid(&PRAM_SB(sb)->geo, block)) {
		pram_truncate_blocks(inode, 0);
		return;
	}
	pram_tx_checkpoint(sb);
	pram_free_blocks(sb, &block, 1);
	inode->i_blocks = 0;
}

/**
 * pram_free_data() - give back every block of an inode being deleted
 * @inode: the inode; nothing else refers to it
 *
 * A small file's in one step (pram_free_small_map()), with the record
 * left naming them: the caller frees the inode (pram_free_ino()) in the
 * same step. A larger one's in pieces that leave map and block count
 * agreeing, inside the caller's pram_tx_begin_parts() work: a power cut
 * in between leaves a deleted inode with fewer blocks, which the next
 * mount frees (pram_finish_orphans()).
 */
void pram_free_data(struct inode *inode)
{
	u32 block;

	if (S_ISREG(inode->i_mode)) {
		block = pram_row_block(inode);
		if (pram_direct_block(inode))
			pram_free_direct(inode);
		else if (block && !pram_free_small_map(inode, block))
			pram_truncate_blocks(inode, 0);
	} else if (S_ISLNK(inode->i_mode)) {
		block = pram_row_block(inode);
		if (block)
			pram_free_row(inode, block);
	}
}

/**
 * pram_setattr() - change attributes, the size of a regular file included
 * @idmap: the mount's idmap
 * @dentry: the dentry
 * @attr: the changes
 *
 * Return: 0 or a negative errno.
 */
int pram_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int err;

	/* ftruncate() through an open file does not check the superblock. */
	if (sb_rdonly(inode->i_sb))
		return -EROFS;
	err = setattr_prepare(idmap, dentry, attr);
	if (err)
		return err;
	if ((attr->ia_valid & ATTR_SIZE) && attr->ia_size != i_size_read(inode)) {
		err = pram_setsize(inode, attr->ia_size);
		if (err)
			return err;
	}
	/* A new mode and the ACL mask it rewrites: one transaction. */
	pram_tx_begin(inode->i_sb);
	setattr_copy(idmap, inode, attr);
	if ((attr->ia_valid & ATTR_MODE) && !S_ISLNK(inode->i_mode))
		err = posix_acl_chmod(idmap, dentry, inode->i_mode);
	/* As ext4: the mode stays even if the ACL could not follow. */
	if (!pram_record_holds(inode))
		pram_update_inode(inode);
	pram_tx_end(inode->i_sb);
	return err;
}

/* Map a zeroed block at @fblock unless one is there. */
static int pram_alloc_zeroed(struct inode *inode, u64 fblock)
{
	struct pram_slot slot;
	int err;

	err = pram_map_slot(inode, fblock, NULL, &slot);
	if (err || !slot.fresh)
		return err;
	pram_zero_block(inode->i_sb, slot.block);
	pram_map_commit(inode, &slot);
	return 0;
}

static long pram_fallocate(struct file *file, int mode, loff_t offset,
			   loff_t len)
{
	struct inode *inode = file_inode(file);
	u64 fblock, last;
	blkcnt_t blocks;
	bool grow;
	long err;

	if (mode & ~FALLOC_FL_KEEP_SIZE)
		return -EOPNOTSUPP;
	if (sb_rdonly(inode->i_sb))
		return -EROFS;
	inode_lock(inode);
	grow = !(mode & FALLOC_FL_KEEP_SIZE) && offset + len > i_size_read(inode);
	err = grow ? inode_newsize_ok(inode, offset + len) : 0;
	if (!err)
		err = file_remove_privs(file);
	if (err)
		goto unlock_inode;
	blocks = inode->i_blocks;
	pram_block_range(inode->i_blkbits, offset, len, &fblock, &last);
	/* One transaction, as far as the journal holds (tx.c). */
	pram_tx_begin(inode->i_sb);
	for (; fblock <= last && !err; fblock++)
		err = pram_alloc_zeroed(inode, fblock);
	if (!err && grow) {
		i_size_write(inode, offset + len);
		inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	} else {
		inode_set_ctime_current(inode);
	}
	pram_update_inode(inode);
	pram_tx_end(inode->i_sb);
	/* Outside the transaction: a truncate takes invalidate_lock first. */
	if (inode->i_blocks != blocks)
		pram_mmap_written(inode, offset, len, true);
unlock_inode:
	inode_unlock(inode);
	return err;
}

/* Every open is direct I/O, and says so in fcntl(F_GETFL), as the seed did. */
static int pram_file_open(struct inode *inode, struct file *file)
{
	file->f_flags |= O_DIRECT;
	file->f_mode |= FMODE_CAN_ODIRECT;
	return generic_file_open(inode, file);
}

const struct file_operations pram_file_operations = {
	.llseek		= pram_file_llseek,
	.read_iter	= pram_read_iter,
	.write_iter	= pram_write_iter,
	.mmap		= pram_file_mmap,
	.open		= pram_file_open,
	.fsync		= noop_fsync,	/* every write is durable on return */
	.splice_read	= copy_splice_read,
	.splice_write	= iter_file_splice_write,
	.fallocate	= pram_fallocate,
};

const struct inode_operations pram_file_inode_operations = {
	.setattr	= pram_setattr,
	.listxattr	= pram_listxattr,
	.get_inode_acl	= pram_get_inode_acl,
	.set_acl	= pram_set_acl,
};
