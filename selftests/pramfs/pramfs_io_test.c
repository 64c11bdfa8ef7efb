// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS file I/O tests, for each block size: direct I/O at aligned and
 * unaligned offsets against a model of the file, pread/pwrite,
 * readv/writev, O_APPEND, short reads, EFBIG, SEEK_DATA/SEEK_HOLE,
 * truncate and fallocate with exact block accounting, no stale data,
 * ENOSPC and back, the page cache left alone, splice and friends, and
 * the bytes found again after a remount.
 *
 * Needs root, pramfs registered, and PRAM_PHYS and PRAM_SIZE in the
 * environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "../kselftest_harness.h"
#include "pramfs_util.h"

#define MODEL_BLOCKS	16

static int create(const char *name)
{
	return open(at(name), O_RDWR | O_CREAT | O_TRUNC, 0644);
}

static int write_pattern(int fd, size_t len, unsigned int seed, off_t off)
{
	uint8_t *buf = malloc(len);
	ssize_t n;

	if (!buf)
		return -1;
	fill_pattern(buf, len, seed, off);
	n = pwrite(fd, buf, len, off);
	free(buf);
	return n == (ssize_t)len ? 0 : -1;
}

/* 0 if [@off, @off + @len) of @fd reads as the pattern @seed, else -1. */
static int read_check(int fd, size_t len, unsigned int seed, off_t off)
{
	uint8_t *buf = malloc(len);
	int ret = -1;

	if (buf && pread(fd, buf, len, off) == (ssize_t)len &&
	    check_pattern(buf, len, seed, off) < 0)
		ret = 0;
	free(buf);
	return ret;
}

/* Blocks a dense file of @n data blocks holds: data, columns, the row. */
static unsigned long long dense_blocks(unsigned long long n, unsigned int bs)
{
	unsigned long long entries = bs / 4;

	return n ? n + (n + entries - 1) / entries + 1 : 0;
}

FIXTURE(io) {
	struct nvram nv;
	unsigned int bs;
	struct counts fresh;
};

FIXTURE_VARIANT(io) {
	unsigned int bs;
};

FIXTURE_VARIANT_ADD(io, bs512) { .bs = 512 };
FIXTURE_VARIANT_ADD(io, bs1024) { .bs = 1024 };
FIXTURE_VARIANT_ADD(io, bs2048) { .bs = 2048 };
FIXTURE_VARIANT_ADD(io, bs4096) { .bs = 4096 };

FIXTURE_SETUP(io)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%llu,bs=%u",
			      self->nv.phys, self->nv.size, variant->bs));
	self->bs = variant->bs;
	self->fresh = fs_counts(MNT);
}

/*
 * In the parent: with the 6.12 harness, a failed ASSERT in the test process
 * can skip a teardown there, leaving the NVRAM mounted for the next test.
 */
FIXTURE_TEARDOWN_PARENT(io)
{
	umount2(MNT, MNT_DETACH);
}

TEST_F(io, every_open_is_o_direct)
{
	int fd = create("f");

	ASSERT_LE(0, fd);
	EXPECT_TRUE(fcntl(fd, F_GETFL) & O_DIRECT);
	EXPECT_EQ(0, fsync(fd));
	EXPECT_EQ(0, fdatasync(fd));
	close(fd);
	/* O_DIRECT asked for explicitly is accepted too. */
	fd = open(at("f"), O_RDONLY | O_DIRECT);
	ASSERT_LE(0, fd);
	close(fd);
}

/* Offsets and lengths in blocks plus bytes, written in this order. */
struct io_case {
	int off_blocks, off_bytes, len_blocks, len_bytes;
};

static const struct io_case io_cases[] = {
	{ 0, 0, 1, 0 },		/* one aligned block */
	{ 0, 1, 0, 1 },		/* one byte inside it */
	{ 1, -1, 0, 2 },	/* two bytes across a boundary */
	{ 2, -7, 2, 14 },	/* unaligned ends over whole blocks */
	{ 5, 0, 0, 100 },	/* aligned start, short */
	{ 7, 3, 0, 0 },		/* nothing */
	{ 9, 5, 3, -10 },	/* past EOF, leaving a hole */
	{ 4, 0, 4, 0 },		/* aligned rewrite over old data */
	{ 15, 0, 1, 0 },	/* the model's last block */
};

TEST_F(io, unaligned_io_matches_a_model)
{
	size_t model_len = MODEL_BLOCKS * self->bs, size = 0, i;
	uint8_t *model = calloc(1, model_len), *buf = malloc(model_len);
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_TRUE(model && buf);
	for (i = 0; i < ARRAY_SIZE(io_cases); i++) {
		const struct io_case *c = &io_cases[i];
		off_t off = (off_t)c->off_blocks * self->bs + c->off_bytes;
		size_t len = (size_t)c->len_blocks * self->bs + c->len_bytes;

		fill_pattern(buf, len, i, off);
		ASSERT_EQ((ssize_t)len, pwrite(fd, buf, len, off));
		memcpy(model + off, buf, len);
		if (len && off + len > size)
			size = off + len;
		/* Read back the range just written, unaligned as it is. */
		memset(buf, 0xee, len);
		ASSERT_EQ((ssize_t)len, pread(fd, buf, len, off));
		EXPECT_EQ(0, memcmp(buf, model + off, len)) {
			TH_LOG("case %zu: off %lld len %zu", i, (long long)off, len);
		}
	}
	/* The whole file, holes as zeros, in one read and block by odd block. */
	ASSERT_EQ((ssize_t)size, pread(fd, buf, model_len, 0));
	EXPECT_EQ(0, memcmp(buf, model, size));
	for (i = 0; i < size; i += self->bs + 3) {
		size_t n = size - i < self->bs + 3 ? size - i : self->bs + 3;

		ASSERT_EQ((ssize_t)n, pread(fd, buf, self->bs + 3, i));
		ASSERT_EQ(0, memcmp(buf, model + i, n));
	}
	close(fd);
	free(model);
	free(buf);
}

/*
 * One write whose runs of entries (64 blocks at most, set together)
 * cross from one new column into the next: the columns it makes wait to
 * be linked with them, two at most at a time.
 */
TEST_F(io, one_write_links_the_columns_it_makes)
{
	unsigned long long per_column = self->bs / 4, n = 2 * per_column + 64;
	off_t off = (per_column - 32) * self->bs + self->bs / 2;
	struct stat st;
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_pattern(fd, n * self->bs, 9, off));
	EXPECT_EQ(0, read_check(fd, n * self->bs, 9, off));
	ASSERT_EQ(0, fstat(fd, &st));
	/* n + 1 data blocks, columns 0 to 3, the row. */
	EXPECT_EQ((n + 1 + 4 + 1) * (self->bs / 512), st.st_blocks);
	close(fd);
	expect_clean(_metadata, self);
}

TEST_F(io, readv_and_writev_cross_blocks)
{
	size_t lens[] = { 3, self->bs, self->bs / 2 + 1 }, total = 0, i;
	uint8_t *src[3], *dst[3];
	struct iovec w[3], r[3];
	int fd = create("f");

	ASSERT_LE(0, fd);
	for (i = 0; i < 3; i++) {
		src[i] = malloc(lens[i]);
		dst[i] = calloc(1, lens[i]);
		ASSERT_TRUE(src[i] && dst[i]);
		fill_pattern(src[i], lens[i], 7, total);
		w[i] = (struct iovec){ src[i], lens[i] };
		r[i] = (struct iovec){ dst[i], lens[i] };
		total += lens[i];
	}
	ASSERT_EQ((ssize_t)total, pwritev(fd, w, 3, self->bs - 1));
	ASSERT_EQ((ssize_t)total, preadv(fd, r, 3, self->bs - 1));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, memcmp(src[i], dst[i], lens[i]));
		free(src[i]);
		free(dst[i]);
	}
	close(fd);
}

TEST_F(io, o_append_writes_at_the_end)
{
	int fd = open(at("f"), O_RDWR | O_CREAT | O_APPEND, 0644);
	char buf[16] = "";

	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "hello", 5));
	ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
	ASSERT_EQ(6, write(fd, " world", 6));
	ASSERT_EQ(11, lseek(fd, 0, SEEK_CUR));
	ASSERT_EQ(11, pread(fd, buf, sizeof(buf), 0));
	EXPECT_STREQ("hello world", buf);
	close(fd);
}

TEST_F(io, reads_stop_at_eof)
{
	size_t size = self->bs + 10;
	char buf[100];
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_pattern(fd, size, 1, 0));
	EXPECT_EQ(10, pread(fd, buf, sizeof(buf), self->bs));
	EXPECT_EQ(0, pread(fd, buf, sizeof(buf), size));
	EXPECT_EQ(0, pread(fd, buf, sizeof(buf), size + 5 * self->bs));
	close(fd);
}

/* (bs / 4)^2 blocks: 8 MiB at 512 bytes a block, 4 GiB at 4096. */
TEST_F(io, efbig_past_the_largest_file)
{
	off_t max = (off_t)(self->bs / 4) * (self->bs / 4) * self->bs;
	struct stat st;
	int fd = create("f");

	ASSERT_LE(0, fd);
	EXPECT_EQ(1, pwrite(fd, "ab", 2, max - 1));
	EXPECT_EQ(-1, pwrite(fd, "c", 1, max));
	EXPECT_EQ(EFBIG, errno);
	EXPECT_EQ(-1, ftruncate(fd, max + 1));
	EXPECT_EQ(EFBIG, errno);
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(max, st.st_size);
	EXPECT_EQ(3 * self->bs / 512, st.st_blocks);	/* row, column, data */
	close(fd);
}

TEST_F(io, seek_data_and_hole_follow_the_map)
{
	unsigned int bs = self->bs, entries = bs / 4;
	/* Blocks 0-1, one past a column boundary, and one 3 columns on. */
	off_t data[][2] = {
		{ 0, 2 * bs },
		{ (off_t)(entries + 1) * bs, (off_t)(entries + 2) * bs },
		{ (off_t)3 * entries * bs + 10, (off_t)3 * entries * bs + 20 },
	};
	off_t size = data[2][1];
	uint8_t *buf = malloc(bs);
	struct stat st;
	size_t i;
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_SIZE(data); i++)
		ASSERT_EQ(0, write_pattern(fd, data[i][1] - data[i][0], i,
					   data[i][0]));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(size, st.st_size);
	EXPECT_EQ((4 + 3 + 1) * (bs / 512), st.st_blocks);

	EXPECT_EQ(0, lseek(fd, 0, SEEK_DATA));
	EXPECT_EQ(2 * bs, lseek(fd, 0, SEEK_HOLE));
	EXPECT_EQ(bs + 7, lseek(fd, bs + 7, SEEK_DATA));
	EXPECT_EQ(data[1][0], lseek(fd, 2 * bs, SEEK_DATA));
	EXPECT_EQ(data[1][1], lseek(fd, data[1][0], SEEK_HOLE));
	/* The data block of the third range starts before the data. */
	EXPECT_EQ((off_t)3 * entries * bs, lseek(fd, data[1][1], SEEK_DATA));
	EXPECT_EQ(size, lseek(fd, (off_t)3 * entries * bs, SEEK_HOLE));
	EXPECT_EQ(-1, lseek(fd, size, SEEK_DATA));
	EXPECT_EQ(ENXIO, errno);
	EXPECT_EQ(-1, lseek(fd, size, SEEK_HOLE));
	EXPECT_EQ(ENXIO, errno);
	/* A hole reads as zeros. */
	ASSERT_EQ(bs, pread(fd, buf, bs, 5 * bs));
	EXPECT_EQ(-1, first_nonzero(buf, bs));
	close(fd);
	free(buf);
}

/* After truncating to @size, the file holds @blocks blocks, fs-wide too. */
static void expect_blocks(struct __test_metadata *_metadata, int fd,
			  const struct counts *fresh, unsigned int bs,
			  unsigned long long blocks)
{
	struct stat st;

	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(blocks * (bs / 512), st.st_blocks);
	EXPECT_EQ(fresh->bfree - blocks, fs_counts(MNT).bfree);
}

/*
 * A write whose user page goes away between the fault-in and the copy
 * (here another thread zaps it, as reclaim could) comes up short in the
 * middle of a fresh block and is retried from there: the retry must write
 * on into the block that holds the first part, not map a second, zeroed
 * one over it (the first part lost, a block leaked).
 */
#define ZAP_ROUNDS	2000

struct zapper {
	uint8_t *page;
	int stop;
};

static void *zap_loop(void *arg)
{
	struct zapper *z = arg;

	while (!__atomic_load_n(&z->stop, __ATOMIC_RELAXED))
		madvise(z->page, 4096, MADV_DONTNEED);
	return NULL;
}

TEST_F_TIMEOUT(io, short_copy_retry_writes_on_into_the_same_block, 600)
{
	unsigned int bs = self->bs, i, bad = 0;
	int fd = create("retry"), mfd = memfd_create("buf", 0);
	struct zapper z = { };
	uint8_t *map, *buf, *back = malloc(bs);
	pthread_t zap;
	struct stat st;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, mfd);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(0, ftruncate(mfd, 8192));
	map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ASSERT_NE(MAP_FAILED, map);
	/* The buffer straddles the page boundary; the second page is zapped. */
	buf = map + 4096 - bs / 2;
	fill_pattern(buf, bs, 7, 0);
	z.page = map + 4096;
	ASSERT_EQ(0, pthread_create(&zap, NULL, zap_loop, &z));
	for (i = 0; i < ZAP_ROUNDS && !bad; i++) {
		if (ftruncate(fd, 0) || pwrite(fd, buf, bs, 0) != bs ||
		    fstat(fd, &st) || pread(fd, back, bs, 0) != bs)
			bad = 1;
		else if (st.st_blocks != bs / 512 ||	/* a direct block */
			 check_pattern(back, bs, 7, 0) >= 0)
			bad = 2;
	}
	__atomic_store_n(&z.stop, 1, __ATOMIC_RELAXED);
	pthread_join(zap, NULL);
	EXPECT_EQ(0, bad) TH_LOG("round %u: %s", i,
				 bad == 1 ? strerror(errno) : "wrong blocks or bytes");
	ASSERT_EQ(0, ftruncate(fd, 0));
	EXPECT_EQ(self->fresh.bfree, fs_counts(MNT).bfree);
	close(fd);
	munmap(map, 8192);
	close(mfd);
	free(back);
}

/* The file holds @blocks blocks and SEEK_HOLE from 0 finds @hole. */
static void expect_file(struct __test_metadata *_metadata, int fd,
			const struct counts *fresh, unsigned int bs,
			unsigned long long blocks, off_t hole)
{
	expect_blocks(_metadata, fd, fresh, bs, blocks);
	EXPECT_EQ(0, lseek(fd, 0, SEEK_DATA));
	EXPECT_EQ(hole, lseek(fd, 0, SEEK_HOLE));
}

/*
 * A file whose one block is block 0 holds that block alone, named by its
 * record (no row, no column), until it needs a second one: then it holds
 * a map, its first block kept. A sparse tail does not need one.
 */
TEST_F(io, a_one_block_file_holds_one_block)
{
	unsigned int bs = self->bs;
	uint8_t *buf = malloc(bs);
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, write_pattern(fd, bs / 2, 5, 0));
	expect_file(_metadata, fd, &self->fresh, bs, 1, bs / 2);
	ASSERT_EQ(0, write_pattern(fd, bs / 2, 5, bs / 2));
	expect_file(_metadata, fd, &self->fresh, bs, 1, bs);
	/* Past block 0 only by the size: holes, no map. */
	ASSERT_EQ(0, ftruncate(fd, 3 * bs));
	expect_file(_metadata, fd, &self->fresh, bs, 1, bs);
	EXPECT_EQ(-1, lseek(fd, bs, SEEK_DATA));
	EXPECT_EQ(ENXIO, errno);
	ASSERT_EQ(bs, pread(fd, buf, bs, 2 * bs));
	EXPECT_EQ(-1, first_nonzero(buf, bs));
	close(fd);
	remount(_metadata, &self->nv);
	fd = open(at("f"), O_RDWR);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, read_check(fd, bs, 5, 0));
	expect_file(_metadata, fd, &self->fresh, bs, 1, bs);
	/* A second block: the row, a column and both blocks. */
	ASSERT_EQ(1, pwrite(fd, "x", 1, 2 * bs));
	expect_file(_metadata, fd, &self->fresh, bs, 4, bs);
	EXPECT_EQ(0, read_check(fd, bs, 5, 0));
	/* Down to part of block 0 it stays mapped; to nothing it holds none. */
	ASSERT_EQ(0, ftruncate(fd, bs / 4));
	expect_file(_metadata, fd, &self->fresh, bs, 3, bs / 4);
	EXPECT_EQ(0, read_check(fd, bs / 4, 5, 0));
	ASSERT_EQ(0, ftruncate(fd, 0));
	expect_blocks(_metadata, fd, &self->fresh, bs, 0);
	/* Direct again, then truncated inside the block and to nothing. */
	ASSERT_EQ(0, write_pattern(fd, bs, 6, 0));
	expect_file(_metadata, fd, &self->fresh, bs, 1, bs);
	ASSERT_EQ(0, ftruncate(fd, bs / 2));
	ASSERT_EQ(0, ftruncate(fd, bs));
	EXPECT_EQ(0, read_check(fd, bs / 2, 6, 0));
	ASSERT_EQ(bs / 2, pread(fd, buf, bs / 2, bs / 2));
	EXPECT_EQ(-1, first_nonzero(buf, bs / 2));
	ASSERT_EQ(0, ftruncate(fd, 0));
	expect_blocks(_metadata, fd, &self->fresh, bs, 0);
	/* Two blocks at once are mapped from the start. */
	ASSERT_EQ(0, write_pattern(fd, 2 * bs, 7, 0));
	expect_file(_metadata, fd, &self->fresh, bs, dense_blocks(2, bs), 2 * bs);
	close(fd);
	free(buf);
	expect_clean(_metadata, self);
}

/*
 * A direct file that cannot get its map and a second block (a row, a
 * column and the block: 3) stays as it was, and what was taken for them
 * goes back; with 3 blocks free it grows.
 */
TEST_F_TIMEOUT(io, a_direct_file_without_room_to_grow_stays_as_it_was, 300)
{
	unsigned int bs = self->bs, i;
	unsigned long long bfree;
	char name[16];
	struct stat st;
	int fd = create("f"), ffd;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_pattern(fd, bs / 2, 8, 0));
	/* Files of the largest size (8 MiB at 512-byte blocks) until full. */
	for (i = 0;; i++) {
		snprintf(name, sizeof(name), "filler%u", i);
		if (!fill_up(name))
			break;
		ASSERT_EQ(EFBIG, errno);
	}
	ffd = open(at("filler0"), O_RDWR);
	ASSERT_LE(0, ffd);
	ASSERT_EQ(0, fstat(ffd, &st));
	ASSERT_GT(3, fs_counts(MNT).bfree);
	while ((bfree = fs_counts(MNT).bfree) < 3) {
		EXPECT_EQ(-1, pwrite(fd, "x", 1, bs));
		EXPECT_EQ(ENOSPC, errno);
		EXPECT_EQ(bfree, fs_counts(MNT).bfree);
		ASSERT_EQ(0, fstat(fd, &st));
		EXPECT_EQ(bs / 512, st.st_blocks);
		EXPECT_EQ(bs / 2, st.st_size);
		/* One block of the filler back. */
		ASSERT_EQ(0, fstat(ffd, &st));
		ASSERT_EQ(0, ftruncate(ffd, (st.st_size - 1) / bs * bs));
	}
	EXPECT_EQ(1, pwrite(fd, "x", 1, bs));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(4 * (bs / 512), st.st_blocks);
	EXPECT_EQ(0, read_check(fd, bs / 2, 8, 0));
	close(ffd);
	close(fd);
	expect_clean(_metadata, self);
}

/*
 * nodirect: a file of one block is mapped (a row, a column, the block)
 * and the DIRECT feature bit (0x10 of s_feature_incompat, byte 20) stays
 * clear; /proc/mounts says so. A remount with direct brings them back.
 */
TEST_F(io, nodirect_maps_every_file)
{
	unsigned int bs = self->bs;
	char line[512];
	struct stat st;
	uint8_t *nv;
	int fd;

	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,nodirect", self->nv.phys));
	ASSERT_EQ(0, mount_line(MNT, line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, ",nodirect"));
	fd = create("f");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_pattern(fd, bs / 2, 4, 0));
	expect_file(_metadata, fd, &self->fresh, bs, 3, bs / 2);
	close(fd);
	ASSERT_EQ(0, umount(MNT));
	nv = nvram_map(&self->nv);
	ASSERT_NE(NULL, nv);
	EXPECT_EQ(0, le32_at(nv + 20) & 0x10);
	munmap(nv, self->nv.size);

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,nodirect", self->nv.phys));
	ASSERT_EQ(0, do_mount(MNT, MS_REMOUNT, "direct"));
	ASSERT_EQ(0, mount_line(MNT, line, sizeof(line)));
	EXPECT_EQ(NULL, strstr(line, "nodirect"));
	fd = create("g");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_pattern(fd, bs / 2, 4, 0));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(bs / 512, st.st_blocks);
	close(fd);
	expect_clean(_metadata, self);
}

TEST_F(io, truncate_down_frees_exactly_the_blocks_past_eof)
{
	unsigned int bs = self->bs, entries = bs / 4;
	unsigned long long n = 2 * entries + 5;	/* three columns */
	static const long long sizes_less[] = { 1, 0, -1 };
	uint8_t *buf = malloc(bs);
	unsigned long long keep;
	off_t size;
	size_t i;
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, write_pattern(fd, n * bs, 3, 0));
	expect_blocks(_metadata, fd, &self->fresh, bs, dense_blocks(n, bs));
	/* Into the middle of a block, onto a boundary, just after one. */
	for (i = 0; i < ARRAY_SIZE(sizes_less); i++) {
		size = (off_t)(entries + 3 - i) * bs - sizes_less[i] * (bs / 2);
		keep = (size + bs - 1) / bs;
		ASSERT_EQ(0, ftruncate(fd, size));
		expect_blocks(_metadata, fd, &self->fresh, bs,
			      dense_blocks(keep, bs));
		EXPECT_EQ(0, read_check(fd, size, 3, 0));
	}
	/* Truncate up: a hole, and the old tail of the last block is gone. */
	ASSERT_EQ(0, ftruncate(fd, size + 3 * bs));
	ASSERT_EQ(bs, pread(fd, buf, bs, size));
	EXPECT_EQ(-1, first_nonzero(buf, bs));
	expect_blocks(_metadata, fd, &self->fresh, bs, dense_blocks(keep, bs));
	ASSERT_EQ(0, ftruncate(fd, 0));
	expect_blocks(_metadata, fd, &self->fresh, bs, 0);
	close(fd);
	free(buf);
}

TEST_F(io, truncate_sparse_frees_emptied_map_blocks)
{
	unsigned int bs = self->bs, entries = bs / 4;
	/* One block in each of columns 0, 1 and 3. */
	unsigned long long fblocks[] = { 0, entries + 1, 3 * entries };
	struct { off_t size; unsigned long long blocks; } steps[] = {
		{ (off_t)(entries + 2) * bs - 5, 2 + 2 + 1 },	/* column 3 goes */
		{ (off_t)entries * bs + 1, 1 + 1 + 1 },		/* column 1 emptied */
		{ 1, 3 },
		{ 0, 0 },
	};
	size_t i;
	int fd = create("f");

	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(fblocks); i++)
		ASSERT_EQ(0, write_pattern(fd, bs, i, fblocks[i] * bs));
	expect_blocks(_metadata, fd, &self->fresh, bs, 3 + 3 + 1);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		ASSERT_EQ(0, ftruncate(fd, steps[i].size));
		expect_blocks(_metadata, fd, &self->fresh, bs, steps[i].blocks);
	}
	close(fd);
	/* A sparse file whose first column is a hole loses its row too. */
	fd = create("g");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_pattern(fd, bs, 9, (off_t)2 * entries * bs));
	ASSERT_EQ(0, ftruncate(fd, 10));
	expect_blocks(_metadata, fd, &self->fresh, bs, 0);
	close(fd);
}

TEST_F(io, no_stale_data_after_delete_and_rewrite)
{
	size_t len = 8 * self->bs;
	uint8_t *buf = malloc(len);
	int fd = create("old");

	ASSERT_LE(0, fd);
	ASSERT_NE(NULL, buf);
	memset(buf, 0xa5, len);
	ASSERT_EQ((ssize_t)len, write(fd, buf, len));
	close(fd);
	ASSERT_EQ(0, unlink(at("old")));

	/* The freed blocks come back: a byte in each, a hole, fallocate. */
	fd = create("new");
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, pwrite(fd, "x", 1, self->bs / 2));
	ASSERT_EQ(1, pwrite(fd, "y", 1, 3 * self->bs + 7));
	ASSERT_EQ(0, fallocate(fd, 0, 5 * self->bs, 3 * self->bs));
	ASSERT_EQ((ssize_t)len, pread(fd, buf, len, 0));
	EXPECT_EQ('x', buf[self->bs / 2]);
	EXPECT_EQ('y', buf[3 * self->bs + 7]);
	buf[self->bs / 2] = 0;
	buf[3 * self->bs + 7] = 0;
	EXPECT_EQ(-1, first_nonzero(buf, len));
	/* Past EOF inside the last block, after the size grows. */
	ASSERT_EQ(0, ftruncate(fd, len + self->bs));
	ASSERT_EQ((ssize_t)self->bs, pread(fd, buf, self->bs, len));
	EXPECT_EQ(-1, first_nonzero(buf, self->bs));
	close(fd);
}

TEST_F(io, fallocate_allocates_zeroed_blocks)
{
	unsigned int bs = self->bs;
	uint8_t *buf = malloc(4 * bs);
	struct stat st;
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, fallocate(fd, 0, 10, 2 * bs));	/* blocks 0-2 */
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(10 + 2 * bs, st.st_size);
	EXPECT_EQ(dense_blocks(3, bs) * (bs / 512), st.st_blocks);
	ASSERT_EQ(0, fallocate(fd, FALLOC_FL_KEEP_SIZE, 3 * bs, bs));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(10 + 2 * bs, st.st_size);
	EXPECT_EQ(dense_blocks(4, bs) * (bs / 512), st.st_blocks);
	ASSERT_EQ((ssize_t)st.st_size, pread(fd, buf, 4 * bs, 0));
	EXPECT_EQ(-1, first_nonzero(buf, st.st_size));
	EXPECT_EQ(0, lseek(fd, 0, SEEK_DATA));

	EXPECT_EQ(-1, fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				0, bs));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-1, fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, bs));
	EXPECT_EQ(EOPNOTSUPP, errno);
	/* Truncating frees the blocks kept past EOF as well. */
	ASSERT_EQ(0, ftruncate(fd, 0));
	expect_blocks(_metadata, fd, &self->fresh, bs, 0);
	close(fd);
	free(buf);
}

/* Write file @name until ENOSPC or EFBIG; returns the bytes written. */
static off_t fill_file(struct __test_metadata *_metadata, const char *name,
		       unsigned int seed, int *err)
{
	size_t chunk = 256 << 10;
	uint8_t *buf = malloc(chunk);
	off_t off = 0;
	ssize_t n;
	int fd = create(name);

	EXPECT_LE(0, fd);
	EXPECT_NE(NULL, buf);
	for (*err = 0; fd >= 0 && buf && !*err; off += n > 0 ? n : 0) {
		fill_pattern(buf, chunk, seed, off);
		n = write(fd, buf, chunk);
		if (n < 0)
			*err = errno;
	}
	/* Everything that was written is there. */
	EXPECT_EQ(0, read_check(fd, off, seed, 0));
	close(fd);
	free(buf);
	return off;
}

/*
 * Files @prefix0, @prefix1... until ENOSPC (at 512-byte blocks a file
 * stops at 8 MiB, EFBIG: the next one goes on): how many.
 */
static int fill_files(struct __test_metadata *_metadata, const char *prefix,
		      unsigned int seed)
{
	char name[32];
	int n, err = 0;

	for (n = 0; err != ENOSPC; n++) {
		ASSERT_GT(32, n);
		snprintf(name, sizeof(name), "%s%d", prefix, n);
		fill_file(_metadata, name, seed + n, &err);
		ASSERT_TRUE(err == ENOSPC || err == EFBIG) {
			TH_LOG("write: %s", strerror(err));
		}
	}
	return n;
}

TEST_F_TIMEOUT(io, fill_to_enospc_then_drain_to_fresh_counts, 300)
{
	char name[32];
	int i, n, fd;

	/* Small files in a few directories, then big ones until full. */
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "d%d", i % 4);
		mkdir(at(name), 0755);
		snprintf(name, sizeof(name), "d%d/f%d", i % 4, i);
		fd = create(name);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, write_pattern(fd, i * 100, i, 0));
		close(fd);
	}
	n = fill_files(_metadata, "big", 42);
	EXPECT_EQ(0, fs_counts(MNT).bfree);
	fd = create("more");
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "z", 1));
	EXPECT_EQ(ENOSPC, errno);
	close(fd);
	EXPECT_EQ(-1, symlink("target", at("link")));
	EXPECT_EQ(ENOSPC, errno);

	ASSERT_EQ(0, unlink(at("more")));
	while (n--) {
		snprintf(name, sizeof(name), "big%d", n);
		ASSERT_EQ(0, unlink(at(name)));
	}
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "d%d/f%d", i % 4, i);
		ASSERT_EQ(0, unlink(at(name)));
	}
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		ASSERT_EQ(0, rmdir(at(name)));
	}
	EXPECT_EQ(self->fresh.bfree, fs_counts(MNT).bfree);
	EXPECT_EQ(self->fresh.ffree, fs_counts(MNT).ffree);
	/* Every block the deletes freed can be taken again: none stays held. */
	fill_files(_metadata, "again", 7);
	EXPECT_EQ(0, fs_counts(MNT).bfree);
}

/* 24 MiB in three files (8 MiB is the largest file at 512 bytes a block). */
TEST_F_TIMEOUT(io, page_cache_does_not_grow, 300)
{
	size_t len = 8 << 20, chunk = 1 << 20, off;
	uint8_t *buf = malloc(chunk);
	long long before, after;
	char name[16];
	int i, fd;

	ASSERT_NE(NULL, buf);
	before = meminfo_kb("Cached:");
	ASSERT_LE(0, before);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		fd = create(name);
		ASSERT_LE(0, fd);
		for (off = 0; off < len; off += chunk) {
			fill_pattern(buf, chunk, i, off);
			ASSERT_EQ((ssize_t)chunk, write(fd, buf, chunk));
		}
		for (off = 0; off < len; off += chunk)
			ASSERT_EQ(0, read_check(fd, chunk, i, off));
		close(fd);
	}
	after = meminfo_kb("Cached:");
	/* 24 MiB through the page cache would show; allow 2 MiB of noise. */
	EXPECT_GT(2048, after - before) {
		TH_LOG("Cached grew from %lld to %lld kB", before, after);
	}
	free(buf);
}

TEST_F(io, splice_sendfile_and_copy_file_range)
{
	size_t len = 3 * self->bs + 5;
	loff_t in_off = 7, out_off = 11;
	off_t soff = 0;
	int src = create("src"), dst = create("dst"), pipefd[2];

	ASSERT_LE(0, src);
	ASSERT_LE(0, dst);
	ASSERT_EQ(0, write_pattern(src, len + 7, 8, 0));

	ASSERT_EQ((ssize_t)len, copy_file_range(src, &in_off, dst, &out_off,
						len, 0));
	/* Copied from offset 7 to offset 11: compare the two ranges. */
	{
		uint8_t *a = malloc(len), *b = malloc(len);

		ASSERT_TRUE(a && b);
		ASSERT_EQ((ssize_t)len, pread(src, a, len, 7));
		ASSERT_EQ((ssize_t)len, pread(dst, b, len, 11));
		EXPECT_EQ(0, memcmp(a, b, len));
		free(a);
		free(b);
	}
	ASSERT_EQ(0, ftruncate(dst, 0));
	ASSERT_EQ((ssize_t)len + 7, sendfile(dst, src, &soff, len + 7));
	EXPECT_EQ(0, read_check(dst, len + 7, 8, 0));

	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, ftruncate(dst, 0));
	in_off = 0;
	out_off = 0;
	ASSERT_EQ(100, splice(src, &in_off, pipefd[1], NULL, 100, 0));
	ASSERT_EQ(100, splice(pipefd[0], NULL, dst, &out_off, 100, 0));
	EXPECT_EQ(0, read_check(dst, 100, 8, 0));
	close(pipefd[0]);
	close(pipefd[1]);
	close(src);
	close(dst);
}

TEST_F(io, data_survives_a_remount)
{
	unsigned int bs = self->bs;
	/* @more: a second write inside the last block, which takes none. */
	struct { const char *name; off_t off; size_t len, more; } files[] = {
		{ "dense", 0, 5 * bs + 3, 7 },
		{ "sparse", 100 * bs + 17, 2 * bs, 5 },
		{ "tiny", 0, 1, 10 },
	};
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		fd = create(files[i].name);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, write_pattern(fd, files[i].len, i, files[i].off));
		ASSERT_EQ(0, write_pattern(fd, files[i].more, i,
					   files[i].off + files[i].len));
		files[i].len += files[i].more;
		close(fd);
	}
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		fd = open(at(files[i].name), O_RDONLY);
		ASSERT_LE(0, fd);
		EXPECT_EQ(0, read_check(fd, files[i].len, i, files[i].off)) {
			TH_LOG("%s", files[i].name);
		}
		EXPECT_EQ(files[i].off + (off_t)files[i].len, lseek(fd, 0, SEEK_END));
		close(fd);
	}
}

/*
 * The free block count is kept in memory while mounted; unmounting
 * writes it to both superblocks (bytes 52-55), where statfs had it.
 */
TEST_F(io, free_count_reaches_the_superblocks_at_unmount)
{
	unsigned long long bfree;
	uint8_t *nv;
	int fd = create("f");

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_pattern(fd, 7 * self->bs + 1, 4, 0));
	close(fd);
	bfree = fs_counts(MNT).bfree;
	ASSERT_GT(self->fresh.bfree, bfree);
	ASSERT_EQ(0, umount(MNT));
	nv = nvram_map(&self->nv);
	ASSERT_NE(NULL, nv);
	EXPECT_EQ(bfree, le32_at(nv + 52));
	EXPECT_EQ(bfree, le32_at(nv + 128 + 52));
	munmap(nv, self->nv.size);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(bfree, fs_counts(MNT).bfree);
}

TEST_HARNESS_MAIN
