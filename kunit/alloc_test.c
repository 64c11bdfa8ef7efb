// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the PRAMFS allocators: the block bitmap and the
 * free-inode search, on buffers laid out as the NVRAM would be.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/stat.h>
#include "format.h"

#define MiB	(1024 * 1024ULL)

/* A bitmap for a filesystem of @size bytes with block size @bs. */
static void *make_bitmap(struct kunit *test, struct pram_geometry *g,
			 u64 size, u32 bs)
{
	const char *why;
	void *bitmap;

	KUNIT_ASSERT_EQ(test, pram_geometry_compute(g, size, bs, 0, 0, false, &why), 0);
	bitmap = kunit_kzalloc(test, (size_t)g->bitmap_blocks * bs, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bitmap);
	pram_bitmap_format(bitmap, g);
	return bitmap;
}

/* ---- pramfs_bitmap: a fresh bitmap, for each block size ---- */

struct format_case {
	const char *name;
	u64 size;
	u32 bs;
};

static const struct format_case format_cases[] = {
	{ "bs=512", MiB, 512 },
	{ "bs=1024", MiB, 1024 },
	{ "bs=2048", MiB, 2048 },
	{ "bs=4096", MiB, 4096 },
	{ "bitmap spanning 32 blocks", 64 * MiB, 512 },
	{ "size not a multiple of bs", MiB + 1000, 4096 },
	{ "minimum filesystem", 1536, 512 },
};

static void format_desc(const struct format_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(format, format_cases, format_desc);

static void format_test(struct kunit *test)
{
	const struct format_case *c = test->param_value;
	struct pram_geometry g;
	void *bitmap = make_bitmap(test, &g, c->size, c->bs);
	u64 nbits = (u64)g.bitmap_blocks * c->bs * 8;

	/* Metadata used, data free, padding past the end used. */
	KUNIT_EXPECT_TRUE(test, test_bit_le(0, bitmap));
	KUNIT_EXPECT_TRUE(test, test_bit_le(g.data_start - 1, bitmap));
	KUNIT_EXPECT_FALSE(test, test_bit_le(g.data_start, bitmap));
	KUNIT_EXPECT_FALSE(test, test_bit_le(g.blocks_count - 1, bitmap));
	if (nbits > g.blocks_count) {
		KUNIT_EXPECT_TRUE(test, test_bit_le(g.blocks_count, bitmap));
		KUNIT_EXPECT_TRUE(test, test_bit_le(nbits - 1, bitmap));
	}
	KUNIT_EXPECT_EQ(test, pram_bitmap_count_free(bitmap, &g),
			g.blocks_count - g.data_start);
}

/* ---- pramfs_bitmap: counting free blocks ---- */

enum fill { FILL_NONE, FILL_ALL, FILL_EVERY_THIRD, FILL_RANDOM };

struct count_case {
	const char *name;
	u64 size;
	u32 bs;
	enum fill fill;		/* which data blocks are taken */
};

static const struct count_case count_cases[] = {
	{ "empty, 1 GiB", 1024 * MiB, 4096, FILL_NONE },
	{ "full, 1 GiB", 1024 * MiB, 4096, FILL_ALL },
	{ "every third, bs=512", 3 * MiB + 512, 512, FILL_EVERY_THIRD },
	{ "random, bs=1024", 5 * MiB + 3072, 1024, FILL_RANDOM },
	{ "random, bs=4096", 70 * MiB + 4096, 4096, FILL_RANDOM },
	{ "random, minimum filesystem", 1536, 512, FILL_RANDOM },
};

static void count_desc(const struct count_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(count, count_cases, count_desc);

/* The word-wise count against one bit at a time. */
static void count_test(struct kunit *test)
{
	const struct count_case *c = test->param_value;
	struct pram_geometry g;
	void *bitmap = make_bitmap(test, &g, c->size, c->bs);
	u32 b, free = 0, seed = 12345;

	for (b = g.data_start; b < g.blocks_count; b++) {
		seed = seed * 1103515245 + 12345;
		if (c->fill == FILL_ALL ||
		    (c->fill == FILL_EVERY_THIRD && b % 3 == 0) ||
		    (c->fill == FILL_RANDOM && (seed >> 16) & 1))
			__set_bit_le(b, bitmap);
		else
			free++;
	}
	KUNIT_EXPECT_EQ(test, pram_bitmap_count_free(bitmap, &g), free);
}

/* ---- pramfs_bitmap: allocation scenarios ---- */

/* Block positions relative to the first data block, or from the end. */
#define FIRST(n)	(n)
#define LAST(n)		(-1 - (n))
#define NONE		S32_MIN		/* block 0, the superblock's */
#define PAST_END	S32_MAX		/* blocks_count */

struct alloc_case {
	const char *name;
	u32 bs;
	s32 used_from, used_to;	/* data blocks taken before the call */
	s32 hint;		/* NONE: an invalid hint (block 0) */
	int err;
	s32 want;
};

static const struct alloc_case alloc_cases[] = {
	{ "empty: first data block", 1024, NONE, NONE, FIRST(0), 0, FIRST(0) },
	{ "hint in the metadata", 1024, NONE, NONE, NONE, 0, FIRST(0) },
	{ "hint honoured", 1024, NONE, NONE, FIRST(10), 0, FIRST(10) },
	{ "skips used blocks", 512, FIRST(0), FIRST(99), FIRST(0), 0, FIRST(100) },
	{ "last block", 4096, FIRST(0), LAST(1), FIRST(0), 0, LAST(0) },
	{ "wraps round to the start", 2048, FIRST(5), LAST(0), FIRST(7), 0,
	  FIRST(0) },
	{ "full bitmap", 1024, FIRST(0), LAST(0), FIRST(3), -ENOSPC, 0 },
	{ "full, hint at the last block", 512, FIRST(0), LAST(0), LAST(0),
	  -ENOSPC, 0 },
};

static void alloc_desc(const struct alloc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(alloc, alloc_cases, alloc_desc);

static u32 to_block(const struct pram_geometry *g, s32 pos)
{
	if (pos == NONE)
		return 0;
	if (pos == PAST_END)
		return g->blocks_count;
	return pos >= 0 ? g->data_start + pos : g->blocks_count + pos;
}

static void alloc_test(struct kunit *test)
{
	const struct alloc_case *c = test->param_value;
	struct pram_geometry g;
	void *bitmap = make_bitmap(test, &g, MiB, c->bs);
	u32 b, free_before, found = 0, got = 0;

	if (c->used_from != NONE)
		for (b = to_block(&g, c->used_from); b <= to_block(&g, c->used_to); b++)
			__set_bit_le(b, bitmap);
	free_before = pram_bitmap_count_free(bitmap, &g);

	/* Finding does not take the block; allocating takes the one found. */
	KUNIT_ASSERT_EQ(test, pram_bitmap_find_free(bitmap, &g,
						    to_block(&g, c->hint), &found),
			c->err);
	KUNIT_EXPECT_EQ(test, pram_bitmap_count_free(bitmap, &g), free_before);
	KUNIT_ASSERT_EQ(test, pram_bitmap_alloc(bitmap, &g, to_block(&g, c->hint),
						&got), c->err);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, pram_bitmap_count_free(bitmap, &g), free_before);
		return;
	}
	KUNIT_EXPECT_EQ(test, got, to_block(&g, c->want));
	KUNIT_EXPECT_EQ(test, found, got);
	KUNIT_EXPECT_TRUE(test, test_bit_le(got, bitmap));
	KUNIT_EXPECT_EQ(test, pram_bitmap_count_free(bitmap, &g), free_before - 1);
}

/* ---- pramfs_bitmap: freeing ---- */

struct free_case {
	const char *name;
	s32 block;		/* relative, as above */
	bool allocated;		/* allocate it first */
	int err;
};

static const struct free_case free_cases[] = {
	{ "allocated block", FIRST(3), true, 0 },
	{ "last block", LAST(0), true, 0 },
	{ "already free", FIRST(3), false, -EUCLEAN },
	{ "metadata block", FIRST(-1), false, -EUCLEAN },
	{ "superblock's block", NONE, false, -EUCLEAN },
	{ "past the end", PAST_END, false, -EUCLEAN },
};

static void free_desc(const struct free_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(free, free_cases, free_desc);

static void free_test(struct kunit *test)
{
	const struct free_case *c = test->param_value;
	struct pram_geometry g;
	void *bitmap = make_bitmap(test, &g, MiB, 1024);
	u32 block = to_block(&g, c->block), got, free_before;

	if (c->allocated) {
		KUNIT_ASSERT_EQ(test, pram_bitmap_alloc(bitmap, &g, block, &got), 0);
		KUNIT_ASSERT_EQ(test, got, block);
	}
	free_before = pram_bitmap_count_free(bitmap, &g);
	KUNIT_EXPECT_EQ(test, pram_bitmap_free(bitmap, &g, block), c->err);
	KUNIT_EXPECT_EQ(test, pram_bitmap_count_free(bitmap, &g),
			free_before + (c->err ? 0 : 1));
	/* Metadata stays allocated whatever was asked. */
	KUNIT_EXPECT_TRUE(test, test_bit_le(g.data_start - 1, bitmap));
}

/* Allocating every block and freeing them all gives the start back. */
static void alloc_all_and_back(struct kunit *test)
{
	struct pram_geometry g;
	void *bitmap = make_bitmap(test, &g, MiB, 4096);
	u32 total = pram_bitmap_count_free(bitmap, &g), i, b;

	for (i = 0; i < total; i++)
		KUNIT_ASSERT_EQ(test, pram_bitmap_alloc(bitmap, &g, 0, &b), 0);
	KUNIT_EXPECT_EQ(test, pram_bitmap_alloc(bitmap, &g, 0, &b), -ENOSPC);
	for (b = g.data_start; b < g.blocks_count; b++)
		KUNIT_ASSERT_EQ(test, pram_bitmap_free(bitmap, &g, b), 0);
	KUNIT_EXPECT_EQ(test, pram_bitmap_count_free(bitmap, &g), total);
}

/* ---- pramfs_itable ---- */

struct itable_case {
	const char *name;
	u32 used_from, used_to;	/* inode numbers in use besides the root */
	u32 hint;
	int err;
	u32 want;
	u32 free;		/* what pram_itable_count_free() finds */
};

/* 1M at bs=4096, N=100: 126 inodes, numbers 2 to 127. */
static const struct itable_case itable_cases[] = {
	{ "empty: after the root", 0, 0, 3, 0, 3, 125 },
	{ "hint is the root", 0, 0, 2, 0, 3, 125 },
	{ "hint honoured", 0, 0, 50, 0, 50, 125 },
	{ "skips used inodes", 3, 60, 3, 0, 61, 67 },
	{ "last inode", 3, 126, 3, 0, 127, 1 },
	{ "wraps round", 40, 127, 41, 0, 3, 37 },
	{ "hint out of range", 0, 0, 128, 0, 3, 125 },
	{ "hint is a superblock", 0, 0, 1, 0, 3, 125 },
	{ "full table", 3, 127, 9, -ENOSPC, 0, 0 },
};

static void itable_desc(const struct itable_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(itable, itable_cases, itable_desc);

static void itable_test(struct kunit *test)
{
	const struct itable_case *c = test->param_value;
	struct pram_inode *itable;
	struct pram_geometry g;
	const char *why;
	u32 ino, got = 0;

	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&g, MiB, 4096, 0, 100, false, &why), 0);
	KUNIT_ASSERT_EQ(test, g.inodes_count, 126);
	itable = kunit_kcalloc(test, g.inodes_count, sizeof(*itable), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, itable);
	itable[0].i_mode = cpu_to_le16(S_IFDIR | 0755);
	for (ino = c->used_from; ino && ino <= c->used_to; ino++)
		itable[ino - PRAM_ROOT_INO].i_mode = cpu_to_le16(S_IFREG | 0644);

	KUNIT_ASSERT_EQ(test, pram_itable_find_free(itable, &g, c->hint, &got),
			c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, got, c->want);
	KUNIT_EXPECT_EQ(test, pram_itable_count_free(itable, &g), c->free);
}

/*
 * ---- pramfs_hint: where the next search starts ----
 *
 * A hint read from NVRAM that is out of range, and the hint after the
 * last inode or block, start again at the beginning: a hint stored one
 * past the end once made a full filesystem unmountable.
 */
struct hint_case {
	const char *name;
	bool block;		/* a block hint, else an inode hint */
	u32 hint, want;
};

/* 1M at bs=4096, N=100: inodes 2 to 127, data blocks 5 to 255. */
static const struct hint_case hint_cases[] = {
	{ "inode in range", false, 50, 50 },
	{ "the last inode", false, 127, 127 },
	{ "one past the last inode", false, 128, PRAM_ROOT_INO },
	{ "inode 0", false, 0, PRAM_ROOT_INO },
	{ "inode ~0", false, U32_MAX, PRAM_ROOT_INO },
	{ "block in range", true, 100, 100 },
	{ "the last block", true, 255, 255 },
	{ "one past the last block", true, 256, 5 },
	{ "a metadata block", true, 4, 5 },
	{ "block 0", true, 0, 5 },
};

static void hint_desc(const struct hint_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(hint, hint_cases, hint_desc);

static void hint_test(struct kunit *test)
{
	const struct hint_case *c = test->param_value;
	struct pram_geometry g;
	const char *why;

	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&g, MiB, 4096, 0, 100, false, &why), 0);
	KUNIT_ASSERT_EQ(test, g.data_start, 5);
	KUNIT_EXPECT_EQ(test, c->block ? pram_block_hint(&g, c->hint) :
			pram_ino_hint(&g, c->hint), c->want);
}

/*
 * ---- pramfs_bitmap: the span of a column's bits (pram_bitmap_span()) ----
 *
 * 1M at bs=4096: data blocks 5 to 255, 8-byte words of 64 bits.
 */
struct span_case {
	const char *name;
	u32 map[4];		/* the map block's entries */
	u32 self;		/* the map block */
	u32 first, len;		/* the span in bytes */
};

static const struct span_case span_cases[] = {
	{ "map block alone", { 0, 0, 0, 0 }, 100, 8, 8 },
	{ "one word", { 64, 65, 0, 127 }, 100, 8, 8 },
	{ "an entry below", { 5 }, 100, 0, 16 },
	{ "an entry above", { 200 }, 6, 0, 32 },
	{ "metadata and past the end left out", { 4, 256, 0, U32_MAX }, 70, 8, 8 },
	{ "the last block", { 255, 5 }, 128, 0, 32 },
};

static void span_desc(const struct span_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(span, span_cases, span_desc);

static void span_test(struct kunit *test)
{
	const struct span_case *c = test->param_value;
	struct pram_geometry g;
	const char *why;
	__le32 map[ARRAY_SIZE(c->map)];
	u32 first = U32_MAX, i;

	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&g, MiB, 4096, 0, 100, false, &why), 0);
	KUNIT_ASSERT_EQ(test, g.data_start, 5);
	KUNIT_ASSERT_EQ(test, g.blocks_count, 256);
	for (i = 0; i < ARRAY_SIZE(map); i++)
		map[i] = cpu_to_le32(c->map[i]);
	KUNIT_EXPECT_EQ(test, pram_bitmap_span(&g, map, ARRAY_SIZE(map),
					       c->self, &first), c->len);
	KUNIT_EXPECT_EQ(test, first, c->first);
}

static struct kunit_case pramfs_bitmap_cases[] = {
	KUNIT_CASE_PARAM(format_test, format_gen_params),
	KUNIT_CASE_PARAM(count_test, count_gen_params),
	KUNIT_CASE_PARAM(alloc_test, alloc_gen_params),
	KUNIT_CASE_PARAM(free_test, free_gen_params),
	KUNIT_CASE(alloc_all_and_back),
	KUNIT_CASE_PARAM(span_test, span_gen_params),
	{}
};

static struct kunit_case pramfs_itable_cases[] = {
	KUNIT_CASE_PARAM(itable_test, itable_gen_params),
	KUNIT_CASE_PARAM(hint_test, hint_gen_params),
	{}
};

static struct kunit_suite pramfs_bitmap_suite = {
	.name = "pramfs_bitmap",
	.test_cases = pramfs_bitmap_cases,
};

static struct kunit_suite pramfs_itable_suite = {
	.name = "pramfs_itable",
	.test_cases = pramfs_itable_cases,
};

kunit_test_suites(&pramfs_bitmap_suite, &pramfs_itable_suite);
