// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs: the passes over an open image, in e2fsck's order, and what
 * they found. fsck.c opens the image from the command line; the fuzz
 * target (tools/fuzz) runs the same on images in memory.
 */
#include <stdlib.h>
#include "fsck.h"

static void *zalloc(size_t n)
{
	void *p = calloc(1, n ?: 1);

	if (!p)
		pram_die("out of memory");
	return p;
}

static void pass(struct fsck *f, const char *what, void (*fn)(struct fsck *f))
{
	if (f->mode != FSCK_PREEN)
		printf("%s\n", what);
	fn(f);
}

/* -v: what the filesystem holds, by type (as e2fsck -v). */
static void statistics(struct fsck *f)
{
	static const struct { umode_t type; const char *name; } types[] = {
		{ S_IFREG, "regular files" }, { S_IFDIR, "directories" },
		{ S_IFLNK, "symbolic links" }, { S_IFCHR, "character devices" },
		{ S_IFBLK, "block devices" }, { S_IFIFO, "fifos" },
		{ S_IFSOCK, "sockets" }, { PRAM_S_IFLINK, "link entries (hard links)" },
		{ PRAM_S_IFNAME, "name records (long names)" },
	};
	u32 n[ARRAY_SIZE(types)] = { }, ino, i, end = PRAM_ROOT_INO + f->g->inodes_count;
	umode_t mode;

	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		mode = le16_to_cpu(pram_img_inode(&f->img, ino)->i_mode) & S_IFMT;
		for (i = 0; i < ARRAY_SIZE(types); i++)
			n[i] += mode == types[i].type;
	}
	for (i = 0; i < ARRAY_SIZE(types); i++)
		fsck_note(f, "%10u %s", n[i], types[i].name);
}

static void summary(struct fsck *f, double t0)
{
	const struct pram_super_block *ps = f->img.sb;
	const struct pram_geometry *g = f->g;

	if (f->changed && f->img.writable)
		printf("\n%s: ***** FILE SYSTEM WAS MODIFIED *****\n", f->img.name);
	statistics(f);
	printf("%s: %u/%u files (%u directories), %u/%u blocks, %.3f s\n",
	       f->img.name, g->inodes_count - le32_to_cpu(ps->s_free_inodes_count),
	       g->inodes_count, f->dirs,
	       g->blocks_count - g->data_start - le32_to_cpu(ps->s_free_blocks_count),
	       g->blocks_count - g->data_start, pram_seconds() - t0);
}

/*
 * Pass 1, and pass 1B when a block is held twice. Pass 1 neither walks nor
 * repairs what a block held twice maps (a map block, a symlink's), and the
 * claims of the inodes it clears stay: when pass 1B has given blocks one
 * owner, or pass 1 left one unchecked, pass 1 runs again (as e2fsck
 * restarts), up to FSCK_ROUNDS times.
 */
#define FSCK_ROUNDS	4

static void passes_1_1b(struct fsck *f)
{
	unsigned int round, fixed;

	for (round = 1; ; round++) {
		pass(f, "Pass 1: inodes and blocks", fsck_pass1);
		if (!f->any_dup)
			return;
		fixed = f->fixed;
		pass(f, "Pass 1B: blocks held twice", fsck_pass1b);
		if ((f->fixed == fixed && (!f->skipped || f->mode == FSCK_NO)) ||
		    round == FSCK_ROUNDS)
			return;
		if (f->mode != FSCK_PREEN)
			printf("Restarting pass 1: blocks held twice now have one owner\n");
		memset(f->ino_state, 0, f->g->inodes_count);
		memset(f->claimed, 0, DIV_ROUND_UP((u64)f->g->blocks_count, 8));
		memset(f->dup, 0, DIV_ROUND_UP((u64)f->g->blocks_count, 8));
		f->any_dup = f->skipped = false;
		f->files = f->dirs = f->blocks_held = 0;
	}
}

/**
 * fsck_run() - check, and repair as f->mode says, the open image f->img
 * @f: the check, its image open and its options set
 *
 * Return: the exit code (FSCK_ERROR: no superblock this fsck can check).
 */
int fsck_run(struct fsck *f)
{
	double t0 = pram_seconds();
	int ret;
	u16 state;

	if (f->mode != FSCK_PREEN)
		printf("fsck.pramfs %s: %s\n", PRAM_TOOLS_VERSION, f->img.name);
	if (fsck_pass0(f))
		return FSCK_ERROR;
	fsck_journal(f);
	state = le16_to_cpu(f->img.sb->s_state);
	if ((state & PRAM_STATE_CLEAN) && !(state & PRAM_STATE_ERRORS) &&
	    !f->force && !f->left) {
		printf("%s: clean\n", f->img.name);
		summary(f, t0);
		return f->fixed ? FSCK_FIXED : FSCK_OK;
	}
	f->ino_state = zalloc(f->g->inodes_count);
	f->claimed = zalloc(DIV_ROUND_UP((u64)f->g->blocks_count, 8));
	f->dup = zalloc(DIV_ROUND_UP((u64)f->g->blocks_count, 8));
	pram_build_start(&f->b, &f->img);
	fsck_features(f);
	passes_1_1b(f);
	pass(f, "Pass 2: directory lists", fsck_pass2);
	pass(f, "Pass 3: reachability", fsck_pass3);
	pass(f, "Pass 4: link counts", fsck_pass4);
	pass(f, "Pass 5: bitmap, counts and state", fsck_pass5);
	summary(f, t0);
	ret = f->left ? FSCK_LEFT : f->fixed ? FSCK_FIXED : FSCK_OK;
	free(f->ino_state);
	free(f->claimed);
	free(f->dup);
	return ret;
}
