// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS allocation glue: takes s_lock, opens the write windows around
 * the pure allocators of alloc.c, and keeps the free counts and search
 * hints with them.
 *
 * The bitmap is the truth about blocks: the free block count and hint
 * live in memory (counted from the bitmap at mount) and are written to
 * the superblock by sync_fs, at unmount or sync(2), so that allocating a
 * block writes one bitmap word and not the superblock twice. The free
 * inode count and hint are written with every change, as the inode
 * table would be slow to count at mount.
 */
#include "pramfs.h"

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
			w = pram_wp_open(sb, word, sizeof(long));
		}
		__set_bit_le(blocks[i] % BITS_PER_LONG, w);
	}
	if (w)
		pram_wp_close(sb, w, sizeof(long));
}

/**
 * pram_new_blocks() - take up to @n free data blocks
 * @sb: the superblock
 * @blocks: the blocks taken, in ascending order; their contents are
 *	    whatever was there
 * @n: how many are wanted
 *
 * Return: how many were taken (at least one), or -ENOSPC.
 */
int pram_new_blocks(struct super_block *sb, u32 *blocks, unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	unsigned int got = 0;

	mutex_lock(&sbi->s_lock);
	while (got < n && !pram_bitmap_find_free(pram_bitmap(sb), &sbi->geo,
						 got ? blocks[got - 1] + 1 :
						 sbi->block_hint,
						 &blocks[got])) {
		/* Wrapped round: the bits are not set yet, so stop here. */
		if (got && blocks[got] <= blocks[got - 1])
			break;
		got++;
	}
	if (got) {
		pram_bitmap_take(sb, blocks, got);
		sbi->free_blocks -= got;
		sbi->block_hint = blocks[got - 1] + 1;
	}
	mutex_unlock(&sbi->s_lock);
	return got ?: -ENOSPC;
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

/**
 * pram_free_blocks() - give @n data blocks back
 * @sb: the superblock
 * @blocks: the blocks; nothing may point to them any more
 * @n: how many
 *
 * A block outside the data area or already free means a corrupt block
 * map: it is logged and left alone.
 */
void pram_free_blocks(struct super_block *sb, const u32 *blocks,
		      unsigned int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	void *bitmap = pram_bitmap(sb), *word;
	unsigned int i;

	if (!n)
		return;
	mutex_lock(&sbi->s_lock);
	for (i = 0; i < n; i++) {
		if (!pram_block_valid(&sbi->geo, blocks[i]) ||
		    !test_bit_le(blocks[i], bitmap)) {
			pram_err(sb, "freeing block %u: not an allocated data block",
				 blocks[i]);
			continue;
		}
		word = pram_wp_open(sb, pram_bitmap_word(sb, blocks[i]),
				    sizeof(long));
		__clear_bit_le(blocks[i] % BITS_PER_LONG, word);
		pram_wp_close(sb, word, sizeof(long));
		sbi->free_blocks++;
	}
	mutex_unlock(&sbi->s_lock);
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
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_super_block *ps = sbi->virt_addr;
	struct pram_inode *pi;
	int err;

	mutex_lock(&sbi->s_lock);
	err = pram_itable_find_free(pram_get_inode(sb, PRAM_ROOT_INO),
				    &sbi->geo,
				    le32_to_cpu(ps->s_free_inode_hint), ino);
	if (err)
		goto unlock;
	pi = pram_record_begin(sb, *ino);
	memset(pi, 0, PRAM_INODE_SIZE);
	pi->i_mode = cpu_to_le16(mode);
	pram_record_end(sb, pi);

	ps = pram_super_begin(sb);
	le32_add_cpu(&ps->s_free_inodes_count, -1);
	ps->s_free_inode_hint = cpu_to_le32(*ino + 1);
	pram_super_commit(sb, ps);
unlock:
	mutex_unlock(&sbi->s_lock);
	return err;
}

/**
 * pram_free_ino() - give inode @ino back
 * @sb: the superblock
 * @ino: an inode with no entry and no blocks left
 */
void pram_free_ino(struct super_block *sb, u32 ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_super_block *ps;

	mutex_lock(&sbi->s_lock);
	pram_record_clear(sb, ino);

	ps = pram_super_begin(sb);
	le32_add_cpu(&ps->s_free_inodes_count, 1);
	pram_super_commit(sb, ps);
	mutex_unlock(&sbi->s_lock);
}

/**
 * pram_count_blocks() - count the free blocks in the bitmap, at mount
 * @sb: the superblock
 *
 * A count in the superblock that differs (left by a power cut before
 * an unmount) is logged; the next sync_fs writes the right one.
 */
void pram_count_blocks(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	u32 stored = le32_to_cpu(sbi->super->s_free_blocks_count);

	sbi->free_blocks = pram_bitmap_count_free(pram_bitmap(sb), &sbi->geo);
	sbi->block_hint = le32_to_cpu(sbi->super->s_free_blocknr_hint);
	if (stored != sbi->free_blocks)
		pram_info(sb, "free blocks: %u in the bitmap, %u in the superblock",
			  sbi->free_blocks, stored);
}

/**
 * pram_sync_counts() - write the free block count and hint if changed
 * @sb: the superblock, mounted read-write
 */
void pram_sync_counts(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_super_block *ps = sbi->virt_addr;

	mutex_lock(&sbi->s_lock);
	if (le32_to_cpu(ps->s_free_blocks_count) != sbi->free_blocks ||
	    le32_to_cpu(ps->s_free_blocknr_hint) != sbi->block_hint) {
		ps = pram_super_begin(sb);
		ps->s_free_blocks_count = cpu_to_le32(sbi->free_blocks);
		ps->s_free_blocknr_hint = cpu_to_le32(sbi->block_hint);
		pram_super_commit(sb, ps);
	}
	mutex_unlock(&sbi->s_lock);
}
