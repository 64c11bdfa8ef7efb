/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fsck.pramfs: what the passes share. The passes follow e2fsck's: 0 the
 * superblocks, 1 every inode slot and every block map (1B: blocks claimed
 * twice), 2 every directory list, 3 reachability from the root, 4 link
 * counts, 5 the bitmap, the free counts, hints and state.
 */
#ifndef _PRAM_FSCK_H
#define _PRAM_FSCK_H

#include "libpramfs.h"

/* e2fsck's exit codes. */
#define FSCK_OK		0
#define FSCK_FIXED	1
#define FSCK_LEFT	4
#define FSCK_ERROR	8
#define FSCK_USAGE	16

enum fsck_mode { FSCK_NO, FSCK_PREEN, FSCK_YES, FSCK_ASK };

/* What is known of an inode, by pass. */
#define IN_USED		0x01	/* in use after pass 1 */
#define IN_DIR		0x02
#define IN_LISTED	0x04	/* a directory's list holds it (pass 2) */
#define IN_REACHED	0x08	/* reachable from the root (pass 3) */
#define IN_DATA		0x10	/* holds data or entries: worth keeping */
#define IN_LINK		0x20	/* a link entry (with IN_USED) */
#define IN_NAME		0x40	/* a name record that passed its checks */
#define IN_OWNED	0x80	/* a name record an entry's valid name holds */

enum problem {
	PR_SB_PRIMARY,		/* the primary is bad, the copy good */
	PR_SB_COPY,		/* the copy is bad or differs */
	PR_SB_REBUILD,		/* neither valid: rebuild from size, bs, inodes */
	PR_JOURNAL_HEAD,	/* the journal's head is bad */
	PR_JOURNAL_UNDO,	/* an operation a power cut left half done */
	PR_JOURNAL_ROUND,	/* j_gen at 0, the last round's lines left */
	PR_FREE_DIRTY,		/* a free slot that is not all zeros */
	PR_FEATURE,		/* records use a feature the superblock lacks */
	PR_INODE_BAD,		/* an inode that fails its checks */
	PR_INODE_CSUM,		/* only the checksum is wrong */
	PR_ROOT_BAD,
	PR_MAP_ENTRY,		/* a map entry outside the data area */
	PR_BLOCKS,		/* i_blocks differs from the map */
	PR_SYMLINK,		/* a symlink target without its NUL */
	PR_XATTR,		/* an attribute block that cannot be kept */
	PR_DUP_BLOCK,		/* a block claimed twice */
	PR_LIST,		/* a list to rewrite from the entries found */
	PR_ENTRY_FREE,		/* a free or cleared inode in a list */
	PR_PARENT,		/* listed by one directory, naming another */
	PR_NAME_BAD,
	PR_NAME_DUP,
	PR_NAME_REC_BAD,	/* a name record that fails its checks */
	PR_NAME_REC_ORPHAN,	/* a name record no entry's name holds */
	PR_LINK_TARGET,		/* a link entry naming what it may not */
	PR_LINK_ORPHAN,		/* a link entry in no reachable list */
	PR_LINK_TOO_MANY,	/* a link entry past PRAM_LINK_MAX names */
	PR_UNLISTED_NAME,	/* an inode in no list that keeps a name */
	PR_DELETED,		/* unlinked while open: no links, no parent */
	PR_ORPHAN_HOME,		/* in no list, its parent reached: relist */
	PR_ORPHAN_EMPTY,	/* in no directory, holding nothing */
	PR_ORPHAN,		/* in no directory, holding data */
	PR_LOST_FOUND,		/* lost+found is missing: make it */
	PR_LOST_FOUND_FILE,	/* lost+found is not a directory */
	PR_LINKS,
	PR_BITMAP_LEAK,		/* a block marked used that nothing holds */
	PR_BITMAP_MISSING,	/* a block held but marked free */
	PR_BITMAP_META,		/* a metadata or padding bit clear */
	PR_COUNT,		/* a free count wrong in a clean superblock */
	PR_HINT,
	PR_ERRORS_FLAG,
	PR_COUNT_NOTE,		/* a free count stale after an unclean stop */
	PR_MAX
};

struct fsck {
	struct pram_image	img;
	struct pram_geometry	*g;
	enum fsck_mode		mode;
	bool			force, verbose;
	unsigned int		fixed, left;
	bool			changed;
	u8			*ino_state;	/* IN_*, by ino - PRAM_ROOT_INO */
	u16			*ino_links;	/* names and subdirectories found */
	u8			*claimed;	/* blocks some inode holds */
	u8			*dup;		/* blocks held twice */
	bool			any_dup;
	bool			skipped;	/* pass 1 left a shared block unchecked */
	u32			lost_found;	/* its inode, 0 until needed */
	struct pram_builder	b;
	u32			files, dirs, blocks_held;
};

static inline u8 *fsck_state(struct fsck *f, u32 ino)
{
	return &f->ino_state[ino - PRAM_ROOT_INO];
}

/* fsck.c */
int fsck_run(struct fsck *f);

/* problem.c */
void fsck_unfixed(struct fsck *f);
__printf(3, 4)
bool fsck_problem(struct fsck *f, enum problem p, const char *fmt, ...);
void fsck_note(struct fsck *f, const char *fmt, ...)
	__printf(2, 3);

/* the passes */
int fsck_pass0(struct fsck *f);
void fsck_journal(struct fsck *f);
void fsck_features(struct fsck *f);
void fsck_pass1(struct fsck *f);
void fsck_pass1b(struct fsck *f);
void fsck_pass2(struct fsck *f);
void fsck_pass3(struct fsck *f);
void fsck_pass4(struct fsck *f);
void fsck_pass5(struct fsck *f);

/* shared by the passes */
const char *fsck_name(struct fsck *f, u32 ino, char *buf);
bool fsck_names_equal(struct fsck *f, u32 ino, const char *name, u32 len);
void fsck_name_records(struct fsck *f);
void fsck_clear_inode(struct fsck *f, u32 ino);
void fsck_unlist(struct fsck *f, u32 ino);
int fsck_free_name(struct fsck *f, u32 ino, const u32 *e, u32 n, char *name);
void fsck_rename_entry(struct fsck *f, u32 ino, const u32 *e, u32 n);
const char *fsck_xattr_problem(struct fsck *f, const struct pram_geometry *g,
			       u32 ino, u32 block);
bool fsck_claim(struct fsck *f, u32 block);
void fsck_claim_all(struct fsck *f);
int fsck_relink(struct fsck *f, u32 dir, const u32 *entries, u32 n);
int fsck_list_entries(struct fsck *f, u32 dir, u32 **entries, u32 *n,
		      struct pram_dir_scan *scan);

#endif /* _PRAM_FSCK_H */
