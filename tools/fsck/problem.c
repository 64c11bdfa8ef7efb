// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs's problem table, as e2fsck's problem.c: every finding has a
 * code, the question that fixes it, and whether preening (-p) may fix it
 * without asking. -n answers no to all, -y yes to all, -p yes to the safe
 * ones and stops at the first other one, as e2fsck does; without any of
 * them the question is asked on the terminal.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include "fsck.h"

#define PREEN	0x1	/* -p may fix it */
#define NOTE	0x2	/* not an error: saying no leaves nothing wrong */

static const struct {
	const char	*fix;	/* the question, or NULL for notes */
	unsigned int	flags;
} problems[PR_MAX] = {
	[PR_SB_PRIMARY]		= { "Repair it from the copy", PREEN },
	[PR_SB_COPY]		= { "Write it from the primary", PREEN },
	[PR_SB_REBUILD]		= { "Rebuild the superblocks", 0 },
	[PR_JOURNAL_HEAD]	= { "Make the journal empty", PREEN },
	[PR_JOURNAL_UNDO]	= { "Undo it", PREEN },
	[PR_JOURNAL_ROUND]	= { "Clear them", PREEN },
	[PR_FREE_DIRTY]		= { "Clear it", PREEN },
	[PR_FEATURE]		= { "Set the feature", 0 },
	[PR_INODE_BAD]		= { "Clear it", 0 },
	[PR_INODE_CSUM]		= { "Fix the checksum", PREEN },
	[PR_ROOT_BAD]		= { "Make a new root directory", 0 },
	[PR_MAP_ENTRY]		= { "Clear the entry", 0 },
	[PR_BLOCKS]		= { "Fix", PREEN },
	[PR_SYMLINK]		= { "Fix", 0 },
	[PR_XATTR]		= { "Drop the attributes", 0 },
	[PR_DUP_BLOCK]		= { "Give each its own", 0 },
	[PR_LIST]		= { "Rewrite the list", PREEN },
	[PR_ENTRY_FREE]		= { "Take it out", PREEN },
	[PR_PARENT]		= { "Fix", 0 },
	[PR_NAME_BAD]		= { "Rename it", 0 },
	[PR_NAME_DUP]		= { "Rename it", 0 },
	[PR_NAME_REC_BAD]	= { "Clear it", 0 },
	[PR_NAME_REC_ORPHAN]	= { "Free it", PREEN },
	[PR_LINK_TARGET]	= { "Remove the name", 0 },
	[PR_LINK_ORPHAN]	= { "Free it", PREEN },
	[PR_LINK_TOO_MANY]	= { "Free it", 0 },
	[PR_UNLISTED_NAME]	= { "Clear the name", PREEN },
	[PR_DELETED]		= { "Free it", PREEN },
	[PR_ORPHAN_HOME]	= { "Put it back", PREEN },
	[PR_ORPHAN_EMPTY]	= { "Clear it", PREEN },
	[PR_ORPHAN]		= { "Connect it to /lost+found", 0 },
	[PR_LOST_FOUND]		= { "Make it", 0 },
	[PR_LOST_FOUND_FILE]	= { "Rename it", 0 },
	[PR_LINKS]		= { "Fix", PREEN },
	[PR_BITMAP_LEAK]	= { "Fix", PREEN },
	[PR_BITMAP_MISSING]	= { "Fix", PREEN },
	[PR_BITMAP_META]	= { "Fix", PREEN },
	[PR_COUNT]		= { "Fix", PREEN },
	[PR_HINT]		= { "Fix", PREEN },
	[PR_ERRORS_FLAG]	= { "Clear it", PREEN },
	[PR_COUNT_NOTE]		= { "Fix", PREEN | NOTE },
};

static bool ask(void)
{
	char line[16];

	fputs(" [y/n] ", stdout);
	fflush(stdout);
	return fgets(line, sizeof(line), stdin) && (line[0] == 'y' || line[0] == 'Y');
}

/* Decide, say and count; exit at an unexpected problem when preening. */
static bool decide(struct fsck *f, enum problem p)
{
	bool fix;

	switch (f->mode) {
	case FSCK_NO:
		fix = false;
		break;
	case FSCK_YES:
		fix = true;
		break;
	case FSCK_PREEN:
		if (!(problems[p].flags & PREEN)) {
			printf("\n%s: UNEXPECTED INCONSISTENCY; RUN fsck.pramfs MANUALLY (without -p or -n).\n",
			       f->img.name);
			pram_image_close(&f->img);
			exit(FSCK_LEFT);
		}
		fix = true;
		break;
	default:
		printf("  %s?", problems[p].fix);
		return ask();
	}
	if (f->mode == FSCK_PREEN)
		puts(fix ? "  FIXED." : "");
	else
		printf("  %s? %s\n", problems[p].fix, fix ? "yes" : "no");
	return fix;
}

/**
 * fsck_problem() - report a finding and decide whether to fix it
 * @f: the check
 * @p: which problem
 * @fmt: what was found, for the message
 *
 * Return: true if the caller is to fix it.
 */
bool fsck_problem(struct fsck *f, enum problem p, const char *fmt, ...)
{
	va_list ap;
	bool fix;

	if (f->mode == FSCK_PREEN)
		printf("%s: ", f->img.name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('.');
	fix = decide(f, p);
	if (fix) {
		f->fixed += !(problems[p].flags & NOTE);
		f->changed = true;
	} else if (!(problems[p].flags & NOTE)) {
		f->left++;
	}
	fflush(stdout);
	return fix && f->img.writable;
}

/* A fix fsck_problem() agreed to could not be made after all. */
void fsck_unfixed(struct fsck *f)
{
	f->fixed--;
	f->left++;
}

/* Something worth saying that is not a problem. */
void fsck_note(struct fsck *f, const char *fmt, ...)
{
	va_list ap;

	if (!f->verbose)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}
