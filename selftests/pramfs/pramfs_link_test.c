// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS hard links and long names, at each block size: link(2) for every
 * type but directories, link counts and ctime on every name, unlink and
 * rename of any name (over another name of the same inode: nothing
 * happens), an open file whose last name goes, EMLINK at the limit,
 * readdir's d_ino, names of 49 to 255 bytes and ENAMETOOLONG past them,
 * statfs and pathconf, the features set when first used, everything
 * across remounts; then busybox's du, find -links and cp -a on a tree
 * with hard links. Each test ends with the free counts of a fresh
 * filesystem: no slot of a link entry or name record leaks.
 *
 * Needs root, pramfs registered, and PRAM_PHYS and PRAM_SIZE in the
 * environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "pramfs_image.h"
#include "pramfs_util.h"

#define INCOMPAT_LINKS		0x2
#define INCOMPAT_LONGNAMES	0x4
#define FS_SIZE			(8 << 20)

FIXTURE(link) {
	struct nvram nv;
	struct counts fresh;
};

FIXTURE_VARIANT(link) {
	unsigned int bs;
};

FIXTURE_VARIANT_ADD(link, bs512) { .bs = 512 };
FIXTURE_VARIANT_ADD(link, bs1024) { .bs = 1024 };
FIXTURE_VARIANT_ADD(link, bs2048) { .bs = 2048 };
FIXTURE_VARIANT_ADD(link, bs4096) { .bs = 4096 };

FIXTURE_SETUP(link)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	self->nv.size = FS_SIZE;	/* the filesystem, for fsck.pramfs */
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%d,bs=%u",
			      self->nv.phys, FS_SIZE, variant->bs));
	self->fresh = fs_counts(MNT);
}

FIXTURE_TEARDOWN_PARENT(link)
{
	umount2(MNT, MNT_DETACH);
}

/* lstat(2) of MNT/@name; the test dies when there is none. */
static struct stat lst(const char *name)
{
	struct stat st;

	if (lstat(at(name), &st)) {
		fprintf(stderr, "# lstat %s: %s\n", name, strerror(errno));
		abort();
	}
	return st;
}

/* The d_ino readdir gives for @name in @dir, 0 if it is not there. */
static ino_t dirent_ino(const char *dir, const char *name)
{
	DIR *d = opendir(at(dir));
	struct dirent *e;
	ino_t ino = 0;

	while (d && (e = readdir(d)))
		if (!strcmp(e->d_name, name))
			ino = e->d_ino;
	if (d)
		closedir(d);
	return ino;
}

/* The content of file @name in @buf, or "" when it cannot be read. */
static const char *get(const char *name, char *buf, size_t len)
{
	int fd = open(at(name), O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static bool later(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

static uint32_t incompat(const struct nvram *nv)
{
	uint8_t *img = nvram_map(nv);
	uint32_t v;

	if (!img) {
		fprintf(stderr, "# mapping the NVRAM: %s\n", strerror(errno));
		abort();
	}
	v = sb_get(img, SB_INCOMPAT, 4);
	munmap(img, nv->size);
	return v;
}

TEST_F(link, names_share_the_inode_and_count)
{
	struct stat a, b, before;
	char buf[16];

	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("f", "data"));
	before = lst("f");
	EXPECT_EQ(0, incompat(&self->nv) & INCOMPAT_LINKS);
	usleep(20000);
	ASSERT_EQ(0, link(at("f"), at("d/g")));
	EXPECT_NE(0, incompat(&self->nv) & INCOMPAT_LINKS);
	a = lst("f");
	b = lst("d/g");
	EXPECT_EQ(a.st_ino, b.st_ino);
	EXPECT_EQ(2, a.st_nlink);
	EXPECT_EQ(2, b.st_nlink);
	EXPECT_TRUE(later(a.st_ctim, before.st_ctim));
	EXPECT_EQ(a.st_ino, dirent_ino(".", "f"));
	EXPECT_EQ(a.st_ino, dirent_ino("d", "g"));
	EXPECT_EQ(-1, link(at("f"), at("d/g")));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, link(at("d"), at("d2")));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, link(at("none"), at("x")));
	EXPECT_EQ(ENOENT, errno);

	remount(_metadata, &self->nv);
	b = lst("d/g");
	EXPECT_EQ(a.st_ino, b.st_ino);
	EXPECT_EQ(2, b.st_nlink);
	EXPECT_EQ(a.st_ino, dirent_ino("d", "g"));
	EXPECT_STREQ("data", get("d/g", buf, sizeof(buf)));
	/* A write through one name is seen through the other. */
	ASSERT_EQ(0, put("d/g", "changed"));
	EXPECT_STREQ("changed", get("f", buf, sizeof(buf)));
	expect_clean(_metadata, self);
}

/* POSIX's times and counts around link, unlink and rename of a name. */
TEST_F(link, times_and_counts_on_every_name)
{
	struct stat f, d, before_d;

	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("f", "x"));
	before_d = lst("d");
	usleep(20000);
	ASSERT_EQ(0, link(at("f"), at("d/g")));
	d = lst("d");
	EXPECT_TRUE(later(d.st_mtim, before_d.st_mtim));
	EXPECT_TRUE(later(d.st_ctim, before_d.st_ctim));
	EXPECT_EQ(before_d.st_nlink, d.st_nlink);
	/* The other name sees the ctime change of an unlink. */
	f = lst("f");
	usleep(20000);
	ASSERT_EQ(0, link(at("f"), at("h")));
	usleep(20000);
	ASSERT_EQ(0, unlink(at("h")));
	EXPECT_TRUE(later(lst("d/g").st_ctim, f.st_ctim));
	EXPECT_EQ(2, lst("f").st_nlink);
	/* And of a rename of a name. */
	f = lst("f");
	usleep(20000);
	ASSERT_EQ(0, rename(at("d/g"), at("d/g2")));
	EXPECT_TRUE(later(lst("f").st_ctim, f.st_ctim));
	remount(_metadata, &self->nv);
	EXPECT_EQ(2, lst("d/g2").st_nlink);
	EXPECT_EQ(before_d.st_nlink, lst("d").st_nlink);
	expect_clean(_metadata, self);
}

/* linkat: AT_SYMLINK_FOLLOW links the target, without it the symlink. */
TEST_F(link, linkat_follows_a_symlink_when_asked)
{
	ASSERT_EQ(0, put("f", "x"));
	ASSERT_EQ(0, symlink("f", at("sl")));
	ASSERT_EQ(0, linkat(AT_FDCWD, at("sl"), AT_FDCWD, at("to-f"),
			    AT_SYMLINK_FOLLOW));
	ASSERT_EQ(0, linkat(AT_FDCWD, at("sl"), AT_FDCWD, at("to-sl"), 0));
	EXPECT_EQ(lst("f").st_ino, lst("to-f").st_ino);
	EXPECT_EQ(lst("sl").st_ino, lst("to-sl").st_ino);
	EXPECT_TRUE(S_ISLNK(lst("to-sl").st_mode));
	EXPECT_EQ(2, lst("f").st_nlink);
	EXPECT_EQ(2, lst("sl").st_nlink);
	expect_clean(_metadata, self);
}

TEST_F(link, every_type_but_directories)
{
	static const char *const names[] = { "reg", "sym", "fifo", "sock",
					      "chr", "blk" };
	unsigned int i;
	char n2[32];

	ASSERT_EQ(0, put("reg", "r"));
	ASSERT_EQ(0, symlink("reg", at("sym")));
	ASSERT_EQ(0, mknod(at("fifo"), S_IFIFO | 0600, 0));
	ASSERT_EQ(0, mknod(at("sock"), S_IFSOCK | 0600, 0));
	ASSERT_EQ(0, mknod(at("chr"), S_IFCHR | 0600, makedev(1, 3)));
	ASSERT_EQ(0, mknod(at("blk"), S_IFBLK | 0600, makedev(7, 0)));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(n2, sizeof(n2), "%s.2", names[i]);
		ASSERT_EQ(0, link(at(names[i]), at(n2))) TH_LOG("%s", names[i]);
	}
	remount(_metadata, &self->nv);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct stat a = lst(names[i]);

		snprintf(n2, sizeof(n2), "%s.2", names[i]);
		EXPECT_EQ(a.st_ino, lst(n2).st_ino) TH_LOG("%s", names[i]);
		EXPECT_EQ(a.st_mode, lst(n2).st_mode);
		EXPECT_EQ(a.st_rdev, lst(n2).st_rdev);
		EXPECT_EQ(2, a.st_nlink);
	}
	expect_clean(_metadata, self);
}

TEST_F(link, unlink_any_name_and_the_inode_lives_on)
{
	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("f", "first"));
	ASSERT_EQ(0, link(at("f"), at("d/g")));
	ASSERT_EQ(0, link(at("d/g"), at("h")));
	EXPECT_EQ(3, lst("h").st_nlink);
	/* The first name goes: the inode is in no list, its links say 2. */
	ASSERT_EQ(0, unlink(at("f")));
	EXPECT_FALSE(exists("f"));
	EXPECT_EQ(2, lst("d/g").st_nlink);
	remount(_metadata, &self->nv);
	EXPECT_EQ(2, lst("h").st_nlink);
	EXPECT_EQ(lst("h").st_ino, lst("d/g").st_ino);
	/* New names for it still work, the first name can come back. */
	ASSERT_EQ(0, link(at("h"), at("f")));
	EXPECT_EQ(3, lst("f").st_nlink);
	ASSERT_EQ(0, unlink(at("d/g")));
	ASSERT_EQ(0, unlink(at("h")));
	remount(_metadata, &self->nv);
	EXPECT_EQ(1, lst("f").st_nlink);
	ASSERT_EQ(0, rmdir(at("d")));
	expect_clean(_metadata, self);
}

TEST_F(link, an_open_file_outlives_its_last_name)
{
	struct counts open_counts;
	struct stat st;
	char buf[8];
	int fd;

	ASSERT_EQ(0, put("f", "kept"));
	ASSERT_EQ(0, link(at("f"), at("g")));
	fd = open(at("g"), O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, unlink(at("g")));
	ASSERT_EQ(0, unlink(at("f")));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0, st.st_nlink);
	open_counts = fs_counts(MNT);
	EXPECT_GT(self->fresh.ffree, open_counts.ffree);
	ASSERT_EQ(4, pread(fd, buf, 4, 0));
	EXPECT_EQ(0, memcmp(buf, "kept", 4));
	ASSERT_EQ(3, pwrite(fd, "new", 3, 4));
	/* No new name for it: the VFS refuses a file with no link left. */
	EXPECT_EQ(-1, linkat(fd, "", AT_FDCWD, at("back"), AT_EMPTY_PATH));
	close(fd);
	expect_clean(_metadata, self);
}

TEST_F(link, rename_of_and_over_linked_names)
{
	struct stat a;

	ASSERT_EQ(0, mkdir(at("d1"), 0755));
	ASSERT_EQ(0, mkdir(at("d2"), 0755));
	ASSERT_EQ(0, put("d1/f", "f"));
	ASSERT_EQ(0, link(at("d1/f"), at("d2/f2")));
	a = lst("d1/f");
	/* Over another name of the same inode: nothing happens (POSIX). */
	ASSERT_EQ(0, rename(at("d1/f"), at("d2/f2")));
	EXPECT_TRUE(exists("d1/f"));
	EXPECT_TRUE(exists("d2/f2"));
	EXPECT_EQ(2, lst("d2/f2").st_nlink);
	/* The first name moves across directories; the inode stays one. */
	ASSERT_EQ(0, rename(at("d1/f"), at("d2/first")));
	EXPECT_EQ(a.st_ino, lst("d2/first").st_ino);
	EXPECT_EQ(a.st_ino, dirent_ino("d2", "first"));
	ASSERT_EQ(0, rename(at("d2/first"), at("d1/f")));
	/* A link entry moves across directories and is renamed. */
	ASSERT_EQ(0, rename(at("d2/f2"), at("d1/moved")));
	EXPECT_EQ(a.st_ino, lst("d1/moved").st_ino);
	EXPECT_EQ(a.st_ino, dirent_ino("d1", "moved"));
	EXPECT_EQ(2, lst("d1/f").st_nlink);
	/* Another file over one name: the inode keeps the other. */
	ASSERT_EQ(0, put("d2/other", "o"));
	ASSERT_EQ(0, rename(at("d2/other"), at("d1/f")));
	EXPECT_EQ(1, lst("d1/moved").st_nlink);
	EXPECT_NE(a.st_ino, lst("d1/f").st_ino);
	/* A linked file over another file, which goes. */
	ASSERT_EQ(0, link(at("d1/moved"), at("d2/again")));
	ASSERT_EQ(0, rename(at("d2/again"), at("d1/f")));
	EXPECT_EQ(a.st_ino, lst("d1/f").st_ino);
	EXPECT_EQ(2, lst("d1/f").st_nlink);
	/* Exchange a name of it with a directory, across directories. */
	ASSERT_EQ(0, mkdir(at("d2/sub"), 0700));
	ASSERT_EQ(0, renameat2(AT_FDCWD, at("d1/f"), AT_FDCWD, at("d2/sub"),
			       RENAME_EXCHANGE));
	EXPECT_EQ(a.st_ino, lst("d2/sub").st_ino);
	EXPECT_TRUE(S_ISDIR(lst("d1/f").st_mode));
	EXPECT_EQ(3, lst("d1").st_nlink);
	remount(_metadata, &self->nv);
	EXPECT_EQ(a.st_ino, lst("d2/sub").st_ino);
	EXPECT_EQ(a.st_ino, lst("d1/moved").st_ino);
	EXPECT_EQ(2, lst("d1/moved").st_nlink);
	expect_clean(_metadata, self);
}

/* EMLINK at 65535 links: the count crafted up to it through /dev/mem. */
TEST_F(link, emlink_at_the_limit)
{
	uint32_t ino;
	uint8_t *img;

	ASSERT_EQ(0, put("f", "x"));
	ASSERT_EQ(0, link(at("f"), at("g")));
	ino = lst("f").st_ino;
	ASSERT_EQ(0, umount(MNT));
	img = nvram_map(&self->nv);
	ASSERT_NE(NULL, img);
	inode_set(img, ino, I_LINKS, 2, 65535);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(65535, lst("f").st_nlink);
	EXPECT_EQ(-1, link(at("f"), at("h")));
	EXPECT_EQ(EMLINK, errno);
	EXPECT_FALSE(exists("h"));
	ASSERT_EQ(0, umount(MNT));
	inode_set(img, ino, I_LINKS, 2, 2);
	munmap(img, self->nv.size);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	expect_clean(_metadata, self);
}

TEST_F(link, read_only_mount_refuses_links)
{
	ASSERT_EQ(0, put("f", "x"));
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, do_mount(MNT, MS_RDONLY, "physaddr=%#llx", self->nv.phys));
	EXPECT_EQ(-1, link(at("f"), at("g")));
	EXPECT_EQ(EROFS, errno);
	remount(_metadata, &self->nv);
	expect_clean(_metadata, self);
}

/* A name of @len bytes of @c, in @buf. */
static const char *long_name(char *buf, size_t len, char c)
{
	memset(buf, c, len);
	buf[len] = 0;
	return buf;
}

TEST_F(link, names_up_to_255_bytes)
{
	static const size_t lens[] = { 49, 100, 156, 157, 200, 255 };
	char name[300], path[320], other[300];
	struct statfs sfs;
	unsigned int i;

	EXPECT_EQ(0, incompat(&self->nv) & INCOMPAT_LONGNAMES);
	ASSERT_EQ(0, statfs(MNT, &sfs));
	EXPECT_EQ(255, sfs.f_namelen);
	EXPECT_EQ(255, pathconf(MNT, _PC_NAME_MAX));
	ASSERT_EQ(0, mkdir(at("d"), 0755));
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		snprintf(path, sizeof(path), "d/%s", long_name(name, lens[i], 'a' + i));
		ASSERT_EQ(0, put(path, name)) TH_LOG("%zu bytes", lens[i]);
	}
	EXPECT_NE(0, incompat(&self->nv) & INCOMPAT_LONGNAMES);
	long_name(name, 256, 'z');
	EXPECT_EQ(-1, put(name, "x"));
	EXPECT_EQ(ENAMETOOLONG, errno);
	EXPECT_EQ(-1, mkdir(at(name), 0755));
	EXPECT_EQ(ENAMETOOLONG, errno);
	EXPECT_EQ(-1, symlink("t", at(name)));
	EXPECT_EQ(ENAMETOOLONG, errno);
	EXPECT_EQ(-1, mknod(at(name), S_IFIFO | 0644, 0));
	EXPECT_EQ(ENAMETOOLONG, errno);
	snprintf(path, sizeof(path), "d/%s", long_name(other, 49, 'a'));
	EXPECT_EQ(-1, rename(at(path), at(name)));
	EXPECT_EQ(ENAMETOOLONG, errno);
	EXPECT_EQ(-1, link(at(path), at(name)));
	EXPECT_EQ(ENAMETOOLONG, errno);

	remount(_metadata, &self->nv);
	EXPECT_EQ(ARRAY_SIZE(lens) + 2, count_entries(at("d")));
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		char buf[300] = "";
		int fd;

		snprintf(path, sizeof(path), "d/%s", long_name(name, lens[i], 'a' + i));
		EXPECT_EQ(lst(path).st_ino, dirent_ino("d", name)) TH_LOG("%zu", lens[i]);
		fd = open(at(path), O_RDONLY);
		ASSERT_LE(0, fd) TH_LOG("%zu bytes", lens[i]);
		EXPECT_EQ(lens[i], read(fd, buf, sizeof(buf)));
		close(fd);
		EXPECT_EQ(0, strcmp(buf, name));
	}
	expect_clean(_metadata, self);
}

/* Renames between names of every length, in place and across: no slot leaks. */
TEST_F(link, renames_between_long_and_short_names)
{
	static const size_t lens[] = { 255, 49, 10, 200, 48, 157, 156, 255 };
	char name[300], path[320], prev[320];
	unsigned int i;

	ASSERT_EQ(0, mkdir(at("d1"), 0755));
	ASSERT_EQ(0, mkdir(at("d2"), 0755));
	ASSERT_EQ(0, put("d1/start", "payload"));
	snprintf(prev, sizeof(prev), "d1/start");
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		snprintf(path, sizeof(path), "d%u/%s", 1 + i % 2,
			 long_name(name, lens[i], 'k' + i));
		ASSERT_EQ(0, rename(at(prev), at(path))) TH_LOG("to %zu bytes", lens[i]);
		EXPECT_FALSE(exists(prev));
		snprintf(prev, sizeof(prev), "%s", path);
	}
	/* A hard link with a long name, and over another long name. */
	ASSERT_EQ(0, link(at(prev), at("d1/short")));
	snprintf(path, sizeof(path), "d1/%s", long_name(name, 222, 'L'));
	ASSERT_EQ(0, link(at(prev), at(path)));
	EXPECT_EQ(3, lst(prev).st_nlink);
	ASSERT_EQ(0, put("d2/victim", "v"));
	remount(_metadata, &self->nv);
	EXPECT_EQ(3, lst("d1/short").st_nlink);
	/* Another file over the long link: the inode keeps two names. */
	ASSERT_EQ(0, rename(at("d2/victim"), at(path)));
	EXPECT_EQ(2, lst("d1/short").st_nlink);
	/* The last of the renamed names and the victim swap places. */
	ASSERT_EQ(0, renameat2(AT_FDCWD, at(prev), AT_FDCWD, at(path),
			       RENAME_EXCHANGE));
	remount(_metadata, &self->nv);
	EXPECT_EQ(2, lst(path).st_nlink);
	EXPECT_EQ(lst("d1/short").st_ino, lst(path).st_ino);
	EXPECT_EQ(1, lst(prev).st_nlink);
	expect_clean(_metadata, self);
}

/* busybox's du counts an inode once, find -links sees the counts, cp -a keeps links. */
TEST_F(link, du_find_and_cp_keep_hard_links)
{
	char cmd[256];
	FILE *p;
	long kb_one = 0, kb_two = 0;
	uint8_t buf[16384];
	int fd;

	ASSERT_EQ(0, mkdir(at("src"), 0755));
	fd = open(at("src/big"), O_WRONLY | O_CREAT, 0644);
	ASSERT_LE(0, fd);
	fill_pattern(buf, sizeof(buf), 3, 0);
	ASSERT_EQ(sizeof(buf), write(fd, buf, sizeof(buf)));
	close(fd);
	p = popen("du -sk " MNT "/src", "r");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, fscanf(p, "%ld", &kb_one));
	pclose(p);
	ASSERT_EQ(0, link(at("src/big"), at("src/big2")));
	p = popen("du -sk " MNT "/src", "r");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, fscanf(p, "%ld", &kb_two));
	pclose(p);
	EXPECT_EQ(kb_one, kb_two);
	snprintf(cmd, sizeof(cmd), "test \"$(find %s/src -type f -links 2 | wc -l)\" = 2", MNT);
	EXPECT_EQ(0, system(cmd));
	snprintf(cmd, sizeof(cmd), "cp -a %s/src %s/copy", MNT, MNT);
	ASSERT_EQ(0, system(cmd));
	EXPECT_EQ(lst("copy/big").st_ino, lst("copy/big2").st_ino);
	EXPECT_EQ(2, lst("copy/big2").st_nlink);
	EXPECT_NE(lst("src/big").st_ino, lst("copy/big").st_ino);
	expect_clean(_metadata, self);
}

TEST_HARNESS_MAIN
