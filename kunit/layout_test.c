// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the PRAMFS layout code: geometry, superblock and inode
 * validation, checksums and timestamps. The expected geometries were
 * worked out by hand from the formula in Documentation/filesystems/pramfs.rst.
 */
#include <kunit/test.h>
#include <linux/stat.h>
#include "format.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)
#define TiB	(1024 * 1024 * MiB)

/* ---- pramfs_geometry ---- */

struct geometry_case {
	const char *name;
	u64 size;
	u32 bs;
	u64 bpi;
	u64 n;
	int err;
	u32 inodes, blocks, bitmap_start, bitmap_blocks, data_start;
	bool journal;		/* with the undo journal, after the bitmap */
};

static const struct geometry_case geometry_cases[] = {
	{ "64M defaults", 64 * MiB, 0, 0, 0, 0, 26222, 32768, 1639, 2, 1641 },
	{ "1M bs=512", MiB, 512, 0, 0, 0, 410, 2048, 103, 1, 104 },
	{ "1M bs=1024", MiB, 1024, 0, 0, 0, 414, 1024, 52, 1, 53 },
	{ "1M bs=4096", MiB, 4096, 0, 0, 0, 414, 256, 13, 1, 14 },
	{ "size not a multiple of bs", MiB + 1000, 4096, 0, 0, 0,
	  414, 256, 13, 1, 14 },
	{ "N rounded up to fill a block", MiB, 4096, 0, 100, 0,
	  126, 256, 4, 1, 5 },
	{ "N and bpi both given: N wins", MiB, 4096, 8192, 100, 0,
	  126, 256, 4, 1, 5 },
	{ "bpi given", MiB, 4096, 16384, 0, 0, 94, 256, 3, 1, 4 },
	{ "bitmap spanning 32 blocks", 64 * MiB, 512, 0, 0, 0,
	  26214, 131072, 6554, 32, 6586 },
	{ "minimum size, bs=512", 1536, 512, 0, 0, 0, 2, 3, 1, 1, 2 },
	{ "minimum size, default bs", 6144, 0, 0, 0, 0, 14, 3, 1, 1, 2 },
	{ "minimum size, bs=4096", 3 * 4096, 4096, 0, 0, 0, 30, 3, 1, 1, 2 },
	{ "16 TiB at bs=4096", (U32_MAX * 4096ULL), 4096, 0, 0, 0,
	  4294967293U, U32_MAX, 134217728, 131072, 134348800 },
	{ "one byte below the minimum", 1535, 512, 0, 0, -EINVAL },
	{ "smaller than one block", 100, 0, 0, 0, -EINVAL },
	{ "N does not fit", MiB, 4096, 0, 10000, -EINVAL },
	{ "block size 3000", MiB, 3000, 0, 0, -EINVAL },
	{ "block size 256", MiB, 256, 0, 0, -EINVAL },
	{ "block size 8192", MiB, 8192, 0, 0, -EINVAL },
	{ "2^33 blocks of 512", 4 * TiB, 512, 0, 0, -EINVAL },
	{ "1M bs=512, journal", MiB, 512, 0, 0, 0, 410, 2048, 103, 1, 136, true },
	{ "1M bs=4096, journal", MiB, 4096, 0, 0, 0, 414, 256, 13, 1, 18, true },
	{ "64M defaults, journal", 64 * MiB, 0, 0, 0, 0,
	  26222, 32768, 1639, 2, 1649, true },
	{ "minimum size with a journal, bs=4096", 7 * 4096, 4096, 0, 0, 0,
	  30, 7, 1, 1, 6, true },
	{ "no room for the journal", 6 * 4096, 4096, 0, 0, -EINVAL, .journal = true },
};

static void geometry_desc(const struct geometry_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(geometry, geometry_cases, geometry_desc);

static void geometry_test(struct kunit *test)
{
	const struct geometry_case *c = test->param_value;
	struct pram_geometry g;
	const char *why = NULL;
	int err;

	err = pram_geometry_compute(&g, c->size, c->bs, c->bpi, c->n,
				    c->journal, &why);
	KUNIT_ASSERT_EQ(test, err, c->err);
	if (err) {
		KUNIT_EXPECT_NOT_NULL(test, why);
		return;
	}
	KUNIT_EXPECT_EQ(test, g.inodes_count, c->inodes);
	KUNIT_EXPECT_EQ(test, g.blocks_count, c->blocks);
	KUNIT_EXPECT_EQ(test, g.bitmap_start, c->bitmap_start);
	KUNIT_EXPECT_EQ(test, g.bitmap_blocks, c->bitmap_blocks);
	KUNIT_EXPECT_EQ(test, g.data_start, c->data_start);
	/* The journal, when there is one, is between bitmap and data. */
	KUNIT_EXPECT_EQ(test, g.journal_start,
			c->journal ? c->bitmap_start + c->bitmap_blocks : 0);
	KUNIT_EXPECT_EQ(test, (u64)g.journal_blocks << g.blocksize_bits,
			c->journal ? PRAM_JOURNAL_SIZE : 0);
	/* A new journal comes with its slot entries. */
	KUNIT_EXPECT_EQ(test, g.incompat, c->journal ?
			PRAM_FEATURE_INCOMPAT_JOURNAL |
			PRAM_FEATURE_INCOMPAT_SLOT : 0);
	/* The inode table never overlaps the bitmap. */
	KUNIT_EXPECT_LE(test, PRAM_ITABLE_OFFSET +
			((u64)g.inodes_count << PRAM_INODE_BITS),
			pram_block_offset(&g, g.bitmap_start));
	/* The bitmap has a bit for every block. */
	KUNIT_EXPECT_GE(test, (u64)g.bitmap_blocks * g.blocksize * 8,
			(u64)g.blocks_count);
}

/* ---- pramfs_super ---- */

struct super_case {
	const char *name;
	void (*mutate)(struct pram_super_block *ps);
	bool resum;		/* recompute the checksum after mutating */
	const char *why;	/* NULL: the superblock must pass */
};

static void sb_nothing(struct pram_super_block *ps) { }
static void sb_magic(struct pram_super_block *ps) { ps->s_magic = cpu_to_le32(0xEFFB); }
static void sb_flip_bit(struct pram_super_block *ps) { ps->s_volume_name[3] ^= 0x10; }
static void sb_zero(struct pram_super_block *ps) { memset(ps, 0, sizeof(*ps)); }
static void sb_revision(struct pram_super_block *ps) { ps->s_revision = cpu_to_le32(2); }
static void sb_incompat(struct pram_super_block *ps) { ps->s_feature_incompat = cpu_to_le32(0x8000); }
static void sb_compat(struct pram_super_block *ps) { ps->s_feature_compat = cpu_to_le32(1); }
static void sb_journal(struct pram_super_block *ps) { ps->s_journal = cpu_to_le32(7); }

/* The journal feature, its area where the geometry puts it (or not). */
static void sb_journal_on(struct pram_super_block *ps)
{
	ps->s_feature_incompat = cpu_to_le32(PRAM_FEATURE_INCOMPAT_JOURNAL);
	ps->s_journal = cpu_to_le32(le32_to_cpu(ps->s_bitmap_start) +
				    le32_to_cpu(ps->s_bitmap_blocks));
}

static void sb_journal_moved(struct pram_super_block *ps)
{
	sb_journal_on(ps);
	le32_add_cpu(&ps->s_journal, 1);
}

static void sb_journal_flag_only(struct pram_super_block *ps)
{
	ps->s_feature_incompat = cpu_to_le32(PRAM_FEATURE_INCOMPAT_JOURNAL);
}

/* Slot entries (INCOMPAT_SLOT) go with the journal, never alone. */
static void sb_journal_slot(struct pram_super_block *ps)
{
	sb_journal_on(ps);
	le32_add_cpu(&ps->s_feature_incompat, PRAM_FEATURE_INCOMPAT_SLOT);
}

static void sb_slot_alone(struct pram_super_block *ps)
{
	ps->s_feature_incompat = cpu_to_le32(PRAM_FEATURE_INCOMPAT_SLOT);
}

static void sb_reserved(struct pram_super_block *ps) { ps->s_reserved = cpu_to_le16(1); }
static void sb_state(struct pram_super_block *ps) { ps->s_state = cpu_to_le16(0xffff); }
static void sb_size(struct pram_super_block *ps) { le64_add_cpu(&ps->s_size, MiB); }
static void sb_tiny(struct pram_super_block *ps) { ps->s_size = cpu_to_le64(1000); }
static void sb_bs(struct pram_super_block *ps) { ps->s_blocksize = cpu_to_le32(3000); }
static void sb_inodes(struct pram_super_block *ps) { le32_add_cpu(&ps->s_inodes_count, 1); }
static void sb_bitmap(struct pram_super_block *ps) { le32_add_cpu(&ps->s_bitmap_start, 1); }
static void sb_free_blocks(struct pram_super_block *ps) { le32_add_cpu(&ps->s_free_blocks_count, 1); }
static void sb_free_inodes(struct pram_super_block *ps) { le32_add_cpu(&ps->s_free_inodes_count, 1); }
static void sb_hint(struct pram_super_block *ps) { ps->s_free_blocknr_hint = cpu_to_le32(1); }
static void sb_ino_hint(struct pram_super_block *ps) { le32_add_cpu(&ps->s_free_inode_hint, 1000); }

static void sb_swap(struct pram_super_block *ps)
{
	swap(ps->s_free_inodes_count, ps->s_free_inode_hint);
}

static const struct super_case super_cases[] = {
	{ "freshly formatted", sb_nothing, false, NULL },
	{ "unknown compat feature is fine", sb_compat, true, NULL },
	{ "bad magic", sb_magic, true, "bad magic" },
	{ "one bit flipped", sb_flip_bit, false, "bad checksum" },
	{ "two words swapped", sb_swap, false, "bad checksum" },
	{ "all zero", sb_zero, false, "bad magic" },
	{ "unknown revision", sb_revision, true, "unknown format revision" },
	{ "unknown incompat feature", sb_incompat, true,
	  "unknown incompatible features" },
	{ "journal block without the feature", sb_journal, true,
	  "geometry does not match the size" },
	{ "journal feature and its area", sb_journal_on, true, NULL },
	{ "journal feature, area elsewhere", sb_journal_moved, true,
	  "geometry does not match the size" },
	{ "journal feature, no area", sb_journal_flag_only, true,
	  "geometry does not match the size" },
	{ "journal and slot entries", sb_journal_slot, true, NULL },
	{ "slot entries without the journal", sb_slot_alone, true,
	  "slot entries without a journal" },
	{ "reserved field after the state", sb_reserved, true,
	  "reserved field set" },
	{ "unknown state bits are kept, not refused", sb_state, true, NULL },
	{ "size does not fit the geometry", sb_size, true,
	  "geometry does not match the size" },
	{ "size too small for anything", sb_tiny, true,
	  "the inode table does not fit" },
	{ "bad block size", sb_bs, true,
	  "block size must be 512, 1024, 2048 or 4096" },
	{ "inode count not block-rounded", sb_inodes, true,
	  "geometry does not match the size" },
	{ "bitmap moved", sb_bitmap, true, "geometry does not match the size" },
	/* Counts and hints are advisory: the mount repairs them. */
	{ "more free blocks than blocks", sb_free_blocks, true, NULL },
	{ "every inode free, root too", sb_free_inodes, true, NULL },
	{ "block hint in the metadata", sb_hint, true, NULL },
	{ "inode hint past the table", sb_ino_hint, true, NULL },
};

static void super_desc(const struct super_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(super, super_cases, super_desc);

static void super_test(struct kunit *test)
{
	const struct super_case *c = test->param_value;
	struct pram_super_block *ps;
	struct pram_geometry g, got;
	const char *why = NULL;
	int err;

	ps = kunit_kzalloc(test, sizeof(*ps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ps);
	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&g, MiB, 1024, 0, 0, false, &why), 0);
	pram_super_format(ps, &g);
	c->mutate(ps);
	if (c->resum)
		ps->s_csum = cpu_to_le32(pram_super_csum(ps));

	err = pram_super_check(ps, &got, &why);
	if (!c->why) {
		KUNIT_ASSERT_EQ(test, err, 0);
		KUNIT_EXPECT_EQ(test, got.inodes_count, g.inodes_count);
		/* A journal, when there is one, goes before the data. */
		KUNIT_EXPECT_EQ(test, got.journal_start, le32_to_cpu(ps->s_journal));
		KUNIT_EXPECT_EQ(test, got.data_start, g.data_start +
				(ps->s_journal ? PRAM_JOURNAL_SIZE / 1024 : 0));
		return;
	}
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, c->why);
}

/* Every feature the kernel supports has one name, and only those do. */
static void feature_names_test(struct kunit *test)
{
	unsigned int bit;

	for (bit = 0; bit < 32; bit++)
		KUNIT_EXPECT_EQ_MSG(test, !!pram_feature_name(BIT(bit)),
				    !!(PRAM_FEATURE_INCOMPAT_SUPP & BIT(bit)),
				    "bit %u", bit);
	KUNIT_EXPECT_STREQ(test, pram_feature_name(PRAM_FEATURE_INCOMPAT_LINKS),
			   "links");
	KUNIT_EXPECT_STREQ(test, pram_feature_name(PRAM_FEATURE_INCOMPAT_DIRECT),
			   "direct");
	KUNIT_EXPECT_STREQ(test, pram_feature_name(PRAM_FEATURE_INCOMPAT_SLOT),
			   "slot");
}

/* Every byte of the superblock but the checksum itself is covered. */
static void super_csum_covers_every_byte(struct kunit *test)
{
	struct pram_super_block *ps;
	u8 *raw;
	u32 good;
	int i;

	ps = kunit_kzalloc(test, sizeof(*ps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ps);
	raw = (u8 *)ps;
	good = pram_super_csum(ps);
	for (i = sizeof(__le32); i < PRAM_SB_SIZE; i++) {
		raw[i] ^= 1;
		KUNIT_EXPECT_NE_MSG(test, pram_super_csum(ps), good, "byte %d", i);
		raw[i] ^= 1;
	}
}

/* ---- pramfs_inode ---- */

#define TEST_INO	5
#define TEST_TARGET	5	/* a symlink's target length */

struct inode_case {
	const char *name;
	umode_t mode;
	void (*mutate)(struct pram_inode *pi, const struct pram_geometry *g);
	u32 check_ino;		/* 0: TEST_INO */
	bool resum;		/* checksum again after mutating */
	const char *why;
	u32 incompat;		/* features besides the journal's */
};

#define LINKS		PRAM_FEATURE_INCOMPAT_LINKS
#define LONGNAMES	PRAM_FEATURE_INCOMPAT_LONGNAMES
#define DIRECT		PRAM_FEATURE_INCOMPAT_DIRECT
#define TEST_LINK_TARGET 7

static void pi_nothing(struct pram_inode *pi, const struct pram_geometry *g) { }

static void pi_dir(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.dir.head = cpu_to_le32(7);
	pi->i_type.dir.tail = cpu_to_le32(9);
}

static void pi_free(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_mode = 0;
}

static void pi_flip(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_name[0] ^= 1;
}

static void pi_type(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_mode = cpu_to_le16(S_IFMT | 0644);
}

static void pi_next(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_next = cpu_to_le32(PRAM_ROOT_INO + g->inodes_count);
}

static void pi_parent(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_parent = cpu_to_le32(1);
}

static void pi_half_list(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.dir.head = cpu_to_le32(7);
}

static void pi_row_meta(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.reg.row_block = cpu_to_le32(g->data_start - 1);
}

static void pi_row_end(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.reg.row_block = cpu_to_le32(g->blocks_count);
}

static void pi_row_last(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.reg.row_block = cpu_to_le32(g->blocks_count - 1);
}

static void pi_blocks(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_blocks = cpu_to_le32(g->blocks_count);
}

static void pi_one_block(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_blocks = cpu_to_le32(1);
}

static void pi_blocks_0(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_blocks = 0;
}

static void pi_links(struct pram_inode *pi, u16 n)
{
	pi->i_links_count = cpu_to_le16(n);
}

static void pi_links_0(struct pram_inode *pi, const struct pram_geometry *g) { pi_links(pi, 0); }
static void pi_links_1(struct pram_inode *pi, const struct pram_geometry *g) { pi_links(pi, 1); }
static void pi_links_2(struct pram_inode *pi, const struct pram_geometry *g) { pi_links(pi, 2); }
static void pi_links_max(struct pram_inode *pi, const struct pram_geometry *g) { pi_links(pi, 65535); }

static void pi_flags(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_flags = cpu_to_le32(1U << 31);
}

static void pi_xattr(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_xattr = cpu_to_le32(g->data_start);
}

static void pi_size(struct pram_inode *pi, u64 size)
{
	pi->i_size = cpu_to_le64(size);
}

static void pi_size_max(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_size(pi, pram_max_file_size(g->blocksize_bits));
}

static void pi_size_past(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_size(pi, pram_max_file_size(g->blocksize_bits) + 1);
}

static void pi_size_neg(struct pram_inode *pi, const struct pram_geometry *g) { pi_size(pi, -1ULL); }
static void pi_size_10(struct pram_inode *pi, const struct pram_geometry *g) { pi_size(pi, 10); }
static void pi_size_0(struct pram_inode *pi, const struct pram_geometry *g) { pi_size(pi, 0); }

static void pi_size_bs(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_size(pi, g->blocksize);
}

static void pi_no_row(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.reg.row_block = 0;
}

/* A direct block (INCOMPAT_DIRECT), counted in i_blocks. */
static void pi_direct_at(struct pram_inode *pi, u32 block)
{
	pi->i_type.reg.direct = cpu_to_le32(block);
	pi->i_blocks = cpu_to_le32(1);
}

static void pi_direct(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_direct_at(pi, g->data_start + 1);
}

static void pi_direct_last(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_direct_at(pi, g->blocks_count - 1);
}

static void pi_direct_meta(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_direct_at(pi, g->data_start - 1);
}

static void pi_direct_end(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_direct_at(pi, g->blocks_count);
}

static void pi_direct_row(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_direct(pi, g);
	pi->i_type.reg.row_block = cpu_to_le32(g->data_start);
	pi->i_blocks = cpu_to_le32(2);
}

/* The direct block named as the attribute block too. */
static void pi_direct_xattr(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_direct(pi, g);
	pi->i_xattr = pi->i_type.reg.direct;
}

/* The row block (a symlink's target block) named as the attribute block. */
static void pi_row_xattr(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.reg.row_block = cpu_to_le32(g->data_start + 2);
	pi->i_xattr = pi->i_type.reg.row_block;
}

static void pi_direct_0(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_direct(pi, g);
	pi->i_blocks = 0;
}

static void pi_rdev(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.dev.rdev = cpu_to_le32(0x801);
}

static void pi_dev_reserved(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.dev.reserved = cpu_to_le32(1);
}

static void pi_name(struct pram_inode *pi, const char *name, size_t len)
{
	memset(pi->i_name, 0, PRAM_NAME_LEN);
	memcpy(pi->i_name, name, len);
}

static void pi_name_empty(struct pram_inode *pi, const struct pram_geometry *g) { pi_name(pi, "", 0); }
static void pi_name_slash(struct pram_inode *pi, const struct pram_geometry *g) { pi_name(pi, "a/b", 3); }
static void pi_name_nul(struct pram_inode *pi, const struct pram_geometry *g) { pi_name(pi, "ab\0cd", 5); }
static void pi_name_dot(struct pram_inode *pi, const struct pram_geometry *g) { pi_name(pi, ".", 1); }
static void pi_name_dotdot(struct pram_inode *pi, const struct pram_geometry *g) { pi_name(pi, "..", 2); }
static void pi_name_dots(struct pram_inode *pi, const struct pram_geometry *g) { pi_name(pi, "...", 3); }

static void pi_name_full(struct pram_inode *pi, const struct pram_geometry *g)
{
	memset(pi->i_name, 'x', PRAM_NAME_LEN);
}

/* In no list: being made, deleted while open, or its first name gone. */
static void pi_unlisted(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_parent = 0;
	pi_name(pi, "", 0);
}

static void pi_unlisted_named(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_parent = 0;
}

static void pi_unlisted_slash(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_parent = 0;
	pi_name(pi, "a/b", 3);
}

static void pi_long(struct pram_inode *pi, const struct pram_geometry *g);

static void pi_unlisted_long(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_long(pi, g);
	pi->i_parent = 0;
}

/* Long names: the record's part (the records are name_test.c's). */
static void pi_long(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_flags = cpu_to_le32(PRAM_INODE_LONGNAME);
	memset(pi->i_long.l_head, 'h', PRAM_NAME_HEAD);
	pi->i_long.l_rec[0] = cpu_to_le32(TEST_INO + 1);
	pi->i_long.l_rec[1] = cpu_to_le32(TEST_INO + 2);
}

static void pi_long_self(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_long(pi, g);
	pi->i_long.l_rec[1] = cpu_to_le32(TEST_INO);
}

static void pi_long_twice(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_long(pi, g);
	pi->i_long.l_rec[1] = pi->i_long.l_rec[0];
}

static void pi_long_none(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_long(pi, g);
	pi->i_long.l_rec[0] = 0;
}

static void pi_long_nul(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_long(pi, g);
	pi->i_long.l_head[PRAM_NAME_HEAD - 1] = 0;
}

static void pi_long_slash(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_long(pi, g);
	pi->i_long.l_head[3] = '/';
}

/* Link entries: made by make_inode() naming TEST_LINK_TARGET. */
static void pi_link_to(struct pram_inode *pi, u32 target)
{
	pi->i_type.link.ino = cpu_to_le32(target);
}

static void pi_link_self(struct pram_inode *pi, const struct pram_geometry *g) { pi_link_to(pi, TEST_INO); }
static void pi_link_root(struct pram_inode *pi, const struct pram_geometry *g) { pi_link_to(pi, PRAM_ROOT_INO); }

static void pi_link_past(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_link_to(pi, PRAM_ROOT_INO + g->inodes_count);
}

static void pi_link_perm(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_mode = cpu_to_le16(PRAM_S_IFLINK | 0644);
}

static void pi_link_time(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_mtime = cpu_to_le64(1);
}

static void pi_link_reserved(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_type.link.reserved = cpu_to_le32(1);
}

static void pi_link_truncate(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi->i_flags = cpu_to_le32(PRAM_INODE_TRUNCATE);
}

/* The root: a directory named by nothing, its own parent, in no list. */
static void pi_root(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_name(pi, "", 0);
}

static void pi_root_listed(struct pram_inode *pi, const struct pram_geometry *g)
{
	pi_root(pi, g);
	pi->i_next = cpu_to_le32(7);
}

static const struct inode_case inode_cases[] = {
	{ "regular file", S_IFREG | 0644, pi_nothing, 0, false, NULL },
	{ "directory with entries", S_IFDIR | 0755, pi_dir, 0, true, NULL },
	{ "symlink", S_IFLNK | 0777, pi_nothing, 0, false, NULL },
	{ "character device", S_IFCHR | 0600, pi_rdev, 0, true, NULL },
	{ "fifo", S_IFIFO | 0600, pi_nothing, 0, false, NULL },
	{ "row block is the last block", S_IFREG | 0644, pi_row_last, 0, true,
	  NULL },
	{ "free inode", S_IFREG | 0644, pi_free, 0, true, "inode is free" },
	{ "one bit flipped", S_IFREG | 0644, pi_flip, 0, false, "bad checksum" },
	{ "copied to another slot", S_IFREG | 0644, pi_nothing, TEST_INO + 1,
	  false, "bad checksum" },
	{ "inode number 1", S_IFREG | 0644, pi_nothing, 1, false,
	  "inode number out of range" },
	{ "bad file type", S_IFREG | 0644, pi_type, 0, true, "bad file type" },
	{ "next entry past the table", S_IFREG | 0644, pi_next, 0, true,
	  "directory links out of range" },
	{ "parent is the superblock copy", S_IFREG | 0644, pi_parent, 0, true,
	  "directory links out of range" },
	{ "list head without tail: the list scan's to judge", S_IFDIR | 0755,
	  pi_half_list, 0, true, NULL },
	{ "row block in the metadata", S_IFREG | 0644, pi_row_meta, 0, true,
	  "block map out of range" },
	{ "row block past the end", S_IFLNK | 0777, pi_row_end, 0, true,
	  "block map out of range" },
	{ "more blocks than the filesystem", S_IFREG | 0644, pi_blocks, 0, true,
	  "block count out of range" },
	/* Link counts: 2 or more for a directory, 1 for the rest. */
	{ "file without links", S_IFREG | 0644, pi_links_0, 0, true,
	  "bad link count" },
	{ "file with two links", S_IFREG | 0644, pi_links_2, 0, true,
	  "bad link count" },
	{ "directory with one link", S_IFDIR | 0755, pi_links_1, 0, true,
	  "bad link count" },
	{ "directory without links", S_IFDIR | 0755, pi_links_0, 0, true,
	  "bad link count" },
	{ "directory at the link limit", S_IFDIR | 0755, pi_links_max, 0, true,
	  NULL },
	{ "symlink with two links", S_IFLNK | 0777, pi_links_2, 0, true,
	  "bad link count" },
	/* Fields no feature defines yet. */
	{ "unknown inode flag", S_IFREG | 0644, pi_flags, 0, true,
	  "unknown inode flags" },
	{ "xattr block", S_IFREG | 0644, pi_xattr, 0, true,
	  "extended attribute block without the feature" },
	{ "reserved half of a symlink's map", S_IFLNK | 0777, pi_direct, 0,
	  true, "reserved field set" },
	{ "reserved half of a device", S_IFBLK | 0600, pi_dev_reserved, 0, true,
	  "reserved field set" },
	{ "fifo with a device number", S_IFIFO | 0600, pi_rdev, 0, true,
	  "reserved field set" },
	/* Sizes and block counts by type. */
	{ "largest file", S_IFREG | 0644, pi_size_max, 0, true, NULL },
	{ "file past s_maxbytes", S_IFREG | 0644, pi_size_past, 0, true,
	  "size out of range" },
	{ "negative size", S_IFREG | 0644, pi_size_neg, 0, true,
	  "size out of range" },
	{ "file with blocks but no map", S_IFREG | 0644, pi_one_block, 0, true,
	  "block count without a block map" },
	{ "directory with a size", S_IFDIR | 0755, pi_size_10, 0, true,
	  "size out of range" },
	{ "directory with blocks", S_IFDIR | 0755, pi_one_block, 0, true,
	  "block count without a block map" },
	{ "device with a size", S_IFCHR | 0600, pi_size_10, 0, true,
	  "size out of range" },
	{ "empty symlink", S_IFLNK | 0777, pi_size_0, 0, true,
	  "size out of range" },
	{ "symlink of a whole block", S_IFLNK | 0777, pi_size_bs, 0, true,
	  "size out of range" },
	{ "symlink without its block", S_IFLNK | 0777, pi_no_row, 0, true,
	  "block count without a block map" },
	{ "symlink block not counted", S_IFLNK | 0777, pi_blocks_0, 0, true,
	  "symlink block not counted" },
	/* Names. */
	{ "48-byte name", S_IFREG | 0644, pi_name_full, 0, true, NULL },
	{ "name of three dots", S_IFREG | 0644, pi_name_dots, 0, true, NULL },
	{ "empty name", S_IFREG | 0644, pi_name_empty, 0, true, "empty name" },
	{ "name with a slash", S_IFREG | 0644, pi_name_slash, 0, true,
	  "name contains '/'" },
	{ "name with a NUL inside", S_IFREG | 0644, pi_name_nul, 0, true,
	  "name contains NUL" },
	{ "name .", S_IFDIR | 0755, pi_name_dot, 0, true, "name is . or .." },
	{ "name ..", S_IFREG | 0644, pi_name_dotdot, 0, true,
	  "name is . or .." },
	{ "root", S_IFDIR | 0755, pi_root, PRAM_ROOT_INO, true, NULL },
	{ "root in a list", S_IFDIR | 0755, pi_root_listed, PRAM_ROOT_INO, true,
	  "root directory in a list" },
	/* Hard links (PRAM_FEATURE_INCOMPAT_LINKS). */
	{ "file with two links, links feature", S_IFREG | 0644, pi_links_2, 0,
	  true, NULL, LINKS },
	{ "file at the link limit", S_IFREG | 0644, pi_links_max, 0, true, NULL,
	  LINKS },
	{ "file without links, links feature", S_IFREG | 0644, pi_links_0, 0,
	  true, "bad link count", LINKS },
	{ "symlink with two links, links feature", S_IFLNK | 0777, pi_links_2,
	  0, true, NULL, LINKS },
	{ "link entry", PRAM_S_IFLINK, pi_nothing, 0, true, NULL, LINKS },
	{ "link entry without the feature", PRAM_S_IFLINK, pi_nothing, 0, true,
	  "link entry without the feature" },
	{ "link entry naming itself", PRAM_S_IFLINK, pi_link_self, 0, true,
	  "link to an inode out of range", LINKS },
	{ "link entry naming the root", PRAM_S_IFLINK, pi_link_root, 0, true,
	  "link to an inode out of range", LINKS },
	{ "link entry naming past the table", PRAM_S_IFLINK, pi_link_past, 0,
	  true, "link to an inode out of range", LINKS },
	{ "link entry with permission bits", PRAM_S_IFLINK, pi_link_perm, 0,
	  true, "bad file type", LINKS },
	{ "link entry with a link count", PRAM_S_IFLINK, pi_links_1, 0, true,
	  "reserved field set", LINKS },
	{ "link entry with a time", PRAM_S_IFLINK, pi_link_time, 0, true,
	  "reserved field set", LINKS },
	{ "link entry with its reserved word", PRAM_S_IFLINK, pi_link_reserved,
	  0, true, "reserved field set", LINKS },
	{ "link entry marked truncating", PRAM_S_IFLINK, pi_link_truncate, 0,
	  true, "unknown inode flags", LINKS },
	{ "link entry with a slash in its name", PRAM_S_IFLINK, pi_name_slash,
	  0, true, "name contains '/'", LINKS },
	{ "link entry with a long name", PRAM_S_IFLINK, pi_long, 0, true, NULL,
	  LINKS | LONGNAMES },
	/* Long names (PRAM_FEATURE_INCOMPAT_LONGNAMES), the record's part. */
	{ "long name", S_IFREG | 0644, pi_long, 0, true, NULL, LONGNAMES },
	{ "long name without the feature", S_IFREG | 0644, pi_long, 0, true,
	  "long name without the feature" },
	{ "long name in its own slot", S_IFREG | 0644, pi_long_self, 0, true,
	  "name records out of range", LONGNAMES },
	{ "long name's record twice", S_IFREG | 0644, pi_long_twice, 0, true,
	  "name records out of range", LONGNAMES },
	{ "long name without records", S_IFREG | 0644, pi_long_none, 0, true,
	  "name records out of range", LONGNAMES },
	{ "long name's head with a NUL", S_IFREG | 0644, pi_long_nul, 0, true,
	  "name contains NUL", LONGNAMES },
	{ "long name's head with a slash", S_IFREG | 0644, pi_long_slash, 0,
	  true, "name contains '/'", LONGNAMES },
	{ "root with a long name", S_IFDIR | 0755, pi_long, PRAM_ROOT_INO, true,
	  "root directory in a list", LONGNAMES },
	/* Direct blocks (PRAM_FEATURE_INCOMPAT_DIRECT): regular files only. */
	{ "direct block", S_IFREG | 0644, pi_direct, 0, true, NULL, DIRECT },
	{ "direct block is the last block", S_IFREG | 0644, pi_direct_last, 0,
	  true, NULL, DIRECT },
	{ "direct block, not counted: the map check's to judge", S_IFREG | 0644,
	  pi_direct_0, 0, true, NULL, DIRECT },
	{ "direct block without the feature", S_IFREG | 0644, pi_direct, 0,
	  true, "direct block without the feature" },
	{ "direct block and a row block", S_IFREG | 0644, pi_direct_row, 0,
	  true, "both a block map and a direct block", DIRECT },
	{ "direct block in the metadata", S_IFREG | 0644, pi_direct_meta, 0,
	  true, "block map out of range", DIRECT },
	{ "direct block past the end", S_IFREG | 0644, pi_direct_end, 0, true,
	  "block map out of range", DIRECT },
	{ "symlink with a direct block, direct feature", S_IFLNK | 0777,
	  pi_direct, 0, true, "reserved field set", DIRECT },
	{ "direct block that is the attribute block", S_IFREG | 0644,
	  pi_direct_xattr, 0, true, "attribute block is a block of the file",
	  DIRECT | PRAM_FEATURE_INCOMPAT_XATTR },
	{ "row block that is the attribute block", S_IFREG | 0644,
	  pi_row_xattr, 0, true, "attribute block is a block of the file",
	  PRAM_FEATURE_INCOMPAT_XATTR },
	{ "symlink block that is the attribute block", S_IFLNK | 0777,
	  pi_row_xattr, 0, true, "attribute block is a block of the file",
	  PRAM_FEATURE_INCOMPAT_XATTR },
	/* The other types' halves of i_type are not a map. */
	{ "directory with entries, direct feature", S_IFDIR | 0755, pi_dir, 0,
	  true, NULL, DIRECT },
	/* An inode in no list has no name, or, deleted, a short one. */
	{ "in no list, no name", S_IFREG | 0644, pi_unlisted, 0, true, NULL },
	{ "in no list, a short name", S_IFREG | 0644, pi_unlisted_named, 0, true,
	  NULL },
	{ "in no list, a bad short name", S_IFREG | 0644, pi_unlisted_slash, 0,
	  true, "name contains '/'" },
	{ "in no list, a long name", S_IFREG | 0644, pi_unlisted_long, 0, true,
	  "long name on an inode in no directory", LONGNAMES },
};

static void inode_desc(const struct inode_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(inode, inode_cases, inode_desc);

/* A valid in-use inode of type @mode, entry "entry" of the root. */
static void make_inode(struct pram_inode *pi, umode_t mode,
		       const struct pram_geometry *g)
{
	pi->i_mode = cpu_to_le16(mode);
	pi->i_parent = cpu_to_le32(PRAM_ROOT_INO);
	if (pram_mode_is_link(mode))
		pi->i_type.link.ino = cpu_to_le32(TEST_LINK_TARGET);
	else
		pi->i_links_count = cpu_to_le16(S_ISDIR(mode) ? 2 : 1);
	strscpy(pi->i_name, "entry", PRAM_NAME_LEN);
	if (S_ISLNK(mode)) {
		pi->i_type.reg.row_block = cpu_to_le32(g->data_start);
		pi->i_blocks = cpu_to_le32(1);
		pi->i_size = cpu_to_le64(TEST_TARGET);
	}
	pi->i_csum = cpu_to_le32(pram_inode_csum(pi, TEST_INO));
}

static void inode_test(struct kunit *test)
{
	const struct inode_case *c = test->param_value;
	u32 ino = c->check_ino ?: TEST_INO;
	struct pram_geometry g;
	struct pram_inode *pi;
	const char *why = NULL;
	int err;

	pi = kunit_kzalloc(test, sizeof(*pi), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pi);
	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&g, MiB, 1024, 0, 0, false, &why), 0);
	g.incompat |= c->incompat;
	make_inode(pi, c->mode, &g);
	c->mutate(pi, &g);
	if (c->resum)
		pi->i_csum = cpu_to_le32(pram_inode_csum(pi, ino));

	err = pram_inode_check(pi, ino, &g, &why);
	if (!c->why) {
		KUNIT_EXPECT_EQ_MSG(test, err, 0, "refused: %s", why);
		return;
	}
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, c->why);
}

/* Deleted (freed at the next mount): an inode with no links in no list. */
static void inode_deleted_test(struct kunit *test)
{
	static const struct {
		const char *name;
		u16 mode, links;
		u32 parent, head;
		bool deleted;
	} cases[] = {
		{ "file, no links, no parent", S_IFREG | 0644, 0, 0, 0, true },
		{ "file, a link left", S_IFREG | 0644, 1, 0, 0, false },
		{ "file in a list", S_IFREG | 0644, 0, 7, 0, false },
		{ "directory still holding entries", S_IFDIR | 0755, 0, 0, 9, false },
		{ "link entry in no list", PRAM_S_IFLINK, 0, 0, 0, false },
		{ "name record", PRAM_S_IFNAME, 0, 0, 0, false },
		{ "free slot", 0, 0, 0, 0, false },
	};
	struct pram_inode *pi = kunit_kzalloc(test, sizeof(*pi), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, pi);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(pi, 0, sizeof(*pi));
		pi->i_mode = cpu_to_le16(cases[i].mode);
		pi->i_links_count = cpu_to_le16(cases[i].links);
		pi->i_parent = cpu_to_le32(cases[i].parent);
		pi->i_type.dir.head = cpu_to_le32(cases[i].head);
		KUNIT_EXPECT_EQ_MSG(test, pram_inode_deleted(pi), cases[i].deleted,
				    "%s", cases[i].name);
	}
}

/* ---- pramfs_time ---- */

struct time_case {
	const char *name;
	s64 sec;
	long nsec;
	s64 want_sec;
	long want_nsec;
};

static const struct time_case time_cases[] = {
	{ "epoch", 0, 0, 0, 0 },
	{ "nanoseconds kept", 1700000000, 999999999, 1700000000, 999999999 },
	{ "past 2038", 1LL << 31, 1, 1LL << 31, 1 },
	{ "year 2200", 7258118400LL, 500, 7258118400LL, 500 },
	{ "before 1970", -1, 5, -1, 5 },
	{ "latest", PRAM_TIME_MAX, 123, PRAM_TIME_MAX, 123 },
	{ "earliest", PRAM_TIME_MIN, 0, PRAM_TIME_MIN, 0 },
	{ "too late clamps", 1LL << 40, 7, PRAM_TIME_MAX, 999999999 },
	{ "too early clamps", -(1LL << 40), 7, PRAM_TIME_MIN, 0 },
};

static void time_desc(const struct time_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(time, time_cases, time_desc);

static void time_test(struct kunit *test)
{
	const struct time_case *c = test->param_value;
	struct timespec64 ts = { .tv_sec = c->sec, .tv_nsec = c->nsec };

	ts = pram_time_unpack(pram_time_pack(ts));
	KUNIT_EXPECT_EQ(test, ts.tv_sec, c->want_sec);
	KUNIT_EXPECT_EQ(test, ts.tv_nsec, c->want_nsec);
}

/* A stored nanosecond field past 999999999 is corruption: read as 0. */
static void time_bad_nsec_test(struct kunit *test)
{
	__le64 t = cpu_to_le64((5ULL << PRAM_TIME_NSEC_BITS) | 1000000000ULL);
	struct timespec64 ts = pram_time_unpack(t);

	KUNIT_EXPECT_EQ(test, ts.tv_sec, 5);
	KUNIT_EXPECT_EQ(test, ts.tv_nsec, 0);
}

static struct kunit_case pramfs_geometry_cases[] = {
	KUNIT_CASE_PARAM(geometry_test, geometry_gen_params),
	{}
};

static struct kunit_case pramfs_super_cases[] = {
	KUNIT_CASE_PARAM(super_test, super_gen_params),
	KUNIT_CASE(super_csum_covers_every_byte),
	KUNIT_CASE(feature_names_test),
	{}
};

static struct kunit_case pramfs_inode_cases[] = {
	KUNIT_CASE_PARAM(inode_test, inode_gen_params),
	KUNIT_CASE(inode_deleted_test),
	{}
};

static struct kunit_case pramfs_time_cases[] = {
	KUNIT_CASE_PARAM(time_test, time_gen_params),
	KUNIT_CASE(time_bad_nsec_test),
	{}
};

static struct kunit_suite pramfs_geometry_suite = {
	.name = "pramfs_geometry",
	.test_cases = pramfs_geometry_cases,
};

static struct kunit_suite pramfs_super_suite = {
	.name = "pramfs_super",
	.test_cases = pramfs_super_cases,
};

static struct kunit_suite pramfs_inode_suite = {
	.name = "pramfs_inode",
	.test_cases = pramfs_inode_cases,
};

static struct kunit_suite pramfs_time_suite = {
	.name = "pramfs_time",
	.test_cases = pramfs_time_cases,
};

kunit_test_suites(&pramfs_geometry_suite, &pramfs_super_suite,
		  &pramfs_inode_suite, &pramfs_time_suite);

MODULE_DESCRIPTION("KUnit tests for the PRAMFS layout code");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
