// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names to inodes in an image, for pramfs-dump, fsck.pramfs and the test
 * helper: the entries a directory's list holds, as the kernel finds
 * them, their whole names, and the inodes they name.
 */
#include "libpramfs.h"

/**
 * pram_img_name() - entry @ino's whole name, checked (pram_entry_name())
 * @img: the image
 * @ino: an entry
 * @buf: PRAM_NAME_MAX + 1 bytes
 * @len: the name's length (0 when it is not valid)
 *
 * Return: 0, or -EINVAL for a name that is not valid.
 */
int pram_img_name(struct pram_image *img, u32 ino, char *buf, u32 *len)
{
	const char *why;

	return pram_entry_name(&img->geo, img->base, ino, pram_img_inode(img, ino),
			       buf, len, &why);
}

/**
 * pram_img_target() - the inode entry @ino names: itself, or a link
 * entry's target (unchecked)
 * @img: the image
 * @ino: an entry
 */
u32 pram_img_target(struct pram_image *img, u32 ino)
{
	return pram_link_target(pram_img_inode(img, ino)) ?: ino;
}

struct find {
	struct pram_image	*img;
	const char		*name;
	size_t			len;
	u32			ino;
};

static int match_entry(void *arg, u32 ino, const struct pram_inode *pi)
{
	struct find *f = arg;
	char name[PRAM_NAME_MAX + 1];
	u32 len;

	if (pi->i_mode && !pram_img_name(f->img, ino, name, &len) &&
	    len == f->len && !memcmp(name, f->name, f->len)) {
		f->ino = ino;
		return 1;
	}
	return 0;
}

/**
 * pram_img_lookup() - the entry @name of directory @dir, or 0
 * @img: the image
 * @dir: a directory
 * @name: the name
 * @len: its length
 */
u32 pram_img_lookup(struct pram_image *img, u32 dir, const char *name, size_t len)
{
	struct find f = { .img = img, .name = name, .len = len };
	struct pram_dir_scan scan;

	if (!S_ISDIR(le16_to_cpu(pram_img_inode(img, dir)->i_mode)))
		return 0;
	pram_dir_scan(&img->geo, img->base, dir, match_entry, &f, &scan);
	return f.ino;
}

/**
 * pram_img_resolve() - the inode @what names: a number, or a path from /
 * @img: the image
 * @what: "123" or "/a/b"
 *
 * Exits with a message if there is none.
 */
u32 pram_img_resolve(struct pram_image *img, const char *what)
{
	const char *p = what, *end;
	u32 ino = PRAM_ROOT_INO;
	u64 n;

	if (!pram_parse_u64(what, &n)) {
		if (n > U32_MAX || !pram_ino_valid(&img->geo, n))
			pram_die("inode %s is out of range", what);
		return n;
	}
	while (*p) {
		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		if (end > p)
			ino = pram_img_lookup(img, ino, p, end - p);
		/* A link entry's path is the inode's. */
		if (ino)
			ino = pram_img_target(img, ino);
		if (!ino || !pram_ino_valid(&img->geo, ino))
			pram_die("%s: not found", what);
		p = end;
	}
	return ino;
}

