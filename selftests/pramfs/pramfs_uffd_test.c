// SPDX-License-Identifier: GPL-2.0
/*
 * A write whose user buffer cannot be read for a long time (a
 * userfaultfd that is not served) must not hold PRAMFS's write windows:
 * a copy from user memory inside a window could sleep with the CPU's
 * window slots taken, while other writers wait for a slot with s_lock or
 * a record lock held. Many such writers on one CPU, and a process that
 * creates files on the same CPU meanwhile: it must finish while the
 * faults are still unserved, and every write completes once they are.
 *
 * Needs root, pramfs registered, CONFIG_USERFAULTFD, and PRAM_PHYS and
 * PRAM_SIZE in the environment (qemu/run sets them).
 */
#define _GNU_SOURCE
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
 * With the window held, each stalled one-block write would take one of
 * the CPU's 511 window slots: more writers than slots leave none for
 * anyone else. (Bigger writes take up to 16 slots each, but leave holes
 * that one-slot windows still fit in, so they prove less.)
 */
#define WRITERS		520
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

	*uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
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

/*
 * A writer: its write(2) of a userfaultfd-backed buffer to a new file
 * waits in the fault; it says so on @ready, and when the parent says "go"
 * on @go the fault is served with zeros. Exits 0 if the whole write then
 * went through.
 */
static int writer(int i, int go, int ready, size_t len)
{
	struct uffdio_zeropage zero = { .mode = 0 };
	struct stuck_write w = { .len = len };
	pthread_t t;
	char name[32], c;
	int uffd;

	pin_to_cpu0();
	snprintf(name, sizeof(name), "w%d", i);
	w.fd = open(at(name), O_CREAT | O_RDWR, 0644);
	w.buf = stuck_buffer(&uffd, len);
	if (w.fd < 0 || !w.buf || pthread_create(&t, NULL, do_write, &w))
		return 2;
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		return 3;
	zero.range.start = (unsigned long)w.buf;
	zero.range.len = len;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero))
		return 4;
	pthread_join(t, NULL);
	return w.done == (ssize_t)len ? 0 : 5;
}

/* Create CREATES files on CPU 0; exit 0 when done. */
static int creator(void)
{
	char name[32];
	int i, fd;

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

FIXTURE(uffd) {
	struct nvram nv;
};

FIXTURE_SETUP(uffd)
{
	const char *why = missing_prerequisite(&self->nv);
	int fd;

	if (why)
		SKIP(return, "%s", why);
	fd = syscall(SYS_userfaultfd, O_CLOEXEC);
	ASSERT_LE(0, fd) {
		TH_LOG("userfaultfd: %s (CONFIG_USERFAULTFD is in the config)",
		       strerror(errno));
	}
	close(fd);
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=32M,bs=4096",
			      self->nv.phys));
}

FIXTURE_TEARDOWN_PARENT(uffd)
{
	umount2(MNT, MNT_DETACH);
}

TEST_F_TIMEOUT(uffd, unserved_faults_hold_no_window, 300)
{
	pid_t writers[WRITERS], maker;
	int go[2], ready[2], i, made;
	char c;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	for (i = 0; i < WRITERS; i++) {
		writers[i] = fork();
		ASSERT_LE(0, writers[i]);
		if (!writers[i])
			_exit(writer(i, go[0], ready[1], WRITE_LEN));
	}
	for (i = 0; i < WRITERS; i++)
		ASSERT_EQ(1, read(ready[0], &c, 1));
	/* Let the last writes reach their faults. */
	sleep(2);
	maker = fork();
	ASSERT_LE(0, maker);
	if (!maker)
		_exit(creator());
	made = wait_for(maker, CREATE_LIMIT_S);
	EXPECT_EQ(0, made) {
		TH_LOG("the creator %s in %d s while the faults waited",
		       made < 0 ? "did not finish" : "failed", CREATE_LIMIT_S);
	}
	/* Serve the faults: every write goes through. */
	for (i = 0; i < WRITERS; i++)
		ASSERT_EQ(1, write(go[1], "g", 1));
	if (made < 0)
		EXPECT_EQ(0, wait_for(maker, 60));
	for (i = 0; i < WRITERS; i++)
		EXPECT_EQ(0, wait_for(writers[i], 60));
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

TEST_HARNESS_MAIN
