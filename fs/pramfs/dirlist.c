// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS directory lists: which entries a directory's list holds, read
 * from an image. Pure code, shared by the kernel's directory index and
 * the offline tools.
 *
 * The entries of a directory form a doubly linked list in ascending
 * inode-number order: head and tail in the directory inode, i_next and
 * i_prev in each entry, and each entry's i_parent names the directory.
 * The forward chain is the truth. Where it ends before the tail (a link
 * out of range, out of order, or to an inode that is not an entry of
 * this directory, or a 0 too early), the entries after the break are
 * found from the tail backwards, as far as the back links lead: one bad
 * record costs that record, not the entries behind it.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include "format.h"

/*
 * The record of @ino if it can be an entry of @dir reached by a link
 * from @from (0: from an end of the list), else NULL. The strict order
 * is what makes every walk end.
 */
static const struct pram_inode *pram_list_member(const struct pram_geometry *g,
						 const void *base, u32 dir,
						 u32 ino, u32 from, bool forward)
{
	const struct pram_inode *pi;

	if (!pram_ino_valid(g, ino) || ino == dir || ino == PRAM_ROOT_INO)
		return NULL;
	if (from && (forward ? ino <= from : ino >= from))
		return NULL;
	pi = base + pram_ino_offset(ino);
	/* A name record's bytes are no entry's links, whatever they hold. */
	if (pram_mode_is_name(le16_to_cpu(pi->i_mode)))
		return NULL;
	return le32_to_cpu(pi->i_parent) == dir ? pi : NULL;
}

/* Entries after the forward chain's last, from the tail backwards. */
static int pram_dir_scan_back(const struct pram_geometry *g, const void *base,
			      u32 dir, pram_dir_scan_fn fn, void *arg,
			      struct pram_dir_scan *scan)
{
	const struct pram_inode *d = base + pram_ino_offset(dir), *pi;
	u32 ino = le32_to_cpu(d->i_type.dir.tail), from = 0;
	int ret;

	while (ino > scan->last) {
		pi = pram_list_member(g, base, dir, ino, from, false);
		if (!pi)
			break;
		ret = fn(arg, ino, pi);
		if (ret)
			return ret;
		scan->members++;
		scan->recovered++;
		from = ino;
		ino = le32_to_cpu(pi->i_prev);
	}
	return 0;
}

/**
 * pram_dir_scan() - find the entries of directory @dir's list
 * @g: the geometry
 * @base: the filesystem image
 * @dir: the directory's inode number; its record is a checked directory
 * @fn: called for each entry with @arg, its number and its record (which
 *	may be free or fail its own checks: that is the caller's to judge),
 *	in ascending order along the forward chain, then descending for
 *	the entries recovered from the tail
 * @arg: passed to @fn
 * @scan: what the scan found
 *
 * Return: 0, or the first non-zero value @fn returned (the scan stops).
 */
int pram_dir_scan(const struct pram_geometry *g, const void *base, u32 dir,
		  pram_dir_scan_fn fn, void *arg, struct pram_dir_scan *scan)
{
	const struct pram_inode *d = base + pram_ino_offset(dir), *pi;
	u32 ino = le32_to_cpu(d->i_type.dir.head), prev = 0;
	int ret;

	memset(scan, 0, sizeof(*scan));
	scan->consistent = true;
	while (ino) {
		pi = pram_list_member(g, base, dir, ino, prev, true);
		if (!pi) {
			scan->broken = true;
			break;
		}
		if (le32_to_cpu(pi->i_prev) != prev)
			scan->consistent = false;
		ret = fn(arg, ino, pi);
		if (ret)
			return ret;
		scan->members++;
		prev = ino;
		ino = le32_to_cpu(pi->i_next);
	}
	scan->last = prev;
	if (!scan->broken && le32_to_cpu(d->i_type.dir.tail) == prev)
		return 0;
	scan->consistent = false;
	return pram_dir_scan_back(g, base, dir, fn, arg, scan);
}
EXPORT_SYMBOL_IF_KUNIT(pram_dir_scan);
