// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS directories: each entry is an inode linked into its directory's
 * doubly linked list (head and tail in the directory inode), with the
 * name in the entry's inode.
 */
#include <linux/fs.h>
#include <linux/string.h>
#include "pramfs.h"

/*
 * readdir positions: 0 and 1 are the dots, 2 the list head, n >= 3 the
 * entry whose inode number is n, and this one the end.
 */
#define PRAM_DIR_POS_HEAD	2
#define PRAM_DIR_POS_EOF	((loff_t)U32_MAX + 1)

static u32 pram_name_len(const struct pram_inode *pi)
{
	return strnlen(pi->i_name, PRAM_NAME_LEN);
}

/* Is @pi an in-use entry of @dir? */
static bool pram_in_dir(struct inode *dir, const struct pram_inode *pi)
{
	return pi->i_mode && le32_to_cpu(pi->i_parent) == dir->i_ino;
}

/*
 * The entry @ino of @dir's list; NULL at the end. A link out of range, to
 * an entry of another directory, or a list longer than the inode table is
 * corruption.
 */
static struct pram_inode *pram_next_entry(struct inode *dir, u32 ino,
					  u32 *steps)
{
	struct super_block *sb = dir->i_sb;
	struct pram_inode *pi;

	if (!ino)
		return NULL;
	pi = pram_get_inode(sb, ino);
	if (!pi || !pram_in_dir(dir, pi) ||
	    ++*steps > PRAM_SB(sb)->geo.inodes_count) {
		pram_err(sb, "directory %lu: bad entry link %u", dir->i_ino, ino);
		return ERR_PTR(-EUCLEAN);
	}
	return pi;
}

static u32 pram_dir_head(struct inode *dir)
{
	struct pram_inode *pd = pram_get_inode(dir->i_sb, dir->i_ino);

	return le32_to_cpu(pd->i_type.dir.head);
}

/* The inode number of @name in @dir, 0 if absent, or a negative errno. */
static long pram_find_entry(struct inode *dir, const struct qstr *name)
{
	u32 ino = pram_dir_head(dir), steps = 0;
	struct pram_inode *pi;

	for (;;) {
		pi = pram_next_entry(dir, ino, &steps);
		if (IS_ERR_OR_NULL(pi))
			return PTR_ERR_OR_ZERO(pi);
		if (pram_name_len(pi) == name->len &&
		    !memcmp(pi->i_name, name->name, name->len))
			return ino;
		ino = le32_to_cpu(pi->i_next);
	}
}

static struct dentry *pram_lookup(struct inode *dir, struct dentry *dentry,
				  unsigned int flags)
{
	struct inode *inode = NULL;
	long ino;

	if (dentry->d_name.len > PRAM_NAME_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	ino = pram_find_entry(dir, &dentry->d_name);
	if (ino < 0)
		return ERR_PTR(ino);
	if (ino)
		inode = pram_iget(dir->i_sb, ino);
	return d_splice_alias(inode, dentry);
}

static int pram_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct pram_inode *pi;
	u32 ino, steps = 0;

	if (!dir_emit_dots(file, ctx) || ctx->pos >= PRAM_DIR_POS_EOF)
		return 0;
	ino = ctx->pos == PRAM_DIR_POS_HEAD ? pram_dir_head(dir) : ctx->pos;
	/* A position from seekdir() that names no entry here ends the walk. */
	pi = pram_get_inode(dir->i_sb, ino);
	if (ctx->pos != PRAM_DIR_POS_HEAD && (!pi || !pram_in_dir(dir, pi)))
		ino = 0;
	for (;;) {
		pi = pram_next_entry(dir, ino, &steps);
		if (IS_ERR_OR_NULL(pi))
			break;
		ctx->pos = ino;
		if (!dir_emit(ctx, pi->i_name, pram_name_len(pi), ino,
			      fs_umode_to_dtype(le16_to_cpu(pi->i_mode))))
			return 0;
		ino = le32_to_cpu(pi->i_next);
	}
	ctx->pos = PRAM_DIR_POS_EOF;
	return PTR_ERR_OR_ZERO(pi);
}

/* Positions are inode numbers, whatever the largest file size is. */
static loff_t pram_dir_llseek(struct file *file, loff_t offset, int whence)
{
	return generic_file_llseek_size(file, offset, whence, PRAM_DIR_POS_EOF,
					PRAM_DIR_POS_EOF);
}

const struct file_operations pram_dir_operations = {
	.llseek		= pram_dir_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= pram_readdir,
	.fsync		= noop_fsync,
};

const struct inode_operations pram_dir_inode_operations = {
	.lookup		= pram_lookup,
};
