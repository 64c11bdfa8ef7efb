// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs pass 3: every inode in use must be reachable from the root.
 * One that is not (an inode made but never linked when the power went,
 * or cut off by a repair) is freed when it holds nothing, and otherwise
 * linked into /lost+found (made on demand, as e2fsck does) under its own
 * name if that is free there, else "#INO" (or "#INO.K"). A directory cut
 * off with its subtree takes the subtree along. One that was deleted
 * (unlinked while open) is freed. A non-directory named lost+found in the
 * root is renamed so. A link entry reached makes what it names reached;
 * one in no reached list is freed (an inode needs no second name).
 */
#include <stdlib.h>
#include "fsck.h"

/* What a link entry pass 2 kept names is reached with it: never a directory. */
static void reach_target(struct fsck *f, u32 link)
{
	u32 t = pram_img_target(&f->img, link);

	if (pram_ino_valid(f->g, t) && (*fsck_state(f, t) & IN_USED))
		*fsck_state(f, t) |= IN_REACHED;
}

/* Mark @dir's subtree reachable; a queue of directories, not recursion. */
static void reach(struct fsck *f, u32 dir)
{
	u32 *queue = malloc(sizeof(u32) * (f->dirs + 2)), head = 0, tail = 0;
	struct pram_dir_scan scan;
	u32 *e, n, i;

	if (!queue)
		pram_die("out of memory");
	*fsck_state(f, dir) |= IN_REACHED;
	queue[tail++] = dir;
	while (head < tail) {
		fsck_list_entries(f, queue[head++], &e, &n, &scan);
		for (i = 0; i < n; i++) {
			u8 *st = fsck_state(f, e[i]);

			if (!(*st & IN_USED) || (*st & IN_REACHED))
				continue;
			*st |= IN_REACHED;
			if (*st & IN_LINK)
				reach_target(f, e[i]);
			if ((*st & IN_DIR) && tail < f->dirs + 2)
				queue[tail++] = e[i];
		}
		free(e);
	}
	free(queue);
}

/* The entry @name of directory @dir, or 0. */
static u32 find_name(struct fsck *f, u32 dir, const char *name, size_t len)
{
	struct pram_dir_scan scan;
	u32 *e, n, i, found = 0;

	fsck_list_entries(f, dir, &e, &n, &scan);
	for (i = 0; i < n && !found; i++)
		if (fsck_names_equal(f, e[i], name, len))
			found = e[i];
	free(e);
	return found;
}

/* /lost+found: found, or made (0700, root's, as e2fsck makes it). */
static u32 lost_found(struct fsck *f)
{
	static const char name[] = "lost+found";
	struct pram_inode *pi, *root = pram_img_inode(&f->img, PRAM_ROOT_INO);
	struct pram_dir_scan scan;
	u32 ino, *e, n;

	if (f->lost_found)
		return f->lost_found;
	ino = find_name(f, PRAM_ROOT_INO, name, sizeof(name) - 1);
	if (ino && (*fsck_state(f, ino) & IN_DIR))
		return f->lost_found = ino;
	/* Not a directory: it gives up the name, as a duplicate does. */
	if (ino) {
		if (!fsck_problem(f, PR_LOST_FOUND_FILE, "/lost+found (inode %u) is not a directory",
				  ino))
			return 0;
		fsck_list_entries(f, PRAM_ROOT_INO, &e, &n, &scan);
		fsck_rename_entry(f, ino, e, n);
		free(e);
	}
	if (!fsck_problem(f, PR_LOST_FOUND, "/lost+found is missing"))
		return 0;
	if (pram_build_inode(&f->b, &ino)) {
		printf("  No free inode for /lost+found.\n");
		fsck_unfixed(f);
		return 0;
	}
	pi = pram_img_inode(&f->img, ino);
	pi->i_mode = cpu_to_le16(S_IFDIR | 0700);
	pi->i_links_count = cpu_to_le16(2);
	pi->i_atime = pi->i_mtime = pi->i_ctime = pram_time_now();
	if (pram_build_link(&f->b, PRAM_ROOT_INO, ino, name, sizeof(name) - 1)) {
		printf("  Cannot link /lost+found into the root.\n");
		fsck_clear_inode(f, ino);
		fsck_unfixed(f);
		return 0;
	}
	le16_add_cpu(&root->i_links_count, 1);
	pram_img_resum(&f->img, PRAM_ROOT_INO);
	*fsck_state(f, ino) = IN_USED | IN_DIR | IN_LISTED | IN_REACHED;
	f->dirs++;
	/* Counted, so that pass 5 reports only what was wrong before. */
	le32_add_cpu(&f->img.sb->s_free_inodes_count, -1);
	return f->lost_found = ino;
}

/**
 * fsck_unlist() - take @ino out of the list of the directory it names
 * @f: the check
 * @ino: an entry; nothing happens if no list holds it
 */
void fsck_unlist(struct fsck *f, u32 ino)
{
	u32 dir = le32_to_cpu(pram_img_inode(&f->img, ino)->i_parent), *e, n, i, k = 0;
	struct pram_dir_scan scan;

	if (!pram_ino_valid(f->g, dir) || !(*fsck_state(f, dir) & IN_DIR))
		return;
	fsck_list_entries(f, dir, &e, &n, &scan);
	for (i = 0; i < n; i++)
		if (e[i] != ino)
			e[k++] = e[i];
	if (k != n)
		fsck_relink(f, dir, e, k);
	free(e);
}

/*
 * Link @ino into /lost+found, under its own name when that is valid and
 * free there. Return: false if it could not be.
 */
static bool connect(struct fsck *f, u32 ino)
{
	u32 lf = lost_found(f), len, *e, n;
	char name[PRAM_NAME_MAX + 1];
	struct pram_dir_scan scan;
	int err = 0;

	if (!lf)
		return false;
	fsck_unlist(f, ino);
	if (pram_img_name(&f->img, ino, name, &len) || find_name(f, lf, name, len)) {
		fsck_list_entries(f, lf, &e, &n, &scan);
		len = fsck_free_name(f, ino, e, n, name);
		free(e);
		err = pram_build_name(&f->b, ino, name, len);
	}
	if (err || pram_build_list(&f->b, lf, ino)) {
		printf("  No room in /lost+found for inode %u.\n", ino);
		return false;
	}
	if (*fsck_state(f, ino) & IN_DIR) {
		le16_add_cpu(&pram_img_inode(&f->img, lf)->i_links_count, 1);
		pram_img_resum(&f->img, lf);
	}
	reach(f, ino);
	return true;
}

/*
 * Put @ino back into the directory it names as its parent, under its own
 * name, when that directory is reached and the name is free there (an
 * entry between two breaks of a list, or one whose linking a cut
 * stopped): what the kernel does with it too.
 */
static bool go_home(struct fsck *f, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u32 dir = le32_to_cpu(pi->i_parent), len;
	char name[PRAM_NAME_MAX + 1];

	if (!pram_ino_valid(f->g, dir) ||
	    (*fsck_state(f, dir) & (IN_DIR | IN_REACHED)) != (IN_DIR | IN_REACHED) ||
	    pram_img_name(&f->img, ino, name, &len) || find_name(f, dir, name, len))
		return false;
	if (!fsck_problem(f, PR_ORPHAN_HOME, "Inode %u (\"%s\") is in no list, but names directory %u",
			  ino, name, dir))
		return true;
	if (pram_build_list(&f->b, dir, ino)) {
		fsck_unfixed(f);
		return true;
	}
	if (*fsck_state(f, ino) & IN_DIR) {
		le16_add_cpu(&pram_img_inode(&f->img, dir)->i_links_count, 1);
		pram_img_resum(&f->img, dir);
	}
	if (*fsck_state(f, ino) & IN_LINK) {
		*fsck_state(f, ino) |= IN_REACHED;
		reach_target(f, ino);
	} else {
		reach(f, ino);
	}
	return true;
}

/*
 * An inode whose own entry went while link entries still name it: it
 * is reached through them, maybe from a tree that round 0 connects.
 */
static bool detached(const struct pram_inode *pi, u8 st)
{
	return !(st & (IN_LINK | IN_DIR)) && pi->i_links_count && !pi->i_parent;
}

static bool holds_nothing(const struct pram_inode *pi, u8 st)
{
	return (st & IN_DIR) ? !pi->i_type.dir.head && !pi->i_type.dir.tail :
	       !(st & IN_DATA);
}

/*
 * A link entry the root does not reach: put back if what it names may
 * have a name, else freed with its name.
 */
static void orphan_link(struct fsck *f, u32 ino)
{
	u32 t = pram_img_target(&f->img, ino);
	u8 st = pram_ino_valid(f->g, t) ? *fsck_state(f, t) : 0;
	char name[PRAM_NAME_MAX + 1];

	if ((st & (IN_USED | IN_DIR | IN_LINK)) == IN_USED && t != PRAM_ROOT_INO &&
	    go_home(f, ino))
		return;
	if (fsck_problem(f, PR_LINK_ORPHAN, "Link entry %u (\"%s\") to inode %u is in no directory",
			 ino, fsck_name(f, ino, name), pram_img_target(&f->img, ino))) {
		fsck_unlist(f, ino);
		fsck_clear_inode(f, ino);
	}
}

/* An inode in use that the root does not reach. */
static void orphan(struct fsck *f, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(&f->img, ino);
	u8 st = *fsck_state(f, ino);
	char name[PRAM_NAME_MAX + 1];

	if (st & IN_LINK) {
		orphan_link(f, ino);
	} else if (pram_inode_deleted(pi)) {
		/* Unlinked while open: its eviction is finished, not undone. */
		if (fsck_problem(f, PR_DELETED, "Inode %u was deleted (no links, in no directory)",
				 ino))
			fsck_clear_inode(f, ino);
	} else if (go_home(f, ino)) {
		return;
	} else if (holds_nothing(pi, st)) {
		if (fsck_problem(f, PR_ORPHAN_EMPTY, "Inode %u is in no directory and holds nothing",
				 ino)) {
			fsck_unlist(f, ino);
			fsck_clear_inode(f, ino);
		}
	} else if (fsck_problem(f, PR_ORPHAN, "Inode %u (\"%s\") is in no directory",
				ino, fsck_name(f, ino, name)) &&
		   !connect(f, ino)) {
		fsck_unfixed(f);
	}
}

/*
 * fsck_pass3() - every inode in use reachable from the root
 * @f: the check
 *
 * The top of each cut-off tree (in no list) goes first, so that its
 * subtree comes along whatever the inode numbers; then what only a cycle
 * of directories holds, and inodes whose names were all link entries
 * that no reached list holds. Last, the name records no valid name holds
 * are freed.
 */
void fsck_pass3(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count;
	int round;
	u8 st;

	reach(f, PRAM_ROOT_INO);
	for (round = 0; round < 2; round++) {
		for (ino = PRAM_ROOT_INO + 1; ino < end; ino++) {
			st = *fsck_state(f, ino);
			if ((st & (IN_USED | IN_REACHED)) != IN_USED ||
			    (!round && ((st & IN_LISTED) ||
					detached(pram_img_inode(&f->img, ino), st))))
				continue;
			orphan(f, ino);
		}
	}
	fsck_name_records(f);
}
