// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS directory index: a directory's entries in memory, built from its
 * entry list (dir.c) on first use and kept up to date by every change to
 * the list while the directory's inode is in memory. Two views of the
 * same entries: by inode number (an xarray, in list order, for readdir
 * positions and for where a new entry goes) and by name (a hash table,
 * for lookups that cost the same whatever the size of the directory).
 * The names themselves stay in NVRAM.
 *
 * An entry found bad when the index was built is kept, marked: lookups of
 * its name give EUCLEAN and readdir skips it, but it stays in the list.
 *
 * Locking: the directory's i_rwsem, held shared to read the index and
 * exclusive to change it (dir.c).
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/xarray.h>
#include "pramfs.h"

#define PRAM_INDEX_MIN_BITS	4
#define PRAM_INDEX_MAX_BITS	20

struct pram_dir_index {
	unsigned int		bits;
	unsigned int		named;		/* entries in the hash table */
	unsigned int		members;	/* entries in the xarray */
	u32			last;		/* no entry has a larger number */
	struct hlist_head	*buckets;
	struct xarray		entries;	/* inode number -> entry */
};

static u32 pram_name_hash(const char *name, unsigned int len)
{
	return full_name_hash(NULL, name, len);
}

static struct hlist_head *pram_bucket(struct pram_dir_index *idx, u32 hash)
{
	return &idx->buckets[hash_32(hash, idx->bits)];
}

/* Is entry @ino's name @name? A short name is compared in place. */
static bool pram_name_is(struct super_block *sb, u32 ino, const char *name,
			 unsigned int len)
{
	const struct pram_inode *pi = pram_get_inode(sb, ino);
	char buf[PRAM_NAME_MAX + 1];
	u32 have;

	if (!pram_is_long_name(pi))
		return pram_name_len(pi) == len && !memcmp(pi->i_name, name, len);
	if (len <= PRAM_NAME_LEN || memcmp(pi->i_long.l_head, name, PRAM_NAME_HEAD))
		return false;
	return !pram_entry_name_get(sb, ino, buf, &have) && have == len &&
	       !memcmp(buf, name, len);
}

/**
 * pram_index_new() - an empty index
 *
 * Return: the index, or NULL without memory.
 */
struct pram_dir_index *pram_index_new(void)
{
	struct pram_dir_index *idx = kzalloc(sizeof(*idx), GFP_KERNEL);

	if (!idx)
		return NULL;
	idx->bits = PRAM_INDEX_MIN_BITS;
	idx->buckets = kvcalloc(1U << idx->bits, sizeof(*idx->buckets),
				GFP_KERNEL);
	if (!idx->buckets) {
		kfree(idx);
		return NULL;
	}
	xa_init(&idx->entries);
	return idx;
}

/**
 * pram_index_destroy() - free an index
 * @idx: the index, or NULL
 */
void pram_index_destroy(struct pram_dir_index *idx)
{
	struct pram_dir_ent *ent;
	unsigned long ino;

	if (!idx)
		return;
	xa_for_each(&idx->entries, ino, ent)
		kfree(ent);
	xa_destroy(&idx->entries);
	kvfree(idx->buckets);
	kfree(idx);
}

/* Twice as many buckets as entries at most; a failed resize is harmless. */
static void pram_index_grow(struct pram_dir_index *idx)
{
	unsigned int bits = idx->bits + 2, i;
	struct hlist_head *buckets, *old = idx->buckets;
	struct pram_dir_ent *ent;
	struct hlist_node *tmp;

	if (bits > PRAM_INDEX_MAX_BITS)
		return;
	buckets = kvcalloc(1U << bits, sizeof(*buckets), GFP_KERNEL);
	if (!buckets)
		return;
	for (i = 0; i < 1U << idx->bits; i++)
		hlist_for_each_entry_safe(ent, tmp, &old[i], node)
			hlist_add_head(&ent->node, &buckets[hash_32(ent->hash, bits)]);
	idx->buckets = buckets;
	idx->bits = bits;
	kvfree(old);
}

/* The hashed entry named @name, or NULL. */
static struct pram_dir_ent *pram_index_named(struct super_block *sb,
					     struct pram_dir_index *idx,
					     const char *name, unsigned int len)
{
	u32 hash = pram_name_hash(name, len);
	struct pram_dir_ent *ent;

	hlist_for_each_entry(ent, pram_bucket(idx, hash), node)
		if (ent->hash == hash && pram_name_is(sb, ent->ino, name, len))
			return ent;
	return NULL;
}

static void pram_index_hash(struct pram_dir_index *idx,
			    struct pram_dir_ent *ent, const char *name, u32 len)
{
	ent->hash = pram_name_hash(name, len);
	hlist_add_head(&ent->node, pram_bucket(idx, ent->hash));
	if (++idx->named > 2U << idx->bits)
		pram_index_grow(idx);
}

static void pram_index_unhash(struct pram_dir_index *idx,
			      struct pram_dir_ent *ent)
{
	if (hlist_unhashed(&ent->node))
		return;
	hlist_del_init(&ent->node);
	idx->named--;
}

/*
 * Two entries with one name: the lower inode number keeps it, the other
 * is marked bad and leaves the hash table. Return: the one marked.
 */
static u32 pram_index_dup(struct pram_dir_index *idx, struct pram_dir_ent *old,
			  struct pram_dir_ent *ent, const char *name, u32 len)
{
	if (old->ino < ent->ino) {
		ent->bad = true;
		return ent->ino;
	}
	old->bad = true;
	pram_index_unhash(idx, old);
	pram_index_hash(idx, ent, name, len);
	return old->ino;
}

/**
 * pram_index_insert() - add the entry @ino of the list to the index
 * @sb: the superblock
 * @idx: the index
 * @ino: the entry's inode number
 * @bad: refused by its checks; with @name, its name can still be looked
 *	 up (to give EUCLEAN)
 * @name: its name, or NULL when that is not valid
 * @len: the name's length
 * @dup: set to the entry marked bad because another has its name, or 0
 *
 * Return: 0, or -ENOMEM (the index must then be dropped).
 */
int pram_index_insert(struct super_block *sb, struct pram_dir_index *idx,
		      u32 ino, bool bad, const char *name, u32 len, u32 *dup)
{
	struct pram_dir_ent *ent = kmalloc(sizeof(*ent), GFP_KERNEL), *old;
	int err;

	*dup = 0;
	if (!ent)
		return -ENOMEM;
	ent->ino = ino;
	ent->bad = bad;
	INIT_HLIST_NODE(&ent->node);
	err = xa_insert(&idx->entries, ino, ent, GFP_KERNEL);
	if (err) {
		kfree(ent);
		return err == -EBUSY ? -EUCLEAN : err;
	}
	idx->members++;
	idx->last = max(idx->last, ino);
	if (!name)
		return 0;
	old = pram_index_named(sb, idx, name, len);
	if (old)
		*dup = pram_index_dup(idx, old, ent, name, len);
	else
		pram_index_hash(idx, ent, name, len);
	return 0;
}

/**
 * pram_index_find() - the entry named @name
 * @sb: the superblock
 * @idx: the index
 * @name: the name
 *
 * Return: its inode number, 0 if there is none, or -EUCLEAN for an entry
 * that was refused.
 */
long pram_index_find(struct super_block *sb, struct pram_dir_index *idx,
		     const struct qstr *name)
{
	struct pram_dir_ent *ent = pram_index_named(sb, idx, name->name,
						    name->len);

	if (!ent)
		return 0;
	/* Not one expression: -EUCLEAN would be made a u32 like ent->ino. */
	if (READ_ONCE(ent->bad))
		return -EUCLEAN;
	return ent->ino;
}

/**
 * pram_index_refuse() - the entry @ino turned out bad when it was read
 * @idx: the index
 * @ino: an entry of the index
 *
 * From now on lookups of its name give EUCLEAN at once (it was reported
 * once) and readdir skips it. Under the directory's i_rwsem held shared:
 * readers may see the flag change.
 */
void pram_index_refuse(struct pram_dir_index *idx, u32 ino)
{
	struct pram_dir_ent *ent = xa_load(&idx->entries, ino);

	if (ent)
		WRITE_ONCE(ent->bad, true);
}

/**
 * pram_index_bad() - is @ino an entry of @idx that was refused?
 * @idx: the index, or NULL
 * @ino: an inode number, or 0 (the directory itself: never an entry)
 */
bool pram_index_bad(struct pram_dir_index *idx, u32 ino)
{
	struct pram_dir_ent *ent = idx && ino ? xa_load(&idx->entries, ino) :
						NULL;

	return ent && READ_ONCE(ent->bad);
}

/**
 * pram_index_del() - forget the entry @ino
 * @idx: the index
 * @ino: an entry of the index, its name still in place
 */
void pram_index_del(struct pram_dir_index *idx, u32 ino)
{
	struct pram_dir_ent *ent = xa_erase(&idx->entries, ino);

	if (!ent)
		return;
	pram_index_unhash(idx, ent);
	if (!--idx->members)
		idx->last = 0;
	kfree(ent);
}

/**
 * pram_index_rename() - the entry @ino has a new name
 * @idx: the index
 * @ino: an entry of the index, its new name written
 * @name: the new name
 * @len: its length
 *
 * Call pram_index_unname() before the name changes.
 */
void pram_index_rename(struct pram_dir_index *idx, u32 ino, const char *name,
		       u32 len)
{
	struct pram_dir_ent *ent = xa_load(&idx->entries, ino);

	if (ent && !ent->bad)
		pram_index_hash(idx, ent, name, len);
}

/**
 * pram_index_unname() - take the entry @ino out of the hash table
 * @idx: the index
 * @ino: an entry of the index, its name still in place
 */
void pram_index_unname(struct pram_dir_index *idx, u32 ino)
{
	struct pram_dir_ent *ent = xa_load(&idx->entries, ino);

	if (ent)
		pram_index_unhash(idx, ent);
}

/**
 * pram_index_next() - the first entry at or after @ino, in list order
 * @idx: the index
 * @ino: where to start; set to the entry's inode number
 *
 * The search ends at the bound on the entries' numbers: a new inode,
 * numbered past all the others (the usual case), finds its place at the
 * list's end at once, not after a walk over the xarray's empty slots.
 *
 * Return: the entry, or NULL past the last.
 */
struct pram_dir_ent *pram_index_next(struct pram_dir_index *idx,
				     unsigned long *ino)
{
	if (*ino > idx->last)
		return NULL;
	return xa_find(&idx->entries, ino, idx->last, XA_PRESENT);
}

/**
 * pram_index_has() - is @ino an entry of the index?
 * @idx: the index
 * @ino: an inode number
 */
bool pram_index_has(struct pram_dir_index *idx, u32 ino)
{
	return xa_load(&idx->entries, ino);
}

/**
 * pram_index_members() - how many entries the index holds, bad ones too
 * @idx: the index
 */
unsigned int pram_index_members(struct pram_dir_index *idx)
{
	return idx->members;
}
