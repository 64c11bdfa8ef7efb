// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's own measuring program, run in the guest by
 * qemu/bench/guest.sh for every filesystem alike. Each command prints
 * "figure value" lines; the script adds the filesystem and the unit.
 *
 *   memcpy MB PASSES          copy MB in 1 MiB chunks and in 4 KiB chunks
 *                             at random offsets, PASSES times each: MB/s
 *                             (the memory limit)
 *   meta DIR N SIZE           create N files of SIZE bytes, stat, rename
 *                             and unlink them, and with SIZE 0 replace
 *                             too: files per second for each
 *   replace DIR N             only meta's replace, in a new DIR
 *   create DIR N              N empty files in a new DIR: us per entry
 *                             (names of BENCH_NAME_LEN bytes, 12 to 255,
 *                             if set, for create, lookup and readdir)
 *   lookup DIR N              stat them in a shuffled order: us per entry
 *   readdir DIR N             list DIR, checking N entries, in as many
 *                             passes as read READDIR_MIN entries or more
 *                             (one at READDIR_MIN or over): us per entry
 *   mount TYPE SRC DIR OPTS   one mount(2): us
 *   odirect DIR               exit 0 if the filesystem takes O_DIRECT
 *   mkfile FILE MB            write FILE: MB in 1 MiB writes, then fsync
 *   mmapread FILE             map FILE shared and read-only, and read it
 *                             start to end, 8 bytes at a time: MB/s
 *   exec PROG N               run "PROG noop" N times, one after the
 *                             other: ms for all N
 *   noop                      exit 0 at once
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int die(const char *what)
{
	fprintf(stderr, "pramfs_bench: %s: %s\n", what, strerror(errno));
	return 1;
}

/* Entry names' length: 12 bytes, or BENCH_NAME_LEN (up to 255). */
static unsigned int name_len = 12;

static void entry_path(char *buf, size_t len, const char *dir, unsigned int i)
{
	int n = snprintf(buf, len, "%s/entry-%06u", dir, i);

	if (n > 0 && n + name_len - 12 < len) {
		memset(buf + n, 'x', name_len - 12);
		buf[n + name_len - 12] = 0;
	}
}

/* A permutation of 0..n-1, the same for the same n. */
static unsigned int *shuffled(unsigned int n)
{
	unsigned int *order = malloc(n * sizeof(*order)), i, j, t;

	if (!order)
		return NULL;
	for (i = 0; i < n; i++)
		order[i] = i;
	srand(n);
	for (i = n - 1; i > 0; i--) {
		j = rand() % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	return order;
}

/*
 * Copy @total bytes of @src to @dst @passes times, in chunks of @chunk
 * bytes (in the order of @order, one index a chunk, if not NULL); print
 * MB/s as @figure.
 */
static void copy_passes(const char *figure, char *dst, const char *src,
			size_t total, size_t chunk, const unsigned int *order,
			unsigned long passes)
{
	size_t n = total / chunk, i;
	unsigned long p;
	double t0 = now_us();

	for (p = 0; p < passes; p++)
		for (i = 0; i < n; i++)
			memcpy(dst + (order ? order[i] : i) * chunk,
			       src + i * chunk, chunk);
	printf("%s %.1f\n", figure, total * passes / (now_us() - t0));
}

static int cmd_memcpy(unsigned long mb, unsigned long passes)
{
	size_t total = mb << 20;
	char *src = malloc(total), *dst = malloc(total);
	unsigned int *order = shuffled(total / 4096);

	if (!passes) {
		fprintf(stderr, "pramfs_bench: memcpy: PASSES: 1 or more\n");
		return 2;
	}
	if (!src || !dst || !order)
		return die("malloc");
	memset(src, 0x5a, total);
	memset(dst, 0xa5, total);	/* both faulted in before timing */
	copy_passes("copy-1m", dst, src, total, 1 << 20, NULL, passes);
	copy_passes("copy-4k-random", dst, src, total, 4096, order, passes);
	return dst[total - 1] != 0x5a;
}

/*
 * The atomic replace (write a new file, rename it over the old one), n - 1
 * times: n empty files, each renamed over the next; the last is removed.
 * sync(2) between the two also starts `make profile`'s count.
 */
static int meta_replace(const char *dir, unsigned int n)
{
	char path[512], target[512];
	unsigned int i;
	double t0;
	int fd;

	for (i = 0; i < n; i++) {
		entry_path(path, sizeof(path), dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 || close(fd))
			return -1;
	}
	sync();
	t0 = now_us();
	for (i = 0; i + 1 < n; i++) {
		entry_path(path, sizeof(path), dir, i);
		entry_path(target, sizeof(target), dir, i + 1);
		if (rename(path, target))
			return -1;
	}
	printf("replace %.1f\n", (n - 1) / (now_us() - t0) * 1e6);
	entry_path(path, sizeof(path), dir, n - 1);
	return unlink(path);
}

static int cmd_meta(const char *dir, unsigned int n, size_t size)
{
	char path[512], target[512], *buf = calloc(1, size + 1);
	struct stat st;
	unsigned int i;
	double t0;
	int fd;

	if (!buf || mkdir(dir, 0755))
		return die(dir);
	t0 = now_us();
	for (i = 0; i < n; i++) {
		entry_path(path, sizeof(path), dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 || write(fd, buf, size) != (ssize_t)size || close(fd))
			return die("create");
	}
	printf("create %.1f\n", n / (now_us() - t0) * 1e6);
	t0 = now_us();
	for (i = 0; i < n; i++) {
		entry_path(path, sizeof(path), dir, i);
		if (stat(path, &st) || (size_t)st.st_size != size)
			return die("stat");
	}
	printf("stat %.1f\n", n / (now_us() - t0) * 1e6);
	t0 = now_us();
	for (i = 0; i < n; i++) {
		entry_path(path, sizeof(path), dir, i);
		entry_path(target, sizeof(target), dir, n + i);
		if (rename(path, target))
			return die("rename");
	}
	printf("rename %.1f\n", n / (now_us() - t0) * 1e6);
	t0 = now_us();
	for (i = 0; i < n; i++) {
		entry_path(path, sizeof(path), dir, n + i);
		if (unlink(path))
			return die("unlink");
	}
	printf("unlink %.1f\n", n / (now_us() - t0) * 1e6);
	if (!size && meta_replace(dir, n))
		return die("rename over");
	return rmdir(dir) ? die("rmdir") : 0;
}

static int cmd_replace(const char *dir, unsigned int n)
{
	if (mkdir(dir, 0755))
		return die(dir);
	if (n < 2 || meta_replace(dir, n))
		return die("rename over");
	return rmdir(dir) ? die("rmdir") : 0;
}

static int cmd_create(const char *dir, unsigned int n)
{
	char path[512];
	unsigned int i;
	double t0;
	int fd;

	if (mkdir(dir, 0755))
		return die(dir);
	t0 = now_us();
	for (i = 0; i < n; i++) {
		entry_path(path, sizeof(path), dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 || close(fd))
			return die("create");
	}
	printf("create %.2f\n", (now_us() - t0) / n);
	return 0;
}

static int cmd_lookup(const char *dir, unsigned int n)
{
	unsigned int *order = shuffled(n), i;
	char path[512];
	struct stat st;
	double t0;

	if (!order)
		return die("malloc");
	t0 = now_us();
	for (i = 0; i < n; i++) {
		entry_path(path, sizeof(path), dir, order[i]);
		if (stat(path, &st))
			return die("stat");
	}
	printf("lookup %.2f\n", (now_us() - t0) / n);
	return 0;
}

/* One pass over @dir: how many of its entries are the benchmark's. */
static int readdir_pass(const char *dir, unsigned int *seen)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	*seen = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		*seen += strncmp(e->d_name, "entry-", 6) == 0;
	return closedir(d);
}

/*
 * A directory of 100 entries lists in about half a millisecond under
 * TCG, too short for one timing to mean much: small directories are
 * listed again, each pass with its own opendir() and closedir(), until
 * READDIR_MIN entries were read.
 */
#define READDIR_MIN	10000

static int cmd_readdir(const char *dir, unsigned int n)
{
	unsigned int passes = n && n < READDIR_MIN ? READDIR_MIN / n : 1;
	unsigned int seen = 0, i;
	double t0 = now_us();

	for (i = 0; i < passes; i++) {
		if (readdir_pass(dir, &seen) || seen != n) {
			fprintf(stderr, "pramfs_bench: readdir saw %u of %u\n",
				seen, n);
			return 1;
		}
	}
	printf("readdir %.3f\n", (now_us() - t0) / ((double)n * passes));
	return 0;
}

static int cmd_mount(const char *type, const char *src, const char *dir,
		     const char *opts)
{
	double t0 = now_us();

	if (mount(src, dir, type, 0, opts))
		return die("mount");
	printf("mount %.1f\n", now_us() - t0);
	return 0;
}

static int cmd_odirect(const char *dir)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/.odirect", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_DIRECT, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	return 0;
}

static int cmd_mkfile(const char *path, unsigned long mb)
{
	char *buf = malloc(1 << 20);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	unsigned long i;

	if (!buf || fd < 0)
		return die(path);
	for (i = 0; i < mb; i++) {
		memset(buf, i + 1, 1 << 20);
		if (write(fd, buf, 1 << 20) != 1 << 20)
			return die("write");
	}
	return fsync(fd) || close(fd) ? die("fsync") : 0;
}

static int cmd_mmapread(const char *path)
{
	int fd = open(path, O_RDONLY);
	const uint64_t *w;
	uint64_t sum = 0;
	struct stat st;
	size_t i;
	double t0;

	if (fd < 0 || fstat(fd, &st))
		return die(path);
	t0 = now_us();
	w = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (w == MAP_FAILED)
		return die("mmap");
	for (i = 0; i < st.st_size / sizeof(*w); i++)
		sum += w[i];
	munmap((void *)w, st.st_size);
	printf("seq-read %.1f\n", st.st_size / (now_us() - t0));
	close(fd);
	/* Each MiB i is bytes i + 1: the sum proves every byte was read. */
	return sum == 0;
}

static int cmd_exec(const char *prog, unsigned int n)
{
	unsigned int i;
	int status;
	double t0;
	pid_t pid;

	t0 = now_us();
	for (i = 0; i < n; i++) {
		pid = fork();
		if (!pid) {
			execl(prog, prog, "noop", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
			return die(prog);
	}
	printf("start-%ux %.2f\n", n, (now_us() - t0) / 1e3);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "memcpy") && argc == 4)
		return cmd_memcpy(strtoul(argv[2], NULL, 0),
				  strtoul(argv[3], NULL, 0));
	if (getenv("BENCH_NAME_LEN"))
		name_len = strtoul(getenv("BENCH_NAME_LEN"), NULL, 0);
	if (name_len < 12 || name_len > 255)
		return die("BENCH_NAME_LEN: 12 to 255");
	if (!strcmp(cmd, "meta") && argc == 5)
		return cmd_meta(argv[2], strtoul(argv[3], NULL, 0),
				strtoul(argv[4], NULL, 0));
	if (!strcmp(cmd, "replace") && argc == 4)
		return cmd_replace(argv[2], strtoul(argv[3], NULL, 0));
	if (!strcmp(cmd, "create") && argc == 4)
		return cmd_create(argv[2], strtoul(argv[3], NULL, 0));
	if (!strcmp(cmd, "lookup") && argc == 4)
		return cmd_lookup(argv[2], strtoul(argv[3], NULL, 0));
	if (!strcmp(cmd, "readdir") && argc == 4)
		return cmd_readdir(argv[2], strtoul(argv[3], NULL, 0));
	if (!strcmp(cmd, "mount") && argc == 6)
		return cmd_mount(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "odirect") && argc == 3)
		return cmd_odirect(argv[2]);
	if (!strcmp(cmd, "mkfile") && argc == 4)
		return cmd_mkfile(argv[2], strtoul(argv[3], NULL, 0));
	if (!strcmp(cmd, "mmapread") && argc == 3)
		return cmd_mmapread(argv[2]);
	if (!strcmp(cmd, "exec") && argc == 4)
		return cmd_exec(argv[2], strtoul(argv[3], NULL, 0));
	if (!strcmp(cmd, "noop") && argc == 2)
		return 0;
	fprintf(stderr, "usage: see the comment at the top of pramfs_bench.c\n");
	return 2;
}
