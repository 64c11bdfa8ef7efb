// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs pass 1B: blocks claimed by two inodes (or twice by one).
 * The lowest inode number keeps the block; each later claimant gets a
 * copy of it in a block nobody holds, or, when none is left, loses it
 * (its map entry or direct block cleared: a hole; a symlink is cleared),
 * and is told which. A map block held twice is taken from the later
 * claimant with what it maps (copying a map would copy its claims too).
 * Then every claim is made again, for pass 5.
 */
#include <stdlib.h>
#include "fsck.h"

struct first_owner {
	u32	block, ino;
};

struct dups {
	struct first_owner	*v;
	size_t			n, cap;
};

/* Note that @ino holds @block: true the first time; else who held it first. */
static bool first_sighting(struct dups *d, u32 block, u32 ino, u32 *owner)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (d->v[i].block == block) {
			*owner = d->v[i].ino;
			return false;
		}
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->v = realloc(d->v, d->cap * sizeof(*d->v));
		if (!d->v)
			pram_die("out of memory");
	}
	d->v[d->n++] = (struct first_owner) { block, ino };
	return true;
}

/*
 * A block that the bitmap has free and no inode holds, now taken and
 * counted. The search ends where it would wrap round.
 */
static int new_block(struct fsck *f, u32 *block)
{
	void *bitmap = pram_img_bitmap(&f->img);
	u32 hint = f->g->data_start;

	while (hint < f->g->blocks_count &&
	       !pram_bitmap_find_free(bitmap, f->g, hint, block) && *block >= hint) {
		if (!test_bit_le(*block, f->claimed)) {
			__set_bit_le(*block, bitmap);
			__set_bit_le(*block, f->claimed);
			le32_add_cpu(&f->img.sb->s_free_blocks_count, -1);
			return 0;
		}
		hint = *block + 1;
	}
	return -ENOSPC;
}

/* Give @ino its own copy of the data block in @entry; false: none left. */
static bool copy_block(struct fsck *f, __le32 *entry)
{
	u32 old = le32_to_cpu(*entry), block;

	if (new_block(f, &block))
		return false;
	memcpy(pram_img_block(&f->img, block), pram_img_block(&f->img, old),
	       f->g->blocksize);
	*entry = cpu_to_le32(block);
	return true;
}

/* Resolve one entry that holds a block claimed twice. */
static void resolve(struct fsck *f, struct dups *d, u32 ino, __le32 *entry,
		    bool map_block)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u32 block = le32_to_cpu(*entry), owner;

	if (first_sighting(d, block, ino, &owner))
		return;
	if (!map_block) {
		if (!fsck_problem(f, PR_DUP_BLOCK, "Block %u is held by inode %u and inode %u: a copy for inode %u",
				  block, owner, ino, ino))
			return;
		if (copy_block(f, entry)) {
			/* A symlink's or a direct file's entry is in its record. */
			pram_img_resum(&f->img, ino);
			return;
		}
		if (S_ISLNK(le16_to_cpu(pi->i_mode))) {
			/* Not a symlink without its target: pass 2 unlists it. */
			printf("  No free block for the copy: symlink %u is cleared.\n", ino);
			fsck_clear_inode(f, ino);
			return;
		}
		printf("  No free block for the copy: the block is taken from inode %u (a hole).\n",
		       ino);
		*entry = 0;
	} else {
		if (!fsck_problem(f, PR_DUP_BLOCK, "Map block %u of inode %u is held by inode %u too: taken from inode %u with what it maps",
				  block, ino, owner, ino))
			return;
		*entry = 0;
	}
	/*
	 * Without its row or direct block the file is all holes and holds
	 * no block: left counted, pass 1 would find a count without a map
	 * and clear the file.
	 */
	if (entry == &pi->i_type.reg.direct || entry == &pi->i_type.reg.row_block)
		pi->i_blocks = 0;
	/* i_blocks: counted again when pass 1 restarts. */
	pram_img_resum(&f->img, ino);
}

struct resolve_map {
	struct fsck	*f;
	struct dups	*d;
	u32		ino;
};

static int resolve_entry(void *arg, const struct pram_map_ent *e)
{
	struct resolve_map *r = arg;
	struct fsck *f = r->f;

	if (!e->bad && test_bit_le(e->block, f->dup))
		resolve(f, r->d, r->ino,
			(__le32 *)pram_img_block(&f->img, e->map) + e->idx, e->is_row);
	return 0;
}

static int claim_entry(void *arg, const struct pram_map_ent *e)
{
	if (!e->bad)
		fsck_claim(arg, e->block);
	return 0;
}

/* Claim again every block every inode in use holds. */
void fsck_claim_all(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count, row;
	const struct pram_inode *pi;
	umode_t mode;

	memset(f->claimed, 0, DIV_ROUND_UP((u64)f->g->blocks_count, 8));
	f->blocks_held = 0;
	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		pi = pram_img_inode(&f->img, ino);
		mode = le16_to_cpu(pi->i_mode);
		row = le32_to_cpu(pi->i_type.reg.row_block);
		if (!(*fsck_state(f, ino) & IN_USED))
			continue;
		if (S_ISREG(mode) && pi->i_type.reg.direct)
			fsck_claim(f, le32_to_cpu(pi->i_type.reg.direct));
		if (!row || (!S_ISREG(mode) && !S_ISLNK(mode)))
			continue;
		fsck_claim(f, row);
		if (S_ISREG(mode))
			pram_map_walk(f->g, f->img.base, row, row, claim_entry, f);
	}
	/* Then, as pass 1, the attribute blocks it kept (or reported: -n). */
	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		pi = pram_img_inode(&f->img, ino);
		if ((*fsck_state(f, ino) & IN_USED) && pi->i_xattr &&
		    !fsck_xattr_problem(f, f->g, ino, le32_to_cpu(pi->i_xattr)) &&
		    !test_bit_le(le32_to_cpu(pi->i_xattr), f->claimed))
			fsck_claim(f, le32_to_cpu(pi->i_xattr));
	}
}

/**
 * fsck_pass1b() - give every block claimed twice a single owner
 * @f: the check
 */
void fsck_pass1b(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count, row, direct;
	struct dups d = { };
	struct pram_inode *pi;
	umode_t mode;

	if (!f->any_dup)
		return;
	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		struct resolve_map r = { .f = f, .d = &d, .ino = ino };

		pi = pram_img_inode(&f->img, ino);
		mode = le16_to_cpu(pi->i_mode);
		if (!(*fsck_state(f, ino) & IN_USED) || (!S_ISREG(mode) && !S_ISLNK(mode)))
			continue;
		row = le32_to_cpu(pi->i_type.reg.row_block);
		if (row && test_bit_le(row, f->dup))
			resolve(f, &d, ino, &pi->i_type.reg.row_block, S_ISREG(mode));
		/* A direct block (INCOMPAT_DIRECT) is a data block in the record. */
		direct = le32_to_cpu(pi->i_type.reg.direct);
		if (direct && S_ISREG(mode) && test_bit_le(direct, f->dup))
			resolve(f, &d, ino, &pi->i_type.reg.direct, false);
		row = le32_to_cpu(pi->i_type.reg.row_block);
		if (row && S_ISREG(mode))
			pram_map_walk(f->g, f->img.base, row, row, resolve_entry, &r);
	}
	free(d.v);
	fsck_claim_all(f);
}
