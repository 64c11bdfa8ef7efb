// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS at its edges, for each block size: a full inode table, every
 * block used, the allocators wrapped round, and free counts that drift
 * (crafted), each followed by an unmount and a mount that must find
 * everything; and a directory at the link limit. A filesystem PRAMFS
 * wrote must always mount again.
 *
 * Needs root, pramfs registered, /dev/mem, and PRAM_PHYS and PRAM_SIZE in
 * the environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "pramfs_image.h"

#define SMALL_N		64	/* inodes of the small filesystems */

FIXTURE(edge) {
	struct nvram nv;
};

FIXTURE_VARIANT(edge) {
	unsigned int bs;
};

FIXTURE_VARIANT_ADD(edge, bs512) { .bs = 512 };
FIXTURE_VARIANT_ADD(edge, bs1024) { .bs = 1024 };
FIXTURE_VARIANT_ADD(edge, bs2048) { .bs = 2048 };
FIXTURE_VARIANT_ADD(edge, bs4096) { .bs = 4096 };

FIXTURE_SETUP(edge)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
}

FIXTURE_TEARDOWN_PARENT(edge)
{
	umount2(MNT, MNT_DETACH);
}

static int format(const struct nvram *nv, unsigned int bs, unsigned int n)
{
	return do_mount(MNT, 0, "physaddr=%#llx,init=1M,bs=%u,N=%u", nv->phys,
			bs, n);
}

static int mount_again(const struct nvram *nv)
{
	return do_mount(MNT, 0, "physaddr=%#llx", nv->phys);
}

/* Create empty files PREFIX<i> from @start until ENOSPC: how many. */
static int fill_inodes(const char *prefix, int start)
{
	char name[64];
	int i, fd;

	for (i = start;; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		fd = open(at(name), O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			return errno == ENOSPC ? i - start : -errno;
		close(fd);
	}
}

/* Create the empty files PREFIX0 to PREFIX<n - 1>: 0 or -1. */
static int make_files(const char *prefix, int n)
{
	char name[64];
	int i, fd;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		fd = open(at(name), O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

static int unlink_range(const char *prefix, int from, int to)
{
	char name[64];
	int i;

	for (i = from; i < to; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		if (unlink(at(name)))
			return -1;
	}
	return 0;
}

/* Append the pattern @seed to @name until ENOSPC: the bytes written. */
static long long fill_blocks(const char *name, unsigned int seed)
{
	int fd = open(at(name), O_CREAT | O_WRONLY | O_APPEND, 0644);
	uint8_t buf[4096];
	long long done = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	for (;;) {
		fill_pattern(buf, sizeof(buf), seed, done);
		n = write(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		done += n;
	}
	close(fd);
	return n < 0 && errno == ENOSPC ? done : -1;
}

/* 0 if @name holds exactly @len bytes of the pattern @seed. */
static int check_file(const char *name, long long len, unsigned int seed)
{
	int fd = open(at(name), O_RDONLY);
	uint8_t buf[4096];
	long long off = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (check_pattern(buf, n, seed, off) >= 0)
			break;
		off += n;
	}
	close(fd);
	return n == 0 && off == len ? 0 : -1;
}

/*
 * The superblock as an unmount left it: hints inside the inode table and
 * the data area, free counts no larger than what there is.
 */
static void expect_sane_superblock(struct __test_metadata *_metadata,
				   const struct nvram *nv)
{
	uint8_t *img = nvram_map(nv);
	uint64_t inodes, blocks, data;

	ASSERT_NE(NULL, img);
	inodes = sb_get(img, SB_INODES, 4);
	blocks = sb_get(img, SB_BLOCKS, 4);
	data = sb_get(img, SB_BITMAP_START, 4) + sb_get(img, SB_BITMAP_BLOCKS, 4) +
	       JOURNAL_BYTES / sb_get(img, SB_BLOCKSIZE, 4);
	EXPECT_EQ(data - JOURNAL_BYTES / sb_get(img, SB_BLOCKSIZE, 4),
		  sb_get(img, SB_JOURNAL, 4));
	EXPECT_LE(ROOT_INO, sb_get(img, SB_INODE_HINT, 4));
	EXPECT_GT(ROOT_INO + inodes, sb_get(img, SB_INODE_HINT, 4));
	EXPECT_LE(data, sb_get(img, SB_BLOCK_HINT, 4));
	EXPECT_GT(blocks, sb_get(img, SB_BLOCK_HINT, 4));
	EXPECT_GT(inodes, sb_get(img, SB_FREE_INODES, 4));
	EXPECT_GE(blocks - data, sb_get(img, SB_FREE_BLOCKS, 4));
	EXPECT_TRUE(sb_get(img, SB_STATE, 2) & STATE_CLEAN);
	munmap(img, nv->size);
}

/* Unmount, look at the superblock, and mount again. */
static void cycle(struct __test_metadata *_metadata, const struct nvram *nv)
{
	ASSERT_EQ(0, umount(MNT));
	expect_sane_superblock(_metadata, nv);
	ASSERT_EQ(0, mount_again(nv));
}

/* The report that made this issue: init=1M,N=14, files until ENOSPC. */
TEST_F(edge, full_inode_table_mounts_again)
{
	struct counts fresh;
	int n;

	ASSERT_EQ(0, format(&self->nv, variant->bs, 14));
	fresh = fs_counts(MNT);
	n = fill_inodes("f", 0);
	EXPECT_EQ(fresh.ffree, n);
	EXPECT_EQ(0, fs_counts(MNT).ffree);
	cycle(_metadata, &self->nv);
	EXPECT_EQ(n + 2, count_entries(MNT));
	EXPECT_EQ(0, fs_counts(MNT).ffree);

	/* Drain, mount, refill: the same number fits. */
	ASSERT_EQ(0, unlink_range("f", 0, n));
	EXPECT_EQ(fresh.ffree, fs_counts(MNT).ffree);
	cycle(_metadata, &self->nv);
	EXPECT_EQ(fresh.ffree, fs_counts(MNT).ffree);
	EXPECT_EQ(n, fill_inodes("g", 0));
	cycle(_metadata, &self->nv);
	EXPECT_EQ(n + 2, count_entries(MNT));
}

/*
 * One slot left: a create with a long name needs two (the inode's, held
 * until it is linked, and a name record's), so it fails, and the slot
 * is still there for a short name.
 */
TEST_F(edge, a_long_name_never_takes_the_new_inodes_slot)
{
	char name[201];
	int n;

	ASSERT_EQ(0, format(&self->nv, variant->bs, 14));
	n = fill_inodes("f", 0);
	ASSERT_LT(1, n);
	ASSERT_EQ(0, unlink_range("f", n / 2, n / 2 + 1));
	memset(name, 'l', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	EXPECT_EQ(-1, open(at(name), O_CREAT | O_EXCL | O_WRONLY, 0644));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(1, fs_counts(MNT).ffree);
	EXPECT_EQ(1, fill_inodes("g", 0));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(0, fsck_exit(&self->nv, "/tmp/pramfs-fsck.out")) {
		system("head -n 12 /tmp/pramfs-fsck.out >&2");
	}
	ASSERT_EQ(0, mount_again(&self->nv));
	EXPECT_EQ(n + 2, count_entries(MNT));
}

TEST_F(edge, every_block_used_mounts_again)
{
	struct counts fresh;
	long long len, again;

	ASSERT_EQ(0, format(&self->nv, variant->bs, SMALL_N));
	fresh = fs_counts(MNT);
	len = fill_blocks("big", 1);
	ASSERT_LT(0, len);
	EXPECT_EQ(0, fs_counts(MNT).bfree);
	cycle(_metadata, &self->nv);
	EXPECT_EQ(0, check_file("big", len, 1));
	EXPECT_EQ(0, fs_counts(MNT).bfree);

	ASSERT_EQ(0, truncate(at("big"), 0));
	EXPECT_EQ(fresh.bfree, fs_counts(MNT).bfree);
	cycle(_metadata, &self->nv);
	EXPECT_EQ(fresh.bfree, fs_counts(MNT).bfree);
	again = fill_blocks("big", 2);
	EXPECT_EQ(len, again);
	cycle(_metadata, &self->nv);
	EXPECT_EQ(0, check_file("big", again, 2));
}

/*
 * The hints pass the end and come back to the start: the first half of
 * the inodes freed behind them, and blocks freed near the start after
 * the rest were taken.
 */
TEST_F(edge, allocators_wrap_round)
{
	long long a, b, c;
	int n;

	ASSERT_EQ(0, format(&self->nv, variant->bs, SMALL_N));
	n = fill_inodes("f", 0);
	ASSERT_LT(4, n);
	ASSERT_EQ(0, unlink_range("f", 0, n / 2));
	EXPECT_EQ(n / 2, fill_inodes("g", 0));
	cycle(_metadata, &self->nv);
	EXPECT_EQ(n + 2, count_entries(MNT));
	ASSERT_EQ(0, unlink_range("f", n / 2, n));
	ASSERT_EQ(0, unlink_range("g", 0, n / 2));

	/* Half the blocks in a, the rest in b; a goes; c takes its room. */
	a = fill_blocks("a", 1);
	ASSERT_EQ(0, truncate(at("a"), a / 2));
	b = fill_blocks("b", 2);
	ASSERT_EQ(0, unlink(at("a")));
	c = fill_blocks("c", 3);
	ASSERT_LT(0, b);
	ASSERT_LT(0, c);
	EXPECT_EQ(0, fs_counts(MNT).bfree);
	cycle(_metadata, &self->nv);
	EXPECT_EQ(0, check_file("b", b, 2));
	EXPECT_EQ(0, check_file("c", c, 3));
}

/* Set the stored free inode count, and the clean flag or not. */
static void craft_free_inodes(struct __test_metadata *_metadata,
			      const struct nvram *nv, uint32_t count,
			      bool clean)
{
	uint8_t *img;
	uint16_t state;

	ASSERT_EQ(0, umount(MNT));
	img = nvram_map(nv);
	ASSERT_NE(NULL, img);
	state = sb_get(img, SB_STATE, 2);
	sb_set(img, SB_FREE_INODES, 4, count);
	sb_set(img, SB_STATE, 2, clean ? state | STATE_CLEAN : state & ~STATE_CLEAN);
	munmap(img, nv->size);
	ASSERT_EQ(0, mount_again(nv));
}

static uint32_t stored_free_inodes(const struct nvram *nv)
{
	uint8_t *img = nvram_map(nv);
	uint32_t v = img ? sb_get(img, SB_FREE_INODES, 4) : 0xdead;

	if (img)
		munmap(img, nv->size);
	return v;
}

/*
 * A stored count that is wrong (a power cut, or crafted): taken as it is
 * after a clean unmount, counted again at the edge it crosses, never
 * wrapped; counted at mount when out of range or not clean.
 */
TEST_F(edge, drifted_free_inode_count_never_wraps)
{
	unsigned long long total;
	int n;

	ASSERT_EQ(0, format(&self->nv, variant->bs, SMALL_N));
	total = fs_counts(MNT).ffree;

	/*
	 * Too low: the sixth file finds the count at 0 and it is counted
	 * again, not wrapped; the table fills to its real size.
	 */
	craft_free_inodes(_metadata, &self->nv, 5, true);
	EXPECT_EQ(5, fs_counts(MNT).ffree);
	ASSERT_EQ(0, make_files("f", 6));
	EXPECT_EQ(total - 6, fs_counts(MNT).ffree);
	n = 6 + fill_inodes("f", 6);
	EXPECT_EQ(total, n);
	EXPECT_EQ(0, fs_counts(MNT).ffree);
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(0, stored_free_inodes(&self->nv));
	ASSERT_EQ(0, mount_again(&self->nv));
	ASSERT_EQ(0, unlink_range("f", 0, n));
	EXPECT_EQ(total, fs_counts(MNT).ffree);

	/* Too high: ENOSPC where the table is full, and the count is 0. */
	ASSERT_EQ(0, make_files("g", 10));
	craft_free_inodes(_metadata, &self->nv, total, true);
	EXPECT_EQ(total - 10, fill_inodes("h", 0));
	EXPECT_EQ(0, fs_counts(MNT).ffree);
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(0, stored_free_inodes(&self->nv));
	ASSERT_EQ(0, mount_again(&self->nv));
	ASSERT_EQ(0, unlink_range("h", 0, total - 10));

	/* Out of range, or not clean: counted at mount. */
	craft_free_inodes(_metadata, &self->nv, total + 7, true);
	EXPECT_EQ(total - 10, fs_counts(MNT).ffree);
	craft_free_inodes(_metadata, &self->nv, 3, false);
	EXPECT_EQ(total - 10, fs_counts(MNT).ffree);
	ASSERT_EQ(0, unlink_range("g", 0, 10));
	EXPECT_EQ(total, fs_counts(MNT).ffree);
}

/* ---- the link limit: i_links_count is 16 bits ---- */

#define LINK_MAX_NLINK	65535

FIXTURE(limit) {
	struct nvram nv;
};

FIXTURE_SETUP(limit)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=16M,bs=512,N=70000",
			      self->nv.phys));
}

FIXTURE_TEARDOWN_PARENT(limit)
{
	umount2(MNT, MNT_DETACH);
}

static void expect_full_dir(struct __test_metadata *_metadata, int subdirs)
{
	struct stat st;

	ASSERT_EQ(0, stat(at("d"), &st));
	EXPECT_EQ(LINK_MAX_NLINK, st.st_nlink);
	EXPECT_EQ(subdirs + 2, count_entries(at("d")));
}

TEST_F_TIMEOUT(limit, mkdir_gives_emlink_at_the_limit, 600)
{
	int i, subdirs = LINK_MAX_NLINK - 2;
	char name[32];

	ASSERT_EQ(0, mkdir(at("d"), 0755));
	for (i = 0; i < subdirs; i++) {
		snprintf(name, sizeof(name), "d/%d", i);
		ASSERT_EQ(0, mkdir(at(name), 0755)) {
			TH_LOG("mkdir %s: %s", name, strerror(errno));
		}
	}
	EXPECT_EQ(-1, mkdir(at("d/one-more"), 0755));
	EXPECT_EQ(EMLINK, errno);
	/* Moving a directory in counts too. */
	ASSERT_EQ(0, mkdir(at("e"), 0755));
	EXPECT_EQ(-1, rename(at("e"), at("d/e")));
	EXPECT_EQ(EMLINK, errno);
	expect_full_dir(_metadata, subdirs);

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, umount(MNT));
		ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
		expect_full_dir(_metadata, subdirs);
	}
	/* Room for one again after an rmdir. */
	ASSERT_EQ(0, rmdir(at("d/0")));
	EXPECT_EQ(0, rename(at("e"), at("d/e")));
	expect_full_dir(_metadata, subdirs);
}

TEST_HARNESS_MAIN
