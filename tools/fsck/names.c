// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs: entries' names as the passes read them (whole, with a long
 * name's records: pram_entry_name()), and the sweep of name records that
 * no entry's valid name holds, run once names stop changing (after pass
 * 3's renames and clears).
 */
#include <stdio.h>
#include "fsck.h"

/**
 * fsck_name() - entry @ino's name, for messages
 * @f: the check
 * @ino: an entry
 * @buf: PRAM_NAME_MAX + 1 bytes
 *
 * Return: @buf: the whole name, or what the record holds of a bad one.
 */
const char *fsck_name(struct fsck *f, u32 ino, char *buf)
{
	const struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u32 len;

	if (!pram_img_name(&f->img, ino, buf, &len))
		return buf;
	if (pram_is_long_name(pi))
		snprintf(buf, PRAM_NAME_MAX + 1, "%.*s...", PRAM_NAME_HEAD,
			 pi->i_long.l_head);
	else
		snprintf(buf, PRAM_NAME_MAX + 1, "%.*s", (int)pram_name_len(pi),
			 pi->i_name);
	return buf;
}

/**
 * fsck_names_equal() - is entry @ino's valid name @name?
 * @f: the check
 * @ino: an entry
 * @name: a name
 * @len: its length
 */
bool fsck_names_equal(struct fsck *f, u32 ino, const char *name, u32 len)
{
	char buf[PRAM_NAME_MAX + 1];
	u32 have;

	return !pram_img_name(&f->img, ino, buf, &have) && have == len &&
	       !memcmp(buf, name, len);
}

/* Mark the records of every valid long name of an entry in use. */
static void mark_owned(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count, rec, len;
	char buf[PRAM_NAME_MAX + 1];
	const struct pram_inode *pi;
	unsigned int i;

	for (ino = PRAM_ROOT_INO; ino < end; ino++)
		*fsck_state(f, ino) &= ~IN_OWNED;
	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		pi = pram_img_inode(&f->img, ino);
		if (!(*fsck_state(f, ino) & IN_USED) || !pram_is_long_name(pi) ||
		    pram_img_name(&f->img, ino, buf, &len))
			continue;
		for (i = 0; i < PRAM_NAME_RECS; i++) {
			rec = pram_name_rec_at(pi, i);
			if (rec)
				*fsck_state(f, rec) |= IN_OWNED;
		}
	}
}

/**
 * fsck_name_records() - free the name records no entry's name holds
 * @f: the check
 *
 * Left by an entry cleared or renamed by a repair, or by a cut that a
 * journal did not cover.
 */
void fsck_name_records(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count;

	mark_owned(f);
	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		if ((*fsck_state(f, ino) & (IN_NAME | IN_OWNED)) != IN_NAME)
			continue;
		if (fsck_problem(f, PR_NAME_REC_ORPHAN, "Name record %u belongs to no entry's name (owner %u)",
				 ino, le32_to_cpu(((struct pram_name_rec *)
						   pram_img_inode(&f->img, ino))->n_owner)))
			fsck_clear_inode(f, ino);
	}
}
