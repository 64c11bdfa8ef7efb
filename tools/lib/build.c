// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building a filesystem's contents in an image, for mkfs.pramfs -d and
 * fsck.pramfs's repairs (lost+found): taking inodes and blocks with the
 * kernel's allocators (alloc.c), naming an entry (name.c: long names in
 * name records), making link entries, linking an entry into a directory
 * list in inode-number order, and mapping a file's blocks (blockmap.c's
 * arithmetic). Every record changed is checksummed again at once; the
 * free counts and hints go to the superblock at pram_build_finish().
 */
#include "libpramfs.h"

void pram_build_start(struct pram_builder *b, struct pram_image *img)
{
	const struct pram_geometry *g = &img->geo;

	b->img = img;
	b->inode_hint = pram_ino_hint(g, le32_to_cpu(img->sb->s_free_inode_hint));
	b->block_hint = pram_block_hint(g, le32_to_cpu(img->sb->s_free_blocknr_hint));
	b->free_inodes = pram_itable_count_free(pram_img_inode(img, PRAM_ROOT_INO), g);
	b->free_blocks = pram_bitmap_count_free(pram_img_bitmap(img), g);
}

/* Take a free inode: zeroed, its mode set, so the next search passes it. */
int pram_build_inode(struct pram_builder *b, u32 *ino)
{
	struct pram_image *img = b->img;
	struct pram_inode *pi;

	if (pram_itable_find_free(pram_img_inode(img, PRAM_ROOT_INO), &img->geo,
				  b->inode_hint, ino))
		return -ENOSPC;
	pi = pram_img_inode(img, *ino);
	memset(pi, 0, PRAM_INODE_SIZE);
	pi->i_mode = cpu_to_le16(S_IFREG);
	b->inode_hint = pram_ino_hint(&img->geo, *ino + 1);
	b->free_inodes--;
	return 0;
}

/* Take a free data block, zeroed. */
int pram_build_block(struct pram_builder *b, u32 *block)
{
	struct pram_image *img = b->img;

	if (pram_bitmap_alloc(pram_img_bitmap(img), &img->geo, b->block_hint,
			      block))
		return -ENOSPC;
	memset(pram_img_block(img, *block), 0, img->geo.blocksize);
	b->block_hint = pram_block_hint(&img->geo, *block + 1);
	b->free_blocks--;
	return 0;
}

void pram_build_free_block(struct pram_builder *b, u32 block)
{
	if (!pram_bitmap_free(pram_img_bitmap(b->img), &b->img->geo, block))
		b->free_blocks++;
}

/*
 * Give entry @ino the name @name: a long one in new name records. The
 * records of a long name it had are left to whoever frees them (fsck's
 * sweep of records no entry holds).
 */
int pram_build_name(struct pram_builder *b, u32 ino, const char *name,
		    size_t len)
{
	struct pram_image *img = b->img;
	u32 recs[PRAM_NAME_RECS] = { };
	unsigned int i, n;

	if (!len || len > PRAM_NAME_MAX)
		return -ENAMETOOLONG;
	n = pram_name_recs(len);
	if (n)
		pram_img_set_incompat(img, PRAM_FEATURE_INCOMPAT_LONGNAMES);
	for (i = 0; i < n; i++) {
		if (pram_build_inode(b, &recs[i])) {
			b->free_inodes += i;
			while (i--)
				memset(pram_img_inode(img, recs[i]), 0, PRAM_INODE_SIZE);
			return -ENOSPC;
		}
		pram_name_rec_fill((struct pram_name_rec *)pram_img_inode(img, recs[i]),
				   recs[i], ino, name, len, i);
	}
	pram_name_store(pram_img_inode(img, ino), name, len, recs);
	pram_img_resum(img, ino);
	return 0;
}

/**
 * pram_build_link_entry() - a new link entry that names inode @target
 * @b: the builder
 * @target: an inode, not a directory
 * @entry: the link entry, in no list yet
 */
int pram_build_link_entry(struct pram_builder *b, u32 target, u32 *entry)
{
	struct pram_inode *pi;

	if (pram_build_inode(b, entry))
		return -ENOSPC;
	pram_img_set_incompat(b->img, PRAM_FEATURE_INCOMPAT_LINKS);
	pi = pram_img_inode(b->img, *entry);
	pi->i_mode = cpu_to_le16(PRAM_S_IFLINK);
	pi->i_type.link.ino = cpu_to_le32(target);
	pram_img_resum(b->img, *entry);
	return 0;
}

/*
 * Link entry @ino, named already, into directory @dir's list: in
 * inode-number order, found from the tail back (where new numbers
 * usually go).
 */
int pram_build_list(struct pram_builder *b, u32 dir, u32 ino)
{
	struct pram_image *img = b->img;
	struct pram_inode *d = pram_img_inode(img, dir), *pi = pram_img_inode(img, ino);
	u32 prev = le32_to_cpu(d->i_type.dir.tail), next = 0;

	if (prev && !pram_ino_valid(&img->geo, prev))
		return -EUCLEAN;
	while (prev > ino) {
		next = prev;
		prev = le32_to_cpu(pram_img_inode(img, prev)->i_prev);
		if (prev >= next || (prev && !pram_ino_valid(&img->geo, prev)))
			return -EUCLEAN;
	}
	pi->i_parent = cpu_to_le32(dir);
	pi->i_prev = cpu_to_le32(prev);
	pi->i_next = cpu_to_le32(next);
	pram_img_resum(img, ino);
	if (next) {
		pram_img_inode(img, next)->i_prev = cpu_to_le32(ino);
		pram_img_resum(img, next);
	} else {
		d->i_type.dir.tail = cpu_to_le32(ino);
	}
	if (prev) {
		pram_img_inode(img, prev)->i_next = cpu_to_le32(ino);
		pram_img_resum(img, prev);
	} else {
		d->i_type.dir.head = cpu_to_le32(ino);
	}
	pram_img_resum(img, dir);
	return 0;
}

/* Link entry @ino into directory @dir's list under @name. */
int pram_build_link(struct pram_builder *b, u32 dir, u32 ino, const char *name,
		    size_t len)
{
	return pram_build_name(b, ino, name, len) ?: pram_build_list(b, dir, ino);
}

/* The map entry at @idx of map block @map, made if it is 0; counted. */
static int pram_build_entry(struct pram_builder *b, struct pram_inode *pi,
			    u32 map, u32 idx, u32 *block)
{
	__le32 *entries = pram_img_block(b->img, map);
	int err;

	*block = le32_to_cpu(entries[idx]);
	if (*block)
		return 0;
	err = pram_build_block(b, block);
	if (err)
		return err;
	entries[idx] = cpu_to_le32(*block);
	le32_add_cpu(&pi->i_blocks, 1);
	return 0;
}

/*
 * The data block of file block @fblock of regular file @ino, made
 * (zeroed, with its row and column blocks) if it is a hole. i_blocks
 * counts every block made; the caller checksums the inode.
 */
int pram_build_map(struct pram_builder *b, u32 ino, u64 fblock, u32 *block)
{
	struct pram_inode *pi = pram_img_inode(b->img, ino);
	u32 row = le32_to_cpu(pi->i_type.reg.row_block), r, c, column;
	int err;

	err = pram_map_index(b->img->geo.blocksize_bits, fblock, &r, &c);
	if (err)
		return err;
	if (!row) {
		err = pram_build_block(b, &row);
		if (err)
			return err;
		pi->i_type.reg.row_block = cpu_to_le32(row);
		le32_add_cpu(&pi->i_blocks, 1);
	}
	err = pram_build_entry(b, pi, row, r, &column);
	return err ?: pram_build_entry(b, pi, column, c, block);
}

/* The free counts and hints, exact: the filesystem is clean. */
void pram_build_finish(struct pram_builder *b)
{
	struct pram_super_block *ps = b->img->sb;

	ps->s_free_inodes_count = cpu_to_le32(b->free_inodes);
	ps->s_free_inode_hint = cpu_to_le32(b->inode_hint);
	ps->s_free_blocks_count = cpu_to_le32(b->free_blocks);
	ps->s_free_blocknr_hint = cpu_to_le32(b->block_hint);
	ps->s_state |= cpu_to_le16(PRAM_STATE_CLEAN);
	pram_img_super_commit(b->img);
}
