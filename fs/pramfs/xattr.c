// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS extended attributes: the user., trusted. and security.
 * namespaces through the VFS's handlers, and listxattr. An inode's
 * attributes are one block (xblock.c): a change builds the next version
 * in a fresh block and switches i_xattr to it in one transaction, which
 * also frees the old one. With no free block, the next version is
 * written over the old one, which the transaction logs whole first.
 */
#include <linux/fs.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "pramfs.h"

/* The names listxattr gives, by PRAM_XATTR_INDEX_*. */
static const char *const pram_xattr_prefix[PRAM_XATTR_INDEX_MAX + 1] = {
	[PRAM_XATTR_INDEX_USER]		= XATTR_USER_PREFIX,
	[PRAM_XATTR_INDEX_ACL_ACCESS]	= XATTR_NAME_POSIX_ACL_ACCESS,
	[PRAM_XATTR_INDEX_ACL_DEFAULT]	= XATTR_NAME_POSIX_ACL_DEFAULT,
	[PRAM_XATTR_INDEX_TRUSTED]	= XATTR_TRUSTED_PREFIX,
	[PRAM_XATTR_INDEX_SECURITY]	= XATTR_SECURITY_PREFIX,
};

/*
 * @inode's attribute block, checked, or NULL for none; called under
 * i_xattr_sem, or at eviction, when nothing else can change it.
 * Return: the block, NULL, or ERR_PTR(-EUCLEAN) (logged).
 */
static const void *pram_xattr_block(struct inode *inode, u32 *blockp)
{
	struct super_block *sb = inode->i_sb;
	const struct pram_inode *pi = pram_get_inode(sb, inode->i_ino);
	u32 block = le32_to_cpu(READ_ONCE(pi->i_xattr));
	const char *why;
	const void *blk;

	if (blockp)
		*blockp = block;
	if (!block)
		return NULL;
	if (!pram_block_valid(&PRAM_SB(sb)->geo, block)) {
		why = "block out of range";
		goto bad;
	}
	blk = pram_block_addr(sb, block);
	if (!pram_xblock_check(blk, sb->s_blocksize, inode->i_ino, &why))
		return blk;
bad:
	pram_error(sb, inode->i_ino, "attribute block %u refused: %s", block,
		   why);
	return ERR_PTR(-EUCLEAN);
}

/**
 * pram_xattr_get() - read an attribute's value
 * @inode: the inode
 * @index: PRAM_XATTR_INDEX_*
 * @name: the name without its namespace's prefix
 * @buffer: where to copy the value, or NULL for its size only
 * @size: @buffer's size
 *
 * Return: the value's size, or -ENODATA, -ERANGE (@buffer too small),
 * -EUCLEAN.
 */
int pram_xattr_get(struct inode *inode, u8 index, const char *name,
		   void *buffer, size_t size)
{
	const struct pram_xattr_entry *e;
	const void *blk;
	int len;

	down_read(&PRAM_I(inode)->i_xattr_sem);
	blk = pram_xattr_block(inode, NULL);
	if (IS_ERR(blk)) {
		len = PTR_ERR(blk);
		goto unlock;
	}
	e = pram_xblock_find(blk, index, name, strlen(name));
	if (!e) {
		len = -ENODATA;
		goto unlock;
	}
	len = le16_to_cpu(e->e_value_len);
	if (buffer && len > size)
		len = -ERANGE;
	else if (buffer)
		memcpy(buffer, pram_xattr_value(e), len);
unlock:
	up_read(&PRAM_I(inode)->i_xattr_sem);
	return len;
}

/*
 * @next into a new block of its own, @block. It is written unlogged:
 * the block is taken by this transaction, and undone with it.
 */
static int pram_xattr_write_new(struct super_block *sb, const void *next,
				u32 *block)
{
	void *w;
	int err;

	err = pram_new_block(sb, block);
	if (err)
		return err;
	pram_set_incompat(sb, PRAM_FEATURE_INCOMPAT_XATTR);
	w = pram_wp_open(sb, pram_block_addr(sb, *block), sb->s_blocksize);
	memcpy(w, next, sb->s_blocksize);
	pram_wp_close(sb, w, sb->s_blocksize);
	return 0;
}

/*
 * @next over @block, the inode's present attribute block, when there is
 * no free block (a full filesystem): the old block is logged whole
 * first, so a power cut still leaves the old set or the new one. Only if
 * the transaction's journal has room for it; otherwise -ENOSPC.
 */
static int pram_xattr_write_over(struct super_block *sb, const void *next,
				 u32 block)
{
	void *addr = pram_block_addr(sb, block), *w;

	if (!pram_tx_room(sb, addr, sb->s_blocksize))
		return -ENOSPC;
	pram_tx_log(sb, addr, sb->s_blocksize);
	w = pram_wp_open(sb, addr, sb->s_blocksize);
	memcpy(w, next, sb->s_blocksize);
	pram_wp_close(sb, w, sb->s_blocksize);
	return 0;
}

/*
 * Write @next, the inode's next attribute block (NULL for none), and
 * switch i_xattr to it with the inode's attributes (its ctime); the old
 * block is freed, unless @next went over it for want of a free one.
 * Inside the caller's transaction: a power cut leaves the old set or the
 * new one. Return: 0 or -ENOSPC.
 */
static int pram_xattr_switch(struct inode *inode, const void *next, u32 old)
{
	struct super_block *sb = inode->i_sb;
	struct pram_inode *pi;
	u32 block = 0;
	int err = 0;

	if (next) {
		err = pram_xattr_write_new(sb, next, &block);
		if (err == -ENOSPC && old) {
			err = pram_xattr_write_over(sb, next, old);
			block = old;
		}
	}
	if (err)
		return err;
	inode_set_ctime_current(inode);
	pi = pram_record_begin(sb, inode->i_ino);
	pram_inode_to_record(inode, pi);
	pi->i_xattr = cpu_to_le32(block);
	pram_record_end(sb, pi);
	if (old && old != block)
		pram_free_blocks(sb, &old, 1);
	return 0;
}

/* Is the change @value (NULL: removal) with @flags allowed by what is? */
static int pram_xattr_flags_ok(const void *blk, u8 index, const char *name,
			       const void *value, int flags)
{
	bool exists = pram_xblock_find(blk, index, name, strlen(name));

	if (exists && (flags & XATTR_CREATE))
		return -EEXIST;
	if (!exists && (!value || (flags & XATTR_REPLACE)))
		return -ENODATA;
	return 0;
}

/**
 * pram_xattr_set() - set, replace or remove an attribute
 * @inode: the inode, locked
 * @index: PRAM_XATTR_INDEX_*
 * @name: the name without its namespace's prefix
 * @value: the value, or NULL to remove the attribute
 * @size: its size
 * @flags: XATTR_CREATE, XATTR_REPLACE or 0
 *
 * Return: 0, or -EEXIST, -ENODATA (@flags, or removing what is not
 * there), -ERANGE (a name too long), -ENOSPC (no room in the block, or
 * no free block), -ENOMEM, -EROFS, -EUCLEAN (a bad block, left alone).
 */
int pram_xattr_set(struct inode *inode, u8 index, const char *name,
		   const void *value, size_t size, int flags)
{
	struct super_block *sb = inode->i_sb;
	const void *blk;
	void *next;
	u32 old;
	int err, n;

	if (sb_rdonly(sb))
		return -EROFS;
	next = kzalloc(sb->s_blocksize, GFP_KERNEL);
	if (!next)
		return -ENOMEM;
	/* The transaction first, as every path that writes takes it. */
	pram_tx_begin(sb);
	down_write(&PRAM_I(inode)->i_xattr_sem);
	blk = pram_xattr_block(inode, &old);
	err = IS_ERR(blk) ? PTR_ERR(blk) :
	      pram_xattr_flags_ok(blk, index, name, value, flags);
	if (err)
		goto unlock;
	n = pram_xblock_edit(next, blk, sb->s_blocksize, inode->i_ino, index,
			     name, strlen(name), value, size);
	err = n < 0 ? n : pram_xattr_switch(inode, n ? next : NULL, old);
unlock:
	up_write(&PRAM_I(inode)->i_xattr_sem);
	pram_tx_end(sb);
	kfree(next);
	return err;
}

/**
 * pram_xattr_drop() - free the attribute block of an inode being deleted
 * @inode: the inode, inside the transaction that frees its record
 *
 * A bad block is left (logged): fsck.pramfs frees what nothing names.
 */
void pram_xattr_drop(struct inode *inode)
{
	const void *blk;
	u32 block;

	blk = pram_xattr_block(inode, &block);
	if (blk && !IS_ERR(blk))
		pram_free_blocks(inode->i_sb, &block, 1);
}

/* May the caller see names of namespace @index? */
static bool pram_xattr_listed(struct dentry *dentry, u8 index)
{
	switch (index) {
	case PRAM_XATTR_INDEX_TRUSTED:
		return capable(CAP_SYS_ADMIN);
	case PRAM_XATTR_INDEX_ACL_ACCESS:
	case PRAM_XATTR_INDEX_ACL_DEFAULT:
		return IS_POSIXACL(d_inode(dentry));
	}
	return true;
}

/* Add "prefix" "name" NUL to @buffer at @used; the new length. */
static ssize_t pram_xattr_list_one(const struct pram_xattr_entry *e,
				   char *buffer, size_t size, ssize_t used)
{
	const char *prefix = pram_xattr_prefix[e->e_index];
	size_t plen = strlen(prefix), len = plen + e->e_name_len + 1;

	if (buffer) {
		if (used + len > size)
			return -ERANGE;
		memcpy(buffer + used, prefix, plen);
		memcpy(buffer + used + plen, e->e_name, e->e_name_len);
		buffer[used + len - 1] = 0;
	}
	return used + len;
}

/**
 * pram_listxattr() - the names of @dentry's attributes, ACLs included
 * @dentry: the dentry
 * @buffer: where to put them, each NUL-terminated, or NULL for the size
 * @size: @buffer's size
 *
 * Return: the bytes of the names, or -ERANGE, -EUCLEAN.
 */
ssize_t pram_listxattr(struct dentry *dentry, char *buffer, size_t size)
{
	struct inode *inode = d_inode(dentry);
	const struct pram_xattr_entry *e = NULL;
	const void *blk;
	ssize_t used = 0;

	down_read(&PRAM_I(inode)->i_xattr_sem);
	blk = pram_xattr_block(inode, NULL);
	if (IS_ERR(blk))
		used = PTR_ERR(blk);
	while (!IS_ERR_OR_NULL(blk) && used >= 0 &&
	       (e = pram_xblock_next(blk, e)))
		if (pram_xattr_listed(dentry, e->e_index))
			used = pram_xattr_list_one(e, buffer, size, used);
	up_read(&PRAM_I(inode)->i_xattr_sem);
	return used;
}

/* An LSM's attributes for a new inode, in the security. namespace. */
static int pram_initxattrs(struct inode *inode, const struct xattr *xattrs,
			   void *unused)
{
	const struct xattr *x;
	int err = 0;

	for (x = xattrs; x->name && !err; x++)
		err = pram_xattr_set(inode, PRAM_XATTR_INDEX_SECURITY, x->name,
				     x->value, x->value_len, 0);
	return err;
}

/**
 * pram_init_security() - an LSM's label on a new inode, from the start
 * @inode: the new inode
 * @dir: its directory
 * @name: its name
 *
 * Return: 0 or a negative errno.
 */
int pram_init_security(struct inode *inode, struct inode *dir,
		       const struct qstr *name)
{
	return security_inode_init_security(inode, dir, name, pram_initxattrs,
					    NULL);
}

static int pram_xattr_handler_get(const struct xattr_handler *handler,
				  struct dentry *unused, struct inode *inode,
				  const char *name, void *buffer, size_t size)
{
	return pram_xattr_get(inode, handler->flags, name, buffer, size);
}

static int pram_xattr_handler_set(const struct xattr_handler *handler,
				  struct mnt_idmap *idmap,
				  struct dentry *unused, struct inode *inode,
				  const char *name, const void *value,
				  size_t size, int flags)
{
	return pram_xattr_set(inode, handler->flags, name, value, size, flags);
}

static const struct xattr_handler pram_xattr_user_handler = {
	.prefix	= XATTR_USER_PREFIX,
	.flags	= PRAM_XATTR_INDEX_USER,
	.get	= pram_xattr_handler_get,
	.set	= pram_xattr_handler_set,
};

static const struct xattr_handler pram_xattr_trusted_handler = {
	.prefix	= XATTR_TRUSTED_PREFIX,
	.flags	= PRAM_XATTR_INDEX_TRUSTED,
	.get	= pram_xattr_handler_get,
	.set	= pram_xattr_handler_set,
};

static const struct xattr_handler pram_xattr_security_handler = {
	.prefix	= XATTR_SECURITY_PREFIX,
	.flags	= PRAM_XATTR_INDEX_SECURITY,
	.get	= pram_xattr_handler_get,
	.set	= pram_xattr_handler_set,
};

const struct xattr_handler * const pram_xattr_handlers[] = {
	&pram_xattr_user_handler,
	&pram_xattr_trusted_handler,
	&pram_xattr_security_handler,
	NULL
};
