// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS entries' names and link entries: a short name lives in the
 * entry's i_name; a long one (PRAM_FEATURE_INCOMPAT_LONGNAMES) has its
 * first PRAM_NAME_HEAD bytes there and the rest in one or two name
 * records, slots of the inode table that point back at their entry. A
 * link entry (PRAM_FEATURE_INCOMPAT_LINKS) is an entry that names
 * another inode.
 *
 * Pure code: the kernel, its KUnit suites and the offline tools read
 * and write names through these helpers alone.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "format.h"

#define PRAM_CSUM_SKIP		sizeof(__le32)	/* the checksum field */

_Static_assert(offsetof(struct pram_inode, i_csum) == 0 &&
	       offsetof(struct pram_name_rec, n_csum) == 0,
	       "pram_slot_seal() seeds a slot in its checksum field");

/**
 * pram_slot_csum() - crc32c of a slot of the inode table, seeded with
 * its number
 * @slot: an inode, link entry or name record (PRAM_INODE_SIZE bytes)
 * @ino: the slot's number, so that a record copied to another slot fails
 */
u32 pram_slot_csum(const void *slot, u32 ino)
{
	__le32 seed = cpu_to_le32(ino);
	u32 crc = __crc32c_le(~0, (const u8 *)&seed, sizeof(seed));

	return __crc32c_le(crc, (const u8 *)slot + PRAM_CSUM_SKIP,
			   PRAM_INODE_SIZE - PRAM_CSUM_SKIP);
}
EXPORT_SYMBOL_IF_KUNIT(pram_slot_csum);

/**
 * pram_slot_seal() - set a slot's checksum to pram_slot_csum()'s value
 * @slot: the slot, writable: its checksum field is overwritten
 * @ino: the slot's number
 *
 * The seed goes into the checksum field, the slot's first 4 bytes, so
 * one crc32c over the whole slot is the crc32c of the seed followed by
 * bytes 4 to 127: the same value at one call instead of two.
 */
void pram_slot_seal(void *slot, u32 ino)
{
	__le32 *csum = slot;

	*csum = cpu_to_le32(ino);
	*csum = cpu_to_le32(__crc32c_le(~0, slot, PRAM_INODE_SIZE));
}
EXPORT_SYMBOL_IF_KUNIT(pram_slot_seal);

/**
 * pram_name_recs() - how many name records a name of @len bytes needs
 * @len: 1 to PRAM_NAME_MAX
 */
unsigned int pram_name_recs(u32 len)
{
	if (len <= PRAM_NAME_LEN)
		return 0;
	return DIV_ROUND_UP(len - PRAM_NAME_HEAD, PRAM_NAME_PART);
}
EXPORT_SYMBOL_IF_KUNIT(pram_name_recs);

/**
 * pram_name_rec_check() - is a name record valid, as far as it alone says?
 * @nr: the record
 * @rec: its slot's number
 * @g: the filesystem's geometry
 * @why: if not, the reason
 *
 * Its mode, checksum, length, padding, and that its owner is a slot of
 * the table; that the owner's name holds it is pram_entry_name()'s.
 *
 * Return: 0 or -EINVAL.
 */
int pram_name_rec_check(const struct pram_name_rec *nr, u32 rec,
			const struct pram_geometry *g, const char **why)
{
	u32 len = le16_to_cpu(nr->n_len), owner = le32_to_cpu(nr->n_owner);

	if (le16_to_cpu(nr->n_mode) != PRAM_S_IFNAME)
		return pram_fail(why, "not a name record");
	if (le32_to_cpu(nr->n_csum) != pram_slot_csum(nr, rec))
		return pram_fail(why, "bad checksum");
	if (!pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_LONGNAMES))
		return pram_fail(why, "name record without the feature");
	if (!len || len > PRAM_NAME_PART ||
	    strnlen(nr->n_part, PRAM_NAME_PART) != len)
		return pram_fail(why, "name record length does not match its bytes");
	if (memchr_inv(nr->n_part + len, 0, PRAM_NAME_PART - len))
		return pram_fail(why, "name contains NUL");
	if (!pram_ino_valid(g, owner) || owner == rec)
		return pram_fail(why, "name record owner out of range");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_name_rec_check);

/*
 * Append name record @rec of entry @ino's long name to @buf at *@len;
 * @last: it is the name's last record. @rec is checked here, as read
 * once by the caller: the entry's record may be the live one. With
 * @verify, the record's own checks and its owner; without, only what
 * keeps the copy inside @buf.
 */
static int pram_name_append(const struct pram_geometry *g, const void *base,
			    u32 ino, u32 rec, bool last, bool verify, char *buf,
			    u32 *len, const char **why)
{
	const struct pram_name_rec *nr;
	u32 part;

	if (!pram_ino_valid(g, rec) || rec == ino)
		return pram_fail(why, "name records out of range");
	nr = base + pram_ino_offset(rec);
	if (verify && pram_name_rec_check(nr, rec, g, why))
		return -EINVAL;
	if (verify && le32_to_cpu(nr->n_owner) != ino)
		return pram_fail(why, "name record belongs to another entry");
	part = min_t(u32, le16_to_cpu(READ_ONCE(nr->n_len)), PRAM_NAME_PART);
	/* Only the last record may be short: one name, one spelling. */
	if (!last && part != PRAM_NAME_PART)
		return pram_fail(why, "name record short before the last");
	if (*len + part > PRAM_NAME_MAX)
		return pram_fail(why, "name too long");
	memcpy(buf + *len, nr->n_part, part);
	*len += part;
	return 0;
}

/*
 * A long name, read from @ino's record and its name records: canonical
 * (no fewer records would hold it), with neither '/' nor NUL.
 */
static int pram_long_name(const struct pram_geometry *g, const void *base,
			  u32 ino, const struct pram_inode *pi, bool verify,
			  char *buf, u32 *len, const char **why)
{
	u32 recs[PRAM_NAME_RECS];
	unsigned int i, n = 0;

	for (i = 0; i < PRAM_NAME_RECS; i++) {
		recs[i] = le32_to_cpu(READ_ONCE(pi->i_long.l_rec[i]));
		n += recs[i] && n == i;
	}
	memcpy(buf, pi->i_long.l_head, PRAM_NAME_HEAD);
	*len = PRAM_NAME_HEAD;
	for (i = 0; i < n; i++)
		if (pram_name_append(g, base, ino, recs[i], i + 1 == n, verify,
				     buf, len, why))
			return -EINVAL;
	if (!verify)
		return 0;
	if (pram_name_recs(*len) != n)
		return pram_fail(why, "long name not stored as one");
	if (memchr(buf + PRAM_NAME_HEAD, '/', *len - PRAM_NAME_HEAD))
		return pram_fail(why, "name contains '/'");
	return 0;
}

static int pram_read_name(const struct pram_geometry *g, const void *base,
			  u32 ino, const struct pram_inode *pi, bool verify,
			  char *buf, u32 *len, const char **why)
{
	int err = verify ? pram_name_check(pi, g, ino, why) : 0;

	*len = 0;
	if (!err && pram_is_long_name(pi))
		err = pram_long_name(g, base, ino, pi, verify, buf, len, why);
	else if (!err)
		memcpy(buf, pi->i_name, *len = pram_name_len(pi));
	if (err)
		*len = 0;
	buf[*len] = 0;
	return err;
}

/**
 * pram_entry_name() - an entry's whole name, checked
 * @g: the filesystem's geometry
 * @base: the filesystem image
 * @ino: the entry's number
 * @pi: its record (at @base, or a copy)
 * @buf: PRAM_NAME_MAX + 1 bytes: the name, NUL-terminated
 * @len: its length
 * @why: if it is not valid, the reason
 *
 * Return: 0, or -EINVAL for a name that pram_name_check() refuses or
 * whose name records are bad, another entry's, or not canonical.
 */
int pram_entry_name(const struct pram_geometry *g, const void *base, u32 ino,
		    const struct pram_inode *pi, char *buf, u32 *len,
		    const char **why)
{
	return pram_read_name(g, base, ino, pi, true, buf, len, why);
}
EXPORT_SYMBOL_IF_KUNIT(pram_entry_name);

/**
 * pram_entry_name_copy() - an entry's name that was checked before
 * @g: the filesystem's geometry
 * @base: the filesystem image
 * @ino: the entry's number
 * @pi: its record
 * @buf: PRAM_NAME_MAX + 1 bytes: the name, NUL-terminated
 * @len: its length
 *
 * For a name pram_entry_name() passed and nothing has changed since
 * (the kernel's directory index holds such names): the checksums and
 * owners are not read again, only what keeps the copy inside @buf.
 *
 * Return: 0, or -EINVAL when the records cannot be where the name says.
 */
int pram_entry_name_copy(const struct pram_geometry *g, const void *base,
			 u32 ino, const struct pram_inode *pi, char *buf,
			 u32 *len)
{
	const char *why;

	return pram_read_name(g, base, ino, pi, false, buf, len, &why);
}
EXPORT_SYMBOL_IF_KUNIT(pram_entry_name_copy);

/**
 * pram_name_store() - write a name into an entry's record
 * @pi: the record, whose checksum the caller sets
 * @name: the name, 1 to PRAM_NAME_MAX bytes, checked by the caller
 * @len: its length
 * @recs: its name records (pram_name_recs(@len) of them), filled with
 *	  pram_name_rec_fill()
 */
void pram_name_store(struct pram_inode *pi, const char *name, u32 len,
		     const u32 *recs)
{
	unsigned int i, n = pram_name_recs(len);

	memset(pi->i_name, 0, PRAM_NAME_LEN);
	if (!n) {
		pi->i_flags &= ~cpu_to_le32(PRAM_INODE_LONGNAME);
		memcpy(pi->i_name, name, len);
		return;
	}
	pi->i_flags |= cpu_to_le32(PRAM_INODE_LONGNAME);
	memcpy(pi->i_long.l_head, name, PRAM_NAME_HEAD);
	for (i = 0; i < n; i++)
		pi->i_long.l_rec[i] = cpu_to_le32(recs[i]);
}
EXPORT_SYMBOL_IF_KUNIT(pram_name_store);

/**
 * pram_name_clear() - take an entry's name away: it is in no list for good
 * @pi: the record, whose checksum the caller sets; the records of a long
 *	name it had are the caller's to free
 */
void pram_name_clear(struct pram_inode *pi)
{
	pi->i_flags &= ~cpu_to_le32(PRAM_INODE_LONGNAME);
	memset(pi->i_name, 0, PRAM_NAME_LEN);
}
EXPORT_SYMBOL_IF_KUNIT(pram_name_clear);

/**
 * pram_name_rec_fill() - make name record @i of a long name
 * @nr: the record, checksummed here
 * @rec: its slot's number
 * @owner: the entry whose name it is
 * @name: the whole name
 * @len: its length, more than PRAM_NAME_LEN
 * @i: which of the name's records
 */
void pram_name_rec_fill(struct pram_name_rec *nr, u32 rec, u32 owner,
			const char *name, u32 len, unsigned int i)
{
	u32 from = PRAM_NAME_HEAD + i * PRAM_NAME_PART;
	u32 part = min_t(u32, len - from, PRAM_NAME_PART);

	memset(nr, 0, sizeof(*nr));
	nr->n_mode = cpu_to_le16(PRAM_S_IFNAME);
	nr->n_len = cpu_to_le16(part);
	nr->n_owner = cpu_to_le32(owner);
	memcpy(nr->n_part, name + from, part);
	pram_slot_seal(nr, rec);
}
EXPORT_SYMBOL_IF_KUNIT(pram_name_rec_fill);
