// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS entries in NVRAM: their names, short or long, and the inodes
 * they name (the format is in pramfs_fs.h, the pure code in name.c).
 *
 * A name longer than PRAM_NAME_LEN takes one or two name records, slots
 * of the inode table. They are reserved before an operation changes
 * anything (pram_name_reserve(), which may fail), written with the
 * entry's record, and the records of the name they replace are freed
 * in the same transaction. An entry that goes for good gives its
 * records back (pram_name_free()).
 */
#include <linux/slab.h>
#include "pramfs.h"

/**
 * pram_set_incompat() - mark a feature in use, before its first use
 * @sb: the superblock, mounted read-write
 * @bit: a PRAM_FEATURE_INCOMPAT_* bit
 *
 * The superblock pair is written (durably) before anything that needs
 * the feature: a power cut never leaves such a record on a filesystem
 * that does not say it may hold one. The bit is never cleared.
 */
void pram_set_incompat(struct super_block *sb, u32 bit)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_super_block *ps;

	u32 old;

	if (READ_ONCE(sbi->geo.incompat) & bit)
		return;
	ps = pram_super_begin(sb);
	ps->s_feature_incompat |= cpu_to_le32(bit);
	pram_super_commit(sb, ps);
	/* Two first users (no journal to serialise them) may both get here. */
	do {
		old = READ_ONCE(sbi->geo.incompat);
	} while (!(old & bit) && cmpxchg(&sbi->geo.incompat, old, old | bit) != old);
	if (!(old & bit))
		pram_info(sb, "feature %s in use from now on",
			  pram_feature_name(bit));
}

struct pram_name_fill {
	u32			owner;
	const struct qstr	*name;
	unsigned int		i;
};

static void pram_name_fill_rec(struct pram_inode *pi, u32 ino, void *arg)
{
	struct pram_name_fill *f = arg;

	pram_name_rec_fill((struct pram_name_rec *)pi, ino, f->owner,
			   f->name->name, f->name->len, f->i);
}

/**
 * pram_name_reserve() - the name records a new name needs, written
 * @sb: the superblock
 * @owner: the entry that will have the name
 * @name: the name, at most PRAM_NAME_MAX bytes
 * @ns: the records taken
 *
 * Inside the operation's transaction, as its last step that may fail:
 * give them to pram_name_set(), or back with pram_name_unreserve().
 *
 * Return: 0, or -ENOSPC with nothing taken.
 */
int pram_name_reserve(struct super_block *sb, u32 owner,
		      const struct qstr *name, struct pram_name_slots *ns)
{
	struct pram_name_fill f = { .owner = owner, .name = name };
	unsigned int want = pram_name_recs(name->len);
	int err;

	ns->n = 0;
	if (!want)
		return 0;
	pram_set_incompat(sb, PRAM_FEATURE_INCOMPAT_LONGNAMES);
	while (ns->n < want) {
		f.i = ns->n;
		/* Not journaled: pram_name_rec_finish() frees it after a cut. */
		err = pram_new_slot(sb, pram_name_fill_rec, &f, false,
				    &ns->rec[ns->n]);
		if (err) {
			pram_name_unreserve(sb, ns);
			return err;
		}
		ns->n++;
	}
	return 0;
}

/**
 * pram_name_unreserve() - give back name records an operation did not use
 * @sb: the superblock
 * @ns: from pram_name_reserve()
 */
void pram_name_unreserve(struct super_block *sb, struct pram_name_slots *ns)
{
	while (ns->n)
		pram_free_ino(sb, ns->rec[--ns->n]);
}

/**
 * pram_name_recs_of() - the name records of entry @ino, before they change
 * @sb: the superblock
 * @ino: an entry
 * @recs: its records, 0 for none
 */
void pram_name_recs_of(struct super_block *sb, u32 ino, u32 recs[PRAM_NAME_RECS])
{
	const struct pram_inode *pi = pram_get_inode(sb, ino);
	unsigned int i;

	for (i = 0; i < PRAM_NAME_RECS; i++)
		recs[i] = pram_name_rec_at(pi, i);
}

/**
 * pram_name_free_recs() - free the name records @recs of entry @ino
 * @sb: the superblock
 * @ino: the entry, whose name no longer names them
 * @recs: from pram_name_recs_of()
 *
 * A record that is not the entry's (a corrupt entry pointed elsewhere)
 * is not touched.
 */
void pram_name_free_recs(struct super_block *sb, u32 ino,
			 const u32 recs[PRAM_NAME_RECS])
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const struct pram_name_rec *nr;
	const char *why;
	unsigned int i;

	for (i = 0; i < PRAM_NAME_RECS; i++) {
		if (!recs[i])
			continue;
		nr = (const void *)pram_get_inode(sb, recs[i]);
		if (!nr || pram_name_rec_check(nr, recs[i], &sbi->geo, &why) ||
		    le32_to_cpu(nr->n_owner) != ino) {
			pram_error(sb, ino, "name record %u not freed: not this entry's",
				   recs[i]);
			continue;
		}
		pram_free_ino(sb, recs[i]);
	}
}

/**
 * pram_name_set() - give entry @ino the name @name, and links
 * @sb: the superblock
 * @ino: the entry
 * @name: its new name
 * @ns: the records pram_name_reserve() took (and wrote) for it; used up
 * @pos: its new place in a list, or NULL to leave its links
 * @parent: with @pos, its directory
 * @inode: the VFS inode whose own record @ino is, to write its attributes
 *	   in the same store, or NULL
 *
 * The entry's record is written, then the records of the name it had
 * are freed.
 */
void pram_name_set(struct super_block *sb, u32 ino, const struct qstr *name,
		   struct pram_name_slots *ns, const struct pram_list_pos *pos,
		   u32 parent, struct inode *inode)
{
	u32 old[PRAM_NAME_RECS];
	struct pram_inode *pi;

	pram_name_recs_of(sb, ino, old);
	pi = pram_record_begin_named(sb, ino);
	if (inode)
		pram_inode_to_record(inode, pi);
	pram_name_store(pi, name->name, name->len, ns->rec);
	if (pos) {
		pi->i_parent = cpu_to_le32(parent);
		pi->i_prev = cpu_to_le32(pos->prev);
		pi->i_next = cpu_to_le32(pos->next);
	}
	pram_record_end(sb, pi);
	ns->n = 0;
	pram_name_free_recs(sb, ino, old);
}

/**
 * pram_entry_name_get() - the whole name of an entry of a directory's index
 * @sb: the superblock
 * @ino: an entry, checked when the index was built
 * @buf: PRAM_NAME_MAX + 1 bytes
 * @len: the name's length
 *
 * Not checked again (pram_entry_name_copy()): the directory's lock keeps
 * it as it was.
 *
 * Return: 0, or -EUCLEAN for records that cannot be where the name says
 * (not logged: the caller knows what the entry is to it).
 */
int pram_entry_name_get(struct super_block *sb, u32 ino, char *buf, u32 *len)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const struct pram_inode *pi = pram_get_inode(sb, ino);

	if (!pi || pram_entry_name_copy(&sbi->geo, sbi->virt_addr, ino, pi, buf,
					len))
		return -EUCLEAN;
	return 0;
}

/**
 * pram_entry_inode() - the inode entry @ino names
 * @sb: the superblock
 * @ino: an entry of a directory, checked
 *
 * Return: the entry itself, or for a link entry the inode it names
 * (checked when it is read: pram_iget()).
 */
u32 pram_entry_inode(struct super_block *sb, u32 ino)
{
	const struct pram_inode *pi = pram_get_inode(sb, ino);

	return (pi ? pram_link_target(pi) : 0) ?: ino;
}

/**
 * pram_new_link() - a new link entry naming inode @target, in no list yet
 * @sb: the superblock
 * @target: the inode it names
 * @entry: its number
 *
 * Return: 0, or -ENOSPC.
 */
int pram_new_link(struct super_block *sb, u32 target, u32 *entry)
{
	struct pram_inode *pi;
	int err = pram_new_ino(sb, PRAM_S_IFLINK, entry);

	if (err)
		return err;
	pi = pram_record_begin(sb, *entry);
	pi->i_type.link.ino = cpu_to_le32(target);
	pram_record_end(sb, pi);
	return 0;
}

/* Does entry @owner's name hold name record @rec? */
static bool pram_name_rec_held(struct super_block *sb, u32 owner, u32 rec)
{
	const struct pram_inode *pi = pram_get_inode(sb, owner);
	umode_t mode;

	if (!pi || owner == rec)
		return false;
	mode = le16_to_cpu(READ_ONCE(pi->i_mode));
	return (pram_mode_is_inode(mode) || pram_mode_is_link(mode)) &&
	       (pram_name_rec_at(pi, 0) == rec || pram_name_rec_at(pi, 1) == rec);
}

/**
 * pram_name_rec_finish() - free name record @rec if no entry's name holds it
 * @sb: the superblock, mounted read-write after an unclean stop
 * @rec: a slot whose mode is PRAM_S_IFNAME
 *
 * Name records are written without the journal (pram_name_reserve()):
 * one that the operation a power cut undid had taken is held by no name,
 * whatever its bytes, and goes (a torn one that lost its mode is a free
 * slot that is not all zeros: pram_finish_orphans() clears those). One
 * that a name holds stays, good or bad, for the checks of that name.
 *
 * Return: whether it was freed.
 */
bool pram_name_rec_finish(struct super_block *sb, u32 rec)
{
	const struct pram_name_rec *nr = (const void *)pram_get_inode(sb, rec);

	if (pram_name_rec_held(sb, le32_to_cpu(READ_ONCE(nr->n_owner)), rec))
		return false;
	pram_free_ino(sb, rec);
	return true;
}
