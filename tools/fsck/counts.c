// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs passes 4 and 5: link counts, then the bitmap against the
 * blocks the inodes hold, the free counts, the hints and the state.
 * After an unclean stop the kernel counts again at mount, so stale counts
 * are only noted then; after a clean one it trusts them, so they are
 * errors.
 */
#include <stdlib.h>
#include "fsck.h"

/* A link entry past the PRAM_LINK_MAX names a count can hold goes. */
static bool one_too_many(struct fsck *f, u32 ino, u32 t)
{
	char name[PRAM_NAME_MAX + 1];

	if (!fsck_problem(f, PR_LINK_TOO_MANY, "Link entry %u (\"%s\"): inode %u has %u names already",
			  ino, fsck_name(f, ino, name), t, PRAM_LINK_MAX))
		return false;
	fsck_unlist(f, ino);
	fsck_clear_inode(f, ino);
	return true;
}

/*
 * The names of every inode reached: its own entry while it is in a
 * list, and each link entry reached that names it.
 */
static u32 *count_names(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count, t;
	u32 *names = calloc(f->g->inodes_count, sizeof(*names));
	u8 st;

	if (!names)
		pram_die("out of memory");
	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		st = *fsck_state(f, ino);
		if (!(st & IN_REACHED))
			continue;
		t = (st & IN_LINK) ? pram_img_target(&f->img, ino) : ino;
		if (t == ino && !pram_img_inode(&f->img, ino)->i_parent)
			continue;
		if (t != ino && names[t - PRAM_ROOT_INO] == PRAM_LINK_MAX &&
		    one_too_many(f, ino, t))
			continue;
		names[t - PRAM_ROOT_INO]++;
	}
	return names;
}

/**
 * fsck_pass4() - every link count as the lists give it
 * @f: the check
 *
 * A directory has 2 links and one per subdirectory; anything else one
 * per name (its own entry and link entries), at most PRAM_LINK_MAX.
 */
void fsck_pass4(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count, *e, n, i, want;
	u32 *names = count_names(f);
	struct pram_dir_scan scan;
	struct pram_inode *pi;

	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		if ((*fsck_state(f, ino) & (IN_REACHED | IN_LINK)) != IN_REACHED)
			continue;
		want = min_t(u32, names[ino - PRAM_ROOT_INO], PRAM_LINK_MAX);
		if (*fsck_state(f, ino) & IN_DIR) {
			fsck_list_entries(f, ino, &e, &n, &scan);
			for (i = 0, want = 2; i < n; i++)
				want += !!(*fsck_state(f, e[i]) & IN_DIR);
			free(e);
		}
		pi = pram_img_inode(&f->img, ino);
		if (le16_to_cpu(pi->i_links_count) == want ||
		    !fsck_problem(f, PR_LINKS, "Inode %u has %u links, should be %u", ino,
				  le16_to_cpu(pi->i_links_count), want))
			continue;
		pi->i_links_count = cpu_to_le16(want);
		pram_img_resum(&f->img, ino);
	}
	free(names);
}

/* Report and fix one run of blocks whose bit is wrong the same way. */
static void fix_run(struct fsck *f, u32 from, u32 to, bool used)
{
	void *bitmap = pram_img_bitmap(&f->img);
	u32 b;

	if (!fsck_problem(f, used ? PR_BITMAP_MISSING : PR_BITMAP_LEAK,
			  "Blocks %u-%u are %s", from, to,
			  used ? "held but marked free" : "marked used but held by nothing"))
		return;
	for (b = from; b <= to; b++)
		used ? __set_bit_le(b, bitmap) : __clear_bit_le(b, bitmap);
	/* As fixed: the count below reports only what was wrong besides. */
	le32_add_cpu(&f->img.sb->s_free_blocks_count,
		     used ? -(to - from + 1) : to - from + 1);
}

/* Every data block's bit as the claims say; runs reported together. */
static void check_bitmap(struct fsck *f)
{
	const struct pram_geometry *g = f->g;
	void *bitmap = pram_img_bitmap(&f->img);
	u64 b, nbits = ((u64)g->bitmap_blocks << g->blocksize_bits) * 8;
	u32 from = 0;
	int run = -1, kind;

	for (b = g->data_start; b <= g->blocks_count; b++) {
		kind = b == g->blocks_count ? -1 :
		       test_bit_le(b, f->claimed) == test_bit_le(b, bitmap) ? -1 :
		       test_bit_le(b, f->claimed);
		if (kind != run && run >= 0)
			fix_run(f, from, b - 1, run);
		if (kind != run)
			from = b;
		run = kind;
	}
	for (b = 0; b < nbits; b++) {
		if ((b < g->data_start || b >= g->blocks_count) && !test_bit_le(b, bitmap)) {
			if (fsck_problem(f, PR_BITMAP_META, "Bitmap bits of the metadata or past the last block are clear"))
				pram_bitmap_mark_meta(bitmap, g);
			break;
		}
	}
}

static void check_count(struct fsck *f, __le32 *field, u32 real,
			const char *what, bool clean)
{
	if (le32_to_cpu(*field) == real)
		return;
	if (fsck_problem(f, clean ? PR_COUNT : PR_COUNT_NOTE,
			 "Free %s count %s %u, the filesystem has %u", what,
			 clean ? "wrong:" : "stale (not cleanly unmounted):",
			 le32_to_cpu(*field), real))
		*field = cpu_to_le32(real);
}

/**
 * fsck_pass5() - the bitmap, the free counts, hints and state
 * @f: the check
 */
void fsck_pass5(struct fsck *f)
{
	struct pram_super_block *ps = f->img.sb;
	const struct pram_geometry *g = f->g;
	bool clean = le16_to_cpu(ps->s_state) & PRAM_STATE_CLEAN;

	fsck_claim_all(f);
	check_bitmap(f);
	check_count(f, &ps->s_free_blocks_count,
		    pram_bitmap_count_free(pram_img_bitmap(&f->img), g), "block", clean);
	check_count(f, &ps->s_free_inodes_count,
		    pram_itable_count_free(pram_img_inode(&f->img, PRAM_ROOT_INO), g),
		    "inode", clean);
	if ((!pram_ino_valid(g, le32_to_cpu(ps->s_free_inode_hint)) ||
	     !pram_block_valid(g, le32_to_cpu(ps->s_free_blocknr_hint))) &&
	    fsck_problem(f, PR_HINT, "Allocation hints out of range (inode %u, block %u)",
			 le32_to_cpu(ps->s_free_inode_hint),
			 le32_to_cpu(ps->s_free_blocknr_hint))) {
		ps->s_free_inode_hint = cpu_to_le32(pram_ino_hint(g, le32_to_cpu(ps->s_free_inode_hint)));
		ps->s_free_blocknr_hint = cpu_to_le32(pram_block_hint(g, le32_to_cpu(ps->s_free_blocknr_hint)));
	}
	if ((le16_to_cpu(ps->s_state) & PRAM_STATE_ERRORS) &&
	    fsck_problem(f, PR_ERRORS_FLAG, "The kernel recorded errors in this filesystem"))
		ps->s_state &= ~cpu_to_le16(PRAM_STATE_ERRORS);
	if (f->img.writable && !f->left && (f->changed || !clean)) {
		ps->s_state |= cpu_to_le16(PRAM_STATE_CLEAN);
		pram_img_super_commit(&f->img);
	} else if (f->img.writable && f->changed) {
		pram_img_super_commit(&f->img);
	}
}
