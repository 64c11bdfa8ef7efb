// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the PRAMFS directory-list scan: which entries a list
 * holds when its links are right, and when one of them is wrong in each
 * of the ways a bad record or a cut can leave it.
 */
#include <kunit/test.h>
#include <linux/stat.h>
#include "format.h"

/*
 * A 64 KiB image at 512 bytes a block with 64 inodes. Directory 3 holds
 * entries 5, 7, 9 and 11 in that order; inode 4 is another directory.
 */
#define DIR_INO		3
#define OTHER_DIR	4
#define MAX_SEEN	8

static const u32 list_inos[] = { 5, 7, 9, 11 };

struct scan_case {
	const char *name;
	void (*mutate)(void *image);
	u32 seen[MAX_SEEN];	/* the entries reported, in order, 0-ended */
	u32 recovered;
	bool broken, consistent;
};

static struct pram_inode *rec(void *image, u32 ino)
{
	return image + pram_ino_offset(ino);
}

static void *list_image(struct kunit *test, struct pram_geometry *g)
{
	const char *why;
	void *image;
	u32 i, ino, n = ARRAY_SIZE(list_inos);

	KUNIT_ASSERT_EQ(test, pram_geometry_compute(g, 64 * 1024, 512, 0, 64, false,
						    &why), 0);
	image = kunit_kzalloc(test, g->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, image);
	rec(image, DIR_INO)->i_mode = cpu_to_le16(S_IFDIR | 0755);
	rec(image, DIR_INO)->i_type.dir.head = cpu_to_le32(list_inos[0]);
	rec(image, DIR_INO)->i_type.dir.tail = cpu_to_le32(list_inos[n - 1]);
	rec(image, OTHER_DIR)->i_mode = cpu_to_le16(S_IFDIR | 0755);
	for (i = 0; i < n; i++) {
		ino = list_inos[i];
		rec(image, ino)->i_mode = cpu_to_le16(S_IFREG | 0644);
		rec(image, ino)->i_parent = cpu_to_le32(DIR_INO);
		rec(image, ino)->i_prev = cpu_to_le32(i ? list_inos[i - 1] : 0);
		rec(image, ino)->i_next = cpu_to_le32(i + 1 < n ? list_inos[i + 1] : 0);
	}
	return image;
}

static void set_next(void *image, u32 ino, u32 to)
{
	rec(image, ino)->i_next = cpu_to_le32(to);
}

static void m_nothing(void *image) { }


static void set_prev(void *image, u32 ino, u32 to)
{
	rec(image, ino)->i_prev = cpu_to_le32(to);
}

static void set_ends(void *image, u32 head, u32 tail)
{
	rec(image, DIR_INO)->i_type.dir.head = cpu_to_le32(head);
	rec(image, DIR_INO)->i_type.dir.tail = cpu_to_le32(tail);
}

static void m_empty(void *image) { set_ends(image, 0, 0); }
static void m_back_link(void *image) { set_prev(image, 9, 5); }
static void m_tail(void *image) { set_ends(image, 5, 9); }
static void m_no_tail(void *image) { set_ends(image, 5, 0); }
static void m_no_head(void *image) { set_ends(image, 0, 11); }
static void m_zeroed(void *image) { memset(rec(image, 7), 0, PRAM_INODE_SIZE); }
static void m_other_dir(void *image) { rec(image, 9)->i_parent = cpu_to_le32(OTHER_DIR); }
static void m_loop(void *image) { set_next(image, 9, 5); }
static void m_to_dir(void *image) { set_next(image, 7, DIR_INO); }
static void m_to_root(void *image) { set_next(image, 7, PRAM_ROOT_INO); }
static void m_out_of_range(void *image) { set_next(image, 7, 100000); }
static void m_early_end(void *image) { set_next(image, 7, 0); }
static void m_free_entry(void *image) { rec(image, 7)->i_mode = cpu_to_le16(0); }

/* Whatever its bytes where an entry's links are, a name record is none. */
static void m_name_record(void *image)
{
	rec(image, 7)->i_mode = cpu_to_le16(PRAM_S_IFNAME);
}

static void m_link_entry(void *image)
{
	rec(image, 9)->i_mode = cpu_to_le16(PRAM_S_IFLINK);
	rec(image, 9)->i_type.link.ino = cpu_to_le32(OTHER_DIR + 1);
}

static const struct scan_case scan_cases[] = {
	{ "a clean list", m_nothing, { 5, 7, 9, 11 }, 0, false, true },
	{ "an empty list", m_empty, { }, 0, false, true },
	{ "a wrong back link", m_back_link, { 5, 7, 9, 11 }, 0, false, false },
	{ "a tail short of the end", m_tail, { 5, 7, 9, 11 }, 0, false, false },
	{ "no tail", m_no_tail, { 5, 7, 9, 11 }, 0, false, false },
	{ "no head: all found from the tail", m_no_head, { 11, 9, 7, 5 }, 4,
	  false, false },
	{ "a zeroed entry costs only itself", m_zeroed, { 5, 11, 9 }, 2, true,
	  false },
	{ "a link to another directory's entry", m_other_dir, { 5, 7, 11 }, 1,
	  true, false },
	{ "a link back to the first entry", m_loop, { 5, 7, 9, 11 }, 1, true,
	  false },
	{ "a link to the directory itself", m_to_dir, { 5, 7, 11, 9 }, 2, true,
	  false },
	{ "a link to the root", m_to_root, { 5, 7, 11, 9 }, 2, true, false },
	{ "a link out of range", m_out_of_range, { 5, 7, 11, 9 }, 2, true,
	  false },
	{ "a chain ending early", m_early_end, { 5, 7, 11, 9 }, 2, false, false },
	{ "a free entry is reported: the caller judges it", m_free_entry,
	  { 5, 7, 9, 11 }, 0, false, true },
	{ "a name record breaks the list", m_name_record, { 5, 11, 9 }, 2, true,
	  false },
	{ "a link entry is an entry", m_link_entry, { 5, 7, 9, 11 }, 0, false,
	  true },
};

static void scan_desc(const struct scan_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(scan, scan_cases, scan_desc);

struct seen {
	u32 ino[MAX_SEEN + 1];
	unsigned int n;
};

static int record_entry(void *arg, u32 ino, const struct pram_inode *pi)
{
	struct seen *s = arg;

	if (s->n < ARRAY_SIZE(s->ino))
		s->ino[s->n++] = ino;
	return 0;
}

static void scan_test(struct kunit *test)
{
	const struct scan_case *c = test->param_value;
	struct pram_dir_scan scan;
	struct pram_geometry g;
	struct seen s = { };
	void *image = list_image(test, &g);
	unsigned int i;

	c->mutate(image);
	KUNIT_ASSERT_EQ(test, pram_dir_scan(&g, image, DIR_INO, record_entry,
					    &s, &scan), 0);
	for (i = 0; i < MAX_SEEN && c->seen[i]; i++)
		KUNIT_EXPECT_EQ_MSG(test, s.ino[i], c->seen[i], "entry %u", i);
	KUNIT_EXPECT_EQ(test, s.n, i);
	KUNIT_EXPECT_EQ(test, scan.members, i);
	KUNIT_EXPECT_EQ(test, scan.recovered, c->recovered);
	KUNIT_EXPECT_EQ(test, scan.broken, c->broken);
	KUNIT_EXPECT_EQ(test, scan.consistent, c->consistent);
}

/* A non-zero return from the callback stops the scan and is returned. */
static int stop_at_7(void *arg, u32 ino, const struct pram_inode *pi)
{
	return ino == 7 ? -EUCLEAN : 0;
}

static void scan_stops_test(struct kunit *test)
{
	struct pram_dir_scan scan;
	struct pram_geometry g;
	void *image = list_image(test, &g);

	KUNIT_EXPECT_EQ(test, pram_dir_scan(&g, image, DIR_INO, stop_at_7, NULL,
					    &scan), -EUCLEAN);
	KUNIT_EXPECT_EQ(test, scan.members, 1);
}

static struct kunit_case pramfs_dirlist_cases[] = {
	KUNIT_CASE_PARAM(scan_test, scan_gen_params),
	KUNIT_CASE(scan_stops_test),
	{}
};

static struct kunit_suite pramfs_dirlist_suite = {
	.name = "pramfs_dirlist",
	.test_cases = pramfs_dirlist_cases,
};

kunit_test_suites(&pramfs_dirlist_suite);
