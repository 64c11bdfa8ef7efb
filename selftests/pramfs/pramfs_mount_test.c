// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS mount tests: formatting with init=, finding the filesystem
 * again, statfs against the documented geometry, /proc/mounts, refused
 * options (with the NVRAM checked byte for byte), double mounts,
 * superblock repair from the copy, and remount.
 *
 * Needs root, pramfs registered, /dev/mem, and PRAM_PHYS and PRAM_SIZE
 * in the environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "pramfs_image.h"

#define MNT2		"/tmp/pram2"
#define PRAM_MAGIC	0xEFFA

/* ---- format and statfs, for each block size and inode option ---- */

FIXTURE(format) {
	struct nvram nv;
};

FIXTURE_VARIANT(format) {
	unsigned int bs;	/* 0: the default, 2048 */
	unsigned long long bpi, n;
};

FIXTURE_VARIANT_ADD(format, default_bs) { .bs = 0 };
FIXTURE_VARIANT_ADD(format, bs512) { .bs = 512 };
FIXTURE_VARIANT_ADD(format, bs1024) { .bs = 1024 };
FIXTURE_VARIANT_ADD(format, bs2048) { .bs = 2048 };
FIXTURE_VARIANT_ADD(format, bs4096) { .bs = 4096 };
FIXTURE_VARIANT_ADD(format, bs4096_n100) { .bs = 4096, .n = 100 };
FIXTURE_VARIANT_ADD(format, bpi16k) { .bs = 1024, .bpi = 16384 };
FIXTURE_VARIANT_ADD(format, n_and_bpi) { .bs = 512, .bpi = 4096, .n = 1000 };

FIXTURE_SETUP(format)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
}

/*
 * In the parent: with the 6.12 harness, a failed ASSERT in the test process
 * can skip a teardown there, leaving the NVRAM mounted for the next test.
 */
FIXTURE_TEARDOWN_PARENT(format)
{
	umount2(MNT, MNT_DETACH);
}

TEST_F(format, statfs_matches_geometry)
{
	unsigned int bs = variant->bs ? variant->bs : 2048;
	unsigned long long size = self->nv.size;
	struct geometry g;
	struct statfs st;
	char opts[128] = "";

	if (variant->bs)
		snprintf(opts, sizeof(opts), ",bs=%u", variant->bs);
	if (variant->bpi)
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
			 ",bpi=%llu", variant->bpi);
	if (variant->n)
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
			 ",N=%llu", variant->n);
	ASSERT_EQ(0, geometry(size, bs, variant->bpi, variant->n, &g));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%llu%s",
			      self->nv.phys, size, opts));

	ASSERT_EQ(0, statfs(MNT, &st));
	EXPECT_EQ(PRAM_MAGIC, st.f_type);
	EXPECT_EQ(bs, st.f_bsize);
	EXPECT_EQ(g.blocks - g.data_start, st.f_blocks);
	EXPECT_EQ(g.blocks - g.data_start, st.f_bfree);
	EXPECT_EQ(st.f_bfree, st.f_bavail);
	EXPECT_EQ(g.inodes, st.f_files);
	EXPECT_EQ(g.inodes - 1, st.f_ffree);
	EXPECT_EQ(255, st.f_namelen);
	/* A fresh root directory holds only . and .. */
	EXPECT_EQ(2, count_entries(MNT));
}

/* ---- everything else works on one default-sized filesystem ---- */

FIXTURE(pramfs) {
	struct nvram nv;
};

FIXTURE_SETUP(pramfs)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
	mkdir(MNT2, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%llu",
			      self->nv.phys, self->nv.size));
	ASSERT_EQ(0, umount(MNT));
}

/*
 * In the parent: with the 6.12 harness, a failed ASSERT in the test process
 * can skip a teardown there, leaving the NVRAM mounted for the next test.
 */
FIXTURE_TEARDOWN_PARENT(pramfs)
{
	umount2(MNT2, MNT_DETACH);
	umount2(MNT, MNT_DETACH);
}

TEST_F(pramfs, remount_finds_same_filesystem)
{
	struct stat before, after;
	struct statfs sf_before, sf_after;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, stat(MNT, &before));
	ASSERT_EQ(0, statfs(MNT, &sf_before));
	ASSERT_EQ(0, umount(MNT));

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, stat(MNT, &after));
	ASSERT_EQ(0, statfs(MNT, &sf_after));
	EXPECT_EQ(before.st_ctim.tv_sec, after.st_ctim.tv_sec);
	EXPECT_EQ(before.st_ctim.tv_nsec, after.st_ctim.tv_nsec);
	EXPECT_EQ(before.st_mode, after.st_mode);
	EXPECT_EQ(0, memcmp(&sf_before, &sf_after, sizeof(sf_before)));
	ASSERT_EQ(0, umount(MNT));

	/* init= makes a new filesystem: the root's ctime moves on. */
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%llu",
			      self->nv.phys, self->nv.size));
	ASSERT_EQ(0, stat(MNT, &after));
	EXPECT_FALSE(before.st_ctim.tv_sec == after.st_ctim.tv_sec &&
		     before.st_ctim.tv_nsec == after.st_ctim.tv_nsec);
}

TEST_F(pramfs, mount_count_advances_on_rw_mounts_only)
{
	uint8_t *nv;
	uint32_t count;

	nv = nvram_map(&self->nv);
	ASSERT_NE(NULL, nv);
	count = le32_at(nv + SB_MOUNT_COUNT);
	EXPECT_EQ(1, count);

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(count + 1, le32_at(nv + SB_MOUNT_COUNT));
	/* The copy follows the primary. */
	EXPECT_EQ(0, memcmp(nv, nv + SB_SIZE, SB_SIZE));

	ASSERT_EQ(0, do_mount(MNT, MS_RDONLY, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(count + 1, le32_at(nv + SB_MOUNT_COUNT));
	munmap(nv, self->nv.size);
}

TEST_F(pramfs, proc_mounts_shows_options)
{
	char line[512];
	struct stat st;

	ASSERT_EQ(0, do_mount(MNT, 0,
			      "physaddr=%#llx,init=%llu,bs=1024,mode=0750,uid=12,gid=34",
			      self->nv.phys, self->nv.size));
	ASSERT_EQ(0, mount_line(MNT, line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, ",physaddr=0x"));
	EXPECT_NE(NULL, strstr(line, ",bs=1024"));
	EXPECT_NE(NULL, strstr(line, ",mode=750"));
	EXPECT_NE(NULL, strstr(line, ",uid=12"));
	EXPECT_NE(NULL, strstr(line, ",gid=34"));
	/* Never init=: a copied mount line must not format. */
	EXPECT_EQ(NULL, strstr(line, "init="));

	ASSERT_EQ(0, stat(MNT, &st));
	EXPECT_EQ(S_IFDIR | 0750, st.st_mode);
	EXPECT_EQ(12, st.st_uid);
	EXPECT_EQ(34, st.st_gid);
}

/* Each of these is refused with its errno, and no byte of NVRAM changes. */
struct bad_mount {
	const char *opts;	/* %llx, if there, is PRAM_PHYS + delta */
	unsigned long long delta;
	unsigned long flags;
	int err;
};

static const struct bad_mount bad_mounts[] = {
	{ "init=1M", 0, 0, EINVAL },			/* no physaddr */
	{ "physaddr=%#llx,init=1M", 0x800, 0, EINVAL },	/* unaligned */
	{ "physaddr=%#llx,init=1M,foo=1", 0, 0, EINVAL },	/* unknown */
	{ "physaddr=zz,init=1M", 0, 0, EINVAL },		/* not a number */
	{ "physaddr=%#llx,init=12x", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=M", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=1M,N=abc", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=1M,N=0", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=1M,bs=3000", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=1M,bs=8k", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=1M,bs=256", 0, 0, EINVAL },
	{ "physaddr=%#llx,bs=1000", 0, 0, EINVAL },	/* even without init= */
	{ "physaddr=%#llx,init=1M,bpi=64", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=1000", 0, 0, EINVAL },	/* too small */
	{ "physaddr=%#llx,init=1M,N=4000000", 0, 0, EINVAL }, /* N too big */
	{ "physaddr=%#llx,init=1M,mode=99999", 0, 0, EINVAL },
	{ "physaddr=%#llx,init=1M,uid=-3", 0, 0, EINVAL },
	{ "physaddr=%#llx,mode=0700", 0, MS_RDONLY, EINVAL }, /* ro + mode */
	{ "physaddr=%#llx,init=1M", 0, MS_RDONLY, EINVAL }, /* ro + init= */
	{ "physaddr=0x1000000,init=1M", 0, 0, EBUSY },	/* system RAM */
	{ "physaddr=0xfee00000,init=1M", 0, 0, EBUSY },	/* local APIC */
	{ "physaddr=%#llx,init=1G", 0, 0, EBUSY },	/* past the NVRAM */
};

TEST_F(pramfs, bad_options_are_refused_and_change_nothing)
{
	uint64_t before = nvram_hash(&self->nv);
	char opts[256];
	size_t i;

	ASSERT_NE(0, before);
	for (i = 0; i < ARRAY_SIZE(bad_mounts); i++) {
		const struct bad_mount *b = &bad_mounts[i];

		snprintf(opts, sizeof(opts), b->opts, self->nv.phys + b->delta);
		EXPECT_EQ(b->err, do_mount(MNT, b->flags, "%s", opts)) {
			TH_LOG("options '%s'", opts);
			umount(MNT);
		}
	}
	EXPECT_EQ(before, nvram_hash(&self->nv));
	/* And the filesystem is still there. */
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
}

TEST_F(pramfs, no_filesystem_without_init)
{
	uint8_t *nv = nvram_map(&self->nv);
	uint64_t before;

	ASSERT_NE(NULL, nv);
	memset(nv, 0, 4096);
	munmap(nv, self->nv.size);
	before = nvram_hash(&self->nv);
	EXPECT_EQ(EINVAL, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(EINVAL, do_mount(MNT, MS_RDONLY, "physaddr=%#llx",
				   self->nv.phys));
	EXPECT_EQ(before, nvram_hash(&self->nv));
}

TEST_F(pramfs, double_mount_is_refused)
{
	struct statfs st;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(EBUSY, do_mount(MNT2, 0, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(EBUSY, do_mount(MNT2, 0, "physaddr=%#llx,init=%llu",
				  self->nv.phys, self->nv.size));
	/* Overlapping but not the same start is refused as well. */
	EXPECT_EQ(EBUSY, do_mount(MNT2, 0, "physaddr=%#llx,init=1M",
				  self->nv.phys + 4096));
	EXPECT_EQ(0, statfs(MNT, &st));
	EXPECT_EQ(PRAM_MAGIC, st.f_type);
}

TEST_F(pramfs, bad_primary_superblock_is_repaired_from_copy)
{
	uint8_t *nv = nvram_map(&self->nv);
	uint8_t good[SB_SIZE];
	uint64_t before;

	ASSERT_NE(NULL, nv);
	memcpy(good, nv + SB_SIZE, SB_SIZE);
	nv[SB_FREE_INODES] ^= 0x55;

	/* Read-only: mounts from the copy and writes nothing. */
	before = nvram_hash(&self->nv);
	ASSERT_EQ(0, do_mount(MNT, MS_RDONLY, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(before, nvram_hash(&self->nv));

	/* Read-write: repaired. */
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(0, memcmp(nv, nv + SB_SIZE, SB_SIZE));
	EXPECT_EQ(le32_at(good + SB_FREE_INODES), le32_at(nv + SB_FREE_INODES));

	/* Both bad: refused. */
	nv[SB_FREE_INODES] ^= 0x55;
	nv[SB_SIZE + SB_FREE_INODES] ^= 0x55;
	EXPECT_EQ(EINVAL, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	munmap(nv, self->nv.size);
}

TEST_F(pramfs, feature_flags_decide_what_mounts)
{
	uint8_t *nv = nvram_map(&self->nv);
	uint64_t before, incompat;

	ASSERT_NE(NULL, nv);
	/* The test's checksum is the kernel's: a plain rewrite still mounts. */
	sb_set(nv, SB_COMPAT, 4, 0);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, umount(MNT));

	/* Unknown compat feature: ignored. */
	sb_set(nv, SB_COMPAT, 4, 1U << 31);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, umount(MNT));
	sb_set(nv, SB_COMPAT, 4, 0);

	/*
	 * Unknown ro_compat feature: read-only only. A refused read-write
	 * mount or remount writes nothing, not even the repair of a bad
	 * primary superblock.
	 */
	sb_set(nv, SB_RO_COMPAT, 4, 1U << 31);
	nv[SB_FREE_INODES] ^= 0x55;
	before = nvram_hash(&self->nv);
	EXPECT_EQ(EINVAL, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, do_mount(MNT, MS_RDONLY, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(EINVAL, do_mount(MNT, MS_REMOUNT, ""));
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(before, nvram_hash(&self->nv));
	nv[SB_FREE_INODES] ^= 0x55;
	sb_set(nv, SB_RO_COMPAT, 4, 0);

	/* Unknown incompat feature (beside the journal): no mount at all. */
	incompat = sb_get(nv, SB_INCOMPAT, 4);
	sb_set(nv, SB_INCOMPAT, 4, incompat | 1U << 31);
	EXPECT_EQ(EINVAL, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(EINVAL, do_mount(MNT, MS_RDONLY, "physaddr=%#llx",
				   self->nv.phys));
	sb_set(nv, SB_INCOMPAT, 4, incompat);
	EXPECT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	munmap(nv, self->nv.size);
}

TEST_F(pramfs, remount_rw_repairs_primary_superblock)
{
	uint8_t *nv = nvram_map(&self->nv);

	ASSERT_NE(NULL, nv);
	nv[SB_FREE_INODES] ^= 0x55;
	ASSERT_EQ(0, do_mount(MNT, MS_RDONLY, "physaddr=%#llx", self->nv.phys));
	EXPECT_NE(0, memcmp(nv, nv + SB_SIZE, SB_SIZE));
	ASSERT_EQ(0, do_mount(MNT, MS_REMOUNT, ""));
	ASSERT_EQ(0, umount(MNT));
	/* Repaired, then the mount count written to both. */
	EXPECT_EQ(0, memcmp(nv, nv + SB_SIZE, SB_SIZE));
	munmap(nv, self->nv.size);
}

TEST_F(pramfs, bad_root_inode_is_refused)
{
	uint8_t *nv = nvram_map(&self->nv);

	ASSERT_NE(NULL, nv);
	nv[ROOT_INO * INODE_SIZE + I_UID] ^= 1;	/* i_uid, under the checksum */
	EXPECT_EQ(EINVAL, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	nv[ROOT_INO * INODE_SIZE + I_UID] ^= 1;
	EXPECT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	munmap(nv, self->nv.size);
}

TEST_F(pramfs, reconfigure)
{
	char line[512];
	struct stat st;
	struct statvfs sv;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, do_mount(MNT, MS_REMOUNT | MS_RDONLY, "physaddr=%#llx",
			      self->nv.phys));
	ASSERT_EQ(0, statvfs(MNT, &sv));
	EXPECT_TRUE(sv.f_flag & ST_RDONLY);
	EXPECT_EQ(EINVAL, do_mount(MNT, MS_REMOUNT | MS_RDONLY, "mode=0700"));

	ASSERT_EQ(0, do_mount(MNT, MS_REMOUNT, "mode=0700"));
	ASSERT_EQ(0, statvfs(MNT, &sv));
	EXPECT_FALSE(sv.f_flag & ST_RDONLY);
	ASSERT_EQ(0, stat(MNT, &st));
	EXPECT_EQ(S_IFDIR | 0700, st.st_mode);
	ASSERT_EQ(0, mount_line(MNT, line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, ",mode=700"));

	EXPECT_EQ(EINVAL, do_mount(MNT, MS_REMOUNT, "physaddr=%#llx",
				   self->nv.phys + 4096));
	EXPECT_EQ(EINVAL, do_mount(MNT, MS_REMOUNT, "init=1M"));

	/* The mode is on the media: it survives a remount. */
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, stat(MNT, &st));
	EXPECT_EQ(S_IFDIR | 0700, st.st_mode);
}

/*
 * A readdir position means "entries from this inode number on": in an
 * empty directory, any position past the dots finds nothing.
 */
TEST_F(pramfs, seekdir_past_the_dots_of_an_empty_directory)
{
	static const off_t positions[] = { 2, 3, 5, 100, 0xffffffffL,
					   0x100000000L };
	char buf[4096];
	size_t i;
	int fd;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	fd = open(MNT, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(positions); i++) {
		ASSERT_EQ(positions[i], lseek(fd, positions[i], SEEK_SET));
		EXPECT_EQ(0, syscall(SYS_getdents64, fd, buf, sizeof(buf))) {
			TH_LOG("position %lld", (long long)positions[i]);
		}
	}
	close(fd);
}

TEST_HARNESS_MAIN
