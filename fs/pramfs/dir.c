// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS directories: each entry is a slot of the inode table linked
 * into its directory's doubly linked list (head and tail in the
 * directory inode), with the name in the slot (entry.c): the inode
 * itself, for its first name, or a link entry naming it.
 *
 * The list is read from NVRAM once, into the directory's index
 * (index.c), when the directory is first used. Every entry is checked
 * then: a bad one stays in the list but is refused (lookups of its name
 * give EUCLEAN, readdir skips it). A list whose back links or tail
 * disagree with its forward chain, whose chain breaks before the tail,
 * or which holds free inodes is reported, and on a read-write mount
 * rewritten to hold exactly the entries found (dirlist.c finds them).
 * Lookups, readdir and changes then use the index. A change checks the
 * links it is about to rewrite against the NVRAM first; if they
 * disagree, the index is built again (repairing the list) and the check
 * made once more, so a bad list is never made worse.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "pramfs.h"

/*
 * A directory's list is kept in ascending inode-number order, which makes
 * readdir positions stable: position n >= 2 means "the entries whose
 * inode number is at least n", 0 and 1 are the dots, and this is the end.
 * An entry removed during a walk cannot make the walk skip or repeat
 * another, and telldir() and seekdir() positions keep their meaning.
 */
#define PRAM_DIR_POS_EOF	(1LL << 33)

static struct pram_inode *pram_dir_record(struct inode *dir)
{
	return pram_get_inode(dir->i_sb, dir->i_ino);
}

/* Where the forward link after @ino (the list head for 0) is. */
static inline __le32 *pram_next_field(struct inode *dir, u32 ino)
{
	return ino ? &pram_get_inode(dir->i_sb, ino)->i_next :
		     &pram_dir_record(dir)->i_type.dir.head;
}

/* Where the backward link before @ino (the list tail for 0) is. */
static inline __le32 *pram_prev_field(struct inode *dir, u32 ino)
{
	return ino ? &pram_get_inode(dir->i_sb, ino)->i_prev :
		     &pram_dir_record(dir)->i_type.dir.tail;
}

static u32 pram_link_next(struct inode *dir, u32 ino)
{
	return le32_to_cpu(*pram_next_field(dir, ino));
}

static u32 pram_link_prev(struct inode *dir, u32 ino)
{
	return le32_to_cpu(*pram_prev_field(dir, ino));
}

/*
 * Set the link @field of entry @ino's record (of @dir's own for 0) to
 * @to. A bad entry's record is patched so that it stays as bad as it was.
 * For an operation (@change), @dir's own record takes the change's times
 * along, for the operation's pram_touch_dir() of @dir, which follows
 * under the same lock, to find.
 */
static void pram_set_link(struct inode *dir, struct pram_dir_index *idx,
			  u32 ino, __le32 *field, u32 to, bool change)
{
	struct super_block *sb = dir->i_sb;
	u32 rec = ino ?: dir->i_ino;
	struct pram_inode *pi = pram_get_inode(sb, rec), *w;
	u32 at = (void *)field - (void *)pi, from = at;

	if (le32_to_cpu(*field) == to)
		return;
	if (pram_index_bad(idx, ino)) {
		pram_record_patch(sb, rec, field, to);
		return;
	}
	/* The times and the head or tail: bytes 40-67, one slot entry. */
	if (!ino && change)
		from = offsetof(struct pram_inode, i_mtime);
	w = pram_record_begin_part(sb, rec, from, at + sizeof(*field) - from);
	*(__le32 *)((void *)w + at) = cpu_to_le32(to);
	if (!ino && change) {
		inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
		w->i_mtime = pram_time_pack(inode_get_mtime(dir));
		w->i_ctime = pram_time_pack(inode_get_ctime(dir));
		PRAM_I(dir)->i_stamped = true;
	}
	pram_record_end(sb, w);
}

static void pram_set_next(struct inode *dir, struct pram_dir_index *idx,
			  u32 ino, u32 to)
{
	pram_set_link(dir, idx, ino, pram_next_field(dir, ino), to, true);
}

static void pram_set_prev(struct inode *dir, struct pram_dir_index *idx,
			  u32 ino, u32 to)
{
	pram_set_link(dir, idx, ino, pram_prev_field(dir, ino), to, true);
}

/* ---- building the index ---- */

struct pram_build {
	struct inode		*dir;
	struct pram_dir_index	*idx;
	unsigned int		free;	/* free inodes met in the list */
	unsigned int		adopted; /* found by their parent, past breaks */
	char			name[PRAM_NAME_MAX + 1];
};

/*
 * Check one entry under its record lock (its own inode may be rewriting
 * its attributes), and index it: a bad one marked, a free one left out.
 * A bad entry whose name is valid keeps it in the index, so that its
 * name gives EUCLEAN, not ENOENT.
 */
static int pram_build_entry(void *arg, u32 ino, const struct pram_inode *pi)
{
	struct pram_build *b = arg;
	struct super_block *sb = b->dir->i_sb;
	struct pram_sb_info *sbi = PRAM_SB(sb);
	const char *why = NULL, *name_why;
	bool named;
	u32 dup, len;
	int err;

	if (!pi->i_mode) {
		b->free++;
		return 0;
	}
	pram_record_lock(sb, ino);
	err = pram_inode_check(pi, ino, &sbi->geo, &why);
	named = !pram_entry_name(&sbi->geo, sbi->virt_addr, ino, pi, b->name,
				 &len, &name_why);
	pram_record_unlock(sb, ino);
	if (!err && !named) {
		err = -EINVAL;
		why = name_why;
	}
	if (err)
		pram_error(sb, ino, "entry of directory %lu refused: %s",
			   b->dir->i_ino, why);
	err = pram_index_insert(sb, b->idx, ino, err, named ? b->name : NULL,
				len, &dup);
	if (dup)
		pram_error(sb, dup, "entry of directory %lu refused: its name is another entry's",
			   b->dir->i_ino);
	return err;
}

/* Rewrite the list's links to hold exactly the entries of @idx: a repair. */
static void pram_dir_relink(struct inode *dir, struct pram_dir_index *idx)
{
	unsigned long ino = 0;
	u32 prev = 0;

	for (; pram_index_next(idx, &ino); ino++) {
		pram_set_link(dir, idx, prev, pram_next_field(dir, prev), ino,
			      false);
		pram_set_link(dir, idx, ino, pram_prev_field(dir, ino), prev,
			      false);
		prev = ino;
	}
	pram_set_link(dir, idx, prev, pram_next_field(dir, prev), 0, false);
	pram_set_link(dir, idx, 0, pram_prev_field(dir, 0), prev, false);
}

/* Does a link of @pi name an entry already found? */
static bool pram_next_to_member(struct pram_dir_index *idx,
				const struct pram_inode *pi)
{
	u32 prev = le32_to_cpu(READ_ONCE(pi->i_prev));
	u32 next = le32_to_cpu(READ_ONCE(pi->i_next));

	return (prev && pram_index_has(idx, prev)) ||
	       (next && pram_index_has(idx, next));
}

/*
 * After a break, the entries the two walks could not reach (between a bad
 * forward link and a bad back link, or one whose linking a cut stopped):
 * each names the directory as its parent and lies next to an entry found,
 * so a pass over the inode table each way finds a run of them from either
 * end. One that names the directory but lies next to none of its entries
 * (another directory's entry with a bad parent field) is not taken.
 */
static int pram_index_adopt(struct pram_build *b)
{
	struct super_block *sb = b->dir->i_sb;
	u32 n = PRAM_SB(sb)->geo.inodes_count, i, ino;
	const struct pram_inode *pi;
	int pass, err;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			ino = PRAM_ROOT_INO + (pass ? n - 1 - i : i);
			pi = pram_get_inode(sb, ino);
			if (ino == b->dir->i_ino || !READ_ONCE(pi->i_mode) ||
			    pram_mode_is_name(le16_to_cpu(READ_ONCE(pi->i_mode))) ||
			    le32_to_cpu(READ_ONCE(pi->i_parent)) != b->dir->i_ino ||
			    pram_index_has(b->idx, ino) ||
			    !pram_next_to_member(b->idx, pi))
				continue;
			err = pram_build_entry(b, ino, pi);
			if (err)
				return err;
			b->adopted++;
			cond_resched();
		}
	}
	return 0;
}

static const char *pram_list_trouble(const struct pram_dir_scan *scan)
{
	if (scan->broken)
		return "a forward link is bad";
	if (!scan->consistent)
		return "a back link or the tail is wrong";
	return "it holds free inodes";
}

static void pram_dir_repair(struct inode *dir, struct pram_dir_index *idx,
			    const struct pram_dir_scan *scan,
			    const struct pram_build *b)
{
	struct super_block *sb = dir->i_sb;

	pram_error(sb, dir->i_ino, "entry list: %s (%u entries found from the tail, %u by their parent, %u free inodes in the list)",
		   pram_list_trouble(scan), scan->recovered, b->adopted, b->free);
	if (sb_rdonly(sb))
		return;
	pram_dir_relink(dir, idx);
	pram_warn(sb, "directory %lu: list rewritten with its %u entries",
		  dir->i_ino, pram_index_members(idx));
}

static struct pram_dir_index *pram_index_build(struct inode *dir)
{
	struct pram_sb_info *sbi = PRAM_SB(dir->i_sb);
	struct pram_dir_index *idx;
	struct pram_dir_scan scan;
	struct pram_build *b;
	int err;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	idx = pram_index_new();
	if (!b || !idx) {
		err = -ENOMEM;
		goto free_build;
	}
	b->dir = dir;
	b->idx = idx;
	err = pram_dir_scan(&sbi->geo, sbi->virt_addr, dir->i_ino,
			    pram_build_entry, b, &scan);
	if (!err && !scan.consistent)
		err = pram_index_adopt(b);
	if (!err && (!scan.consistent || b->free))
		pram_dir_repair(dir, idx, &scan, b);
free_build:
	kfree(b);
	if (err) {
		pram_index_destroy(idx);
		return ERR_PTR(err);
	}
	return idx;
}

/*
 * The index of @dir, built on first use; an ERR_PTR without memory.
 * Built under the directory's i_rwsem held shared (so two lookups may
 * race to do it), serialised by i_index_lock, and published with a
 * release store.
 */
static struct pram_dir_index *pram_dir_index(struct inode *dir)
{
	struct pram_inode_info *pii = PRAM_I(dir);
	/* Pairs with the release below: a seen index is a complete one. */
	struct pram_dir_index *idx = smp_load_acquire(&pii->i_index);

	if (idx)
		return idx;
	/* A build may repair the list: a transaction, outside the lock. */
	pram_tx_begin(dir->i_sb);
	mutex_lock(&pii->i_index_lock);
	idx = pii->i_index;
	if (!idx) {
		idx = pram_index_build(dir);
		if (!IS_ERR(idx)) {
			/* Publish a finished index; pairs with the acquire above. */
			smp_store_release(&pii->i_index, idx);
		}
	}
	mutex_unlock(&pii->i_index_lock);
	pram_tx_end(dir->i_sb);
	return idx;
}

/**
 * pram_dir_forget() - drop @dir's index; the next use builds it again
 * @dir: a directory, its i_rwsem held exclusive, or being evicted
 */
void pram_dir_forget(struct inode *dir)
{
	struct pram_dir_index *idx = PRAM_I(dir)->i_index;

	WRITE_ONCE(PRAM_I(dir)->i_index, NULL);
	pram_index_destroy(idx);
	PRAM_I(dir)->i_index_gen++;
}

/*
 * pram_dir_gen() - what changes when @a's or @b's index is dropped
 *
 * A list position found before a rebuild (which may rewrite the list)
 * is stale after it: an operation that finds several positions finds
 * them all again if this changed meanwhile. Under both i_rwsems.
 */
unsigned int pram_dir_gen(struct inode *a, struct inode *b)
{
	return PRAM_I(a)->i_index_gen + PRAM_I(b)->i_index_gen;
}

/* ---- lookup and readdir ---- */

/*
 * The inode entry @ino of @dir names: itself, or what a link entry
 * names, which must be an inode and not a directory.
 */
static struct inode *pram_entry_iget(struct inode *dir, u32 ino)
{
	struct super_block *sb = dir->i_sb;
	u32 target = pram_entry_inode(sb, ino);
	struct inode *inode = pram_iget(sb, target);

	if (target == ino || IS_ERR(inode) || !S_ISDIR(inode->i_mode))
		return inode;
	iput(inode);
	pram_error(sb, ino, "link entry of directory %lu names directory %u",
		   dir->i_ino, target);
	return ERR_PTR(-EUCLEAN);
}

/**
 * pram_lookup() - find @dentry's name in @dir
 * @dir: the directory
 * @dentry: the name
 * @flags: lookup flags
 *
 * Return: NULL, the dentry to use, or an ERR_PTR: -ENAMETOOLONG for a
 * name longer than PRAM_NAME_MAX, -EUCLEAN for a refused entry, -ENOMEM.
 */
struct dentry *pram_lookup(struct inode *dir, struct dentry *dentry,
			   unsigned int flags)
{
	struct pram_dir_index *idx;
	struct inode *inode = NULL;
	long ino;

	if (dentry->d_name.len > PRAM_NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	idx = pram_dir_index(dir);
	if (IS_ERR(idx))
		return ERR_CAST(idx);
	ino = pram_index_find(dir->i_sb, idx, &dentry->d_name);
	if (ino < 0)
		return ERR_PTR(ino);
	if (ino)
		inode = pram_entry_iget(dir, ino);
	if (IS_ERR(inode) && PTR_ERR(inode) == -EUCLEAN)
		pram_index_refuse(idx, ino);
	return d_splice_alias(inode, dentry);
}


/* What readdir shows of entry @ino: its name, the inode and its type. */
static bool pram_emit_entry(struct dir_context *ctx, struct super_block *sb,
			    u32 ino)
{
	char name[PRAM_NAME_MAX + 1];
	u32 len, target = pram_entry_inode(sb, ino);
	umode_t mode;

	/* Checked when the index was built; skipped if it went bad since. */
	if (pram_entry_name_get(sb, ino, name, &len) ||
	    !pram_get_inode(sb, target)) {
		pram_error(sb, ino, "entry's name or link went bad since it was read");
		return true;
	}
	mode = le16_to_cpu(READ_ONCE(pram_get_inode(sb, target)->i_mode));
	return dir_emit(ctx, name, len, target, fs_umode_to_dtype(mode));
}

/* A position is the next inode number to list: found in the index at once. */
static int pram_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct pram_dir_index *idx;
	struct pram_dir_ent *ent;
	unsigned long ino;

	if (!dir_emit_dots(file, ctx) || ctx->pos >= PRAM_DIR_POS_EOF)
		return 0;
	idx = pram_dir_index(dir);
	if (IS_ERR(idx))
		return PTR_ERR(idx);
	for (ino = ctx->pos; (ent = pram_index_next(idx, &ino)); ino++) {
		if (!READ_ONCE(ent->bad) && !pram_emit_entry(ctx, dir->i_sb, ino))
			return 0;
		ctx->pos = (loff_t)ino + 1;
	}
	ctx->pos = PRAM_DIR_POS_EOF;
	return 0;
}

/* Positions are inode numbers, whatever the largest file size is. */
static loff_t pram_dir_llseek(struct file *file, loff_t offset, int whence)
{
	return generic_file_llseek_size(file, offset, whence, PRAM_DIR_POS_EOF,
					PRAM_DIR_POS_EOF);
}

/* ---- changing the list; the caller holds the directory's i_rwsem ---- */

/* Is @ino 0 (an end of the list) or an entry of @idx? */
static bool pram_end_or_entry(struct pram_dir_index *idx, u32 ino)
{
	return !ino || pram_index_has(idx, ino);
}

/* Where the new entry @ino goes: between the entries around its number. */
static int pram_find_gap(struct inode *dir, struct pram_dir_index *idx,
			 u32 ino, struct pram_list_pos *pos)
{
	unsigned long next = (unsigned long)ino + 1;

	if (pram_index_has(idx, ino))
		return -EUCLEAN;
	pos->next = pram_index_next(idx, &next) ? next : 0;
	pos->prev = pram_link_prev(dir, pos->next);
	if (pos->prev >= ino || !pram_end_or_entry(idx, pos->prev) ||
	    pram_link_next(dir, pos->prev) != pos->next)
		return -EUCLEAN;
	return 0;
}

/* The neighbours of the entry @ino, which must point at it. */
static int pram_find_links(struct inode *dir, struct pram_dir_index *idx,
			   u32 ino, struct pram_list_pos *pos)
{
	struct pram_inode *pi = pram_get_inode(dir->i_sb, ino);

	if (!pram_index_has(idx, ino) || le32_to_cpu(pi->i_parent) != dir->i_ino)
		return -EUCLEAN;
	pos->prev = le32_to_cpu(pi->i_prev);
	pos->next = le32_to_cpu(pi->i_next);
	if (!pram_end_or_entry(idx, pos->prev) ||
	    !pram_end_or_entry(idx, pos->next) ||
	    pram_link_next(dir, pos->prev) != ino ||
	    pram_link_prev(dir, pos->next) != ino)
		return -EUCLEAN;
	return 0;
}

/*
 * Where the entry @ino goes (@insert) or where it is in @dir's list, with
 * the links around it checked; on a mismatch the index is built again
 * from the NVRAM, which repairs the list, and the check is made again.
 */
static int pram_dir_locate(struct inode *dir, u32 ino, bool insert,
			   struct pram_list_pos *pos)
{
	struct pram_dir_index *idx;
	int err, tries = 0;

	for (;;) {
		idx = pram_dir_index(dir);
		if (IS_ERR(idx))
			return PTR_ERR(idx);
		err = insert ? pram_find_gap(dir, idx, ino, pos) :
			       pram_find_links(dir, idx, ino, pos);
		if (err != -EUCLEAN || tries++)
			return err;
		pram_error(dir->i_sb, dir->i_ino, "directory list does not match its index at entry %u",
			   ino);
		pram_dir_forget(dir);
	}
}

/**
 * pram_dir_name_entry() - the entry of @dir named @name, which names @inode
 * @dir: the directory
 * @name: a name the VFS found in @dir (a positive dentry)
 * @inode: the inode it names
 * @entry: the entry: @inode's own, or a link entry
 *
 * unlink and rename act on the entry the name is, not on the inode,
 * which may have several.
 *
 * Return: 0, -EUCLEAN when the index has no such entry, or -ENOMEM.
 */
int pram_dir_name_entry(struct inode *dir, const struct qstr *name,
			struct inode *inode, u32 *entry)
{
	struct pram_dir_index *idx = pram_dir_index(dir);
	long ino;

	if (IS_ERR(idx))
		return PTR_ERR(idx);
	ino = pram_index_find(dir->i_sb, idx, name);
	if (ino < 0)
		return ino;
	if (!ino || pram_entry_inode(dir->i_sb, ino) != inode->i_ino) {
		pram_error(dir->i_sb, dir->i_ino, "no entry \"%.*s\" for inode %lu",
			   name->len, name->name, inode->i_ino);
		return -EUCLEAN;
	}
	*entry = ino;
	return 0;
}

/**
 * pram_dir_find_gap() - where the new entry @ino goes in @dir's list
 * @dir: the directory
 * @ino: an inode in no list
 * @pos: its neighbours to be
 *
 * Return: 0, -EUCLEAN for a list that cannot be repaired, or -ENOMEM.
 */
int pram_dir_find_gap(struct inode *dir, u32 ino, struct pram_list_pos *pos)
{
	return pram_dir_locate(dir, ino, true, pos);
}

/**
 * pram_dir_find_entry() - where the entry @ino is in @dir's list
 * @dir: the directory
 * @ino: an entry of @dir
 * @pos: its neighbours, which point at it
 *
 * Return: 0, -EUCLEAN if @ino is not in the list, or -ENOMEM.
 */
int pram_dir_find_entry(struct inode *dir, u32 ino, struct pram_list_pos *pos)
{
	return pram_dir_locate(dir, ino, false, pos);
}

/**
 * pram_dir_pos_skip() - a position found with @gone still in the list
 * @pos: the position, adjusted for @gone's removal
 * @gone: an entry removed since
 * @gone_pos: its neighbours
 */
void pram_dir_pos_skip(struct pram_list_pos *pos, u32 gone,
		       const struct pram_list_pos *gone_pos)
{
	if (pos->prev == gone)
		pos->prev = gone_pos->prev;
	if (pos->next == gone)
		pos->next = gone_pos->next;
}

/**
 * pram_dir_link() - link the entry @ino, named @name, into @dir's list
 * @dir: the directory
 * @ino: an entry in no list
 * @name: its name
 * @ns: the name records reserved for it (pram_name_reserve())
 * @pos: from pram_dir_find_gap()
 * @inode: as for pram_name_set()
 *
 * The new entry's own record is written first and the forward link that
 * makes it visible last.
 */
void pram_dir_link(struct inode *dir, u32 ino, const struct qstr *name,
		   struct pram_name_slots *ns, const struct pram_list_pos *pos,
		   struct inode *inode)
{
	struct super_block *sb = dir->i_sb;
	struct pram_dir_index *idx = PRAM_I(dir)->i_index;
	u32 dup;

	pram_name_set(sb, ino, name, ns, pos, dir->i_ino, inode);
	pram_set_prev(dir, idx, pos->next, ino);
	pram_set_next(dir, idx, pos->prev, ino);
	if (idx && pram_index_insert(sb, idx, ino, false, name->name,
				     name->len, &dup))
		pram_dir_forget(dir);
}

/*
 * Must entry @ino's name go with it? Not the short name of an inode
 * deleted with it (@inode, whose own entry @ino is, with no link left):
 * it goes when its record does, at eviction, and a deleted inode's short
 * name is valid (pram_unlisted_name_check()). The record's change then
 * logs its attributes, two journal lines, not three.
 */
static bool pram_name_goes(struct super_block *sb, u32 ino,
			   const struct inode *inode)
{
	return !inode || inode->i_nlink ||
	       pram_is_long_name(pram_get_inode(sb, ino));
}

/*
 * Take the entry @ino out of @dir's list. The forward link goes first, so
 * a walk never meets the entry after it is gone. The entry's links and
 * i_parent are cleared: an inode with no parent is in no directory.
 */
static void pram_dir_take_out(struct inode *dir, u32 ino,
			      const struct pram_list_pos *pos, bool for_good,
			      struct inode *inode)
{
	struct super_block *sb = dir->i_sb;
	struct pram_dir_index *idx = PRAM_I(dir)->i_index;
	bool unname = for_good && pram_name_goes(sb, ino, inode);
	u32 recs[PRAM_NAME_RECS];
	struct pram_inode *pi;

	if (idx)
		pram_index_del(idx, ino);
	pram_set_next(dir, idx, pos->prev, pos->next);
	pram_set_prev(dir, idx, pos->next, pos->prev);
	pram_name_recs_of(sb, ino, recs);
	pi = unname ? pram_record_begin_named(sb, ino) :
		      pram_record_begin(sb, ino);
	if (inode)
		pram_inode_to_record(inode, pi);
	pi->i_prev = 0;
	pi->i_next = 0;
	pi->i_parent = 0;
	if (unname)
		pram_name_clear(pi);
	pram_record_end(sb, pi);
	if (unname)
		pram_name_free_recs(sb, ino, recs);
}

/**
 * pram_dir_unlink() - take the entry @ino out of @dir's list, to move it
 * @dir: the directory
 * @ino: an entry of @dir
 * @pos: from pram_dir_find_entry()
 *
 * Its name stays, for pram_dir_link() to replace.
 */
void pram_dir_unlink(struct inode *dir, u32 ino, const struct pram_list_pos *pos)
{
	pram_dir_take_out(dir, ino, pos, false, NULL);
}

/**
 * pram_dir_remove() - take the entry @ino out of @dir's list for good
 * @dir: the directory
 * @ino: an entry of @dir
 * @pos: from pram_dir_find_entry()
 * @inode: the VFS inode whose own record @ino is, to write its
 *	   attributes in the same store, or NULL
 *
 * As pram_dir_unlink(), and the entry loses its name (a long one's
 * records are freed): an inode in no list has none, but the short name
 * of one deleted with the entry, which stays until its record goes
 * (pram_name_goes()).
 */
void pram_dir_remove(struct inode *dir, u32 ino, const struct pram_list_pos *pos,
		     struct inode *inode)
{
	pram_dir_take_out(dir, ino, pos, true, inode);
}

/**
 * pram_dir_rename() - give the entry @ino of @dir the name @name, in place
 * @dir: the directory
 * @ino: an entry of @dir
 * @name: the new name, which no other entry has
 * @ns: the name records reserved for it (pram_name_reserve())
 * @inode: as for pram_name_set()
 */
void pram_dir_rename(struct inode *dir, u32 ino, const struct qstr *name,
		     struct pram_name_slots *ns, struct inode *inode)
{
	struct super_block *sb = dir->i_sb;
	struct pram_dir_index *idx = PRAM_I(dir)->i_index;

	if (idx)
		pram_index_unname(idx, ino);
	pram_name_set(sb, ino, name, ns, NULL, 0, inode);
	if (idx)
		pram_index_rename(idx, ino, name->name, name->len);
}

/**
 * pram_add_entry() - link @ino into @dir's list under @name
 * @dir: the directory
 * @ino: an entry in no list
 * @name: its name
 * @inode: as for pram_name_set()
 *
 * Return: 0, or -EUCLEAN, -ENOSPC (no slot for a long name's records)
 * or -ENOMEM with nothing changed.
 */
int pram_add_entry(struct inode *dir, u32 ino, const struct qstr *name,
		   struct inode *inode)
{
	struct pram_name_slots ns;
	struct pram_list_pos pos;
	int err = pram_dir_find_gap(dir, ino, &pos);

	if (!err)
		err = pram_name_reserve(dir->i_sb, ino, name, &ns);
	if (!err)
		pram_dir_link(dir, ino, name, &ns, &pos, inode);
	return err;
}

/**
 * pram_dir_empty() - does @dir hold no entries, bad ones included?
 * @dir: a directory
 *
 * Return: 1 if empty, 0 if not, or -ENOMEM.
 */
int pram_dir_empty(struct inode *dir)
{
	struct pram_dir_index *idx = pram_dir_index(dir);

	if (IS_ERR(idx))
		return PTR_ERR(idx);
	return !pram_index_members(idx);
}

const struct file_operations pram_dir_operations = {
	.llseek		= pram_dir_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= pram_readdir,
	.fsync		= noop_fsync,
};
