// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs pass 0: the superblocks. The primary and its copy are
 * chosen and checked by the kernel's own pram_super_check(); a bad one is
 * written from the good one. When neither is valid but one still gives a
 * filesystem (its magic, revision and features right, its size, block
 * size and inode count a geometry that fits), the pair is rebuilt from
 * it.
 */
#include "fsck.h"

static struct pram_super_block *pram_copy(struct pram_image *img)
{
	return (struct pram_super_block *)(img->base + PRAM_SB_COPY_OFFSET);
}

/* The geometry fields as the size, block size and inode count give them. */
static void rebuild(struct pram_image *img)
{
	struct pram_super_block *ps = img->sb;
	const struct pram_geometry *g = &img->geo;

	ps->s_blocks_count = cpu_to_le32(g->blocks_count);
	ps->s_bitmap_start = cpu_to_le32(g->bitmap_start);
	ps->s_bitmap_blocks = cpu_to_le32(g->bitmap_blocks);
	ps->s_reserved = 0;
	ps->s_journal = cpu_to_le32(g->journal_start);
	pram_img_super_commit(img);
}

/* Features this fsck knows how to check (mounting cares only for incompat). */
static int known_features(struct pram_image *img)
{
	u32 ro = le32_to_cpu(img->sb->s_feature_ro_compat);

	if (!(ro & ~PRAM_FEATURE_RO_COMPAT_SUPP))
		return 0;
	pram_warnx("%s: unknown ro_compat features %#x: this fsck cannot check it",
		   img->name, ro);
	return -EINVAL;
}

static int salvage(struct fsck *f, const char *why_p, const char *why_c)
{
	struct pram_image *img = &f->img;

	if (pram_image_salvage(img)) {
		pram_warnx("%s: no usable superblock (primary: %s; copy: %s)",
			   img->name, why_p, why_c);
		return -EINVAL;
	}
	if (known_features(img))
		return -EINVAL;
	if (fsck_problem(f, PR_SB_REBUILD,
			 "No valid superblock (primary: %s; copy: %s), but the %s's size, block size and inode count give a filesystem",
			 why_p, why_c, img->sb == pram_img_primary(img) ? "primary" : "copy"))
		rebuild(img);
	return 0;
}

/**
 * fsck_pass0() - find and check the superblocks
 * @f: the check
 *
 * Return: 0, or -EINVAL when there is nothing this fsck can check (the
 * message given).
 */
int fsck_pass0(struct fsck *f)
{
	struct pram_image *img = &f->img;
	const char *why_p, *why_c, *why = NULL;
	struct pram_geometry g;

	f->g = &img->geo;
	if (pram_image_load(img, &why_p, &why_c))
		return salvage(f, why_p, why_c);
	if (known_features(img))
		return -EINVAL;
	if (img->sb != pram_img_primary(img)) {
		if (fsck_problem(f, PR_SB_PRIMARY, "The primary superblock is not valid (%s); the copy is",
				 why_p))
			pram_img_super_commit(img);
	} else if (pram_super_check(pram_copy(img), &g, &why) ||
		   memcmp(pram_copy(img), img->sb, PRAM_SB_SIZE)) {
		if (fsck_problem(f, PR_SB_COPY, "The superblock copy %s%s%s",
				 why ? "is not valid (" : "differs from the primary",
				 why ?: "", why ? ")" : ""))
			memcpy(pram_copy(img), img->sb, PRAM_SB_SIZE);
	}
	return 0;
}
