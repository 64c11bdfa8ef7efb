// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS write-protection tests, with the fault module (pramfs_fault):
 * an exception-guarded kernel store aimed at the superblock, its copy,
 * an inode, a directory entry, the bitmap and a data block must fault
 * and leave the NVRAM unchanged byte for byte, also while the file is
 * mapped; with noprotect the same store lands (so the test can fail).
 * Then the probes again while another process writes to the filesystem,
 * so that the windows of legitimate writes are open meanwhile. Last, two
 * filesystems at once in the two halves of the NVRAM, which share the
 * CPUs' window slots, as each is unmounted and as the module is unloaded
 * and loaded again (from /lib/modules/pramfs.ko, where qemu/init has it).
 *
 * Needs root, pramfs registered, /dev/mem, the fault module next to this
 * program (pramfs_fault/pramfs_fault.ko), and PRAM_PHYS and PRAM_SIZE in
 * the environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "pramfs_util.h"

#define FAULT_PROC	"/proc/pramfs_fault"
#define MNT2		"/tmp/pram2"

static const char *const targets[] = {
	"super", "copy", "inode", "dirent", "bitmap", "data", "last",
};

/* Load pramfs_fault.ko from beside this program, unless it is loaded. */
static const char *load_fault_module(void)
{
	char exe[512], path[600];
	ssize_t n;

	if (!access(FAULT_PROC, W_OK))
		return NULL;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "cannot find this program";
	exe[n] = 0;
	snprintf(path, sizeof(path), "%s/pramfs_fault/pramfs_fault.ko",
		 dirname(exe));
	if (access(path, R_OK))
		return "pramfs_fault.ko is missing";
	return load_module(path, "") ? "cannot load pramfs_fault.ko" : NULL;
}

/* Aim a probe; 0 if the store landed, else the errno (EFAULT: faulted). */
static int probe(const char *target, const char *path)
{
	char cmd[256];
	int fd = open(FAULT_PROC, O_WRONLY), ret;

	if (fd < 0)
		return errno;
	snprintf(cmd, sizeof(cmd), "%s %s %s", "probe", target, path);
	ret = write(fd, cmd, strlen(cmd)) < 0 ? errno : 0;
	close(fd);
	return ret;
}

FIXTURE(wp) {
	struct nvram nv;
};

FIXTURE_VARIANT(wp) {
	const char *opts;
	int expect;	/* what each probe gives */
	unsigned long long size;	/* to format; 0: all the NVRAM */
};

FIXTURE_VARIANT_ADD(wp, protected) { .opts = "", .expect = EFAULT };
FIXTURE_VARIANT_ADD(wp, noprotect) { .opts = ",noprotect", .expect = 0 };
/* A filesystem of fewer pages than a CPU has window slots. */
FIXTURE_VARIANT_ADD(wp, protected_64k) {
	.opts = ",bs=512", .expect = EFAULT, .size = 64 << 10,
};

/* Format with @opts, with the module loaded, and make d/f to aim at. */
static void setup_mount(struct __test_metadata *_metadata, struct nvram *nv,
			const char *opts, unsigned long long size)
{
	const char *why = missing_prerequisite(nv);

	if (!why)
		why = load_fault_module();
	ASSERT_EQ(NULL, why) {
		TH_LOG("%s", why);
	}
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%llu%s", nv->phys,
			      size ?: nv->size, opts));
	ASSERT_EQ(0, mkdir(at("d"), 0755));
	ASSERT_EQ(0, put("d/f", "aimed at"));
}

FIXTURE_SETUP(wp)
{
	setup_mount(_metadata, &self->nv, variant->opts, variant->size);
}

/*
 * In the parent: with the 6.12 harness, a failed ASSERT in the test process
 * can skip a teardown there, leaving the NVRAM mounted for the next test.
 */
FIXTURE_TEARDOWN_PARENT(wp)
{
	umount2(MNT, MNT_DETACH);
}

TEST_F(wp, probes_at_each_place)
{
	uint64_t before = nvram_hash(&self->nv);
	char buf[16] = "";
	size_t i;
	int fd;

	ASSERT_NE(0, before);
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		EXPECT_EQ(variant->expect, probe(targets[i], at("d/f"))) {
			TH_LOG("probe at %s", targets[i]);
		}
		/* Protected, the store never landed; else it was put back. */
		EXPECT_EQ(before, nvram_hash(&self->nv)) {
			TH_LOG("NVRAM changed by the probe at %s", targets[i]);
		}
	}
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx%s", self->nv.phys,
			      strstr(variant->opts, "noprotect") ? ",noprotect" : ""));
	fd = open(at("d/f"), O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(8, read(fd, buf, sizeof(buf)));
	EXPECT_STREQ("aimed at", buf);
	close(fd);
}

/*
 * User mappings of a file are separate from the kernel's mapping of the
 * NVRAM, which stays read-only while they exist and are written to.
 */
TEST_F(wp, kernel_mapping_read_only_while_file_mapped)
{
	int fd = open(at("d/f"), O_RDWR);
	uint64_t before;
	char *shared, *priv;

	ASSERT_LE(0, fd);
	shared = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	priv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, shared);
	ASSERT_NE(MAP_FAILED, priv);
	ASSERT_EQ(0, memcmp(shared, "aimed at", 8));
	priv[0] = 'A';
	before = nvram_hash(&self->nv);
	ASSERT_NE(0, before);
	EXPECT_EQ(variant->expect, probe("data", at("d/f")));
	EXPECT_EQ(before, nvram_hash(&self->nv));
	EXPECT_EQ(0, memcmp(shared, "aimed at", 8));
	EXPECT_EQ(0, memcmp(priv, "Aimed at", 8));
	munmap(shared, 4096);
	munmap(priv, 4096);
	close(fd);
}

TEST_F(wp, noprotect_shows_and_cannot_change_on_remount)
{
	char line[512];
	FILE *f = fopen("/proc/mounts", "r");
	int found = 0, shown = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, " " MNT " pramfs ")) {
			found = 1;
			shown = !!strstr(line, ",noprotect");
		}
	if (f)
		fclose(f);
	ASSERT_EQ(1, found);
	EXPECT_EQ(!variant->expect, shown);
	EXPECT_EQ(EINVAL, do_mount(MNT, MS_REMOUNT, "physaddr=%#llx%s",
				   self->nv.phys,
				   variant->expect ? ",noprotect" : ""));
}

/* Writes of many blocks at once (windows of several pages) read back. */
TEST_F(wp, multi_block_writes_read_back)
{
	size_t len = variant->size ? 16 << 10 : 40 << 10, i;
	uint8_t *buf = malloc(len), *back = malloc(len);
	int fd = open(at("big"), O_RDWR | O_CREAT | O_TRUNC, 0644);

	ASSERT_LE(0, fd);
	ASSERT_TRUE(buf && back);
	fill_pattern(buf, len, 3, 0);
	for (i = 0; i < 3; i++)	/* fresh, then rewritten, then appended */
		ASSERT_EQ((ssize_t)len, pwrite(fd, buf, len, i == 2 ? len : 0));
	ASSERT_EQ((ssize_t)len, pread(fd, back, len, len));
	EXPECT_EQ(0, memcmp(buf, back, len));
	ASSERT_EQ((ssize_t)len, pread(fd, back, len, 0));
	EXPECT_EQ(0, memcmp(buf, back, len));
	close(fd);
	free(buf);
	free(back);
}

/* Files written, renamed and deleted by a child while the probes run. */
static void busy_writer(int seconds)
{
	time_t end = time(NULL) + seconds;
	char name[32], to[32], buf[5000];
	unsigned int i = 0;
	int fd;

	memset(buf, 'w', sizeof(buf));
	while (time(NULL) < end) {
		snprintf(name, sizeof(name), "w%u", i % 16);
		snprintf(to, sizeof(to), "d/w%u", i % 16);
		fd = open(at(name), O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd < 0 || write(fd, buf, 1 + i % sizeof(buf)) < 0)
			_exit(1);
		close(fd);
		if (i % 3 == 0 && rename(at(name), at(to)))
			_exit(2);
		if (i % 5 == 0 && unlink(at(to)) && errno != ENOENT)
			_exit(3);
		i++;
	}
	_exit(0);
}

/* Protected only: with noprotect a landed probe would race the writer. */
FIXTURE(busy) {
	struct nvram nv;
};

FIXTURE_SETUP(busy)
{
	setup_mount(_metadata, &self->nv, "", 0);
}

FIXTURE_TEARDOWN_PARENT(busy)
{
	umount2(MNT, MNT_DETACH);
}

TEST_F_TIMEOUT(busy, probes_fault_while_the_filesystem_writes, 120)
{
	int status, faulted = 0, landed = 0, other = 0, ret;
	pid_t pid;
	size_t i;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		busy_writer(5);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		for (i = 0; i < ARRAY_SIZE(targets); i++) {
			ret = probe(targets[i], at("d/f"));
			faulted += ret == EFAULT;
			landed += ret == 0;
			other += ret && ret != EFAULT;
		}
	}
	TH_LOG("%d probes faulted, %d landed, %d other", faulted, landed, other);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_LT(0, faulted);
	EXPECT_EQ(0, landed);
	EXPECT_EQ(0, other);
}

/*
 * Two protected filesystems at once, one in each half of the NVRAM: the
 * CPUs' window slots serve every mount, and outlive each one.
 */
FIXTURE(two) {
	struct nvram nv;
};

static const char *const two_dirs[] = { MNT, MNT2 };
static const char *const two_files[] = { MNT "/f1", MNT2 "/f1" };

/* Mount the filesystem in half @i (0 or 1) of @nv, formatting it if @init. */
static int mount_half(const struct nvram *nv, int i, bool init)
{
	unsigned long long half = nv->size / 2 & ~4095ULL;
	unsigned long long phys = nv->phys + i * half;

	if (init)
		return do_mount(two_dirs[i], 0, "physaddr=%#llx,init=%llu",
				phys, half);
	return do_mount(two_dirs[i], 0, "physaddr=%#llx", phys);
}

/* @dir/f<k> for k in [@from, @to): 1 + k % 3000 bytes of stream @seed + k. */
static int put_files(const char *dir, unsigned int seed, int from, int to)
{
	uint8_t buf[3000];
	char path[256];
	int k, fd;
	ssize_t n;

	for (k = from; k < to; k++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, k);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return -1;
		fill_pattern(buf, 1 + k % 3000, seed + k, 0);
		n = write(fd, buf, 1 + k % 3000);
		close(fd);
		if (n != 1 + k % 3000)
			return -1;
	}
	return 0;
}

/* The first of @dir/f<k>, k in [0, @to), that put_files() did not write; -1. */
static int bad_file(const char *dir, unsigned int seed, int to)
{
	uint8_t buf[3001];
	char path[256];
	int k, fd;
	ssize_t n;

	for (k = 0; k < to; k++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, k);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return k;
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (n != 1 + k % 3000 || check_pattern(buf, n, seed + k, 0) >= 0)
			return k;
	}
	return -1;
}

/* Each half's files, written in turn: the windows of both interleave. */
static int put_both(int from, int to)
{
	int k, i;

	for (k = from; k < to; k++)
		for (i = 0; i < 2; i++)
			if (put_files(two_dirs[i], 100 * i, k, k + 1))
				return -1;
	return 0;
}

/*
 * The vmap areas of a pool's pages (wp_slots, and a guard page) in
 * /proc/vmallocinfo: the CPUs' window pools while pramfs is loaded and
 * has mounted, or -1. @slots: wp_slots as the module was loaded.
 */
static int pool_areas(long slots)
{
	char line[512], size[32];
	int n = 0;
	FILE *f;

	if (slots <= 0)
		return -1;
	f = fopen("/proc/vmallocinfo", "r");
	if (!f)
		return -1;
	snprintf(size, sizeof(size), " %ld ", (slots + 1) * 4096);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, size) && strstr(line, " vmap");
	fclose(f);
	return n;
}

FIXTURE_SETUP(two)
{
	const char *why = missing_prerequisite(&self->nv);

	if (!why)
		why = load_fault_module();
	ASSERT_EQ(NULL, why) {
		TH_LOG("%s", why);
	}
	mkdir(MNT, 0755);
	mkdir(MNT2, 0755);
	ASSERT_EQ(0, mount_half(&self->nv, 0, true));
	ASSERT_EQ(0, mount_half(&self->nv, 1, true));
	/* Over a CPU's 4,096 slots, so that its pool wraps around. */
	ASSERT_EQ(0, put_both(0, 600));
}

FIXTURE_TEARDOWN_PARENT(two)
{
	umount2(MNT, MNT_DETACH);
	umount2(MNT2, MNT_DETACH);
	load_module(PRAMFS_KO, "");	/* if a test unloaded it and failed */
}

/* Both protected, each with its own files, as either is unmounted. */
TEST_F(two, windows_serve_every_mount_and_outlive_one)
{
	uint64_t before;
	int i, status;
	pid_t pid;

	for (i = 0; i < 2; i++)
		EXPECT_EQ(-1, bad_file(two_dirs[i], 100 * i, 600));
	before = nvram_hash(&self->nv);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(EFAULT, probe("data", two_files[i]));
		EXPECT_EQ(EFAULT, probe("inode", two_files[i]));
	}
	EXPECT_EQ(before, nvram_hash(&self->nv));
	/* One goes while the other writes, then both again. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(put_files(MNT2, 100, 600, 1800) ? 1 : 0);
	usleep(20 * 1000);
	/* Still writing: else the unmount did not overlap the windows. */
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG));
	EXPECT_EQ(0, umount(MNT));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	ASSERT_EQ(0, mount_half(&self->nv, 0, false));
	ASSERT_EQ(0, put_both(1800, 1900));
	ASSERT_EQ(0, umount(MNT2));
	ASSERT_EQ(0, mount_half(&self->nv, 1, false));
	EXPECT_EQ(-1, bad_file(MNT, 0, 600));
	EXPECT_EQ(-1, bad_file(MNT2, 100, 1800));
	EXPECT_EQ(EFAULT, probe("data", MNT "/f1800"));
	EXPECT_EQ(EFAULT, probe("data", MNT2 "/f1800"));
}

/*
 * The slots go with the module and come back with it: unloaded with
 * nothing mounted, loaded again, both filesystems found, written and
 * protected as before.
 */
TEST_F(two, module_unloads_and_loads_again)
{
	long slots = read_number(WP_SLOTS_PARAM);
	int i, pools = pool_areas(slots);
	char params[32];

	ASSERT_LT(0, pools);
	ASSERT_EQ(0, access(PRAMFS_KO, R_OK));
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, umount(MNT2));
	ASSERT_EQ(0, syscall(SYS_delete_module, "pramfs", O_NONBLOCK)) {
		TH_LOG("cannot unload pramfs: %s", strerror(errno));
	}
	/* All went with it; the first mount makes them again. */
	EXPECT_EQ(0, pool_areas(slots));
	snprintf(params, sizeof(params), "wp_slots=%ld", slots);
	ASSERT_EQ(0, load_module(PRAMFS_KO, params));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, mount_half(&self->nv, i, false));
	EXPECT_EQ(pools, pool_areas(slots));
	ASSERT_EQ(0, put_both(600, 700));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(-1, bad_file(two_dirs[i], 100 * i, 700));
		EXPECT_EQ(EFAULT, probe("data", two_files[i]));
	}
}

TEST_HARNESS_MAIN
