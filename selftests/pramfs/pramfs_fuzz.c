// SPDX-License-Identifier: GPL-2.0
/*
 * pramfs_fuzz N SEED OUT: the guest half of make fuzz (qemu/tests/fuzz.sh).
 *
 * Seed images are made by the kernel itself, by a workload at each block
 * size: nested directories, a directory of entries with gaps, symlinks
 * short and as long as a block, devices and a FIFO, sparse files over
 * several map columns, a file open and unlinked (the image taken while it
 * is mounted), a full inode table, and, through the power-cut knob when
 * the module has it (CONFIG_PRAMFS_CRASH_TEST), a rename and a truncate
 * cut half way (a pending journal, an inode marked TRUNCATE).
 *
 * Image i (0..N-1) is seed i % seeds with 1 to 4 mutations aimed at
 * metadata (the superblocks, the inode table, the bitmap, the journal,
 * map, symlink and attribute blocks): bit and byte flips, fields set to
 * 0, ~0, one past the end, the block of metadata or of another file, an
 * inode's own or an earlier inode number, journal entries of the open
 * transaction with offsets anywhere; three in four with every checksum
 * recomputed, so that the checks behind the checksums run. The mutations of image i come
 * from SEED and i alone.
 *
 * Each image: mounted read-only and walked (readdir, lstat, every byte
 * read and mapped, readlink, every attribute); remounted read-write and changed in every
 * directory (create, write, truncate down and up, rename, mkdir, unlink);
 * everything removable removed; unmounted; mounted and walked again. Then
 * fsck.pramfs -fy on the image as it was mutated: it must not crash, a
 * second fsck.pramfs -fn must find nothing, and the kernel must mount and
 * walk what it repaired. A failure is a kernel report (BUG, WARNING,
 * KASAN, lockdep, a hung task, an oops), an image that takes more than
 * IMAGE_SECS, a store outside the filesystem (guard zones of a pattern on
 * either side of it), or one of the fsck checks: the image, a line of
 * what happened and the kernel log are written to OUT.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include "../kselftest.h"
#include "pramfs_image.h"

#define FS_SIZE		(1u << 20)
#define GUARD		(256u << 10)	/* pattern before and after the fs */
#define IMAGE_SECS	60		/* a bound per step of an image */
#define MAX_SEEDS	24
#define KNOB		"/sys/module/pramfs/parameters/"
#define FSCK		"/usr/sbin/fsck.pramfs"

static struct nvram nv;
static uint8_t *nvmem;			/* the whole NVRAM */
static unsigned long long fs_phys;	/* where the filesystem starts */
#define FS	(nvmem + GUARD)

struct seed {
	char		name[32];
	uint8_t		*img;
};

static struct seed seeds[MAX_SEEDS];
static int nseeds;

/* xorshift64*: image i's stream from SEED and i alone. */
static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (rng * 0x2545F4914F6CDD1DULL) >> 32;
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static void die(const char *what)
{
	fprintf(stderr, "pramfs_fuzz: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Making the seeds, with the kernel. */

static int fs_mount(unsigned long flags, const char *extra)
{
	return do_mount(MNT, flags, "physaddr=%#llx%s", fs_phys, extra);
}

static void add_seed(const char *name)
{
	struct seed *s = &seeds[nseeds];

	if (nseeds == MAX_SEEDS)
		return;
	s->img = malloc(FS_SIZE);
	if (!s->img)
		die("malloc");
	memcpy(s->img, FS, FS_SIZE);
	snprintf(s->name, sizeof(s->name), "%s", name);
	nseeds++;
}

static void write_at(const char *name, off_t off, size_t len)
{
	static char buf[8192];
	int fd = open(at(name), O_CREAT | O_WRONLY, 0644);

	memset(buf, 'a' + off % 26, sizeof(buf));
	while (fd >= 0 && len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		if (pwrite(fd, buf, n, off) != (ssize_t)n)
			break;
		off += n;
		len -= n;
	}
	if (fd >= 0)
		close(fd);
}

/* The workload of the seeds, on a filesystem of block size @bs. */
static void workload(unsigned int bs)
{
	char name[64], target[4096];
	off_t column = (off_t)bs / 4 * bs;	/* file bytes one column maps */
	int i;

	mkdir(at("a"), 0755);
	mkdir(at("a/b"), 0755);
	mkdir(at("a/b/c"), 0700);
	mkdir(at("a/b/c/d"), 0755);
	mkdir(at("many"), 0755);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "many/entry-%02d", i);
		write_at(name, 0, i * 37);
	}
	for (i = 0; i < 40; i += 3) {
		snprintf(name, sizeof(name), "many/entry-%02d", i);
		unlink(at(name));
	}
	symlink("a/b", at("short"));
	memset(target, 'x', bs - 1);
	target[bs - 1] = 0;
	symlink(target, at("a/long"));
	mknod(at("a/chr"), S_IFCHR | 0644, makedev(1, 3));
	mknod(at("a/blk"), S_IFBLK | 0600, makedev(7, 0));
	mknod(at("a/b/fifo"), S_IFIFO | 0644, 0);
	write_at("a/b/c/small", 0, 3000);
	write_at("sparse", 0, bs);
	write_at("sparse", column + bs, 2 * bs);
	write_at("sparse", 3 * column, 1);
	write_at("a/b/c/d/big", 0, 24 * bs);
	/* Hard links, and names of two and of three slots. */
	link(at("a/b/c/small"), at("many/small-again"));
	link(at("a/b/c/small"), at("a/third-name"));
	link(at("a/b/fifo"), at("fifo-too"));
	memset(target, 'n', 255);
	memcpy(target, "many/", 5);
	target[5 + 100] = 0;
	write_at(target, 0, 10);
	target[5 + 100] = 'n';
	target[5 + 250] = 0;
	link(at("sparse"), at(target));
	unlink(at("a/b/c/small"));
	/* Attribute blocks: a user one, two on a directory, a big value. */
	lsetxattr(at("a/b/c/d/big"), "user.colour", "blue", 4, 0);
	lsetxattr(at("a"), "trusted.t", "dir", 3, 0);
	lsetxattr(at("a"), "user.u", target, bs / 4, 0);
	lsetxattr(at("short"), "security.s", "label", 5, 0);
}

static int knob_set(const char *name, long long v)
{
	char path[128];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), KNOB "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	err = fprintf(f, "%lld\n", v) < 0;
	return fclose(f) || err ? -1 : 0;
}

static long long knob_get(const char *name)
{
	char path[128], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), KNOB "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return buf[0] == 'Y' ? 1 : buf[0] == 'N' ? 0 : strtoll(buf, NULL, 0);
}

enum cut_op { CUT_RENAME, CUT_TRUNCATE };

static void cut_op(enum cut_op op)
{
	if (op == CUT_RENAME)
		rename(at("many/entry-01"), at("a/b/c/moved"));
	else
		truncate(at("a/b/c/d/big"), 100);
}

/*
 * The operation cut half way through its persistence points: counted
 * once, then cut at half of that on a fresh copy; the image as the power
 * left it (the unmount persists nothing).
 */
static void cut_seed(unsigned int bs, enum cut_op op, const char *name)
{
	char opts[64];
	long long fences;

	snprintf(opts, sizeof(opts), ",init=%u,bs=%u", FS_SIZE, bs);
	if (fs_mount(0, opts))
		return;
	workload(bs);
	umount(MNT);
	if (fs_mount(0, "") || knob_set("crash_after", INT32_MAX))
		return;
	cut_op(op);
	fences = knob_get("fences");
	knob_set("crash_after", -1);
	umount(MNT);
	/* The operation undone by that mount's recovery: again, cut. */
	if (fences < 2 || fs_mount(0, "") || knob_set("crash_after", fences / 2))
		return;
	cut_op(op);
	umount(MNT);
	knob_set("crash_after", -1);
	add_seed(name);
}

static void make_seeds(void)
{
	static const unsigned int sizes[] = { 512, 1024, 2048, 4096 };
	char opts[64], name[32];
	unsigned int i;
	int fd;

	for (i = 0; i < 4; i++) {
		snprintf(opts, sizeof(opts), ",init=%u,bs=%u", FS_SIZE, sizes[i]);
		if (fs_mount(0, opts))
			die("mount init=");
		workload(sizes[i]);
		fd = open(at("a/open-unlinked"), O_CREAT | O_RDWR, 0644);
		if (fd >= 0 && write(fd, "gone", 4) == 4)
			unlink(at("a/open-unlinked"));
		snprintf(name, sizeof(name), "bs%u-mounted", sizes[i]);
		add_seed(name);
		if (fd >= 0)
			close(fd);
		umount(MNT);
		snprintf(name, sizeof(name), "bs%u", sizes[i]);
		add_seed(name);
	}
	snprintf(opts, sizeof(opts), ",init=%u,bs=1024,N=24", FS_SIZE);
	if (!fs_mount(0, opts)) {
		for (i = 0; i < 64; i++) {
			snprintf(name, sizeof(name), "f%u", i);
			fd = open(at(name), O_CREAT | O_WRONLY, 0644);
			if (fd < 0)
				break;
			close(fd);
		}
		umount(MNT);
		add_seed("full-itable");
	}
	if (!access(KNOB "crash_after", W_OK)) {
		cut_seed(1024, CUT_RENAME, "cut-rename");
		cut_seed(2048, CUT_TRUNCATE, "cut-truncate");
	}
}

/* Mutations. */

struct target {
	uint64_t	off, len;
};

struct layout {
	unsigned int	bs;
	uint32_t	blocks, inodes, bitmap, bitmap_blocks, journal;
	uint32_t	files[64];	/* map, symlink and attribute blocks */
	uint32_t	xattrs[16];	/* attribute blocks */
	unsigned int	nxattrs;
	unsigned int	nfiles;
};

static uint32_t get32(const uint8_t *img, uint64_t off)
{
	return off + 4 <= FS_SIZE ? le_get(img + off, 4) : 0;
}

/* What the seed's own superblock and inodes say: where to aim. */
static void read_layout(const uint8_t *img, struct layout *l)
{
	uint32_t ino, row, i;
	const uint8_t *pi;

	memset(l, 0, sizeof(*l));
	l->bs = get32(img, SB_BLOCKSIZE);
	if (l->bs < 512 || l->bs > 4096)
		l->bs = 1024;
	l->blocks = get32(img, SB_BLOCKS);
	l->inodes = get32(img, SB_INODES);
	l->bitmap = get32(img, SB_BITMAP_START);
	l->bitmap_blocks = get32(img, SB_BITMAP_BLOCKS);
	l->journal = get32(img, SB_JOURNAL);
	for (ino = ROOT_INO; ino < ROOT_INO + l->inodes && l->nfiles < 64; ino++) {
		pi = img + (uint64_t)ino * INODE_SIZE;
		if ((uint64_t)ino * INODE_SIZE + INODE_SIZE > FS_SIZE)
			break;
		row = le_get(pi + I_XATTR, 4);
		if (row && (uint64_t)row * l->bs < FS_SIZE && l->nxattrs < 16 &&
		    l->nfiles < 63) {
			l->xattrs[l->nxattrs++] = row;
			l->files[l->nfiles++] = row;
		}
		if (!S_ISREG(le_get(pi + I_MODE, 2)) && !S_ISLNK(le_get(pi + I_MODE, 2)))
			continue;
		row = le_get(pi + I_DIRECT, 4);
		if (row && (uint64_t)row * l->bs < FS_SIZE)
			l->files[l->nfiles++] = row;
		row = le_get(pi + I_ROW, 4);
		if (!row || (uint64_t)row * l->bs >= FS_SIZE)
			continue;
		l->files[l->nfiles++] = row;
		if (!S_ISREG(le_get(pi + I_MODE, 2)))
			continue;
		for (i = 0; i < l->bs / 4 && l->nfiles < 64; i++) {
			uint32_t col = get32(img, (uint64_t)row * l->bs + 4 * i);

			if (col && (uint64_t)col * l->bs < FS_SIZE)
				l->files[l->nfiles++] = col;
		}
	}
}

/* The region one mutation aims at, and what it is called in the report. */
static struct target pick_target(const struct layout *l, const char **what)
{
	uint64_t bs = l->bs;

	switch (below(6)) {
	case 0:
		*what = "superblock";
		return (struct target){ below(2) * SB_SIZE, SB_SIZE };
	case 1:
	case 2:
		*what = "inode";
		return (struct target){ (uint64_t)(ROOT_INO + below(l->inodes ?: 1)) * INODE_SIZE,
					INODE_SIZE };
	case 3:
		*what = "bitmap";
		return (struct target){ l->bitmap * bs, (l->bitmap_blocks ?: 1) * bs };
	case 4:
		*what = "journal";
		return (struct target){ l->journal * bs, JOURNAL_BYTES };
	default:
		*what = "map, symlink or attribute block";
		if (!l->nfiles)
			return (struct target){ 0, SB_SIZE };
		return (struct target){ l->files[below(l->nfiles)] * bs, bs };
	}
}

/* A value worth putting in a 32-bit field. */
static uint32_t interesting(const struct layout *l, uint32_t self)
{
	switch (below(10)) {
	case 0:
		return 0;
	case 1:
		return ~0u;
	case 2:
		return l->blocks;		/* one past the last block */
	case 3:
		return ROOT_INO + l->inodes;	/* one past the last inode */
	case 4:
		return below(4) ? l->bitmap : l->journal;
	case 5:
		return l->nfiles ? l->files[below(l->nfiles)] : 1;
	case 6:
		return self;			/* its own inode number */
	case 7:
		return ROOT_INO + below(self > ROOT_INO ? self - ROOT_INO : 1);
	case 8:
		return 1u << below(32);
	default:
		return rnd();
	}
}

/*
 * Entries of the open transaction from line 1 on (recovery undoes the run
 * of valid entries that starts there), aimed anywhere.
 */
static void forge_entries(uint8_t *img, uint64_t jstart)
{
	static const uint64_t offs[] = { 0, SB_SIZE, 256, FS_SIZE - 8, FS_SIZE,
					 ~0ULL - 8, 1ULL << 40 };
	unsigned int line, lines = 1 + below(4), i;
	uint64_t off;
	uint8_t *e;

	if (jstart + JOURNAL_BYTES > FS_SIZE)
		return;
	for (line = 1; line <= lines; line++) {
		e = img + jstart + 64 * line;
		off = below(2) ? offs[below(ARRAY_SIZE(offs))] :
				 below(FS_SIZE);
		if (!below(4))
			off = jstart + 64 * below(256);	/* the journal itself */
		le_put(e + 4, 4, le_get(img + jstart + 4, 4));	/* e_gen = j_gen */
		le_put(e + 8, 8, off);
		le_put(e + 16, 2, below(4) ? 1 + below(44) : below(1 << 16));
		le_put(e + 18, 2, below(8) ? line : below(1 << 16));
		for (i = 20; i < 64; i++)
			e[i] = rnd();
		le_put(e, 4, crc32c(~0U, e + 4, 60));
	}
}

/* An attribute block's checksum over the bytes it says are in use. */
static void xattr_resum(uint8_t *img, unsigned int bs, uint32_t block)
{
	uint8_t *b = img + (uint64_t)block * bs;
	uint32_t used = le_get(b + 14, 2);

	if ((uint64_t)block * bs + bs <= FS_SIZE && used >= 16 && used <= bs)
		le_put(b + 4, 4, crc32c(~0U, b + 8, used - 8));
}

/* Every checksum as the kernel computes it, over whatever is there. */
static void resum_all(uint8_t *img, const struct layout *l)
{
	uint64_t j = (uint64_t)l->journal * l->bs;
	uint32_t ino;
	unsigned int line;

	for (ino = ROOT_INO; (uint64_t)(ino + 1) * INODE_SIZE <= FS_SIZE &&
	     ino < ROOT_INO + l->inodes; ino++)
		if (first_nonzero(inode_at(img, ino), INODE_SIZE) >= 0)
			inode_resum(img, ino);
	le_put(img, 4, sb_csum(img));
	le_put(img + SB_SIZE, 4, sb_csum(img + SB_SIZE));
	for (ino = 0; ino < l->nxattrs; ino++)
		xattr_resum(img, l->bs, l->xattrs[ino]);
	for (line = 1; j && j + JOURNAL_BYTES <= FS_SIZE && line < 256; line++)
		if (first_nonzero(img + j + 64 * line, 64) >= 0)
			le_put(img + j + 64 * line, 4,
			       crc32c(~0U, img + j + 64 * line + 4, 60));
}

/* Mutate @img (a copy of a seed); @desc says how. */
static void mutate(uint8_t *img, char *desc, size_t len)
{
	struct layout l;
	struct target t;
	const char *what;
	size_t used = 0;
	uint64_t off;
	int k, n = 1 + below(4), resum = below(4) != 0;

	read_layout(img, &l);
	for (k = 0; k < n; k++) {
		t = pick_target(&l, &what);
		if (!t.len || t.off + t.len > FS_SIZE)
			continue;
		off = t.off + below(t.len);
		switch (below(5)) {
		case 0:
			img[off] ^= 1 << below(8);
			used += snprintf(desc + used, len - used, "%s bit at %#llx; ",
					 what, (unsigned long long)off);
			break;
		case 1:
			img[off] = rnd();
			used += snprintf(desc + used, len - used, "%s byte at %#llx; ",
					 what, (unsigned long long)off);
			break;
		case 2:
			if (!strcmp(what, "journal")) {
				forge_entries(img, t.off);
				used += snprintf(desc + used, len - used, "journal entries; ");
				break;
			}
			/* fall through */
		default:
			off &= ~3ULL;
			le_put(img + off, 4, interesting(&l, (off - 256) / INODE_SIZE + 2));
			used += snprintf(desc + used, len - used, "%s field at %#llx = %#x; ",
					 what, (unsigned long long)off,
					 (unsigned int)le_get(img + off, 4));
		}
		if (used >= len)
			used = len - 1;
	}
	if (resum)
		resum_all(img, &l);
	snprintf(desc + used, len - used, "%s", resum ? "checksums recomputed" :
		 "checksums as they fell");
}

/* Using an image. */

/* Create, write, truncate down and up, rename, mkdir, unlink in @dir. */
static void change_dir(const char *dir, int depth, int *budget)
{
	char a[1024], b[1024], sub[1024];
	struct dirent *e;
	int fd, unlinked = 0;
	DIR *d;

	if (depth > 8 || --*budget < 0)
		return;
	snprintf(a, sizeof(a), "%s/fz.new", dir);
	fd = open(a, O_CREAT | O_RDWR, 0644);
	if (fd >= 0) {
		(void)!write(fd, a, sizeof(a));
		(void)!ftruncate(fd, 100);
		(void)!ftruncate(fd, 9000);
		close(fd);
	}
	snprintf(b, sizeof(b), "%s/fz.renamed", dir);
	rename(a, b);
	snprintf(a, sizeof(a), "%s/fz.dir", dir);
	mkdir(a, 0755);
	snprintf(a, sizeof(a), "%s/fz.dir/fz.moved", dir);
	rename(b, a);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strncmp(e->d_name, "fz.", 3))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= (int)sizeof(sub))
			continue;
		if (e->d_type == DT_DIR)
			change_dir(sub, depth + 1, budget);
		else if (!unlinked++)
			unlink(sub);
	}
	if (d)
		closedir(d);
}

/* The kernel's half of an image, in a child: its exit says how far. */
#define USE_REFUSED	5	/* the read-only mount was refused */
#define USE_RO		6	/* mounted read-only, not read-write */

static void use_image(void)
{
	int budget = 64;

	if (fs_mount(MS_RDONLY, ""))
		_exit(USE_REFUSED);
	walk_all(MNT);
	if (mount("none", MNT, "pramfs", MS_REMOUNT, ""))
		_exit(umount(MNT) ? 3 : USE_RO);
	change_dir(MNT, 0, &budget);
	walk_all(MNT);
	remove_tree(MNT);
	if (umount(MNT))
		_exit(3);
	if (!fs_mount(0, "")) {
		walk_all(MNT);
		if (umount(MNT))
			_exit(3);
	}
	_exit(0);
}

/* The repaired image: it must mount, and be walked. */
static void use_repaired(void)
{
	int err = fs_mount(0, "");

	if (err)
		_exit(4);
	walk_all(MNT);
	_exit(umount(MNT) ? 3 : 0);
}

/*
 * Run @fn in a child (or exec @argv), bounded: its wait status, or -1
 * when it would not die (stuck in the kernel: the run cannot go on).
 */
static int bounded(void (*fn)(void), char *const argv[])
{
	int status, i;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		if (fn)
			fn();
		execv(argv[0], argv);
		_exit(127);
	}
	for (i = 0; i < IMAGE_SECS * 20; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(50000);
	}
	kill(pid, SIGKILL);
	for (i = 0; i < 200; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return 0x7f00;	/* killed at the bound: a hang */
		usleep(50000);
	}
	return -1;
}

/* The kernel log since the last call, scanned for reports. */
static int kmsg_fd = -1;
static char klog[1 << 16];
static size_t klog_len;
static bool klog_pramfs_error;	/* PRAMFS said it found corruption */

static int kmsg_reports(void)
{
	static const char *const bad[] = { "BUG:", "WARNING:", "KASAN", "UBSAN",
		"circular locking", "possible recursive locking", "INFO: task",
		"Oops", "general protection", "stack-protector", "list_add corruption",
		"list_del corruption", "watchdog: BUG", "rcu_sched self-detected",
		"RCU Stall", "leaked", NULL };
	char rec[2048];
	ssize_t n;
	int found = 0, i;

	klog_len = 0;
	while ((n = read(kmsg_fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = 0;
		for (i = 0; bad[i]; i++)
			found |= strstr(rec, bad[i]) != NULL;
		klog_pramfs_error |= strstr(rec, "pramfs") && strstr(rec, "error");
		if (klog_len + n < sizeof(klog)) {
			memcpy(klog + klog_len, rec, n);
			klog_len += n;
		}
	}
	return found;
}

static void fill_guards(void)
{
	fill_pattern(nvmem, GUARD, 7, 0);
	fill_pattern(nvmem + GUARD + FS_SIZE, GUARD, 7, GUARD + FS_SIZE);
}

/* A store outside the filesystem: the guards' pattern changed. */
static int guards_changed(const uint8_t *img)
{
	int bad = check_pattern(nvmem, GUARD, 7, 0) >= 0;

	/* A mutated s_size may give the filesystem the guard after it. */
	if (le_get(img + SB_SIZE_FIELD, 8) <= FS_SIZE &&
	    le_get(img + SB_SIZE + SB_SIZE_FIELD, 8) <= FS_SIZE)
		bad |= check_pattern(nvmem + GUARD + FS_SIZE, GUARD, 7,
				     GUARD + FS_SIZE) >= 0;
	return bad;
}

static const char *out_dir;
static unsigned int run_seed;

static void keep(unsigned int i, const uint8_t *img, const char *why,
		 const char *desc)
{
	char path[512];
	FILE *f;
	int fd;

	printf("fuzz: image %u FAILED: %s (%s)\n", i, why, desc);
	snprintf(path, sizeof(path), "%s/fail-%u-seed%u.img", out_dir, i, run_seed);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0 || write(fd, img, FS_SIZE) != FS_SIZE)
		perror(path);
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/fail-%u-seed%u.log", out_dir, i, run_seed);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "image %u of seed %u: %s\nmutations: %s\n--- kernel log\n%.*s",
			i, run_seed, why, desc, (int)klog_len, klog);
		fclose(f);
	}
}

/* Unmount whatever a child left mounted. */
static void unmount_all(void)
{
	while (!umount2(MNT, MNT_DETACH))
		;
}

/* fsck.pramfs @mode on the filesystem's range. */
static char *const *fsck_argv(const char *mode)
{
	static char phys[32], size[32], m[8], prog[] = FSCK, p[] = "--phys",
		    s[] = "--size";
	static char *const argv[] = { prog, m, p, phys, s, size, NULL };

	snprintf(m, sizeof(m), "%s", mode);
	snprintf(phys, sizeof(phys), "%#llx", fs_phys);
	snprintf(size, sizeof(size), "%u", FS_SIZE);
	return argv;
}

struct tally {
	unsigned int images, failures, refused, repaired, unrepaired;
	unsigned int kernel_refused, kernel_ro, kernel_errors;
};

/* One image; the failure, or NULL. */
static const char *one_image(const uint8_t *img, struct tally *t)
{
	char *const *argv;
	int st;

	memcpy(FS, img, FS_SIZE);
	klog_pramfs_error = false;
	st = bounded(use_image, NULL);
	unmount_all();
	if (st < 0 || st == 0x7f00)
		return st < 0 ? "the kernel would not let go (stuck)" : "hang";
	if (kmsg_reports())
		return "kernel report";
	t->kernel_errors += klog_pramfs_error;
	if (guards_changed(img))
		return "a store outside the filesystem";
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		return "unmount failed";
	t->kernel_refused += WIFEXITED(st) && WEXITSTATUS(st) == USE_REFUSED;
	t->kernel_ro += WIFEXITED(st) && WEXITSTATUS(st) == USE_RO;
	/* fsck.pramfs -fy on the image as it was mutated. */
	memcpy(FS, img, FS_SIZE);
	argv = fsck_argv("-fy");
	st = bounded(NULL, argv);
	if (st < 0 || st == 0x7f00 || WIFSIGNALED(st))
		return "fsck.pramfs -fy crashed or hung";
	if (WEXITSTATUS(st) >= 8) {
		t->refused++;
		return NULL;
	}
	if (WEXITSTATUS(st) == 4) {
		t->unrepaired++;
		return "fsck.pramfs -fy left errors";
	}
	t->repaired += WEXITSTATUS(st) == 1;
	argv = fsck_argv("-fn");
	st = bounded(NULL, argv);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return "fsck.pramfs -fn finds something after -fy";
	st = bounded(use_repaired, NULL);
	unmount_all();
	if (st < 0 || st == 0x7f00)
		return "hang on the repaired image";
	if (kmsg_reports())
		return "kernel report on the repaired image";
	if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
		return "the kernel refuses the repaired image";
	return guards_changed(img) ? "a store outside the filesystem" : NULL;
}

static void quiet_kernel(void)
{
	FILE *f = fopen("/proc/sys/kernel/printk", "w");

	/* The console takes nothing (the log keeps all): thousands of images. */
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
	f = fopen("/proc/sys/kernel/hung_task_timeout_secs", "w");
	if (f) {
		fputs("20\n", f);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	static uint8_t img[FS_SIZE];
	struct tally t = { };
	unsigned int n, i;
	char desc[1024];
	const char *why;
	time_t t0 = time(NULL);

	if (argc != 4) {
		fprintf(stderr, "usage: pramfs_fuzz N SEED OUT\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	run_seed = strtoul(argv[2], NULL, 0);
	out_dir = argv[3];
	if (missing_prerequisite(&nv))
		die(missing_prerequisite(&nv));
	if (nv.size < FS_SIZE + 2 * GUARD)
		die("the NVRAM is too small");
	nvmem = nvram_map(&nv);
	if (!nvmem)
		die("mapping the NVRAM");
	fs_phys = nv.phys + GUARD;
	mkdir(MNT, 0755);
	quiet_kernel();
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd < 0 || lseek(kmsg_fd, 0, SEEK_END) < 0)
		die("/dev/kmsg");
	fill_guards();
	make_seeds();
	if (kmsg_reports() || guards_changed(FS)) {
		printf("fuzz: the seed workload itself fails\n%.*s", (int)klog_len, klog);
		return 1;
	}
	printf("fuzz: %d seed images:", nseeds);
	for (i = 0; i < (unsigned int)nseeds; i++)
		printf(" %s", seeds[i].name);
	printf("\n");
	for (i = 0; i < n; i++) {
		rng = ((uint64_t)run_seed << 32 | i) * 0x9E3779B97F4A7C15ULL | 1;
		memcpy(img, seeds[i % nseeds].img, FS_SIZE);
		snprintf(desc, sizeof(desc), "%s: ", seeds[i % nseeds].name);
		mutate(img, desc + strlen(desc), sizeof(desc) - strlen(desc));
		t.images++;
		why = one_image(img, &t);
		if (why) {
			t.failures++;
			keep(i, img, why, desc);
			fill_guards();
			/* After an oops or a stuck mount, nothing later is sound. */
			if (strstr(why, "stuck") || strstr(why, "kernel report"))
				break;
		}
		if ((i + 1) % 100 == 0)
			printf("fuzz: %u/%u images, %u failures, %ld s\n", i + 1, n,
			       t.failures, (long)(time(NULL) - t0));
		fflush(stdout);
	}
	printf("fuzz: %u images of seed %u, %u failures, in %ld s; the kernel refused %u, mounted %u read-only only, %u read-write, reported corruption in %u; fsck.pramfs -fy repaired %u, left %u with errors, found no filesystem in %u\n",
	       t.images, run_seed, t.failures, (long)(time(NULL) - t0),
	       t.kernel_refused, t.kernel_ro,
	       t.images - t.kernel_refused - t.kernel_ro, t.kernel_errors, t.repaired,
	       t.unrepaired, t.refused);
	return t.failures ? 1 : 0;
}
