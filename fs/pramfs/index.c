// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS directory name index: an in-memory hash table from name to
 * inode number, built from the entry list on a directory's first lookup
 * and kept up to date by every change to the list while the directory's
 * inode is in memory. It makes a cold lookup cost the same whatever the
 * size of the directory; the names themselves stay in NVRAM.
 *
 * Locking: lookups read the index under the directory's i_rwsem held
 * shared; changes hold it exclusive. Building (under the shared lock, so
 * two lookups may race to do it) is serialised by i_index_lock, and the
 * index is published with a release store.
 */
#include <linux/dcache.h>
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include "pramfs.h"

#define PRAM_INDEX_MIN_BITS	4
#define PRAM_INDEX_MAX_BITS	20

struct pram_dir_ent {
	struct hlist_node	node;
	u32			hash;
	u32			ino;
};

struct pram_dir_index {
	unsigned int		bits;
	unsigned int		count;
	struct hlist_head	*buckets;
};

static u32 pram_name_hash(const char *name, unsigned int len)
{
	return full_name_hash(NULL, name, len);
}

static struct hlist_head *pram_bucket(struct pram_dir_index *idx, u32 hash)
{
	return &idx->buckets[hash_32(hash, idx->bits)];
}

static void pram_index_destroy(struct pram_dir_index *idx)
{
	struct pram_dir_ent *ent;
	struct hlist_node *tmp;
	unsigned int i;

	for (i = 0; i < 1U << idx->bits; i++)
		hlist_for_each_entry_safe(ent, tmp, &idx->buckets[i], node)
			kfree(ent);
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

static int pram_index_insert(struct pram_dir_index *idx, u32 ino,
			     const struct pram_inode *pi)
{
	struct pram_dir_ent *ent = kmalloc(sizeof(*ent), GFP_KERNEL);

	if (!ent)
		return -ENOMEM;
	ent->hash = pram_name_hash(pi->i_name, pram_name_len(pi));
	ent->ino = ino;
	hlist_add_head(&ent->node, pram_bucket(idx, ent->hash));
	if (++idx->count > 2U << idx->bits)
		pram_index_grow(idx);
	return 0;
}

static int pram_index_insert_entry(void *arg, u32 ino,
				   const struct pram_inode *pi)
{
	return pram_index_insert(arg, ino, pi);
}

static struct pram_dir_index *pram_index_build(struct inode *dir)
{
	struct pram_dir_index *idx = kzalloc(sizeof(*idx), GFP_KERNEL);
	int err;

	if (!idx)
		return ERR_PTR(-ENOMEM);
	idx->bits = PRAM_INDEX_MIN_BITS;
	idx->buckets = kvcalloc(1U << idx->bits, sizeof(*idx->buckets),
				GFP_KERNEL);
	if (!idx->buckets) {
		kfree(idx);
		return ERR_PTR(-ENOMEM);
	}
	err = pram_dir_walk(dir, pram_index_insert_entry, idx);
	if (err) {
		pram_index_destroy(idx);
		return ERR_PTR(err);
	}
	return idx;
}

/* The index of @dir, built if needed; an ERR_PTR if it cannot be. */
static struct pram_dir_index *pram_index_get(struct inode *dir)
{
	struct pram_inode_info *pii = PRAM_I(dir);
	/* Pairs with the release below: a seen index is a complete one. */
	struct pram_dir_index *idx = smp_load_acquire(&pii->i_index);

	if (idx)
		return idx;
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
	return idx;
}

/**
 * pram_index_find() - the inode number of @name in @dir, from the index
 * @dir: the directory; its i_rwsem is held, shared at least
 * @name: the name
 *
 * Return: the inode number, 0 if absent, or a negative errno: -ENOMEM
 * when no index could be built (the caller walks the list instead), or
 * -EUCLEAN for a corrupt list.
 */
long pram_index_find(struct inode *dir, const struct qstr *name)
{
	struct pram_dir_index *idx = pram_index_get(dir);
	u32 hash = pram_name_hash(name->name, name->len);
	struct pram_dir_ent *ent;
	struct pram_inode *pi;

	if (IS_ERR(idx))
		return PTR_ERR(idx);
	hlist_for_each_entry(ent, pram_bucket(idx, hash), node) {
		if (ent->hash != hash)
			continue;
		pi = pram_get_inode(dir->i_sb, ent->ino);
		if (pram_name_len(pi) == name->len &&
		    !memcmp(pi->i_name, name->name, name->len))
			return ent->ino;
	}
	return 0;
}

/* Lose the index; the next lookup builds it again from the list. */
static void pram_index_drop(struct inode *dir)
{
	struct pram_dir_index *idx = PRAM_I(dir)->i_index;

	if (!idx)
		return;
	WRITE_ONCE(PRAM_I(dir)->i_index, NULL);
	pram_index_destroy(idx);
}

/**
 * pram_index_add() - index the new entry @ino of @dir
 * @dir: the directory; its i_rwsem is held exclusive
 * @ino: the entry, its name written
 */
void pram_index_add(struct inode *dir, u32 ino)
{
	struct pram_dir_index *idx = PRAM_I(dir)->i_index;

	if (idx && pram_index_insert(idx, ino, pram_get_inode(dir->i_sb, ino)))
		pram_index_drop(dir);
}

/**
 * pram_index_del() - forget the entry @ino of @dir
 * @dir: the directory; its i_rwsem is held exclusive
 * @ino: the entry, its name still in place
 */
void pram_index_del(struct inode *dir, u32 ino)
{
	struct pram_dir_index *idx = PRAM_I(dir)->i_index;
	const struct pram_inode *pi = pram_get_inode(dir->i_sb, ino);
	struct pram_dir_ent *ent;
	u32 hash;

	if (!idx)
		return;
	hash = pram_name_hash(pi->i_name, pram_name_len(pi));
	hlist_for_each_entry(ent, pram_bucket(idx, hash), node) {
		if (ent->ino == ino) {
			hlist_del(&ent->node);
			idx->count--;
			kfree(ent);
			return;
		}
	}
	/* Not where its name says: the index cannot be trusted. */
	pram_index_drop(dir);
}

/**
 * pram_index_free() - free @dir's index when its inode goes
 * @dir: a directory being evicted
 */
void pram_index_free(struct inode *dir)
{
	pram_index_drop(dir);
}
