// SPDX-License-Identifier: GPL-2.0
/*
 * What write protection costs (a measurement, not a test): write
 * throughput with 4 KiB and with 1 MiB write() calls, 16 MiB each into a
 * new file on a fresh 4 KiB-block PRAMFS, with protection on and with
 * noprotect, alternating, median of five runs. Prints MB/s and the
 * on/off ratio.
 *
 * Needs root, pramfs registered, and PRAM_PHYS and PRAM_SIZE in the
 * environment (qemu/run sets them).
 */
#include <fcntl.h>
#include <time.h>

#include "pramfs_util.h"

#define RUNS		5
#define TOTAL		(16 << 20)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* MB/s writing TOTAL bytes to a new file in @chunk-sized writes, or -1. */
static double write_rate(const struct nvram *nv, const char *opts,
			 size_t chunk, const char *buf)
{
	double t0, t;
	size_t done;
	int fd;

	if (do_mount(MNT, 0, "physaddr=%#llx,init=%llu,bs=4096%s", nv->phys,
		     nv->size, opts))
		return -1;
	fd = open(MNT "/f", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	t0 = now_s();
	for (done = 0; done < TOTAL; done += chunk)
		if (write(fd, buf, chunk) != (ssize_t)chunk)
			return -1;
	t = now_s() - t0;
	close(fd);
	umount(MNT);
	return TOTAL / t / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static const size_t chunks[] = { 4096, 1 << 20 };
	double on[RUNS], off[RUNS];
	char *buf = malloc(1 << 20);
	const char *why;
	struct nvram nv;
	unsigned int i;
	int r;

	why = missing_prerequisite(&nv);
	if (why || !buf) {
		fprintf(stderr, "pramfs_wpbench: %s\n", why ? why : "no memory");
		return 1;
	}
	memset(buf, 0x5a, 1 << 20);
	mkdir(MNT, 0755);
	printf("write MB/s, median of %d (min-max); 16 MiB per run, bs=4096\n", RUNS);
	for (i = 0; i < ARRAY_SIZE(chunks); i++) {
		for (r = 0; r < RUNS; r++) {
			on[r] = write_rate(&nv, "", chunks[i], buf);
			off[r] = write_rate(&nv, ",noprotect", chunks[i], buf);
			if (on[r] < 0 || off[r] < 0) {
				perror("pramfs_wpbench");
				return 1;
			}
		}
		qsort(on, RUNS, sizeof(on[0]), cmp_double);
		qsort(off, RUNS, sizeof(off[0]), cmp_double);
		printf("%4zu KiB writes: protected %7.1f (%.1f-%.1f), noprotect %7.1f (%.1f-%.1f), on/off %.2f\n",
		       chunks[i] >> 10, on[RUNS / 2], on[0], on[RUNS - 1],
		       off[RUNS / 2], off[0], off[RUNS - 1],
		       on[RUNS / 2] / off[RUNS / 2]);
	}
	return 0;
}
