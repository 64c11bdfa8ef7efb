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
 * A directory's list is kept in ascending inode-number order, which makes
 * readdir positions stable: position n >= 2 means "the entries whose
 * inode number is at least n", 0 and 1 are the dots, and this is the end.
 * An entry removed during a walk cannot make the walk skip or repeat
 * another, and telldir() and seekdir() positions keep their meaning.
 */
#define PRAM_DIR_POS_FIRST	2
#define PRAM_DIR_POS_EOF	(1LL << 33)

/* Is @pi an in-use entry of @dir? */
static bool pram_in_dir(struct inode *dir, const struct pram_inode *pi)
{
	return pi->i_mode && le32_to_cpu(pi->i_parent) == dir->i_ino;
}

/*
 * The entry @ino of @dir's list, reached from the entry @from (0 from an
 * end of the list); NULL for 0. A link out of range, to an entry of
 * another directory, or out of order is corruption: the strict order is
 * also what makes every walk end.
 */
static struct pram_inode *pram_entry(struct inode *dir, u32 ino, u32 from,
				     bool forward)
{
	struct super_block *sb = dir->i_sb;
	struct pram_inode *pi;

	if (!ino)
		return NULL;
	pi = pram_get_inode(sb, ino);
	if (!pi || !pram_in_dir(dir, pi) ||
	    (from && (forward ? ino <= from : ino >= from))) {
		pram_err(sb, "directory %lu: bad entry link %u", dir->i_ino, ino);
		return ERR_PTR(-EUCLEAN);
	}
	return pi;
}

static struct pram_inode *pram_dir_record(struct inode *dir)
{
	return pram_get_inode(dir->i_sb, dir->i_ino);
}

/**
 * pram_dir_walk() - call @fn for each entry of @dir, in list order
 * @dir: the directory; its i_rwsem is held
 * @fn: called with @arg, the entry's inode number and its record
 * @arg: passed to @fn
 *
 * Return: 0, the first non-zero value @fn returns, or -EUCLEAN for a
 * corrupt list.
 */
int pram_dir_walk(struct inode *dir,
		  int (*fn)(void *arg, u32 ino, const struct pram_inode *pi),
		  void *arg)
{
	u32 ino = le32_to_cpu(pram_dir_record(dir)->i_type.dir.head), from = 0;
	struct pram_inode *pi;
	int ret;

	for (;;) {
		pi = pram_entry(dir, ino, from, true);
		if (IS_ERR_OR_NULL(pi))
			return PTR_ERR_OR_ZERO(pi);
		ret = fn(arg, ino, pi);
		if (ret)
			return ret;
		from = ino;
		ino = le32_to_cpu(pi->i_next);
	}
}

struct pram_search {
	const struct qstr	*name;
	u32			ino;
};

static int pram_match_entry(void *arg, u32 ino, const struct pram_inode *pi)
{
	struct pram_search *s = arg;

	if (pram_name_len(pi) != s->name->len ||
	    memcmp(pi->i_name, s->name->name, s->name->len))
		return 0;
	s->ino = ino;
	return 1;
}

/*
 * The inode number of @name in @dir, 0 if absent, or a negative errno:
 * from the name index, or by walking the list when no index can be built.
 */
static long pram_find_entry(struct inode *dir, const struct qstr *name)
{
	struct pram_search s = { .name = name };
	long ino = pram_index_find(dir, name);
	int ret;

	if (ino != -ENOMEM)
		return ino;
	ret = pram_dir_walk(dir, pram_match_entry, &s);
	return ret < 0 ? ret : s.ino;
}

/**
 * pram_lookup() - find @dentry's name in @dir
 * @dir: the directory
 * @dentry: the name
 * @flags: lookup flags
 *
 * Return: NULL, the dentry to use, or an ERR_PTR: -ENAMETOOLONG for a
 * name the inode cannot hold, -EUCLEAN for a corrupt directory.
 */
struct dentry *pram_lookup(struct inode *dir, struct dentry *dentry,
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
	u32 ino = le32_to_cpu(pram_dir_record(dir)->i_type.dir.head), from = 0;
	struct pram_inode *pi;

	if (!dir_emit_dots(file, ctx) || ctx->pos >= PRAM_DIR_POS_EOF)
		return 0;
	for (;; from = ino, ino = le32_to_cpu(pi->i_next)) {
		pi = pram_entry(dir, ino, from, true);
		if (IS_ERR_OR_NULL(pi))
			break;
		if (ino < ctx->pos)
			continue;
		if (!dir_emit(ctx, pi->i_name, pram_name_len(pi), ino,
			      fs_umode_to_dtype(le16_to_cpu(pi->i_mode))))
			return 0;
		ctx->pos = (loff_t)ino + 1;
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

/* ---- changing the list; the caller holds the directory's i_rwsem ---- */

/* Point the forward link after @ino (the list head for 0) at @to. */
static void pram_set_next(struct inode *dir, u32 ino, u32 to)
{
	struct super_block *sb = dir->i_sb;
	struct pram_inode *pi = pram_record_begin(sb, ino ?: dir->i_ino);

	if (ino)
		pi->i_next = cpu_to_le32(to);
	else
		pi->i_type.dir.head = cpu_to_le32(to);
	pram_record_end(sb, pi);
}

/* Point the backward link before @ino (the list tail for 0) at @to. */
static void pram_set_prev(struct inode *dir, u32 ino, u32 to)
{
	struct super_block *sb = dir->i_sb;
	struct pram_inode *pi = pram_record_begin(sb, ino ?: dir->i_ino);

	if (ino)
		pi->i_prev = cpu_to_le32(to);
	else
		pi->i_type.dir.tail = cpu_to_le32(to);
	pram_record_end(sb, pi);
}

/**
 * pram_add_entry() - link the entry @ino into @dir's list, in order, and index it
 * @dir: the directory
 * @ino: an inode whose name and i_parent are written, in no list
 *
 * The search runs back from the tail, where new inode numbers usually
 * go. The new entry's own links are written first and the forward link
 * that makes it visible last.
 *
 * Return: 0, or -EUCLEAN for a corrupt list (nothing is changed).
 */
int pram_add_entry(struct inode *dir, u32 ino)
{
	u32 prev = le32_to_cpu(pram_dir_record(dir)->i_type.dir.tail), next = 0;
	struct super_block *sb = dir->i_sb;
	struct pram_inode *pi;

	while (prev > ino) {
		pi = pram_entry(dir, prev, next, false);
		if (IS_ERR(pi))
			return PTR_ERR(pi);
		next = prev;
		prev = le32_to_cpu(pi->i_prev);
	}
	if (prev && IS_ERR(pram_entry(dir, prev, next, false)))
		return -EUCLEAN;
	pi = pram_record_begin(sb, ino);
	pi->i_prev = cpu_to_le32(prev);
	pi->i_next = cpu_to_le32(next);
	pram_record_end(sb, pi);
	pram_set_prev(dir, next, ino);
	pram_set_next(dir, prev, ino);
	pram_index_add(dir, ino);
	return 0;
}

/**
 * pram_remove_entry() - unlink the entry @ino from @dir's list
 * @dir: the directory
 * @ino: an entry of @dir
 *
 * The forward link goes first, so a walk never meets the entry after it
 * is gone. The entry's links and i_parent are cleared.
 *
 * Return: 0, or -EUCLEAN for a corrupt list (nothing is changed).
 */
int pram_remove_entry(struct inode *dir, u32 ino)
{
	struct super_block *sb = dir->i_sb;
	struct pram_inode *pi = pram_get_inode(sb, ino);
	u32 prev = le32_to_cpu(pi->i_prev), next = le32_to_cpu(pi->i_next);

	if (IS_ERR(pram_entry(dir, prev, ino, false)) ||
	    IS_ERR(pram_entry(dir, next, ino, true)))
		return -EUCLEAN;
	pram_index_del(dir, ino);
	pram_set_next(dir, prev, next);
	pram_set_prev(dir, next, prev);
	pi = pram_record_begin(sb, ino);
	pi->i_prev = 0;
	pi->i_next = 0;
	pi->i_parent = 0;
	pram_record_end(sb, pi);
	return 0;
}

/**
 * pram_dir_empty() - does @dir hold no entries?
 * @dir: a directory
 */
bool pram_dir_empty(struct inode *dir)
{
	return !pram_dir_record(dir)->i_type.dir.head;
}

const struct file_operations pram_dir_operations = {
	.llseek		= pram_dir_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= pram_readdir,
	.fsync		= noop_fsync,
};
