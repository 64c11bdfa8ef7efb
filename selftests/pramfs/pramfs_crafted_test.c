// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS on crafted images: fields written through /dev/mem with the
 * checksums recomputed (pramfs_image.h), so the checks behind the
 * checksums are what is tested. One bad record costs that record: a bad
 * entry is refused and the rest of its directory works; a broken list is
 * repaired on a read-write mount and read as far as it goes on a
 * read-only one; a read-only mount writes nothing (the whole NVRAM is
 * hashed before and after); counts read from NVRAM never free what is
 * linked; the mapped range must be NVRAM; errors= decides what happens.
 *
 * Needs root, pramfs registered, /dev/mem, and PRAM_PHYS and PRAM_SIZE in
 * the environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "../kselftest_harness.h"
#include "pramfs_image.h"

#define GOOD		10	/* good entries beside the one crafted */
#define BS		2048

FIXTURE(crafted) {
	struct nvram nv;
	uint8_t *img;		/* the NVRAM, while unmounted */
};

FIXTURE_SETUP(crafted)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=8M,bs=%u",
			      self->nv.phys, BS));
}

FIXTURE_TEARDOWN_PARENT(crafted)
{
	umount2(MNT, MNT_DETACH);
}

static uint32_t ino_of(const char *name)
{
	struct stat st;

	return lstat(at(name), &st) ? 0 : st.st_ino;
}

/* Unmount and map the NVRAM, to craft it. */
static uint8_t *unmount_and_map(struct __test_metadata *_metadata,
				const struct nvram *nv)
{
	uint8_t *img;

	ASSERT_EQ(0, umount(MNT)) {
		TH_LOG("umount: %s", strerror(errno));
	}
	img = nvram_map(nv);
	ASSERT_NE(NULL, img);
	return img;
}

static int mount_again(const struct nvram *nv, unsigned long flags,
		       const char *extra)
{
	return do_mount(MNT, flags, "physaddr=%#llx%s", nv->phys, extra);
}

/* Directory @dir with files e0 .. e<GOOD-1> holding their names, then @last. */
static void make_dir(struct __test_metadata *_metadata, const char *dir,
		     const char *last, size_t last_size)
{
	char name[16], path[64];
	int i, fd;

	ASSERT_EQ(0, mkdir(at(dir), 0755));
	for (i = 0; i < GOOD; i++) {
		snprintf(name, sizeof(name), "e%d", i);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		ASSERT_EQ(0, put(path, name));
	}
	if (!last)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, last);
	fd = open(at(path), O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 0));
	while (last_size) {
		size_t n = last_size < sizeof(name) ? last_size : sizeof(name);

		ASSERT_EQ((ssize_t)n, write(fd, name, n));
		last_size -= n;
	}
	close(fd);
}

/* Every good entry of @dir lists and opens with its content. */
static void expect_good_entries(struct __test_metadata *_metadata,
				const char *dir)
{
	char path[64], buf[64];
	int i, fd;
	ssize_t n;

	for (i = 0; i < GOOD; i++) {
		snprintf(path, sizeof(path), "%s/e%d", dir, i);
		fd = open(at(path), O_RDONLY);
		ASSERT_LE(0, fd) {
			TH_LOG("%s: %s", path, strerror(errno));
		}
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		ASSERT_LT(0, n);
		buf[n] = 0;
		EXPECT_STREQ(path + strlen(dir) + 1, buf);
	}
}

/* Does readdir of @dir list @name? */
static int lists(const char *dir, const char *name)
{
	DIR *d = opendir(at(dir));
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d)))
		found |= !strcmp(e->d_name, name);
	if (d)
		closedir(d);
	return found;
}

/* ---- one bad entry among GOOD good ones ---- */

struct bad_entry {
	const char *name;
	size_t size;		/* the victim's bytes */
	void (*craft)(uint8_t *img, uint32_t ino);
	bool listed;		/* readdir still reports it (its record passes) */
	int err;		/* stat of "victim": errno, 0 for a good entry */
	bool stays;		/* stays in the list: rmdir says ENOTEMPTY */
};

static void c_checksum(uint8_t *img, uint32_t ino) { inode_at(img, ino)[I_UID] ^= 1; }
static void c_free(uint8_t *img, uint32_t ino) { inode_set(img, ino, I_MODE, 2, 0); }
static void c_zero(uint8_t *img, uint32_t ino) { memset(inode_at(img, ino), 0, INODE_SIZE); }
static void c_empty_name(uint8_t *img, uint32_t ino) { inode_set_name(img, ino, "", 0); }
static void c_slash(uint8_t *img, uint32_t ino) { inode_set_name(img, ino, "vic/tim", 7); }
static void c_nul(uint8_t *img, uint32_t ino) { inode_set_name(img, ino, "vic\0tim", 7); }
static void c_dup(uint8_t *img, uint32_t ino) { inode_set_name(img, ino, "e3", 2); }
static void c_neg_size(uint8_t *img, uint32_t ino) { inode_set(img, ino, I_SIZE, 8, -1ULL); }
static void c_links_0(uint8_t *img, uint32_t ino) { inode_set(img, ino, I_LINKS, 2, 0); }
static void c_links_2(uint8_t *img, uint32_t ino) { inode_set(img, ino, I_LINKS, 2, 2); }
static void c_flags(uint8_t *img, uint32_t ino) { inode_set(img, ino, I_FLAGS, 4, 1U << 31); }

static void c_big(uint8_t *img, uint32_t ino)
{
	uint64_t entries = BS / 4;

	inode_set(img, ino, I_SIZE, 8, entries * entries * BS + 1);
}

static void c_blocks(uint8_t *img, uint32_t ino)
{
	inode_set(img, ino, I_BLOCKS, 4, inode_get(img, ino, I_BLOCKS, 4) + 1);
}

/* Direct (DIRECT) and a row block: the row is its own direct block. */
static void c_direct_row(uint8_t *img, uint32_t ino)
{
	inode_set(img, ino, I_ROW, 4, inode_get(img, ino, I_DIRECT, 4));
}

/* A direct block in the metadata: block 1 (the inode table). */
static void c_direct_range(uint8_t *img, uint32_t ino)
{
	inode_set(img, ino, I_DIRECT, 4, 1);
}

/* Entry 1 of the row block names the row block itself. */
static void c_own_row(uint8_t *img, uint32_t ino)
{
	uint32_t row = inode_get(img, ino, I_ROW, 4);

	le_put(img + block_off(img, row) + 4, 4, row);
}

/* Its one data block (a direct one), named as its attribute block too. */
static void c_xattr(uint8_t *img, uint32_t ino)
{
	inode_set(img, ino, I_XATTR, 4, inode_get(img, ino, I_DIRECT, 4));
}

/*
 * Its first data block named as its attribute block too (the feature
 * set): the next change of its attributes would free it under the file.
 */
static void c_xattr_data(uint8_t *img, uint32_t ino)
{
	uint32_t row = inode_get(img, ino, I_ROW, 4);
	uint32_t column = le_get(img + block_off(img, row), 4);

	sb_set(img, SB_INCOMPAT, 4,
	       sb_get(img, SB_INCOMPAT, 4) | INCOMPAT_XATTR);
	inode_set(img, ino, I_XATTR, 4,
		  le_get(img + block_off(img, column), 4));
}

static const struct bad_entry bad_entries[] = {
	{ "bad checksum", 0, c_checksum, false, EUCLEAN, true },
	{ "free inode in the list", 0, c_free, false, ENOENT, false },
	{ "zeroed record in the list", 0, c_zero, false, ENOENT, false },
	{ "empty name", 0, c_empty_name, false, ENOENT, true },
	{ "name with a slash", 0, c_slash, false, ENOENT, true },
	{ "name with a NUL inside", 0, c_nul, false, ENOENT, true },
	{ "name of another entry", 0, c_dup, false, ENOENT, true },
	{ "negative size", 100, c_neg_size, false, EUCLEAN, true },
	{ "size past s_maxbytes", 100, c_big, false, EUCLEAN, true },
	{ "block count not the map's", 100, c_blocks, true, EUCLEAN, true },
	{ "map naming its own row block", BS + 100, c_own_row, true, EUCLEAN, true },
	{ "direct block and a row block", 100, c_direct_row, false, EUCLEAN, true },
	{ "direct block out of range", 100, c_direct_range, false, EUCLEAN, true },
	{ "unknown inode flag", 0, c_flags, false, EUCLEAN, true },
	{ "xattr block without the feature", 100, c_xattr, false, EUCLEAN, true },
	{ "xattr block that is a data block", BS + 100, c_xattr_data, true, EUCLEAN, true },
	{ "file without links", 0, c_links_0, false, EUCLEAN, true },
	{ "file with two links", 0, c_links_2, false, EUCLEAN, true },
};

/*
 * The victim is refused however often it is looked up, and logged once
 * (since @before) if it stays in the list; a free one just goes.
 */
static void expect_victim(struct __test_metadata *_metadata,
			  const struct bad_entry *b, const char *needle,
			  unsigned long long mark)
{
	struct stat st;
	int i;

	EXPECT_EQ(b->listed, lists("d", "victim"));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(-1, stat(at("d/victim"), &st));
		EXPECT_EQ(b->err, errno);
	}
	EXPECT_EQ(b->stays, klog_since(mark, needle));
	/* The name another entry holds still leads to that entry. */
	EXPECT_EQ(0, stat(at("d/e3"), &st));
}

static void bad_entry_case(struct __test_metadata *_metadata,
			   const struct nvram *nv, const struct bad_entry *b,
			   bool ro)
{
	char path[64], needle[64];
	uint32_t victim;
	struct stat st;
	unsigned long long mark;
	uint64_t hash;
	int i;
	uint8_t *img;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=8M,bs=%u", nv->phys,
			      BS));
	make_dir(_metadata, "d", "victim", b->size);
	victim = ino_of("d/victim");
	snprintf(needle, sizeof(needle), "error: inode %u: ", victim);
	img = unmount_and_map(_metadata, nv);
	b->craft(img, victim);
	munmap(img, nv->size);
	hash = nvram_hash(nv);

	mark = klog_mark();
	ASSERT_EQ(0, mount_again(nv, ro ? MS_RDONLY : 0, ""));
	expect_good_entries(_metadata, "d");
	expect_victim(_metadata, b, needle, mark);
	EXPECT_LE(GOOD + 2, count_entries(at("d")));
	if (ro) {
		walk_all(MNT);
		ASSERT_EQ(0, umount(MNT));
		EXPECT_EQ(hash, nvram_hash(nv));
		return;
	}
	/* The others come and go; the directory keeps the bad one. */
	ASSERT_EQ(0, put("d/new", "new"));
	for (i = 0; i < GOOD; i++) {
		snprintf(path, sizeof(path), "d/e%d", i);
		ASSERT_EQ(0, unlink(at(path)));
	}
	ASSERT_EQ(0, unlink(at("d/new")));
	EXPECT_EQ(b->stays ? -1 : 0, rmdir(at("d")));
	if (b->stays)
		EXPECT_EQ(ENOTEMPTY, errno);
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, mount_again(nv, 0, ""));
	EXPECT_EQ(b->stays, exists("d"));
	/* Its neighbours' changes did not make its record valid again. */
	EXPECT_EQ(-1, stat(at("d/victim"), &st));
	EXPECT_EQ(b->err, errno);
	ASSERT_EQ(0, umount(MNT));
}

TEST_F_TIMEOUT(crafted, one_bad_entry_costs_only_itself, 300)
{
	size_t i;
	int ro;

	ASSERT_EQ(0, umount(MNT));
	for (i = 0; i < ARRAY_SIZE(bad_entries); i++) {
		for (ro = 0; ro < 2; ro++) {
			TH_LOG("%s, %s", bad_entries[i].name, ro ? "ro" : "rw");
			bad_entry_case(_metadata, &self->nv, &bad_entries[i], ro);
		}
	}
}

/* ---- broken lists ---- */

/* 0 if @dir's list on NVRAM runs head to tail with every back link right. */
static int list_consistent(uint8_t *img, uint32_t dir, int *entries)
{
	uint32_t ino = inode_get(img, dir, I_HEAD, 4), prev = 0;

	*entries = 0;
	while (ino) {
		if (inode_get(img, ino, I_PREV, 4) != prev ||
		    inode_get(img, ino, I_PARENT, 4) != dir || ino <= prev)
			return -1;
		prev = ino;
		ino = inode_get(img, ino, I_NEXT, 4);
		(*entries)++;
	}
	return inode_get(img, dir, I_TAIL, 4) == prev ? 0 : -1;
}

struct broken_list {
	const char *name;
	void (*craft)(uint8_t *img, uint32_t dir, const uint32_t *e);
};

static void l_back(uint8_t *img, uint32_t dir, const uint32_t *e)
{
	inode_set(img, e[5], I_PREV, 4, e[2]);
}

static void l_tail(uint8_t *img, uint32_t dir, const uint32_t *e)
{
	inode_set(img, dir, I_TAIL, 4, e[7]);
}

static void l_no_head(uint8_t *img, uint32_t dir, const uint32_t *e)
{
	inode_set(img, dir, I_HEAD, 4, 0);
}

static void l_early_end(uint8_t *img, uint32_t dir, const uint32_t *e)
{
	inode_set(img, e[4], I_NEXT, 4, 0);
}

static void l_backwards(uint8_t *img, uint32_t dir, const uint32_t *e)
{
	inode_set(img, e[6], I_NEXT, 4, e[1]);
}

/* The old bug: an entry whose own links were cleared, as if in no list. */
static void l_cleared(uint8_t *img, uint32_t dir, const uint32_t *e)
{
	inode_set(img, e[0], I_NEXT, 4, 0);
	inode_set(img, e[0], I_PREV, 4, 0);
}

/* Two breaks: e4 to e6 lie between them, reachable by neither walk. */
static void l_two_breaks(uint8_t *img, uint32_t dir, const uint32_t *e)
{
	inode_set(img, e[3], I_NEXT, 4, 0);
	inode_set(img, e[7], I_PREV, 4, 0);
}

static const struct broken_list broken_lists[] = {
	{ "a wrong back link", l_back },
	{ "a wrong tail", l_tail },
	{ "no head", l_no_head },
	{ "a forward chain ending early", l_early_end },
	{ "a forward link back to an earlier entry", l_backwards },
	{ "an entry with its links cleared", l_cleared },
	{ "a bad forward and a bad back link", l_two_breaks },
};

static void broken_list_case(struct __test_metadata *_metadata,
			     const struct nvram *nv,
			     const struct broken_list *l, bool ro)
{
	uint32_t e[GOOD], dir;
	uint64_t hash;
	uint8_t *img;
	char path[64];
	int i, n;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=8M,bs=%u", nv->phys,
			      BS));
	make_dir(_metadata, "d", NULL, 0);
	dir = ino_of("d");
	for (i = 0; i < GOOD; i++) {
		snprintf(path, sizeof(path), "d/e%d", i);
		e[i] = ino_of(path);
	}
	img = unmount_and_map(_metadata, nv);
	l->craft(img, dir, e);
	munmap(img, nv->size);
	hash = nvram_hash(nv);

	ASSERT_EQ(0, mount_again(nv, ro ? MS_RDONLY : 0, ""));
	expect_good_entries(_metadata, "d");
	EXPECT_EQ(GOOD + 2, count_entries(at("d")));
	if (!ro) {
		/* The entry with cleared links goes without taking the rest. */
		ASSERT_EQ(0, unlink(at("d/e0")));
		ASSERT_EQ(0, put("d/e0", "e0"));
	}
	ASSERT_EQ(0, umount(MNT));
	img = nvram_map(nv);
	ASSERT_NE(NULL, img);
	if (ro) {
		munmap(img, nv->size);
		EXPECT_EQ(hash, nvram_hash(nv));
		return;
	}
	EXPECT_EQ(0, list_consistent(img, dir, &n));
	EXPECT_EQ(GOOD, n);
	munmap(img, nv->size);
	ASSERT_EQ(0, mount_again(nv, 0, ""));
	expect_good_entries(_metadata, "d");
	ASSERT_EQ(0, umount(MNT));
}

TEST_F_TIMEOUT(crafted, broken_lists_repaired_rw_readable_ro, 300)
{
	size_t i;
	int ro;

	ASSERT_EQ(0, umount(MNT));
	for (i = 0; i < ARRAY_SIZE(broken_lists); i++) {
		for (ro = 0; ro < 2; ro++) {
			TH_LOG("%s, %s", broken_lists[i].name, ro ? "ro" : "rw");
			broken_list_case(_metadata, &self->nv, &broken_lists[i], ro);
		}
	}
}

/*
 * A rename finds the target's place, then the source's new place; if the
 * second find meets a list that does not match its index, the index is
 * built again and the list rewritten, and the target's place found first
 * is stale: all are found again. Here, behind the kernel's back, the
 * target's neighbour is freed and the tail made wrong.
 */
TEST_F(crafted, rename_finds_again_after_a_rebuild)
{
	uint32_t dst, x1;
	char buf[8] = { };
	uint8_t *img;
	int fd, n;

	ASSERT_EQ(0, mkdir(at("src"), 0755));
	ASSERT_EQ(0, mkdir(at("dst"), 0755));
	ASSERT_EQ(0, put("dst/x1", "x1"));
	ASSERT_EQ(0, put("dst/target", "old"));
	ASSERT_EQ(0, put("dst/x3", "x3"));
	ASSERT_EQ(0, put("src/file", "new"));
	dst = ino_of("dst");
	x1 = ino_of("dst/x1");
	img = nvram_map(&self->nv);
	ASSERT_NE(NULL, img);
	inode_set(img, x1, I_MODE, 2, 0);
	inode_set(img, dst, I_TAIL, 4, x1);
	munmap(img, self->nv.size);

	ASSERT_EQ(0, rename(at("src/file"), at("dst/target")));
	fd = open(at("dst/target"), O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(3, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	EXPECT_STREQ("new", buf);
	img = unmount_and_map(_metadata, &self->nv);
	EXPECT_EQ(0, list_consistent(img, dst, &n));
	EXPECT_EQ(2, n);
	munmap(img, self->nv.size);
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(4, count_entries(at("dst")));
	EXPECT_TRUE(exists("dst/x3"));
}

/*
 * Free slots that are not all zeros (a cut while a record was freed,
 * before the next mount clears them; or corruption): the records made
 * in them start from zeros all the same, and nothing of the old bytes
 * shows.
 */
TEST_F(crafted, new_records_in_dirty_free_slots_start_from_zeros)
{
	uint32_t ino, hint, end, dirtied = 0;
	uint8_t buf[3 * BS];
	uint8_t *img;
	int fd;

	img = unmount_and_map(_metadata, &self->nv);
	hint = sb_get(img, SB_INODE_HINT, 4);
	end = ROOT_INO + sb_get(img, SB_INODES, 4);
	for (ino = hint; ino < end && dirtied < 4; ino++) {
		if (inode_get(img, ino, I_MODE, 2))
			continue;
		inode_set(img, ino, I_BLOCKS, 4, 7);
		inode_set(img, ino, I_FLAGS, 4, 1);
		inode_set(img, ino, I_XATTR, 4, 0x7fffffff);
		inode_set(img, ino, I_ROW, 4, 0x7ffffff0);
		inode_set(img, ino, I_TAIL, 4, 0x7ffffff1);
		dirtied++;
	}
	munmap(img, self->nv.size);
	ASSERT_EQ(4, dirtied);
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));

	fd = open(at("f"), O_CREAT | O_EXCL | O_RDWR, 0644);
	ASSERT_LE(0, fd);
	fill_pattern(buf, sizeof(buf), 9, 0);
	EXPECT_EQ(sizeof(buf), pwrite(fd, buf, sizeof(buf), 0));
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(sizeof(buf), pread(fd, buf, sizeof(buf), 0));
	EXPECT_EQ(-1, check_pattern(buf, sizeof(buf), 9, 0));
	close(fd);
	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("d/x", "x"));
	ASSERT_EQ(0, symlink("f", at("s")));
	ASSERT_EQ(0, mknod(at("p"), S_IFIFO | 0600, 0));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(0, fsck_exit(&self->nv, "/tmp/pramfs-fsck.out")) {
		system("head -n 12 /tmp/pramfs-fsck.out >&2");
	}
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
}

/*
 * After an unclean stop, a read-only mount then remount,rw finishes what
 * the cut left, as a read-write mount does: here a free slot that is not
 * all zeros (a record's eviction cut after its mode went).
 */
TEST_F(crafted, remount_rw_after_an_unclean_stop_finishes_the_cut)
{
	uint32_t ino = 0, end;
	uint8_t *img;

	img = unmount_and_map(_metadata, &self->nv);
	end = ROOT_INO + sb_get(img, SB_INODES, 4);
	while (++ino < end && (ino <= ROOT_INO || inode_get(img, ino, I_MODE, 2)))
		;
	ASSERT_GT(end, ino);
	inode_set(img, ino, I_LINKS, 2, 1);
	inode_set(img, ino, I_SIZE, 8, 12345);
	sb_set(img, SB_STATE, 2, sb_get(img, SB_STATE, 2) & ~STATE_CLEAN);
	munmap(img, self->nv.size);
	ASSERT_EQ(0, mount_again(&self->nv, MS_RDONLY, ""));
	ASSERT_EQ(0, mount_again(&self->nv, MS_REMOUNT, ""));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(0, fsck_exit(&self->nv, "/tmp/pramfs-fsck.out")) {
		system("head -n 12 /tmp/pramfs-fsck.out >&2");
	}
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
}

/*
 * A deleted direct file whose block's bit a cut cleared before its
 * record went (the eviction frees it without the journal), and whose
 * record fails its checksum, so that the mount after the unclean stop
 * cannot free it: the block stays out of others' reach (the free count
 * does not gain it), since a later free of the record would clear its
 * bit again.
 */
TEST_F(crafted, an_unfreed_deleted_record_keeps_its_free_block)
{
	struct statvfs before, now;
	uint32_t d, f, block;
	uint64_t bitmap;
	uint8_t *img;

	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("d/f", "x"));
	d = ino_of("d");
	f = ino_of("d/f");
	ASSERT_EQ(0, statvfs(MNT, &before));
	img = unmount_and_map(_metadata, &self->nv);
	block = inode_get(img, f, I_DIRECT, 4);
	ASSERT_NE(0, block);
	inode_set(img, d, I_HEAD, 4, 0);
	inode_set(img, d, I_TAIL, 4, 0);
	inode_set(img, f, I_PARENT, 4, 0);
	inode_set(img, f, I_LINKS, 2, 0);
	inode_at(img, f)[I_UID] ^= 1;
	bitmap = block_off(img, sb_get(img, SB_BITMAP_START, 4));
	ASSERT_TRUE(img[bitmap + block / 8] & (1 << (block % 8)));
	img[bitmap + block / 8] &= ~(1 << (block % 8));
	sb_set(img, SB_STATE, 2, sb_get(img, SB_STATE, 2) & ~STATE_CLEAN);
	munmap(img, self->nv.size);

	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	ASSERT_EQ(0, statvfs(MNT, &now));
	EXPECT_EQ(before.f_bfree, now.f_bfree);
}

/* ---- link counts read from NVRAM never free what is linked ---- */

TEST_F(crafted, zero_link_counts_free_nothing)
{
	uint32_t f, d, root_links;
	uint8_t *img, file_rec[INODE_SIZE], dir_rec[INODE_SIZE];
	struct stat st;
	uint64_t hash;

	/* Changes happen in o, so the crafted records' neighbours stay. */
	ASSERT_EQ(0, mkdir(at("o"), 0755));
	ASSERT_EQ(0, put("o/other", "x"));
	ASSERT_EQ(0, put("f", "data"));
	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("d/inside", "x"));
	f = ino_of("f");
	d = ino_of("d");
	img = unmount_and_map(_metadata, &self->nv);
	inode_set(img, f, I_LINKS, 2, 0);
	inode_set(img, d, I_LINKS, 2, 0);
	memcpy(file_rec, inode_at(img, f), INODE_SIZE);
	memcpy(dir_rec, inode_at(img, d), INODE_SIZE);
	munmap(img, self->nv.size);

	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(-1, stat(at("f"), &st));
	EXPECT_EQ(EUCLEAN, errno);
	EXPECT_EQ(-1, stat(at("d"), &st));
	EXPECT_EQ(EUCLEAN, errno);
	ASSERT_EQ(0, unlink(at("o/other")));
	ASSERT_EQ(0, put("o/new", "x"));
	ASSERT_EQ(0, unlink(at("o/new")));
	img = unmount_and_map(_metadata, &self->nv);
	EXPECT_EQ(0, memcmp(file_rec, inode_at(img, f), INODE_SIZE));
	EXPECT_EQ(0, memcmp(dir_rec, inode_at(img, d), INODE_SIZE));

	/* The root with no links: the mount is refused, nothing is freed. */
	root_links = inode_get(img, ROOT_INO, I_LINKS, 2);
	inode_set(img, ROOT_INO, I_LINKS, 2, 0);
	munmap(img, self->nv.size);
	hash = nvram_hash(&self->nv);
	EXPECT_EQ(EINVAL, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(EINVAL, mount_again(&self->nv, MS_RDONLY, ""));
	EXPECT_EQ(hash, nvram_hash(&self->nv));
	img = nvram_map(&self->nv);
	ASSERT_NE(NULL, img);
	inode_set(img, ROOT_INO, I_LINKS, 2, root_links);
	munmap(img, self->nv.size);
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(0, stat(at("o"), &st));
}

/* ---- errors= helpers ---- */

/*
 * A directory d with a bad entry (bad checksum): the first error met when
 * d is listed. Leaves the filesystem unmounted, crafted.
 */
static uint32_t make_first_error(struct __test_metadata *_metadata,
				 const struct nvram *nv)
{
	uint32_t victim;
	uint8_t *img;

	make_dir(_metadata, "d", "victim", 0);
	victim = ino_of("d/victim");
	img = unmount_and_map(_metadata, nv);
	c_checksum(img, victim);
	munmap(img, nv->size);
	return victim;
}

static int is_rdonly(void)
{
	struct statvfs sv;

	return !statvfs(MNT, &sv) && (sv.f_flag & ST_RDONLY);
}

static uint16_t state_after_umount(struct __test_metadata *_metadata,
				   const struct nvram *nv)
{
	uint8_t *img = unmount_and_map(_metadata, nv);
	uint16_t state = sb_get(img, SB_STATE, 2);

	munmap(img, nv->size);
	return state;
}

/* ---- read-only means no store ---- */

#define TREE_ENTRIES	7

static void make_tree(struct __test_metadata *_metadata)
{
	int fd;

	ASSERT_EQ(0, mkdir(at("a"), 0755));
	ASSERT_EQ(0, mkdir(at("a/b"), 0700));
	ASSERT_EQ(0, put("a/b/small", "small"));
	fd = open(at("a/big"), O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 3 * 1024 * 1024));
	ASSERT_EQ(5, pwrite(fd, "sparse", 5, 1024 * 1024));
	close(fd);
	ASSERT_EQ(0, symlink("a/b/small", at("link")));
	ASSERT_EQ(0, mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)));
	ASSERT_EQ(0, mknod(at("fifo"), S_IFIFO | 0644, 0));
}

TEST_F(crafted, read_only_writes_nothing)
{
	uint8_t *img, before[INODE_SIZE];
	uint32_t gone;
	uint64_t hash;
	int fd;

	make_tree(_metadata);
	ASSERT_EQ(0, umount(MNT));
	hash = nvram_hash(&self->nv);
	ASSERT_EQ(0, mount_again(&self->nv, MS_RDONLY, ""));
	EXPECT_EQ(TREE_ENTRIES, walk_all(MNT));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(hash, nvram_hash(&self->nv));

	/*
	 * An unlinked file still open when the filesystem goes read-only
	 * (remount,ro refuses while one is open, errors=remount-ro does not):
	 * its last close frees nothing.
	 */
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	make_first_error(_metadata, &self->nv);
	ASSERT_EQ(0, mount_again(&self->nv, 0, ",errors=remount-ro"));
	fd = open(at("a/b/small"), O_RDONLY);
	ASSERT_LE(0, fd);
	gone = ino_of("a/b/small");
	ASSERT_EQ(0, unlink(at("a/b/small")));
	EXPECT_EQ(0, lists("d", "victim"));
	ASSERT_TRUE(is_rdonly());
	close(fd);
	walk_all(MNT);
	img = unmount_and_map(_metadata, &self->nv);
	memcpy(before, inode_at(img, gone), INODE_SIZE);
	EXPECT_NE(0, inode_get(img, gone, I_MODE, 2));
	munmap(img, self->nv.size);
	hash = nvram_hash(&self->nv);
	ASSERT_EQ(0, mount_again(&self->nv, MS_RDONLY, ""));
	walk_all(MNT);
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(hash, nvram_hash(&self->nv));
	img = nvram_map(&self->nv);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(0, memcmp(before, inode_at(img, gone), INODE_SIZE));
	munmap(img, self->nv.size);
}

/*
 * A read-only mount that takes the copy because the primary is bad must
 * leave both as they are; so must a walk of a damaged tree.
 */
TEST_F(crafted, read_only_on_a_bad_primary_writes_nothing)
{
	uint8_t *img;
	uint64_t hash;

	make_tree(_metadata);
	img = unmount_and_map(_metadata, &self->nv);
	img[SB_FREE_BLOCKS] ^= 0x5a;
	munmap(img, self->nv.size);
	hash = nvram_hash(&self->nv);
	ASSERT_EQ(0, mount_again(&self->nv, MS_RDONLY, ""));
	EXPECT_EQ(TREE_ENTRIES, walk_all(MNT));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(hash, nvram_hash(&self->nv));
}

/*
 * Journal entries of the open transaction that would put junk over both
 * superblocks (a crafted image; the kernel never logs such): the journal
 * is ignored, and emptied by a read-write mount, instead of undone.
 * Found by make fuzz.
 */
static void forge_super_entries(uint8_t *img)
{
	uint8_t *j = img + block_off(img, sb_get(img, SB_JOURNAL, 4)), *e;
	unsigned int line;

	for (line = 1; line <= 6; line++) {
		e = j + 64 * line;
		memset(e, 0x5a, 64);
		le_put(e + 4, 4, le_get(j + 4, 4));		/* j_gen */
		le_put(e + 8, 8, (line - 1) * 44 - (line > 3 ? 4 : 0));
		le_put(e + 16, 2, line % 3 ? 44 : 40);
		le_put(e + 18, 2, line);
		le_put(e, 4, crc32c(~0U, e + 4, 60));
	}
}

TEST_F(crafted, journal_over_both_superblocks_is_ignored)
{
	uint8_t *img, sb[2 * SB_SIZE];
	unsigned long long mark = klog_mark();
	uint64_t hash;

	make_tree(_metadata);
	img = unmount_and_map(_metadata, &self->nv);
	memcpy(sb, img, sizeof(sb));
	forge_super_entries(img);
	munmap(img, self->nv.size);
	hash = nvram_hash(&self->nv);
	ASSERT_EQ(0, mount_again(&self->nv, MS_RDONLY, ""));
	EXPECT_EQ(TREE_ENTRIES, walk_all(MNT));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(hash, nvram_hash(&self->nv));
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(TREE_ENTRIES, walk_all(MNT));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_LT(0, klog_since(mark, "would leave the superblock invalid"));
	img = nvram_map(&self->nv);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(sb_csum(img), le32_at(img));
	EXPECT_EQ(sb_get(sb, SB_SIZE_FIELD, 8), sb_get(img, SB_SIZE_FIELD, 8));
	munmap(img, self->nv.size);
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(TREE_ENTRIES, walk_all(MNT));
}

/*
 * A bad journal head, which a read-only mount leaves as it found it: the
 * remount read-write makes the journal empty, as a read-write mount
 * does, before any transaction would write over the head.
 */
TEST_F(crafted, bad_journal_head_made_empty_at_remount)
{
	unsigned long long mark;
	uint8_t *img, *j;

	make_tree(_metadata);
	img = unmount_and_map(_metadata, &self->nv);
	j = img + block_off(img, sb_get(img, SB_JOURNAL, 4));
	le_put(j, 4, 0x5a5a5a5a);		/* j_magic */
	munmap(img, self->nv.size);
	ASSERT_EQ(0, mount_again(&self->nv, MS_RDONLY, ""));
	mark = klog_mark();
	ASSERT_EQ(0, mount_again(&self->nv, MS_REMOUNT, ""));
	EXPECT_EQ(1, klog_since(mark, "journal: made empty again"));
	ASSERT_EQ(0, put("new", "x"));
	ASSERT_EQ(0, umount(MNT));
	img = nvram_map(&self->nv);
	ASSERT_NE(NULL, img);
	j = img + block_off(img, sb_get(img, SB_JOURNAL, 4));
	EXPECT_EQ(0x4A524D50, le_get(j, 4));	/* "PMRJ" */
	munmap(img, self->nv.size);
	EXPECT_EQ(0, fsck_exit(&self->nv, "/tmp/pramfs-fsck.out")) {
		system("head -n 12 /tmp/pramfs-fsck.out >&2");
	}
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(TREE_ENTRIES + 1, walk_all(MNT));
}

/* ---- the mapped range is the NVRAM ---- */

TEST_F(crafted, size_past_the_nvram_is_refused)
{
	unsigned long long size = self->nv.size * 2;
	struct geometry g;
	uint8_t *img;
	uint64_t hash;

	img = unmount_and_map(_metadata, &self->nv);
	ASSERT_EQ(0, geometry(size, BS, 0, sb_get(img, SB_INODES, 4), &g));
	ASSERT_EQ(sb_get(img, SB_BITMAP_START, 4), g.bitmap_start);
	sb_set(img, SB_SIZE_FIELD, 8, size);
	sb_set(img, SB_BLOCKS, 4, g.blocks);
	sb_set(img, SB_BITMAP_BLOCKS, 4, g.bitmap_blocks);
	sb_set(img, SB_JOURNAL, 4, g.journal_start);
	munmap(img, self->nv.size);
	hash = nvram_hash(&self->nv);
	EXPECT_EQ(EBUSY, mount_again(&self->nv, 0, ""));
	EXPECT_EQ(EBUSY, mount_again(&self->nv, MS_RDONLY, ""));
	EXPECT_EQ(hash, nvram_hash(&self->nv));
}

/* ---- errors= ---- */

TEST_F(crafted, errors_remount_ro_stops_at_the_first_error)
{
	char line[512], needle[64];
	uint32_t victim = make_first_error(_metadata, &self->nv);
	unsigned long long mark = klog_mark();
	uint16_t state;
	int fd;

	ASSERT_EQ(0, mount_again(&self->nv, 0, ",errors=remount-ro"));
	ASSERT_EQ(0, mount_line(MNT, line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, ",errors=remount-ro"));
	EXPECT_FALSE(is_rdonly());
	/* Opened for writing before the error: its writes stop too. */
	fd = open(at("open"), O_RDWR | O_CREAT, 0644);
	ASSERT_LE(0, fd);
	snprintf(needle, sizeof(needle), "error: inode %u: ", victim);
	EXPECT_EQ(0, lists("d", "victim"));
	EXPECT_LT(0, klog_since(mark, needle));
	EXPECT_TRUE(is_rdonly());
	EXPECT_EQ(-1, put("d/new", "x"));
	EXPECT_EQ(EROFS, errno);
	EXPECT_EQ(-1, write(fd, "x", 1));
	EXPECT_EQ(EROFS, errno);
	EXPECT_EQ(-1, ftruncate(fd, 4096));
	EXPECT_EQ(EROFS, errno);
	EXPECT_EQ(-1, fallocate(fd, 0, 0, 4096));
	EXPECT_EQ(EROFS, errno);
	close(fd);
	expect_good_entries(_metadata, "d");
	state = state_after_umount(_metadata, &self->nv);
	EXPECT_TRUE(state & STATE_ERRORS);
	EXPECT_FALSE(state & STATE_CLEAN);
}

TEST_F(crafted, errors_continue_records_and_goes_on)
{
	char line[512];

	make_first_error(_metadata, &self->nv);
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	ASSERT_EQ(0, mount_line(MNT, line, sizeof(line)));
	EXPECT_EQ(NULL, strstr(line, "errors="));
	EXPECT_EQ(0, lists("d", "victim"));
	EXPECT_FALSE(is_rdonly());
	EXPECT_EQ(0, put("d/new", "x"));
	EXPECT_EQ(STATE_ERRORS | STATE_CLEAN,
		  state_after_umount(_metadata, &self->nv));

	/* The flag stays for fsck; errors= changes on remount. */
	ASSERT_EQ(0, mount_again(&self->nv, 0, ""));
	ASSERT_EQ(0, mount_again(&self->nv, MS_REMOUNT, ",errors=remount-ro"));
	ASSERT_EQ(0, mount_line(MNT, line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, ",errors=remount-ro"));
	EXPECT_EQ(EINVAL, mount_again(&self->nv, MS_REMOUNT, ",errors=sometimes"));
	EXPECT_TRUE(state_after_umount(_metadata, &self->nv) & STATE_ERRORS);
}

TEST_HARNESS_MAIN
