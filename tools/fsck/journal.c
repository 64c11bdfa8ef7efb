// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs, after the superblocks: the undo journal. An operation a
 * power cut left half done is undone first, with the kernel's own
 * pram_journal_undo(), exactly as a read-write mount would, so that the
 * passes after it check what the filesystem is once recovered; a journal
 * the kernel would ignore (a bad head, an undo that would leave the
 * superblock invalid) is made empty, as a read-write mount does; and the
 * lines left when j_gen came round to 0 are cleared, as it does too.
 */
#include "fsck.h"

static void restore(void *arg, u64 offset, const void *old, u32 len)
{
	struct pram_image *img = arg;

	memcpy(img->base + offset, old, len);
}

/**
 * fsck_journal() - check the journal and undo what it holds
 * @f: the check
 */
void fsck_journal(struct fsck *f)
{
	const struct pram_geometry *g = f->g;
	struct pram_journal_head *h;
	const char *why;
	int n;

	if (!g->journal_blocks)
		return;
	h = (struct pram_journal_head *)(f->img.base + pram_journal_offset(g));
	if (pram_journal_check_head(h, &why) ||
	    pram_journal_check_undo(h, g, f->img.base,
				    (u8 *)f->img.sb - f->img.base, &why)) {
		if (fsck_problem(f, PR_JOURNAL_HEAD, "The journal is not valid (%s)", why))
			pram_journal_format(h);
		return;
	}
	n = pram_journal_pending(h, g);
	if (n > 0 && fsck_problem(f, PR_JOURNAL_UNDO,
				  "The journal holds an operation a power cut left half done (%d ranges)",
				  n)) {
		pram_journal_undo(h, g, restore, &f->img);
		pram_journal_move_on(h);
	} else if (!n && pram_journal_wrapped(h) &&
		   memchr_inv((u8 *)h + PRAM_JOURNAL_LINE, 0,
			      PRAM_JOURNAL_SIZE - PRAM_JOURNAL_LINE) &&
		   fsck_problem(f, PR_JOURNAL_ROUND, "The journal's generation is 0, with lines left from before it")) {
		pram_journal_clear_lines(h);
	}
}
