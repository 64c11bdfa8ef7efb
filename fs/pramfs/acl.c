// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS POSIX ACLs: attributes of index ACL_ACCESS and ACL_DEFAULT with
 * an empty name, holding the VFS's xattr form of the ACL (as btrfs keeps
 * it), read and written through xattr.c. The VFS checks them against
 * permissions (SB_POSIXACL, the acl mount option) and caches them.
 */
#include <linux/fs.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/slab.h>
#include "pramfs.h"

static u8 pram_acl_index(int type)
{
	return type == ACL_TYPE_ACCESS ? PRAM_XATTR_INDEX_ACL_ACCESS :
					 PRAM_XATTR_INDEX_ACL_DEFAULT;
}

/**
 * pram_get_inode_acl() - read an ACL of @inode
 * @inode: the inode
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 * @rcu: in an RCU walk: the block is not read then
 *
 * Return: the ACL, NULL for none, or an ERR_PTR().
 */
struct posix_acl *pram_get_inode_acl(struct inode *inode, int type, bool rcu)
{
	struct posix_acl *acl;
	void *value;
	int size;

	if (rcu)
		return ERR_PTR(-ECHILD);
	value = kmalloc(inode->i_sb->s_blocksize, GFP_KERNEL);
	if (!value)
		return ERR_PTR(-ENOMEM);
	size = pram_xattr_get(inode, pram_acl_index(type), "", value,
			      inode->i_sb->s_blocksize);
	if (size > 0)
		acl = posix_acl_from_xattr(&init_user_ns, value, size);
	else if (size == -ENODATA || !size)
		acl = NULL;
	else
		acl = ERR_PTR(size);
	kfree(value);
	return acl;
}

/* Store @acl (NULL: remove it) as @inode's ACL of @type, and its mode. */
static int pram_store_acl(struct inode *inode, struct posix_acl *acl, int type)
{
	void *value = NULL;
	int size = 0, err;

	if (acl) {
		size = posix_acl_xattr_size(acl->a_count);
		value = kmalloc(size, GFP_KERNEL);
		if (!value)
			return -ENOMEM;
		err = posix_acl_to_xattr(&init_user_ns, acl, value, size);
		if (err < 0)
			goto free;
	}
	err = pram_xattr_set(inode, pram_acl_index(type), "", value, size, 0);
	if (err == -ENODATA && !acl) {
		/* No ACL to remove: the mode alone. */
		inode_set_ctime_current(inode);
		pram_update_inode(inode);
		err = 0;
	}
	if (!err)
		set_cached_acl(inode, type, acl);
free:
	kfree(value);
	return err;
}

/**
 * pram_set_acl() - set or remove an ACL of @dentry's inode
 * @idmap: the mount's idmap
 * @dentry: the dentry
 * @acl: the ACL, or NULL to remove it
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 *
 * An access ACL that the mode alone can say becomes the mode; the mode
 * and the ACL change in one transaction.
 *
 * Return: 0 or a negative errno.
 */
int pram_set_acl(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct posix_acl *acl, int type)
{
	struct inode *inode = d_inode(dentry);
	umode_t mode = inode->i_mode;
	int err;

	if (type == ACL_TYPE_DEFAULT && !S_ISDIR(inode->i_mode))
		return acl ? -EACCES : 0;
	if (type == ACL_TYPE_ACCESS && acl) {
		err = posix_acl_update_mode(idmap, inode, &inode->i_mode, &acl);
		if (err)
			return err;
	}
	err = pram_store_acl(inode, acl, type);
	if (err)
		inode->i_mode = mode;
	return err;
}

/**
 * pram_init_acl() - the ACLs a new inode inherits from @dir's default
 * @inode: the new inode, its mode set by posix_acl_create() already
 * @default_acl: what posix_acl_create() gave, released here
 * @acl: likewise
 *
 * Return: 0 or a negative errno.
 */
int pram_init_acl(struct inode *inode, struct posix_acl *default_acl,
		  struct posix_acl *acl)
{
	int err = 0;

	if (default_acl)
		err = pram_store_acl(inode, default_acl, ACL_TYPE_DEFAULT);
	if (acl && !err)
		err = pram_store_acl(inode, acl, ACL_TYPE_ACCESS);
	posix_acl_release(default_acl);
	posix_acl_release(acl);
	return err;
}
