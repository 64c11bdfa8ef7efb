// SPDX-License-Identifier: GPL-2.0
/*
 * The guest half of the random power-cut test (qemu/tests/powercut.sh):
 * a metadata-heavy workload whose every operation is one system call,
 * and its checker.
 *
 *   pramfs_powercut run SEED LOGDIR     W workers, each in MNT/wK, until
 *                                       killed; after each call returns,
 *                                       its number goes to LOGDIR/log-K
 *   pramfs_powercut check SEED LOGDIR   the tree against the model
 *
 * The workers' operations are a pure function of (SEED, K, step), and
 * so is the model of MNT/wK after n steps. A log on the host share (9p:
 * a write returns once the host has it) names the steps that returned
 * before the power went; the step after the last one may have been in
 * flight. check passes when each MNT/wK is exactly the model after n or
 * n + 1 steps, and writes that count back to the log, so the next run
 * goes on from there. Steps: create, append (never over old bytes, which
 * are not journaled), truncate, rename within and across directories
 * (over a file too), unlink, chmod. With the power-cut knob armed
 * (powercut.sh does it for every other cut), a step that returns after
 * the cut is not logged and the worker stops.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MNT		"/mnt/pram"
#define WORKERS		3
#define SLOTS		8
#define MAX_SIZE	24000

#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

/* One file of a worker: slot s is named "f<s>", in wK or in wK/sub. */
struct slot {
	int	used;
	int	sub;		/* in wK/sub */
	unsigned int id;	/* its bytes: byte(id, offset) */
	unsigned int mode;
	long	size;
};

struct model {
	struct slot s[SLOTS];
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static uint8_t byte_of(unsigned int id, long off)
{
	return mix(((uint64_t)id << 32) ^ off) >> 56;
}

/* What step @i of worker @k does. */
struct step {
	enum { CREATE, APPEND, TRUNCATE, RENAME, UNLINK, CHMOD } op;
	int	a, b;		/* slots */
	int	sub;		/* rename: into wK/sub */
	long	n;		/* append: bytes; truncate: new size */
	unsigned int mode;
};

static struct step step_of(const struct model *m, unsigned long seed, int k,
			   long i)
{
	uint64_t r = mix(seed * 1000003 + k * 7919 + i);
	struct step st = { .a = r % SLOTS, .b = (r >> 8) % SLOTS };
	const struct slot *a = &m->s[st.a];

	st.sub = (r >> 16) & 1;
	if (!a->used) {
		st.op = CREATE;
		return st;
	}
	switch ((r >> 20) % 6) {
	case 0:
	case 1:
		st.op = APPEND;
		st.n = 1 + (r >> 32) % 9000;
		if (a->size + st.n <= MAX_SIZE)
			break;
		fallthrough;
	case 2:
		st.op = TRUNCATE;
		st.n = (r >> 32) % (a->size + 1);
		break;
	case 3:
		st.op = st.a == st.b ? CHMOD : RENAME;
		st.mode = 0600 | ((r >> 40) & 077);
		/* Over a file: where it is. */
		if (m->s[st.b].used)
			st.sub = m->s[st.b].sub;
		break;
	case 4:
		st.op = UNLINK;
		break;
	default:
		st.op = CHMOD;
		st.mode = 0600 | ((r >> 40) & 077);
	}
	return st;
}

static void apply(struct model *m, const struct step *st, long i)
{
	struct slot *a = &m->s[st->a], *b = &m->s[st->b];

	switch (st->op) {
	case CREATE:
		*a = (struct slot){ 1, 0, (unsigned int)i, 0644, 0 };
		break;
	case APPEND:
		a->size += st->n;
		break;
	case TRUNCATE:
		a->size = st->n;
		break;
	case RENAME:
		*b = *a;
		b->sub = st->sub;
		a->used = 0;
		break;
	case UNLINK:
		a->used = 0;
		break;
	case CHMOD:
		a->mode = st->mode;
		break;
	}
}

static void model_at(struct model *m, unsigned long seed, int k, long n)
{
	struct step st;
	long i;

	memset(m, 0, sizeof(*m));
	for (i = 1; i <= n; i++) {
		st = step_of(m, seed, k, i);
		apply(m, &st, i);
	}
}

static void path_of(char *buf, size_t len, int k, int sub, int slot)
{
	snprintf(buf, len, MNT "/w%d%s/f%d", k, sub ? "/sub" : "", slot);
}

/* Step @i on the filesystem: one system call that changes it. */
static int run_step(const struct model *m, const struct step *st, int k)
{
	const struct slot *a = &m->s[st->a];
	char pa[128], pb[128];
	uint8_t buf[9000];
	int fd, err = 0;
	long j;

	path_of(pa, sizeof(pa), k, st->op == CREATE ? 0 : a->sub, st->a);
	switch (st->op) {
	case CREATE:
		fd = open(pa, O_WRONLY | O_CREAT | O_EXCL, 0644);
		return fd < 0 ? -1 : close(fd);
	case APPEND:
		for (j = 0; j < st->n; j++)
			buf[j] = byte_of(a->id, a->size + j);
		fd = open(pa, O_WRONLY);
		if (fd < 0)
			return -1;
		if (pwrite(fd, buf, st->n, a->size) != st->n)
			err = -1;
		close(fd);
		return err;
	case TRUNCATE:
		return truncate(pa, st->n);
	case RENAME:
		path_of(pb, sizeof(pb), k, st->sub, st->b);
		return rename(pa, pb);
	case UNLINK:
		return unlink(pa);
	case CHMOD:
		return chmod(pa, st->mode);
	}
	return -1;
}

static long read_log(const char *dir, int k)
{
	char path[256];
	long n = 0, v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/log-%d", dir, k);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%ld", &v) == 1)
		n = v;
	fclose(f);
	return n;
}

static int write_log(const char *dir, int k, long n, int append)
{
	char path[256], line[32];
	int fd, len;

	snprintf(path, sizeof(path), "%s/log-%d", dir, k);
	fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
	if (fd < 0)
		return -1;
	len = snprintf(line, sizeof(line), "%ld\n", n);
	if (write(fd, line, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/*
 * Has the power-cut knob cut the power? A step that returned before it
 * did is durable; one after it is not, and is not logged: after a real
 * power cut nothing returns.
 */
static int power_gone(void)
{
	char c = 'N';
	int fd = open("/sys/module/pramfs/parameters/crashed", O_RDONLY);

	if (fd < 0)
		return 0;
	if (read(fd, &c, 1) != 1)
		c = 'N';
	close(fd);
	return c == 'Y';
}

static void run_worker(unsigned long seed, const char *logdir, int k)
{
	char dir[64];
	struct model m;
	struct step st;
	long i = read_log(logdir, k);

	snprintf(dir, sizeof(dir), MNT "/w%d", k);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), MNT "/w%d/sub", k);
	mkdir(dir, 0755);
	model_at(&m, seed, k, i);
	for (i++;; i++) {
		st = step_of(&m, seed, k, i);
		if (run_step(&m, &st, k)) {
			fprintf(stderr, "powercut: worker %d step %ld (op %d): %s\n",
				k, i, st.op, strerror(errno));
			exit(1);
		}
		apply(&m, &st, i);
		if (power_gone())
			exit(0);
		if (write_log(logdir, k, i, 1))
			exit(1);
	}
}

/* Does MNT/wK hold exactly @m? Why not, in @why. */
static int matches(const struct model *m, int k, char *why, size_t len)
{
	char path[128];
	uint8_t buf[MAX_SIZE];
	struct stat st;
	int s, sub, fd, found = 0;
	DIR *d;
	struct dirent *e;
	long j;

	for (sub = 0; sub < 2; sub++) {
		snprintf(path, sizeof(path), MNT "/w%d%s", k, sub ? "/sub" : "");
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d)))
			found += e->d_name[0] == 'f';
		closedir(d);
	}
	for (s = 0; s < SLOTS; s++) {
		if (!m->s[s].used)
			continue;
		found--;
		path_of(path, sizeof(path), k, m->s[s].sub, s);
		if (lstat(path, &st) || (st.st_mode & 07777) != m->s[s].mode ||
		    st.st_size != m->s[s].size) {
			snprintf(why, len, "%s: missing, or mode or size differ", path);
			return 0;
		}
		fd = open(path, O_RDONLY);
		if (fd < 0 || read(fd, buf, st.st_size) != st.st_size) {
			snprintf(why, len, "%s: unreadable", path);
			if (fd >= 0)
				close(fd);
			return 0;
		}
		close(fd);
		for (j = 0; j < st.st_size; j++)
			if (buf[j] != byte_of(m->s[s].id, j)) {
				snprintf(why, len, "%s: byte %ld differs", path, j);
				return 0;
			}
	}
	if (found) {
		snprintf(why, len, "w%d: %d files the model does not have", k, found);
		return 0;
	}
	return 1;
}

static int check_all(unsigned long seed, const char *logdir)
{
	char why[2][256];
	struct model m;
	int k, bad = 0;
	long n;

	for (k = 0; k < WORKERS; k++) {
		n = read_log(logdir, k);
		model_at(&m, seed, k, n);
		if (matches(&m, k, why[0], sizeof(why[0]))) {
			printf("powercut: w%d: after step %ld\n", k, n);
		} else {
			model_at(&m, seed, k, n + 1);
			if (matches(&m, k, why[1], sizeof(why[1]))) {
				printf("powercut: w%d: after step %ld (in flight)\n",
				       k, n + 1);
				n++;
			} else {
				printf("powercut: w%d: FAIL: neither step %ld (%s) nor %ld (%s)\n",
				       k, n, why[0], n + 1, why[1]);
				bad++;
				continue;
			}
		}
		if (write_log(logdir, k, n, 0))
			bad++;
	}
	printf("powercut: check %s\n", bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long seed;
	int k;

	if (argc != 4)
		return 2;
	seed = strtoul(argv[2], NULL, 0);
	if (!strcmp(argv[1], "check"))
		return check_all(seed, argv[3]);
	if (strcmp(argv[1], "run"))
		return 2;
	for (k = 0; k < WORKERS; k++)
		if (!fork())
			run_worker(seed, argv[3], k);
	printf("powercut: running\n");
	fflush(stdout);
	while (wait(NULL) > 0)
		;
	return 1;
}
