// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkfs.pramfs -d DIR: copy a host tree into the new filesystem, as
 * mke2fs -d and mkfs.erofs do, for making a board's image: directories,
 * regular files (sparse ones stay sparse), symlinks, device nodes, FIFOs
 * and sockets, with their modes, owners and nanosecond times. Entries are
 * taken in name order, so the same tree makes the same image. A name
 * over 48 bytes takes name records (the longnames feature); a file with
 * several names in the tree is stored once, its other names link entries
 * (the links feature). Extended attributes and POSIX ACLs are copied
 * into an attribute block (the xattr feature). What the format cannot
 * hold (a name over 255 bytes, more than 65535 names of one file, a file
 * past the largest size, a symlink target of a block or more, an
 * attribute of another namespace, attributes past a block) is an error
 * naming the path.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "mkfs.h"

/* A file with more than one name, and the inode its first name made. */
struct hard_link {
	dev_t	dev;
	ino_t	host;
	u32	ino;
};

struct tree_walk {
	struct pram_builder	*b;
	bool			direct;		/* files of one block, direct */
	char			path[PATH_MAX];
	struct hard_link	*links;
	size_t			nlinks, cap;
};

__printf(2, 3)
static int fail(const struct tree_walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pram_vwarn(w->path, fmt, ap);
	va_end(ap);
	return -1;
}

/* A device number as the kernel's new_encode_dev() stores it. */
static u32 encode_dev(dev_t dev)
{
	u32 ma = major(dev), mi = minor(dev);

	return (mi & 0xff) | (ma << 8) | ((mi & ~0xffU) << 12);
}

static __le64 pack(struct timespec t)
{
	struct timespec64 ts = { .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };

	return pram_time_pack(ts);
}

static void set_attrs(struct pram_inode *pi, const struct stat *st)
{
	pi->i_mode = cpu_to_le16(st->st_mode);
	pi->i_uid = cpu_to_le32(st->st_uid);
	pi->i_gid = cpu_to_le32(st->st_gid);
	pi->i_links_count = cpu_to_le16(S_ISDIR(st->st_mode) ? 2 : 1);
	pi->i_atime = pack(st->st_atim);
	pi->i_mtime = pack(st->st_mtim);
	pi->i_ctime = pack(st->st_ctim);
}

/*
 * A file of one block that holds data, as the kernel writes it: its
 * block named by the record (the direct feature), no map. 1 if made.
 */
static int copy_direct(struct tree_walk *w, u32 ino, int fd, u64 size)
{
	struct pram_image *img = w->b->img;
	struct pram_inode *pi = pram_img_inode(img, ino);
	u32 block;

	if (!w->direct || !size || size > img->geo.blocksize)
		return 0;
	/* A hole throughout stays one; any data lies in block 0. */
	if (lseek(fd, 0, SEEK_DATA) < 0 && errno == ENXIO)
		return 0;
	if (pram_build_block(w->b, &block))
		return fail(w, "no space left");
	if (pread(fd, pram_img_block(img, block), size, 0) < 0)
		return fail(w, "%s", strerror(errno));
	pi->i_type.reg.direct = cpu_to_le32(block);
	pi->i_blocks = cpu_to_le32(1);
	pram_img_set_incompat(img, PRAM_FEATURE_INCOMPAT_DIRECT);
	return 1;
}

/* Copy the blocks of @fd that hold data; holes stay holes. */
static int copy_data(struct tree_walk *w, u32 ino, int fd, u64 size)
{
	const struct pram_geometry *g = &w->b->img->geo;
	u64 bs = g->blocksize, f, end;
	off_t data, hole = 0;
	u32 block;
	ssize_t n;
	int err = copy_direct(w, ino, fd, size);

	if (err)
		return err < 0 ? err : 0;
	while ((u64)hole < size) {
		data = lseek(fd, hole, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break;
		hole = data < 0 ? (off_t)size : lseek(fd, data, SEEK_HOLE);
		if (data < 0)
			data = 0;
		if (hole < 0)
			return fail(w, "%s", strerror(errno));
		end = DIV_ROUND_UP((u64)hole, bs);
		for (f = data / bs; f < end; f++) {
			if (pram_build_map(w->b, ino, f, &block))
				return fail(w, "no space left");
			n = pread(fd, pram_img_block(w->b->img, block),
				  min_t(u64, bs, size - f * bs), f * bs);
			if (n < 0)
				return fail(w, "%s", strerror(errno));
		}
	}
	return 0;
}

static int add_symlink(struct tree_walk *w, struct pram_inode *pi)
{
	u32 bs = w->b->img->geo.blocksize, block;
	char target[PRAM_MAX_BLOCK_SIZE];
	ssize_t n = readlink(w->path, target, sizeof(target));

	if (n < 0)
		return fail(w, "%s", strerror(errno));
	if ((size_t)n >= bs)
		return fail(w, "symlink target of %zd bytes: at most %u", n, bs - 1);
	if (pram_build_block(w->b, &block))
		return fail(w, "no space left");
	memcpy(pram_img_block(w->b->img, block), target, n);
	pi->i_type.reg.row_block = cpu_to_le32(block);
	pi->i_blocks = cpu_to_le32(1);
	pi->i_size = cpu_to_le64(n);
	return 0;
}

/* What the format cannot hold, before anything is taken for it. */
static int check_entry(struct tree_walk *w, const char *name,
		       const struct stat *st)
{
	u64 max = pram_max_file_size(w->b->img->geo.blocksize_bits);

	if (strlen(name) > PRAM_NAME_MAX)
		return fail(w, "a name longer than %u bytes", PRAM_NAME_MAX);
	if (S_ISREG(st->st_mode) && (u64)st->st_size > max)
		return fail(w, "larger than the largest file (%llu bytes)",
			    (unsigned long long)max);
	return 0;
}

/* The namespaces PRAMFS holds: a prefix, or a whole name for the ACLs. */
static const struct {
	const char	*prefix;
	u8		index;
	bool		whole;
} xattr_ns[] = {
	{ "user.", PRAM_XATTR_INDEX_USER, false },
	{ "trusted.", PRAM_XATTR_INDEX_TRUSTED, false },
	{ "security.", PRAM_XATTR_INDEX_SECURITY, false },
	{ "system.posix_acl_access", PRAM_XATTR_INDEX_ACL_ACCESS, true },
	{ "system.posix_acl_default", PRAM_XATTR_INDEX_ACL_DEFAULT, true },
};

/* The index of host attribute @name, its name in the block in @suffix; -1. */
static int xattr_index(const char *name, const char **suffix)
{
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(xattr_ns); i++) {
		len = strlen(xattr_ns[i].prefix);
		if (strncmp(name, xattr_ns[i].prefix, len) ||
		    (xattr_ns[i].whole && name[len]))
			continue;
		*suffix = name + len;
		return xattr_ns[i].index;
	}
	return -1;
}

/* Add host attribute @name to the block @blk of @count entries; the count. */
static int add_xattr(struct tree_walk *w, u32 ino, const char *name, u8 *blk,
		     u8 *next, int count, u8 *value)
{
	u32 bs = w->b->img->geo.blocksize;
	const char *suffix;
	ssize_t len;
	int index = xattr_index(name, &suffix);

	if (index < 0)
		return fail(w, "attribute %s: PRAMFS holds user., trusted., security. and the POSIX ACLs only",
			    name);
	len = lgetxattr(w->path, name, value, XATTR_SIZE_MAX);
	if (len < 0)
		return fail(w, "attribute %s: %s", name, strerror(errno));
	memset(next, 0, bs);
	count = pram_xblock_edit(next, count ? blk : NULL, bs, ino, index,
				 suffix, strlen(suffix), value, len);
	if (count < 0)
		return fail(w, "attribute %s: %s", name, count == -ENOSPC ?
			    "the attributes do not fit in one block" :
			    "its name is too long or empty");
	memcpy(blk, next, bs);
	return count;
}

/* The host file's attributes, into an attribute block of @ino's. */
static int copy_xattrs(struct tree_walk *w, u32 ino)
{
	struct pram_image *img = w->b->img;
	u32 bs = img->geo.blocksize, block;
	ssize_t len = llistxattr(w->path, NULL, 0);
	u8 *blk, *next, *value;
	char *names, *n;
	int count = 0;

	if (len < 0 && errno != ENOTSUP)
		return fail(w, "attributes: %s", strerror(errno));
	if (len <= 0)
		return 0;
	names = malloc(len);
	blk = malloc(bs);
	next = malloc(bs);
	value = malloc(XATTR_SIZE_MAX);
	if (!names || !blk || !next || !value) {
		count = fail(w, "attributes: %s", strerror(ENOMEM));
	} else {
		len = llistxattr(w->path, names, len);
		if (len < 0)
			count = fail(w, "attributes: %s", strerror(errno));
	}
	for (n = names; count >= 0 && n < names + len; n += strlen(n) + 1)
		count = add_xattr(w, ino, n, blk, next, count, value);
	if (count > 0 && pram_build_block(w->b, &block))
		count = fail(w, "no free block left for its attributes");
	if (count > 0) {
		memcpy(pram_img_block(img, block), blk, bs);
		pram_img_inode(img, ino)->i_xattr = cpu_to_le32(block);
		pram_img_resum(img, ino);
		pram_img_set_incompat(img, PRAM_FEATURE_INCOMPAT_XATTR);
	}
	free(names);
	free(blk);
	free(next);
	free(value);
	return count < 0 ? -1 : 0;
}

/* The contents of one new inode, by type. */
static int fill_inode(struct tree_walk *w, u32 ino, const struct stat *st)
{
	struct pram_inode *pi = pram_img_inode(w->b->img, ino);
	int fd, err = 0;

	set_attrs(pi, st);
	if (S_ISREG(st->st_mode)) {
		fd = open(w->path, O_RDONLY);
		if (fd < 0)
			return fail(w, "%s", strerror(errno));
		pi->i_size = cpu_to_le64(st->st_size);
		err = copy_data(w, ino, fd, st->st_size);
		close(fd);
	} else if (S_ISLNK(st->st_mode)) {
		err = add_symlink(w, pi);
	} else if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
		pi->i_type.dev.rdev = cpu_to_le32(encode_dev(st->st_rdev));
	}
	return err ?: copy_xattrs(w, ino);
}

static int walk(struct tree_walk *w, u32 dir);

/* The inode an earlier name of this host file made, or NULL. */
static struct hard_link *find_link(struct tree_walk *w, const struct stat *st)
{
	size_t i;

	for (i = 0; i < w->nlinks; i++)
		if (w->links[i].dev == st->st_dev && w->links[i].host == st->st_ino)
			return &w->links[i];
	return NULL;
}

static void remember_link(struct tree_walk *w, const struct stat *st, u32 ino)
{
	if (w->nlinks == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->links = realloc(w->links, w->cap * sizeof(*w->links));
		if (!w->links)
			pram_die("out of memory");
	}
	w->links[w->nlinks++] = (struct hard_link) { st->st_dev, st->st_ino, ino };
}

/* Another name of a file already stored: a link entry, one more link. */
static int add_link(struct tree_walk *w, u32 dir, const char *name, u32 ino)
{
	struct pram_image *img = w->b->img;
	struct pram_inode *pi = pram_img_inode(img, ino);
	u32 entry;

	if (le16_to_cpu(pi->i_links_count) >= PRAM_LINK_MAX)
		return fail(w, "too many links: a file has at most %u names",
			    PRAM_LINK_MAX);
	if (pram_build_link_entry(w->b, ino, &entry))
		return fail(w, "no free inode left");
	if (pram_build_link(w->b, dir, entry, name, strlen(name)))
		return fail(w, "no free inode left for its name");
	le16_add_cpu(&pi->i_links_count, 1);
	pram_img_resum(img, ino);
	return 0;
}

static int add_entry(struct tree_walk *w, u32 dir, const char *name)
{
	struct pram_image *img = w->b->img;
	struct hard_link *hl = NULL;
	struct stat st;
	u32 ino;

	if (lstat(w->path, &st))
		return fail(w, "%s", strerror(errno));
	if (check_entry(w, name, &st))
		return -1;
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1)
		hl = find_link(w, &st);
	if (hl)
		return add_link(w, dir, name, hl->ino);
	if (S_ISDIR(st.st_mode) &&
	    le16_to_cpu(pram_img_inode(img, dir)->i_links_count) >= PRAM_LINK_MAX)
		return fail(w, "too many links: a directory holds at most %u subdirectories",
			    PRAM_LINK_MAX - 2);
	if (pram_build_inode(w->b, &ino))
		return fail(w, "no free inode left");
	if (fill_inode(w, ino, &st))
		return -1;
	if (pram_build_link(w->b, dir, ino, name, strlen(name)))
		return fail(w, "no free inode left for its name");
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1)
		remember_link(w, &st, ino);
	if (!S_ISDIR(st.st_mode))
		return 0;
	le16_add_cpu(&pram_img_inode(img, dir)->i_links_count, 1);
	pram_img_resum(img, dir);
	return walk(w, ino);
}

/* Every entry of the directory at w->path, into @dir, in name order. */
static int walk(struct tree_walk *w, u32 dir)
{
	size_t len = strlen(w->path);
	struct dirent **list;
	int n, i, err = 0;

	n = scandir(w->path, &list, NULL, alphasort);
	if (n < 0)
		return fail(w, "%s", strerror(errno));
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;

		if (!err && strcmp(name, ".") && strcmp(name, "..")) {
			if (len + 1 + strlen(name) >= sizeof(w->path))
				err = fail(w, "path too long");
			else {
				snprintf(w->path + len, sizeof(w->path) - len, "/%s", name);
				err = add_entry(w, dir, name);
				w->path[len] = 0;
			}
		}
		free(list[i]);
	}
	free(list);
	return err;
}

/*
 * The root directory takes the source directory's mode, owner, times,
 * attributes and ACLs, as every directory under it does; -m, -u and -g
 * override the mode and owner. -m with an access ACL on the source is
 * refused: the ACL's mask would not match the mode.
 */
static int fill_root(struct tree_walk *w, const struct mkfs_opts *o)
{
	struct pram_inode *pi = pram_img_inode(w->b->img, PRAM_ROOT_INO);
	struct stat st;

	if (lstat(w->path, &st))
		return fail(w, "%s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(w, "not a directory");
	if (o->mode_given) {
		if (lgetxattr(w->path, "system.posix_acl_access", NULL, 0) >= 0)
			return fail(w, "-m and an access ACL on the directory: give one of them");
		if (errno != ENODATA && errno != ENOTSUP)
			return fail(w, "its ACL: %s", strerror(errno));
		st.st_mode = S_IFDIR | o->mode;
	}
	if (o->uid_given)
		st.st_uid = o->uid;
	if (o->gid_given)
		st.st_gid = o->gid;
	set_attrs(pi, &st);
	pram_img_resum(w->b->img, PRAM_ROOT_INO);
	return copy_xattrs(w, PRAM_ROOT_INO);
}

/**
 * pram_populate() - copy the tree under o->tree into the root directory
 * @b: the builder of the new filesystem
 * @o: the options
 *
 * Return: 0, or -1 after naming the path that could not be stored.
 */
int pram_populate(struct pram_builder *b, const struct mkfs_opts *o)
{
	struct tree_walk w = { .b = b, .direct = !o->nodirect };
	int err;

	/* A symlink to the tree is followed: the root takes the directory's. */
	if (!realpath(o->tree, w.path)) {
		pram_warnx("%s: %s", o->tree, strerror(errno));
		return -1;
	}
	err = fill_root(&w, o) ?: walk(&w, PRAM_ROOT_INO);
	free(w.links);
	return err;
}
