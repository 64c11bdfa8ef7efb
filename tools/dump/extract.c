// SPDX-License-Identifier: GPL-2.0-only
/*
 * pramfs-dump: paths to inodes, and --extract, the rescue: files copied
 * out of an image as far as they can be read. An entry whose record
 * fails its checks is still copied when its type and size can be used
 * (a bad checksum does not stop a rescue), and said so; a block the map
 * cannot give is a hole in the copy, and said so; nothing is followed
 * outside the image.
 *
 * Everything is made relative to the directory it goes in (the *at()
 * calls), never through a symlink and never over an existing entry: an
 * image may hold a symlink and then a file of the same name, and writing
 * through it would write outside @dir.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>
#include "dump.h"

struct extract {
	struct pram_image	*img;
	char			host[PATH_MAX];	/* for messages */
	int			dfd;		/* the directory it goes in */
	const char		*name;		/* its name there */
	int			skipped;
};

__printf(2, 3)
static void skip(struct extract *x, const char *fmt, ...)
{
	char what[PATH_MAX + 16];
	va_list ap;

	snprintf(what, sizeof(what), "%s: skipped", x->host);
	va_start(ap, fmt);
	pram_vwarn(what, fmt, ap);
	va_end(ap);
	x->skipped++;
}

static struct timespec unpack(__le64 t)
{
	struct timespec64 ts = pram_time_unpack(t);

	return (struct timespec) { .tv_sec = ts.tv_sec, .tv_nsec = ts.tv_nsec };
}

/* Mode, owner (when root) and times, as stored. */
static void set_attrs(struct extract *x, const struct pram_inode *pi)
{
	struct timespec times[2] = { unpack(pi->i_atime), unpack(pi->i_mtime) };
	umode_t mode = le16_to_cpu(pi->i_mode);

	if (!geteuid() && fchownat(x->dfd, x->name, le32_to_cpu(pi->i_uid),
				   le32_to_cpu(pi->i_gid), AT_SYMLINK_NOFOLLOW))
		skip(x, "owner: %s", strerror(errno));
	if (!S_ISLNK(mode) && fchmodat(x->dfd, x->name, mode & 07777, 0))
		skip(x, "mode: %s", strerror(errno));
	utimensat(x->dfd, x->name, times, AT_SYMLINK_NOFOLLOW);
}

static bool extract_file(struct extract *x, u32 ino, const struct pram_inode *pi)
{
	const struct pram_geometry *g = &x->img->geo;
	u64 size = le64_to_cpu(pi->i_size), f, n;
	u32 bs = g->blocksize;
	int fd = openat(x->dfd, x->name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	long block;

	if (fd < 0) {
		skip(x, "%s", strerror(errno));
		return false;
	}
	for (f = 0; f < pram_blocks_for_size(g->blocksize_bits, size); f++) {
		/* Through the direct block (INCOMPAT_DIRECT) when it is set. */
		block = pram_file_lookup(g, x->img->base, pi, f);
		n = min_t(u64, bs, size - f * bs);
		if (block < 0)
			skip(x, "inode %u: file block %llu: bad %s, left a hole",
			     ino, (unsigned long long)f,
			     pi->i_type.reg.direct ? "direct block" : "map entry");
		else if (block && pwrite(fd, pram_img_block(x->img, block), n,
					 f * bs) != (ssize_t)n)
			skip(x, "%s", strerror(errno));
	}
	if (ftruncate(fd, size))
		skip(x, "%s", strerror(errno));
	close(fd);
	return true;
}

static bool extract_symlink(struct extract *x, const struct pram_inode *pi)
{
	u32 block = le32_to_cpu(pi->i_type.reg.row_block);
	u64 size = le64_to_cpu(pi->i_size);
	char target[PRAM_MAX_BLOCK_SIZE + 1];

	if (!pram_block_valid(&x->img->geo, block) || size >= x->img->geo.blocksize) {
		skip(x, "bad symlink block or length");
		return false;
	}
	memcpy(target, pram_img_block(x->img, block), size);
	target[size] = 0;
	if (strlen(target) != size) {
		skip(x, "symlink target with a NUL inside");
		return false;
	}
	if (!symlinkat(target, x->dfd, x->name))
		return true;
	skip(x, "%s", strerror(errno));
	return false;
}

/* A device number as the kernel's new_decode_dev() reads it. */
static dev_t decode_dev(u32 dev)
{
	return makedev((dev & 0xfff00) >> 8, (dev & 0xff) | ((dev >> 12) & 0xfff00));
}

static bool extract_node(struct extract *x, const struct pram_inode *pi)
{
	umode_t mode = le16_to_cpu(pi->i_mode);
	dev_t dev = S_ISCHR(mode) || S_ISBLK(mode) ?
		    decode_dev(le32_to_cpu(pi->i_type.dev.rdev)) : 0;

	if (!mknodat(x->dfd, x->name, mode, dev))
		return true;
	skip(x, "%s", strerror(errno));
	return false;
}

static void extract_inode(struct extract *x, u32 ino);

/*
 * One entry: its inode copied under its name; a link entry's inode (a
 * hard link) is copied again, not linked: a rescue makes nothing it
 * would have to find again through paths on the host.
 */
static int extract_entry(void *arg, u32 ino, const struct pram_inode *pi)
{
	struct extract *x = arg;
	size_t len = strlen(x->host);
	char name[PRAM_NAME_MAX + 1];
	u32 n, target = pram_img_target(x->img, ino);

	if (!pi->i_mode)
		return 0;
	if (pram_img_name(x->img, ino, name, &n) || len + 1 + n >= sizeof(x->host) ||
	    !pram_ino_valid(&x->img->geo, target)) {
		fprintf(stderr, "%s: %s: entry %u: skipped: %s\n", pram_prog,
			x->host, ino, "bad name or link");
		x->skipped++;
		return 0;
	}
	snprintf(x->host + len, sizeof(x->host) - len, "/%s", name);
	x->name = x->host + len + 1;
	if (target != ino &&
	    S_ISDIR(le16_to_cpu(pram_img_inode(x->img, target)->i_mode)))
		skip(x, "link entry %u names directory %u", ino, target);
	else
		extract_inode(x, target);
	x->host[len] = 0;
	return 0;
}

static void extract_dir(struct extract *x, u32 ino, const struct pram_inode *pi)
{
	struct pram_dir_scan scan;
	int parent = x->dfd, fd;
	const char *name = x->name;

	/* An existing directory (DIR itself, a repeated name) is merged. */
	if (mkdirat(parent, name, 0700) && errno != EEXIST)
		return skip(x, "%s", strerror(errno));
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return skip(x, "%s", strerror(errno));
	x->dfd = fd;
	pram_dir_scan(&x->img->geo, x->img->base, ino, extract_entry, x, &scan);
	close(fd);
	x->dfd = parent;
	x->name = name;
	set_attrs(x, pi);
}

static void extract_inode(struct extract *x, u32 ino)
{
	const struct pram_inode *pi = pram_img_inode(x->img, ino);
	umode_t mode = le16_to_cpu(pi->i_mode);
	const char *why = NULL;
	bool made;

	if (pram_inode_check(pi, ino, &x->img->geo, &why))
		fprintf(stderr, "%s: %s: inode %u fails its checks (%s): copied as it can be\n",
			pram_prog, x->host, ino, why);
	if (S_ISDIR(mode))
		return extract_dir(x, ino, pi);
	if (S_ISREG(mode) && le64_to_cpu(pi->i_size) >
	    pram_max_file_size(x->img->geo.blocksize_bits))
		return skip(x, "inode %u: size out of range", ino);
	if (S_ISREG(mode))
		made = extract_file(x, ino, pi);
	else if (S_ISLNK(mode))
		made = extract_symlink(x, pi);
	else if (S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode) || S_ISSOCK(mode))
		made = extract_node(x, pi);
	else
		return skip(x, "inode %u: unknown type %o", ino, mode);
	/* Only what was made here: never an entry that was there before. */
	if (made)
		set_attrs(x, pi);
}

/**
 * pram_extract() - copy @paths out of the image into host directory @dir
 * @img: the image
 * @paths: paths from the root; "/" for everything
 * @n: how many
 * @dir: the host directory, made if missing
 *
 * Return: 0 if everything was copied, 1 if something was skipped.
 */
int pram_extract(struct pram_image *img, char **paths, int n, const char *dir)
{
	struct extract x = { .img = img };
	const char *base;
	u32 ino;
	int i;

	if (mkdir(dir, 0755) && errno != EEXIST)
		pram_die("%s: %s", dir, strerror(errno));
	x.dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (x.dfd < 0)
		pram_die("%s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		ino = pram_img_resolve(img, paths[i]);
		base = strrchr(paths[i], '/');
		base = base && base[1] ? base + 1 : ino == PRAM_ROOT_INO ? "" : paths[i];
		snprintf(x.host, sizeof(x.host), "%s%s%s", dir, *base ? "/" : "", base);
		x.name = *base ? base : ".";
		extract_inode(&x, ino);
	}
	close(x.dfd);
	if (x.skipped)
		fprintf(stderr, "%s: %d things skipped\n", pram_prog, x.skipped);
	return x.skipped ? 1 : 0;
}
