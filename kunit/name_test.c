// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for PRAMFS names (name.c): a slot's checksum, sealed in
 * place; how many name records a name needs, and pram_entry_name() over
 * an entry and its records, valid and damaged each way the checks name.
 */
#include <kunit/test.h>
#include <linux/stat.h>
#include "format.h"

#define MiB		(1024 * 1024ULL)
#define ENTRY		5	/* the entry's slot */
#define REC0		6	/* its name records' */
#define REC1		7
#define SLOTS		8	/* the slots the image holds */

/* ---- pramfs_name_recs ---- */

static void name_recs_test(struct kunit *test)
{
	static const struct { u32 len; unsigned int recs; } cases[] = {
		{ 1, 0 }, { PRAM_NAME_LEN, 0 }, { PRAM_NAME_LEN + 1, 1 },
		{ PRAM_NAME_HEAD + PRAM_NAME_PART, 1 },
		{ PRAM_NAME_HEAD + PRAM_NAME_PART + 1, 2 }, { PRAM_NAME_MAX, 2 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, pram_name_recs(cases[i].len), cases[i].recs,
				    "length %u", cases[i].len);
}

/* ---- pramfs_entry_name ---- */

struct name_image {
	struct pram_geometry	g;
	u8			*base;		/* SLOTS slots */
	char			name[PRAM_NAME_MAX + 1];
	u32			len;
};

static struct pram_inode *slot(struct name_image *im, u32 ino)
{
	return (struct pram_inode *)(im->base + pram_ino_offset(ino));
}

static struct pram_name_rec *rec(struct name_image *im, u32 ino)
{
	return (struct pram_name_rec *)slot(im, ino);
}

static void resum(struct name_image *im, u32 ino)
{
	slot(im, ino)->i_csum = cpu_to_le32(pram_slot_csum(slot(im, ino), ino));
}

struct name_case {
	const char *name;
	u32 len;		/* of the name stored: 'a'..'z' repeated */
	void (*mutate)(struct name_image *im);
	const char *why;	/* NULL: valid, and read back as stored */
};

static void nm_nothing(struct name_image *im) { }

static void nm_owner(struct name_image *im)
{
	rec(im, REC0)->n_owner = cpu_to_le32(ENTRY + 10);
	resum(im, REC0);
}

static void nm_owner_range(struct name_image *im)
{
	rec(im, REC0)->n_owner = 0;
	resum(im, REC0);
}

static void nm_csum(struct name_image *im) { rec(im, REC0)->n_part[0] ^= 1; }

static void nm_inode(struct name_image *im)
{
	rec(im, REC0)->n_mode = cpu_to_le16(S_IFREG | 0644);
	resum(im, REC0);
}

static void nm_feature(struct name_image *im)
{
	im->g.incompat &= ~PRAM_FEATURE_INCOMPAT_LONGNAMES;
}

static void nm_len_past(struct name_image *im)
{
	le16_add_cpu(&rec(im, REC0)->n_len, 1);
	resum(im, REC0);
}

static void nm_nul(struct name_image *im)
{
	rec(im, REC0)->n_part[2] = 0;
	resum(im, REC0);
}

static void nm_past_nul(struct name_image *im)
{
	struct pram_name_rec *nr = rec(im, REC0);

	nr->n_part[le16_to_cpu(nr->n_len) + 1] = 'x';
	resum(im, REC0);
}

static void nm_slash(struct name_image *im)
{
	rec(im, REC1)->n_part[1] = '/';
	resum(im, REC1);
}

/* The first of two records short: the same name, spelt another way. */
static void nm_short_first(struct name_image *im)
{
	struct pram_name_rec *nr = rec(im, REC0);

	memset(nr->n_part + 100, 0, PRAM_NAME_PART - 100);
	nr->n_len = cpu_to_le16(100);
	resum(im, REC0);
}

/* 40 + 5 bytes: a short name stored as a long one. */
static void nm_not_long(struct name_image *im)
{
	struct pram_name_rec *nr = rec(im, REC0);

	memset(nr->n_part + 5, 0, PRAM_NAME_PART - 5);
	nr->n_len = cpu_to_le16(5);
	resum(im, REC0);
}

/* Two full records: 272 bytes. */
static void nm_too_long(struct name_image *im)
{
	struct pram_name_rec *nr = rec(im, REC1);

	memset(nr->n_part, 'z', PRAM_NAME_PART);
	nr->n_len = cpu_to_le16(PRAM_NAME_PART);
	resum(im, REC1);
}

static const struct name_case name_cases[] = {
	{ "short", 10, nm_nothing, NULL },
	{ "48 bytes, in the entry", PRAM_NAME_LEN, nm_nothing, NULL },
	{ "49 bytes: one record", PRAM_NAME_LEN + 1, nm_nothing, NULL },
	{ "one full record", PRAM_NAME_HEAD + PRAM_NAME_PART, nm_nothing, NULL },
	{ "two records", PRAM_NAME_HEAD + PRAM_NAME_PART + 1, nm_nothing, NULL },
	{ "255 bytes", PRAM_NAME_MAX, nm_nothing, NULL },
	{ "record of another entry", 100, nm_owner,
	  "name record belongs to another entry" },
	{ "record owned by slot 0", 100, nm_owner_range,
	  "name record owner out of range" },
	{ "record with a bad checksum", 100, nm_csum, "bad checksum" },
	{ "record that is an inode", 100, nm_inode, "not a name record" },
	{ "without the feature", 100, nm_feature, "long name without the feature" },
	{ "length past the record's bytes", 100, nm_len_past,
	  "name record length does not match its bytes" },
	{ "a NUL in a record", 100, nm_nul,
	  "name record length does not match its bytes" },
	{ "bytes after a record's NUL", 100, nm_past_nul, "name contains NUL" },
	{ "a slash in the second record", 200, nm_slash, "name contains '/'" },
	{ "first of two records short", 200, nm_short_first,
	  "name record short before the last" },
	{ "45 bytes stored as long", 100, nm_not_long,
	  "long name not stored as one" },
	{ "272 bytes", 200, nm_too_long, "name too long" },
};

static void name_desc(const struct name_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(name, name_cases, name_desc);

/* Entry ENTRY, in the root, named @len bytes of 'a'..'z' in REC0, REC1. */
static void make_entry(struct name_image *im, char *name, u32 len)
{
	static const u32 recs[PRAM_NAME_RECS] = { REC0, REC1 };
	struct pram_inode *pi = slot(im, ENTRY);
	unsigned int i;

	for (i = 0; i < len; i++)
		name[i] = 'a' + i % 26;
	for (i = 0; i < pram_name_recs(len); i++)
		pram_name_rec_fill(rec(im, recs[i]), recs[i], ENTRY, name, len, i);
	pi->i_mode = cpu_to_le16(S_IFREG | 0644);
	pi->i_links_count = cpu_to_le16(1);
	pi->i_parent = cpu_to_le32(PRAM_ROOT_INO);
	pram_name_store(pi, name, len, recs);
	resum(im, ENTRY);
}

static void name_test(struct kunit *test)
{
	const struct name_case *c = test->param_value;
	struct name_image *im = kunit_kzalloc(test, sizeof(*im), GFP_KERNEL);
	char stored[PRAM_NAME_MAX + 1];
	const char *why = NULL;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, im);
	im->base = kunit_kzalloc(test, SLOTS * PRAM_INODE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, im->base);
	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&im->g, MiB, 1024, 0, 0, true, &why), 0);
	im->g.incompat |= PRAM_FEATURE_INCOMPAT_LONGNAMES;
	make_entry(im, stored, c->len);
	c->mutate(im);

	err = pram_entry_name(&im->g, im->base, ENTRY, slot(im, ENTRY), im->name,
			      &im->len, &why);
	if (c->why) {
		KUNIT_EXPECT_EQ(test, err, -EINVAL);
		KUNIT_EXPECT_STREQ(test, why, c->why);
		KUNIT_EXPECT_EQ(test, im->len, 0);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "refused: %s", why);
	KUNIT_EXPECT_EQ(test, im->len, c->len);
	KUNIT_EXPECT_EQ(test, memcmp(im->name, stored, c->len), 0);
	KUNIT_EXPECT_EQ(test, im->name[c->len], 0);
	KUNIT_EXPECT_EQ(test, pram_is_long_name(slot(im, ENTRY)),
			c->len > PRAM_NAME_LEN);
}

/*
 * pram_entry_name_copy() trusts what was checked (a bad checksum reads
 * as it is) but never reads outside the table or past its buffer.
 */
static void name_copy_test(struct kunit *test)
{
	struct name_image *im = kunit_kzalloc(test, sizeof(*im), GFP_KERNEL);
	char stored[PRAM_NAME_MAX + 1];
	const char *why;

	KUNIT_ASSERT_NOT_NULL(test, im);
	im->base = kunit_kzalloc(test, SLOTS * PRAM_INODE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, im->base);
	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&im->g, MiB, 1024, 0, 0, true, &why), 0);
	im->g.incompat |= PRAM_FEATURE_INCOMPAT_LONGNAMES;
	make_entry(im, stored, 200);
	nm_csum(im);
	KUNIT_EXPECT_EQ(test, pram_entry_name(&im->g, im->base, ENTRY, slot(im, ENTRY),
					      im->name, &im->len, &why), -EINVAL);
	KUNIT_ASSERT_EQ(test, pram_entry_name_copy(&im->g, im->base, ENTRY,
						   slot(im, ENTRY), im->name,
						   &im->len), 0);
	KUNIT_EXPECT_EQ(test, im->len, 200);
	KUNIT_EXPECT_NE(test, memcmp(im->name, stored, 200), 0);
	/* A record length past the part is cut to it: 272 bytes, too long. */
	rec(im, REC1)->n_len = cpu_to_le16(60000);
	KUNIT_EXPECT_EQ(test, pram_entry_name_copy(&im->g, im->base, ENTRY,
						   slot(im, ENTRY), im->name,
						   &im->len), -EINVAL);
	/* A record number past the table is never read. */
	slot(im, ENTRY)->i_long.l_rec[1] = cpu_to_le32(1U << 30);
	KUNIT_EXPECT_EQ(test, pram_entry_name_copy(&im->g, im->base, ENTRY,
						   slot(im, ENTRY), im->name,
						   &im->len), -EINVAL);
	KUNIT_EXPECT_EQ(test, im->len, 0);
}

/* A record's own checks pass on what pram_name_rec_fill() makes. */
static void name_rec_fill_test(struct kunit *test)
{
	struct pram_name_rec *nr = kunit_kzalloc(test, sizeof(*nr), GFP_KERNEL);
	char name[PRAM_NAME_MAX];
	struct pram_geometry g;
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, nr);
	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&g, MiB, 1024, 0, 0, true, &why), 0);
	memset(name, 'q', sizeof(name));
	pram_name_rec_fill(nr, REC1, ENTRY, name, sizeof(name), 1);
	KUNIT_EXPECT_EQ(test, pram_name_rec_check(nr, REC1, &g, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "name record without the feature");
	g.incompat |= PRAM_FEATURE_INCOMPAT_LONGNAMES;
	KUNIT_EXPECT_EQ_MSG(test, pram_name_rec_check(nr, REC1, &g, &why), 0,
			    "refused: %s", why);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(nr->n_len),
			PRAM_NAME_MAX - PRAM_NAME_HEAD - PRAM_NAME_PART);
	/* Copied to another slot, it fails: the checksum is seeded. */
	KUNIT_EXPECT_EQ(test, pram_name_rec_check(nr, REC0, &g, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "bad checksum");
}

/*
 * pram_slot_seal() stores what pram_slot_csum() computes over the slot as
 * it was, whatever the checksum field held, and changes no other byte.
 * The first case's value is crc32c (seed ~0, no final inversion) of the
 * bytes 02 00 00 00 and 124 zeros, worked out apart from the kernel.
 */
static void slot_seal_test(struct kunit *test)
{
	static const struct {
		u32 ino;
		u8 fill;
		__le32 old;
		u32 csum;	/* 0: only as pram_slot_csum() gives it */
	} cases[] = {
		{ PRAM_ROOT_INO, 0x00, 0, 0x24fd0660 },
		{ 1, 0x00, cpu_to_le32(0xdeadbeef), 0 },
		{ 0x12345678, 0x5a, cpu_to_le32(0x12345678), 0 },
		{ U32_MAX, 0xff, cpu_to_le32(U32_MAX), 0 },
	};
	struct pram_inode *pi = kunit_kzalloc(test, sizeof(*pi), GFP_KERNEL);
	struct pram_inode *was = kunit_kzalloc(test, sizeof(*was), GFP_KERNEL);
	unsigned int i;
	u32 want;

	KUNIT_ASSERT_NOT_NULL(test, pi);
	KUNIT_ASSERT_NOT_NULL(test, was);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(pi, cases[i].fill, sizeof(*pi));
		if (cases[i].fill)
			pi->i_size = cpu_to_le64(i);
		pi->i_csum = cases[i].old;
		*was = *pi;
		want = cases[i].csum ?: pram_slot_csum(was, cases[i].ino);
		pram_slot_seal(pi, cases[i].ino);
		KUNIT_EXPECT_EQ_MSG(test, le32_to_cpu(pi->i_csum), want,
				    "slot %u", cases[i].ino);
		KUNIT_EXPECT_EQ_MSG(test, pram_slot_csum(was, cases[i].ino), want,
				    "slot %u", cases[i].ino);
		KUNIT_EXPECT_MEMEQ_MSG(test, (u8 *)pi + sizeof(pi->i_csum),
				       (u8 *)was + sizeof(was->i_csum),
				       sizeof(*pi) - sizeof(pi->i_csum),
				       "slot %u", cases[i].ino);
	}
}

/* A slot is clear only when every byte is zero, its mode first. */
static void slot_is_clear_test(struct kunit *test)
{
	static const struct { unsigned int at; u8 byte; bool clear; } cases[] = {
		{ 0, 0, true },
		{ offsetof(struct pram_inode, i_mode), 0x80, false },
		{ offsetof(struct pram_inode, i_mode) + 1, 0x81, false },
		{ 0, 0x01, false },
		{ PRAM_INODE_SIZE - 1, 0x01, false },
	};
	u8 *slot = kunit_kzalloc(test, PRAM_INODE_SIZE, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, slot);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(slot, 0, PRAM_INODE_SIZE);
		slot[cases[i].at] = cases[i].byte;
		KUNIT_EXPECT_EQ_MSG(test,
				    pram_slot_is_clear((struct pram_inode *)slot),
				    cases[i].clear, "byte %u = %#x", cases[i].at,
				    cases[i].byte);
	}
}

static struct kunit_case name_test_cases[] = {
	KUNIT_CASE(name_recs_test),
	KUNIT_CASE(slot_seal_test),
	KUNIT_CASE(slot_is_clear_test),
	KUNIT_CASE_PARAM(name_test, name_gen_params),
	KUNIT_CASE(name_rec_fill_test),
	KUNIT_CASE(name_copy_test),
	{}
};

static struct kunit_suite name_suite = {
	.name = "pramfs_name",
	.test_cases = name_test_cases,
};

kunit_test_suite(name_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for PRAMFS names");
