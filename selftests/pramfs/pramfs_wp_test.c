// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS write-protection tests, with the fault module (pramfs_fault):
 * an exception-guarded kernel store aimed at the superblock, its copy,
 * an inode, a directory entry, the bitmap and a data block must fault
 * and leave the NVRAM unchanged byte for byte, also while the file is
 * mapped; with noprotect the same store lands (so the test can fail). Then the probes again while
 * another process writes to the filesystem, so that the windows of
 * legitimate writes are open meanwhile.
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

static const char *const targets[] = {
	"super", "copy", "inode", "dirent", "bitmap", "data",
};

/* Load pramfs_fault.ko from beside this program, unless it is loaded. */
static const char *load_fault_module(void)
{
	char exe[512], path[600];
	ssize_t n;
	int fd, ret;

	if (!access(FAULT_PROC, W_OK))
		return NULL;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "cannot find this program";
	exe[n] = 0;
	snprintf(path, sizeof(path), "%s/pramfs_fault/pramfs_fault.ko",
		 dirname(exe));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return "pramfs_fault.ko is missing";
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return ret && errno != EEXIST ? "cannot load pramfs_fault.ko" : NULL;
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
/* Fewer pages than a CPU's window slots: the slots map only these. */
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

TEST_HARNESS_MAIN
