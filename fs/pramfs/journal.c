// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS undo journal: pure code over its lines, in memory or in the
 * mapping. pramfs_fs.h describes the format; tx.c writes transactions
 * and runs recovery in the kernel, fsck.pramfs runs the same recovery
 * on an image. Nothing here stores to the NVRAM but
 * pram_journal_format(), whose caller has opened the window.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "format.h"

#define PRAM_JOURNAL_CSUM_SKIP	sizeof(__le32)

static u32 pram_journal_entry_csum(const struct pram_journal_entry *e)
{
	return __crc32c_le(~0, (const u8 *)e + PRAM_JOURNAL_CSUM_SKIP,
			   PRAM_JOURNAL_LINE - PRAM_JOURNAL_CSUM_SKIP);
}

/**
 * pram_journal_format() - an empty journal
 * @area: the journal's first byte, PRAM_JOURNAL_SIZE bytes
 */
void pram_journal_format(void *area)
{
	struct pram_journal_head *h = area;

	memset(area, 0, PRAM_JOURNAL_SIZE);
	h->j_magic = cpu_to_le32(PRAM_JOURNAL_MAGIC);
	h->j_gen = cpu_to_le32(1);
	h->j_lines = cpu_to_le32(PRAM_JOURNAL_LINES);
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_format);

/**
 * pram_journal_clear_lines() - empty every line, the head kept
 * @area: the journal's first byte
 *
 * For when j_gen has come round to 0 (pram_journal_wrapped()): a line
 * last written 2^32 transactions ago may carry any generation of the new
 * round, and would pass as an entry of the open transaction once it had
 * written the lines before it. Cleared, no line does. The caller makes
 * the lines durable.
 */
void pram_journal_clear_lines(void *area)
{
	memset((u8 *)area + PRAM_JOURNAL_LINE, 0,
	       PRAM_JOURNAL_SIZE - PRAM_JOURNAL_LINE);
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_clear_lines);

/**
 * pram_journal_move_on() - end the open transaction of an image, as undone
 * @area: the journal, its head valid
 *
 * j_gen moves on, and once it comes round to 0 every line is cleared
 * too, after it. For fsck.pramfs, on an image or the NVRAM, whose
 * stores are not cut. The kernel makes j_gen durable before it clears
 * the lines (tx.c), or a power cut could leave them cleared from line 1
 * on and j_gen as it was, with the lines of the transaction undone
 * still valid after.
 */
void pram_journal_move_on(void *area)
{
	struct pram_journal_head *h = area;

	h->j_gen = cpu_to_le32(le32_to_cpu(h->j_gen) + 1);
	if (pram_journal_wrapped(h))
		pram_journal_clear_lines(area);
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_move_on);

/**
 * pram_journal_check_head() - validate the journal's head
 * @h: the head
 * @why: on error, the reason
 *
 * Return: 0, or -EUCLEAN.
 */
int pram_journal_check_head(const struct pram_journal_head *h,
			    const char **why)
{
	if (le32_to_cpu(h->j_magic) != PRAM_JOURNAL_MAGIC) {
		*why = "bad journal magic";
		return -EUCLEAN;
	}
	if (le32_to_cpu(h->j_lines) != PRAM_JOURNAL_LINES ||
	    memchr_inv(h->j_reserved, 0, sizeof(h->j_reserved))) {
		*why = "bad journal head";
		return -EUCLEAN;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_check_head);

/* pram_journal_fill()'s work, inline in pram_journal_fill_lines() too. */
static inline void pram_journal_fill_one(struct pram_journal_entry *e,
					 u32 gen, u32 line, u64 offset,
					 const void *old, u32 len)
{
	memset(e, 0, sizeof(*e));
	e->e_gen = cpu_to_le32(gen);
	e->e_offset = cpu_to_le64(offset);
	e->e_len = cpu_to_le16(len);
	e->e_line = cpu_to_le16(line);
	/* A whole line's bytes, the usual case, are copied inline. */
	if (len == PRAM_JOURNAL_DATA)
		memcpy(e->e_old, old, PRAM_JOURNAL_DATA);
	else
		memcpy(e->e_old, old, len);
	e->e_csum = cpu_to_le32(pram_journal_entry_csum(e));
}

/**
 * pram_journal_fill() - fill in an entry for @len old bytes at @offset
 * @e: the entry, a whole line
 * @gen: the open transaction's generation
 * @line: the entry's line number
 * @offset: where the bytes are, from the start of the filesystem
 * @old: their contents now, before the change
 * @len: 1 to PRAM_JOURNAL_DATA
 */
void pram_journal_fill(struct pram_journal_entry *e, u32 gen, u32 line,
		       u64 offset, const void *old, u32 len)
{
	pram_journal_fill_one(e, gen, line, offset, old, len);
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_fill);

/**
 * pram_journal_fill_lines() - the entries for @len old bytes at @offset
 * @e: the first entry, followed by the others
 * @gen: the open transaction's generation
 * @line: the first entry's line number
 * @offset: where the bytes are, from the start of the filesystem
 * @old: their contents now, before the change
 * @len: how many, PRAM_JOURNAL_DATA a line
 *
 * One call for a range (a record is two or three lines), each line an
 * entry of its own, checksummed, as pram_journal_fill() makes it.
 *
 * Return: the lines filled, DIV_ROUND_UP(@len, PRAM_JOURNAL_DATA).
 */
u32 pram_journal_fill_lines(struct pram_journal_entry *e, u32 gen, u32 line,
			    u64 offset, const void *old, u32 len)
{
	u32 i, n = DIV_ROUND_UP(len, PRAM_JOURNAL_DATA), at;

	for (i = 0; i < n; i++) {
		at = i * PRAM_JOURNAL_DATA;
		pram_journal_fill_one(&e[i], gen, line + i, offset + at,
				      (const u8 *)old + at,
				      min_t(u32, len - at, PRAM_JOURNAL_DATA));
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_fill_lines);

/**
 * pram_journal_fill_slot() - fill in a slot entry (INCOMPAT_SLOT)
 * @e: the entry, a whole line
 * @gen: the open transaction's generation
 * @line: the entry's line number
 * @offset: where the bytes are: in one slot of the inode table, past its
 *	    checksum
 * @old: their contents now, before the change
 * @len: 1 to PRAM_JOURNAL_SLOT_DATA (more would not fit)
 * @csum: the slot's checksum now, as stored
 */
void pram_journal_fill_slot(struct pram_journal_entry *e, u32 gen, u32 line,
			    u64 offset, const void *old, u32 len, __le32 csum)
{
	memset(e, 0, sizeof(*e));
	e->e_gen = cpu_to_le32(gen);
	e->e_offset = cpu_to_le64(offset);
	e->e_len = cpu_to_le16(len | PRAM_JOURNAL_SLOT);
	e->e_line = cpu_to_le16(line);
	memcpy(e->e_old, old, len);
	memcpy(e->e_old + len, &csum, sizeof(csum));
	e->e_csum = cpu_to_le32(pram_journal_entry_csum(e));
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_fill_slot);

/*
 * The ranges an entry may restore: the superblocks, the inode table and
 * the bitmap, or the data area (block maps, symlink targets), never the
 * journal itself, and never past the end.
 */
static bool pram_journal_range_ok(const struct pram_geometry *g, u64 off,
				  u32 len)
{
	u64 jstart = pram_journal_offset(g);
	u64 data = (u64)g->data_start << g->blocksize_bits;

	if (off + len < off || off + len > g->size)
		return false;
	return off + len <= jstart || off >= data;
}

/*
 * A slot entry's range: in one slot of the inode table, past its
 * checksum, and only on a filesystem with INCOMPAT_SLOT.
 */
static bool pram_journal_slot_ok(const struct pram_geometry *g, u64 off,
				 u32 len)
{
	u64 end = PRAM_ITABLE_OFFSET + ((u64)g->inodes_count << PRAM_INODE_BITS);
	u32 at = off & (PRAM_INODE_SIZE - 1);

	return pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_SLOT) &&
	       len && len <= PRAM_JOURNAL_SLOT_DATA &&
	       off >= PRAM_ITABLE_OFFSET && off < end &&
	       at >= sizeof(__le32) && at + len <= PRAM_INODE_SIZE;
}

/**
 * pram_journal_entry_valid() - is @e an entry of transaction @gen?
 * @e: the entry
 * @gen: the transaction
 * @line: the line @e was read from
 * @g: the geometry, to bound what the entry restores
 */
bool pram_journal_entry_valid(const struct pram_journal_entry *e, u32 gen,
			      u32 line, const struct pram_geometry *g)
{
	u32 len = le16_to_cpu(e->e_len);
	u64 off = le64_to_cpu(e->e_offset);

	if (le32_to_cpu(e->e_csum) != pram_journal_entry_csum(e) ||
	    le32_to_cpu(e->e_gen) != gen || le16_to_cpu(e->e_line) != line)
		return false;
	if (len & PRAM_JOURNAL_SLOT)
		return pram_journal_slot_ok(g, off, len & PRAM_JOURNAL_LEN);
	return len && len <= PRAM_JOURNAL_DATA &&
	       pram_journal_range_ok(g, off, len);
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_entry_valid);

/**
 * pram_journal_pending() - how many entries an undo would restore
 * @area: the journal
 * @g: the geometry
 *
 * Return: the valid entries of the open transaction, 0 if it changed
 * nothing, or -EUCLEAN for a bad head.
 */
int pram_journal_pending(const void *area, const struct pram_geometry *g)
{
	const struct pram_journal_head *h = area;
	const struct pram_journal_entry *e = area;
	const char *why;
	u32 gen, line;

	if (pram_journal_check_head(h, &why))
		return -EUCLEAN;
	gen = le32_to_cpu(h->j_gen);
	for (line = 1; line < PRAM_JOURNAL_LINES; line++)
		if (!pram_journal_entry_valid(&e[line], gen, line, g))
			break;
	return line - 1;
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_pending);

/* Restore what entry @e holds: its range, and a slot entry's checksum. */
static void pram_journal_undo_one(const struct pram_journal_entry *e,
				  pram_journal_undo_fn fn, void *arg)
{
	u32 len = le16_to_cpu(e->e_len) & PRAM_JOURNAL_LEN;
	u64 off = le64_to_cpu(e->e_offset);

	fn(arg, off, e->e_old, len);
	if (le16_to_cpu(e->e_len) & PRAM_JOURNAL_SLOT)
		fn(arg, off & ~(u64)(PRAM_INODE_SIZE - 1), e->e_old + len,
		   sizeof(__le32));
}

/**
 * pram_journal_undo() - undo the open transaction
 * @area: the journal
 * @g: the geometry
 * @fn: called with each entry's range and old bytes, the last entry first
 * @arg: for @fn
 *
 * A range logged twice is restored twice, the older bytes last; a slot
 * entry's range first, then its slot's checksum. The caller makes the
 * restored bytes durable, then commits (moves j_gen on) so that the undo
 * is not done again.
 *
 * Return: the entries undone, or -EUCLEAN for a bad head.
 */
int pram_journal_undo(const void *area, const struct pram_geometry *g,
		      pram_journal_undo_fn fn, void *arg)
{
	const struct pram_journal_entry *e = area;
	int n = pram_journal_pending(area, g), line;

	for (line = n; line >= 1; line--)
		pram_journal_undo_one(&e[line], fn, arg);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_undo);

/* The superblock pair, as an undo would leave it. */
struct pram_undo_super {
	u8	sb[PRAM_SB_COPY_OFFSET + PRAM_SB_SIZE];
};

static void pram_undo_into_super(void *arg, u64 offset, const void *old,
				 u32 len)
{
	struct pram_undo_super *u = arg;

	if (offset >= sizeof(u->sb))
		return;
	memcpy(u->sb + offset, old, min_t(u64, len, sizeof(u->sb) - offset));
}

/* A valid superblock for the same filesystem as @g. */
static bool pram_same_super(const void *sb, const struct pram_geometry *g)
{
	struct pram_geometry after;
	const char *why;

	return !pram_super_check(sb, &after, &why) && after.size == g->size &&
	       after.blocksize == g->blocksize &&
	       after.inodes_count == g->inodes_count &&
	       after.journal_blocks == g->journal_blocks &&
	       !((after.incompat ^ g->incompat) & PRAM_FEATURE_INCOMPAT_SLOT);
}

/**
 * pram_journal_check_undo() - would the undo leave the superblock valid?
 * @area: the journal, its head valid
 * @g: the geometry of the superblock in use
 * @base: the filesystem's start: both superblocks
 * @sb_off: where the superblock in use is: 0, or PRAM_SB_COPY_OFFSET
 * @why: set to the reason when it would not
 *
 * An entry may restore any metadata, the superblocks too, but only ever
 * to what they were: a valid superblock of the same filesystem. Entries
 * that would leave the superblock in use invalid, or giving another
 * geometry, were not written by PRAMFS: the journal is not to be
 * trusted, as with a bad head (emptying it loses nothing committed).
 *
 * Return: 0, or -EUCLEAN.
 */
int pram_journal_check_undo(const void *area, const struct pram_geometry *g,
			    const void *base, u32 sb_off, const char **why)
{
	struct pram_undo_super u;

	memcpy(u.sb, base, sizeof(u.sb));
	if (pram_journal_undo(area, g, pram_undo_into_super, &u) <= 0 ||
	    pram_same_super(u.sb + sb_off, g))
		return 0;
	*why = "its undo would leave the superblock invalid";
	return -EUCLEAN;
}
EXPORT_SYMBOL_IF_KUNIT(pram_journal_check_undo);
