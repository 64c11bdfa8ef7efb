// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS directory scale figures (a measurement, not a test): for 100,
 * 1,000 and 10,000 entries in one directory, the time per entry to
 * create them, to look each up cold (after a remount, in a shuffled
 * order), and to list them with readdir. Each figure is the median of
 * three runs on a fresh filesystem, with the smallest and largest.
 *
 * Needs root, pramfs registered, and PRAM_PHYS and PRAM_SIZE in the
 * environment (qemu/run sets them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

#include "pramfs_util.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void name(char *buf, size_t len, unsigned int i)
{
	snprintf(buf, len, "%s/d/entry-%06u", MNT, i);
}

static int die(const char *what)
{
	fprintf(stderr, "pramfs_scale: %s: %s\n", what, strerror(errno));
	return 1;
}

#define RUNS	3
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct figures {
	double create, lookup, list;	/* microseconds per entry */
};

/* Per-entry microseconds to create, look up cold, and readdir @n entries. */
static int measure(const struct nvram *nv, unsigned int n, struct figures *f)
{
	unsigned int *order = malloc(n * sizeof(*order)), i, j, t, seen = 0;
	double t0;
	struct dirent *e;
	struct stat st;
	char path[256];
	DIR *d;
	int fd;

	if (!order)
		return die("malloc");
	if (do_mount(MNT, 0, "physaddr=%#llx,init=%llu", nv->phys, nv->size))
		return die("mount init=");
	snprintf(path, sizeof(path), "%s/d", MNT);
	if (mkdir(path, 0755))
		return die("mkdir");
	t0 = now_us();
	for (i = 0; i < n; i++) {
		name(path, sizeof(path), i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			return die("create");
		close(fd);
	}
	f->create = (now_us() - t0) / n;

	if (umount(MNT) || do_mount(MNT, 0, "physaddr=%#llx", nv->phys))
		return die("remount");
	for (i = 0; i < n; i++)
		order[i] = i;
	srand(n);
	for (i = n - 1; i > 0; i--) {
		j = rand() % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	t0 = now_us();
	for (i = 0; i < n; i++) {
		name(path, sizeof(path), order[i]);
		if (stat(path, &st))
			return die("stat");
	}
	f->lookup = (now_us() - t0) / n;

	snprintf(path, sizeof(path), "%s/d", MNT);
	t0 = now_us();
	d = opendir(path);
	while (d && (e = readdir(d)))
		seen += e->d_name[0] == 'e';
	f->list = (now_us() - t0) / n;
	if (!d || seen != n)
		return die("readdir");
	closedir(d);
	umount(MNT);
	free(order);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "median (min-max)" of the figure at @offset in @f. */
static const char *summary(char *buf, size_t len, const struct figures *f,
			   size_t offset)
{
	double v[RUNS];
	int i;

	for (i = 0; i < RUNS; i++)
		v[i] = *(const double *)((const char *)&f[i] + offset);
	qsort(v, RUNS, sizeof(v[0]), cmp_double);
	snprintf(buf, len, "%7.1f (%.1f-%.1f)", v[RUNS / 2], v[0], v[RUNS - 1]);
	return buf;
}

int main(void)
{
	static const unsigned int sizes[] = { 100, 1000, 10000 };
	struct figures f[RUNS];
	char a[32], b[32], c[32];
	const char *why;
	struct nvram nv;
	unsigned int i;
	int r;

	why = missing_prerequisite(&nv);
	if (why) {
		fprintf(stderr, "pramfs_scale: %s\n", why);
		return 1;
	}
	mkdir(MNT, 0755);
	printf("us per entry, median of %d (min-max)\n", RUNS);
	printf("%8s %24s %24s %24s\n", "entries", "create", "cold lookup", "readdir");
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (r = 0; r < RUNS; r++)
			if (measure(&nv, sizes[i], &f[r]))
				return 1;
		printf("%8u %24s %24s %24s\n", sizes[i],
		       summary(a, sizeof(a), f, offsetof(struct figures, create)),
		       summary(b, sizeof(b), f, offsetof(struct figures, lookup)),
		       summary(c, sizeof(c), f, offsetof(struct figures, list)));
	}
	return 0;
}
