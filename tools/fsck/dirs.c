// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs pass 2: every directory's entry list. The entries are
 * those the kernel finds (pram_dir_scan(): the forward chain, then past a
 * break the entries from the tail back). A free or cleared inode in a
 * list is taken out, and a link entry that names what it may not; a bad
 * or duplicate name (a long one's records read too) is replaced by
 * "#INO" (or "#INO.K", when that is taken too); a list whose links
 * disagree with the entries found is rewritten to hold them, as the
 * kernel does on a read-write mount. An inode that a list links to but
 * that names another directory, whose list does not hold it, is given to
 * the directory that links to it, before the list is judged.
 */
#include <stdlib.h>
#include "fsck.h"

struct collect {
	u32	*v;
	u32	n, cap;
};

static int collect_entry(void *arg, u32 ino, const struct pram_inode *pi)
{
	struct collect *c = arg;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		if (!c->v)
			pram_die("out of memory");
	}
	c->v[c->n++] = ino;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/**
 * fsck_list_entries() - the entries of @dir's list, in ascending order
 * @f: the check
 * @dir: a directory in use
 * @entries: set to an array the caller frees
 * @n: how many
 * @scan: what the scan found
 */
int fsck_list_entries(struct fsck *f, u32 dir, u32 **entries, u32 *n,
		      struct pram_dir_scan *scan)
{
	struct collect c = { };

	pram_dir_scan(f->g, f->img.base, dir, collect_entry, &c, scan);
	if (c.n)
		qsort(c.v, c.n, sizeof(*c.v), cmp_u32);
	*entries = c.v;
	*n = c.n;
	return 0;
}

/**
 * fsck_relink() - make @dir's list exactly @entries (ascending)
 * @f: the check
 * @dir: the directory
 * @entries: its entries
 * @n: how many
 */
int fsck_relink(struct fsck *f, u32 dir, const u32 *entries, u32 n)
{
	struct pram_inode *d = pram_img_inode(&f->img, dir), *pi;
	u32 i;

	d->i_type.dir.head = cpu_to_le32(n ? entries[0] : 0);
	d->i_type.dir.tail = cpu_to_le32(n ? entries[n - 1] : 0);
	pram_img_resum(&f->img, dir);
	for (i = 0; i < n; i++) {
		pi = pram_img_inode(&f->img, entries[i]);
		pi->i_prev = cpu_to_le32(i ? entries[i - 1] : 0);
		pi->i_next = cpu_to_le32(i + 1 < n ? entries[i + 1] : 0);
		pi->i_parent = cpu_to_le32(dir);
		pram_img_resum(&f->img, entries[i]);
	}
	return 0;
}

/* An entry's valid name, for sorting a directory's names. */
struct named {
	u32	ino;
	u32	len;
	char	name[PRAM_NAME_MAX + 1];
};

static int cmp_names(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = x->len != y->len ? (x->len < y->len ? -1 : 1) :
		memcmp(x->name, y->name, x->len);

	return c ?: cmp_u32(&x->ino, &y->ino);
}

static bool name_taken(struct fsck *f, const char *name, size_t len,
		       const u32 *e, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (fsck_names_equal(f, e[i], name, len))
			return true;
	return false;
}

/**
 * fsck_free_name() - a name for @ino that none of @e has: "#INO", or "#INO.K"
 * @f: the check
 * @ino: the inode to name
 * @e: the entries of the directory it goes in
 * @n: how many
 * @name: PRAM_NAME_LEN + 1 bytes for the name
 *
 * Return: its length.
 */
int fsck_free_name(struct fsck *f, u32 ino, const u32 *e, u32 n, char *name)
{
	u32 k = 0;
	int len;

	do {
		len = k ? snprintf(name, PRAM_NAME_LEN + 1, "#%u.%u", ino, k) :
			  snprintf(name, PRAM_NAME_LEN + 1, "#%u", ino);
		k++;
	} while (name_taken(f, name, len, e, n));
	return len;
}

/**
 * fsck_rename_entry() - give @ino a name of its own (fsck_free_name())
 * @f: the check
 * @ino: an entry whose name is bad, taken, or needed (lost+found)
 * @e: the entries of its directory
 * @n: how many
 *
 * The records of a long name it had are freed by fsck_name_records().
 */
void fsck_rename_entry(struct fsck *f, u32 ino, const u32 *e, u32 n)
{
	char name[PRAM_NAME_LEN + 1];
	int len = fsck_free_name(f, ino, e, n, name);

	pram_build_name(&f->b, ino, name, len);
}

/* The valid names of @e, sorted; entries with bad names left out. */
static struct named *sorted_names(struct fsck *f, const u32 *e, u32 n, u32 *got)
{
	struct named *v = malloc((n ?: 1) * sizeof(*v));
	u32 i;

	if (!v)
		pram_die("out of memory");
	for (*got = 0, i = 0; i < n; i++) {
		v[*got].ino = e[i];
		if (!pram_img_name(&f->img, e[i], v[*got].name, &v[*got].len))
			++*got;
	}
	qsort(v, *got, sizeof(*v), cmp_names);
	return v;
}

/* Names: valid, and each once; the lower inode number keeps a name. */
static void check_names(struct fsck *f, u32 dir, u32 *e, u32 n)
{
	char buf[PRAM_NAME_MAX + 1];
	const char *why;
	struct named *v;
	u32 i, got, len;

	for (i = 0; i < n; i++) {
		if (!pram_entry_name(f->g, f->img.base, e[i], pram_img_inode(&f->img, e[i]),
				     buf, &len, &why))
			continue;
		if (fsck_problem(f, PR_NAME_BAD, "Directory %u: entry %u (\"%s\"): %s", dir,
				 e[i], fsck_name(f, e[i], buf), why))
			fsck_rename_entry(f, e[i], e, n);
	}
	v = sorted_names(f, e, n, &got);
	for (i = 1; i < got; i++) {
		if (v[i].len != v[i - 1].len ||
		    memcmp(v[i].name, v[i - 1].name, v[i].len))
			continue;
		if (fsck_problem(f, PR_NAME_DUP, "Directory %u: entries %u and %u are both named \"%s\"",
				 dir, v[i - 1].ino, v[i].ino, v[i].name))
			fsck_rename_entry(f, v[i].ino, e, n);
	}
	free(v);
}

/*
 * A link entry must name an inode in use that is neither a directory nor
 * the root nor another link entry; otherwise its name goes.
 */
static bool link_target_ok(struct fsck *f, u32 dir, u32 ino)
{
	u32 t = pram_img_target(&f->img, ino);
	char buf[PRAM_NAME_MAX + 1];
	u8 st;

	if (!(*fsck_state(f, ino) & IN_LINK))
		return true;
	st = pram_ino_valid(f->g, t) ? *fsck_state(f, t) : 0;
	if ((st & (IN_USED | IN_DIR | IN_LINK)) == IN_USED && t != PRAM_ROOT_INO)
		return true;
	if (!fsck_problem(f, PR_LINK_TARGET, "Directory %u: link entry %u (\"%s\") names inode %u, %s",
			  dir, ino, fsck_name(f, ino, buf), t,
			  !(st & IN_USED) ? "which is not in use" :
			  (st & IN_LINK) ? "another link entry" : "a directory"))
		return true;
	fsck_clear_inode(f, ino);
	return false;
}

/* Does @dir's list hold @ino? */
static bool in_list(struct fsck *f, u32 dir, u32 ino)
{
	struct pram_dir_scan scan;
	u32 *e, n, i;
	bool found = false;

	if (!pram_ino_valid(f->g, dir) || !(*fsck_state(f, dir) & IN_DIR))
		return false;
	fsck_list_entries(f, dir, &e, &n, &scan);
	for (i = 0; i < n; i++)
		found |= e[i] == ino;
	free(e);
	return found;
}

/*
 * Where @dir's chain broke: an inode in use that names another directory,
 * whose list does not hold it, is @dir's (true: it was given to @dir).
 */
static bool adopt(struct fsck *f, u32 dir, const struct pram_dir_scan *scan)
{
	const struct pram_inode *last = pram_img_inode(&f->img, scan->last ?: dir);
	u32 next = le32_to_cpu(scan->last ? last->i_next : last->i_type.dir.head);
	struct pram_inode *pi;
	u32 parent;

	if (!scan->broken || !pram_ino_valid(f->g, next) || next == dir ||
	    next == PRAM_ROOT_INO || !(*fsck_state(f, next) & IN_USED))
		return false;
	pi = pram_img_inode(&f->img, next);
	parent = le32_to_cpu(pi->i_parent);
	if (parent == dir || in_list(f, parent, next) ||
	    !fsck_problem(f, PR_PARENT, "Inode %u is in directory %u's list, but names directory %u",
			  next, dir, parent))
		return false;
	pi->i_parent = cpu_to_le32(dir);
	pram_img_resum(&f->img, next);
	return true;
}

/* One list: its entries judged, the list rewritten if it must be. */
static void check_dir(struct fsck *f, u32 dir)
{
	u32 *e, n, i, kept = 0;
	struct pram_dir_scan scan;

	fsck_list_entries(f, dir, &e, &n, &scan);
	while (adopt(f, dir, &scan)) {
		free(e);
		fsck_list_entries(f, dir, &e, &n, &scan);
	}
	for (i = 0; i < n; i++) {
		if (*fsck_state(f, e[i]) & IN_USED) {
			if (link_target_ok(f, dir, e[i]))
				e[kept++] = e[i];
		} else if (!fsck_problem(f, PR_ENTRY_FREE, "Directory %u lists inode %u, which is free",
					 dir, e[i])) {
			e[kept++] = e[i];
		}
	}
	if ((!scan.consistent || kept != n) &&
	    fsck_problem(f, PR_LIST, "Directory %u: its entry list %s (%u entries found)",
			 dir, scan.broken ? "breaks" : kept != n ? "holds free inodes" :
			 "has wrong back links or tail", kept))
		fsck_relink(f, dir, e, kept);
	check_names(f, dir, e, kept);
	for (i = 0; i < kept; i++)
		*fsck_state(f, e[i]) |= IN_LISTED;
	free(e);
}

/**
 * fsck_pass2() - every directory's list
 * @f: the check
 */
void fsck_pass2(struct fsck *f)
{
	u32 ino, end = PRAM_ROOT_INO + f->g->inodes_count;

	for (ino = PRAM_ROOT_INO; ino < end; ino++)
		if ((*fsck_state(f, ino) & (IN_USED | IN_DIR)) == (IN_USED | IN_DIR))
			check_dir(f, ino);
}
