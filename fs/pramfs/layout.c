// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS layout: geometry from the format options, checksums, validation
 * of superblocks and inodes read from NVRAM, and timestamps.
 *
 * Pure code: it touches no VFS object and no memory but the buffers it
 * is given, so KUnit runs it under UML.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/stat.h>
#include <linux/string.h>
#include "format.h"

#define PRAM_MAX_INODES		(U32_MAX - PRAM_ROOT_INO)
#define PRAM_CSUM_SKIP		sizeof(__le32)	/* the checksum field */

_Static_assert(PRAM_FEATURE_INCOMPAT_SUPP ==
	       (PRAM_FEATURE_INCOMPAT_JOURNAL | PRAM_FEATURE_INCOMPAT_LINKS |
		PRAM_FEATURE_INCOMPAT_LONGNAMES | PRAM_FEATURE_INCOMPAT_XATTR |
		PRAM_FEATURE_INCOMPAT_DIRECT | PRAM_FEATURE_INCOMPAT_SLOT),
	       "a new feature needs its name in pram_features[]");

const struct pram_feature pram_features[PRAM_NR_FEATURES] = {
	{ PRAM_FEATURE_INCOMPAT_JOURNAL, "journal" },
	{ PRAM_FEATURE_INCOMPAT_LINKS, "links" },
	{ PRAM_FEATURE_INCOMPAT_LONGNAMES, "longnames" },
	{ PRAM_FEATURE_INCOMPAT_XATTR, "xattr" },
	{ PRAM_FEATURE_INCOMPAT_DIRECT, "direct" },
	{ PRAM_FEATURE_INCOMPAT_SLOT, "slot" },
};
EXPORT_SYMBOL_IF_KUNIT(pram_features);

/**
 * pram_feature_name() - the name of one incompatible feature
 * @bit: a PRAM_FEATURE_INCOMPAT_* bit
 *
 * Return: its name, or NULL for a bit PRAMFS does not know.
 */
const char *pram_feature_name(u32 bit)
{
	unsigned int i;

	for (i = 0; i < PRAM_NR_FEATURES; i++)
		if (pram_features[i].bit == bit)
			return pram_features[i].name;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(pram_feature_name);

/**
 * pram_super_csum() - crc32c of a superblock, its own checksum excluded
 * @ps: the superblock
 */
u32 pram_super_csum(const struct pram_super_block *ps)
{
	return __crc32c_le(~0, (const u8 *)ps + PRAM_CSUM_SKIP,
			   PRAM_SB_SIZE - PRAM_CSUM_SKIP);
}
EXPORT_SYMBOL_IF_KUNIT(pram_super_csum);

static bool pram_blocksize_ok(u32 blocksize)
{
	return blocksize >= PRAM_MIN_BLOCK_SIZE &&
	       blocksize <= PRAM_MAX_BLOCK_SIZE && is_power_of_2(blocksize);
}

/* The inode table, rounded up to whole blocks; 0 if @ninodes is absurd. */
static u64 pram_itable_end(u64 ninodes, u32 blocksize)
{
	if (ninodes > PRAM_MAX_INODES)
		return 0;
	return round_up(PRAM_ITABLE_OFFSET + (ninodes << PRAM_INODE_BITS),
			(u64)blocksize);
}

/**
 * pram_geometry_compute() - lay out a filesystem
 * @g: the result
 * @size: filesystem size in bytes
 * @blocksize: block size, 0 for the default
 * @bpi: bytes per inode, 0 for the default (5% of the space for inodes)
 * @ninodes: number of inodes, 0 to derive it from @bpi; wins over @bpi
 * @journal: with the undo journal (PRAM_FEATURE_INCOMPAT_JOURNAL) and its
 *	     slot entries (PRAM_FEATURE_INCOMPAT_SLOT)
 * @why: on error, the reason, for the mount log
 *
 * The inode table is rounded up to whole blocks and filled with inodes;
 * the bitmap has one bit per block of the filesystem, metadata included;
 * the journal, PRAM_JOURNAL_SIZE bytes (whole blocks at every block
 * size), follows it.
 *
 * Return: 0, or -EINVAL when the options give no usable filesystem.
 */
int pram_geometry_compute(struct pram_geometry *g, u64 size, u32 blocksize,
			  u64 bpi, u64 ninodes, bool journal, const char **why)
{
	u64 blocks, itable_end, bitmap_bytes;

	if (!blocksize)
		blocksize = PRAM_DEF_BLOCK_SIZE;
	if (!pram_blocksize_ok(blocksize))
		return pram_fail(why, "block size must be 512, 1024, 2048 or 4096");
	g->size = size;
	g->blocksize = blocksize;
	g->blocksize_bits = ilog2(blocksize);
	blocks = size >> g->blocksize_bits;
	if (blocks > U32_MAX)
		return pram_fail(why, "too large: at most 2^32-1 blocks");
	if (!ninodes)
		ninodes = clamp_t(u64, div64_u64(size, bpi ?: PRAM_DEF_BYTES_PER_INODE),
				  1, PRAM_MAX_INODES);
	itable_end = pram_itable_end(ninodes, blocksize);
	if (!itable_end || itable_end >= size)
		return pram_fail(why, "the inode table does not fit");
	g->inodes_count = min_t(u64, (itable_end - PRAM_ITABLE_OFFSET) >>
				PRAM_INODE_BITS, PRAM_MAX_INODES);
	g->blocks_count = blocks;
	g->bitmap_start = itable_end >> g->blocksize_bits;
	bitmap_bytes = DIV_ROUND_UP(blocks, BITS_PER_BYTE);
	g->bitmap_blocks = DIV_ROUND_UP(bitmap_bytes, blocksize);
	g->journal_start = journal ? g->bitmap_start + g->bitmap_blocks : 0;
	g->journal_blocks = journal ? PRAM_JOURNAL_SIZE >> g->blocksize_bits : 0;
	g->data_start = g->bitmap_start + g->bitmap_blocks + g->journal_blocks;
	g->incompat = journal ? PRAM_FEATURE_INCOMPAT_JOURNAL |
				PRAM_FEATURE_INCOMPAT_SLOT : 0;
	if ((u64)g->data_start >= blocks)
		return pram_fail(why, "too small: no room left for data blocks");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_geometry_compute);

/**
 * pram_super_format() - fill in a new superblock for @g
 * @ps: the superblock, zeroed by the caller
 * @g: its geometry
 *
 * Every inode but the root and every data block start free, and the
 * counts say so exactly: the state is clean.
 */
void pram_super_format(struct pram_super_block *ps,
		       const struct pram_geometry *g)
{
	ps->s_magic = cpu_to_le32(PRAM_SUPER_MAGIC);
	ps->s_revision = cpu_to_le32(PRAM_REVISION);
	ps->s_size = cpu_to_le64(g->size);
	ps->s_blocksize = cpu_to_le32(g->blocksize);
	ps->s_inodes_count = cpu_to_le32(g->inodes_count);
	ps->s_free_inodes_count = cpu_to_le32(g->inodes_count - 1);
	ps->s_free_inode_hint = cpu_to_le32(PRAM_ROOT_INO + 1);
	ps->s_blocks_count = cpu_to_le32(g->blocks_count);
	ps->s_free_blocks_count = cpu_to_le32(g->blocks_count - g->data_start);
	ps->s_free_blocknr_hint = cpu_to_le32(g->data_start);
	ps->s_bitmap_start = cpu_to_le32(g->bitmap_start);
	ps->s_bitmap_blocks = cpu_to_le32(g->bitmap_blocks);
	ps->s_feature_incompat = cpu_to_le32(g->incompat);
	if (g->journal_blocks)
		ps->s_journal = cpu_to_le32(g->journal_start);
	ps->s_state = cpu_to_le16(PRAM_STATE_CLEAN);
	ps->s_csum = cpu_to_le32(pram_super_csum(ps));
}
EXPORT_SYMBOL_IF_KUNIT(pram_super_format);

/**
 * pram_root_format() - fill in the root directory of a new filesystem
 * @pi: the root inode, zeroed by the caller
 * @mode: its permissions
 * @uid: its owner
 * @gid: its group
 * @now: its times
 *
 * An empty directory: two links, its own parent, in no list.
 */
void pram_root_format(struct pram_inode *pi, umode_t mode, u32 uid, u32 gid,
		      __le64 now)
{
	pi->i_mode = cpu_to_le16(S_IFDIR | (mode & 07777));
	pi->i_uid = cpu_to_le32(uid);
	pi->i_gid = cpu_to_le32(gid);
	pi->i_links_count = cpu_to_le16(2);
	pi->i_atime = now;
	pi->i_mtime = now;
	pi->i_ctime = now;
	pi->i_parent = cpu_to_le32(PRAM_ROOT_INO);
	pram_slot_seal(pi, PRAM_ROOT_INO);
}
EXPORT_SYMBOL_IF_KUNIT(pram_root_format);

/**
 * pram_incompat_refused() - why a set of incompatible features is refused
 * @incompat: s_feature_incompat
 *
 * Return: NULL when PRAMFS knows every feature and they go together, or
 * the reason: an unknown one, or slot entries without a journal.
 */
const char *pram_incompat_refused(u32 incompat)
{
	if (incompat & ~PRAM_FEATURE_INCOMPAT_SUPP)
		return "unknown incompatible features";
	if ((incompat & PRAM_FEATURE_INCOMPAT_SLOT) &&
	    !(incompat & PRAM_FEATURE_INCOMPAT_JOURNAL))
		return "slot entries without a journal";
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(pram_incompat_refused);

/* The stored geometry must be exactly what its size and inode count give. */
static int pram_super_check_geometry(const struct pram_super_block *ps,
				     struct pram_geometry *g, const char **why)
{
	u32 inodes = le32_to_cpu(ps->s_inodes_count);
	bool journal = le32_to_cpu(ps->s_feature_incompat) &
		       PRAM_FEATURE_INCOMPAT_JOURNAL;

	if (pram_geometry_compute(g, le64_to_cpu(ps->s_size),
				  le32_to_cpu(ps->s_blocksize), 0, inodes,
				  journal, why))
		return -EINVAL;
	if (g->inodes_count != inodes ||
	    g->blocks_count != le32_to_cpu(ps->s_blocks_count) ||
	    g->bitmap_start != le32_to_cpu(ps->s_bitmap_start) ||
	    g->bitmap_blocks != le32_to_cpu(ps->s_bitmap_blocks) ||
	    g->journal_start != le32_to_cpu(ps->s_journal))
		return pram_fail(why, "geometry does not match the size");
	g->incompat = le32_to_cpu(ps->s_feature_incompat);
	return 0;
}

/**
 * pram_super_check() - validate a superblock read from NVRAM
 * @ps: the superblock
 * @g: its geometry, on success
 * @why: on error, the reason, for the mount log
 *
 * Unknown ro_compat features are left to the caller, which knows
 * whether the mount is read-only. The free counts and allocation hints
 * are not checked: they are advisory, and the mount repairs them.
 *
 * Return: 0 if @ps describes a filesystem this code can mount, else
 * -EINVAL.
 */
int pram_super_check(const struct pram_super_block *ps, struct pram_geometry *g,
		     const char **why)
{
	const char *refused;

	if (le32_to_cpu(ps->s_magic) != PRAM_SUPER_MAGIC)
		return pram_fail(why, "bad magic");
	if (le32_to_cpu(ps->s_csum) != pram_super_csum(ps))
		return pram_fail(why, "bad checksum");
	if (le32_to_cpu(ps->s_revision) != PRAM_REVISION)
		return pram_fail(why, "unknown format revision");
	refused = pram_incompat_refused(le32_to_cpu(ps->s_feature_incompat));
	if (refused)
		return pram_fail(why, refused);
	if (ps->s_reserved)
		return pram_fail(why, "reserved field set");
	return pram_super_check_geometry(ps, g, why);
}
EXPORT_SYMBOL_IF_KUNIT(pram_super_check);

static bool pram_ino_ok(const struct pram_geometry *g, __le32 ino)
{
	return !ino || pram_ino_valid(g, le32_to_cpu(ino));
}

static bool pram_block_ok(const struct pram_geometry *g, __le32 block)
{
	return !block || pram_block_valid(g, le32_to_cpu(block));
}

static int pram_inode_check_refs(const struct pram_inode *pi, umode_t mode,
				 const struct pram_geometry *g,
				 const char **why)
{
	if (!pram_ino_ok(g, pi->i_next) || !pram_ino_ok(g, pi->i_prev) ||
	    !pram_ino_ok(g, pi->i_parent))
		return pram_fail(why, "directory links out of range");
	if (S_ISDIR(mode) &&
	    (!pram_ino_ok(g, pi->i_type.dir.head) ||
	     !pram_ino_ok(g, pi->i_type.dir.tail)))
		return pram_fail(why, "directory list out of range");
	if ((S_ISREG(mode) || S_ISLNK(mode)) &&
	    (!pram_block_ok(g, pi->i_type.reg.row_block) ||
	     !pram_block_ok(g, pi->i_type.reg.direct)))
		return pram_fail(why, "block map out of range");
	/* Its attribute block would be freed under it by the next change. */
	if ((S_ISREG(mode) || S_ISLNK(mode)) && pi->i_xattr &&
	    (pi->i_xattr == pi->i_type.reg.row_block ||
	     pi->i_xattr == pi->i_type.reg.direct))
		return pram_fail(why, "attribute block is a block of the file");
	if (le32_to_cpu(pi->i_blocks) > g->blocks_count - g->data_start)
		return pram_fail(why, "block count out of range");
	return 0;
}

/*
 * A directory has 2 or more links; anything else 1, or with hard links
 * (PRAM_FEATURE_INCOMPAT_LINKS) 1 to PRAM_LINK_MAX.
 */
static int pram_inode_check_links(const struct pram_inode *pi, umode_t mode,
				  const struct pram_geometry *g,
				  const char **why)
{
	u16 links = le16_to_cpu(pi->i_links_count);

	if (S_ISDIR(mode) ? links < 2 :
	    !links || (links > 1 &&
		       !pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_LINKS)))
		return pram_fail(why, "bad link count");
	return 0;
}

/*
 * What each type may hold: a regular file up to s_maxbytes and a block
 * map or, with INCOMPAT_DIRECT, a direct block instead (its block count
 * is checked against them by the caller); a
 * symlink a target of 1 to bs - 1 bytes in one block; the others
 * nothing. Reserved halves of i_type are zero.
 */
static int pram_inode_check_size(const struct pram_inode *pi, umode_t mode,
				 const struct pram_geometry *g,
				 const char **why)
{
	u64 size = le64_to_cpu(pi->i_size);
	u32 blocks = le32_to_cpu(pi->i_blocks);
	bool mapped = S_ISREG(mode) || S_ISLNK(mode);
	bool dev = S_ISCHR(mode) || S_ISBLK(mode);

	if (S_ISLNK(mode) && pi->i_type.reg.direct)
		return pram_fail(why, "reserved field set");
	if (pi->i_type.reg.direct && S_ISREG(mode) &&
	    !pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_DIRECT))
		return pram_fail(why, "direct block without the feature");
	if (pi->i_type.reg.direct && S_ISREG(mode) && pi->i_type.reg.row_block)
		return pram_fail(why, "both a block map and a direct block");
	if (!mapped && !S_ISDIR(mode) &&
	    (pi->i_type.dev.reserved || (!dev && pi->i_type.dev.rdev)))
		return pram_fail(why, "reserved field set");
	if (blocks && (!mapped || (!pi->i_type.reg.row_block &&
				   !pi->i_type.reg.direct)))
		return pram_fail(why, "block count without a block map");
	if (S_ISREG(mode) && size > pram_max_file_size(g->blocksize_bits))
		return pram_fail(why, "size out of range");
	if (S_ISLNK(mode) && (!size || size >= g->blocksize))
		return pram_fail(why, "size out of range");
	if (!mapped && size)
		return pram_fail(why, "size out of range");
	if (S_ISLNK(mode) && blocks != 1)
		return pram_fail(why, "symlink block not counted");
	return 0;
}

/* A long name's head: PRAM_NAME_HEAD bytes, none of them NUL or '/'. */
static int pram_long_name_check(const struct pram_inode *pi,
				const struct pram_geometry *g, u32 ino,
				const char **why)
{
	const struct pram_long_name *ln = &pi->i_long;
	u32 r0 = le32_to_cpu(ln->l_rec[0]), r1 = le32_to_cpu(ln->l_rec[1]);

	if (!pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_LONGNAMES))
		return pram_fail(why, "long name without the feature");
	if (!pram_ino_valid(g, r0) || r0 == ino ||
	    (r1 && (!pram_ino_valid(g, r1) || r1 == ino || r1 == r0)))
		return pram_fail(why, "name records out of range");
	if (strnlen(ln->l_head, PRAM_NAME_HEAD) != PRAM_NAME_HEAD)
		return pram_fail(why, "name contains NUL");
	if (memchr(ln->l_head, '/', PRAM_NAME_HEAD))
		return pram_fail(why, "name contains '/'");
	return 0;
}

/**
 * pram_name_check() - is what an entry's record holds of its name valid?
 * @pi: the entry
 * @g: the filesystem's geometry
 * @ino: its number
 * @why: if not, the reason
 *
 * A short name: 1 to PRAM_NAME_LEN bytes, NUL-padded, without '/', not
 * "." or "..". A long one (PRAM_INODE_LONGNAME): its head, and the
 * numbers of its name records; pram_entry_name() reads the records.
 *
 * Return: 0 or -EINVAL.
 */
int pram_name_check(const struct pram_inode *pi, const struct pram_geometry *g,
		    u32 ino, const char **why)
{
	u32 len = pram_name_len(pi), i;

	if (pram_is_long_name(pi))
		return pram_long_name_check(pi, g, ino, why);
	if (!len)
		return pram_fail(why, "empty name");
	for (i = len; i < PRAM_NAME_LEN; i++)
		if (pi->i_name[i])
			return pram_fail(why, "name contains NUL");
	if (memchr(pi->i_name, '/', len))
		return pram_fail(why, "name contains '/'");
	if (pi->i_name[0] == '.' &&
	    (len == 1 || (len == 2 && pi->i_name[1] == '.')))
		return pram_fail(why, "name is . or ..");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pram_name_check);

/*
 * An inode in no list (being made, or whose first name went while it
 * has others) has no name: its name went with its entry. A deleted one
 * keeps a short name until its record goes.
 */
static int pram_unlisted_name_check(const struct pram_inode *pi,
				    const struct pram_geometry *g, u32 ino,
				    const char **why)
{
	if (pram_is_long_name(pi))
		return pram_fail(why, "long name on an inode in no directory");
	if (!memchr_inv(pi->i_name, 0, PRAM_NAME_LEN))
		return 0;
	return pram_name_check(pi, g, ino, why);
}

/*
 * The root is named by nothing and in no list; every other inode in a
 * list is an entry.
 */
static int pram_inode_check_entry(const struct pram_inode *pi, u32 ino,
				  const struct pram_geometry *g,
				  const char **why)
{
	if (ino != PRAM_ROOT_INO && !pi->i_parent)
		return pram_unlisted_name_check(pi, g, ino, why);
	if (ino != PRAM_ROOT_INO)
		return pram_name_check(pi, g, ino, why);
	if (le32_to_cpu(pi->i_parent) != PRAM_ROOT_INO || pi->i_next ||
	    pi->i_prev || pram_is_long_name(pi))
		return pram_fail(why, "root directory in a list");
	return 0;
}

/* Are bytes [@from, @to) of @p zero? */
static bool pram_zero(const void *p, size_t from, size_t to)
{
	const u8 *b = p;

	for (; from < to; from++)
		if (b[from])
			return false;
	return true;
}

/*
 * A link entry: an entry (links, name) that names another slot, with
 * every field of an inode's own zero.
 */
static int pram_link_check(const struct pram_inode *pi, u32 ino,
			   const struct pram_geometry *g, const char **why)
{
	u32 target = le32_to_cpu(pi->i_type.link.ino);

	if (!pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_LINKS))
		return pram_fail(why, "link entry without the feature");
	if (le16_to_cpu(pi->i_mode) != PRAM_S_IFLINK)
		return pram_fail(why, "bad file type");
	/* i_links_count to i_blocks, and the times and i_xattr. */
	if (!pram_zero(pi, offsetof(struct pram_inode, i_links_count),
		       offsetof(struct pram_inode, i_flags)) ||
	    !pram_zero(pi, offsetof(struct pram_inode, i_atime),
		       offsetof(struct pram_inode, i_type)) ||
	    pi->i_type.link.reserved)
		return pram_fail(why, "reserved field set");
	if (le32_to_cpu(pi->i_flags) & ~PRAM_INODE_LONGNAME)
		return pram_fail(why, "unknown inode flags");
	if (!pram_ino_valid(g, target) || target == ino ||
	    target == PRAM_ROOT_INO)
		return pram_fail(why, "link to an inode out of range");
	if (!pram_ino_ok(g, pi->i_next) || !pram_ino_ok(g, pi->i_prev) ||
	    !pram_ino_ok(g, pi->i_parent))
		return pram_fail(why, "directory links out of range");
	return pram_name_check(pi, g, ino, why);
}

/**
 * pram_inode_check() - validate an in-use inode read from NVRAM
 * @pi: the inode
 * @ino: its number
 * @g: the filesystem's geometry
 * @why: on error, the reason, for the log
 *
 * Everything that can be checked from the record alone: checksum, type,
 * link count, size, flags, that every reference it holds (entry links,
 * directory list, block map, name records) names an inode or block
 * inside the filesystem, and the name (what the record holds of it). The
 * block count of a regular file against its map (or direct block) is
 * pram_file_map_check()'s,
 * a long name's records pram_entry_name()'s. A link entry passes as a
 * valid entry (what it names is checked where it is followed); a name
 * record never does.
 *
 * Return: 0 or -EINVAL.
 */
int pram_inode_check(const struct pram_inode *pi, u32 ino,
		     const struct pram_geometry *g, const char **why)
{
	umode_t mode = le16_to_cpu(pi->i_mode);

	if (!pram_ino_valid(g, ino))
		return pram_fail(why, "inode number out of range");
	if (!mode)
		return pram_fail(why, "inode is free");
	if (le32_to_cpu(pi->i_csum) != pram_inode_csum(pi, ino))
		return pram_fail(why, "bad checksum");
	if (pram_mode_is_link(mode))
		return pram_link_check(pi, ino, g, why);
	if (!S_ISREG(mode) && !S_ISDIR(mode) && !S_ISLNK(mode) &&
	    !S_ISCHR(mode) && !S_ISBLK(mode) && !S_ISFIFO(mode) &&
	    !S_ISSOCK(mode))
		return pram_fail(why, "bad file type");
	if (le32_to_cpu(pi->i_flags) & ~PRAM_INODE_FLAGS_KNOWN)
		return pram_fail(why, "unknown inode flags");
	if (pi->i_xattr && !pram_has_incompat(g, PRAM_FEATURE_INCOMPAT_XATTR))
		return pram_fail(why, "extended attribute block without the feature");
	if (pi->i_xattr && !pram_block_valid(g, le32_to_cpu(pi->i_xattr)))
		return pram_fail(why, "extended attribute block out of range");
	if (pram_inode_check_links(pi, mode, g, why) ||
	    pram_inode_check_refs(pi, mode, g, why) ||
	    pram_inode_check_size(pi, mode, g, why))
		return -EINVAL;
	return pram_inode_check_entry(pi, ino, g, why);
}
EXPORT_SYMBOL_IF_KUNIT(pram_inode_check);

/**
 * pram_inode_deleted() - is @pi an inode unlinked while it was in use?
 * @pi: an inode record
 *
 * unlink, rmdir and a rename over a name leave the inode with no links
 * and no parent until its last user lets go, and eviction frees it. One
 * found so at mount (a power cut came first) is to be freed; fsck.pramfs
 * frees it too. A directory that still heads a list is not.
 */
bool pram_inode_deleted(const struct pram_inode *pi)
{
	return pram_mode_is_inode(le16_to_cpu(pi->i_mode)) &&
	       !pi->i_links_count && !pi->i_parent &&
	       !(S_ISDIR(le16_to_cpu(pi->i_mode)) && pi->i_type.dir.head);
}
EXPORT_SYMBOL_IF_KUNIT(pram_inode_deleted);

/**
 * pram_time_unpack() - decode a timestamp from the media
 * @t: the stored value; a nanosecond field past 999999999 reads as 0
 */
struct timespec64 pram_time_unpack(__le64 t)
{
	u64 v = le64_to_cpu(t);
	struct timespec64 ts = {
		.tv_sec = (s64)v >> PRAM_TIME_NSEC_BITS,
		.tv_nsec = v & (BIT_ULL(PRAM_TIME_NSEC_BITS) - 1),
	};

	if (ts.tv_nsec >= NSEC_PER_SEC)
		ts.tv_nsec = 0;
	return ts;
}
EXPORT_SYMBOL_IF_KUNIT(pram_time_unpack);
