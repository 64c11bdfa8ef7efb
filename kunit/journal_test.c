// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the PRAMFS undo journal's pure code: which entries an
 * undo restores, in which order, and which it refuses, for each way a
 * power cut or a bad image can leave them.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include "format.h"

#define IMG_SIZE	(256 * 1024)
#define IMG_BS		1024
#define MAX_UNDO	8

/* An image with a journal; its area, formatted. */
struct jimg {
	struct pram_geometry	g;
	u8			*base;
	struct pram_journal_entry *e;	/* the area, line by line */
};

static void jimg_init(struct kunit *test, struct jimg *j)
{
	const char *why;

	KUNIT_ASSERT_EQ(test, pram_geometry_compute(&j->g, IMG_SIZE, IMG_BS, 0,
						    64, true, &why), 0);
	j->base = kunit_kzalloc(test, IMG_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, j->base);
	j->e = (void *)(j->base + pram_journal_offset(&j->g));
	pram_journal_format(j->e);
}

static u32 jgen(struct jimg *j)
{
	return le32_to_cpu(((struct pram_journal_head *)j->e)->j_gen);
}

/* Log @len bytes at @off in line @line, as the open transaction. */
static void jlog(struct jimg *j, u32 line, u64 off, u32 len)
{
	pram_journal_fill(&j->e[line], jgen(j), line, off, j->base + off, len);
}

struct undo_seen {
	int	n;
	u64	off[MAX_UNDO];
	u32	len[MAX_UNDO];
};

static void record_undo(void *arg, u64 offset, const void *old, u32 len)
{
	struct undo_seen *s = arg;

	if (s->n < MAX_UNDO) {
		s->off[s->n] = offset;
		s->len[s->n] = len;
	}
	s->n++;
}

/* Each case: what the lines hold; how many an undo restores. */
struct undo_case {
	const char	*name;
	void		(*make)(struct jimg *j);
	int		pending;
	u64		first_off;	/* the first range restored (the last logged) */
	int		calls;		/* ranges restored, if not @pending */
};

#define INODE_3		(3 * PRAM_INODE_SIZE)

static void j_empty(struct jimg *j) { }

static void j_one(struct jimg *j) { jlog(j, 1, INODE_3, 44); }

static void j_record(struct jimg *j)
{
	pram_journal_fill_lines(&j->e[1], jgen(j), 1, INODE_3,
				j->base + INODE_3, PRAM_INODE_SIZE);
}

/* Committed: j_gen moved on, the lines stay but are stale. */
static void j_committed(struct jimg *j)
{
	struct pram_journal_head *h = (void *)j->e;

	j_record(j);
	h->j_gen = cpu_to_le32(jgen(j) + 1);
}

/* A later transaction over the stale lines of an earlier, longer one. */
static void j_shorter_after_longer(struct jimg *j)
{
	struct pram_journal_head *h = (void *)j->e;

	j_record(j);
	h->j_gen = cpu_to_le32(jgen(j) + 1);
	jlog(j, 1, INODE_3 + 256, 8);
}

/* The cut fell while line 2 was written: it and what follows are out. */
static void j_torn(struct jimg *j)
{
	j_record(j);
	j->e[2].e_old[5] ^= 1;
}

static void j_wrong_line(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	pram_journal_fill(&j->e[2], jgen(j), 3, INODE_3 + 44, j->base, 44);
}

static void j_into_journal(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jlog(j, 2, pram_journal_offset(&j->g) + 128, 8);
}

static void j_past_end(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	pram_journal_fill(&j->e[2], jgen(j), 2, IMG_SIZE - 4, j->base, 8);
}

static void j_len_zero(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	pram_journal_fill(&j->e[2], jgen(j), 2, INODE_3, j->base, 0);
}

static void j_data_area(struct jimg *j)
{
	jlog(j, 1, (u64)j->g.data_start * IMG_BS + 12, 4);
}

/* A slot entry of @len bytes at @off, in line @line. */
static void jslot(struct jimg *j, u32 line, u64 off, u32 len)
{
	__le32 csum = cpu_to_le32(0x12345678);

	pram_journal_fill_slot(&j->e[line], jgen(j), line, off, j->base + off,
			       len, csum);
}

static void j_slot(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, INODE_3 + 68, 12);
}

static void j_slot_nofeature(struct jimg *j)
{
	j->g.incompat &= ~PRAM_FEATURE_INCOMPAT_SLOT;
	j_slot(j);
}

static void j_slot_over_csum(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, INODE_3 + 2, 8);
}

static void j_slot_across(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, INODE_3 + 120, 12);
}

/* A slot entry's 40 bytes, its e_len made 41 and its checksum right. */
static void j_slot_too_long(struct jimg *j)
{
	struct pram_journal_entry *e = &j->e[2];

	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, INODE_3 + 4, PRAM_JOURNAL_SLOT_DATA);
	e->e_len = cpu_to_le16(PRAM_JOURNAL_SLOT | (PRAM_JOURNAL_SLOT_DATA + 1));
	e->e_csum = cpu_to_le32(__crc32c_le(~0, (u8 *)e + 4,
					    PRAM_JOURNAL_LINE - 4));
}

static void j_slot_len_zero(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, INODE_3 + 8, 0);
}

/* The first byte past the inode table's last slot: not a slot. */
static u64 jtable_end(struct jimg *j)
{
	return PRAM_ITABLE_OFFSET + ((u64)j->g.inodes_count << PRAM_INODE_BITS);
}

static void j_slot_past_table(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, jtable_end(j) + 8, 4);
}

static void j_slot_last(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, jtable_end(j) - 8, 8);
}

/* In the superblock's block, before the inode table. */
static void j_slot_super(struct jimg *j)
{
	jlog(j, 1, INODE_3, 44);
	jslot(j, 2, PRAM_INODE_SIZE + 8, 4);
}

static void j_bad_magic(struct jimg *j)
{
	j_record(j);
	((struct pram_journal_head *)j->e)->j_magic = 0;
}

static const struct undo_case undo_cases[] = {
	{ "empty journal", j_empty, 0 },
	{ "one entry", j_one, 1, INODE_3 },
	{ "a whole record, last line first", j_record, 3, INODE_3 + 88 },
	{ "committed: nothing to undo", j_committed, 0 },
	{ "stale lines after a shorter transaction", j_shorter_after_longer, 1,
	  INODE_3 + 256 },
	{ "torn entry ends the transaction", j_torn, 1, INODE_3 },
	{ "entry in the wrong line", j_wrong_line, 1, INODE_3 },
	{ "entry restoring the journal itself", j_into_journal, 1, INODE_3 },
	{ "entry past the end", j_past_end, 1, INODE_3 },
	{ "entry of no bytes", j_len_zero, 1, INODE_3 },
	{ "entry in the data area (a block map)", j_data_area, 1, 0 },
	{ "bad head", j_bad_magic, -EUCLEAN },
	{ "slot entry: its range, then its slot's checksum", j_slot, 2,
	  INODE_3 + 68, 3 },
	{ "slot entry without INCOMPAT_SLOT", j_slot_nofeature, 1, INODE_3 },
	{ "slot entry over the checksum", j_slot_over_csum, 1, INODE_3 },
	{ "slot entry across two slots", j_slot_across, 1, INODE_3 },
	{ "slot entry too long", j_slot_too_long, 1, INODE_3 },
	{ "slot entry of no bytes", j_slot_len_zero, 1, INODE_3 },
	{ "slot entry past the inode table", j_slot_past_table, 1, INODE_3 },
	{ "slot entry in the table's last slot", j_slot_last, 2, 0, 3 },
	{ "slot entry before the inode table", j_slot_super, 1, INODE_3 },
};

static void undo_desc(const struct undo_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(undo, undo_cases, undo_desc);

static void undo_test(struct kunit *test)
{
	const struct undo_case *c = test->param_value;
	struct undo_seen seen = { };
	struct jimg j;
	int n;

	jimg_init(test, &j);
	c->make(&j);
	KUNIT_EXPECT_EQ(test, pram_journal_pending(j.e, &j.g), c->pending);
	n = pram_journal_undo(j.e, &j.g, record_undo, &seen);
	KUNIT_EXPECT_EQ(test, n, c->pending);
	KUNIT_EXPECT_EQ(test, seen.n,
			c->calls ?: (c->pending > 0 ? c->pending : 0));
	if (c->pending > 0 && c->first_off)
		KUNIT_EXPECT_EQ(test, seen.off[0], c->first_off);
	/* A slot entry's checksum: 4 bytes, at its slot's start. */
	if (c->calls) {
		KUNIT_EXPECT_EQ(test, seen.off[1], round_down(seen.off[0],
							      PRAM_INODE_SIZE));
		KUNIT_EXPECT_EQ(test, seen.len[1], 4);
	}
}

/* An undo brings back exactly the bytes logged, whatever came after. */
static void restore_bytes(void *arg, u64 offset, const void *old, u32 len)
{
	memcpy((u8 *)arg + offset, old, len);
}

static void restore_test(struct kunit *test)
{
	u8 *was = kunit_kzalloc(test, PRAM_INODE_SIZE, GFP_KERNEL);
	struct jimg j;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, was);
	jimg_init(test, &j);
	for (i = 0; i < PRAM_INODE_SIZE; i++)
		j.base[INODE_3 + i] = i * 7;
	memcpy(was, j.base + INODE_3, PRAM_INODE_SIZE);
	j_record(&j);
	/* The same bytes logged again later in the transaction. */
	memset(j.base + INODE_3, 0xaa, 44);
	jlog(&j, 4, INODE_3, 44);
	memset(j.base + INODE_3, 0x55, PRAM_INODE_SIZE);
	KUNIT_EXPECT_EQ(test, pram_journal_undo(j.e, &j.g, restore_bytes, j.base), 4);
	KUNIT_EXPECT_MEMEQ(test, j.base + INODE_3, was, PRAM_INODE_SIZE);
}

static void head_test(struct kunit *test)
{
	struct pram_journal_head h;
	const char *why;
	struct jimg j;

	jimg_init(test, &j);
	memcpy(&h, j.e, sizeof(h));
	KUNIT_EXPECT_EQ(test, pram_journal_check_head(&h, &why), 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h.j_gen), 1);
	h.j_reserved[3] = 1;
	KUNIT_EXPECT_EQ(test, pram_journal_check_head(&h, &why), -EUCLEAN);
	memcpy(&h, j.e, sizeof(h));
	h.j_lines = cpu_to_le32(PRAM_JOURNAL_LINES - 1);
	KUNIT_EXPECT_EQ(test, pram_journal_check_head(&h, &why), -EUCLEAN);
}

/* Log the 128 bytes at @off in three lines from @line, as a record is. */
static void jlog_record(struct jimg *j, u32 line, u64 off)
{
	pram_journal_fill_lines(&j->e[line], jgen(j), line, off, j->base + off,
				PRAM_SB_SIZE);
}

/*
 * A range's entries are those of pram_journal_fill(), one a line from
 * @line on, the last holding what is left; the line after is untouched.
 */
static const u32 fill_lines_lens[] = { 1, 43, 44, 45, 88, 100, 128 };

static void fill_lines_test(struct kunit *test)
{
	struct pram_journal_entry one;
	u32 i, k, n, len, at;
	struct jimg j;

	jimg_init(test, &j);
	for (i = 0; i < INODE_3 + PRAM_INODE_SIZE; i++)
		j.base[i] = i * 13;
	for (i = 0; i < ARRAY_SIZE(fill_lines_lens); i++) {
		len = fill_lines_lens[i];
		memset(&j.e[5], 0xa5, 4 * sizeof(one));
		n = pram_journal_fill_lines(&j.e[5], 9, 5, INODE_3,
					    j.base + INODE_3, len);
		KUNIT_EXPECT_EQ(test, n, DIV_ROUND_UP(len, PRAM_JOURNAL_DATA));
		for (k = 0; k < n; k++) {
			at = k * PRAM_JOURNAL_DATA;
			pram_journal_fill(&one, 9, 5 + k, INODE_3 + at,
					  j.base + INODE_3 + at,
					  min_t(u32, len - at, PRAM_JOURNAL_DATA));
			KUNIT_EXPECT_MEMEQ_MSG(test, &j.e[5 + k], &one,
					       sizeof(one), "len %u line %u",
					       len, k);
		}
		KUNIT_EXPECT_PTR_EQ_MSG(test, memchr_inv(&j.e[5 + n], 0xa5,
							 sizeof(one)), NULL,
					"len %u", len);
	}
}

/*
 * Slot entries undo a change of a record exactly, its checksum included:
 * each case changes a record sealed as slot 3 and logs the ranges it
 * changes in slot entries first, as the kernel does.
 */
struct slot_case {
	const char	*name;
	void		(*change)(struct pram_inode *pi);
	u32		n;		/* slot entries */
	u32		off[2], len[2];	/* their ranges in the slot */
	bool		then_whole;	/* then the record from byte 0 */
};

static void c_link(struct pram_inode *pi) { pi->i_next = cpu_to_le32(77); }

/* What pram_set_link() changes of a directory's own record. */
static void c_dir_times(struct pram_inode *pi)
{
	pi->i_mtime = cpu_to_le64(5);
	pi->i_ctime = cpu_to_le64(6);
	pi->i_type.dir.tail = cpu_to_le32(9);
}

/* The same link changed twice in one transaction, logged twice. */
static void c_link_twice(struct pram_inode *pi)
{
	pi->i_prev = cpu_to_le32(78);
}

/* A change in the name, at the slot's last byte. */
static void c_name_tail(struct pram_inode *pi) { pi->i_name[47] = 'z'; }

static const struct slot_case slot_cases[] = {
	{ "a list link", c_link, 1, { 68 }, { 4 } },
	{ "a directory's times and tail", c_dir_times, 1, { 40 }, { 28 } },
	{ "one link logged twice", c_link_twice, 2, { 72, 72 }, { 4, 4 } },
	{ "the slot's last bytes", c_name_tail, 1, { 88 }, { 40 } },
	{ "a link, then the record from its checksum on", c_link, 1, { 68 },
	  { 4 }, true },
};

static void slot_desc(const struct slot_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(slot, slot_cases, slot_desc);

static void slot_restore_test(struct kunit *test)
{
	const struct slot_case *c = test->param_value;
	struct pram_inode *pi, old;
	struct jimg j;
	u32 i;

	jimg_init(test, &j);
	pi = (void *)(j.base + INODE_3);
	for (i = 0; i < PRAM_INODE_SIZE; i++)
		((u8 *)pi)[i] = i * 7 + 1;
	pram_slot_seal(pi, 3);
	old = *pi;
	/* Each entry before its change; the change sealed after it. */
	for (i = 0; i < c->n; i++) {
		pram_journal_fill_slot(&j.e[1 + i], jgen(&j), 1 + i,
				       INODE_3 + c->off[i],
				       j.base + INODE_3 + c->off[i], c->len[i],
				       pi->i_csum);
		c->change(pi);
		((u8 *)pi)[c->off[i]] ^= i + 1;
		pram_slot_seal(pi, 3);
	}
	/* An ordinary entry after them: the size changes too. */
	if (c->then_whole) {
		pram_journal_fill_lines(&j.e[1 + i], jgen(&j), 1 + i, INODE_3,
					pi, 2 * PRAM_JOURNAL_DATA);
		pi->i_size = cpu_to_le64(12345);
		pram_slot_seal(pi, 3);
	}
	KUNIT_EXPECT_EQ(test, pram_journal_undo(j.e, &j.g, restore_bytes,
						j.base), c->n + 2 * c->then_whole);
	KUNIT_EXPECT_MEMEQ(test, pi, &old, sizeof(old));
	KUNIT_EXPECT_EQ(test, pram_slot_csum(pi, 3), le32_to_cpu(pi->i_csum));
}

/* Entries that put @byte over the superblock at @off. */
static void jforge_super(struct jimg *j, u32 line, u64 off, u8 byte)
{
	u8 junk[44];
	u32 k;

	memset(junk, byte, sizeof(junk));
	for (k = 0; k < 3; k++)
		pram_journal_fill(&j->e[line + k], jgen(j), line + k, off + 44 * k,
				  junk, k < 2 ? 44 : PRAM_SB_SIZE - 88);
}

/* A journal image whose superblock pair is formatted. */
static struct pram_super_block *super_jimg(struct kunit *test, struct jimg *j)
{
	struct pram_super_block *ps;

	jimg_init(test, j);
	ps = (void *)j->base;
	pram_super_format(ps, &j->g);
	memcpy(j->base + PRAM_SB_COPY_OFFSET, ps, PRAM_SB_SIZE);
	return ps;
}

/*
 * An undo that leaves the superblock in use valid is trusted; one that
 * would not (crafted entries) is not.
 */
static void check_undo_test(struct kunit *test)
{
	struct pram_super_block *ps;
	const char *why;
	struct jimg j;

	/* A change as the kernel makes it: logged, then made. */
	ps = super_jimg(test, &j);
	KUNIT_EXPECT_EQ(test, pram_journal_check_undo(j.e, &j.g, j.base, 0, &why), 0);
	jlog_record(&j, 1, 0);
	le32_add_cpu(&ps->s_free_blocks_count, -1);
	ps->s_csum = cpu_to_le32(pram_super_csum(ps));
	KUNIT_EXPECT_EQ(test, pram_journal_check_undo(j.e, &j.g, j.base, 0, &why), 0);
	/* Junk over the copy: not the one in use. */
	super_jimg(test, &j);
	jforge_super(&j, 1, PRAM_SB_COPY_OFFSET, 0x5a);
	KUNIT_EXPECT_EQ(test, pram_journal_check_undo(j.e, &j.g, j.base, 0, &why), 0);
	KUNIT_EXPECT_EQ(test, pram_journal_check_undo(j.e, &j.g, j.base,
						      PRAM_SB_COPY_OFFSET, &why), -EUCLEAN);
	/* Junk over the primary, even seven bytes of it. */
	super_jimg(test, &j);
	pram_journal_fill(&j.e[1], jgen(&j), 1, 0, "\x5a\x5a\x5a\x5a\xff\xff\0", 7);
	KUNIT_EXPECT_EQ(test, pram_journal_check_undo(j.e, &j.g, j.base, 0, &why), -EUCLEAN);
	/* Committed: nothing to undo, whatever the lines hold. */
	((struct pram_journal_head *)j.e)->j_gen = cpu_to_le32(jgen(&j) + 1);
	KUNIT_EXPECT_EQ(test, pram_journal_check_undo(j.e, &j.g, j.base, 0, &why), 0);
	/*
	 * A valid superblock without SLOT, as an undo's: the slot entries
	 * the lines may hold were taken with it, so the journal is not
	 * trusted.
	 */
	ps = super_jimg(test, &j);
	KUNIT_ASSERT_TRUE(test, pram_has_incompat(&j.g, PRAM_FEATURE_INCOMPAT_SLOT));
	ps->s_feature_incompat &= ~cpu_to_le32(PRAM_FEATURE_INCOMPAT_SLOT);
	ps->s_csum = cpu_to_le32(pram_super_csum(ps));
	jlog_record(&j, 1, 0);
	memcpy(ps, j.base + PRAM_SB_COPY_OFFSET, PRAM_SB_SIZE);
	KUNIT_EXPECT_EQ(test, pram_journal_check_undo(j.e, &j.g, j.base, 0, &why), -EUCLEAN);
}

/* Moving j_gen on from @gen: the lines stay, but where it comes round. */
struct move_case {
	const char	*name;
	u32		gen;
	bool		cleared;
};

static const struct move_case move_cases[] = {
	{ "an ordinary generation", 5, false },
	{ "the round's last but one", U32_MAX - 1, false },
	{ "round to 0: every line cleared", U32_MAX, true },
};

static void move_desc(const struct move_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(move, move_cases, move_desc);

/*
 * A transaction undone at @gen, with a line left from longer ago past
 * its lines (it may carry any generation, here the next one's): after
 * the move, nothing is pending, the head is valid, and the lines are
 * kept or, only when j_gen comes round to 0, cleared.
 */
static void move_on_test(struct kunit *test)
{
	const struct move_case *c = test->param_value;
	struct pram_journal_head *h;
	u8 *lines;
	const char *why;
	struct jimg j;

	jimg_init(test, &j);
	h = (void *)j.e;
	h->j_gen = cpu_to_le32(c->gen);
	j_record(&j);
	pram_journal_fill(&j.e[9], c->gen + 1, 9, INODE_3, j.base, 44);
	lines = kunit_kzalloc(test, PRAM_JOURNAL_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lines);
	memcpy(lines, j.e, PRAM_JOURNAL_SIZE);
	pram_journal_move_on(j.e);
	KUNIT_EXPECT_EQ(test, jgen(&j), c->gen + 1);
	KUNIT_EXPECT_EQ(test, pram_journal_wrapped(h), c->cleared);
	KUNIT_EXPECT_EQ(test, pram_journal_check_head(h, &why), 0);
	KUNIT_EXPECT_EQ(test, pram_journal_pending(j.e, &j.g), 0);
	KUNIT_EXPECT_MEMEQ(test, j.e, lines, 4);	/* the magic */
	if (c->cleared)
		KUNIT_EXPECT_NULL(test, memchr_inv(&j.e[1], 0, PRAM_JOURNAL_SIZE -
							   PRAM_JOURNAL_LINE));
	else
		KUNIT_EXPECT_MEMEQ(test, &j.e[1], lines + PRAM_JOURNAL_LINE,
				   PRAM_JOURNAL_SIZE - PRAM_JOURNAL_LINE);
}

static struct kunit_case pramfs_journal_cases[] = {
	KUNIT_CASE_PARAM(undo_test, undo_gen_params),
	KUNIT_CASE(restore_test),
	KUNIT_CASE(head_test),
	KUNIT_CASE(fill_lines_test),
	KUNIT_CASE_PARAM(slot_restore_test, slot_gen_params),
	KUNIT_CASE(check_undo_test),
	KUNIT_CASE_PARAM(move_on_test, move_gen_params),
	{}
};

static struct kunit_suite pramfs_journal_suite = {
	.name = "pramfs_journal",
	.test_cases = pramfs_journal_cases,
};

kunit_test_suites(&pramfs_journal_suite);
