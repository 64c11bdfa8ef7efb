// SPDX-License-Identifier: GPL-2.0
/*
 * A write whose user buffer cannot be read for a long time (a
 * userfaultfd that is not served) must not hold PRAMFS's write windows:
 * a copy from user memory inside a window could sleep with the CPU's
 * window slots taken, while other writers wait for a slot with s_lock or
 * a record lock held. More such writers on one CPU than it has slots,
 * and a process that creates files on the same CPU meanwhile: it must
 * finish while the faults are still unserved, and every write completes
 * once they are. The module is loaded again with few slots (wp_slots),
 * so that a few hundred writers are more than a CPU has; the default
 * comes back after each test, even one that times out.
 *
 * Needs root, pramfs as a module at PRAMFS_KO, CONFIG_USERFAULTFD, and
 * PRAM_PHYS and PRAM_SIZE in the environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "pramfs_util.h"

/*
 * With the window held, each stalled one-block write (a new file's
 * block 0: one slot) would take one of the CPU's slots: more writers
 * than slots leave none for anyone else.
 */
#define SLOTS		"256"
#define DEFAULT_SLOTS	4096
#define EXTRA_WRITERS	64
#define WRITE_LEN	4096
#define CREATES		50
#define CREATE_LIMIT_S	20

static void pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A mapping whose first touch waits on @uffd, until the fault is served. */
static void *stuck_buffer(int *uffd, size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	void *buf;

	/* Non-blocking: poll() says EPOLLERR on a blocking one at once. */
	*uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (*uffd < 0 || ioctl(*uffd, UFFDIO_API, &api))
		return NULL;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return NULL;
	reg.range.start = (unsigned long)buf;
	reg.range.len = len;
	return ioctl(*uffd, UFFDIO_REGISTER, &reg) ? NULL : buf;
}

struct stuck_write {
	int fd;
	void *buf;
	size_t len;
	ssize_t done;
};

static void *do_write(void *arg)
{
	struct stuck_write *w = arg;

	w->done = write(w->fd, w->buf, w->len);
	return NULL;
}

/* Wait at most @secs seconds for @fd to be readable: 1 if it is. */
static int readable(int fd, int secs)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, secs * 1000) == 1 && (p.revents & POLLIN);
}

/*
 * A writer: its write(2) of a userfaultfd-backed buffer to a new empty
 * file (made by the parent, so that no create waits behind the writes)
 * waits in the fault; once the fault is reported on the userfaultfd, it
 * says so on the pipe @ready, and when the parent says "go" on the pipe
 * @go the fault is served with zeros. Exits 0 if the whole write then
 * went through.
 */
static int writer(int i, const int go[2], const int ready[2], size_t len)
{
	struct uffdio_zeropage zero = { .mode = 0 };
	struct stuck_write w = { .len = len };
	pthread_t t;
	char name[32], c;
	int uffd;

	/* Only the parent writes "go": its death ends the wait. */
	close(go[1]);
	close(ready[0]);
	pin_to_cpu0();
	snprintf(name, sizeof(name), "w%d", i);
	w.fd = open(at(name), O_RDWR);
	w.buf = stuck_buffer(&uffd, len);
	if (w.fd < 0 || !w.buf || pthread_create(&t, NULL, do_write, &w))
		return 2;
	/* The fault (or the prefault before the window) is reported. */
	readable(uffd, 60);
	if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
		return 3;
	zero.range.start = (unsigned long)w.buf;
	zero.range.len = len;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero))
		return 4;
	pthread_join(t, NULL);
	return w.done == (ssize_t)len ? 0 : 5;
}

/* Create CREATES files on CPU 0; exit 0 when done. */
static int creator(const int go[2], const int ready[2])
{
	char name[32];
	int i, fd;

	/* Not to keep the writers waiting if the test dies. */
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	pin_to_cpu0();
	for (i = 0; i < CREATES; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		fd = open(at(name), O_CREAT | O_WRONLY, 0644);
		if (fd < 0 || write(fd, name, strlen(name)) < 0)
			return 1;
		close(fd);
	}
	return 0;
}

/* Empty files w0 ... w<@n - 1>; 0 or -1. */
static int make_files(int n)
{
	char name[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "w%d", i);
		if (put(name, ""))
			return -1;
	}
	return 0;
}

/* Read up to @n bytes from @fd, each within @secs seconds: how many came. */
static int read_each(int fd, int n, int secs)
{
	int got;
	char c;

	for (got = 0; got < n; got++)
		if (!readable(fd, secs) || read(fd, &c, 1) != 1)
			break;
	return got;
}

/* Wait for @pid at most @secs seconds: its exit status, or -1. */
static int wait_for(pid_t pid, int secs)
{
	int status, i;

	for (i = 0; i < secs * 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		usleep(100 * 1000);
	}
	return -1;
}

/*
 * Wait at most @secs seconds in all for the @n processes @pids: how many
 * did not exit with 0 (the rest are killed).
 */
static int wait_all(pid_t *pids, int n, int secs)
{
	int bad = 0, left = 0, status, i, t;

	for (i = 0; i < n; i++)
		left += pids[i] > 0;
	for (t = 0; left && t < secs * 10; t++) {
		for (i = 0; i < n; i++) {
			if (pids[i] <= 0 ||
			    waitpid(pids[i], &status, WNOHANG) != pids[i])
				continue;
			bad += !WIFEXITED(status) || WEXITSTATUS(status);
			pids[i] = 0;
			left--;
		}
		if (left)
			usleep(100 * 1000);
	}
	/* Killed; one asleep in the kernel for good stays for the teardown. */
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (t = 0; left && t < 100; t++) {
		for (i = 0; i < n; i++)
			if (pids[i] > 0 &&
			    waitpid(pids[i], &status, WNOHANG) == pids[i])
				pids[i] = 0;
		usleep(100 * 1000);
	}
	return bad + left;
}

/* Is @pid still a process of this program (not a pid given again)? */
static bool ours(pid_t pid)
{
	char link[64], exe[512], self_exe[512];
	ssize_t n, m;

	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	n = readlink(link, exe, sizeof(exe));
	m = readlink("/proc/self/exe", self_exe, sizeof(self_exe));
	return n > 0 && n == m && !memcmp(exe, self_exe, n);
}

#define MAX_PIDS	(256 + EXTRA_WRITERS + 1)

/*
 * Set, in memory every process of this run shares, while pramfs may be
 * loaded with other slots than the default or mounted by a test.
 */
static bool *changed;

static void __attribute__((constructor)) share_changed(void)
{
	changed = mmap(NULL, sizeof(*changed), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (changed == MAP_FAILED)
		changed = NULL;
}

/*
 * The filesystem unmounted and the default slots again, for the tests
 * after these, once the processes a test left are killed.
 */
static void restore_default_slots(void)
{
	int i, err = 0;

	/* Busy while the killed processes still hold their files. */
	for (i = 0; i < 300 && umount(MNT) && errno == EBUSY; i++)
		usleep(100 * 1000);
	for (i = 0; i < 300; i++) {
		err = reload_pramfs("");
		if (err != EBUSY && err != EAGAIN)
			break;
		usleep(100 * 1000);
	}
	if (err)
		fprintf(stderr, "# pramfs not loaded again: %s\n", strerror(err));
	else if (changed)
		*changed = false;
}

/*
 * A test that times out is killed with its process group, the teardown's
 * process too: the next setup restores, and the harness's own process
 * when it exits.
 */
static void restore_if_changed(void)
{
	if (changed && *changed)
		restore_default_slots();
}

static pid_t harness;

static void __attribute__((constructor)) remember_the_harness(void)
{
	harness = getpid();
}

static void __attribute__((destructor)) restore_after_a_kill(void)
{
	if (getpid() == harness)
		restore_if_changed();
}

/* Shared with the teardown, which kills what a failed test left. */
FIXTURE(uffd) {
	struct nvram nv;
	int writers;
	pid_t pids[MAX_PIDS];		/* the writers, then the creator */
};

FIXTURE_SETUP(uffd)
{
	const char *why = missing_prerequisite(&self->nv);
	int fd, err;
	long slots;

	if (why)
		SKIP(return, "%s", why);
	fd = syscall(SYS_userfaultfd, O_CLOEXEC);
	ASSERT_LE(0, fd) {
		TH_LOG("userfaultfd: %s (CONFIG_USERFAULTFD is in the config)",
		       strerror(errno));
	}
	close(fd);
	if (access(PRAMFS_KO, R_OK))
		SKIP(return, "pramfs is not a module at %s", PRAMFS_KO);
	restore_if_changed();
	ASSERT_NE(NULL, changed);
	*changed = true;
	ASSERT_EQ(0, reload_pramfs("wp_slots=" SLOTS)) {
		TH_LOG("cannot load pramfs with wp_slots=%s: %s", SLOTS,
		       strerror(errno));
	}
	if (access(WP_SLOTS_PARAM, R_OK))
		SKIP(return, "no write protection (CONFIG_PRAMFS_WRITE_PROTECT)");
	self->writers = atoi(SLOTS) + EXTRA_WRITERS;
	mkdir(MNT, 0755);
	/* Inodes for every writer and the creator's files. */
	err = do_mount(MNT, 0, "physaddr=%#llx,init=32M,bs=4096,N=%d",
		       self->nv.phys, 2 * self->writers + CREATES);
	slots = read_number(WP_SLOTS_PARAM);
	/* No teardown after a failed setup: the default slots again now. */
	if (err || slots != atoi(SLOTS))
		restore_default_slots();
	ASSERT_EQ(0, err);
	ASSERT_EQ(atoi(SLOTS), slots);
}

/* What a failed test left is killed first. */
FIXTURE_TEARDOWN_PARENT(uffd)
{
	int i;

	for (i = 0; i < MAX_PIDS; i++)
		if (self->pids[i] > 0 && ours(self->pids[i]))
			kill(self->pids[i], SIGKILL);
	restore_default_slots();
}

TEST_F_TIMEOUT(uffd, unserved_faults_hold_no_window, 300)
{
	int go[2], ready[2], i, made, n = self->writers;
	pid_t *writers = self->pids, *maker = &self->pids[n], pid;

	ASSERT_GE(MAX_PIDS, n + 1);	/* SLOTS and MAX_PIDS agree */
	ASSERT_EQ(0, make_files(n));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	/* The pids go in shared memory: a child must not store its 0 there. */
	for (i = 0; i < n; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			_exit(writer(i, go, ready, WRITE_LEN));
		writers[i] = pid;
	}
	/* Each writer says when its fault is reported. */
	EXPECT_EQ(n, read_each(ready[0], n, 30));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(creator(go, ready));
	*maker = pid;
	made = wait_for(pid, CREATE_LIMIT_S);
	if (made >= 0)
		*maker = 0;	/* reaped */
	EXPECT_EQ(0, made) {
		TH_LOG("the creator %s in %d s while %d writes waited",
		       made < 0 ? "did not finish" : "failed", CREATE_LIMIT_S,
		       n);
	}
	/* Serve the faults: every write goes through. */
	for (i = 0; i < n; i++)
		ASSERT_EQ(1, write(go[1], "g", 1));
	EXPECT_EQ(0, wait_all(writers, n + 1, 60)) {
		TH_LOG("writers or the creator failed or did not end in 60 s");
	}
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

/* Write MNT/@name, @len bytes of pattern @seed in 64 KiB calls; 0 or -1. */
static int put_pattern(const char *name, size_t len, unsigned int seed)
{
	static uint8_t buf[64 << 10];
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t off;

	for (off = 0; fd >= 0 && off < len; off += sizeof(buf)) {
		fill_pattern(buf, sizeof(buf), seed, off);
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	}
	if (fd >= 0)
		close(fd);
	return fd >= 0 && off >= len ? 0 : -1;
}

/*
 * -1 if MNT/@name holds what put_pattern() wrote, else the offset of the
 * first byte that differs or is missing (-2: no file).
 */
static long check_file(const char *name, size_t len, unsigned int seed)
{
	static uint8_t buf[64 << 10];
	int fd = open(at(name), O_RDONLY);
	long bad = -1;
	size_t off;

	if (fd < 0)
		return -2;
	for (off = 0; bad == -1 && off < len; off += sizeof(buf)) {
		if (read(fd, buf, sizeof(buf)) != sizeof(buf)) {
			bad = off;
			break;
		}
		bad = check_pattern(buf, sizeof(buf), seed, off);
		if (bad >= 0)
			bad += off;
	}
	close(fd);
	return bad;
}

/*
 * wp_slots out of its range is refused at load, with EINVAL; the most
 * are taken, and few (not a multiple of a bitmap word) serve 16-page
 * windows through many wraps of the pool.
 */
TEST_F_TIMEOUT(uffd, slot_counts_are_checked_and_few_serve, 120)
{
	static const char *const bad[] = { "255", "65537", "0", "-1", "many" };
	char params[64];
	unsigned int i;

	ASSERT_EQ(0, umount(MNT));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(params, sizeof(params), "wp_slots=%s", bad[i]);
		EXPECT_EQ(EINVAL, reload_pramfs(params)) {
			TH_LOG("%s was accepted", params);
		}
	}
	ASSERT_EQ(0, reload_pramfs("wp_slots=65536"));
	EXPECT_EQ(65536, read_number(WP_SLOTS_PARAM));
	ASSERT_EQ(0, reload_pramfs("wp_slots=300"));
	EXPECT_EQ(300, read_number(WP_SLOTS_PARAM));
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx", self->nv.phys));
	ASSERT_EQ(0, put_pattern("big", 4 << 20, 7));
	remount(_metadata, &self->nv);
	EXPECT_EQ(-1, check_file("big", 4 << 20, 7));
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, reload_pramfs(""));
	EXPECT_EQ(DEFAULT_SLOTS, read_number(WP_SLOTS_PARAM));
}

/*
 * In /proc now: the test process that harness @parent runs (it leads its
 * process group), in @test unless found before; how many are in its group.
 */
static int test_group(pid_t parent, pid_t *test)
{
	DIR *d = opendir("/proc");
	char path[300], stat[512], *end;
	int pid, ppid, pgrp, members = 0;
	struct dirent *e;
	FILE *f;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* After the name in parentheses, which may hold anything. */
		end = fgets(stat, sizeof(stat), f) ? strrchr(stat, ')') : NULL;
		if (end && sscanf(end + 1, " %*c %d %d", &ppid, &pgrp) == 2) {
			pid = atoi(e->d_name);
			if (!*test && ppid == parent && pgrp == pid)
				*test = pid;
			members += *test && pgrp == *test;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return members;
}

/* This program again, with the harness's option @opt @arg, its output in @out. */
static pid_t run_again(const char *opt, const char *arg, const char *out)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(127);
	execl("/proc/self/exe", "pramfs_uffd_test", opt, arg, (char *)NULL);
	_exit(127);
}

/* Is @line a line of the file @path? */
static bool has_line(const char *path, const char *line)
{
	FILE *f = fopen(path, "r");
	char buf[512];
	bool found = false;

	while (f && !found && fgets(buf, sizeof(buf), f))
		found = !strncmp(buf, line, strlen(line)) &&
			buf[strlen(line)] == '\n';
	if (f)
		fclose(f);
	return found;
}

FIXTURE(killed) {
	struct nvram nv;
	pid_t harness, test;	/* the program run again, its test process */
};

FIXTURE_SETUP(killed)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	restore_if_changed();
	if (access(PRAMFS_KO, R_OK) || access(WP_SLOTS_PARAM, R_OK))
		SKIP(return, "no pramfs module with write protection");
	/* The runs it makes change them; this one's harness restores. */
	ASSERT_NE(NULL, changed);
	*changed = true;
}

FIXTURE_TEARDOWN_PARENT(killed)
{
	if (self->test > 0)
		kill(-self->test, SIGKILL);
	if (self->harness > 0)
		kill(self->harness, SIGKILL);
	restore_default_slots();
}

/*
 * This program again with @opt @arg (its pid in @harness, its test's in
 * @test, 0 once reaped), its first test (the stalled writes) killed with
 * its process group while its writers wait in their faults, holding
 * their files, as the harness kills a test that times out: how it
 * exits, or -1.
 */
static int kill_first_test(pid_t *harness, pid_t *test, const char *opt,
			   const char *arg, const char *out)
{
	/*
	 * The test's process, its body (a fork of it) and some writers:
	 * they are all forked, and their faults served, soon after.
	 */
	int status, members = 0, all = EXTRA_WRITERS + 2;
	time_t end = time(NULL) + 60;

	*test = 0;
	*harness = run_again(opt, arg, out);
	if (*harness < 0)
		return -1;
	while (members < all && time(NULL) < end) {
		usleep(50 * 1000);
		members = test_group(*harness, test);
	}
	if (members < all || kill(-*test, SIGKILL))
		return -1;
	/* The restore may wait a minute, then the next test runs. */
	status = wait_for(*harness, 180);
	if (status >= 0)
		*harness = *test = 0;	/* reaped, its group gone */
	return status;
}

/* Nothing mounted, pramfs loaded with the default slots. */
static bool defaults(void)
{
	char line[256];

	return mount_line(MNT, line, sizeof(line)) &&
	       read_number(WP_SLOTS_PARAM) == DEFAULT_SLOTS;
}

/*
 * A test the harness times out is killed with its process group: the
 * harness, as it exits, unmounts and loads pramfs again with the default
 * slots; and when another test follows, its setup does so first (and it
 * passes).
 */
TEST_F_TIMEOUT(killed, a_timed_out_test_leaves_the_defaults, 600)
{
	const char *alone = "/tmp/pramfs-uffd-alone.out";
	const char *all = "/tmp/pramfs-uffd-all.out";

	EXPECT_EQ(KSFT_FAIL, kill_first_test(&self->harness, &self->test, "-t",
					     "unserved_faults_hold_no_window",
					     alone)) {
		TH_LOG("the harness did not report the killed test: see %s",
		       alone);
	}
	EXPECT_TRUE(defaults());
	EXPECT_EQ(KSFT_FAIL, kill_first_test(&self->harness, &self->test,
					     "-f", "uffd", all)) {
		TH_LOG("the harness did not report the killed test: see %s", all);
	}
	EXPECT_TRUE(has_line(all, "ok 2 uffd.slot_counts_are_checked_and_few_serve")) {
		TH_LOG("the test after the killed one failed: see %s", all);
	}
	EXPECT_TRUE(defaults());
}

TEST_HARNESS_MAIN
