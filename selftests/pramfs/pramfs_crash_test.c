// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS crash tests: every namespace and attribute operation cut by a
 * power loss at every persistence point, and at each point with each
 * single cache line of the window being closed persisted or not.
 *
 * The module's power-cut knob (CONFIG_PRAMFS_CRASH_TEST, fs/pramfs/crash.c)
 * counts the fences PRAMFS makes and, at the chosen one, stops every
 * later store from reaching the NVRAM. For each operation: a count-only
 * pass finds its fences F and the trees before and after it; then for
 * every cut N = 0..F (and the tears of the cut window), on a fresh copy
 * of the same small tree: run the operation with the cut armed, unmount,
 * and check that
 *   1. a read-only mount succeeds, stores nothing (NVRAM hash) and shows
 *      the tree before or after the operation (but for block counts: the
 *      blocks of a deleted file or past a cut truncate are freed by the
 *      next read-write mount); a read-write mount then succeeds;
 *   2. the tree it shows (names, types, modes, owners, sizes, blocks,
 *      bytes, targets, extended attributes and the times of files) is
 *      the one before the operation or the one after it, and nothing
 *      else;
 *   3. fsck.pramfs -fn then finds nothing.
 * Each operation prints the number of crash states it checked. The
 * tree holds a file with two names and one with a 200-byte name, so
 * that link, unlink of one of several names, renames of a linked file
 * and of long names are cut too, and one with an extended attribute; a
 * link, a long name and an attribute on a tree without any also cut the
 * superblock write of a feature's first use.
 *
 * A window of more than MAX_TEAR_LINES lines is torn three ways: its
 * first line alone persisted, all but the first, all but the last.
 *
 * Needs root, pramfs registered with the knob, PRAM_PHYS and PRAM_SIZE
 * (qemu/run sets them), and fsck.pramfs (the test initramfs has it).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "pramfs_image.h"
#include "pramfs_util.h"

#define FS_SIZE		(1 << 20)	/* the filesystem under test */
#define FS_BS		1024
#define KNOB		"/sys/module/pramfs/parameters/"
#define MAX_TEAR_LINES	8		/* windows this small are torn every way */
#define TREE_MAX	8192
#define FIXED_TIME	1700000000	/* the files' times, so trees compare */

/* ---- the knob ---- */

static int knob_set(const char *name, long v)
{
	char path[128];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), KNOB "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	err = fprintf(f, "%ld\n", v) < 0;
	return fclose(f) || err ? -1 : 0;
}

static long knob_get(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), KNOB "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* crashed is a bool parameter: Y or N. */
static int knob_crashed(void)
{
	char c = 0;
	FILE *f = fopen(KNOB "crashed", "r");

	if (f) {
		if (fscanf(f, " %c", &c) != 1)
			c = 0;
		fclose(f);
	}
	return c == 'Y';
}

/* ---- the tree every operation starts from ---- */

/*
 * A file of @len pattern bytes. @mapped: its blocks in a block map even
 * when it has one block (written after block 1, which is then cut off),
 * so that no file has a direct block.
 */
static int put_pattern_as(const char *name, size_t len, unsigned int seed,
			  bool mapped)
{
	uint8_t buf[8192];
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0 || len > sizeof(buf))
		return -1;
	fill_pattern(buf, len, seed, 0);
	if (mapped && len && pwrite(fd, buf, 1, FS_BS) != 1)
		len = 0;
	n = write(fd, buf, len);
	if (mapped && ftruncate(fd, len))
		n = -1;
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static int put_pattern(const char *name, size_t len, unsigned int seed)
{
	return put_pattern_as(name, len, seed, false);
}

static int fix_time(const char *name, time_t t)
{
	struct timespec ts[2] = { { t, 0 }, { t, 0 } };

	return utimensat(AT_FDCWD, at(name), ts, AT_SYMLINK_NOFOLLOW);
}

/* @dir/long-cccc...: a path whose last name is @len bytes. */
static const char *long_path(char *buf, const char *dir, char c, size_t len)
{
	size_t n = sprintf(buf, "%s/long-", dir);

	memset(buf + n, c, len - 5);
	buf[n + len - 5] = 0;
	return buf;
}

/* A name of 200 bytes in the tree, one of 255 the operations make. */
static const char *long_a(void)
{
	static char buf[300];

	return long_path(buf, "d2", 'a', 200);
}

static const char *long_b(void)
{
	static char buf[300];

	return long_path(buf, "d1", 'b', 255);
}

/* An access ACL giving user 1000 read on @name (its mode 0640). */
static int set_reader_acl(const char *name)
{
	static const uint8_t acl[] = {
		2, 0, 0, 0,
		1, 0, 6, 0, 0, 0, 0, 0,		/* user:: rw- */
		2, 0, 4, 0, 0xe8, 3, 0, 0,	/* user:1000: r-- */
		4, 0, 0, 0, 0, 0, 0, 0,		/* group:: --- */
		16, 0, 4, 0, 0, 0, 0, 0,	/* mask:: r-- */
		32, 0, 0, 0, 0, 0, 0, 0,	/* other:: --- */
	};

	return lsetxattr(at(name), "system.posix_acl_access", acl, sizeof(acl),
			 0);
}

/* 100 bytes of @c, for attribute values. */
static const char *long_value(char c)
{
	static char v[100];

	memset(v, c, sizeof(v));
	return v;
}

/*
 * Two directories with files of one and of several blocks, a symlink, a
 * subtree to move, empty directories to remove or replace, and unless
 * @plain (no feature in use yet) a file with two names (d1/multi,
 * d2/multi2), one with a 200-byte name, an attribute on d1/big, an ACL
 * on d2/victim and the one-block files in direct blocks.
 */
static int make_tree(bool plain)
{
	static const char *const dirs[] = { "d1", "d2", "d1/sub", "d2/empty", "d1/e2" };
	static const char *const files[] = { "d1/small", "d1/big", "d2/victim",
					     "d1/sub/x", "d1/link", "d2/zero",
					     "d1/multi", NULL };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(at(dirs[i]), 0755))
			return -1;
	if (put_pattern_as("d1/small", 100, 1, plain) ||
	    put_pattern("d1/big", 5000, 2) ||
	    put_pattern_as("d2/victim", 200, 3, plain) ||
	    put_pattern_as("d1/sub/x", 10, 4, plain) ||
	    put_pattern("d2/zero", 0, 5) ||
	    put_pattern_as("d1/multi", 300, 6, plain) ||
	    (!plain && put_pattern(long_a(), 50, 7)) ||
	    symlink("small", at("d1/link")))
		return -1;
	for (i = 0; i < ARRAY_SIZE(files) - plain; i++)
		if (fix_time(files[i] ?: long_a(), FIXED_TIME))
			return -1;
	/* After the times: a link changes the file's ctime only. */
	if (plain)
		return 0;
	return link(at("d1/multi"), at("d2/multi2")) ?:
	       lsetxattr(at("d1/big"), "user.a", long_value('1'), 100, 0) ?:
	       set_reader_acl("d2/victim");
}

/* ---- what a tree holds ---- */

struct tree {
	char	*line[256];
	int	n;
};

static uint32_t file_crc(const char *path)
{
	uint8_t buf[4096];
	uint32_t crc = ~0U;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32c(crc, buf, n);
	close(fd);
	return n < 0 ? 0 : crc;
}

/* "name=value,..." of @path's attributes, into @buf. */
static void xattr_text(const char *path, char *buf, size_t size)
{
	char names[1024], value[256], *n;
	ssize_t len = llistxattr(path, names, sizeof(names)), v;
	size_t used = 0;

	buf[0] = 0;
	for (n = names; len > 0 && n < names + len; n += strlen(n) + 1) {
		v = lgetxattr(path, n, value, sizeof(value));
		used += snprintf(buf + used, used < size ? size - used : 0,
				 " %s=%08x", n,
				 v < 0 ? 0 : crc32c(~0U, (uint8_t *)value, v));
	}
}

/* A file's time: one the tests set, or the time of the run. */
static const char *time_name(time_t t)
{
	return t == FIXED_TIME ? "fixed" : t == FIXED_TIME + 3600 ? "fixed+1h" : "now";
}

/*
 * One line per entry under @path (relative @rel), into @t; with @blocks,
 * the blocks each file holds.
 */
static void tree_walk(const char *path, const char *rel, struct tree *t,
		      bool blocks)
{
	char sub[1024], subrel[1024], line[1800], target[256], xattrs[256];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(path);
	ssize_t len;

	if (!d)
		return;
	while ((e = readdir(d)) && t->n < (int)ARRAY_SIZE(t->line)) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		snprintf(subrel, sizeof(subrel), "%s/%s", rel, e->d_name);
		xattr_text(sub, xattrs, sizeof(xattrs));
		if (lstat(sub, &st)) {
			snprintf(line, sizeof(line), "%s lstat-error %d", subrel, errno);
		} else if (S_ISDIR(st.st_mode)) {
			snprintf(line, sizeof(line), "%s %o %u:%u links %lu%s", subrel,
				 st.st_mode, st.st_uid, st.st_gid,
				 (unsigned long)st.st_nlink, xattrs);
		} else {
			len = S_ISLNK(st.st_mode) ?
			      readlink(sub, target, sizeof(target) - 1) : 0;
			target[len > 0 ? len : 0] = 0;
			snprintf(line, sizeof(line), "%s %o %u:%u links %lu size %lld blocks %lld time %s %08x%s%s%s",
				 subrel, st.st_mode, st.st_uid, st.st_gid,
				 (unsigned long)st.st_nlink, (long long)st.st_size,
				 blocks ? (long long)st.st_blocks : -1LL,
				 time_name(st.st_mtime),
				 S_ISREG(st.st_mode) ? file_crc(sub) : 0,
				 len > 0 ? " -> " : "", target, xattrs);
		}
		t->line[t->n++] = strdup(line);
		if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
			tree_walk(sub, subrel, t, blocks);
	}
	closedir(d);
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tree at MNT as one sorted text. */
static void tree_text(char *out, size_t size, bool blocks)
{
	struct tree t = { .n = 0 };
	size_t used = 0;
	int i;

	tree_walk(MNT, "", &t, blocks);
	qsort(t.line, t.n, sizeof(t.line[0]), cmp_lines);
	out[0] = 0;
	for (i = 0; i < t.n; i++) {
		used += snprintf(out + used, used < size ? size - used : 0,
				 "%s\n", t.line[i]);
		free(t.line[i]);
	}
}

/* ---- the operations ---- */

struct crash_op {
	const char *name;
	int (*run)(void);	/* 0 when it did what it should */
	bool plain;		/* on the tree without links and long names */
	int (*prepare)(void);	/* after the tree, before the count; 0 */
};

static int op_create(void)
{
	int fd = open(at("d1/new"), O_WRONLY | O_CREAT | O_EXCL, 0640);

	return fd < 0 ? -1 : close(fd);
}

static int op_mkdir(void) { return mkdir(at("d2/newdir"), 0750); }
static int op_mknod(void) { return mknod(at("d1/fifo"), S_IFIFO | 0600, 0); }
static int op_symlink(void) { return symlink("d2/victim", at("d1/sl")); }
static int op_unlink_small(void) { return unlink(at("d1/small")); }
static int op_unlink_big(void) { return unlink(at("d1/big")); }
/* An empty file: its eviction frees the record without the journal. */
static int op_unlink_empty(void) { return unlink(at("d2/zero")); }
static int op_rmdir(void) { return rmdir(at("d2/empty")); }
static int op_rename_same(void) { return rename(at("d1/small"), at("d1/renamed")); }
static int op_rename_across(void) { return rename(at("d1/big"), at("d2/big")); }
static int op_rename_dir_across(void) { return rename(at("d1/sub"), at("d2/sub")); }
static int op_rename_over_file(void) { return rename(at("d1/small"), at("d2/victim")); }
static int op_rename_over_big(void) { return rename(at("d2/victim"), at("d1/big")); }
static int op_rename_over_dir(void) { return rename(at("d1/e2"), at("d2/empty")); }

static int op_noreplace(void)
{
	return renameat2(AT_FDCWD, at("d1/small"), AT_FDCWD, at("d2/fresh"),
			 RENAME_NOREPLACE);
}

static int op_noreplace_exists(void)
{
	return renameat2(AT_FDCWD, at("d1/small"), AT_FDCWD, at("d2/victim"),
			 RENAME_NOREPLACE) == -1 && errno == EEXIST ? 0 : -1;
}

static int op_exchange_across(void)
{
	return renameat2(AT_FDCWD, at("d1/sub"), AT_FDCWD, at("d2/victim"),
			 RENAME_EXCHANGE);
}

static int op_exchange_same(void)
{
	return renameat2(AT_FDCWD, at("d1/small"), AT_FDCWD, at("d1/big"),
			 RENAME_EXCHANGE);
}

/* Bytes appended: new bytes never overwrite old ones, which are not journaled. */
static int append(const char *name, off_t at_off, size_t len)
{
	static uint8_t buf[64 * FS_BS];
	int fd = open(at(name), O_WRONLY);
	ssize_t n;

	if (fd < 0 || len > sizeof(buf))
		return -1;
	fill_pattern(buf, len, 9, at_off);
	n = pwrite(fd, buf, len, at_off);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static int op_append_in_block(void) { return append("d1/small", 100, 50); }
static int op_append_new_blocks(void) { return append("d1/small", 100, 3000); }
static int op_append_many_blocks(void) { return append("d2/victim", 200, 7000); }
static int op_write_empty(void) { return append("d2/zero", 0, 3000); }
static int op_write_direct(void) { return append("d2/zero", 0, 700); }
static int op_write_past_hole(void) { return append("d1/big", 9000, 1000); }
/* 64 blocks past a hole, the most one commit maps: a new row and column. */
static int op_write_64_blocks(void)
{
	return append("d2/zero", 8 * FS_BS, 64 * FS_BS);
}
static int op_truncate_down(void) { return truncate(at("d1/big"), 1500); }
static int op_truncate_to_zero(void) { return truncate(at("d1/big"), 0); }
static int op_truncate_up(void) { return truncate(at("d1/small"), 10000); }
static int op_truncate_direct(void) { return truncate(at("d1/small"), 0); }

static int do_fallocate(const char *name, int mode, off_t off, off_t len)
{
	int fd = open(at(name), O_WRONLY), err;

	if (fd < 0)
		return -1;
	err = fallocate(fd, mode, off, len);
	close(fd);
	return err;
}

static int op_fallocate(void) { return do_fallocate("d1/small", 0, 0, 6000); }

static int op_fallocate_keep_size(void)
{
	return do_fallocate("d1/big", FALLOC_FL_KEEP_SIZE, 4096, 8192);
}

/* Hard links and long names. */
static int op_link(void) { return link(at("d1/small"), at("d2/hard")); }
static int op_link_long(void) { return link(at("d1/small"), at(long_b())); }
static int op_unlink_first_name(void) { return unlink(at("d1/multi")); }
static int op_unlink_link_entry(void) { return unlink(at("d2/multi2")); }
static int op_rename_link_across(void) { return rename(at("d2/multi2"), at("d1/moved")); }
static int op_rename_first_name_across(void) { return rename(at("d1/multi"), at("d2/away")); }
static int op_rename_over_linked(void) { return rename(at("d1/small"), at("d2/multi2")); }
static int op_create_long(void) { return put_pattern(long_b(), 0, 8); }
static int op_rename_long_to_short(void) { return rename(at(long_a()), at("d1/short")); }
static int op_rename_short_to_long(void) { return rename(at("d1/small"), at(long_b())); }
static int op_unlink_long(void) { return unlink(at(long_a())); }

static int op_exchange_long_short(void)
{
	return renameat2(AT_FDCWD, at(long_a()), AT_FDCWD, at("d1/small"),
			 RENAME_EXCHANGE);
}

/*
 * Extended attributes: d1/big has user.a, 100 bytes of '1', unless on
 * the plain tree (so unlink_big frees an attribute block too). The
 * values span cache lines, so a block changed in place would tear.
 */
static int op_setxattr_first(void) { return lsetxattr(at("d1/small"), "user.n", "new", 3, 0); }

static int op_setxattr_replace(void)
{
	return lsetxattr(at("d1/big"), "user.a", long_value('2'), 100, 0);
}

static int op_setxattr_add(void) { return lsetxattr(at("d1/big"), "user.b", "b", 1, 0); }
static int op_removexattr_last(void) { return lremovexattr(at("d1/big"), "user.a"); }

/* A file of 40 blocks (a prepare step): its delete frees more than 16. */
static int make_large(void)
{
	return append("d2/zero", 0, 40 * FS_BS);
}

static int op_unlink_large(void) { return unlink(at("d2/zero")); }

/*
 * Two columns of 64 blocks, 256 entries apart (a prepare step): each
 * column goes in one step when the file goes, the second one when a
 * truncate cuts into the first, whose tail goes in pieces.
 */
static int make_two_columns(void)
{
	return append("d2/zero", 0, 64 * FS_BS) ?:
	       append("d2/zero", 256 * FS_BS, 64 * FS_BS);
}

static int op_truncate_into_first_column(void)
{
	return truncate(at("d2/zero"), 20 * FS_BS + 10);
}

/* The filesystem full to its last block (a prepare step). */
static int fill_all(void)
{
	return fill_every_block("filler");
}

/* An access ACL for user 1000 on d1/small: the mode changes with it. */
static int op_set_acl(void) { return set_reader_acl("d1/small"); }

/* chmod of d2/victim, whose ACL mask follows the group bits: one step. */
static int op_chmod_acl(void) { return chmod(at("d2/victim"), 0600); }

static int op_chmod(void) { return chmod(at("d1/big"), 0600); }
static int op_chown(void) { return chown(at("d1/small"), 1000, 1000); }
static int op_utimes(void) { return fix_time("d1/big", FIXED_TIME + 3600); }

/* One operation's run: the trees it goes between, and the states seen. */
struct crash_run {
	struct nvram nv;
	char before[TREE_MAX], after[TREE_MAX], now[TREE_MAX];
	/* The same without block counts, for read-only mounts. */
	char before_ro[TREE_MAX], after_ro[TREE_MAX];
	unsigned int states, bad;
};

FIXTURE(crash) {
	struct crash_run r;
};

FIXTURE_VARIANT(crash) {
	struct crash_op op;
};

FIXTURE_VARIANT_ADD(crash, create) {
	.op = { "create", op_create },
};
FIXTURE_VARIANT_ADD(crash, mkdir) {
	.op = { "mkdir", op_mkdir },
};
FIXTURE_VARIANT_ADD(crash, mknod) {
	.op = { "mknod", op_mknod },
};
FIXTURE_VARIANT_ADD(crash, symlink) {
	.op = { "symlink", op_symlink },
};
FIXTURE_VARIANT_ADD(crash, unlink_small) {
	.op = { "unlink_small", op_unlink_small },
};
FIXTURE_VARIANT_ADD(crash, unlink_big) {
	.op = { "unlink_big", op_unlink_big },
};
FIXTURE_VARIANT_ADD(crash, unlink_empty) {
	.op = { "unlink_empty", op_unlink_empty },
};
FIXTURE_VARIANT_ADD(crash, unlink_large) {
	.op = { "unlink_large", op_unlink_large, .prepare = make_large },
};
FIXTURE_VARIANT_ADD(crash, unlink_two_columns) {
	.op = { "unlink_two_columns", op_unlink_large, .prepare = make_two_columns },
};
FIXTURE_VARIANT_ADD(crash, truncate_two_columns) {
	.op = { "truncate_two_columns", op_truncate_into_first_column,
		.prepare = make_two_columns },
};
FIXTURE_VARIANT_ADD(crash, rmdir) {
	.op = { "rmdir", op_rmdir },
};
FIXTURE_VARIANT_ADD(crash, rename_same_dir) {
	.op = { "rename_same_dir", op_rename_same },
};
FIXTURE_VARIANT_ADD(crash, rename_across) {
	.op = { "rename_across", op_rename_across },
};
FIXTURE_VARIANT_ADD(crash, rename_dir_across) {
	.op = { "rename_dir_across", op_rename_dir_across },
};
FIXTURE_VARIANT_ADD(crash, rename_over_file) {
	.op = { "rename_over_file", op_rename_over_file },
};
FIXTURE_VARIANT_ADD(crash, rename_over_big_file) {
	.op = { "rename_over_big_file", op_rename_over_big },
};
FIXTURE_VARIANT_ADD(crash, rename_over_empty_dir) {
	.op = { "rename_over_empty_dir", op_rename_over_dir },
};
FIXTURE_VARIANT_ADD(crash, rename_noreplace) {
	.op = { "rename_noreplace", op_noreplace },
};
FIXTURE_VARIANT_ADD(crash, rename_noreplace_exists) {
	.op = { "rename_noreplace_exists", op_noreplace_exists },
};
FIXTURE_VARIANT_ADD(crash, exchange_across) {
	.op = { "exchange_across", op_exchange_across },
};
FIXTURE_VARIANT_ADD(crash, exchange_same_dir) {
	.op = { "exchange_same_dir", op_exchange_same },
};
FIXTURE_VARIANT_ADD(crash, append_in_block) {
	.op = { "append_in_block", op_append_in_block },
};
/* d1/small's direct block goes into a new map (as with fallocate). */
FIXTURE_VARIANT_ADD(crash, append_new_blocks) {
	.op = { "append_new_blocks", op_append_new_blocks },
};
FIXTURE_VARIANT_ADD(crash, append_many_blocks) {
	.op = { "append_many_blocks", op_append_many_blocks },
};
FIXTURE_VARIANT_ADD(crash, write_into_empty_file) {
	.op = { "write_into_empty_file", op_write_empty },
};

/* A direct block: a new one, a new map for one, one truncated away. */
FIXTURE_VARIANT_ADD(crash, write_direct_block) {
	.op = { "write_direct_block", op_write_direct },
};
FIXTURE_VARIANT_ADD(crash, first_direct_block) {
	.op = { "first_direct_block", op_write_direct, true },
};
FIXTURE_VARIANT_ADD(crash, truncate_direct_to_zero) {
	.op = { "truncate_direct_to_zero", op_truncate_direct },
};
FIXTURE_VARIANT_ADD(crash, write_past_a_hole) {
	.op = { "write_past_a_hole", op_write_past_hole },
};
FIXTURE_VARIANT_ADD(crash, write_64_blocks) {
	.op = { "write_64_blocks", op_write_64_blocks },
};
FIXTURE_VARIANT_ADD(crash, truncate_down) {
	.op = { "truncate_down", op_truncate_down },
};
FIXTURE_VARIANT_ADD(crash, truncate_to_zero) {
	.op = { "truncate_to_zero", op_truncate_to_zero },
};
FIXTURE_VARIANT_ADD(crash, truncate_up) {
	.op = { "truncate_up", op_truncate_up },
};
FIXTURE_VARIANT_ADD(crash, fallocate) {
	.op = { "fallocate", op_fallocate },
};
FIXTURE_VARIANT_ADD(crash, fallocate_keep_size) {
	.op = { "fallocate_keep_size", op_fallocate_keep_size },
};
FIXTURE_VARIANT_ADD(crash, link) {
	.op = { "link", op_link },
};
FIXTURE_VARIANT_ADD(crash, link_long_name) {
	.op = { "link_long_name", op_link_long },
};
FIXTURE_VARIANT_ADD(crash, unlink_first_of_two_names) {
	.op = { "unlink_first_of_two_names", op_unlink_first_name },
};
FIXTURE_VARIANT_ADD(crash, unlink_link_entry) {
	.op = { "unlink_link_entry", op_unlink_link_entry },
};
FIXTURE_VARIANT_ADD(crash, rename_link_across) {
	.op = { "rename_link_across", op_rename_link_across },
};
FIXTURE_VARIANT_ADD(crash, rename_first_name_across) {
	.op = { "rename_first_name_across", op_rename_first_name_across },
};
/* The superblock write of a feature's first use is cut too. */
FIXTURE_VARIANT_ADD(crash, first_xattr) {
	.op = { "first_xattr", op_setxattr_first, true },
};
FIXTURE_VARIANT_ADD(crash, setxattr) {
	.op = { "setxattr", op_setxattr_first },
};
FIXTURE_VARIANT_ADD(crash, setxattr_replace) {
	.op = { "setxattr_replace", op_setxattr_replace },
};
FIXTURE_VARIANT_ADD(crash, setxattr_add) {
	.op = { "setxattr_add", op_setxattr_add },
};
/* No free block: the attribute block changes in place, logged whole. */
FIXTURE_VARIANT_ADD(crash, setxattr_replace_full) {
	.op = { "setxattr_replace_full", op_setxattr_replace, .prepare = fill_all },
};
FIXTURE_VARIANT_ADD(crash, setxattr_add_full) {
	.op = { "setxattr_add_full", op_setxattr_add, .prepare = fill_all },
};
/* Nested: the ACL's block rewritten in place inside the chmod's transaction. */
FIXTURE_VARIANT_ADD(crash, chmod_acl_full) {
	.op = { "chmod_acl_full", op_chmod_acl, .prepare = fill_all },
};
FIXTURE_VARIANT_ADD(crash, removexattr_last) {
	.op = { "removexattr_last", op_removexattr_last },
};
FIXTURE_VARIANT_ADD(crash, set_acl) {
	.op = { "set_acl", op_set_acl },
};
FIXTURE_VARIANT_ADD(crash, chmod_acl) {
	.op = { "chmod_acl", op_chmod_acl },
};
FIXTURE_VARIANT_ADD(crash, first_link) {
	.op = { "first_link", op_link, true },
};
FIXTURE_VARIANT_ADD(crash, first_long_name) {
	.op = { "first_long_name", op_create_long, true },
};
FIXTURE_VARIANT_ADD(crash, rename_over_linked_file) {
	.op = { "rename_over_linked_file", op_rename_over_linked },
};
FIXTURE_VARIANT_ADD(crash, create_long_name) {
	.op = { "create_long_name", op_create_long },
};
FIXTURE_VARIANT_ADD(crash, rename_long_to_short) {
	.op = { "rename_long_to_short", op_rename_long_to_short },
};
FIXTURE_VARIANT_ADD(crash, rename_short_to_long) {
	.op = { "rename_short_to_long", op_rename_short_to_long },
};
FIXTURE_VARIANT_ADD(crash, unlink_long_name) {
	.op = { "unlink_long_name", op_unlink_long },
};
FIXTURE_VARIANT_ADD(crash, exchange_long_and_short) {
	.op = { "exchange_long_and_short", op_exchange_long_short },
};
FIXTURE_VARIANT_ADD(crash, chmod) {
	.op = { "chmod", op_chmod },
};
FIXTURE_VARIANT_ADD(crash, chown) {
	.op = { "chown", op_chown },
};
FIXTURE_VARIANT_ADD(crash, utimes) {
	.op = { "utimes", op_utimes },
};

/*
 * Every fixture's setup: @nv found (or the test skipped), the knob there
 * and disarmed, the mount point made.
 */
static void crash_ready(struct __test_metadata *_metadata, struct nvram *nv)
{
	const char *why = missing_prerequisite(nv);

	if (why)
		SKIP(return, "%s", why);
	/* The test guest's module has the knob: its absence is a failure. */
	ASSERT_EQ(0, knob_set("crash_after", -1)) {
		TH_LOG("no power-cut knob: pramfs.ko without CONFIG_PRAMFS_CRASH_TEST");
	}
	mkdir(MNT, 0755);
}

/* Every fixture's teardown: unmounted, no cut pending, no commit delay. */
static void crash_disarm(void)
{
	umount2(MNT, MNT_DETACH);
	knob_set("crash_after", -1);
	knob_set("crash_tear", -1);
	knob_set("crash_commit_delay_ms", 0);
}

FIXTURE_SETUP(crash)
{
	crash_ready(_metadata, &self->r.nv);
}

FIXTURE_TEARDOWN_PARENT(crash)
{
	crash_disarm();
}

/* A fresh filesystem holding the tree @op runs on, mounted; 0 or -1. */
static int fresh_tree(const struct nvram *nv, const struct crash_op *op)
{
	if (do_mount(MNT, 0, "physaddr=%#llx,init=%d,bs=%d", nv->phys, FS_SIZE,
		     FS_BS))
		return -1;
	return make_tree(op->plain) ?: op->prepare ? op->prepare() : 0;
}

/* A tree made ready for @op and mounted (fresh_tree(), round_ending()). */
typedef int (*tree_fn)(const struct nvram *nv, const struct crash_op *op);

/* @op on the tree @ready makes, cut after @n fences (INT_MAX: not cut). */
static int cut_op(tree_fn ready, const struct nvram *nv,
		  const struct crash_op *op, int n)
{
	int err = ready(nv, op) || knob_set("crash_tear", -1) ||
		  knob_set("crash_after", n);

	if (!err)
		op->run();
	umount(MNT);
	return knob_set("crash_after", -1) || err ? -1 : 0;
}

/* The fences of @op on the tree @ready makes, counted; or -1. */
static int count_fences(tree_fn ready, const struct nvram *nv,
			const struct crash_op *op)
{
	int fences;

	if (ready(nv, op) || knob_set("crash_after", INT_MAX) || op->run())
		return -1;
	fences = knob_get("fences");
	knob_set("crash_after", -1);
	return umount(MNT) ? -1 : fences;
}

static bool tree_is_before_or_after(struct crash_run *self, bool ro)
{
	if (ro)
		return !strcmp(self->now, self->before_ro) ||
		       !strcmp(self->now, self->after_ro);
	return !strcmp(self->now, self->before) || !strcmp(self->now, self->after);
}

static int run_fsck(const struct nvram *nv)
{
	struct nvram fs = { nv->phys, FS_SIZE };

	return fsck_exit(&fs, "/tmp/crash-fsck.out");
}

/*
 * One crash state: the operation cut after @n fences, the window at the
 * cut torn as @tear says. Returns the cut window's lines, or -1 when the
 * state could not be made; failures are logged and counted.
 */
static int check_state(struct __test_metadata *_metadata,
		       struct crash_run *self, const struct crash_op *op,
		       int n, int tear)
{
	struct nvram fs = { self->nv.phys, FS_SIZE };
	uint64_t hash;
	int lines;
	const char *wrong = NULL;

	if (fresh_tree(&self->nv, op) || knob_set("crash_tear", tear) ||
	    knob_set("crash_after", n))
		return -1;
	op->run();
	/* The cut after the last fence of the operation falls in umount. */
	umount(MNT);
	lines = knob_get("crash_lines");
	if (!knob_crashed())
		wrong = "fewer fences than the count pass found";
	knob_set("crash_after", -1);
	self->states++;

	hash = nvram_hash(&fs);
	if (!wrong && do_mount(MNT, MS_RDONLY, "physaddr=%#llx", self->nv.phys))
		wrong = "read-only mount refused";
	if (!wrong) {
		tree_text(self->now, sizeof(self->now), false);
		if (umount(MNT) || nvram_hash(&fs) != hash)
			wrong = "the read-only mount stored something";
		else if (!tree_is_before_or_after(self, true))
			wrong = "read-only: the tree is neither the one before nor the one after";
	}
	if (!wrong && do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys))
		wrong = "read-write mount refused";
	if (!wrong) {
		tree_text(self->now, sizeof(self->now), true);
		umount(MNT);
		if (!tree_is_before_or_after(self, false))
			wrong = "the tree is neither the one before nor the one after";
		else if (run_fsck(&self->nv))
			wrong = "fsck.pramfs -n found something";
	}
	if (wrong) {
		self->bad++;
		if (self->bad <= 5) {
			TH_LOG("%s: cut after %d fences, tear %d: %s", op->name, n,
			       tear, wrong);
			if (strstr(wrong, "tree"))
				TH_LOG("tree:\n%s\nbefore:\n%s\nafter:\n%s", self->now,
				       self->before, self->after);
			if (strstr(wrong, "fsck"))
				system("head -n 12 /tmp/crash-fsck.out >&2");
		}
	}
	return lines;
}

TEST_F_TIMEOUT(crash, every_persistence_point, 1200)
{
	const struct crash_op *op = &variant->op;
	struct crash_run *r = &self->r;
	int fences, n, tear, lines;

	/* The count pass: the fences, and the trees before and after. */
	ASSERT_EQ(0, fresh_tree(&r->nv, op));
	tree_text(r->before, sizeof(r->before), true);
	tree_text(r->before_ro, sizeof(r->before_ro), false);
	ASSERT_EQ(0, knob_set("crash_after", INT_MAX));
	ASSERT_EQ(0, op->run()) TH_LOG("%s: %s", op->name, strerror(errno));
	fences = knob_get("fences");
	ASSERT_EQ(0, knob_set("crash_after", -1));
	tree_text(r->after, sizeof(r->after), true);
	tree_text(r->after_ro, sizeof(r->after_ro), false);
	ASSERT_EQ(0, umount(MNT));
	ASSERT_GE(fences, 0);
	if (strcmp(op->name, "rename_noreplace_exists"))
		ASSERT_NE(0, strcmp(r->before, r->after));

	for (n = 0; n <= fences; n++) {
		lines = check_state(_metadata, r, op, n, -1);
		ASSERT_GE(lines, 0);
		if (lines < 2)
			continue;
		if (lines <= MAX_TEAR_LINES) {
			for (tear = 0; tear < 2 * lines; tear++)
				ASSERT_LE(0, check_state(_metadata, r, op, n, tear));
			continue;
		}
		/* A larger window: its first line alone, all but it, all but the last. */
		ASSERT_LE(0, check_state(_metadata, r, op, n, 0));
		ASSERT_LE(0, check_state(_metadata, r, op, n, 1));
		ASSERT_LE(0, check_state(_metadata, r, op, n, 2 * lines - 1));
	}
	fprintf(stderr, "# %s: %u crash states checked (%d fences), %u wrong\n",
		op->name, r->states, fences, r->bad);
	EXPECT_EQ(0, r->bad);
}

/*
 * An image without the journal (mkfs.pramfs -O ^journal: the revision 1
 * layout) mounts, works, and keeps its layout: it does not gain a
 * journal (only the features of the hard link, long name and attribute
 * the tree uses), and fsck.pramfs finds it clean.
 */
TEST(image_without_journal_keeps_working)
{
	struct nvram nv;
	const char *why = missing_prerequisite(&nv);
	char cmd[256];
	uint8_t *img;

	if (why)
		SKIP(return, "%s", why);
	mkdir(MNT, 0755);
	snprintf(cmd, sizeof(cmd), "mkfs.pramfs -q -O ^journal --phys %#llx --size %d",
		 nv.phys, FS_SIZE);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", nv.phys));
	ASSERT_EQ(0, make_tree(false));
	ASSERT_EQ(0, op_rename_over_file());
	ASSERT_EQ(0, op_unlink_big());
	ASSERT_EQ(0, umount(MNT));
	img = nvram_map(&nv);
	ASSERT_NE(NULL, img);
	/*
	 * The tree's hard link, long name, attribute and direct blocks:
	 * those, no other.
	 */
	EXPECT_EQ(0x2 | 0x4 | 0x8 | 0x10, sb_get(img, SB_INCOMPAT, 4));
	EXPECT_EQ(0, sb_get(img, SB_JOURNAL, 4));
	munmap(img, nv.size);
	EXPECT_EQ(0, run_fsck(&nv));
	ASSERT_EQ(0, do_mount(MNT, MS_RDONLY, "physaddr=%#llx", nv.phys));
	EXPECT_EQ(0, access(at("d2/victim"), F_OK));
	EXPECT_EQ(-1, access(at("d1/big"), F_OK));
	EXPECT_EQ(0, umount(MNT));
}

/* Write @len bytes of @byte at @off of @name; 0 or an errno. */
static int write_at(const char *name, off_t off, int byte, size_t len)
{
	uint8_t buf[4096];
	int fd = open(at(name), O_WRONLY | O_CREAT, 0644), err = 0;
	size_t done, n;

	if (fd < 0)
		return errno;
	memset(buf, byte, sizeof(buf));
	/* One write(2) for what the buffer holds: the cases write less. */
	for (done = 0; done < len && !err; done += n) {
		n = len - done < sizeof(buf) ? len - done : sizeof(buf);
		if (pwrite(fd, buf, n, off + done) != (ssize_t)n)
			err = errno ?: EIO;
	}
	close(fd);
	return err;
}

/* Run @fn in a child, after @delay_ms; its pid, or -1. */
static pid_t run_later(int (*fn)(void), unsigned int delay_ms)
{
	pid_t pid = fork();

	if (!pid) {
		usleep(delay_ms * 1000);
		_exit(fn());
	}
	return pid;
}

static int unlink_victim(void)
{
	return unlink(at("victim")) ? errno : 0;
}

/*
 * A file of one block in a map (a row, a column and the block): written
 * with a second block, then cut back, so that it is not a direct block.
 */
static int write_mapped_block(const char *name, int byte)
{
	return write_at(name, 0, byte, 2 * FS_BS) ?: truncate(at(name), FS_BS);
}

/* Three blocks, all the filesystem has free once the victim is freed. */
static int write_three_blocks(void)
{
	return write_at("writer", FS_BS, 0xa5, 3 * FS_BS);
}

/*
 * The cases below, one each, arm the power-cut knob themselves: however
 * they end, the teardown disarms it and unmounts, so that no test after
 * them runs with a cut pending.
 */
FIXTURE(armed) {
	struct nvram nv;
};

FIXTURE_SETUP(armed)
{
	crash_ready(_metadata, &self->nv);
}

FIXTURE_TEARDOWN_PARENT(armed)
{
	crash_disarm();
}

/*
 * Blocks freed in a transaction are not another task's until it commits.
 * The victim's eviction frees its data block and its two map blocks,
 * the only blocks free, and waits in its commit (crash_commit_delay_ms);
 * meanwhile another task appends three blocks to a file. The power goes
 * at the eviction's commit: the next mount undoes the free, and the
 * deleted victim is freed again from its map. Had the writer been given
 * those blocks, the map blocks would hold its bytes (0xa5, block numbers
 * out of range) past the entries the journal restores, and the orphan
 * pass and fsck.pramfs would find a broken map. The recovery's log line
 * shows that the cut fell where it should: one deleted orphan finished.
 */
TEST_F(armed, freed_blocks_wait_for_the_commit)
{
	const char *orphan = "finished 1 orphans (1 deleted";
	int st_remover = 0, st_writer = 0;
	struct nvram *nv = &self->nv;
	unsigned long long mark;
	pid_t remover, writer;
	struct statvfs st;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%d,bs=%d", nv->phys,
			      FS_SIZE, FS_BS));
	ASSERT_EQ(0, write_mapped_block("victim", 0x11));
	ASSERT_EQ(0, write_mapped_block("writer", 0x22));
	ASSERT_EQ(0, fill_up("filler"));
	ASSERT_EQ(0, statvfs(MNT, &st));
	ASSERT_EQ(0, st.f_bfree);

	/* Each commit waits 3 s: the unlink's, then the eviction's. */
	ASSERT_EQ(0, knob_set("crash_commit_delay_ms", 3000));
	remover = run_later(unlink_victim, 0);
	writer = run_later(write_three_blocks, 3800);
	usleep(5000 * 1000);
	/* The writer is done or waits for the transaction: cut its commit. */
	knob_set("crash_tear", -1);
	knob_set("crash_after", 0);
	if (remover > 0)
		waitpid(remover, &st_remover, 0);
	if (writer > 0)
		waitpid(writer, &st_writer, 0);
	knob_set("crash_commit_delay_ms", 0);
	umount(MNT);
	ASSERT_TRUE(remover > 0 && writer > 0);
	EXPECT_TRUE(knob_crashed());
	ASSERT_EQ(0, knob_set("crash_after", -1));
	ASSERT_EQ(0, WEXITSTATUS(st_remover));
	TH_LOG("the writer's append: %s", strerror(WEXITSTATUS(st_writer)));

	mark = klog_mark();
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", nv->phys));
	EXPECT_EQ(0, klog_since(mark, "outside the data area"));
	EXPECT_EQ(1, klog_since(mark, orphan)) {
		TH_LOG("no deleted orphan finished: the cut missed the eviction's commit, or its map was unreadable");
	}
	EXPECT_EQ(-1, access(at("victim"), F_OK));
	EXPECT_EQ(0, umount(MNT));
	EXPECT_EQ(0, run_fsck(nv)) {
		system("head -n 12 /tmp/crash-fsck.out >&2");
	}
}

/* Append a block to the direct file "writer": its map, in a transaction. */
static int append_a_block(void)
{
	return write_at("writer", FS_BS, 0xa5, FS_BS);
}

/*
 * A direct file's block is freed without the journal, but never while
 * another task's transaction is open: that one may have logged the same
 * bitmap word, and its undo would set the bit again, for a record that
 * is gone. The victim, a direct file, is unlinked while a child holds
 * it open; a writer's append then waits in its commit
 * (crash_commit_delay_ms), and the child's close evicts the victim
 * meanwhile. The power goes at the writer's commit. The eviction must
 * have waited for it: the next mount finds the victim deleted and frees
 * it, and fsck.pramfs finds no block held by nothing.
 */
TEST_F(armed, unlogged_free_waits_for_transactions)
{
	const char *orphan = "finished 1 orphans (1 deleted";
	int st_holder = 0, st_writer = 0, fd;
	struct nvram *nv = &self->nv;
	unsigned long long mark;
	pid_t holder, writer;

	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%d,bs=%d", nv->phys,
			      FS_SIZE, FS_BS));
	ASSERT_EQ(0, write_at("victim", 0, 0x11, 100));
	ASSERT_EQ(0, write_at("writer", 0, 0x22, 100));
	fd = open(at("victim"), O_RDONLY);
	ASSERT_LE(0, fd);
	/*
	 * The child's copy of the descriptor is the last: it closes at 2 s,
	 * while the writer's commit waits (4 s from its start). The cut is
	 * armed at 3 s, before that commit.
	 */
	ASSERT_EQ(0, knob_set("crash_commit_delay_ms", 0));
	holder = fork();
	if (!holder) {
		usleep(2000 * 1000);
		_exit(close(fd) ? 1 : 0);
	}
	close(fd);
	ASSERT_EQ(0, unlink(at("victim")));
	ASSERT_EQ(0, knob_set("crash_commit_delay_ms", 4000));
	writer = run_later(append_a_block, 0);
	usleep(3000 * 1000);
	/* The writer waits in its commit, the eviction for it: cut the commit. */
	EXPECT_EQ(0, knob_set("crash_tear", -1));
	EXPECT_EQ(0, knob_set("crash_after", 0));
	if (holder > 0)
		waitpid(holder, &st_holder, 0);
	if (writer > 0)
		waitpid(writer, &st_writer, 0);
	knob_set("crash_commit_delay_ms", 0);
	umount(MNT);
	ASSERT_TRUE(holder > 0 && writer > 0);
	EXPECT_TRUE(knob_crashed());
	ASSERT_EQ(0, knob_set("crash_after", -1));
	ASSERT_EQ(0, WEXITSTATUS(st_holder));

	mark = klog_mark();
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", nv->phys));
	EXPECT_EQ(1, klog_since(mark, orphan)) {
		TH_LOG("no deleted orphan finished: the eviction did not wait for the writer's transaction");
	}
	EXPECT_EQ(-1, access(at("victim"), F_OK));
	EXPECT_EQ(0, umount(MNT));
	EXPECT_EQ(0, run_fsck(nv)) {
		system("head -n 12 /tmp/crash-fsck.out >&2");
	}
}

/*
 * A create cut after its new record is written, before the commit: the
 * undo frees the slot again (of the record only its first journal line,
 * the mode among its 44 bytes, was saved: pram_tx_log_free()), and the
 * mount clears the rest and counts it in its recovery line. Some cut of
 * a create ends so, and the file is not there after it.
 */
TEST_F(armed, cut_create_clears_its_slot)
{
	const struct crash_op create = { "create", op_create };
	const char *cleared = "cleared 1 free slots";
	struct nvram *nv = &self->nv;
	int n, fences, found = 0;
	unsigned long long mark;

	fences = count_fences(fresh_tree, nv, &create);
	ASSERT_LE(0, fences);

	for (n = 0; n <= fences && !found; n++) {
		ASSERT_EQ(0, cut_op(fresh_tree, nv, &create, n));
		mark = klog_mark();
		ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", nv->phys));
		found = klog_since(mark, cleared);
		if (found)
			EXPECT_EQ(-1, access(at("d1/new"), F_OK));
		ASSERT_EQ(0, umount(MNT));
	}
	EXPECT_EQ(1, found) {
		TH_LOG("no cut of %d fences left a slot for the mount to clear", fences);
	}
	EXPECT_EQ(0, run_fsck(nv)) {
		system("head -n 12 /tmp/crash-fsck.out >&2");
	}
}

#define STALE_LINE	100	/* past any create's lines */
#define LINES		256

/*
 * The create's tree, unmounted, its journal's j_gen at the last of its
 * round, and line STALE_LINE as a line of the last round may be: a valid
 * entry of generation 0, the next round's first; then mounted again.
 */
static int round_ending(const struct nvram *fs, const struct crash_op *create)
{
	uint8_t *img, *j, *e;

	if (fresh_tree(fs, create) || umount(MNT))
		return -1;
	img = nvram_map(fs);
	if (!img)
		return -1;
	j = img + block_off(img, sb_get(img, SB_JOURNAL, 4));
	le_put(j + 4, 4, UINT32_MAX);
	e = j + 64 * STALE_LINE;
	memset(e, 0x5a, 64);
	le_put(e + 4, 4, 0);
	le_put(e + 8, 8, 3 * 128);		/* inode 3's record */
	le_put(e + 16, 2, 44);
	le_put(e + 18, 2, STALE_LINE);
	le_put(e, 4, crc32c(~0U, e + 4, 60));
	munmap(img, fs->size);
	return do_mount(MNT, 0, "physaddr=%#llx", fs->phys);
}

/* The journal of an unmounted filesystem, once recovered. */
struct round_state {
	uint32_t	gen;
	bool		cleared;	/* line STALE_LINE */
	int		open;		/* valid lines of generation gen */
	int		pending;	/* of them, those from line 1 on */
};

static struct round_state round_state(const struct nvram *fs)
{
	struct round_state r = { .gen = 1, .open = -1 };
	uint8_t *img = nvram_map(fs), *j, *e, zero[64] = { };
	bool valid;
	int line;

	if (!img)
		return r;
	j = img + block_off(img, sb_get(img, SB_JOURNAL, 4));
	r.gen = le_get(j + 4, 4);
	r.cleared = !memcmp(j + 64 * STALE_LINE, zero, sizeof(zero));
	for (r.open = 0, line = 1; line < LINES; line++) {
		e = j + 64 * line;
		valid = le_get(e, 4) == crc32c(~0U, e + 4, 60) &&
			le_get(e + 4, 4) == r.gen && le_get(e + 18, 2) == line;
		r.open += valid;
		r.pending += valid && r.pending == line - 1;
	}
	munmap(img, fs->size);
	return r;
}

/*
 * Nothing to undo, no line of the open generation anywhere (one would
 * pass as the next transaction's), and line STALE_LINE gone unless j_gen
 * is still at its round's last: the lines are cleared for its commit.
 */
static bool round_right(const struct round_state *r)
{
	return !r->open && (r->cleared || r->gen == UINT32_MAX);
}

/* A mount read-write and its unmount, cut after @n fences as @tear says. */
static int mount_cut(const struct nvram *fs, int n, int tear)
{
	int err = knob_set("crash_tear", tear) || knob_set("crash_after", n) ||
		  do_mount(MNT, 0, "physaddr=%#llx", fs->phys) || umount(MNT);

	return knob_set("crash_after", -1) || err ? -1 : 0;
}

/*
 * The recovery after a cut: a read-only mount remounted read-write, when
 * the journal holds nothing to undo (a remount cannot undo); else, or
 * for @rw, a read-write mount. 1 if the remount did it, 0, or -1.
 */
static int round_recover(const struct nvram *fs, bool rw)
{
	int remounted;

	if (!rw) {
		if (do_mount(MNT, MS_RDONLY, "physaddr=%#llx", fs->phys))
			return -1;
		remounted = !do_mount(MNT, MS_REMOUNT, "");
		if (umount(MNT))
			return -1;
		if (remounted)
			return 1;
	}
	return mount_cut(fs, INT_MAX, -1);
}

/*
 * A create that brings j_gen round to 0, cut at each persistence point,
 * and not cut: the commit, the recovery's undo, or the mount or the
 * remount read-write after a cut clearing, leaves the journal right
 * (round_right()). Each cut is recovered by a read-write mount, and
 * again by a read-only mount remounted read-write where it can be.
 */
TEST_F(armed, a_generation_round_clears_the_journal)
{
	const struct crash_op create = { "create", op_create };
	struct nvram fs = { self->nv.phys, FS_SIZE };
	int n, fences = count_fences(round_ending, &fs, &create);
	int rw, how, rounds = 0, remounts = 0;
	struct round_state cut, r;

	ASSERT_LT(0, fences);
	/* The last: no cut, and no mount after it. */
	for (n = 0; n <= fences + 1; n++) {
		for (rw = 1; rw >= (n <= fences ? 0 : 1); rw--) {
			ASSERT_EQ(0, cut_op(round_ending, &fs, &create,
					       n > fences ? INT_MAX : n));
			cut = round_state(&fs);
			how = n <= fences ? round_recover(&fs, rw) : 0;
			ASSERT_LE(0, how);
			/* A remount that had a round's lines to clear. */
			remounts += how && !cut.gen && !cut.cleared;
			r = round_state(&fs);
			rounds += r.gen != UINT32_MAX;
			EXPECT_TRUE(round_right(&r)) {
				TH_LOG("%s %d of %d fences, %s: j_gen %u, %d open lines, line %d %s",
				       n > fences ? "not cut, after" : "cut after",
				       n, fences, how ? "remounted" : "mounted",
				       r.gen, r.open, STALE_LINE,
				       r.cleared ? "cleared" : "kept");
			}
		}
	}
	EXPECT_LT(1, rounds);
	EXPECT_LT(0, remounts);
	EXPECT_EQ(0, run_fsck(&fs)) {
		system("head -n 12 /tmp/crash-fsck.out >&2");
	}
}

/*
 * The same create cut just before its commit, and the recovery that
 * undoes it (bringing j_gen round to 0) cut in turn at each of its
 * persistence points, its window torn in the first ways and the last
 * (the same as no line, for a window of fewer).
 * The cut leaves no line of the open generation past those an undo
 * would take (were j_gen moved on in the window that clears the lines,
 * a cut keeping only a cleared line 1 would leave the undone lines valid
 * after it), but at j_gen 0, whose lines the next mount clears; and the
 * mount after it leaves the journal right.
 */
TEST_F_TIMEOUT(armed, a_cut_recovery_of_the_round, 600)
{
	static const int tears[] = { -1, 0, 1, 2, 3, 2 * LINES - 1 };
	const struct crash_op create = { "create", op_create };
	struct nvram fs = { self->nv.phys, FS_SIZE };
	int n, k, rfences, fences = count_fences(round_ending, &fs, &create);
	unsigned long long mark;
	struct round_state r;

	ASSERT_LT(2, fences);
	/* The recovery's fences, and that it undoes the round's last. */
	ASSERT_EQ(0, cut_op(round_ending, &fs, &create, fences - 2));
	r = round_state(&fs);
	ASSERT_EQ(UINT32_MAX, r.gen);
	ASSERT_LT(0, r.pending);
	mark = klog_mark();
	ASSERT_EQ(0, knob_set("crash_after", INT_MAX));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", fs.phys));
	rfences = knob_get("fences");
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, knob_set("crash_after", -1));
	ASSERT_EQ(1, klog_since(mark, "recovered 1 operations"));

	for (n = 0; n <= rfences; n++) {
		for (k = 0; k < (int)ARRAY_SIZE(tears); k++) {
			ASSERT_EQ(0, cut_op(round_ending, &fs, &create, fences - 2));
			ASSERT_EQ(0, mount_cut(&fs, n, tears[k]));
			r = round_state(&fs);
			EXPECT_TRUE(r.open == r.pending || !r.gen) {
				TH_LOG("recovery cut after %d of %d fences, tear %d: j_gen %u, %d lines to undo, %d more of its generation",
				       n, rfences, tears[k], r.gen, r.pending,
				       r.open - r.pending);
			}
			ASSERT_EQ(0, mount_cut(&fs, INT_MAX, -1));
			r = round_state(&fs);
			EXPECT_TRUE(round_right(&r)) {
				TH_LOG("recovery cut after %d of %d fences, tear %d: j_gen %u, %d open lines, line %d %s",
				       n, rfences, tears[k], r.gen, r.open,
				       STALE_LINE, r.cleared ? "cleared" : "kept");
			}
		}
	}
	EXPECT_EQ(0, run_fsck(&fs)) {
		system("head -n 12 /tmp/crash-fsck.out >&2");
	}
}

TEST_HARNESS_MAIN
