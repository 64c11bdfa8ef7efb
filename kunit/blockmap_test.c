// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the PRAMFS block map arithmetic: the largest file per
 * block size, where a file block sits in the row/column map, and which
 * blocks a byte range or a file size covers, blocks per page and the
 * pages a read fault maps; and lookups and hole/data
 * searches over a small block map built in memory, and the same through
 * a file's record, whose direct block may stand for the map.
 */
#include <kunit/test.h>
#include "format.h"

/* ---- pramfs_blockmap: per block size ---- */

struct size_case {
	u32 bits;
	u32 entries;
	u64 max_size;
};

static const struct size_case size_cases[] = {
	{ 9, 128, 8ULL << 20 },		/* 128^2 blocks of 512 */
	{ 10, 256, 64ULL << 20 },
	{ 11, 512, 512ULL << 20 },
	{ 12, 1024, 4ULL << 30 },
};

/* Blocks per 4 KiB page: only bs=4096 maps the NVRAM itself. */
static const u32 page_blocks[] = { 8, 4, 2, 1 };

static void size_desc(const struct size_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "bs=%u", 1U << c->bits);
}
KUNIT_ARRAY_PARAM(size, size_cases, size_desc);

static void max_size_test(struct kunit *test)
{
	const struct size_case *c = test->param_value;
	u64 last = (u64)c->entries * c->entries - 1;
	u32 row, col;

	KUNIT_EXPECT_EQ(test, pram_map_entries(c->bits), c->entries);
	KUNIT_EXPECT_EQ(test, pram_max_file_size(c->bits), c->max_size);
	/* The last block of the largest file is the map's last entry... */
	KUNIT_ASSERT_EQ(test, pram_map_index(c->bits, last, &row, &col), 0);
	KUNIT_EXPECT_EQ(test, row, c->entries - 1);
	KUNIT_EXPECT_EQ(test, col, c->entries - 1);
	/* ...and the one after it is past the largest file. */
	KUNIT_EXPECT_EQ(test, pram_map_index(c->bits, last + 1, &row, &col),
			-EFBIG);
	KUNIT_EXPECT_EQ(test, pram_blocks_for_size(c->bits, c->max_size),
			last + 1);
	KUNIT_EXPECT_EQ(test, pram_page_blocks(c->bits),
			page_blocks[c->bits - 9]);
}

/* ---- pramfs_blockmap: indexing ---- */

struct index_case {
	const char *name;
	u32 bits;
	u64 fblock;
	int err;
	u32 row, col;
};

static const struct index_case index_cases[] = {
	{ "first block", 12, 0, 0, 0, 0 },
	{ "end of the first column", 12, 1023, 0, 0, 1023 },
	{ "start of the second column", 12, 1024, 0, 1, 0 },
	{ "middle, bs=512", 9, 128 * 5 + 7, 0, 5, 7 },
	{ "middle, bs=2048", 11, 512 * 300 + 511, 0, 300, 511 },
	{ "far past the end", 10, 1ULL << 40, -EFBIG },
};

static void index_desc(const struct index_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(index, index_cases, index_desc);

static void index_test(struct kunit *test)
{
	const struct index_case *c = test->param_value;
	u32 row = 0, col = 0;

	KUNIT_ASSERT_EQ(test, pram_map_index(c->bits, c->fblock, &row, &col),
			c->err);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, row, c->row);
	KUNIT_EXPECT_EQ(test, col, c->col);
}

/* ---- pramfs_blockmap: byte ranges and sizes ---- */

struct range_case {
	const char *name;
	u32 bits;
	u64 pos, len;
	u64 count, first, last;
};

static const struct range_case range_cases[] = {
	{ "empty", 12, 100, 0, 0 },
	{ "one byte", 12, 4095, 1, 1, 0, 0 },
	{ "whole block", 12, 4096, 4096, 1, 1, 1 },
	{ "straddles a boundary", 12, 4095, 2, 2, 0, 1 },
	{ "unaligned, bs=512", 9, 700, 1000, 3, 1, 3 },
	{ "beyond 4 GiB", 12, 5ULL << 30, 8192, 2, 1310720, 1310721 },
};

static void range_desc(const struct range_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(range, range_cases, range_desc);

static void range_test(struct kunit *test)
{
	const struct range_case *c = test->param_value;
	u64 first = 0, last = 0;

	KUNIT_ASSERT_EQ(test, pram_block_range(c->bits, c->pos, c->len,
					       &first, &last), c->count);
	if (!c->count)
		return;
	KUNIT_EXPECT_EQ(test, first, c->first);
	KUNIT_EXPECT_EQ(test, last, c->last);
}

struct blocks_case {
	u32 bits;
	u64 size, blocks;
};

static const struct blocks_case blocks_cases[] = {
	{ 12, 0, 0 }, { 12, 1, 1 }, { 12, 4096, 1 }, { 12, 4097, 2 },
	{ 9, 512 * 10, 10 }, { 9, 512 * 10 + 1, 11 },
};

static void blocks_desc(const struct blocks_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "size %llu at bs=%u",
		 c->size, 1U << c->bits);
}
KUNIT_ARRAY_PARAM(blocks, blocks_cases, blocks_desc);

static void blocks_for_size_test(struct kunit *test)
{
	const struct blocks_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, pram_blocks_for_size(c->bits, c->size), c->blocks);
}

/* ---- pramfs_blockmap: the pages a read fault maps ---- */

struct window_case {
	const char *name;
	pgoff_t pgoff, first, last;	/* in: mappable pages [first, last) */
	bool more;			/* pages besides pgoff */
	pgoff_t wfirst, wlast;		/* out, when more */
};

static const struct window_case window_cases[] = {
	{ "whole group", 5, 0, 100, true, 0, 16 },
	{ "group start", 16, 0, 100, true, 16, 32 },
	{ "group end", 31, 0, 100, true, 16, 32 },
	{ "cut by the mapping's start", 20, 18, 100, true, 18, 32 },
	{ "cut by the size", 33, 0, 35, true, 32, 35 },
	{ "cut both ways", 40, 39, 42, true, 39, 42 },
	{ "one page left", 47, 47, 100, false },
	{ "only page of the file", 0, 0, 1, false },
	{ "past the size", 35, 0, 35, false },
	{ "before the mapping", 3, 4, 100, false },
};

static void window_desc(const struct window_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(window, window_cases, window_desc);

static void fault_window_test(struct kunit *test)
{
	const struct window_case *c = test->param_value;
	pgoff_t first = c->first, last = c->last;

	KUNIT_ASSERT_EQ(test, pram_fault_window(c->pgoff, &first, &last),
			c->more);
	if (!c->more)
		return;
	KUNIT_EXPECT_EQ(test, first, c->wfirst);
	KUNIT_EXPECT_EQ(test, last, c->wlast);
	KUNIT_EXPECT_LE(test, last - first, PRAM_FAULT_AROUND);
}

static struct kunit_case pramfs_blockmap_cases[] = {
	KUNIT_CASE_PARAM(max_size_test, size_gen_params),
	KUNIT_CASE_PARAM(index_test, index_gen_params),
	KUNIT_CASE_PARAM(range_test, range_gen_params),
	KUNIT_CASE_PARAM(blocks_for_size_test, blocks_gen_params),
	KUNIT_CASE_PARAM(fault_window_test, window_gen_params),
	{}
};

static struct kunit_suite pramfs_blockmap_suite = {
	.name = "pramfs_blockmap",
	.test_cases = pramfs_blockmap_cases,
};

/*
 * ---- pramfs_map: lookups and seeks over a map in memory ----
 *
 * A 16-block image at 512 bytes a block (128 entries per map block),
 * data from block 2. Block 3 is the row block; it names column 4 for
 * file blocks 0-127, column 5 for 256-383, and block 99 (outside the
 * image) for 640-767. File blocks 1, 2, 127 and 256 are mapped; column
 * 5 names the metadata block 1 for file block 320.
 */
#define MAP_BITS	9
#define MAP_ROW		3
#define MAP_BAD_ROW	5	/* its column is block 99 */
#define MAP_ALL		(128 * 128)

static const struct pram_geometry map_geo = {
	.size = 16 << MAP_BITS, .blocksize = 1 << MAP_BITS,
	.blocksize_bits = MAP_BITS, .blocks_count = 16, .data_start = 2,
};

static void map_set(void *image, u32 block, u32 idx, u32 value)
{
	__le32 *map = image + ((size_t)block << MAP_BITS);

	map[idx] = cpu_to_le32(value);
}

/*
 * A regular file's record, for the pram_file_*() helpers: its row block,
 * or its direct block (file block 0; every other one a hole).
 */
#define FILE_DIRECT	10	/* a data block no map of map_image() names */
#define FILE_LAST	15	/* the image's last block */
#define FILE_META	1	/* bad: metadata */
#define FILE_PAST	16	/* bad: one past the image */

static struct pram_inode *file_record(struct kunit *test, u32 row, u32 direct)
{
	struct pram_inode *pi = kunit_kzalloc(test, sizeof(*pi), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pi);
	pi->i_mode = cpu_to_le16(S_IFREG | 0644);
	pi->i_type.reg.row_block = cpu_to_le32(row);
	pi->i_type.reg.direct = cpu_to_le32(direct);
	return pi;
}

static void *map_image(struct kunit *test)
{
	void *image = kunit_kzalloc(test, map_geo.size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, image);
	map_set(image, MAP_ROW, 0, 4);
	map_set(image, MAP_ROW, 2, 5);
	map_set(image, MAP_ROW, MAP_BAD_ROW, 99);
	map_set(image, 4, 1, 6);
	map_set(image, 4, 2, 7);
	map_set(image, 4, 127, 8);
	map_set(image, 5, 0, 9);
	map_set(image, 5, 64, 1);
	return image;
}

/*
 * Lookups, runs, seeks and checks: pram_map_*() on @row_block, and
 * pram_file_*() on a record of @row_block and @direct, which must agree
 * with them when @direct is 0.
 */
struct lookup_case {
	const char *name;
	u32 row_block;
	u64 fblock;
	long block;
	u32 direct;
};

static const struct lookup_case lookup_cases[] = {
	{ "hole before the first block", MAP_ROW, 0, 0 },
	{ "first mapped block", MAP_ROW, 1, 6 },
	{ "next mapped block", MAP_ROW, 2, 7 },
	{ "hole inside a column", MAP_ROW, 3, 0 },
	{ "last entry of a column", MAP_ROW, 127, 8 },
	{ "absent column", MAP_ROW, 128, 0 },
	{ "second column", MAP_ROW, 256, 9 },
	{ "entry naming metadata", MAP_ROW, 320, -EUCLEAN },
	{ "column outside the image", MAP_ROW, 640, -EUCLEAN },
	{ "past the largest file", MAP_ROW, MAP_ALL, 0 },
	{ "no row block", 0, 1, 0 },
	{ "row block in the metadata", 1, 1, -EUCLEAN },
	{ "direct: block 0", 0, 0, FILE_DIRECT, .direct = FILE_DIRECT },
	{ "direct: block 1 is a hole", 0, 1, 0, .direct = FILE_DIRECT },
	{ "direct: past the largest file", 0, MAP_ALL, 0,
	  .direct = FILE_DIRECT },
	{ "direct: the last block", 0, 0, FILE_LAST, .direct = FILE_LAST },
	{ "direct in the metadata", 0, 0, -EUCLEAN, .direct = FILE_META },
	{ "direct past the image", 0, 0, -EUCLEAN, .direct = FILE_PAST },
	/* A write that maps the file sets the row first: direct still rules. */
	{ "direct and a row: block 0", MAP_ROW, 0, FILE_DIRECT,
	  .direct = FILE_DIRECT },
	{ "direct and a row: block 1", MAP_ROW, 1, 0, .direct = FILE_DIRECT },
};

static void lookup_desc(const struct lookup_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(lookup, lookup_cases, lookup_desc);

static void lookup_test(struct kunit *test)
{
	const struct lookup_case *c = test->param_value;
	struct pram_inode *pi = file_record(test, c->row_block, c->direct);
	void *image = map_image(test);

	if (!c->direct)
		KUNIT_EXPECT_EQ(test, pram_map_lookup(&map_geo, image,
						      c->row_block, c->fblock),
				c->block);
	KUNIT_EXPECT_EQ(test, pram_file_lookup(&map_geo, image, pi, c->fblock),
			c->block);
}

/*
 * pram_map_run() over map_image(): file blocks 1-2 lie in blocks 6-7.
 * With run_gap(), file block 3 names block 12; with run_to_the_end(),
 * file blocks 10-12 name blocks 14, 15 and 16 (one past the image).
 */
struct run_case {
	const char *name;
	u32 row_block;
	u64 fblock, max;
	void (*mutate)(void *image);
	long block;
	u64 run;		/* when @block is not an error */
	u32 direct;
};

static void run_nothing(void *image) { }
static void run_gap(void *image) { map_set(image, 4, 3, 12); }
static void run_to_the_end(void *image)
{
	map_set(image, 4, 10, 14);
	map_set(image, 4, 11, 15);
	map_set(image, 4, 12, 16);
}

static const struct run_case run_cases[] = {
	{ "two blocks together", MAP_ROW, 1, 10, run_nothing, 6, 2 },
	{ "a run cut at max", MAP_ROW, 1, 1, run_nothing, 6, 1 },
	{ "the last block of a run", MAP_ROW, 2, 10, run_nothing, 7, 1 },
	{ "a hole up to a block", MAP_ROW, 0, 10, run_nothing, 0, 1 },
	{ "holes up to a block", MAP_ROW, 3, 500, run_nothing, 0, 124 },
	{ "a run ends with its column", MAP_ROW, 127, 10, run_nothing, 8, 1 },
	{ "an absent column is one run of holes", MAP_ROW, 128, 500,
	  run_nothing, 0, 128 },
	{ "holes cut at max", MAP_ROW, 130, 5, run_nothing, 0, 5 },
	{ "holes end before a bad entry", MAP_ROW, 257, 500, run_nothing,
	  0, 63 },
	{ "a run ends before a block outside the image", MAP_ROW, 10, 10,
	  run_to_the_end, 14, 2 },
	{ "a bad first entry", MAP_ROW, 320, 10, run_nothing, -EUCLEAN, 0 },
	{ "a bad column", MAP_ROW, 640, 10, run_nothing, -EUCLEAN, 0 },
	{ "a run ends before a block not next", MAP_ROW, 1, 10, run_gap, 6, 2 },
	{ "holes end with a present column", MAP_ROW, 321, 500, run_nothing,
	  0, 63 },
	{ "no row block: holes", 0, 1, 7, run_nothing, 0, 7 },
	{ "no row block: holes end with a column's span", 0, 120, 50,
	  run_nothing, 0, 8 },
	{ "past the largest file: holes", MAP_ROW, MAP_ALL, 3, run_nothing,
	  0, 3 },
	{ "past the largest file: a column's span at most", MAP_ROW, MAP_ALL,
	  500, run_nothing, 0, 128 },
	/* A direct block is a run of one; then holes, as with no row block. */
	{ "direct: block 0", 0, 0, 10, run_nothing, FILE_DIRECT, 1,
	  .direct = FILE_DIRECT },
	{ "direct: block 0, max 1", 0, 0, 1, run_nothing, FILE_DIRECT, 1,
	  .direct = FILE_DIRECT },
	{ "direct: the last block", 0, 0, 10, run_nothing, FILE_LAST, 1,
	  .direct = FILE_LAST },
	{ "direct: holes after block 0", 0, 1, 7, run_nothing, 0, 7,
	  .direct = FILE_DIRECT },
	{ "direct: holes end with the first column's span", 0, 1, 500,
	  run_nothing, 0, 127, .direct = FILE_DIRECT },
	{ "direct: holes end with a column's span", 0, 120, 50, run_nothing,
	  0, 8, .direct = FILE_DIRECT },
	{ "direct: holes in a later column", 0, 128, 500, run_nothing, 0, 128,
	  .direct = FILE_DIRECT },
	{ "direct: past the largest file", 0, MAP_ALL, 500, run_nothing, 0,
	  128, .direct = FILE_DIRECT },
	{ "direct in the metadata", 0, 0, 10, run_nothing, -EUCLEAN, 0,
	  .direct = FILE_META },
	{ "direct past the image", 0, 0, 10, run_nothing, -EUCLEAN, 0,
	  .direct = FILE_PAST },
	{ "direct and a row: block 0", MAP_ROW, 0, 10, run_nothing,
	  FILE_DIRECT, 1, .direct = FILE_DIRECT },
	{ "direct and a row: holes, not the map's run", MAP_ROW, 1, 10,
	  run_nothing, 0, 10, .direct = FILE_DIRECT },
};

static void run_desc(const struct run_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(run, run_cases, run_desc);

static void run_test(struct kunit *test)
{
	const struct run_case *c = test->param_value;
	struct pram_inode *pi = file_record(test, c->row_block, c->direct);
	void *image = map_image(test);
	u64 run = 0;

	c->mutate(image);
	if (!c->direct) {
		KUNIT_EXPECT_EQ(test, pram_map_run(&map_geo, image, c->row_block,
						   c->fblock, c->max, &run),
				c->block);
		if (c->block >= 0)
			KUNIT_EXPECT_EQ(test, run, c->run);
	}
	run = 0;
	KUNIT_EXPECT_EQ(test, pram_file_run(&map_geo, image, pi, c->fblock,
					    c->max, &run), c->block);
	if (c->block >= 0)
		KUNIT_EXPECT_EQ(test, run, c->run);
}

struct seek_case {
	const char *name;
	u32 row_block;
	u64 from, end;
	bool data;
	s64 found;
	u32 direct;
};

static const struct seek_case seek_cases[] = {
	{ "data from the start", MAP_ROW, 0, 300, true, 1 },
	{ "data past a hole", MAP_ROW, 3, 300, true, 127 },
	{ "data skips an absent column", MAP_ROW, 128, 300, true, 256 },
	{ "no data before the end", MAP_ROW, 257, 300, true, 300 },
	{ "data in a short range", MAP_ROW, 0, 1, true, 1 },
	{ "data search meets a bad entry", MAP_ROW, 257, 330, true, -EUCLEAN },
	{ "data search meets a bad column", MAP_ROW, 384, 700, true, -EUCLEAN },
	{ "hole at the start", MAP_ROW, 0, 300, false, 0 },
	{ "hole after mapped blocks", MAP_ROW, 1, 300, false, 3 },
	{ "hole in an absent column", MAP_ROW, 127, 300, false, 128 },
	{ "no hole before the end", MAP_ROW, 256, 257, false, 257 },
	{ "no row block: no data", 0, 5, 300, true, 300 },
	{ "no row block: all hole", 0, 5, 300, false, 5 },
	{ "end past the largest file", 0, 0, U64_MAX, true, MAP_ALL },
	{ "row block in the metadata", 1, 0, 300, true, -EUCLEAN },
	/* A direct block: file block 0 is data, every other one a hole. */
	{ "direct: data at block 0", 0, 0, 300, true, 0,
	  .direct = FILE_DIRECT },
	{ "direct: no data after block 0", 0, 1, 300, true, 300,
	  .direct = FILE_DIRECT },
	{ "direct: hole after block 0", 0, 0, 300, false, 1,
	  .direct = FILE_DIRECT },
	{ "direct: hole where the search starts", 0, 7, 300, false, 7,
	  .direct = FILE_DIRECT },
	{ "direct: no hole in a one-block file", 0, 0, 1, false, 1,
	  .direct = FILE_DIRECT },
	{ "direct: empty range, hole", 0, 0, 0, false, 0,
	  .direct = FILE_DIRECT },
	{ "direct: data search from the end", 0, 1, 1, true, 1,
	  .direct = FILE_DIRECT },
	{ "direct: hole search past the end", 0, 400, 300, false, 300,
	  .direct = FILE_DIRECT },
	{ "direct in the metadata", 0, 0, 300, true, -EUCLEAN,
	  .direct = FILE_META },
	{ "direct past the image", 0, 5, 300, false, -EUCLEAN,
	  .direct = FILE_PAST },
	{ "direct and a row: data only at block 0", MAP_ROW, 1, 300, true, 300,
	  .direct = FILE_DIRECT },
	{ "direct and a row: hole at block 1", MAP_ROW, 0, 300, false, 1,
	  .direct = FILE_DIRECT },
};

static void seek_desc(const struct seek_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(seek, seek_cases, seek_desc);

static void seek_test(struct kunit *test)
{
	const struct seek_case *c = test->param_value;
	struct pram_inode *pi = file_record(test, c->row_block, c->direct);
	void *image = map_image(test);

	if (!c->direct)
		KUNIT_EXPECT_EQ(test, pram_map_seek(&map_geo, image,
						    c->row_block, c->from,
						    c->end, c->data),
				c->found);
	KUNIT_EXPECT_EQ(test, pram_file_seek(&map_geo, image, pi, c->from,
					     c->end, c->data),
			c->found);
}

/*
 * pram_map_check() over a clean map: row 3 names columns 4 (data 6 and
 * 7) and 5 (data 9): 6 blocks. Each case breaks one thing.
 */
#define CHECK_BLOCKS	6

struct check_case {
	const char *name;
	u32 row_block;
	void (*mutate)(void *image);
	u32 blocks;		/* when the map is good */
	const char *why;	/* NULL: good */
	u32 direct;
	u32 xattr;		/* the file's attribute block */
};

static void *check_image(struct kunit *test)
{
	void *image = kunit_kzalloc(test, map_geo.size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, image);
	map_set(image, MAP_ROW, 0, 4);
	map_set(image, MAP_ROW, 2, 5);
	map_set(image, 4, 1, 6);
	map_set(image, 4, 2, 7);
	map_set(image, 5, 0, 9);
	return image;
}

static void ck_nothing(void *image) { }
static void ck_column_out(void *image) { map_set(image, MAP_ROW, 5, 99); }
static void ck_data_meta(void *image) { map_set(image, 5, 64, 1); }
static void ck_column_row(void *image) { map_set(image, MAP_ROW, 1, MAP_ROW); }
static void ck_data_row(void *image) { map_set(image, 4, 3, MAP_ROW); }
static void ck_data_own_column(void *image) { map_set(image, 4, 3, 4); }
static void ck_last_entries(void *image)
{
	map_set(image, MAP_ROW, 127, 10);
	map_set(image, 10, 127, 11);
}

static const struct check_case check_cases[] = {
	{ "a clean map", MAP_ROW, ck_nothing, CHECK_BLOCKS, NULL },
	{ "no row block", 0, ck_nothing, 0, NULL },
	{ "an empty row block", 12, ck_nothing, 1, NULL },
	{ "the last entries of row and column", MAP_ROW, ck_last_entries,
	  CHECK_BLOCKS + 2, NULL },
	{ "row block in the metadata", 1, ck_nothing, 0,
	  "block map outside the data area" },
	{ "column outside the image", MAP_ROW, ck_column_out, 0,
	  "block map entry outside the data area" },
	{ "data block in the metadata", MAP_ROW, ck_data_meta, 0,
	  "block map entry outside the data area" },
	{ "column naming its own row block", MAP_ROW, ck_column_row, 0,
	  "block map entry names a block of the map" },
	{ "data block naming the row block", MAP_ROW, ck_data_row, 0,
	  "block map entry names a block of the map" },
	{ "data block naming its column", MAP_ROW, ck_data_own_column, 0,
	  "block map entry names a block of the map" },
	{ "an attribute block apart", MAP_ROW, ck_nothing, CHECK_BLOCKS, NULL,
	  .xattr = 12 },
	{ "data block naming the attribute block", MAP_ROW, ck_nothing, 0,
	  "block map entry names the attribute block", .xattr = 7 },
	{ "column naming the attribute block", MAP_ROW, ck_nothing, 0,
	  "block map entry names the attribute block", .xattr = 5 },
	{ "direct block", 0, ck_nothing, 1, NULL, .direct = FILE_DIRECT },
	{ "direct: the last block", 0, ck_nothing, 1, NULL,
	  .direct = FILE_LAST },
	{ "direct in the metadata", 0, ck_nothing, 0,
	  "direct block outside the data area", .direct = FILE_META },
	{ "direct past the image", 0, ck_nothing, 0,
	  "direct block outside the data area", .direct = FILE_PAST },
};

static void check_desc(const struct check_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(check, check_cases, check_desc);

static void check_expect(struct kunit *test, const struct check_case *c,
			 int err, u32 blocks, const char *why)
{
	if (!c->why) {
		KUNIT_EXPECT_EQ_MSG(test, err, 0, "refused: %s", why);
		KUNIT_EXPECT_EQ(test, blocks, c->blocks);
		return;
	}
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, c->why);
}

static void check_test(struct kunit *test)
{
	const struct check_case *c = test->param_value;
	struct pram_inode *pi = file_record(test, c->row_block, c->direct);
	void *image = check_image(test);
	const char *why = NULL;
	u32 blocks = ~0U;
	int err;

	pi->i_xattr = cpu_to_le32(c->xattr);
	c->mutate(image);
	if (!c->direct) {
		err = pram_map_check(&map_geo, image, c->row_block, c->xattr,
				     &blocks, &why);
		check_expect(test, c, err, blocks, why);
		why = NULL;
		blocks = ~0U;
	}
	err = pram_file_map_check(&map_geo, image, pi, &blocks, &why);
	check_expect(test, c, err, blocks, why);
}

/*
 * pram_map_walk() over check_image(): which entries a visitor sees, as
 * "map:idx=block" ("!" for a bad one), and what the walk returns.
 */
enum walk_visit { WALK_ALL, WALK_SKIP_ROWS, WALK_CLEAR_4, WALK_STOP_7 };

struct walk_case {
	const char *name;
	u32 map;
	void (*mutate)(void *image);
	enum walk_visit visit;
	const char *seen;
	int ret;
};

struct walk_log {
	enum walk_visit visit;
	void *image;
	char seen[128];
};

static int walk_visit(void *arg, const struct pram_map_ent *e)
{
	struct walk_log *w = arg;
	size_t len = strlen(w->seen);

	snprintf(w->seen + len, sizeof(w->seen) - len, "%s%u:%u=%u%s",
		 len ? " " : "", e->map, e->idx, e->block, e->bad ? "!" : "");
	if (w->visit == WALK_SKIP_ROWS && e->is_row)
		return PRAM_MAP_SKIP;
	if (w->visit == WALK_CLEAR_4 && e->block == 4)
		map_set(w->image, e->map, e->idx, 0);
	if (w->visit == WALK_STOP_7 && e->block == 7)
		return -EIO;
	return 0;
}

static const struct walk_case walk_cases[] = {
	{ "every entry, columns in row order", MAP_ROW, ck_nothing, WALK_ALL,
	  "3:0=4 4:1=6 4:2=7 3:2=5 5:0=9", 0 },
	{ "one column", 4, ck_nothing, WALK_ALL, "4:1=6 4:2=7", 0 },
	{ "skip: no descent", MAP_ROW, ck_nothing, WALK_SKIP_ROWS,
	  "3:0=4 3:2=5", 0 },
	{ "a cleared entry is not descended", MAP_ROW, ck_nothing, WALK_CLEAR_4,
	  "3:0=4 3:2=5 5:0=9", 0 },
	{ "a negative return stops the walk", MAP_ROW, ck_nothing, WALK_STOP_7,
	  "3:0=4 4:1=6 4:2=7", -EIO },
	{ "a bad column is shown, not descended", MAP_ROW, ck_column_out,
	  WALK_ALL, "3:0=4 4:1=6 4:2=7 3:2=5 5:0=9 3:5=99!", 0 },
	{ "a data block naming its column is bad", MAP_ROW, ck_data_own_column,
	  WALK_ALL, "3:0=4 4:1=6 4:2=7 4:3=4! 3:2=5 5:0=9", 0 },
};

static void walk_desc(const struct walk_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(walk, walk_cases, walk_desc);

static void walk_test(struct kunit *test)
{
	const struct walk_case *c = test->param_value;
	struct walk_log w = { .visit = c->visit, .image = check_image(test) };

	c->mutate(w.image);
	KUNIT_EXPECT_EQ(test, pram_map_walk(&map_geo, w.image, MAP_ROW, c->map,
					    walk_visit, &w), c->ret);
	KUNIT_EXPECT_STREQ(test, w.seen, c->seen);
}

static struct kunit_case pramfs_map_cases[] = {
	KUNIT_CASE_PARAM(lookup_test, lookup_gen_params),
	KUNIT_CASE_PARAM(run_test, run_gen_params),
	KUNIT_CASE_PARAM(seek_test, seek_gen_params),
	KUNIT_CASE_PARAM(check_test, check_gen_params),
	KUNIT_CASE_PARAM(walk_test, walk_gen_params),
	{}
};

static struct kunit_suite pramfs_map_suite = {
	.name = "pramfs_map",
	.test_cases = pramfs_map_cases,
};

kunit_test_suites(&pramfs_blockmap_suite, &pramfs_map_suite);
