// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS allocation glue: takes s_lock, opens the write windows around
 * the pure allocators of alloc.c, and keeps the superblock's free counts
 * and search hints with them.
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

/**
 * pram_new_block() - take a free data block
 * @sb: the superblock
 * @block: the block taken; its contents are whatever was there
 *
 * Return: 0, or -ENOSPC.
 */
int pram_new_block(struct super_block *sb, u32 *block)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_super_block *ps = sbi->virt_addr;
	void *bitmap = pram_bitmap(sb), *word;
	int err;

	mutex_lock(&sbi->s_lock);
	err = pram_bitmap_find_free(bitmap, &sbi->geo,
				    le32_to_cpu(ps->s_free_blocknr_hint), block);
	if (err)
		goto unlock;
	word = pram_wp_open(sb, pram_bitmap_word(sb, *block), sizeof(long));
	__set_bit_le(*block % BITS_PER_LONG, word);
	pram_wp_close(sb, word, sizeof(long));

	ps = pram_super_begin(sb);
	le32_add_cpu(&ps->s_free_blocks_count, -1);
	ps->s_free_blocknr_hint = cpu_to_le32(*block + 1);
	pram_super_commit(sb, ps);
unlock:
	mutex_unlock(&sbi->s_lock);
	return err;
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
	struct pram_super_block *ps;
	unsigned int i, freed = 0;

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
		freed++;
	}
	ps = pram_super_begin(sb);
	le32_add_cpu(&ps->s_free_blocks_count, freed);
	pram_super_commit(sb, ps);
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
