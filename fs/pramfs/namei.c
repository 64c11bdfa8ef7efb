// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS namespace operations: create, mkdir, mknod, symlink, link,
 * unlink, rmdir and rename, and symlinks.
 *
 * An inode's first name is its own entry (the name is in the inode);
 * each further one (link(2)) is a link entry, a slot of its own that
 * names the inode. unlink and rename act on the entry their name is:
 * a link entry goes with its name; an inode's own entry leaves its list
 * and the inode lives on, in no list, while other names or users hold
 * it. A symlink's target is stored NUL-terminated in one block, named
 * by the row block field of its inode.
 *
 * Each operation is one transaction (tx.c): a power cut leaves it wholly
 * done or not done at all.
 */
#include <linux/fs.h>
#include <linux/posix_acl.h>
#include <linux/slab.h>
#include "pramfs.h"

/*
 * @dir changed: its times are now. When a list link in its own record
 * carried them (pram_set_link()), the record is written again only if
 * something else changed (its link count).
 */
static void pram_touch_dir(struct inode *dir)
{
	struct pram_inode_info *pii = PRAM_I(dir);

	if (pii->i_stamped) {
		pii->i_stamped = false;
		if (pram_record_holds(dir))
			return;
	} else {
		inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
	}
	pram_update_inode(dir);
}

/* A new inode's record, from the VFS inode: all of it in one write. */
static void pram_fill_new(struct pram_inode *pi, u32 ino, void *arg)
{
	pram_inode_to_record(arg, pi);
}

/*
 * A slot for the new @inode: held, its record written when it is linked
 * (pram_instantiate()), or, without the journal, where nothing holds a
 * slot, written now.
 */
static int pram_new_record(struct inode *inode, u32 *ino)
{
	struct super_block *sb = inode->i_sb;

	if (pram_tx_may_hold(sb))
		return pram_hold_slot(sb, pram_fill_new, inode, ino);
	return pram_new_slot(sb, pram_fill_new, inode, true, ino);
}

/*
 * The attributes a new inode starts with, in the transaction that makes
 * it: the ACLs it inherits and an LSM's label.
 */
static int pram_init_xattrs(struct inode *inode, struct inode *dir,
			    const struct qstr *name,
			    struct posix_acl *default_acl, struct posix_acl *acl)
{
	return pram_init_acl(inode, default_acl, acl) ?:
	       pram_init_security(inode, dir, name);
}

/*
 * A new inode for @dir, its slot taken (pram_new_record()) but in no list
 * yet (its i_parent is 0). On a later failure, clear_nlink() and
 * discard_new_inode() give its blocks and its number back.
 */
static struct inode *pram_new_inode(struct mnt_idmap *idmap, struct inode *dir,
				    const struct qstr *name, umode_t mode,
				    dev_t rdev)
{
	struct posix_acl *default_acl = NULL, *acl = NULL;
	struct super_block *sb = dir->i_sb;
	struct inode *inode;
	u32 ino;
	int err;

	if (name->len > PRAM_NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	inode = new_inode(sb);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode_init_owner(idmap, inode, dir, mode);
	simple_inode_init_ts(inode);
	if (S_ISDIR(inode->i_mode))
		set_nlink(inode, 2);
	pram_set_ops(inode, rdev);
	/* The mode the default ACL leaves, before the record is written. */
	err = posix_acl_create(dir, &inode->i_mode, &default_acl, &acl);
	if (err)
		goto put_inode;
	err = pram_new_record(inode, &ino);
	if (err)
		goto release_acls;
	inode->i_ino = ino;
	err = insert_inode_locked(inode);
	if (err) {
		pram_error(sb, ino, "new inode is already in use");
		clear_nlink(inode);
		goto release_acls;
	}
	err = pram_init_xattrs(inode, dir, name, default_acl, acl);
	if (err) {
		clear_nlink(inode);
		discard_new_inode(inode);
		return ERR_PTR(err);
	}
	return inode;

release_acls:
	posix_acl_release(default_acl);
	posix_acl_release(acl);
put_inode:
	iput(inode);
	return ERR_PTR(err);
}

/* Link the new @inode into @dir under @dentry, or give it back. */
static int pram_instantiate(struct inode *dir, struct dentry *dentry,
			    struct inode *inode)
{
	int err = pram_add_entry(dir, inode->i_ino, &dentry->d_name, inode);

	if (err) {
		clear_nlink(inode);
		discard_new_inode(inode);
		return err;
	}
	if (S_ISDIR(inode->i_mode))
		inc_nlink(dir);
	pram_touch_dir(dir);
	d_instantiate_new(dentry, inode);
	return 0;
}

static int pram_mknod(struct mnt_idmap *idmap, struct inode *dir,
		      struct dentry *dentry, umode_t mode, dev_t rdev)
{
	struct inode *inode;
	int err;

	pram_tx_begin(dir->i_sb);
	inode = pram_new_inode(idmap, dir, &dentry->d_name, mode, rdev);
	err = IS_ERR(inode) ? PTR_ERR(inode) :
	      pram_instantiate(dir, dentry, inode);
	pram_tx_end(dir->i_sb);
	return err;
}

static int pram_create(struct mnt_idmap *idmap, struct inode *dir,
		       struct dentry *dentry, umode_t mode, bool excl)
{
	return pram_mknod(idmap, dir, dentry, mode, 0);
}

static int pram_mkdir(struct mnt_idmap *idmap, struct inode *dir,
		      struct dentry *dentry, umode_t mode)
{
	return pram_mknod(idmap, dir, dentry, mode | S_IFDIR, 0);
}

/* ---- symlinks ---- */

static int pram_write_symlink(struct inode *inode, const char *target,
			      size_t len)
{
	struct super_block *sb = inode->i_sb;
	struct pram_inode *pi;
	u32 block;
	void *addr;
	int err;

	err = pram_new_block(sb, &block);
	if (err)
		return err;
	addr = pram_wp_open(sb, pram_block_addr(sb, block), sb->s_blocksize);
	memcpy(addr, target, len);
	memset(addr + len, 0, sb->s_blocksize - len);
	pram_wp_close(sb, addr, sb->s_blocksize);

	pi = pram_record_begin(sb, inode->i_ino);
	pi->i_type.reg.row_block = cpu_to_le32(block);
	pram_record_end(sb, pi);
	inode->i_size = len;
	inode->i_blocks = sb->s_blocksize >> 9;
	pram_update_inode(inode);
	return 0;
}

/* A target and its NUL fit in one block: up to block size - 1 bytes. */
static int pram_symlink(struct mnt_idmap *idmap, struct inode *dir,
			struct dentry *dentry, const char *target)
{
	size_t len = strlen(target);
	struct inode *inode;
	int err;

	if (len >= dir->i_sb->s_blocksize)
		return -ENAMETOOLONG;
	pram_tx_begin(dir->i_sb);
	inode = pram_new_inode(idmap, dir, &dentry->d_name, S_IFLNK | 0777, 0);
	if (IS_ERR(inode)) {
		err = PTR_ERR(inode);
		goto end_tx;
	}
	err = pram_write_symlink(inode, target, len);
	if (err) {
		clear_nlink(inode);
		discard_new_inode(inode);
		goto end_tx;
	}
	err = pram_instantiate(dir, dentry, inode);
end_tx:
	pram_tx_end(dir->i_sb);
	return err;
}

/*
 * The target is copied out of the NVRAM and checked in the copy, so a
 * change under the VFS's walk cannot take its NUL away. Not in RCU walk:
 * the copy needs an allocation that may sleep.
 */
static const char *pram_get_link(struct dentry *dentry, struct inode *inode,
				 struct delayed_call *done)
{
	struct super_block *sb = inode->i_sb;
	u32 block = pram_row_block(inode);
	loff_t len = i_size_read(inode);
	char *target;

	if (!dentry)
		return ERR_PTR(-ECHILD);
	if (!pram_block_valid(&PRAM_SB(sb)->geo, block) ||
	    len >= sb->s_blocksize)
		goto corrupt;
	target = kmalloc(len + 1, GFP_KERNEL);
	if (!target)
		return ERR_PTR(-ENOMEM);
	memcpy(target, pram_block_addr(sb, block), len + 1);
	if (strnlen(target, len + 1) != len) {
		kfree(target);
		goto corrupt;
	}
	set_delayed_call(done, kfree_link, target);
	return target;
corrupt:
	pram_error(sb, inode->i_ino, "symlink: bad target block or length");
	return ERR_PTR(-EUCLEAN);
}

/* ---- removing and renaming ---- */

/* A directory with entries, bad ones too, cannot be removed or replaced. */
static int pram_check_removable(struct inode *inode)
{
	int empty;

	if (!S_ISDIR(inode->i_mode))
		return 0;
	empty = pram_dir_empty(inode);
	if (empty < 0)
		return empty;
	return empty ? 0 : -ENOTEMPTY;
}

/*
 * The subdirectory link a directory's entry held in @dir goes. A count
 * already at 2 is wrong (it was read so); it stays rather than wrap.
 */
static void pram_drop_dir_link(struct inode *dir)
{
	if (dir->i_nlink > 2)
		drop_nlink(dir);
	else
		pram_error(dir->i_sb, dir->i_ino, "link count lower than its subdirectories");
}

/*
 * @inode's entry is going from @dir: drop the links it held, one for a
 * file; both of a directory, and its ".." in @dir. In memory: the caller
 * writes the record.
 */
static void pram_entry_dropped(struct inode *dir, struct inode *inode)
{
	inode_set_ctime_current(inode);
	if (S_ISDIR(inode->i_mode)) {
		clear_nlink(inode);
		pram_drop_dir_link(dir);
	} else {
		drop_nlink(inode);
	}
}

/*
 * Take the entry @entry of @inode out of @dir for good (its name goes
 * with it) and drop the links it held: a link entry's slot is freed; an
 * inode's own entry leaves it in no list, until eviction frees it or its
 * other names keep it, its attributes written with its list links.
 */
static void pram_entry_remove(struct inode *dir, u32 entry,
			      const struct pram_list_pos *pos,
			      struct inode *inode)
{
	bool own = entry == inode->i_ino;

	pram_entry_dropped(dir, inode);
	pram_dir_remove(dir, entry, pos, own ? inode : NULL);
	if (!own) {
		pram_free_ino(dir->i_sb, entry);
		pram_update_inode(inode);
	}
}

/*
 * A name of @inode is to go: a file whose count says it has none left
 * was read so, or counted wrong; the count must never wrap.
 */
static int pram_check_links_left(struct inode *inode)
{
	if (S_ISDIR(inode->i_mode) || inode->i_nlink)
		return 0;
	pram_error(inode->i_sb, inode->i_ino, "a name to remove, and no link counted");
	return -EUCLEAN;
}

/* unlink and rmdir: the VFS has checked which one the entry allows. */
static int pram_remove(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);
	struct pram_list_pos pos;
	u32 entry;
	int err;

	err = pram_check_removable(inode) ?: pram_check_links_left(inode);
	if (!err)
		err = pram_dir_name_entry(dir, &dentry->d_name, inode, &entry);
	if (!err)
		err = pram_dir_find_entry(dir, entry, &pos);
	if (err)
		return err;
	pram_entry_remove(dir, entry, &pos, inode);
	pram_touch_dir(dir);
	return 0;
}

static int pram_unlink(struct inode *dir, struct dentry *dentry)
{
	int err;

	pram_tx_begin(dir->i_sb);
	err = pram_remove(dir, dentry);
	pram_tx_end(dir->i_sb);
	return err;
}

/*
 * link(2): a link entry for @old_dentry's inode, in @dir under
 * @dentry's name. The VFS has refused directories, an inode with no
 * link left, and one at s_max_links (EMLINK). The count goes up before
 * the name appears (and back down if it does not): without a journal, a
 * cut in between leaves a count too high, which fsck lowers, never one
 * too low, which would free the inode under a name.
 */
static int pram_link(struct dentry *old_dentry, struct inode *dir,
		     struct dentry *dentry)
{
	struct super_block *sb = dir->i_sb;
	struct inode *inode = d_inode(old_dentry);
	u32 entry;
	int err;

	pram_tx_begin(sb);
	pram_set_incompat(sb, PRAM_FEATURE_INCOMPAT_LINKS);
	err = pram_new_link(sb, inode->i_ino, &entry);
	if (err)
		goto end_tx;
	inc_nlink(inode);
	pram_update_inode(inode);
	err = pram_add_entry(dir, entry, &dentry->d_name, NULL);
	if (err) {
		drop_nlink(inode);
		pram_update_inode(inode);
		pram_free_ino(sb, entry);
		goto end_tx;
	}
	inode_set_ctime_current(inode);
	pram_update_inode(inode);
	pram_touch_dir(dir);
	ihold(inode);
	d_instantiate(dentry, inode);
end_tx:
	pram_tx_end(sb);
	return err;
}

/* A directory moved from @from to @to takes its ".." link along. */
static void pram_move_dir_link(struct inode *inode, struct inode *from,
			       struct inode *to)
{
	if (!S_ISDIR(inode->i_mode) || from == to)
		return;
	pram_drop_dir_link(from);
	inc_nlink(to);
}

/*
 * The inode whose entry @entry is, if that is its own: its attributes,
 * the new ctime with them, go in the store that names it.
 */
static struct inode *pram_renaming(struct inode *inode, u32 entry)
{
	inode_set_ctime_current(inode);
	return entry == inode->i_ino ? inode : NULL;
}

/* The attributes of @inode, if its entry's store did not carry them. */
static void pram_renamed(struct inode *inode, struct inode *written)
{
	if (!written)
		pram_update_inode(inode);
}

static void pram_touch_dirs(struct inode *old_dir, struct inode *new_dir)
{
	pram_touch_dir(old_dir);
	if (new_dir != old_dir)
		pram_touch_dir(new_dir);
}

/*
 * A move between two directories: where the entry is, and where it goes.
 * Both are found, and the links around them checked, before anything is
 * written, so a move that fails leaves both lists as they were.
 */
struct pram_move {
	struct pram_list_pos	from, to;
};

static int pram_move_find(struct inode *from, u32 entry, struct inode *to,
			  struct pram_move *mv)
{
	int err = pram_dir_find_entry(from, entry, &mv->from);

	if (!err)
		err = pram_dir_find_gap(to, entry, &mv->to);
	return err;
}

static void pram_move_entry(struct inode *from, struct inode *inode, u32 entry,
			    struct inode *to, const struct qstr *name,
			    struct pram_name_slots *ns,
			    const struct pram_move *mv, struct inode *own)
{
	pram_dir_unlink(from, entry, &mv->from);
	pram_dir_link(to, entry, name, ns, &mv->to, own);
	pram_move_dir_link(inode, from, to);
}

/*
 * What a rename finds before it writes: the entries its names are, their
 * places, and the name records the new names need.
 */
struct pram_rename_plan {
	struct inode		*old_dir, *new_dir;
	struct inode		*a, *b;		/* the source; target or partner */
	u32			ea, eb;		/* their entries */
	struct pram_move	ma, mb;		/* moves of a (and of b) */
	struct pram_list_pos	b_pos;		/* where the target is */
	struct pram_name_slots	na, nb;		/* a's new name, b's */
};

/* The entries the rename's names are. */
static int pram_rename_entries(struct pram_rename_plan *p,
			       struct dentry *old_dentry,
			       struct dentry *new_dentry)
{
	int err;

	p->na.n = p->nb.n = 0;
	err = pram_dir_name_entry(p->old_dir, &old_dentry->d_name, p->a, &p->ea);
	if (!err && p->b)
		err = pram_dir_name_entry(p->new_dir, &new_dentry->d_name, p->b,
					  &p->eb);
	return err;
}

/*
 * The name records the new names need: the last step that may fail,
 * after every place is found, so that a rename that fails has changed
 * nothing.
 */
static int pram_rename_reserve(struct pram_rename_plan *p,
			       struct dentry *old_dentry,
			       struct dentry *new_dentry, bool exchange)
{
	struct super_block *sb = p->old_dir->i_sb;
	int err = pram_name_reserve(sb, p->ea, &new_dentry->d_name, &p->na);

	if (!err && exchange) {
		err = pram_name_reserve(sb, p->eb, &old_dentry->d_name, &p->nb);
		if (err)
			pram_name_unreserve(sb, &p->na);
	}
	return err;
}

/*
 * Run @find, which finds several list positions. Each find may build a
 * list's index again, which may rewrite the list: positions found before
 * are then stale, and all are found again (a list that does not stay
 * repaired is -EUCLEAN).
 */
static int pram_find_stable(struct pram_rename_plan *p,
			    int (*find)(struct pram_rename_plan *p))
{
	unsigned int gen;
	int err, tries = 0;

	do {
		gen = pram_dir_gen(p->old_dir, p->new_dir);
		err = find(p);
	} while (!err && gen != pram_dir_gen(p->old_dir, p->new_dir) &&
		 !tries++);
	if (!err && gen != pram_dir_gen(p->old_dir, p->new_dir))
		err = -EUCLEAN;
	return err;
}

static int pram_exchange_find(struct pram_rename_plan *p)
{
	return pram_move_find(p->old_dir, p->ea, p->new_dir, &p->ma) ?:
	       pram_move_find(p->new_dir, p->eb, p->old_dir, &p->mb);
}

static int pram_rename_find(struct pram_rename_plan *p)
{
	int err = 0;

	if (p->b)
		err = pram_dir_find_entry(p->new_dir, p->eb, &p->b_pos);
	if (!err && p->old_dir != p->new_dir)
		err = pram_move_find(p->old_dir, p->ea, p->new_dir, &p->ma);
	return err;
}

/* RENAME_EXCHANGE: entry ea takes b's name and place, eb a's. */
static int pram_exchange(struct pram_rename_plan *p, struct dentry *old_dentry,
			 struct dentry *new_dentry)
{
	struct inode *old_dir = p->old_dir, *new_dir = p->new_dir;
	struct inode *a = p->a, *b = p->b;
	struct qstr a_name = old_dentry->d_name, b_name = new_dentry->d_name;
	struct pram_move *ma = &p->ma, *mb = &p->mb;
	struct inode *own_a, *own_b;
	int err;

	if (old_dir == new_dir) {
		err = pram_rename_reserve(p, old_dentry, new_dentry, true);
		if (err)
			return err;
		own_a = pram_renaming(a, p->ea);
		own_b = pram_renaming(b, p->eb);
		/* In place: each keeps its position in the list. */
		pram_dir_rename(old_dir, p->ea, &b_name, &p->na, own_a);
		pram_dir_rename(old_dir, p->eb, &a_name, &p->nb, own_b);
		goto done;
	}
	err = pram_find_stable(p, pram_exchange_find) ?:
	      pram_rename_reserve(p, old_dentry, new_dentry, true);
	if (err)
		return err;
	own_a = pram_renaming(a, p->ea);
	own_b = pram_renaming(b, p->eb);
	/* Each one's new place was found with the other still there. */
	pram_dir_pos_skip(&ma->to, p->eb, &mb->from);
	pram_dir_pos_skip(&mb->to, p->ea, &ma->from);
	pram_dir_unlink(old_dir, p->ea, &ma->from);
	pram_dir_unlink(new_dir, p->eb, &mb->from);
	pram_dir_link(new_dir, p->ea, &b_name, &p->na, &ma->to, own_a);
	pram_dir_link(old_dir, p->eb, &a_name, &p->nb, &mb->to, own_b);
	pram_move_dir_link(a, old_dir, new_dir);
	pram_move_dir_link(b, new_dir, old_dir);
done:
	pram_renamed(b, own_b);
	pram_renamed(a, own_a);
	pram_touch_dirs(old_dir, new_dir);
	return 0;
}

/* A rename, over the target if there is one. */
static int pram_rename_one(struct pram_rename_plan *p, struct dentry *old_dentry,
			   struct dentry *new_dentry)
{
	struct inode *old_dir = p->old_dir, *new_dir = p->new_dir;
	struct inode *target = p->b, *own;
	int err;

	err = target ? pram_check_removable(target) ?:
		       pram_check_links_left(target) : 0;
	if (!err)
		err = pram_find_stable(p, pram_rename_find);
	if (!err)
		err = pram_rename_reserve(p, old_dentry, new_dentry, false);
	if (err)
		return err;
	if (target) {
		if (old_dir != new_dir)
			pram_dir_pos_skip(&p->ma.to, p->eb, &p->b_pos);
		pram_entry_remove(new_dir, p->eb, &p->b_pos, target);
	}
	own = pram_renaming(p->a, p->ea);
	if (old_dir == new_dir)
		pram_dir_rename(old_dir, p->ea, &new_dentry->d_name, &p->na,
				own);
	else
		pram_move_entry(old_dir, p->a, p->ea, new_dir,
				&new_dentry->d_name, &p->na, &p->ma, own);
	pram_renamed(p->a, own);
	pram_touch_dirs(old_dir, new_dir);
	return 0;
}

static int pram_rename(struct mnt_idmap *idmap, struct inode *old_dir,
		       struct dentry *old_dentry, struct inode *new_dir,
		       struct dentry *new_dentry, unsigned int flags)
{
	struct pram_rename_plan p = {
		.old_dir = old_dir, .new_dir = new_dir,
		.a = d_inode(old_dentry), .b = d_inode(new_dentry),
	};
	bool exchange = flags & RENAME_EXCHANGE;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	pram_tx_begin(old_dir->i_sb);
	err = pram_rename_entries(&p, old_dentry, new_dentry);
	if (!err && exchange)
		err = pram_exchange(&p, old_dentry, new_dentry);
	else if (!err)
		err = pram_rename_one(&p, old_dentry, new_dentry);
	pram_tx_end(old_dir->i_sb);
	return err;
}

const struct inode_operations pram_dir_inode_operations = {
	.create		= pram_create,
	.lookup		= pram_lookup,
	.link		= pram_link,
	.unlink		= pram_unlink,
	.symlink	= pram_symlink,
	.mkdir		= pram_mkdir,
	.rmdir		= pram_unlink,
	.mknod		= pram_mknod,
	.rename		= pram_rename,
	.setattr	= pram_setattr,
	.listxattr	= pram_listxattr,
	.get_inode_acl	= pram_get_inode_acl,
	.set_acl	= pram_set_acl,
};

const struct inode_operations pram_symlink_inode_operations = {
	.get_link	= pram_get_link,
	.setattr	= pram_setattr,
	.listxattr	= pram_listxattr,
};

const struct inode_operations pram_special_inode_operations = {
	.setattr	= pram_setattr,
	.listxattr	= pram_listxattr,
	.get_inode_acl	= pram_get_inode_acl,
	.set_acl	= pram_set_acl,
};
