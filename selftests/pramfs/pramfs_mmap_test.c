// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS memory-mapping tests, for each block size. At bs=4096 (the page
 * size) a mapping maps the NVRAM itself; below it, pages are copies in
 * the page cache. Either way: private mappings read and copy on write
 * without touching the NVRAM, shared mappings are read-only and stay so,
 * what write(2) stores shows in a mapping at once, truncate unmaps what
 * it frees (SIGBUS past the end), and a static program stored on PRAMFS
 * runs; at bs=4096 without growing the page cache.
 *
 * Needs root, pramfs registered, PRAM_PHYS and PRAM_SIZE in the
 * environment (qemu/run sets them), and pramfs_xip beside this program.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <setjmp.h>
#include <signal.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pramfs_util.h"

#define PG	4096UL

static sigjmp_buf fault_jump;

static void on_fault(int sig)
{
	siglongjmp(fault_jump, sig);
}

/*
 * Load from or store to @p: 0, or the signal it raised (SIGBUS past the
 * end of the file, SIGSEGV for a store to a read-only mapping).
 */
static int access_byte(uint8_t *p, uint8_t *val, int store)
{
	struct sigaction sa = { .sa_handler = on_fault }, old_bus, old_segv;
	int sig;

	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGSEGV, &sa, &old_segv);
	sig = sigsetjmp(fault_jump, 1);
	if (!sig) {
		/* Atomic accesses: the compiler must make them. */
		if (store)
			__atomic_store_n(p, *val, __ATOMIC_RELAXED);
		else
			*val = __atomic_load_n(p, __ATOMIC_RELAXED);
	}
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return sig;
}

static int load(const void *p)
{
	uint8_t v;

	return access_byte((uint8_t *)p, &v, 0);
}

static int store(void *p, uint8_t v)
{
	return access_byte(p, &v, 1);
}

/* The page frame behind @addr, 0 if none is mapped. */
static uint64_t frame_of(const void *addr)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), (uintptr_t)addr / PG * sizeof(e)) !=
	    sizeof(e))
		e = 0;
	close(fd);
	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

static int in_nvram(const struct nvram *nv, const void *addr)
{
	uint64_t f = frame_of(addr);

	return f >= nv->phys / PG && f < (nv->phys + nv->size) / PG;
}

/* MNT/@name, @len bytes of the pattern @seed; an fd open O_RDWR, or -1. */
static int make_file(const char *name, size_t len, unsigned int seed)
{
	int fd = open(at(name), O_RDWR | O_CREAT | O_TRUNC, 0644);
	uint8_t *buf = malloc(len);

	if (fd < 0 || !buf || !len)
		goto out;
	fill_pattern(buf, len, seed, 0);
	if (write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		fd = -1;
	}
out:
	free(buf);
	return fd;
}

static uint8_t *map(int fd, size_t len, int prot, int flags)
{
	void *p = mmap(NULL, len, prot, flags, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A new file @name of 4 pages of holes, in *@fd, mapped shared read-only. */
static uint8_t *map_holes(const char *name, int *fd)
{
	*fd = open(at(name), O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (*fd < 0 || ftruncate(*fd, 4 * PG))
		return NULL;
	return map(*fd, 4 * PG, PROT_READ, MAP_SHARED);
}

/*
 * Map @len bytes of @fd twice, shared read-only and private writable;
 * 0 if both read as the pattern @seed.
 */
static int map_both(int fd, size_t len, unsigned int seed, uint8_t **shared,
		    uint8_t **priv)
{
	*shared = map(fd, len, PROT_READ, MAP_SHARED);
	*priv = map(fd, len, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	if (!*shared || !*priv)
		return -1;
	return check_pattern(*shared, len, seed, 0) < 0 &&
	       check_pattern(*priv, len, seed, 0) < 0 ? 0 : -1;
}

FIXTURE(mm) {
	struct nvram nv;
	unsigned int bs;
	int direct;	/* mappings map the NVRAM itself */
};

FIXTURE_VARIANT(mm) {
	unsigned int bs;
};

FIXTURE_VARIANT_ADD(mm, bs512) { .bs = 512 };
FIXTURE_VARIANT_ADD(mm, bs1024) { .bs = 1024 };
FIXTURE_VARIANT_ADD(mm, bs2048) { .bs = 2048 };
FIXTURE_VARIANT_ADD(mm, bs4096) { .bs = 4096 };

FIXTURE_SETUP(mm)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(PG, (unsigned long)sysconf(_SC_PAGESIZE));
	mkdir(MNT, 0755);
	/* noatime: the NVRAM changes only when a test writes to a file. */
	ASSERT_EQ(0, do_mount(MNT, MS_NOATIME, "physaddr=%#llx,init=%llu,bs=%u",
			      self->nv.phys, self->nv.size, variant->bs));
	self->bs = variant->bs;
	self->direct = variant->bs == PG;
}

/*
 * In the parent: with the 6.12 harness, a failed ASSERT in the test process
 * can skip a teardown there, leaving the NVRAM mounted for the next test.
 */
FIXTURE_TEARDOWN_PARENT(mm)
{
	umount2(MNT, MNT_DETACH);
}

/* Read and exec through a private mapping; zeros past the end. */
TEST_F(mm, private_read)
{
	size_t len = 3 * PG + 100;
	int fd = make_file("f", len, 1);
	uint8_t *p;

	ASSERT_LE(0, fd);
	p = map(fd, 4 * PG, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-1, check_pattern(p, len, 1, 0));
	EXPECT_EQ(-1, first_nonzero(p + len, 4 * PG - len));
	/* The NVRAM itself at bs=4096; a copy in an ordinary page below. */
	EXPECT_EQ(self->direct, in_nvram(&self->nv, p + PG));
	EXPECT_EQ(self->direct, in_nvram(&self->nv, p + 3 * PG));
	munmap(p, 4 * PG);
	close(fd);
}

/* A store to a private mapping goes to an anonymous copy only. */
TEST_F(mm, private_write_never_reaches_the_nvram)
{
	size_t len = 18 * PG;	/* the last page in a fault-around group of its own */
	int fd = make_file("f", len, 2);
	uint64_t before = nvram_hash(&self->nv);
	uint8_t *p, *shared, back[16];

	ASSERT_LE(0, fd);
	ASSERT_NE(0, before);
	p = map(fd, len, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	shared = map(fd, len, PROT_READ, MAP_SHARED);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, shared);
	/* A store to a page not mapped yet: copied from the file. */
	p[17 * PG] = 0xdd;
	EXPECT_EQ(-1, check_pattern(p + 17 * PG + 1, PG - 1, 2, 17 * PG + 1));
	/* A store to a page mapped for a read first. */
	EXPECT_EQ(pattern(2, PG + 10), p[PG + 10]);
	EXPECT_EQ(self->direct, in_nvram(&self->nv, p + PG));
	memset(p + PG, 0xee, 16);
	EXPECT_EQ(0xee, p[PG + 15]);
	EXPECT_EQ(-1, check_pattern(p + PG + 16, PG - 16, 2, PG + 16));
	EXPECT_EQ(0, in_nvram(&self->nv, p + PG));
	EXPECT_EQ(0, in_nvram(&self->nv, p + 17 * PG));
	/* The file, another mapping of it and the NVRAM are unchanged. */
	EXPECT_EQ(-1, check_pattern(shared, len, 2, 0));
	ASSERT_EQ(16, pread(fd, back, 16, PG));
	EXPECT_EQ(-1, check_pattern(back, 16, 2, PG));
	EXPECT_EQ(before, nvram_hash(&self->nv));
	munmap(p, len);
	munmap(shared, len);
	close(fd);
}

/* Shared mappings: read-only ones work, from an O_RDWR file too. */
TEST_F(mm, shared_read_only)
{
	size_t len = 5 * PG + 7;
	int fd = make_file("f", len, 3);
	uint8_t *p;

	ASSERT_LE(0, fd);
	p = map(fd, len, PROT_READ, MAP_SHARED);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-1, check_pattern(p, len, 3, 0));
	EXPECT_EQ(self->direct, in_nvram(&self->nv, p + 4 * PG));
	EXPECT_EQ(SIGSEGV, store(p + 5, 0));
	munmap(p, len);
	close(fd);
}

/* Refused: shared and writable; upgrades by mprotect(); /proc/PID/mem. */
TEST_F(mm, shared_writable_refused)
{
	int fd = make_file("f", 2 * PG, 4), ro = open(at("f"), O_RDONLY);
	uint64_t before = nvram_hash(&self->nv);
	uint8_t *p, *priv, byte = 0x11;
	int mem = open("/proc/self/mem", O_RDWR);

	ASSERT_LE(0, fd);
	ASSERT_LE(0, ro);
	ASSERT_LE(0, mem);
	errno = 0;
	EXPECT_EQ(NULL, map(fd, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(NULL, map(fd, 2 * PG, PROT_WRITE, MAP_SHARED));
	EXPECT_EQ(EINVAL, errno);
	/* Not open for writing: the VFS refuses first. */
	errno = 0;
	EXPECT_EQ(NULL, map(ro, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED));
	EXPECT_EQ(EACCES, errno);

	p = map(fd, 2 * PG, PROT_READ, MAP_SHARED);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-1, mprotect(p, 2 * PG, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(SIGSEGV, store(p, 0));
	/* A debugger's forced store into a shared mapping fails too. */
	EXPECT_GE(0, pwrite(mem, &byte, 1, (uintptr_t)p + 3));
	EXPECT_EQ(pattern(4, 3), p[3]);
	/* Reads through /proc/PID/mem see the file (ptrace, core tools). */
	ASSERT_EQ(1, pread(mem, &byte, 1, (uintptr_t)p + PG + 9));
	EXPECT_EQ(pattern(4, PG + 9), byte);

	/* A private mapping may become writable, and copies on write. */
	priv = map(fd, 2 * PG, PROT_READ, MAP_PRIVATE);
	ASSERT_NE(NULL, priv);
	EXPECT_EQ(0, mprotect(priv, 2 * PG, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, store(priv, 0x22));
	byte = 0x33;
	EXPECT_EQ(1, pwrite(mem, &byte, 1, (uintptr_t)priv + PG));
	EXPECT_EQ(0x33, priv[PG]);
	EXPECT_EQ(pattern(4, 0), p[0]);
	EXPECT_EQ(pattern(4, PG), p[PG]);
	EXPECT_EQ(before, nvram_hash(&self->nv));
	munmap(priv, 2 * PG);
	munmap(p, 2 * PG);
	close(mem);
	close(ro);
	close(fd);
}

/* What write(2) stores is in the mappings when it returns. */
TEST_F(mm, coherent_with_write)
{
	int fd = make_file("f", 3 * PG, 5);
	uint8_t *shared, *priv, buf[300];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_both(fd, 3 * PG, 5, &shared, &priv));
	priv[2 * PG] = 0;	/* this page is the process's own now */

	fill_pattern(buf, sizeof(buf), 6, PG - 100);
	ASSERT_EQ(sizeof(buf), pwrite(fd, buf, sizeof(buf), PG - 100));
	EXPECT_EQ(-1, check_pattern(shared + PG - 100, sizeof(buf), 6, PG - 100));
	EXPECT_EQ(-1, check_pattern(priv + PG - 100, sizeof(buf), 6, PG - 100));
	ASSERT_EQ(sizeof(buf), pwrite(fd, buf, sizeof(buf), 2 * PG));
	EXPECT_EQ(-1, check_pattern(shared + 2 * PG, sizeof(buf), 6, PG - 100));
	EXPECT_EQ(0, priv[2 * PG]);
	EXPECT_EQ(-1, check_pattern(priv + 2 * PG + 1, PG - 1, 5, 2 * PG + 1));
	munmap(shared, 3 * PG);
	munmap(priv, 3 * PG);
	close(fd);
}

#define SEEN	64	/* bytes put_seen() writes */

/* Write SEEN bytes of pattern @seed at @off of @fd; @p, its mapping, shows them. */
static void put_seen(struct __test_metadata *_metadata, int fd,
		     const uint8_t *p, off_t off, unsigned int seed)
{
	uint8_t buf[SEEN];

	fill_pattern(buf, sizeof(buf), seed, off);
	ASSERT_EQ(sizeof(buf), pwrite(fd, buf, sizeof(buf), off));
	EXPECT_EQ(-1, check_pattern(p + off, sizeof(buf), seed, off));
}

/* A hole reads as zeros, and as data once written or allocated. */
TEST_F(mm, holes_filled_while_mapped)
{
	uint8_t *p;
	int fd;

	p = map_holes("sparse", &fd);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-1, first_nonzero(p, 4 * PG));

	put_seen(_metadata, fd, p, PG + 5, 7);
	EXPECT_EQ(self->direct, in_nvram(&self->nv, p + PG));

	ASSERT_EQ(0, fallocate(fd, FALLOC_FL_KEEP_SIZE, 3 * PG, PG));
	EXPECT_EQ(-1, first_nonzero(p + 3 * PG, PG));
	put_seen(_metadata, fd, p, 3 * PG, 7);
	EXPECT_EQ(-1, first_nonzero(p + 2 * PG, PG));
	munmap(p, 4 * PG);
	close(fd);
}

/*
 * Page 0 of a direct file (one block, named by its record), mapped; then
 * the file gets its map and a second block: page 0 still shows block 0.
 */
TEST_F(mm, a_direct_block_mapped_while_the_file_grows)
{
	uint8_t *p;
	int fd;

	p = map_holes("direct", &fd);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-1, first_nonzero(p, 4 * PG));
	put_seen(_metadata, fd, p, 5, 9);
	EXPECT_EQ(self->direct, in_nvram(&self->nv, p));

	put_seen(_metadata, fd, p, 2 * PG, 9);
	EXPECT_EQ(-1, check_pattern(p + 5, SEEN, 9, 5));
	/* Looked up again, through the new row and column. */
	ASSERT_EQ(0, madvise(p, 4 * PG, MADV_DONTNEED));
	EXPECT_EQ(-1, check_pattern(p + 5, SEEN, 9, 5));
	EXPECT_EQ(self->direct, in_nvram(&self->nv, p));
	EXPECT_EQ(-1, first_nonzero(p + PG, PG));
	EXPECT_EQ(-1, check_pattern(p + 2 * PG, SEEN, 9, 2 * PG));
	munmap(p, 4 * PG);
	close(fd);
}

/* Past the end of the file: SIGBUS, until the file grows. */
TEST_F(mm, sigbus_past_end)
{
	int fd = make_file("f", PG + 1, 8);
	uint8_t *p, buf[10];

	ASSERT_LE(0, fd);
	p = map(fd, 3 * PG, PROT_READ, MAP_PRIVATE);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, load(p + PG + 1));	/* in the last, partial page */
	EXPECT_EQ(0, p[PG + 1]);
	EXPECT_EQ(SIGBUS, load(p + 2 * PG));
	fill_pattern(buf, sizeof(buf), 8, 2 * PG);
	ASSERT_EQ(sizeof(buf), pwrite(fd, buf, sizeof(buf), 2 * PG));
	EXPECT_EQ(0, load(p + 2 * PG));
	EXPECT_EQ(-1, check_pattern(p + 2 * PG, sizeof(buf), 8, 2 * PG));
	munmap(p, 3 * PG);
	close(fd);
}

/*
 * Truncate unmaps what it frees, private copies too: SIGBUS past the new
 * end, zeros past it in the last page, and when the file grows back, its
 * old pages are holes, not the blocks they had (now another file's).
 */
TEST_F(mm, truncate_while_mapped)
{
	int fd = make_file("f", 4 * PG, 9), other;
	uint8_t *shared, *priv;
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_both(fd, 4 * PG, 9, &shared, &priv));
	priv[3 * PG] = 1;

	ASSERT_EQ(0, ftruncate(fd, 100));
	for (i = 1; i < 4; i++) {
		EXPECT_EQ(SIGBUS, load(shared + i * PG)) {
			TH_LOG("shared, page %d", i);
		}
		EXPECT_EQ(SIGBUS, load(priv + i * PG)) {
			TH_LOG("private, page %d", i);
		}
	}
	EXPECT_EQ(-1, check_pattern(shared, 100, 9, 0));
	EXPECT_EQ(-1, first_nonzero(shared + 100, PG - 100));

	/* The freed blocks go to another file... */
	other = make_file("other", 16 * PG, 10);
	ASSERT_LE(0, other);
	/* ...and the old pages, in the file again, are holes. */
	ASSERT_EQ(0, ftruncate(fd, 4 * PG));
	EXPECT_EQ(-1, first_nonzero(shared + 100, 4 * PG - 100));
	EXPECT_EQ(-1, first_nonzero(priv + 100, 4 * PG - 100));
	munmap(shared, 4 * PG);
	munmap(priv, 4 * PG);
	close(other);
	close(fd);
}

/* Copy pramfs_xip, from beside this program, to MNT/@name. */
static int install_xip(const char *name)
{
	char exe[512], path[600], buf[65536];
	int in, out, ret = -1;
	ssize_t n, len;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -1;
	exe[n] = 0;
	snprintf(path, sizeof(path), "%s/pramfs_xip", dirname(exe));
	in = open(path, O_RDONLY);
	out = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		goto close_files;
	while ((len = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, len) != len)
			goto close_files;
	ret = len;
close_files:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ret;
}

/* Run @path; its exit status, its first output line in @line. */
static int run(const char *path, char *line, size_t size)
{
	int pipefd[2], status = -1;
	pid_t pid;
	FILE *f;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(pipefd[1], 1);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	f = fdopen(pipefd[0], "r");
	if (!f || !fgets(line, size, f))
		line[0] = 0;
	if (f)
		fclose(f);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return status;
}

/* A static program stored on PRAMFS runs; at bs=4096 from the NVRAM. */
TEST_F(mm, static_program_runs)
{
	long long before, after;
	struct stat st;
	char line[64];

	ASSERT_EQ(0, install_xip("xip"));
	ASSERT_EQ(0, stat(at("xip"), &st));
	ASSERT_LT(4 << 20, st.st_size);
	before = meminfo_kb("Cached:");
	EXPECT_EQ(0, run(at("xip"), line, sizeof(line)));
	after = meminfo_kb("Cached:");
	EXPECT_STREQ("xip ok\n", line);
	if (self->direct) {
		/* Its 4 MiB table was read, but not into the page cache. */
		EXPECT_LT(after - before, st.st_size / 1024 / 4) {
			TH_LOG("Cached grew by %lld KiB running a %lld KiB program",
			       after - before, (long long)st.st_size / 1024);
		}
	}
}

TEST_HARNESS_MAIN
