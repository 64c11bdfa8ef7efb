// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs pass 1: every inode slot, with the kernel's own checks
 * (pram_inode_check()), and every block map, direct block and symlink
 * block; the blocks they hold are claimed, and a block claimed twice is
 * left to pass 1B. Attribute blocks are checked and claimed after all
 * of those: a bad one, or one another inode holds, costs its inode the
 * attributes only. Link counts and names are judged later (passes 2 and
 * 4), so the record is checked with them set right. Link entries are
 * checked as records here, what they name in pass 2; name records alone
 * here, and kept in pass 3 only if a valid name holds them.
 */
#include <stdlib.h>
#include "fsck.h"

static const char *kind(umode_t mode)
{
	return S_ISDIR(mode) ? "directory" : S_ISREG(mode) ? "file" :
	       S_ISLNK(mode) ? "symlink" : pram_mode_is_link(mode) ? "link entry" :
	       "special file";
}

/* Zero @ino's record: free. Its blocks, unclaimed, go back in pass 5. */
void fsck_clear_inode(struct fsck *f, u32 ino)
{
	memset(pram_img_inode(&f->img, ino), 0, PRAM_INODE_SIZE);
	*fsck_state(f, ino) = 0;
}

/* Claim @block for an inode; false if something claimed it before. */
bool fsck_claim(struct fsck *f, u32 block)
{
	if (test_bit_le(block, f->claimed)) {
		__set_bit_le(block, f->dup);
		f->any_dup = true;
		return false;
	}
	__set_bit_le(block, f->claimed);
	f->blocks_held++;
	return true;
}

/*
 * @ino's record as pass 1 judges it, in @copy: link count right, the
 * attribute block apart, and, if @name, the name too (pass 2's).
 */
static void judged_copy(struct fsck *f, u32 ino, bool name,
			struct pram_inode *copy)
{
	umode_t mode;

	*copy = *pram_img_inode(&f->img, ino);
	mode = le16_to_cpu(copy->i_mode);
	if (!pram_mode_is_link(mode))
		copy->i_links_count = cpu_to_le16(S_ISDIR(mode) ? 2 : 1);
	/* Judged alone (pass1_xattr()): a bad one costs only itself. */
	if (!pram_mode_is_link(mode))
		copy->i_xattr = 0;
	if (name && ino != PRAM_ROOT_INO) {
		memset(copy->i_name, 0, PRAM_NAME_LEN);
		copy->i_name[0] = 'x';
		copy->i_flags &= ~cpu_to_le32(PRAM_INODE_LONGNAME);
	}
	copy->i_csum = cpu_to_le32(pram_inode_csum(copy, ino));
}

/* The record as pass 1 judges it: link count and name right. */
static int check_record(struct fsck *f, u32 ino, const char **why)
{
	struct pram_inode copy;

	judged_copy(f, ino, true, &copy);
	return pram_inode_check(&copy, ino, f->g, why);
}

/*
 * The features the superblock may have lost: a record that uses one
 * fails "... without the feature". The journal's bit goes with the
 * superblock's geometry, not with a record.
 */
#define FSCK_RECORD_FEATURES	(PRAM_FEATURE_INCOMPAT_LINKS | \
				 PRAM_FEATURE_INCOMPAT_LONGNAMES | \
				 PRAM_FEATURE_INCOMPAT_XATTR | \
				 PRAM_FEATURE_INCOMPAT_DIRECT)

/*
 * Can @ino's record say which features the filesystem uses? Only a live
 * one whose checksum is right: an inode with links, or a link entry
 * naming an inode in use (name records follow their entry's head).
 */
static bool feature_witness(struct fsck *f, u32 ino)
{
	const struct pram_inode *pi = pram_img_inode(&f->img, ino), *t;
	umode_t mode = le16_to_cpu(pi->i_mode);
	u32 target;

	if (!mode || pram_mode_is_name(mode) ||
	    le32_to_cpu(pi->i_csum) != pram_inode_csum(pi, ino))
		return false;
	if (!pram_mode_is_link(mode))
		return pi->i_links_count;
	target = le32_to_cpu(pi->i_type.link.ino);
	if (!pram_ino_valid(f->g, target))
		return false;
	t = pram_img_inode(&f->img, target);
	mode = le16_to_cpu(t->i_mode);
	return mode && !pram_mode_is_link(mode) && !pram_mode_is_name(mode) &&
	       !S_ISDIR(mode);
}

/*
 * Does @pi (of @ino) pass with the features @incompat? Judged as pass 1
 * judges it (link count and attribute block apart), but with its name.
 */
static bool passes_with(struct fsck *f, const struct pram_inode *pi, u32 ino,
			u32 incompat)
{
	struct pram_geometry g = *f->g;
	const char *why;

	g.incompat = incompat;
	return !pram_inode_check(pi, ino, &g, &why);
}

/* Is @ino's attribute block (not 0) valid with the features @incompat? */
static bool xattr_passes_with(struct fsck *f, u32 ino, u32 block, u32 incompat)
{
	struct pram_geometry g = *f->g;

	g.incompat = incompat;
	return !fsck_xattr_problem(f, &g, ino, block);
}

/*
 * The features of @missing that the witness @ino needs: its record, as
 * pass 1 judges it, passes with all of them and fails without that one
 * (for longnames, with its name as pass 2 judges it; for xattr, or its
 * attribute block does).
 */
static u32 features_needed(struct fsck *f, u32 ino, u32 missing)
{
	const struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u32 all = f->g->incompat | missing, xattr = le32_to_cpu(pi->i_xattr);
	struct pram_inode judged, named, *c;
	u32 need = 0, i, bit;

	judged_copy(f, ino, true, &judged);
	judged_copy(f, ino, false, &named);
	if (pram_mode_is_link(le16_to_cpu(pi->i_mode)))
		xattr = 0;
	if (!passes_with(f, &judged, ino, all))
		return 0;
	for (i = 0; i < PRAM_NR_FEATURES; i++) {
		bit = pram_features[i].bit;
		c = bit == PRAM_FEATURE_INCOMPAT_LONGNAMES ? &named : &judged;
		if ((missing & bit) && passes_with(f, c, ino, all) &&
		    !passes_with(f, c, ino, all & ~bit))
			need |= bit;
	}
	/* A bad attribute block costs only the attributes: no witness. */
	if ((missing & PRAM_FEATURE_INCOMPAT_XATTR) && xattr &&
	    xattr_passes_with(f, ino, xattr, all))
		need |= PRAM_FEATURE_INCOMPAT_XATTR;
	return need;
}

/**
 * fsck_features() - set again the features records use but the
 * superblock lacks
 * @f: the check
 *
 * A lost feature bit would cost every record that uses the feature; as
 * e2fsck sets EXTENTS for inodes in extent format, the bit is set again
 * instead. Once, before pass 1; all missing features judged together.
 */
void fsck_features(struct fsck *f)
{
	u32 missing = FSCK_RECORD_FEATURES & ~f->g->incompat;
	u32 need, ino, end = PRAM_ROOT_INO + f->g->inodes_count;
	u32 n[PRAM_NR_FEATURES] = { }, first[PRAM_NR_FEATURES] = { };
	unsigned int i;

	for (ino = PRAM_ROOT_INO; missing && ino < end; ino++) {
		if (!feature_witness(f, ino))
			continue;
		need = features_needed(f, ino, missing);
		for (i = 0; i < PRAM_NR_FEATURES; i++)
			if ((need & pram_features[i].bit) && !n[i]++)
				first[i] = ino;
	}
	for (i = 0; i < PRAM_NR_FEATURES; i++) {
		if (n[i] && fsck_problem(f, PR_FEATURE, "%u records (the first, inode %u) use the %s feature, which the superblock lacks",
					 n[i], first[i], pram_features[i].name)) {
			pram_img_set_incompat(&f->img, pram_features[i].bit);
			pram_img_super_commit(&f->img);
		}
	}
}

/*
 * An inode in no list has no name (the kernel takes it with the entry),
 * or, deleted, a short valid one (the kernel leaves it to go with the
 * record): a long name's records are freed in pass 3 when the name
 * goes. Its names are its
 * link entries, judged in pass 2.
 */
static void check_unlisted_name(struct fsck *f, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino), copy = *pi;
	char name[PRAM_NAME_MAX + 1];
	const char *why;

	if (ino == PRAM_ROOT_INO || pi->i_parent ||
	    pram_mode_is_link(le16_to_cpu(pi->i_mode)))
		return;
	copy.i_links_count = cpu_to_le16(S_ISDIR(le16_to_cpu(pi->i_mode)) ? 2 : 1);
	copy.i_xattr = 0;	/* pass1_xattr()'s */
	copy.i_csum = cpu_to_le32(pram_inode_csum(&copy, ino));
	if (!pram_inode_check(&copy, ino, f->g, &why) ||
	    !fsck_problem(f, PR_UNLISTED_NAME, "Inode %u is in no directory, but keeps a name (\"%s\"): %s",
			  ino, fsck_name(f, ino, name), why))
		return;
	pram_name_clear(pi);
	pram_img_resum(&f->img, ino);
}

/* A new empty root, keeping its list if that is in range. */
static void remake_root(struct fsck *f)
{
	struct pram_inode *pi = pram_img_inode(&f->img, PRAM_ROOT_INO);
	u32 head = le32_to_cpu(pi->i_type.dir.head), tail = le32_to_cpu(pi->i_type.dir.tail);

	memset(pi, 0, PRAM_INODE_SIZE);
	pram_root_format(pi, 0755, 0, 0, pram_time_now());
	if (pram_ino_valid(f->g, head) && pram_ino_valid(f->g, tail)) {
		pi->i_type.dir.head = cpu_to_le32(head);
		pi->i_type.dir.tail = cpu_to_le32(tail);
	}
	pram_img_resum(&f->img, PRAM_ROOT_INO);
}

/* Is the record of @ino usable? Bad ones are cleared (the root remade). */
static bool pass1_record(struct fsck *f, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);
	char name[PRAM_NAME_MAX + 1];
	const char *why;

	if (check_record(f, ino, &why)) {
		if (ino == PRAM_ROOT_INO) {
			if (fsck_problem(f, PR_ROOT_BAD, "The root directory is not valid: %s", why))
				remake_root(f);
			/* Kept as it is (-n), only a directory is read as one. */
			return S_ISDIR(le16_to_cpu(pi->i_mode));
		}
		if (fsck_problem(f, PR_INODE_BAD, "Inode %u (%s \"%s\"): %s", ino,
				 kind(le16_to_cpu(pi->i_mode)), fsck_name(f, ino, name),
				 why))
			fsck_clear_inode(f, ino);
		return false;
	}
	if (le32_to_cpu(pi->i_csum) != pram_inode_csum(pi, ino) &&
	    fsck_problem(f, PR_INODE_CSUM, "Inode %u passes its checks, but its checksum is wrong",
			 ino))
		pram_img_resum(&f->img, ino);
	check_unlisted_name(f, ino);
	return true;
}

struct pass1_map {
	struct fsck	*f;
	u32		ino;
	u32		blocks;
	bool		shared;	/* maps a block held before: pass 1 restarts */
};

/* Check, claim and count one map entry; clear a bad one. */
static int pass1_map_entry(void *arg, const struct pram_map_ent *e)
{
	struct pass1_map *m = arg;
	struct fsck *f = m->f;

	if (e->bad) {
		if (fsck_problem(f, PR_MAP_ENTRY, "Inode %u: %s entry %u names block %u (%s)",
				 m->ino, e->is_row ? "row" : "column", e->idx,
				 e->block, e->bad))
			((__le32 *)pram_img_block(&f->img, e->map))[e->idx] = 0;
		return PRAM_MAP_SKIP;
	}
	m->blocks++;
	/*
	 * A map block an earlier inode holds: pass 1B takes it from this
	 * one with what it maps, so what it maps is neither claimed nor
	 * repaired here (a repair would write into the other's block); pass
	 * 1 runs again after pass 1B.
	 */
	if (!fsck_claim(f, e->block) && e->is_row) {
		m->shared = true;
		return PRAM_MAP_SKIP;
	}
	return 0;
}

/* i_blocks against the @blocks a file's map, or its direct block, holds. */
static void check_blocks(struct fsck *f, u32 ino, u32 blocks)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);

	if (blocks != le32_to_cpu(pi->i_blocks) &&
	    fsck_problem(f, PR_BLOCKS, "Inode %u: i_blocks is %u, its map holds %u",
			 ino, le32_to_cpu(pi->i_blocks), blocks)) {
		pi->i_blocks = cpu_to_le32(blocks);
		pram_img_resum(&f->img, ino);
	}
}

static void pass1_map(struct fsck *f, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u32 row = le32_to_cpu(pi->i_type.reg.row_block), blocks = 0;
	u32 direct = le32_to_cpu(pi->i_type.reg.direct);
	struct pass1_map m = { .f = f, .ino = ino, .blocks = 1 };

	if (row) {
		m.shared = !fsck_claim(f, row);
		if (!m.shared)
			pram_map_walk(f->g, f->img.base, row, row, pass1_map_entry, &m);
		blocks = m.blocks;
	} else if (direct) {
		/*
		 * INCOMPAT_DIRECT: file block 0 named in the record, which
		 * pram_inode_check() has found in the data area and with no
		 * row block. A data block like any a map names: held before,
		 * it is pass 1B's, and there is nothing under it to skip.
		 */
		fsck_claim(f, direct);
		blocks = 1;
	}
	/* Counted when pass 1 runs again, after pass 1B. */
	if (m.shared)
		f->skipped = true;
	else
		check_blocks(f, ino, blocks);
	if (blocks || le64_to_cpu(pi->i_size))
		*fsck_state(f, ino) |= IN_DATA;
}

/* A symlink's target: exactly i_size bytes, NUL after it. */
static void check_symlink(struct fsck *f, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u64 size = le64_to_cpu(pi->i_size);
	char *t = pram_img_block(&f->img, le32_to_cpu(pi->i_type.reg.row_block));
	size_t len = strnlen(t, f->g->blocksize);

	if (len == size)
		return;
	if (!fsck_problem(f, PR_SYMLINK, "Symlink %u: its target is %zu bytes to the first NUL, its size says %llu",
			  ino, len, (unsigned long long)size))
		return;
	/* Keep the bytes the size covers when they hold no NUL. */
	if (len > size) {
		memset(t + size, 0, f->g->blocksize - size);
		return;
	}
	if (!len) {
		fsck_clear_inode(f, ino);
		return;
	}
	pi->i_size = cpu_to_le64(len);
	pram_img_resum(&f->img, ino);
}

/* A symlink's block: claimed, and checked unless another holds it too. */
static void pass1_symlink(struct fsck *f, u32 ino)
{
	u32 block = le32_to_cpu(pram_img_inode(&f->img, ino)->i_type.reg.row_block);

	*fsck_state(f, ino) |= IN_DATA;
	if (fsck_claim(f, block))
		check_symlink(f, ino);
	else
		f->skipped = true;
}

/**
 * fsck_xattr_problem() - why @ino's attribute block cannot be kept
 * @f: the check
 * @g: the geometry to judge it by: f->g, or a copy with other features
 * @ino: an inode in use
 * @block: its i_xattr, not 0
 *
 * Return: the reason, or NULL for a valid block of its own (whether
 * another inode holds it too is pass 1's).
 */
const char *fsck_xattr_problem(struct fsck *f, const struct pram_geometry *g,
			       u32 ino, u32 block)
{
	const char *why;

	if (!pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_XATTR))
		return "without the feature";
	if (!pram_block_valid(g, block))
		return "out of range";
	if (pram_xblock_check(pram_img_block(&f->img, block), g->blocksize,
			      ino, &why))
		return why;
	return NULL;
}

/* An inode's attribute block: claimed, or dropped with its attributes. */
static void pass1_xattr(struct fsck *f, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u32 block = le32_to_cpu(pi->i_xattr);
	const char *why;

	if (!block)
		return;
	why = fsck_xattr_problem(f, f->g, ino, block);
	if (!why && test_bit_le(block, f->claimed))
		why = "already held (a block of a file, or attributes of another inode)";
	if (!why) {
		fsck_claim(f, block);
		return;
	}
	if (fsck_problem(f, PR_XATTR, "Inode %u: attribute block %u: %s", ino,
			 block, why)) {
		pi->i_xattr = 0;
		pram_img_resum(&f->img, ino);
	}
}

/* A name record: whether it is some entry's is judged in pass 3. */
static void pass1_name_record(struct fsck *f, u32 ino)
{
	const struct pram_name_rec *nr = (void *)pram_img_inode(&f->img, ino);
	const char *why;

	if (!pram_name_rec_check(nr, ino, f->g, &why))
		*fsck_state(f, ino) = IN_NAME;
	else if (fsck_problem(f, PR_NAME_REC_BAD, "Name record %u: %s", ino, why))
		fsck_clear_inode(f, ino);
}

/**
 * fsck_pass1() - every inode slot, map and symlink block
 * @f: the check
 */
void fsck_pass1(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count;
	struct pram_inode *pi;
	umode_t mode;

	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		pi = pram_img_inode(&f->img, ino);
		/* A free root is a bad one: remade, not cleared. */
		if (!pi->i_mode && ino != PRAM_ROOT_INO) {
			if (!pram_slot_is_clear(pi) &&
			    fsck_problem(f, PR_FREE_DIRTY, "Inode %u is free, but not all zeros", ino))
				fsck_clear_inode(f, ino);
			continue;
		}
		mode = le16_to_cpu(pi->i_mode);
		if (pram_mode_is_name(mode) && ino != PRAM_ROOT_INO) {
			pass1_name_record(f, ino);
			continue;
		}
		if (!pass1_record(f, ino))
			continue;
		/* As it is now: the root may have been remade. */
		mode = le16_to_cpu(pi->i_mode);
		*fsck_state(f, ino) = IN_USED | (S_ISDIR(mode) ? IN_DIR : 0);
		if (pram_mode_is_link(mode)) {
			*fsck_state(f, ino) |= IN_LINK;
			continue;
		}
		if (S_ISREG(mode))
			pass1_map(f, ino);
		else if (S_ISLNK(mode))
			pass1_symlink(f, ino);
		else if (!S_ISDIR(mode))
			*fsck_state(f, ino) |= IN_DATA;
		if (*fsck_state(f, ino))
			S_ISDIR(mode) ? f->dirs++ : f->files++;
	}
	/*
	 * After every map and symlink block: an attribute block that is
	 * also another file's block is the attributes' loss, never the data's.
	 */
	for (ino = PRAM_ROOT_INO; ino < end; ino++)
		if ((*fsck_state(f, ino) & (IN_USED | IN_LINK)) == IN_USED)
			pass1_xattr(f, ino);
}
