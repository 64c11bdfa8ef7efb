// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS extended attribute blocks (PRAM_FEATURE_INCOMPAT_XATTR): the
 * check of a block read from NVRAM, the walk and search of its entries,
 * and the making of a changed copy, which the caller then switches in.
 *
 * Pure code: the kernel, its KUnit suites and the offline tools read and
 * write attribute blocks through these helpers alone.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "format.h"

#define PRAM_XATTR_CSUM_START	offsetof(struct pram_xattr_header, x_owner)

/* Bytes an entry of a @name_len-byte name and a @value_len-byte value takes. */
static u32 pram_xattr_entry_size(u32 name_len, u32 value_len)
{
	return round_up(sizeof(struct pram_xattr_entry) + name_len + value_len,
			PRAM_XATTR_ALIGN);
}

static u32 pram_xattr_size_of(const struct pram_xattr_entry *e)
{
	return pram_xattr_entry_size(e->e_name_len,
				     le16_to_cpu(e->e_value_len));
}

/**
 * pram_xblock_csum() - crc32c of an attribute block's bytes in use
 * @blk: the block; its x_used is trusted to be at most the block size
 */
u32 pram_xblock_csum(const void *blk)
{
	const struct pram_xattr_header *h = blk;

	return __crc32c_le(~0, (const u8 *)blk + PRAM_XATTR_CSUM_START,
			   le16_to_cpu(h->x_used) - PRAM_XATTR_CSUM_START);
}
EXPORT_SYMBOL_IF_KUNIT(pram_xblock_csum);

/* The order of entries in a block: index, name length, name. */
static int pram_xattr_cmp(u8 index, const char *name, u32 len,
			  const struct pram_xattr_entry *e)
{
	if (index != e->e_index)
		return index < e->e_index ? -1 : 1;
	if (len != e->e_name_len)
		return len < e->e_name_len ? -1 : 1;
	return memcmp(name, e->e_name, len);
}

/* Is @index a namespace this format knows, and @len a name it allows? */
static bool pram_xattr_name_ok(u8 index, u32 len)
{
	switch (index) {
	case PRAM_XATTR_INDEX_ACL_ACCESS:
	case PRAM_XATTR_INDEX_ACL_DEFAULT:
		return !len;
	case PRAM_XATTR_INDEX_USER:
	case PRAM_XATTR_INDEX_TRUSTED:
	case PRAM_XATTR_INDEX_SECURITY:
		return len >= 1 && len <= PRAM_XATTR_NAME_MAX;
	}
	return false;
}

/* Each entry inside x_used, known, in order, its padding zero. */
static int pram_xblock_check_entries(const u8 *blk, u32 used, u32 count,
				     const char **why)
{
	const struct pram_xattr_entry *e, *prev = NULL;
	u32 off = sizeof(struct pram_xattr_header), i, size, end;

	for (i = 0; i < count; i++) {
		if (used - off < sizeof(*e))
			return pram_fail(why, "entry past the bytes in use");
		e = (const void *)(blk + off);
		size = pram_xattr_size_of(e);
		if (used - off < size)
			return pram_fail(why, "entry past the bytes in use");
		if (!pram_xattr_name_ok(e->e_index, e->e_name_len))
			return pram_fail(why, "unknown namespace or bad name length");
		if (prev && pram_xattr_cmp(e->e_index, e->e_name, e->e_name_len,
					   prev) <= 0)
			return pram_fail(why, "entries out of order or repeated");
		end = sizeof(*e) + e->e_name_len + le16_to_cpu(e->e_value_len);
		if (memchr_inv(blk + off + end, 0, size - end))
			return pram_fail(why, "entry padding not zero");
		prev = e;
		off += size;
	}
	if (off != used)
		return pram_fail(why, "bytes in use past the last entry");
	return 0;
}

/**
 * pram_xblock_check() - validate an attribute block read from NVRAM
 * @blk: the block
 * @size: the block size
 * @owner: the inode whose i_xattr names it
 * @why: on error, the reason, for the log
 *
 * Return: 0 or -EINVAL.
 */
int pram_xblock_check(const void *blk, u32 size, u32 owner, const char **why)
{
	const struct pram_xattr_header *h = blk;
	u32 used = le16_to_cpu(h->x_used);

	if (le32_to_cpu(h->x_magic) != PRAM_XATTR_MAGIC)
		return pram_fail(why, "not an attribute block");
	if (le32_to_cpu(h->x_owner) != owner)
		return pram_fail(why, "attribute block of another inode");
	if (used < sizeof(*h) || used > size || used % PRAM_XATTR_ALIGN)
		return pram_fail(why, "attribute block size out of range");
	if (le32_to_cpu(h->x_csum) != pram_xblock_csum(blk))
		return pram_fail(why, "attribute block checksum");
	if (!h->x_count)
		return pram_fail(why, "empty attribute block");
	if (memchr_inv((const u8 *)blk + used, 0, size - used))
		return pram_fail(why, "attribute block tail not zero");
	return pram_xblock_check_entries(blk, used, le16_to_cpu(h->x_count),
					 why);
}
EXPORT_SYMBOL_IF_KUNIT(pram_xblock_check);

/**
 * pram_xblock_next() - the entry after @e of a checked block
 * @blk: the block, checked (pram_xblock_check())
 * @e: an entry of it, or NULL for the first
 *
 * Return: the entry, or NULL after the last.
 */
const struct pram_xattr_entry *pram_xblock_next(const void *blk,
						const struct pram_xattr_entry *e)
{
	const struct pram_xattr_header *h = blk;
	const u8 *next = e ? (const u8 *)e + pram_xattr_size_of(e) :
			     (const u8 *)blk + sizeof(*h);

	return next < (const u8 *)blk + le16_to_cpu(h->x_used) ?
	       (const void *)next : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(pram_xblock_next);

/**
 * pram_xblock_find() - the entry @index, @name of a checked block
 * @blk: the block, checked, or NULL for an inode with none
 * @index: PRAM_XATTR_INDEX_*
 * @name: the name without its namespace's prefix
 * @len: its length
 *
 * Return: the entry, or NULL.
 */
const struct pram_xattr_entry *pram_xblock_find(const void *blk, u8 index,
						const char *name, u32 len)
{
	const struct pram_xattr_entry *e = NULL;

	if (!blk)
		return NULL;
	while ((e = pram_xblock_next(blk, e)))
		if (!pram_xattr_cmp(index, name, len, e))
			return e;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(pram_xblock_find);

/* Append an entry at @off of @dst; the new offset. */
static u32 pram_xattr_put(u8 *dst, u32 off, u8 index, const char *name,
			  u32 len, const void *value, u32 value_len)
{
	struct pram_xattr_entry *e = (void *)(dst + off);

	e->e_index = index;
	e->e_name_len = len;
	e->e_value_len = cpu_to_le16(value_len);
	memcpy(e->e_name, name, len);
	memcpy(e->e_name + len, value, value_len);
	return off + pram_xattr_entry_size(len, value_len);
}

/**
 * pram_xblock_edit() - make @dst a copy of @src with one attribute changed
 * @dst: a zeroed block of @size bytes
 * @src: the inode's checked block, or NULL for none
 * @size: the block size
 * @owner: the inode
 * @index: PRAM_XATTR_INDEX_*
 * @name: the name without its namespace's prefix
 * @len: its length
 * @value: the new value, or NULL to remove the attribute
 * @value_len: its length
 *
 * The attribute is set (added or replaced) or removed; whether it had to
 * exist is the caller's (XATTR_CREATE, XATTR_REPLACE).
 *
 * Return: the entries @dst holds (0: the inode needs no block), or
 * -ERANGE for a name the format cannot hold, -ENOSPC when the value or
 * the set does not fit in a block.
 */
int pram_xblock_edit(void *dst, const void *src, u32 size, u32 owner,
		     u8 index, const char *name, u32 len, const void *value,
		     u32 value_len)
{
	struct pram_xattr_header *h = dst;
	const struct pram_xattr_entry *e = NULL;
	u32 off = sizeof(*h), count = 0, need;
	bool placed = !value;
	int cmp;

	if (!pram_xattr_name_ok(index, len))
		return -ERANGE;
	if (value_len > U16_MAX)
		return -ENOSPC;
	need = value ? pram_xattr_entry_size(len, value_len) : 0;
	while (src && (e = pram_xblock_next(src, e))) {
		cmp = pram_xattr_cmp(index, name, len, e);
		if (cmp < 0 && !placed) {
			if (off + need > size)
				return -ENOSPC;
			off = pram_xattr_put(dst, off, index, name, len, value,
					     value_len);
			placed = true;
			count++;
		}
		if (!cmp)
			continue;
		if (off + pram_xattr_size_of(e) > size)
			return -ENOSPC;
		memcpy((u8 *)dst + off, e, pram_xattr_size_of(e));
		off += pram_xattr_size_of(e);
		count++;
	}
	if (!placed) {
		if (off + need > size)
			return -ENOSPC;
		off = pram_xattr_put(dst, off, index, name, len, value,
				     value_len);
		count++;
	}
	h->x_magic = cpu_to_le32(PRAM_XATTR_MAGIC);
	h->x_owner = cpu_to_le32(owner);
	h->x_count = cpu_to_le16(count);
	h->x_used = cpu_to_le16(off);
	h->x_csum = cpu_to_le32(pram_xblock_csum(dst));
	return count;
}
EXPORT_SYMBOL_IF_KUNIT(pram_xblock_edit);
