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

	if (READ_ONCE(sbi->geo.incompat) & bit)
		return;
	ps = pram_super_begin(sb);
	ps->s_feature_incompat |= cpu_to_le32(bit);
	pram_super_commit(sb, ps);
	WRITE_ONCE(sbi->geo.incompat, sbi->geo.incompat | bit);
	pram_info(sb, "feature %s in use from now on",
		  bit == PRAM_FEATURE_INCOMPAT_LINKS ? "links" : "longnames");
}

/**
 * pram_name_reserve() - the name records a new name needs
 * @sb: the superblock
 * @name: the name, at most PRAM_NAME_MAX bytes
 * @ns: the records reserved
 *
 * Inside the operation's transaction, before it changes anything: give
 * them to pram_name_set(), or back with pram_name_unreserve().
 *
 * Return: 0, or -ENOSPC with nothing reserved.
 */
int pram_name_reserve(struct super_block *sb, const struct qstr *name,
		      struct pram_name_slots *ns)
{
	unsigned int want = pram_name_recs(name->len);
	int err;

	ns->n = 0;
	if (!want)
		return 0;
	pram_set_incompat(sb, PRAM_FEATURE_INCOMPAT_LONGNAMES);
	while (ns->n < want) {
		err = pram_new_ino(sb, PRAM_S_IFNAME, &ns->rec[ns->n]);
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

/* The name records of entry @ino (0 for none), read before they change. */
static void pram_name_recs_of(struct super_block *sb, u32 ino,
			      u32 recs[PRAM_NAME_RECS])
{
	const struct pram_inode *pi = pram_get_inode(sb, ino);
	unsigned int i;

	for (i = 0; i < PRAM_NAME_RECS; i++)
		recs[i] = pram_name_rec_at(pi, i);
}

/*
 * Free the records of @recs that are entry @ino's: a record that is
 * not (a corrupt entry pointed elsewhere) is not touched.
 */
static void pram_name_free_recs(struct super_block *sb, u32 ino,
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
 * pram_name_free() - give back the name records of an entry that goes
 * @sb: the superblock
 * @ino: the entry (an inode being freed, or a link entry)
 */
void pram_name_free(struct super_block *sb, u32 ino)
{
	u32 recs[PRAM_NAME_RECS];

	pram_name_recs_of(sb, ino, recs);
	pram_name_free_recs(sb, ino, recs);
}

/* Write the name records @ns of @name, for entry @ino. */
static void pram_name_write_recs(struct super_block *sb, u32 ino,
				 const struct qstr *name,
				 const struct pram_name_slots *ns)
{
	struct pram_inode *pi;
	unsigned int i;

	for (i = 0; i < ns->n; i++) {
		pi = pram_record_begin(sb, ns->rec[i]);
		pram_name_rec_fill((struct pram_name_rec *)pi, ns->rec[i], ino,
				   name->name, name->len, i);
		pram_record_end(sb, pi);
	}
}

/**
 * pram_name_set() - give entry @ino the name @name, and links
 * @sb: the superblock
 * @ino: the entry
 * @name: its new name
 * @ns: the records pram_name_reserve() took for it; used up
 * @pos: its new place in a list, or NULL to leave its links
 * @parent: with @pos, its directory
 *
 * The new records are written first, then the entry's record; the
 * records of the name it had are freed last.
 */
void pram_name_set(struct super_block *sb, u32 ino, const struct qstr *name,
		   struct pram_name_slots *ns, const struct pram_list_pos *pos,
		   u32 parent)
{
	u32 old[PRAM_NAME_RECS];
	struct pram_inode *pi;

	pram_name_recs_of(sb, ino, old);
	pram_name_write_recs(sb, ino, name, ns);
	pi = pram_record_begin(sb, ino);
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
 * pram_entry_name_get() - entry @ino's whole name
 * @sb: the superblock
 * @ino: an entry
 * @buf: PRAM_NAME_MAX + 1 bytes
 * @len: the name's length
 *
 * Return: 0, or -EUCLEAN for a name that fails its checks (not logged:
 * the caller knows what the entry is to it).
 */
int pram_entry_name_get(struct super_block *sb, u32 ino, char *buf, u32 *len)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const struct pram_inode *pi = pram_get_inode(sb, ino);
	const char *why;

	if (!pi || pram_entry_name(&sbi->geo, sbi->virt_addr, ino, pi, buf, len,
				   &why))
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
