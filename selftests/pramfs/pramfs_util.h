/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the PRAMFS kselftests: the NVRAM the guest was given,
 * whether the tests can run, mounting, and the figures the tests compare.
 */
#ifndef PRAMFS_UTIL_H
#define PRAMFS_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MNT	"/mnt/pram"
#define PRAMFS_KO	"/lib/modules/pramfs.ko"	/* where qemu/init loads it */
#define WP_SLOTS_PARAM	"/sys/module/pramfs/parameters/wp_slots"

struct nvram {
	unsigned long long phys;
	unsigned long long size;
};

static inline int nvram_from_env(struct nvram *nv)
{
	const char *phys = getenv("PRAM_PHYS"), *size = getenv("PRAM_SIZE");

	if (!phys || !size)
		return -1;
	nv->phys = strtoull(phys, NULL, 0);
	nv->size = strtoull(size, NULL, 0);
	return 0;
}

static inline int pramfs_registered(void)
{
	char line[256];
	FILE *f = fopen("/proc/filesystems", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "\tpramfs\n"))
			found = 1;
	fclose(f);
	return found;
}

/* Why the tests cannot run here, or NULL; fills in @nv. */
static inline const char *missing_prerequisite(struct nvram *nv)
{
	if (getuid())
		return "needs root";
	if (!pramfs_registered())
		return "pramfs is not registered (ENODEV)";
	if (nvram_from_env(nv))
		return "PRAM_PHYS and PRAM_SIZE are not set";
	return NULL;
}

/* A number read from @path, or -1. */
static inline long read_number(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = -1;

	if (f && fscanf(f, "%ld", &n) != 1)
		n = -1;
	if (f)
		fclose(f);
	return n;
}

/* Load the module at @path with @params; 0 (also if loaded) or the errno. */
static inline int load_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY), ret;

	if (fd < 0)
		return errno;
	ret = syscall(SYS_finit_module, fd, params, 0) && errno != EEXIST ?
	      errno : 0;
	close(fd);
	return ret;
}

/*
 * Unload pramfs, with nothing mounted, and load it again with @params: 0
 * or the errno.
 */
static inline int reload_pramfs(const char *params)
{
	if (syscall(SYS_delete_module, "pramfs", O_NONBLOCK) && errno != ENOENT)
		return errno;
	return load_module(PRAMFS_KO, params);
}

/* The NVRAM through /dev/mem. */
static inline void *nvram_map(const struct nvram *nv)
{
	int fd = open("/dev/mem", O_RDWR | O_SYNC);
	void *p;

	if (fd < 0)
		return NULL;
	p = mmap(NULL, nv->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 nv->phys);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* FNV-1a over the whole NVRAM, a word at a time. */
static inline uint64_t nvram_hash(const struct nvram *nv)
{
	const uint64_t *w = nvram_map(nv);
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	/* Never a value two failed maps would agree on: the test dies. */
	if (!w) {
		fprintf(stderr, "%s: mapping the NVRAM: %s\n", __func__,
			strerror(errno));
		abort();
	}
	for (i = 0; i < nv->size / 8; i++)
		h = (h ^ w[i]) * 0x100000001b3ULL;
	munmap((void *)w, nv->size);
	return h;
}

static inline uint32_t le32_at(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* crc32c as the kernel's __crc32c_le(): reflected, no final inversion. */
static inline uint32_t crc32c(uint32_t crc, const uint8_t *p, size_t len)
{
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78 : crc >> 1;
	}
	return crc;
}

/* mount(2) at @dir; 0 or the errno. */
static inline int do_mount(const char *dir, unsigned long flags,
			   const char *fmt, ...)
{
	char opts[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(opts, sizeof(opts), fmt, ap);
	va_end(ap);
	return mount("none", dir, "pramfs", flags, opts) ? errno : 0;
}

/* MNT/@name, in one of a few rotating buffers. */
static inline const char *at(const char *name)
{
	static char bufs[4][512];
	static int next;
	char *b = bufs[next++ % 4];

	snprintf(b, sizeof(bufs[0]), "%s/%s", MNT, name);
	return b;
}

/* MNT/@name, a file holding @content; 0 or -1. */
static inline int put(const char *name, const char *content)
{
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, content, strlen(content));
	close(fd);
	return n == (ssize_t)strlen(content) ? 0 : -1;
}

/*
 * fsck.pramfs -fn (the test initramfs has it) over the unmounted
 * filesystem @fs, its report in @out: its exit code, 0 for clean.
 */
static inline int fsck_exit(const struct nvram *fs, const char *out)
{
	char cmd[256];
	int st;

	snprintf(cmd, sizeof(cmd), "fsck.pramfs -fn --phys %#llx --size %llu >%s 2>&1",
		 fs->phys, fs->size, out);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run @fn as uid and gid 1000 in a child; its exit status. */
static inline int as_user(int (*fn)(void))
{
	pid_t pid = fork();
	int status;

	if (!pid) {
		if (setgroups(0, NULL) || setgid(1000) || setuid(1000))
			_exit(100);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Does listxattr of MNT/@path (not following a symlink) give @name? */
static inline bool listed(const char *path, const char *name)
{
	char list[4096], *p;
	ssize_t n = llistxattr(at(path), list, sizeof(list));

	for (p = list; n > 0 && p < list + n; p += strlen(p) + 1)
		if (!strcmp(p, name))
			return true;
	return false;
}

/* Write MNT/@name until the filesystem is full; 0, or -1 on another error. */
static inline int fill_up(const char *name)
{
	static uint8_t buf[64 << 10];
	int fd = open(at(name), O_WRONLY | O_CREAT, 0644);

	if (fd < 0)
		return -1;
	memset(buf, 0x5a, sizeof(buf));
	while (write(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return errno == ENOSPC ? 0 : -1;
}

/*
 * Fill the filesystem at MNT to its last block: the file MNT/@name, then
 * an attribute block on each of a few new empty files (@name0, @name1,
 * ...) for the blocks too few for another file's map; 0, or -1 if a
 * block is left.
 */
static inline int fill_every_block(const char *name)
{
	struct statfs st;
	char file[64];
	int i;

	if (fill_up(name))
		return -1;
	for (i = 0; i < 16 && !statfs(MNT, &st) && st.f_bfree; i++) {
		snprintf(file, sizeof(file), "%s%d", name, i);
		if (put(file, "") || lsetxattr(at(file), "user.x", "x", 1, 0))
			return -1;
	}
	return statfs(MNT, &st) || st.f_bfree ? -1 : 0;
}

/* Free blocks and inodes: what must come back after everything is deleted. */
struct counts {
	unsigned long long bfree, ffree;
};

static inline struct counts fs_counts(const char *dir)
{
	struct statfs st;
	struct counts c = { 0, 0 };

	if (!statfs(dir, &st)) {
		c.bfree = st.f_bfree;
		c.ffree = st.f_ffree;
	}
	return c;
}

/* The byte at @off of the test data stream @seed: never constant. */
static inline uint8_t pattern(unsigned int seed, unsigned long long off)
{
	uint64_t x = (off + 1) * 0x9e3779b97f4a7c15ULL + seed * 0xbf58476d1ce4e5b9ULL;

	return x >> 56 ^ x >> 29;
}

static inline void fill_pattern(uint8_t *buf, size_t len, unsigned int seed,
				unsigned long long off)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern(seed, off + i);
}

/* Index of the first byte that differs from the pattern, or -1. */
static inline long check_pattern(const uint8_t *buf, size_t len,
				 unsigned int seed, unsigned long long off)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != pattern(seed, off + i))
			return i;
	return -1;
}

/* A figure of /proc/meminfo in KiB, -1 if absent. */
static inline long long meminfo_kb(const char *key)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtoll(line + strlen(key), NULL, 10);
	if (f)
		fclose(f);
	return v;
}

static inline long first_nonzero(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i])
			return i;
	return -1;
}

/* The line of /proc/mounts for @dir, in @buf. */
static inline int mount_line(const char *dir, char *buf, size_t len)
{
	FILE *f = fopen("/proc/mounts", "r");
	char pat[64];
	int found = 0;

	snprintf(pat, sizeof(pat), " %s pramfs ", dir);
	while (f && fgets(buf, len, f))
		if (strstr(buf, pat)) {
			found = 1;
			break;
		}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}


/* Is there an entry MNT/@name? */
static inline int exists(const char *name)
{
	struct stat st;

	return !lstat(at(name), &st);
}

/* Entries readdir gives for @dir, the dots included; -1 if it cannot open. */
static inline int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Remove everything under @path that can be removed. */
static inline void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char sub[1024];

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >=
		    (int)sizeof(sub))
			continue;
		if (e->d_type == DT_DIR) {
			remove_tree(sub);
			rmdir(sub);
		} else {
			unlink(sub);
		}
	}
	if (d)
		closedir(d);
}

/*
 * Read the whole of regular file @path, and through a mapping too (the
 * mapping's bytes are written to /dev/null: the kernel reads every one).
 */
static inline void read_all(const char *path, off_t size)
{
	int fd = open(path, O_RDONLY), null = open("/dev/null", O_WRONLY);
	char buf[4096];
	void *m;

	while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
		;
	m = fd >= 0 && size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) :
			      MAP_FAILED;
	if (m != MAP_FAILED) {
		(void)!write(null, m, size);
		munmap(m, size);
	}
	if (fd >= 0)
		close(fd);
	if (null >= 0)
		close(null);
}

/*
 * Use everything under @path as a reader would: readdir, lstat, every
 * byte of every file (read and mmap), readlink. Errors are expected on
 * crafted images and ignored. Return: the entries seen.
 */
/* Every extended attribute of @path, read and dropped. */
static inline void read_xattrs(const char *path)
{
	char names[4096], value[4096], *n;
	ssize_t len = llistxattr(path, names, sizeof(names));

	for (n = names; len > 0 && n < names + len; n += strlen(n) + 1)
		(void)!lgetxattr(path, n, value, sizeof(value));
}

static inline int walk_all(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct stat st;
	char sub[1024], link[4096];
	int n = 0;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >=
		    (int)sizeof(sub) || lstat(sub, &st))
			continue;
		read_xattrs(sub);
		if (S_ISDIR(st.st_mode))
			n += walk_all(sub);
		else if (S_ISREG(st.st_mode))
			read_all(sub, st.st_size);
		else if (S_ISLNK(st.st_mode))
			(void)!readlink(sub, link, sizeof(link));
	}
	if (d)
		closedir(d);
	return n;
}

#define KLOG_NONE	(~0ULL)	/* no /dev/kmsg to read */

/*
 * Each record of the kernel log (/dev/kmsg: "prio,seq,time,flags;text")
 * after record @after, in turn, to @fn; records the ring buffer dropped
 * meanwhile are skipped. Return: the last record's sequence number, or
 * KLOG_NONE.
 */
static inline unsigned long long klog_walk(unsigned long long after,
					   void (*fn)(const char *, void *),
					   void *arg)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	unsigned long long seq, last = after;
	char rec[8192];
	ssize_t len;

	if (fd < 0 || after == KLOG_NONE) {
		if (fd >= 0)
			close(fd);
		return KLOG_NONE;
	}
	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = 0;
		if (sscanf(rec, "%*u,%llu,", &seq) != 1 || seq <= after)
			continue;
		last = seq;
		if (fn)
			fn(rec, arg);
	}
	close(fd);
	return last;
}

/*
 * Where the kernel log is now, for klog_since(): the log of a whole
 * kselftest run is larger than the ring buffer, so lines are counted
 * from a mark, never in all of it (what wraps away would leave the count).
 */
static inline unsigned long long klog_mark(void)
{
	return klog_walk(0, NULL, NULL);
}

struct klog_search {
	const char	*needle;
	int		n;
};

static inline void klog_match(const char *rec, void *arg)
{
	struct klog_search *k = arg;

	if (strstr(rec, k->needle))
		k->n++;
}

/* How many lines logged since @mark hold @needle; -1 with no log. */
static inline int klog_since(unsigned long long mark, const char *needle)
{
	struct klog_search k = { .needle = needle };

	if (klog_walk(mark, klog_match, &k) == KLOG_NONE)
		return -1;
	return k.n;
}

#ifdef __KSELFTEST_HARNESS_H
/* Unmount and mount @nv again: what is read next comes from the NVRAM. */
static inline void remount(struct __test_metadata *_metadata,
			   const struct nvram *nv)
{
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", nv->phys));
}

/*
 * Empty the filesystem on @nv (of nv->size bytes) mounted at MNT: the
 * free counts are @fresh's again; unmounted, fsck.pramfs -fn finds it
 * clean; then it is mounted again.
 */
static inline void expect_clean_fs(struct __test_metadata *_metadata,
				   const struct nvram *nv,
				   const struct counts *fresh)
{
	struct counts now;

	remove_tree(MNT);
	now = fs_counts(MNT);
	EXPECT_EQ(fresh->bfree, now.bfree);
	EXPECT_EQ(fresh->ffree, now.ffree);
	ASSERT_EQ(0, umount(MNT));
	EXPECT_EQ(0, fsck_exit(nv, "/tmp/pramfs-fsck.out")) {
		system("head -n 12 /tmp/pramfs-fsck.out >&2");
	}
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", nv->phys));
}

/* expect_clean_fs() of a fixture with nv and fresh. */
#define expect_clean(m, self)	expect_clean_fs(m, &(self)->nv, &(self)->fresh)
#endif

#endif /* PRAMFS_UTIL_H */
