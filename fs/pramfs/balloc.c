// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS allocation glue: takes s_lock, opens the write windows around
 * the pure allocators of alloc.c, and keeps the free counts and search
 * hints with them.
 *
 * The bitmap and the inode table are the truth: the free counts and the
 * search hints live in memory and are written to the superblock by
 * sync_fs (at unmount, remount read-only and sync(2)), so that an
 * allocation writes one bitmap word or one inode, not the superblock
 * pair. At mount they are advisory: the free blocks are counted from the
 * bitmap every time (a word at a time, cheap), the free inodes are taken
 * from the superblock only after a clean unmount (the inode table is
 * counted otherwise), and a hint out of range starts at the beginning.
 * A count found wrong later (at an edge: none free while it says some,
 * or the reverse) is counted again, so it never wraps.
 *
 * A write takes its data blocks in two steps: reserved first (in memory
 * only: a bit in sbi->reserved, which the search skips), filled, then
 * claimed in the transaction that maps them, so a power cut before that
 * leaves no block taken that nothing holds. pram_new_blocks() does both
 * at once, for a caller that links the blocks in its own transaction.
 *
 * Blocks freed inside a transaction are held the same way until it
 * commits (pram_release_freed(): their bits in sbi->reserved; the first
 * 16 listed in sbi->held_first, the others marked in sbi->held, a second
 * bitmap): until then a power cut undoes
 * the free, and the file, or the deleted file the next mount frees
 * again, points to them once more. A write that took one in that window
 * would store its bytes where the restored map, or the restored file,
 * reads.
 */
#include "pramfs.h"

/* What one pram_tx_log() of a large span saves: 93 whole journal lines. */
#define PRAM_FREE_LOG_PIECE	rounddown(PRAM_TX_MAX_RANGE, PRAM_JOURNAL_DATA)

static void *pram_bitmap(struct super_block *sb)
{
	return pram_block_addr(sb, PRAM_SB(sb)->geo.bitmap_start);
}

/* The bitmap word holding bit @block: the only bytes a change touches. */
static void *pram_bitmap_word(struct super_block *sb, u32 block)
{
	return pram_bitmap(sb) + (block / BITS_PER_LONG) * sizeof(long);
}

/* Set the bits of @n blocks in ascending order, a window per bitmap word. */
static void pram_bitmap_take(struct super_block *sb, const u32 *blocks,
			     unsigned int n)
{
	void *word = NULL, *w = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (pram_bitmap_word(sb, blocks[i]) != word) {
			if (w)
				pram_wp_close(sb, w, sizeof(long));
			word = pram_bitmap_word(sb, blocks[i]);
			pram_tx_log(sb, word, sizeof(long));
			w = pram_wp_open(sb, word, sizeof(long));
		}
		__set_bit_le(blocks[i] % BITS_PER_LONG, w);
	}
	if (w)
		pram_wp_close(sb, w, sizeof(long));
}

/*
 * A free block from @hint on that is neither reserved by a write nor
 * held by an open transaction, under s_lock. The search skips a run of
 * those at a time, and gives up after one lap: on a full filesystem
 * whose only free blocks are held, each run is skipped once.
 */
static int pram_find_unreserved(struct super_block *sb, u32 hint, u32 *block)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	u32 start = pram_block_hint(&sbi->geo, hint), last = start - 1;
	unsigned long tries = sbi->nreserved + 1;
	unsigned int wraps = 0;
	int err;

	do {
		err = pram_bitmap_find_free(pram_bitmap(sb), &sbi->geo, hint, block);
		if (err || !test_bit(*block, sbi->reserved))
			return err;
		/* Round past the end: at or below the last block found. */
		if (*block <= last)
			wraps++;
		if (wraps > 1 || (wraps && *block >= start))
			return -ENOSPC;
		last = *block;
		hint = pram_block_hint(&sbi->geo,
				       find_next_zero_bit(sbi->reserved,
							  sbi->geo.blocks_count,
							  *block));
	} while (--tries);
	return -ENOSPC;
}

/* Up to @n free blocks in ascending order, reserved; under s_lock. */
static int pram_reserve_locked(struct super_block *sb, u32 *blocks,
			       unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	unsigned int got = 0;

	while (got < n && !pram_find_unreserved(sb, got ? blocks[got - 1] + 1 :
						 sbi->block_hint, &blocks[got])) {
		/* Wrapped round: stop here, the order must rise. */
		if (got && blocks[got] <= blocks[got - 1])
			break;
		__set_bit(blocks[got], sbi->reserved);
		got++;
	}
	if (got) {
		sbi->nreserved += got;
		sbi->free_blocks -= min_t(u32, got, sbi->free_blocks);
		sbi->block_hint = pram_block_hint(&sbi->geo, blocks[got - 1] + 1);
	}
	return got ?: -ENOSPC;
}

/**
 * pram_reserve_blocks() - hold up to @n free data blocks for a write
 * @sb: the superblock
 * @blocks: the blocks, in ascending order; their contents are whatever
 *	    was there
 * @n: how many are wanted
 *
 * Nothing is stored: end with pram_claim_blocks() in the transaction that
 * maps them, or pram_unreserve_blocks().
 *
 * Return: how many were reserved (at least one), or -ENOSPC.
 */
int pram_reserve_blocks(struct super_block *sb, u32 *blocks, unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	int got;

	mutex_lock(&sbi->s_lock);
	got = pram_reserve_locked(sb, blocks, n);
	mutex_unlock(&sbi->s_lock);
	return got;
}

static void pram_drop_reserved(struct super_block *sb, const u32 *blocks,
			       unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!WARN_ON_ONCE(!__test_and_clear_bit(blocks[i],
							sbi->reserved)))
			sbi->nreserved--;
}

/**
 * pram_claim_blocks() - take reserved blocks for good, in a transaction
 * @sb: the superblock
 * @blocks: reserved blocks, in ascending order
 * @n: how many
 */
void pram_claim_blocks(struct super_block *sb, const u32 *blocks,
		       unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	if (!n)
		return;
	pram_tx_begin(sb);
	mutex_lock(&sbi->s_lock);
	pram_bitmap_take(sb, blocks, n);
	pram_drop_reserved(sb, blocks, n);
	mutex_unlock(&sbi->s_lock);
	pram_tx_end(sb);
}

/**
 * pram_unreserve_blocks() - give back reserved blocks a write did not use
 * @sb: the superblock
 * @blocks: reserved blocks
 * @n: how many
 */
void pram_unreserve_blocks(struct super_block *sb, const u32 *blocks,
			   unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	if (!n)
		return;
	mutex_lock(&sbi->s_lock);
	pram_drop_reserved(sb, blocks, n);
	sbi->free_blocks += n;
	mutex_unlock(&sbi->s_lock);
}

/**
 * pram_new_blocks() - take up to @n free data blocks
 * @sb: the superblock
 * @blocks: the blocks taken, in ascending order; their contents are
 *	    whatever was there
 * @n: how many are wanted
 *
 * Reserved and claimed at once: the caller links them in the same
 * transaction.
 *
 * Return: how many were taken (at least one), or -ENOSPC.
 */
int pram_new_blocks(struct super_block *sb, u32 *blocks, unsigned int n)
{
	int got = pram_reserve_blocks(sb, blocks, n);

	if (got > 0)
		pram_claim_blocks(sb, blocks, got);
	return got;
}

/**
 * pram_new_block() - take a free data block
 * @sb: the superblock
 * @block: the block taken; its contents are whatever was there
 *
 * Return: 0, or -ENOSPC.
 */
int pram_new_block(struct super_block *sb, u32 *block)
{
	int got = pram_new_blocks(sb, block, 1);

	return got < 0 ? got : 0;
}

/*
 * A block whose bit was just cleared, under s_lock: free at once outside
 * a transaction, else held out of the search (its bit in sbi->reserved)
 * until the commit, and listed for the release: the first in
 * sbi->held_first, the others as bits in sbi->held.
 */
static void pram_hold_freed(struct super_block *sb, u32 block)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	unsigned long word = BIT_WORD(block);

	if (!pram_tx_active(sb)) {
		sbi->free_blocks++;
		return;
	}
	__set_bit(block, sbi->reserved);
	sbi->nreserved++;
	/* A small file's few, released one by one. */
	if (sbi->nheld < ARRAY_SIZE(sbi->held_first)) {
		sbi->held_first[sbi->nheld++] = block;
		return;
	}
	/* A large truncate's many, released a word at a time. */
	if (sbi->nheld++ == ARRAY_SIZE(sbi->held_first)) {
		sbi->held_lo = word;
		sbi->held_hi = word;
	}
	__set_bit(block, sbi->held);
	sbi->held_lo = min(sbi->held_lo, word);
	sbi->held_hi = max(sbi->held_hi, word);
}

/**
 * pram_release_freed() - the transaction committed: its freed blocks are free
 * @sb: the superblock
 *
 * Called by the transaction's task without s_lock, after the commit.
 */
void pram_release_freed(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	unsigned long i, lo, nbits;

	/* Only this task holds blocks: it reads its own count. */
	if (!sbi->nheld)
		return;
	mutex_lock(&sbi->s_lock);
	for (i = 0; i < min(sbi->nheld, ARRAY_SIZE(sbi->held_first)); i++)
		__clear_bit(sbi->held_first[i], sbi->reserved);
	if (sbi->nheld > ARRAY_SIZE(sbi->held_first)) {
		lo = sbi->held_lo;
		nbits = (sbi->held_hi - lo + 1) * BITS_PER_LONG;
		bitmap_andnot(sbi->reserved + lo, sbi->reserved + lo,
			      sbi->held + lo, nbits);
		bitmap_zero(sbi->held + lo, nbits);
	}
	sbi->nreserved -= sbi->nheld;
	sbi->free_blocks += sbi->nheld;
	sbi->nheld = 0;
	mutex_unlock(&sbi->s_lock);
}

/* Is @block a data block whose bit is set? Under s_lock. */
static bool pram_block_taken(struct super_block *sb, u32 block)
{
	return pram_block_valid(&PRAM_SB(sb)->geo, block) &&
	       test_bit_le(block, pram_bitmap(sb));
}

/*
 * Blocks a free refused (@n, the last @block): outside the data area or
 * already free, a corrupt block map. Reported once the window is shut.
 */
static void pram_report_unfreed(struct super_block *sb, u32 block, u32 n)
{
	if (n)
		pram_error(sb, 0, "freeing block %u: not an allocated data block (%u such)",
			   block, n);
}

/**
 * pram_free_blocks() - give @n data blocks back
 * @sb: the superblock
 * @blocks: the blocks; nothing may point to them any more
 * @n: how many
 *
 * A block outside the data area or already free means a corrupt block
 * map: it is logged and left alone. Inside a transaction the blocks
 * become free for others when it commits.
 */
void pram_free_blocks(struct super_block *sb, const u32 *blocks,
		      unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	void *word = NULL, *w = NULL;
	u32 bad = 0, nbad = 0;
	unsigned int i;

	if (!n)
		return;
	pram_tx_begin(sb);
	mutex_lock(&sbi->s_lock);
	for (i = 0; i < n; i++) {
		if (!pram_block_taken(sb, blocks[i])) {
			bad = blocks[i];
			nbad++;
			continue;
		}
		/* Neighbours share a word, and its window. */
		if (pram_bitmap_word(sb, blocks[i]) != word) {
			if (w)
				pram_wp_close(sb, w, sizeof(long));
			word = pram_bitmap_word(sb, blocks[i]);
			pram_tx_log(sb, word, sizeof(long));
			w = pram_wp_open(sb, word, sizeof(long));
		}
		__clear_bit_le(blocks[i] % BITS_PER_LONG, w);
		pram_hold_freed(sb, blocks[i]);
	}
	if (w)
		pram_wp_close(sb, w, sizeof(long));
	mutex_unlock(&sbi->s_lock);
	pram_report_unfreed(sb, bad, nbad);
	pram_tx_end(sb);
}

/*
 * Free @block through @w, a window onto the bitmap's @len bytes from
 * byte @first on, under s_lock. Return: false for a block the window
 * does not hold, outside the data area or already free.
 */
static bool pram_free_in_span(struct super_block *sb, void *w, u32 first,
			      u32 len, u32 block)
{
	u32 bit = block - first * BITS_PER_BYTE;

	if (!pram_block_taken(sb, block) || block < first * BITS_PER_BYTE ||
	    bit >= len * BITS_PER_BYTE)
		return false;
	__clear_bit_le(bit, w);
	pram_hold_freed(sb, block);
	return true;
}

/**
 * pram_free_map() - give back a map block and every block it names
 * @sb: the superblock
 * @map_block: the map block
 * @entries: its entries
 * @first: the first byte of the bitmap span their bits lie in
 * @len: the span's length (pram_bitmap_span())
 *
 * A large truncate's whole column in one step: the span logged (in
 * pieces of whole journal lines) and one window over it, where
 * pram_free_blocks() takes a word at a time.
 * The caller clears the entry that named @map_block in the same
 * transaction. The map block keeps its stale entries: it is free, and a
 * map block is zeroed when it is taken again. A block named twice, out
 * of the data area or the span, or already free is reported and left
 * alone.
 *
 * Return: how many blocks the file loses: the used entries and the map
 * block.
 */
u32 pram_free_map(struct super_block *sb, u32 map_block, u32 entries,
		  u32 first, u32 len)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const __le32 *map = pram_block_addr(sb, map_block);
	void *span = pram_bitmap(sb) + first, *w;
	u32 i, block, n = 1, bad = 0, nbad = 0;

	pram_tx_begin(sb);
	mutex_lock(&sbi->s_lock);
	/* Whole journal lines a piece: as many lines as the span's bytes fill. */
	for (i = 0; i < len; i += PRAM_FREE_LOG_PIECE)
		pram_tx_log(sb, span + i, min_t(u32, len - i, PRAM_FREE_LOG_PIECE));
	w = pram_wp_open(sb, span, len);
	for (i = 0; i <= entries; i++) {
		block = i < entries ? le32_to_cpu(map[i]) : map_block;
		if (!block)
			continue;
		n += i < entries;
		if (!pram_free_in_span(sb, w, first, len, block)) {
			bad = block;
			nbad++;
		}
	}
	pram_wp_close(sb, w, len);
	mutex_unlock(&sbi->s_lock);
	pram_report_unfreed(sb, bad, nbad);
	pram_tx_end(sb);
	return n;
}

/* Is the slot the open transaction holds (pram_hold_slot()) still free? */
static bool pram_held_free(struct super_block *sb)
{
	u32 held = READ_ONCE(PRAM_SB(sb)->tx.held);

	return held && !pram_get_inode(sb, held)->i_mode;
}

/*
 * Count the free inodes again, under s_lock: the count was wrong. A slot
 * the open transaction holds is taken, though it looks free; if it is
 * written meanwhile (by that transaction's task: an eviction counts
 * without the transaction lock), the count is taken again.
 */
static void pram_recount_inodes(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const void *itable = pram_get_inode(sb, PRAM_ROOT_INO);
	u32 was = sbi->free_inodes;
	bool held_free;

	do {
		held_free = pram_held_free(sb);
		sbi->free_inodes = pram_itable_count_free(itable, &sbi->geo);
		if (held_free)
			sbi->free_inodes--;
	} while (held_free != pram_held_free(sb));
	pram_warn(sb, "free inode count was %u, the inode table has %u", was,
		  sbi->free_inodes);
}

/*
 * Take a free slot of the inode table, under s_lock: not the one the
 * open transaction holds (pram_hold_slot()). Counted, the hint moved on.
 */
static int pram_take_slot(struct super_block *sb, u32 *ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const void *itable = pram_get_inode(sb, PRAM_ROOT_INO);
	u32 held = READ_ONCE(sbi->tx.held);
	int err;

	err = pram_itable_find_free(itable, &sbi->geo, sbi->inode_hint, ino);
	if (!err && held && *ino == held) {
		err = pram_itable_find_free(itable, &sbi->geo,
					    pram_ino_hint(&sbi->geo, held + 1),
					    ino);
		if (!err && *ino == held)
			err = -ENOSPC;
	}
	if (err) {
		if (sbi->free_inodes)
			pram_recount_inodes(sb);
		return err;
	}
	/* A count at 0 was wrong: counted again, *ino still among the free. */
	if (!sbi->free_inodes)
		pram_recount_inodes(sb);
	if (sbi->free_inodes)
		sbi->free_inodes--;
	sbi->inode_hint = pram_ino_hint(&sbi->geo, *ino + 1);
	return 0;
}

/* Write slot @ino's record, taken under s_lock: zeroed, then @fill. */
static void pram_fill_slot(struct super_block *sb, u32 ino,
			   pram_slot_fill_fn fill, void *arg, bool logged)
{
	struct pram_inode *pi;

	pi = logged ? pram_record_begin_named(sb, ino) :
		     pram_record_begin_new(sb, ino);
	memset(pi, 0, PRAM_INODE_SIZE);
	fill(pi, ino, arg);
	pram_record_end(sb, pi);
}

/**
 * pram_new_slot() - take a free slot of the inode table, its record made
 * @sb: the superblock
 * @fill: makes the record, zeroed, in its write window (its mode must
 *	  not be 0, so that the slot is taken); the checksum is set after
 * @arg: for @fill
 * @logged: the free slot's zeros go to the journal first; without, the
 *	    record is written but not undone by recovery, which must know
 *	    such a record for garbage when nothing holds it (name records:
 *	    pram_finish_orphans())
 * @ino: the slot's number
 *
 * Return: 0, or -ENOSPC.
 */
int pram_new_slot(struct super_block *sb, pram_slot_fill_fn fill, void *arg,
		  bool logged, u32 *ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	int err;

	pram_tx_begin(sb);
	mutex_lock(&sbi->s_lock);
	err = pram_take_slot(sb, ino);
	if (!err)
		pram_fill_slot(sb, *ino, fill, arg, logged);
	mutex_unlock(&sbi->s_lock);
	pram_tx_end(sb);
	return err;
}

/**
 * pram_hold_slot() - take a free slot for a new inode, written later
 * @sb: the superblock, in a transaction that may hold one
 *	(pram_tx_may_hold())
 * @fill: as for pram_new_slot(), if the slot must be written now
 * @arg: for @fill
 * @ino: the slot's number
 *
 * Nothing is written: the transaction holds the slot until it ends, and
 * no other takes it meanwhile (transactions exclude each other). The
 * record's first store logs the line of its zeros that holds the mode
 * (pram_tx_log_free()), as pram_new_slot()'s would; the
 * new inode's is written once, when it is linked (pram_name_set()). A
 * free slot that is not all zeros (a cut freeing it, not yet cleared by
 * a mount, or corruption) is written now, zeroed first, as by
 * pram_new_slot(): later stores change only their own fields.
 *
 * Return: 0, or -ENOSPC.
 */
int pram_hold_slot(struct super_block *sb, pram_slot_fill_fn fill, void *arg,
		   u32 *ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	int err;

	mutex_lock(&sbi->s_lock);
	err = pram_take_slot(sb, ino);
	if (!err && !pram_slot_is_clear(pram_get_inode(sb, *ino)))
		pram_fill_slot(sb, *ino, fill, arg, true);
	else if (!err)
		WRITE_ONCE(sbi->tx.held, *ino);
	mutex_unlock(&sbi->s_lock);
	return err;
}

static void pram_fill_mode(struct pram_inode *pi, u32 ino, void *arg)
{
	pi->i_mode = cpu_to_le16(*(umode_t *)arg);
}

/**
 * pram_new_ino() - take a free inode and mark it in use
 * @sb: the superblock
 * @mode: the new inode's mode, written at once so the inode is taken
 * @ino: the inode number
 *
 * Return: 0, or -ENOSPC.
 */
int pram_new_ino(struct super_block *sb, umode_t mode, u32 *ino)
{
	return pram_new_slot(sb, pram_fill_mode, &mode, true, ino);
}

/* Inode @ino is free again: count it, under s_lock. */
static void pram_count_free_ino(struct super_block *sb, u32 ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	/* A new inode that was never linked gives its slot back. */
	if (READ_ONCE(sbi->tx.held) == ino)
		WRITE_ONCE(sbi->tx.held, 0);

	/* The root is never free. */
	if (sbi->free_inodes < sbi->geo.inodes_count - 1)
		sbi->free_inodes++;
	else
		pram_recount_inodes(sb);
}

/**
 * pram_free_ino() - give inode @ino back
 * @sb: the superblock
 * @ino: an inode with no entry and no blocks left
 */
void pram_free_ino(struct super_block *sb, u32 ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	pram_tx_begin(sb);
	mutex_lock(&sbi->s_lock);
	pram_record_clear(sb, ino);
	pram_count_free_ino(sb, ino);
	mutex_unlock(&sbi->s_lock);
	pram_tx_end(sb);
}

/*
 * Clear @block's bit now, under s_lock, in a persistence point of its
 * own: the caller names the block until it is free, and logs nothing.
 */
static void pram_bitmap_clear_now(struct super_block *sb, u32 block)
{
	void *w = pram_wp_open(sb, pram_bitmap_word(sb, block), sizeof(long));

	__clear_bit_le(block % BITS_PER_LONG, w);
	pram_wp_close(sb, w, sizeof(long));
	PRAM_SB(sb)->free_blocks++;
}

/**
 * pram_release_ino() - give back a deleted inode, without the journal
 * @sb: the superblock
 * @ino: a deleted inode that holds nothing but its slot and @block,
 *	 being evicted, outside any transaction of this task
 * @block: a direct file's one block, or 0
 * @after_cut: @ino was deleted when the mount found it: a cut may have
 *	       stopped its release after the bit of @block
 *
 * As pram_free_ino() and pram_free_blocks(), for what the next mount
 * would finish anyway (see pram_record_wipe()): nothing is logged. The
 * bit goes first; a cut after it leaves a deleted inode naming a free
 * block, which the next mount releases again, the bit taken for done.
 * s_lock is held until the record is wiped, so no one takes the block
 * while a durable record names it, and other tasks' transactions wait
 * (tx.lock): one may have logged the bitmap word, and its undo would
 * set the bit again.
 */
void pram_release_ino(struct super_block *sb, u32 ino, u32 block,
		      bool after_cut)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	bool unfreed = false;

	/* Only tx.lock: nothing is logged, the commit is empty. */
	if (block)
		pram_tx_begin(sb);
	mutex_lock(&sbi->s_lock);
	if (block && pram_block_taken(sb, block))
		pram_bitmap_clear_now(sb, block);
	else if (block)
		unfreed = !after_cut;
	pram_record_wipe(sb, ino);
	pram_count_free_ino(sb, ino);
	mutex_unlock(&sbi->s_lock);
	pram_report_unfreed(sb, block, unfreed);
	if (block)
		pram_tx_end(sb);
}

/**
 * pram_hold_orphan_block() - keep a deleted record's free block from others
 * @sb: the superblock, at a mount's finish (pram_finish_orphans())
 * @ino: a deleted inode that could not be freed now
 *
 * A cut after the bit of its direct block (pram_release_ino()) leaves
 * the block free while the record names it: until a later mount frees
 * the record, the block is reserved in memory, so that no file takes it
 * for that free to give back again.
 */
void pram_hold_orphan_block(struct super_block *sb, u32 ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const struct pram_inode *pi = pram_get_inode(sb, ino);
	u32 block = le32_to_cpu(pi->i_type.reg.direct);

	if (!S_ISREG(le16_to_cpu(pi->i_mode)) ||
	    !pram_block_valid(&sbi->geo, block))
		return;
	mutex_lock(&sbi->s_lock);
	if (!pram_block_taken(sb, block) &&
	    !__test_and_set_bit(block, sbi->reserved)) {
		sbi->nreserved++;
		sbi->free_blocks -= min_t(u32, 1, sbi->free_blocks);
	}
	mutex_unlock(&sbi->s_lock);
}

/**
 * pram_reserved_init() - the maps of reserved and held blocks, empty, at mount
 * @sb: the superblock, its geometry known
 *
 * One allocation for both: a bit per block each.
 *
 * Return: 0 or -ENOMEM.
 */
int pram_reserved_init(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	size_t words = BITS_TO_LONGS(sbi->geo.blocks_count);

	sbi->reserved = kvcalloc(2 * words, sizeof(long), GFP_KERNEL);
	if (!sbi->reserved)
		return -ENOMEM;
	sbi->held = sbi->reserved + words;
	return 0;
}

/**
 * pram_reserved_free() - forget the reserved blocks, at unmount
 * @sbi: the filesystem's information
 */
void pram_reserved_free(struct pram_sb_info *sbi)
{
	kvfree(sbi->reserved);
	sbi->reserved = NULL;
	sbi->held = NULL;
}

/* The counts and hints of @ps: exact after a clean unmount, else advisory. */
static void pram_load_hints(struct super_block *sb,
			    const struct pram_super_block *ps)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	u32 block = le32_to_cpu(ps->s_free_blocknr_hint);
	u32 ino = le32_to_cpu(ps->s_free_inode_hint);

	sbi->block_hint = pram_block_hint(&sbi->geo, block);
	sbi->inode_hint = pram_ino_hint(&sbi->geo, ino);
	if (sbi->block_hint != block || sbi->inode_hint != ino)
		pram_info(sb, "allocation hints out of range (block %u, inode %u): reset",
			  block, ino);
}

/**
 * pram_load_counts() - the free counts and hints, at mount
 * @sb: the superblock
 *
 * A count in the superblock that differs from the one found (left by a
 * power cut, or out of range) is logged; the next sync_fs writes the
 * right one.
 */
void pram_load_counts(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const struct pram_super_block *ps = sbi->super;
	u32 blocks = le32_to_cpu(ps->s_free_blocks_count);
	u32 inodes = le32_to_cpu(ps->s_free_inodes_count);
	bool clean = le16_to_cpu(ps->s_state) & PRAM_STATE_CLEAN;

	pram_load_hints(sb, ps);
	sbi->free_blocks = pram_bitmap_count_free(pram_bitmap(sb), &sbi->geo);
	if (blocks != sbi->free_blocks)
		pram_info(sb, "free blocks: %u in the bitmap, %u in the superblock",
			  sbi->free_blocks, blocks);
	if (clean && inodes < sbi->geo.inodes_count) {
		sbi->free_inodes = inodes;
		return;
	}
	sbi->free_inodes = pram_itable_count_free(pram_get_inode(sb, PRAM_ROOT_INO),
						  &sbi->geo);
	if (inodes != sbi->free_inodes)
		pram_info(sb, "free inodes: %u in the inode table, %u in the superblock",
			  sbi->free_inodes, inodes);
}

/**
 * pram_sync_counts() - write the free counts and hints, and the state
 * @sb: the superblock, mounted read-write
 * @clean: mark the filesystem cleanly unmounted (the counts exact)
 *
 * Writes the superblock pair only if something changed.
 */
void pram_sync_counts(struct super_block *sb, bool clean)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_super_block *ps = sbi->virt_addr, want;

	mutex_lock(&sbi->s_lock);
	want.s_free_blocks_count = cpu_to_le32(sbi->free_blocks);
	want.s_free_blocknr_hint = cpu_to_le32(sbi->block_hint);
	want.s_free_inodes_count = cpu_to_le32(sbi->free_inodes);
	want.s_free_inode_hint = cpu_to_le32(sbi->inode_hint);
	mutex_unlock(&sbi->s_lock);
	want.s_state = ps->s_state;
	if (clean)
		want.s_state |= cpu_to_le16(PRAM_STATE_CLEAN);
	if (want.s_free_blocks_count == ps->s_free_blocks_count &&
	    want.s_free_blocknr_hint == ps->s_free_blocknr_hint &&
	    want.s_free_inodes_count == ps->s_free_inodes_count &&
	    want.s_free_inode_hint == ps->s_free_inode_hint &&
	    want.s_state == ps->s_state)
		return;
	ps = pram_super_begin(sb);
	ps->s_free_blocks_count = want.s_free_blocks_count;
	ps->s_free_blocknr_hint = want.s_free_blocknr_hint;
	ps->s_free_inodes_count = want.s_free_inodes_count;
	ps->s_free_inode_hint = want.s_free_inode_hint;
	ps->s_state |= want.s_state & cpu_to_le16(PRAM_STATE_CLEAN);
	pram_super_commit(sb, ps);
}
