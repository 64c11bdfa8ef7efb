// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS namespace tests: directories, unlink (open-unlinked files too),
 * every rename case, symlinks, device nodes, FIFOs and sockets
 * (pramfs_link_test has hard links and long names), attributes and
 * permissions, readdir while the directory changes, and several
 * processes working in shared directories followed by a consistency
 * walk. Each test ends by deleting what it made
 * and finding the free counts of a fresh filesystem: nothing leaks.
 *
 * Needs root, pramfs registered, and PRAM_PHYS and PRAM_SIZE in the
 * environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "pramfs_util.h"

#define BS	2048	/* the default block size the fixture formats with */

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

/* What a walk of the tree found. */
struct tree {
	unsigned long long files, dirs, blocks;	/* blocks in 512 bytes */
	int errors;
};

/*
 * Walk @path: every name readdir gives resolves, every directory's link
 * count is 2 plus its subdirectories, and the inodes and blocks are
 * counted. Problems are logged and counted.
 */
static void walk(const char *path, struct tree *t)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct stat st;
	char sub[1024];
	unsigned long subdirs = 0;

	if (!d) {
		fprintf(stderr, "# opendir %s: %s\n", path, strerror(errno));
		t->errors++;
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st)) {
			fprintf(stderr, "# %s listed but lstat: %s\n", sub,
				strerror(errno));
			t->errors++;
			continue;
		}
		if (e->d_ino != st.st_ino) {
			fprintf(stderr, "# %s: d_ino %llu, st_ino %llu\n", sub,
				(unsigned long long)e->d_ino,
				(unsigned long long)st.st_ino);
			t->errors++;
		}
		t->blocks += st.st_blocks;
		if (S_ISDIR(st.st_mode)) {
			subdirs++;
			walk(sub, t);
		} else {
			t->files++;
		}
	}
	closedir(d);
	t->dirs++;
	if (stat(path, &st) || st.st_nlink != 2 + subdirs) {
		fprintf(stderr, "# %s: %lu links, %lu subdirectories\n", path,
			(unsigned long)st.st_nlink, subdirs);
		t->errors++;
	}
}

/* The tree is consistent, and statfs agrees with it. */
static void check_tree(struct __test_metadata *_metadata,
		       const struct counts *fresh)
{
	struct tree t = { 0 };
	struct counts now;

	walk(MNT, &t);
	now = fs_counts(MNT);
	EXPECT_EQ(0, t.errors);
	/* The root is counted by the walk and by a fresh filesystem. */
	EXPECT_EQ(fresh->ffree - (t.files + t.dirs - 1), now.ffree);
	EXPECT_EQ(fresh->bfree - t.blocks / (BS / 512), now.bfree);
}

FIXTURE(ns) {
	struct nvram nv;
	struct counts fresh;
};

FIXTURE_SETUP(ns)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%llu",
			      self->nv.phys, self->nv.size));
	self->fresh = fs_counts(MNT);
}

/*
 * In the parent: with the 6.12 harness, a failed ASSERT in the test process
 * can skip a teardown there, leaving the NVRAM mounted for the next test.
 */
FIXTURE_TEARDOWN_PARENT(ns)
{
	umount2(MNT, MNT_DETACH);
}

TEST_F(ns, directories_nest_and_count_links)
{
	char buf[64];
	struct stat st;

	ASSERT_EQ(0, mkdir(at("a"), 0755));
	ASSERT_EQ(0, mkdir(at("a/b"), 0700));
	ASSERT_EQ(0, put("a/b/f", "deep"));
	EXPECT_EQ(-1, mkdir(at("a"), 0755));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, open(at("a/b/f"), O_CREAT | O_EXCL | O_WRONLY, 0644));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, put("a/none/f", "x"));
	EXPECT_EQ(ENOENT, errno);
	remount(_metadata, &self->nv);
	ASSERT_EQ(0, stat(at("a/b"), &st));
	EXPECT_EQ(S_IFDIR | 0700, st.st_mode);
	EXPECT_STREQ("deep", get("a/b/f", buf, sizeof(buf)));
	check_tree(_metadata, &self->fresh);

	EXPECT_EQ(-1, rmdir(at("a")));
	EXPECT_EQ(ENOTEMPTY, errno);
	EXPECT_EQ(-1, rmdir(at("a/b/f")));
	EXPECT_EQ(ENOTDIR, errno);
	EXPECT_EQ(-1, unlink(at("a/b")));
	EXPECT_EQ(EISDIR, errno);
	ASSERT_EQ(0, unlink(at("a/b/f")));
	ASSERT_EQ(0, rmdir(at("a/b")));
	ASSERT_EQ(0, rmdir(at("a")));
	ASSERT_EQ(0, stat(MNT, &st));
	EXPECT_EQ(2, st.st_nlink);
	expect_clean(_metadata, self);
}

TEST_F(ns, unlinked_open_file_lives_until_the_last_close)
{
	uint8_t buf[3 * BS];
	struct counts open_counts;
	struct stat st;
	int fd;

	fd = open(at("f"), O_RDWR | O_CREAT, 0644);
	ASSERT_LE(0, fd);
	fill_pattern(buf, sizeof(buf), 1, 0);
	ASSERT_EQ(sizeof(buf), write(fd, buf, sizeof(buf)));
	open_counts = fs_counts(MNT);
	ASSERT_EQ(0, unlink(at("f")));
	EXPECT_FALSE(exists("f"));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0, st.st_nlink);
	/* Still readable and writable through the descriptor. */
	ASSERT_EQ(sizeof(buf), pread(fd, buf, sizeof(buf), 0));
	EXPECT_EQ(-1, check_pattern(buf, sizeof(buf), 1, 0));
	EXPECT_EQ(5, pwrite(fd, "later", 5, 10 * BS));
	/* Its inode and blocks are still taken. */
	EXPECT_GT(self->fresh.bfree, fs_counts(MNT).bfree);
	EXPECT_EQ(open_counts.ffree, fs_counts(MNT).ffree);
	/* A new file may take the name meanwhile. */
	ASSERT_EQ(0, put("f", "new"));
	ASSERT_EQ(0, unlink(at("f")));
	close(fd);
	EXPECT_EQ(self->fresh.bfree, fs_counts(MNT).bfree);
	EXPECT_EQ(self->fresh.ffree, fs_counts(MNT).ffree);
}

/*
 * An empty file holds nothing but its record, which its eviction frees
 * without the journal: not before the last close, and all of it.
 */
TEST_F(ns, unlinked_open_empty_file_lives_until_the_last_close)
{
	struct counts open_counts;
	struct stat st;
	int fd;

	fd = open(at("e"), O_RDWR | O_CREAT, 0644);
	ASSERT_LE(0, fd);
	open_counts = fs_counts(MNT);
	ASSERT_EQ(0, unlink(at("e")));
	/* Its record still takes changes. */
	ASSERT_EQ(0, fchmod(fd, 0600));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(S_IFREG | 0600, st.st_mode);
	EXPECT_EQ(0, st.st_nlink);
	EXPECT_EQ(open_counts.ffree, fs_counts(MNT).ffree);
	close(fd);
	EXPECT_EQ(self->fresh.ffree, fs_counts(MNT).ffree);
	/* fsck.pramfs finds its slot all zeros. */
	expect_clean(_metadata, self);
}

/*
 * Rename cases. Setup entries are "d:path" (a directory) or "f:path" (a
 * file whose content is its path); afterwards "path=content" must be a
 * file with that content, "path/" a directory, and "!path" must be gone.
 */
struct rename_case {
	const char *name;
	const char *setup[5];
	const char *from, *to;
	unsigned int flags;
	int err;
	const char *expect[5];
};

static const struct rename_case rename_cases[] = {
	{ "same directory", { "f:a" }, "a", "b", 0, 0, { "b=a", "!a" } },
	{ "across directories", { "d:x", "d:y", "f:x/a" }, "x/a", "y/b", 0, 0,
	  { "y/b=x/a", "!x/a" } },
	{ "over a file", { "f:a", "f:b" }, "a", "b", 0, 0, { "b=a", "!a" } },
	{ "over an empty directory", { "d:a", "f:a/in", "d:b" }, "a", "b", 0, 0,
	  { "b/in=a/in", "!a" } },
	{ "over a non-empty directory", { "d:a", "d:b", "f:b/c" }, "a", "b", 0,
	  ENOTEMPTY, { "a/", "b/c=b/c" } },
	{ "file over a directory", { "f:a", "d:b" }, "a", "b", 0, EISDIR,
	  { "a=a", "b/" } },
	{ "directory over a file", { "d:a", "f:b" }, "a", "b", 0, ENOTDIR,
	  { "a/", "b=b" } },
	{ "directory into itself", { "d:a", "d:a/b" }, "a", "a/b/c", 0, EINVAL,
	  { "a/b/" } },
	{ "directory across directories", { "d:x", "d:x/s", "f:x/s/in", "d:y" },
	  "x/s", "y/s", 0, 0, { "y/s/in=x/s/in", "!x/s" } },
	{ "noreplace onto a name in use", { "f:a", "f:b" }, "a", "b",
	  RENAME_NOREPLACE, EEXIST, { "a=a", "b=b" } },
	{ "noreplace onto a free name", { "f:a" }, "a", "b", RENAME_NOREPLACE, 0,
	  { "b=a", "!a" } },
	{ "exchange in one directory", { "f:a", "f:b" }, "a", "b",
	  RENAME_EXCHANGE, 0, { "a=b", "b=a" } },
	{ "exchange a file and a directory across directories",
	  { "d:x", "f:x/a", "d:y", "f:y/in" }, "x/a", "y", RENAME_EXCHANGE, 0,
	  { "y=x/a", "x/a/in=y/in" } },
	{ "exchange with a missing name", { "f:a" }, "a", "b", RENAME_EXCHANGE,
	  ENOENT, { "a=a", "!b" } },
	{ "missing source", { "f:b" }, "a", "b", 0, ENOENT, { "b=b" } },
};

static void rename_setup(struct __test_metadata *_metadata, const char *entry)
{
	int ret;

	if (entry[0] == 'd')
		ret = mkdir(at(entry + 2), 0755);
	else
		ret = put(entry + 2, entry + 2);
	ASSERT_EQ(0, ret) {
		TH_LOG("setting up %s", entry);
	}
}

static void rename_expect(struct __test_metadata *_metadata, const char *e)
{
	char path[256], buf[256];
	const char *eq = strchr(e, '=');
	struct stat st;

	if (e[0] == '!') {
		EXPECT_FALSE(exists(e + 1)) {
			TH_LOG("%s still exists", e + 1);
		}
	} else if (e[strlen(e) - 1] == '/') {
		snprintf(path, sizeof(path), "%.*s", (int)strlen(e) - 1, e);
		EXPECT_TRUE(!stat(at(path), &st) && S_ISDIR(st.st_mode)) {
			TH_LOG("%s is not a directory", path);
		}
	} else {
		snprintf(path, sizeof(path), "%.*s", (int)(eq - e), e);
		EXPECT_STREQ(eq + 1, get(path, buf, sizeof(buf))) {
			TH_LOG("content of %s", path);
		}
	}
}

TEST_F(ns, rename_cases)
{
	const struct rename_case *c;
	size_t i, j;
	int ret;

	for (i = 0; i < ARRAY_SIZE(rename_cases); i++) {
		c = &rename_cases[i];
		TH_LOG("case: %s", c->name);
		for (j = 0; j < ARRAY_SIZE(c->setup) && c->setup[j]; j++)
			rename_setup(_metadata, c->setup[j]);
		ret = renameat2(AT_FDCWD, at(c->from), AT_FDCWD, at(c->to),
				c->flags);
		EXPECT_EQ(c->err ? -1 : 0, ret);
		if (c->err)
			EXPECT_EQ(c->err, errno);
		for (j = 0; j < ARRAY_SIZE(c->expect) && c->expect[j]; j++)
			rename_expect(_metadata, c->expect[j]);
		/* Also after a remount, and with consistent link counts. */
		remount(_metadata, &self->nv);
		for (j = 0; j < ARRAY_SIZE(c->expect) && c->expect[j]; j++)
			rename_expect(_metadata, c->expect[j]);
		check_tree(_metadata, &self->fresh);
		expect_clean(_metadata, self);
	}
}

/*
 * An operation's attributes: the directories it changes get a new mtime
 * and ctime, and those, with their link counts and the ctime of the
 * inodes it renames or links, are on the NVRAM when it returns (the
 * same after a remount). @watch lists the paths (after the operation)
 * to compare, "d:" marking the directories whose mtime must change.
 */
struct times_case {
	const char *name;
	const char *setup[4];
	int (*op)(void);
	const char *watch[4];
};

static int op_create(void) { return put("x/new", ""); }
static int op_unlink(void) { return unlink(at("x/a")); }
static int op_mkdir(void) { return mkdir(at("x/s"), 0755); }
static int op_rmdir(void) { return rmdir(at("x/s")); }
static int op_link(void) { return link(at("x/a"), at("y/l")); }
static int op_rename(void) { return rename(at("x/a"), at("x/z")); }
static int op_move(void) { return rename(at("x/a"), at("y/a")); }
static int op_replace(void) { return rename(at("x/a"), at("x/b")); }

static int op_exchange(void)
{
	return renameat2(AT_FDCWD, at("x/a"), AT_FDCWD, at("y/c"),
			 RENAME_EXCHANGE);
}

static const struct times_case times_cases[] = {
	{ "create", { "d:x" }, op_create, { "d:x" } },
	{ "unlink", { "d:x", "f:x/a" }, op_unlink, { "d:x" } },
	{ "mkdir", { "d:x" }, op_mkdir, { "d:x", "x/s" } },
	{ "mkdir after another", { "d:x", "d:x/t" }, op_mkdir, { "d:x", "x/s" } },
	{ "rmdir", { "d:x", "d:x/s" }, op_rmdir, { "d:x" } },
	{ "rmdir of the first", { "d:x", "d:x/s", "d:x/t" }, op_rmdir,
	  { "d:x" } },
	{ "link", { "d:x", "f:x/a", "d:y" }, op_link, { "d:y", "x/a" } },
	{ "rename", { "d:x", "f:x/a" }, op_rename, { "d:x", "x/z" } },
	{ "move", { "d:x", "f:x/a", "d:y" }, op_move, { "d:x", "d:y", "y/a" } },
	{ "rename over a file", { "d:x", "f:x/a", "f:x/b" }, op_replace,
	  { "d:x", "x/b" } },
	{ "exchange across directories", { "d:x", "f:x/a", "d:y", "f:y/c" },
	  op_exchange, { "d:x", "d:y", "x/a", "y/c" } },
};

#define OLD_TIME	1000000000

static void set_old_times(struct __test_metadata *_metadata, const char *path)
{
	struct timespec old[2] = { { OLD_TIME, 0 }, { OLD_TIME, 0 } };

	ASSERT_EQ(0, utimensat(AT_FDCWD, at(path), old, AT_SYMLINK_NOFOLLOW));
}

static void stat_watched(struct __test_metadata *_metadata,
			 const struct times_case *c, struct stat *st)
{
	const char *w;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c->watch) && c->watch[i]; i++) {
		w = c->watch[i];
		ASSERT_EQ(0, lstat(at(w + (w[1] == ':') * 2), &st[i])) {
			TH_LOG("%s: %s", c->name, w);
		}
	}
}

TEST_F(ns, attributes_of_a_change_reach_the_nvram)
{
	struct stat before[4], after[4];
	const struct times_case *c;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(times_cases); i++) {
		c = &times_cases[i];
		for (j = 0; j < ARRAY_SIZE(c->setup) && c->setup[j]; j++)
			rename_setup(_metadata, c->setup[j]);
		for (j = 0; j < ARRAY_SIZE(c->setup) && c->setup[j]; j++)
			set_old_times(_metadata, c->setup[j] + 2);
		/* A clock tick later: the operation's ctime is its own. */
		usleep(20 * 1000);
		ASSERT_EQ(0, c->op()) {
			TH_LOG("%s: %s", c->name, strerror(errno));
		}
		stat_watched(_metadata, c, before);
		remount(_metadata, &self->nv);
		stat_watched(_metadata, c, after);
		for (j = 0; j < ARRAY_SIZE(c->watch) && c->watch[j]; j++) {
			if (c->watch[j][1] == ':') {
				EXPECT_NE(OLD_TIME, before[j].st_mtim.tv_sec) {
					TH_LOG("%s: %s's mtime", c->name, c->watch[j]);
				}
			}
			EXPECT_EQ(0, memcmp(&before[j].st_mtim, &after[j].st_mtim,
					    sizeof(struct timespec)) |
				     memcmp(&before[j].st_ctim, &after[j].st_ctim,
					    sizeof(struct timespec))) {
				TH_LOG("%s: %s's times lost at the remount",
				       c->name, c->watch[j]);
			}
			EXPECT_EQ(before[j].st_nlink, after[j].st_nlink) {
				TH_LOG("%s: %s's link count", c->name,
				       c->watch[j]);
			}
		}
		expect_clean(_metadata, self);
	}
}

TEST_F(ns, rename_over_an_open_target)
{
	char buf[16] = "";
	int fd;

	ASSERT_EQ(0, put("a", "new"));
	ASSERT_EQ(0, put("b", "old"));
	fd = open(at("b"), O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rename(at("a"), at("b")));
	EXPECT_STREQ("new", get("b", buf, sizeof(buf)));
	/* The replaced file is still there for its reader... */
	ASSERT_EQ(3, pread(fd, buf, sizeof(buf), 0));
	buf[3] = 0;
	EXPECT_STREQ("old", buf);
	EXPECT_EQ(self->fresh.ffree - 2, fs_counts(MNT).ffree);
	/* ...and freed when the reader is done. */
	close(fd);
	EXPECT_EQ(self->fresh.ffree - 1, fs_counts(MNT).ffree);
	expect_clean(_metadata, self);
}

TEST_F(ns, symlinks_up_to_the_block_size)
{
	char target[BS + 1], buf[BS + 1];
	struct stat st;
	int fd;

	memset(target, 'x', BS);
	target[BS - 1] = 0;			/* BS - 1 bytes: the most */
	ASSERT_EQ(0, symlink(target, at("long")));
	target[BS - 1] = 'x';
	target[BS] = 0;				/* BS bytes: too long */
	EXPECT_EQ(-1, symlink(target, at("toolong")));
	EXPECT_EQ(ENAMETOOLONG, errno);
	EXPECT_FALSE(exists("toolong"));

	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("d/f", "through"));
	ASSERT_EQ(0, symlink("d/f", at("rel")));
	ASSERT_EQ(0, symlink(MNT "/d", at("abs")));
	remount(_metadata, &self->nv);
	ASSERT_EQ(BS - 1, readlink(at("long"), buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, target, BS - 1));
	ASSERT_EQ(0, lstat(at("long"), &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	EXPECT_EQ(BS - 1, st.st_size);
	EXPECT_STREQ("through", get("rel", buf, sizeof(buf)));
	EXPECT_STREQ("through", get("abs/f", buf, sizeof(buf)));
	fd = open(at("rel"), O_RDONLY | O_NOFOLLOW);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ELOOP, errno);
	check_tree(_metadata, &self->fresh);
	expect_clean(_metadata, self);
}

TEST_F(ns, device_nodes_fifos_and_sockets)
{
	static const struct { const char *name; mode_t mode; dev_t dev; } nodes[] = {
		{ "null", S_IFCHR | 0644, 0 },	/* makedev(1, 3), set below */
		{ "loop", S_IFBLK | 0600, 0 },
		{ "fifo", S_IFIFO | 0644, 0 },
		{ "sock", S_IFSOCK | 0755, 0 },
	};
	dev_t devs[] = { makedev(1, 3), makedev(7, 300), 0, 0 };
	char buf[8];
	struct stat st;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(nodes); i++)
		ASSERT_EQ(0, mknod(at(nodes[i].name), nodes[i].mode, devs[i]));
	remount(_metadata, &self->nv);
	for (i = 0; i < ARRAY_SIZE(nodes); i++) {
		ASSERT_EQ(0, lstat(at(nodes[i].name), &st));
		EXPECT_EQ(nodes[i].mode, st.st_mode);
		EXPECT_EQ(devs[i], st.st_rdev);
	}
	/* The character device is the memory driver's null. */
	fd = open(at("null"), O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(4, write(fd, "void", 4));
	close(fd);
	fd = open(at("fifo"), O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "pipe", 4));
	ASSERT_EQ(4, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "pipe", 4));
	close(fd);
	check_tree(_metadata, &self->fresh);
	expect_clean(_metadata, self);
}

TEST_F(ns, attributes_persist_with_nanoseconds)
{
	struct timespec times[2] = {
		{ 1000000000, 123456789 }, { 2000000000, 987654321 },
	};
	struct stat st;

	ASSERT_EQ(0, put("f", "attr"));
	ASSERT_EQ(0, chmod(at("f"), 04751));
	ASSERT_EQ(0, chown(at("f"), 123, 456));
	ASSERT_EQ(0, utimensat(AT_FDCWD, at("f"), times, 0));
	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, utimensat(AT_FDCWD, at("d"), times, 0));
	remount(_metadata, &self->nv);
	ASSERT_EQ(0, stat(at("f"), &st));
	/* chown clears set-user-ID on an executable file. */
	EXPECT_EQ(S_IFREG | 0751, st.st_mode);
	EXPECT_EQ(123, st.st_uid);
	EXPECT_EQ(456, st.st_gid);
	EXPECT_EQ(times[0].tv_sec, st.st_atim.tv_sec);
	EXPECT_EQ(times[0].tv_nsec, st.st_atim.tv_nsec);
	EXPECT_EQ(times[1].tv_sec, st.st_mtim.tv_sec);
	EXPECT_EQ(times[1].tv_nsec, st.st_mtim.tv_nsec);
	EXPECT_EQ(BS, st.st_blksize);
	EXPECT_EQ(4, st.st_size);
	EXPECT_EQ(BS / 512, st.st_blocks);	/* a direct block */
	ASSERT_EQ(0, stat(at("d"), &st));
	EXPECT_EQ(times[1].tv_nsec, st.st_mtim.tv_nsec);
	expect_clean(_metadata, self);
}

/* Each step that the permission checks must refuse, or allow. */
static int user_steps(void)
{
	if (open(at("priv/f"), O_CREAT | O_WRONLY, 0644) >= 0 || errno != EACCES)
		return 1;
	if (open(at("rootfile"), O_WRONLY) >= 0 || errno != EACCES)
		return 2;
	if (chmod(at("rootfile"), 0777) == 0 || errno != EPERM)
		return 3;
	/* The root directory is 1777: anyone may create, not delete others'. */
	if (unlink(at("rootfile")) == 0 || errno != EPERM)
		return 4;
	if (put("mine", "user"))
		return 5;
	if (rename(at("mine"), at("mine2")))
		return 6;
	return 0;
}

TEST_F(ns, permissions_are_checked)
{
	struct stat st;

	ASSERT_EQ(0, mkdir(at("priv"), 0700));
	ASSERT_EQ(0, put("rootfile", "root"));
	EXPECT_EQ(0, as_user(user_steps));
	ASSERT_EQ(0, stat(at("mine2"), &st));
	EXPECT_EQ(1000, st.st_uid);
	EXPECT_EQ(1000, st.st_gid);
	EXPECT_TRUE(exists("rootfile"));
	expect_clean(_metadata, self);
}

TEST_F(ns, setgid_directory_passes_its_group_on)
{
	struct stat st;

	ASSERT_EQ(0, mkdir(at("g"), 0775));
	ASSERT_EQ(0, chown(at("g"), 0, 1234));
	ASSERT_EQ(0, chmod(at("g"), 02775));
	ASSERT_EQ(0, put("g/f", "x"));
	ASSERT_EQ(0, mkdir(at("g/sub"), 0755));
	ASSERT_EQ(0, stat(at("g/f"), &st));
	EXPECT_EQ(1234, st.st_gid);
	ASSERT_EQ(0, stat(at("g/sub"), &st));
	EXPECT_EQ(1234, st.st_gid);
	EXPECT_TRUE(st.st_mode & S_ISGID);
	expect_clean(_metadata, self);
}

/* Drop unused dentries and inodes: later lookups go to the filesystem. */
static int forget_dentries(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok = fd >= 0 && write(fd, "2", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/*
 * With the directories held open (so their inodes, and name indexes,
 * stay in memory) and the dentries dropped, every lookup goes to the
 * index: each change must have kept it right.
 */
TEST_F(ns, lookups_after_changes_use_an_up_to_date_index)
{
	static const char *const present[] = {
		"x/r1=x/f1", "y/m2=x/f2", "x/f3=y/g3", "y/g3=x/f3", "x/f5=x/f4",
		"x/new=x/new", "x/f0=x/f0", "x/f59=x/f59", "y/g9=y/g9",
		"!x/f1", "!x/f2", "!x/f4", "!x/f6",
	};
	char name[16];
	int dx, dy, i;

	ASSERT_EQ(0, mkdir(at("x"), 0755));
	ASSERT_EQ(0, mkdir(at("y"), 0755));
	dx = open(at("x"), O_RDONLY | O_DIRECTORY);
	dy = open(at("y"), O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dx);
	ASSERT_LE(0, dy);
	for (i = 0; i < 60; i++) {
		snprintf(name, sizeof(name), "x/f%d", i);
		ASSERT_EQ(0, put(name, name));
	}
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "y/g%d", i);
		ASSERT_EQ(0, put(name, name));
	}
	ASSERT_EQ(0, rename(at("x/f1"), at("x/r1")));
	ASSERT_EQ(0, rename(at("x/f2"), at("y/m2")));
	ASSERT_EQ(0, renameat2(AT_FDCWD, at("x/f3"), AT_FDCWD, at("y/g3"),
			       RENAME_EXCHANGE));
	ASSERT_EQ(0, rename(at("x/f4"), at("x/f5")));
	ASSERT_EQ(0, unlink(at("x/f6")));
	ASSERT_EQ(0, put("x/new", "x/new"));
	ASSERT_EQ(0, forget_dentries());
	for (i = 0; i < (int)ARRAY_SIZE(present); i++)
		rename_expect(_metadata, present[i]);
	close(dx);
	close(dy);
	check_tree(_metadata, &self->fresh);
	expect_clean(_metadata, self);
}

/* ---- readdir while the directory changes ---- */

#define WALK_FILES	300

struct linux_dirent64 {
	uint64_t	d_ino;
	int64_t		d_off;
	unsigned short	d_reclen;
	unsigned char	d_type;
	char		d_name[];
};

/* Read one small batch of entries; marks seen[] and returns how many. */
static int read_batch(int fd, int *seen, int *dups, off_t *offs)
{
	char buf[256];
	long n = syscall(SYS_getdents64, fd, buf, sizeof(buf)), pos;
	struct linux_dirent64 *e;
	int got = 0, k;

	for (pos = 0; pos < n; pos += e->d_reclen) {
		e = (struct linux_dirent64 *)(buf + pos);
		if (e->d_name[0] != 'e')
			continue;
		k = atoi(e->d_name + 1);
		if (seen[k]++)
			(*dups)++;
		offs[k] = e->d_off;
		got++;
	}
	return n > 0 ? got : (int)n;
}

TEST_F(ns, readdir_while_the_directory_changes)
{
	int seen[2 * WALK_FILES] = { 0 }, gone[2 * WALK_FILES] = { 0 };
	off_t offs[2 * WALK_FILES] = { 0 };
	int total = 0, dups = 0, i, n, fd, k, mark = -1, after_mark = -1;
	char name[16];

	ASSERT_EQ(0, mkdir(at("w"), 0755));
	for (i = 0; i < WALK_FILES; i++) {
		snprintf(name, sizeof(name), "w/e%d", i);
		ASSERT_EQ(0, put(name, ""));
	}
	fd = open(at("w"), O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	while (total < WALK_FILES / 3 && (n = read_batch(fd, seen, &dups, offs)) > 0)
		total += n;
	/* Remove every third file, seen or not; add as many new ones. */
	for (i = 0; i < WALK_FILES; i += 3) {
		snprintf(name, sizeof(name), "w/e%d", i);
		ASSERT_EQ(0, unlink(at(name)));
		gone[i] = 1;
		snprintf(name, sizeof(name), "w/e%d", WALK_FILES + i);
		ASSERT_EQ(0, put(name, ""));
	}
	while ((n = read_batch(fd, seen, &dups, offs)) > 0)
		total += n;
	ASSERT_EQ(0, n);
	EXPECT_EQ(0, dups);
	for (i = 0; i < WALK_FILES; i++)
		if (!gone[i])
			EXPECT_EQ(1, seen[i]) {
				TH_LOG("e%d seen %d times", i, seen[i]);
			}

	/* seekdir() to a telldir() position goes on from the same entry. */
	for (k = 1; k < WALK_FILES; k++)
		if (!gone[k] && !gone[k - 1] && offs[k - 1]) {
			mark = k - 1;
			after_mark = k;
			break;
		}
	ASSERT_LE(0, mark);
	memset(seen, 0, sizeof(seen));
	ASSERT_EQ(offs[mark], lseek(fd, offs[mark], SEEK_SET));
	ASSERT_LT(0, read_batch(fd, seen, &dups, offs));
	EXPECT_EQ(0, seen[mark]);
	EXPECT_EQ(1, seen[after_mark]);
	close(fd);
	check_tree(_metadata, &self->fresh);
	expect_clean(_metadata, self);
}

/* ---- several processes in shared directories ---- */

#define WORKERS		4
#define WORK_SECONDS	8
#define WORK_DIRS	3
#define WORK_NAMES	24

static void work_name(char *buf, size_t len, unsigned int *seed)
{
	snprintf(buf, len, "s%u/n%u", rand_r(seed) % WORK_DIRS,
		 rand_r(seed) % WORK_NAMES);
}

/* An errno that the racing operations may meet; anything else is a bug. */
static int expected_errno(int err)
{
	return err == ENOENT || err == EEXIST || err == ENOTEMPTY ||
	       err == ENOTDIR || err == EISDIR || err == EINVAL;
}

/* One worker: random operations for a while; returns unexpected errors. */
static int worker(unsigned int seed)
{
	time_t end = time(NULL) + WORK_SECONDS;
	char a[64], b[64], buf[3 * BS];
	int bad = 0, fd, ret;

	while (time(NULL) < end) {
		work_name(a, sizeof(a), &seed);
		work_name(b, sizeof(b), &seed);
		switch (rand_r(&seed) % 8) {
		case 0:
		case 1:
			fd = open(at(a), O_RDWR | O_CREAT, 0644);
			ret = fd;
			if (fd >= 0) {
				fill_pattern((uint8_t *)buf, sizeof(buf), seed, 0);
				ret = pwrite(fd, buf, rand_r(&seed) % sizeof(buf),
					     rand_r(&seed) % (4 * BS));
				close(fd);
			}
			break;
		case 2:
			ret = rename(at(a), at(b));
			break;
		case 3:
			ret = renameat2(AT_FDCWD, at(a), AT_FDCWD, at(b),
					RENAME_EXCHANGE);
			break;
		case 4:
			ret = unlink(at(a));
			break;
		case 5:
			ret = mkdir(at(a), 0755);
			break;
		case 6:
			ret = rmdir(at(a));
			break;
		default:
			ret = truncate(at(a), rand_r(&seed) % (3 * BS));
			break;
		}
		if (ret < 0 && !expected_errno(errno)) {
			fprintf(stderr, "# %s: %s\n", a, strerror(errno));
			bad++;
		}
	}
	return bad > 255 ? 255 : bad;
}

TEST_F_TIMEOUT(ns, concurrent_namespace_changes_stay_consistent, 300)
{
	pid_t pids[WORKERS];
	char name[16];
	int i, status;

	for (i = 0; i < WORK_DIRS; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		ASSERT_EQ(0, mkdir(at(name), 0755));
	}
	for (i = 0; i < WORKERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			_exit(worker(i + 1));
	}
	for (i = 0; i < WORKERS; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	check_tree(_metadata, &self->fresh);
	remount(_metadata, &self->nv);
	check_tree(_metadata, &self->fresh);
	expect_clean(_metadata, self);
}

TEST_HARNESS_MAIN
