// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for PRAMFS attribute blocks (xblock.c): what
 * pram_xblock_edit() makes (order, replace, remove, the limits), and
 * pram_xblock_check() over a valid block damaged each way it names.
 */
#include <kunit/test.h>
#include "format.h"

#define BS	1024	/* the block size of the tests */
#define OWNER	17	/* the inode the blocks belong to */

struct xb {
	u8	a[BS], b[BS];	/* a block and its next version */
};

/* Set @name (or remove it, @value NULL) from xb->a into xb->a. */
static int xb_set(struct xb *x, u8 index, const char *name, const char *value,
		  u32 value_len)
{
	int n;

	memset(x->b, 0, BS);
	n = pram_xblock_edit(x->b, ((struct pram_xattr_header *)x->a)->x_magic ?
			     x->a : NULL, BS, OWNER, index, name, strlen(name),
			     value, value_len);
	if (n >= 0)
		memcpy(x->a, x->b, BS);
	return n;
}

static struct xb *xb_new(struct kunit *test)
{
	struct xb *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, x);
	return x;
}

static void xb_expect_valid(struct kunit *test, struct xb *x)
{
	const char *why = NULL;

	KUNIT_EXPECT_EQ_MSG(test, pram_xblock_check(x->a, BS, OWNER, &why), 0,
			    "refused: %s", why);
}

/* The entries of xb->a, as "index:name" in order. */
static void xb_expect_order(struct kunit *test, struct xb *x,
			    const char *const *want, unsigned int n)
{
	const struct pram_xattr_entry *e = NULL;
	char got[300];
	unsigned int i = 0;

	while ((e = pram_xblock_next(x->a, e))) {
		KUNIT_ASSERT_LT(test, i, n);
		snprintf(got, sizeof(got), "%u:%.*s", e->e_index, e->e_name_len,
			 e->e_name);
		KUNIT_EXPECT_STREQ(test, got, want[i++]);
	}
	KUNIT_EXPECT_EQ(test, i, n);
}

static void xblock_edit_order_test(struct kunit *test)
{
	static const char *const want[] = {
		"1:a", "1:bb", "1:zz", "2:", "4:t", "6:selinux",
	};
	struct xb *x = xb_new(test);
	const struct pram_xattr_entry *e;

	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_SECURITY, "selinux", "l", 1), 1);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "zz", "3", 1), 2);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "bb", "22", 2), 3);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_TRUSTED, "t", "", 0), 4);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_ACL_ACCESS, "", "acl", 3), 5);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "a", "1", 1), 6);
	xb_expect_valid(test, x);
	xb_expect_order(test, x, want, ARRAY_SIZE(want));
	e = pram_xblock_find(x->a, PRAM_XATTR_INDEX_USER, "bb", 2);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(e->e_value_len), 2);
	KUNIT_EXPECT_EQ(test, memcmp(pram_xattr_value(e), "22", 2), 0);
	KUNIT_EXPECT_NULL(test, pram_xblock_find(x->a, PRAM_XATTR_INDEX_USER, "b", 1));
	KUNIT_EXPECT_NULL(test, pram_xblock_find(x->a, PRAM_XATTR_INDEX_TRUSTED, "a", 1));
	KUNIT_EXPECT_NULL(test, pram_xblock_find(NULL, PRAM_XATTR_INDEX_USER, "a", 1));
}

static void xblock_edit_replace_remove_test(struct kunit *test)
{
	static const char *const one[] = { "1:b" };
	struct xb *x = xb_new(test);
	const struct pram_xattr_entry *e;

	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "a", "old", 3), 1);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "b", "b", 1), 2);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "a", "longer", 6), 2);
	xb_expect_valid(test, x);
	e = pram_xblock_find(x->a, PRAM_XATTR_INDEX_USER, "a", 1);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, memcmp(pram_xattr_value(e), "longer", 6), 0);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "a", NULL, 0), 1);
	xb_expect_valid(test, x);
	xb_expect_order(test, x, one, ARRAY_SIZE(one));
	/* Removing the last leaves no block to keep. */
	memset(x->b, 0, BS);
	KUNIT_EXPECT_EQ(test, pram_xblock_edit(x->b, x->a, BS, OWNER,
					       PRAM_XATTR_INDEX_USER, "b", 1,
					       NULL, 0), 0);
}

static void xblock_edit_limits_test(struct kunit *test)
{
	struct xb *x = xb_new(test);
	char name[PRAM_XATTR_NAME_MAX + 2], *value;
	/* Header, entry head and a one-byte name: the largest value. */
	u32 max = BS - sizeof(struct pram_xattr_header) -
		  sizeof(struct pram_xattr_entry) - 1;

	value = kunit_kzalloc(test, BS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, value);
	memset(name, 'n', sizeof(name));
	name[PRAM_XATTR_NAME_MAX + 1] = 0;
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, name, "v", 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "", "v", 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_ACL_ACCESS, "n", "v", 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, xb_set(x, 5, "n", "v", 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "n", value, max + 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "n", value, max), 1);
	xb_expect_valid(test, x);
	KUNIT_EXPECT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "m", "", 0), -ENOSPC);
	/* A value the VFS allows (64 KiB) that no block holds. */
	KUNIT_EXPECT_EQ(test, pram_xblock_edit(x->b, NULL, BS, OWNER,
					       PRAM_XATTR_INDEX_USER, "m", 1,
					       value, U16_MAX + 1), -ENOSPC);
}

/* ---- pram_xblock_check over damaged blocks ---- */

struct xblock_case {
	const char *name;
	void (*mutate)(u8 *blk);
	bool resum;		/* recompute the checksum after */
	const char *why;
};

static struct pram_xattr_header *hdr(u8 *blk) { return (void *)blk; }

static struct pram_xattr_entry *entry(u8 *blk, u32 off)
{
	return (void *)(blk + sizeof(struct pram_xattr_header) + off);
}

/* The valid block: user.a = "xy" (8 bytes), user.bb = "z" (8 bytes). */
static void xm_magic(u8 *blk)
{
	hdr(blk)->x_magic = cpu_to_le32(1);
}

static void xm_owner(u8 *blk) { hdr(blk)->x_owner = cpu_to_le32(OWNER + 1); }
static void xm_csum(u8 *blk) { entry(blk, 0)->e_name[0] ^= 1; }
static void xm_used_big(u8 *blk) { hdr(blk)->x_used = cpu_to_le16(BS + 4); }
static void xm_used_odd(u8 *blk) { le16_add_cpu(&hdr(blk)->x_used, -2); }
/* The last entry's name and value past x_used, zeroed: the tail is. */
static void xm_used_short(u8 *blk)
{
	le16_add_cpu(&hdr(blk)->x_used, -4);
	memset(blk + 16 + 8 + 4, 0, 4);
}

static void xm_used_long(u8 *blk) { le16_add_cpu(&hdr(blk)->x_used, 4); }
static void xm_count_zero(u8 *blk)
{
	hdr(blk)->x_count = cpu_to_le16(0);
}

static void xm_count_big(u8 *blk) { hdr(blk)->x_count = cpu_to_le16(3); }
static void xm_tail(u8 *blk) { blk[BS - 1] = 1; }
static void xm_index(u8 *blk) { entry(blk, 0)->e_index = 5; }
static void xm_acl_name(u8 *blk) { entry(blk, 0)->e_index = PRAM_XATTR_INDEX_ACL_ACCESS; }
static void xm_value_len(u8 *blk) { entry(blk, 8)->e_value_len = cpu_to_le16(900); }
static void xm_order(u8 *blk) { entry(blk, 0)->e_index = PRAM_XATTR_INDEX_TRUSTED; }
static void xm_repeat(u8 *blk) { memcpy(entry(blk, 8), entry(blk, 0), 8); }
static void xm_pad(u8 *blk) { entry(blk, 0)->e_name[3] = 1; }

static const struct xblock_case xblock_cases[] = {
	{ "valid", NULL, false, NULL },
	{ "magic", xm_magic, false, "not an attribute block" },
	{ "owner", xm_owner, false, "attribute block of another inode" },
	{ "checksum", xm_csum, false, "attribute block checksum" },
	{ "in use past the block", xm_used_big, false, "attribute block size out of range" },
	{ "in use not aligned", xm_used_odd, true, "attribute block size out of range" },
	{ "in use cuts an entry", xm_used_short, true, "entry past the bytes in use" },
	{ "in use past the entries", xm_used_long, true, "bytes in use past the last entry" },
	{ "no entries", xm_count_zero, true, "empty attribute block" },
	{ "count past the entries", xm_count_big, true, "entry past the bytes in use" },
	{ "tail not zero", xm_tail, false, "attribute block tail not zero" },
	{ "unknown namespace", xm_index, true, "unknown namespace or bad name length" },
	{ "ACL with a name", xm_acl_name, true, "unknown namespace or bad name length" },
	{ "value past the block", xm_value_len, true, "entry past the bytes in use" },
	{ "out of order", xm_order, true, "entries out of order or repeated" },
	{ "repeated", xm_repeat, true, "entries out of order or repeated" },
	{ "padding", xm_pad, true, "entry padding not zero" },
};

static void xblock_case_desc(const struct xblock_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(xblock, xblock_cases, xblock_case_desc);

static void xblock_check_test(struct kunit *test)
{
	const struct xblock_case *c = test->param_value;
	struct xb *x = xb_new(test);
	const char *why = NULL;

	KUNIT_ASSERT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "a", "xy", 2), 1);
	KUNIT_ASSERT_EQ(test, xb_set(x, PRAM_XATTR_INDEX_USER, "bb", "z", 1), 2);
	KUNIT_ASSERT_EQ(test, le16_to_cpu(hdr(x->a)->x_used), 16 + 8 + 8);
	if (c->mutate)
		c->mutate(x->a);
	if (c->resum)
		hdr(x->a)->x_csum = cpu_to_le32(pram_xblock_csum(x->a));
	if (!c->why) {
		xb_expect_valid(test, x);
		return;
	}
	KUNIT_EXPECT_EQ(test, pram_xblock_check(x->a, BS, OWNER, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, c->why);
}

static struct kunit_case xblock_test_cases[] = {
	KUNIT_CASE(xblock_edit_order_test),
	KUNIT_CASE(xblock_edit_replace_remove_test),
	KUNIT_CASE(xblock_edit_limits_test),
	KUNIT_CASE_PARAM(xblock_check_test, xblock_gen_params),
	{}
};

static struct kunit_suite xblock_suite = {
	.name = "pramfs_xblock",
	.test_cases = xblock_test_cases,
};

kunit_test_suite(xblock_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for PRAMFS attribute blocks");
