// SPDX-License-Identifier: GPL-2.0-only
/*
 * pramfs-corrupt IMAGE CASE: damage a PRAMFS image in one known way, for
 * the tests of fsck.pramfs (and of the kernel). The image is the one
 * tools/tests/run.sh makes (mkfs.pramfs -d of its tree): the cases name
 * its paths. Checksums are recomputed wherever the case is not the
 * checksum itself, so what is tested is the check behind it.
 * "pramfs-corrupt --list" names the cases.
 */
#include <stdlib.h>
#include "libpramfs.h"

static struct pram_image img;

static u32 ino(const char *path)
{
	return pram_img_resolve(&img, path);
}

static struct pram_inode *rec(u32 n)
{
	return pram_img_inode(&img, n);
}

static void resum(u32 n)
{
	pram_img_resum(&img, n);
}

/* Both superblocks, checksums kept. */
static void sb_set(size_t off, u32 v)
{
	struct pram_super_block *ps;
	int i;

	for (i = 0; i < 2; i++) {
		ps = (void *)(img.base + i * PRAM_SB_COPY_OFFSET);
		*(__le32 *)((u8 *)ps + off) = cpu_to_le32(v);
		ps->s_csum = cpu_to_le32(pram_super_csum(ps));
	}
}

/* A data block of regular file @path: its first mapped one. */
static __le32 *first_entry(const char *path)
{
	const struct pram_inode *pi = rec(ino(path));
	__le32 *rows = pram_img_block(&img, le32_to_cpu(pi->i_type.reg.row_block));
	__le32 *cols = pram_img_block(&img, le32_to_cpu(rows[0]));

	return cols;
}

static void c_sb_primary(void) { img.base[offsetof(struct pram_super_block, s_mtime)] ^= 1; }

static void c_sb_both(void)
{
	img.base[offsetof(struct pram_super_block, s_wtime)] ^= 1;
	img.base[PRAM_SB_COPY_OFFSET + offsetof(struct pram_super_block, s_wtime)] ^= 1;
}

static void c_sb_geometry(void)
{
	sb_set(offsetof(struct pram_super_block, s_bitmap_blocks),
	       le32_to_cpu(img.sb->s_bitmap_blocks) + 1);
}

static void c_hints(void)
{
	sb_set(offsetof(struct pram_super_block, s_free_inode_hint), 1);
	sb_set(offsetof(struct pram_super_block, s_free_blocknr_hint),
	       img.geo.blocks_count + 7);
}

static void c_inode_csum(void) { ((u8 *)&rec(ino("/a/f2"))->i_mtime)[0] ^= 1; }

static void c_inode_bad(void)
{
	u32 f2 = ino("/a/f2");

	rec(f2)->i_mode = cpu_to_le16(S_IFMT | 0644);
	resum(f2);
}

static void c_free_in_list(void)
{
	u32 f2 = ino("/a/f2");

	pram_img_inode(&img, f2)->i_mode = 0;
	pram_img_resum(&img, f2);
}

static void c_cycle(void)
{
	u32 f4 = ino("/a/f4");

	rec(f4)->i_next = cpu_to_le32(ino("/a/f1"));
	resum(f4);
}

static void c_back_link(void)
{
	u32 f4 = ino("/a/f4");

	rec(f4)->i_prev = cpu_to_le32(ino("/a/f1"));
	resum(f4);
}

static void c_tail(void)
{
	u32 a = ino("/a");

	rec(a)->i_type.dir.tail = cpu_to_le32(ino("/a/f2"));
	resum(a);
}

static void c_parent(void)
{
	u32 f3 = ino("/a/f3");

	rec(f3)->i_parent = cpu_to_le32(ino("/b"));
	resum(f3);
}

static void c_name_bad(void)
{
	u32 f3 = ino("/a/f3");

	memcpy(rec(f3)->i_name, "f/3", 3);
	resum(f3);
}

static void c_name_dup(void)
{
	u32 f4 = ino("/a/f4");

	memcpy(pram_img_inode(&img, f4)->i_name, "f1", 3);
	pram_img_resum(&img, f4);
}

static void c_links(void)
{
	u32 f1 = ino("/a/f1");
	u32 a = ino("/a");

	rec(f1)->i_links_count = cpu_to_le16(3);
	resum(f1);
	rec(a)->i_links_count = cpu_to_le16(7);
	resum(a);
}

static void c_map_meta(void) { first_entry("/a/f1")[0] = cpu_to_le32(1); }

static void c_map_range(void)
{
	first_entry("/a/f1")[1] = cpu_to_le32(img.geo.blocks_count + 5);
}

static void c_dup_block(void) { first_entry("/a/f2")[0] = first_entry("/a/f1")[0]; }

/* /a/f2's row block is /a/f1's: f2 loses its map, not its name. */
static void c_dup_row(void)
{
	u32 f2 = ino("/a/f2");

	rec(f2)->i_type.reg.row_block = rec(ino("/a/f1"))->i_type.reg.row_block;
	resum(f2);
}

static void c_i_blocks(void)
{
	u32 f1 = ino("/a/f1");

	le32_add_cpu(&rec(f1)->i_blocks, 3);
	resum(f1);
}

static void c_symlink_nul(void)
{
	u32 link = ino("/link");

	struct pram_inode *pi = rec(link);
	char *t = pram_img_block(&img, le32_to_cpu(pi->i_type.reg.row_block));

	t[le64_to_cpu(pi->i_size)] = 'x';
}

static void c_bitmap_clear(void)
{
	__clear_bit_le(le32_to_cpu(first_entry("/a/f1")[0]), pram_img_bitmap(&img));
}

static void c_leaked(void)
{
	u32 b;

	if (pram_bitmap_alloc(pram_img_bitmap(&img), &img.geo, img.geo.data_start, &b))
		pram_die("no free block to leak");
}

/* Take @ino out of directory @dir's list, as a cut could leave it. */
static void cut(u32 dir, u32 ino)
{
	struct pram_inode *pi = rec(ino), *d = rec(dir);
	u32 prev = le32_to_cpu(pi->i_prev), next = le32_to_cpu(pi->i_next);

	if (prev) {
		rec(prev)->i_next = cpu_to_le32(next);
		resum(prev);
	} else {
		d->i_type.dir.head = cpu_to_le32(next);
	}
	if (next) {
		rec(next)->i_prev = cpu_to_le32(prev);
		resum(next);
	} else {
		d->i_type.dir.tail = cpu_to_le32(prev);
	}
	resum(dir);
	pi->i_prev = pi->i_next = pi->i_parent = 0;
	resum(ino);
}

/* /a/f5 out of its list: its data stays. */
static void c_orphan(void) { cut(ino("/a"), ino("/a/f5")); }

/* /a/f5 unlinked while open: no links, no parent, its blocks still held. */
static void c_deleted(void)
{
	u32 f5 = ino("/a/f5");

	cut(ino("/a"), f5);
	rec(f5)->i_links_count = 0;
	resum(f5);
}

/*
 * /b out of the root's list, and its only entry /b/h1 numbered below it
 * (records swapped if need be), so that an inode-order pass meets the
 * child before the directory.
 */
static void c_orphan_dir(void)
{
	u32 b = ino("/b"), h1 = ino("/b/h1");
	struct pram_inode tmp;

	cut(PRAM_ROOT_INO, b);
	if (h1 < b)
		return;
	tmp = *rec(b);
	*rec(b) = *rec(h1);
	*rec(h1) = tmp;
	rec(h1)->i_type.dir.head = rec(h1)->i_type.dir.tail = cpu_to_le32(b);
	rec(b)->i_parent = cpu_to_le32(h1);
	resum(b);
	resum(h1);
}

/* /a's list broken twice: its third entry lies between the breaks. */
static void c_two_breaks(void)
{
	u32 e[4], i;

	e[0] = le32_to_cpu(rec(ino("/a"))->i_type.dir.head);
	for (i = 1; i < 4; i++)
		e[i] = le32_to_cpu(rec(e[i - 1])->i_next);
	rec(e[1])->i_next = 0;
	resum(e[1]);
	rec(e[3])->i_prev = 0;
	resum(e[3]);
}

/* The superblock copy valid, but older than the primary. */
static void c_sb_copy_stale(void)
{
	struct pram_super_block *ps = (void *)(img.base + PRAM_SB_COPY_OFFSET);

	le64_add_cpu(&ps->s_wtime, -1);
	ps->s_csum = cpu_to_le32(pram_super_csum(ps));
}

static void c_errors_flag(void)
{
	struct pram_super_block *ps;
	int i;

	for (i = 0; i < 2; i++) {
		ps = (void *)(img.base + i * PRAM_SB_COPY_OFFSET);
		ps->s_state |= cpu_to_le16(PRAM_STATE_ERRORS);
		ps->s_csum = cpu_to_le32(pram_super_csum(ps));
	}
}

static struct pram_journal_head *jhead(void)
{
	return (void *)(img.base + pram_journal_offset(&img.geo));
}

/*
 * A power cut in the middle of a change of /a/f3's record: its old
 * contents are in the journal, of the open transaction, and the record
 * has its new name.
 */
static void c_journal_undo(void)
{
	struct pram_journal_entry *e = (void *)jhead();
	u32 f3 = ino("/a/f3"), gen = le32_to_cpu(jhead()->j_gen);
	u64 off = pram_ino_offset(f3);

	pram_journal_fill_lines(&e[1], gen, 1, off, img.base + off,
				PRAM_INODE_SIZE);
	memset(rec(f3)->i_name, 0, PRAM_NAME_LEN);
	memcpy(rec(f3)->i_name, "cut", 3);
	resum(f3);
}

/*
 * The same cut in a change of /a/f3's list links and times logged in slot
 * entries (INCOMPAT_SLOT): each holds its range and the record's old
 * checksum, and the record is sealed anew. Undone, the record is whole
 * again; its checksum left as the cut left it, it would not be.
 */
static void c_journal_slot(void)
{
	struct pram_journal_entry *e = (void *)jhead();
	u32 f3 = ino("/a/f3"), gen = le32_to_cpu(jhead()->j_gen);
	u64 off = pram_ino_offset(f3);
	struct pram_inode *pi = rec(f3);

	pram_journal_fill_slot(&e[1], gen, 1, off + 40, img.base + off + 40, 16,
			       pi->i_csum);
	pram_journal_fill_slot(&e[2], gen, 2, off + 68, img.base + off + 68, 12,
			       pi->i_csum);
	pi->i_mtime = pi->i_ctime = cpu_to_le64(1);
	pi->i_next = pi->i_prev = cpu_to_le32(f3);
	resum(f3);
}

#define STALE_LINE	100	/* past the undo's lines */

/*
 * The same cut in the last transaction of a round of j_gen, with line
 * STALE_LINE as a line of the last round may be: valid, of generation 0.
 * The undo brings j_gen round to 0, and the lines are to go with it.
 */
static void c_journal_wrap(void)
{
	struct pram_journal_entry *e = (void *)jhead();

	jhead()->j_gen = cpu_to_le32(U32_MAX);
	c_journal_undo();
	pram_journal_fill(&e[STALE_LINE], 0, STALE_LINE,
			  pram_ino_offset(ino("/a/f2")), img.base, 44);
}

/*
 * j_gen come round to 0 by a commit, the power cut before its lines were
 * cleared: line STALE_LINE is still one of the last round's.
 */
static void c_journal_round(void)
{
	struct pram_journal_entry *e = (void *)jhead();

	jhead()->j_gen = 0;
	pram_journal_fill(&e[STALE_LINE], 7, STALE_LINE,
			  pram_ino_offset(ino("/a/f2")), img.base, 44);
}

static void c_journal_head(void)
{
	jhead()->j_magic = 0;
}

/* The entry @name of directory @dir itself, not the inode it names. */
static u32 entry(const char *dir, const char *name)
{
	u32 e = pram_img_lookup(&img, ino(dir), name, strlen(name));

	if (!e)
		pram_die("%s/%s: not found", dir, name);
	return e;
}

/* The long name's entry in /c: the one entry there that is not f4-link. */
static u32 long_entry(void)
{
	u32 e = le32_to_cpu(rec(ino("/c"))->i_type.dir.head);

	return e == entry("/c", "f4-link") ? le32_to_cpu(rec(e)->i_next) : e;
}

/* A free slot, taken for a record the case makes. */
static u32 free_slot(void)
{
	u32 n;

	if (pram_itable_find_free(rec(PRAM_ROOT_INO), &img.geo, PRAM_ROOT_INO, &n))
		pram_die("no free inode");
	return n;
}

/*
 * A free slot with bytes past its first 44: what an undone create leaves
 * (of the new record only its first journal line, the mode among its 44
 * bytes, is restored), until the mount after the cut clears it.
 */
static void c_free_dirty(void)
{
	struct pram_inode *pi = rec(free_slot());

	pi->i_ctime = cpu_to_le64(1);
	pi->i_parent = cpu_to_le32(ino("/a"));
	memcpy(pi->i_name, "undone", 6);
}

/* /a/f4 has two names, its count says one. */
static void c_hardlink_count(void)
{
	u32 f4 = ino("/a/f4");

	rec(f4)->i_links_count = cpu_to_le16(1);
	resum(f4);
}

/* /c/f4-link names a free slot. */
static void c_link_target(void)
{
	u32 l = entry("/c", "f4-link");

	rec(l)->i_type.link.ino = cpu_to_le32(free_slot());
	resum(l);
}

/* A third name of /a/f4 in no directory, counted. */
static void c_link_orphan(void)
{
	u32 f4 = ino("/a/f4"), l = free_slot();

	rec(l)->i_mode = cpu_to_le16(PRAM_S_IFLINK);
	rec(l)->i_type.link.ino = cpu_to_le32(f4);
	memcpy(rec(l)->i_name, "ghost", 5);
	resum(l);
	rec(f4)->i_links_count = cpu_to_le16(3);
	resum(f4);
}

/*
 * /a/f4's own entry gone (its name in /c stays), but a long name left in
 * its record, naming a slot out of range.
 */
static void c_unlisted_name(void)
{
	u32 f4 = ino("/a/f4");

	cut(ino("/a"), f4);
	rec(f4)->i_flags |= cpu_to_le32(PRAM_INODE_LONGNAME);
	memset(rec(f4)->i_long.l_head, 'h', PRAM_NAME_HEAD);
	rec(f4)->i_long.l_rec[0] = cpu_to_le32(img.geo.inodes_count + 99);
	resum(f4);
}

/* A link entry in no list that names directory /a, its parent /b. */
static void c_link_orphan_dir(void)
{
	u32 l = free_slot();

	rec(l)->i_mode = cpu_to_le16(PRAM_S_IFLINK);
	rec(l)->i_type.link.ino = cpu_to_le32(ino("/a"));
	rec(l)->i_parent = cpu_to_le32(ino("/b"));
	memcpy(rec(l)->i_name, "dirlink", 7);
	resum(l);
}

/* A byte of the long name's first record, its checksum left. */
static void c_name_rec_bad(void)
{
	u32 r = pram_name_rec_at(rec(long_entry()), 0);

	((struct pram_name_rec *)rec(r))->n_part[3] ^= 1;
}

/* A byte of /a/f2's attribute block: its checksum fails. */
static void c_xattr_bad(void)
{
	u32 block = le32_to_cpu(rec(ino("/a/f2"))->i_xattr);

	((u8 *)pram_img_block(&img, block))[20] ^= 1;
}

/* /a/f5's first data block is /a/f2's attribute block: the data wins. */
static void c_xattr_shared(void)
{
	first_entry("/a/f5")[0] = rec(ino("/a/f2"))->i_xattr;
}

/* A valid name record that /a/f1 (a short name) does not hold. */
static void c_name_rec_orphan(void)
{
	static const char name[] = "an-orphan-part-of-a-name-longer-than-forty-eight-bytes";
	u32 r = free_slot();

	pram_name_rec_fill((struct pram_name_rec *)rec(r), r, ino("/a/f1"), name,
			   sizeof(name) - 1, 0);
}

/* Block @b back to free, counted (the superblocks are committed after). */
static void free_block(u32 b)
{
	memset(pram_img_block(&img, b), 0, img.geo.blocksize);
	__clear_bit_le(b, pram_img_bitmap(&img));
	le32_add_cpu(&img.sb->s_free_blocks_count, 1);
}

/*
 * /a/f2, a file of one block, made a direct file as the kernel makes one
 * (mkfs.pramfs -d never does): its data block named in its record, its
 * row and column blocks freed, i_blocks 1, and INCOMPAT_DIRECT set in
 * both superblocks if @feature.
 */
static u32 make_direct_file(const char *path, bool feature)
{
	u32 f = ino(path);
	struct pram_inode *pi = rec(f);
	u32 row = le32_to_cpu(pi->i_type.reg.row_block);
	u32 col = le32_to_cpu(((__le32 *)pram_img_block(&img, row))[0]);

	if (le32_to_cpu(pi->i_blocks) != 3)
		pram_die("%s: not a file of one block", path);
	pi->i_type.reg.direct = first_entry(path)[0];
	pi->i_type.reg.row_block = 0;
	pi->i_blocks = cpu_to_le32(1);
	resum(f);
	free_block(col);
	free_block(row);
	if (feature)
		pram_img_set_incompat(&img, PRAM_FEATURE_INCOMPAT_DIRECT);
	pram_img_super_commit(&img);
	return f;
}

static u32 make_direct(bool feature)
{
	return make_direct_file("/a/f2", feature);
}

/* /a/f2 a direct file naming @block, its own block freed. */
static void redirect(u32 block)
{
	u32 f2 = make_direct(true);

	free_block(le32_to_cpu(rec(f2)->i_type.reg.direct));
	pram_img_super_commit(&img);
	rec(f2)->i_type.reg.direct = cpu_to_le32(block);
	resum(f2);
}

/* Not a corruption: a valid direct file, as the kernel leaves one. */
static void c_direct(void) { make_direct(true); }

/* /a/f2's direct block is /a/f1's first data block. */
static void c_direct_dup(void) { redirect(le32_to_cpu(first_entry("/a/f1")[0])); }

/* The same, with every free block marked used: no block for a copy. */
static void c_direct_dup_full(void)
{
	u32 b;

	c_direct_dup();
	while (!pram_bitmap_alloc(pram_img_bitmap(&img), &img.geo, img.geo.data_start, &b))
		;
	img.sb->s_free_blocks_count = 0;
	pram_img_super_commit(&img);
}

static void c_direct_range(void) { redirect(img.geo.blocks_count + 5); }

/* A valid direct file, but the superblocks lack INCOMPAT_DIRECT. */
static void c_direct_nofeature(void) { make_direct(false); }

/* The superblocks lose a feature bit that records use. */
static void drop_feature(u32 bit)
{
	img.sb->s_feature_incompat &= ~cpu_to_le32(bit);
	img.geo.incompat &= ~bit;
	pram_img_super_commit(&img);
}

/* /a/f2 direct, with its attributes, and both bits lost at once. */
static void c_direct_xattr_nofeature(void)
{
	make_direct(false);
	drop_feature(PRAM_FEATURE_INCOMPAT_XATTR);
}

/*
 * The empty /a/f3 names /a/f1's first block as a direct block, its
 * checksum not updated, without the feature: no witness for it.
 */
static void c_direct_stray(void)
{
	rec(ino("/a/f3"))->i_type.reg.direct = first_entry("/a/f1")[0];
}

/*
 * /a/f2 direct without the feature, and cut from its list as a rename
 * without the journal leaves it, with a long name (which pass 1 drops):
 * the record is still a witness.
 */
static void c_unlisted_direct_nofeature(void)
{
	u32 f2 = make_direct(false);

	cut(ino("/a"), f2);
	rec(f2)->i_flags |= cpu_to_le32(PRAM_INODE_LONGNAME);
	memset(rec(f2)->i_long.l_head, 'h', PRAM_NAME_HEAD);
	rec(f2)->i_long.l_rec[0] = cpu_to_le32(ino("/a/f1"));
	resum(f2);
}

static void c_links_nofeature(void) { drop_feature(PRAM_FEATURE_INCOMPAT_LINKS); }
static void c_longnames_nofeature(void) { drop_feature(PRAM_FEATURE_INCOMPAT_LONGNAMES); }
static void c_xattr_nofeature(void) { drop_feature(PRAM_FEATURE_INCOMPAT_XATTR); }

/*
 * Records that are no witness (fsck's feature_witness()), the bit lost:
 * /a/f2 direct but deleted; /c/f4-link naming a free slot, or /b.
 */
static void c_deleted_direct_nofeature(void)
{
	u32 f2 = make_direct(false);

	cut(ino("/a"), f2);
	rec(f2)->i_links_count = 0;
	resum(f2);
}

/*
 * /b/h1 a direct file unlinked and its block's bit cleared: a cut
 * stopped its eviction, which logs nothing, after the bit.
 */
static void c_deleted_freed(void)
{
	u32 h1 = make_direct_file("/b/h1", true);

	cut(ino("/b"), h1);
	rec(h1)->i_links_count = 0;
	resum(h1);
	free_block(le32_to_cpu(rec(h1)->i_type.reg.direct));
	pram_img_super_commit(&img);
}

static void c_link_target_nofeature(void)
{
	c_link_target();
	drop_feature(PRAM_FEATURE_INCOMPAT_LINKS);
}

static void c_link_dir_nofeature(void)
{
	u32 l = entry("/c", "f4-link");

	rec(l)->i_type.link.ino = cpu_to_le32(ino("/b"));
	resum(l);
	drop_feature(PRAM_FEATURE_INCOMPAT_LINKS);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "sb-primary", c_sb_primary },	{ "sb-both", c_sb_both },
	{ "sb-geometry", c_sb_geometry }, { "hints", c_hints },
	{ "inode-csum", c_inode_csum },	{ "inode-bad", c_inode_bad },
	{ "free-in-list", c_free_in_list }, { "cycle", c_cycle },
	{ "back-link", c_back_link },	{ "tail", c_tail },
	{ "parent", c_parent },		{ "name-bad", c_name_bad },
	{ "name-dup", c_name_dup },	{ "links", c_links },
	{ "map-meta", c_map_meta },	{ "map-range", c_map_range },
	{ "dup-block", c_dup_block },	{ "i-blocks", c_i_blocks },
	{ "symlink-nul", c_symlink_nul }, { "bitmap-clear", c_bitmap_clear },
	{ "leaked", c_leaked },		{ "orphan", c_orphan },
	{ "errors-flag", c_errors_flag }, { "deleted", c_deleted },
	{ "deleted-freed", c_deleted_freed },
	{ "orphan-dir", c_orphan_dir },	{ "sb-copy-stale", c_sb_copy_stale },
	{ "two-breaks", c_two_breaks },	{ "journal-undo", c_journal_undo },
	{ "journal-wrap", c_journal_wrap }, { "journal-slot", c_journal_slot },
	{ "journal-round", c_journal_round },
	{ "journal-head", c_journal_head }, { "hardlink-count", c_hardlink_count },
	{ "link-target", c_link_target }, { "link-orphan", c_link_orphan },
	{ "name-rec-bad", c_name_rec_bad }, { "name-rec-orphan", c_name_rec_orphan },
	{ "unlisted-name", c_unlisted_name }, { "link-orphan-dir", c_link_orphan_dir },
	{ "xattr-bad", c_xattr_bad },	{ "xattr-shared", c_xattr_shared },
	{ "direct", c_direct },		{ "direct-dup", c_direct_dup },
	{ "direct-dup-full", c_direct_dup_full }, { "direct-range", c_direct_range },
	{ "direct-nofeature", c_direct_nofeature }, { "dup-row", c_dup_row },
	{ "links-nofeature", c_links_nofeature },
	{ "longnames-nofeature", c_longnames_nofeature },
	{ "xattr-nofeature", c_xattr_nofeature },
	{ "direct-xattr-nofeature", c_direct_xattr_nofeature },
	{ "direct-stray", c_direct_stray },
	{ "unlisted-direct-nofeature", c_unlisted_direct_nofeature },
	{ "deleted-direct-nofeature", c_deleted_direct_nofeature },
	{ "link-target-nofeature", c_link_target_nofeature },
	{ "link-dir-nofeature", c_link_dir_nofeature },
	{ "free-dirty", c_free_dirty },
};

int main(int argc, char **argv)
{
	struct pram_target t = { };
	const char *why_p, *why_c;
	size_t i;

	pram_prog = "pramfs-corrupt";
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			puts(cases[i].name);
		return 0;
	}
	if (argc != 3)
		pram_die("usage: pramfs-corrupt IMAGE CASE | --list");
	t.path = argv[1];
	if (pram_image_open(&img, &t, true) || pram_image_load(&img, &why_p, &why_c))
		pram_die("%s: not a valid PRAMFS image", argv[1]);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!strcmp(cases[i].name, argv[2])) {
			cases[i].fn();
			pram_image_close(&img);
			return 0;
		}
	}
	pram_die("no case %s (--list names them)", argv[2]);
}
