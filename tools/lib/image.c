// SPDX-License-Identifier: GPL-2.0-only
/*
 * An image for the PRAMFS tools: a file, or a physical range of NVRAM
 * read through /dev/mem as on a board, mapped whole; its superblock
 * chosen as the kernel chooses it, with the kernel's own checks.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "libpramfs.h"

static int pram_open_file(struct pram_image *img, const struct pram_target *t,
			  int *fd)
{
	int flags = img->writable ? O_RDWR : O_RDONLY;
	struct stat st;

	if (t->create)
		flags |= O_CREAT;
	*fd = open(t->path, flags, 0644);
	if (*fd < 0 || fstat(*fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return -EINVAL;
	if (t->create && (u64)st.st_size < t->size && ftruncate(*fd, t->size))
		return -errno;
	img->size = t->size ?: (u64)st.st_size;
	if (!t->create && (u64)st.st_size < img->size)
		return -ERANGE;
	snprintf(img->namebuf, sizeof(img->namebuf), "%s", t->path);
	return 0;
}

static int pram_open_phys(struct pram_image *img, const struct pram_target *t,
			  int *fd)
{
	if (!t->size || t->phys % PAGE_SIZE)
		return -EINVAL;
	*fd = open("/dev/mem", (img->writable ? O_RDWR : O_RDONLY) | O_SYNC);
	if (*fd < 0)
		return -errno;
	img->size = t->size;
	snprintf(img->namebuf, sizeof(img->namebuf), "phys:%#" PRIx64,
		 (uint64_t)t->phys);
	return 0;
}

/**
 * pram_image_open() - map a target whole
 * @img: the image
 * @t: the file or the physical range
 * @writable: open for changes (mkfs, fsck with repairs)
 *
 * Return: 0, or a negative errno (-ERANGE: a file shorter than asked).
 */
int pram_image_open(struct pram_image *img, const struct pram_target *t,
		    bool writable)
{
	int fd = -1, err;
	void *p;

	memset(img, 0, sizeof(*img));
	img->writable = writable;
	img->name = img->namebuf;
	err = t->path ? pram_open_file(img, t, &fd) : pram_open_phys(img, t, &fd);
	if (!err) {
		p = mmap(NULL, img->size, PROT_READ | (writable ? PROT_WRITE : 0),
			 MAP_SHARED, fd, t->path ? 0 : (off_t)t->phys);
		if (p == MAP_FAILED)
			err = -errno;
		else
			img->base = p;
	}
	if (fd >= 0)
		close(fd);
	return err;
}

void pram_image_close(struct pram_image *img)
{
	if (!img->base)
		return;
	pram_image_flush(img);
	munmap(img->base, img->size);
	img->base = NULL;
}

void pram_image_flush(struct pram_image *img)
{
	if (img->writable)
		msync(img->base, img->size, MS_SYNC);
}

/* A valid superblock whose filesystem fits in what is mapped. */
static int pram_sb_usable(struct pram_image *img, struct pram_super_block *ps,
			  struct pram_geometry *g, const char **why)
{
	if (pram_super_check(ps, g, why))
		return -EINVAL;
	if (g->size > img->size) {
		*why = "the filesystem is larger than the image";
		return -EINVAL;
	}
	return 0;
}

/**
 * pram_image_load() - find the superblock, as the kernel does
 * @img: an open image of at least two superblocks' size
 * @why_primary: why the primary is not valid, or NULL
 * @why_copy: why the copy is not valid, or NULL (when the primary is)
 *
 * The primary if it is valid, else the copy.
 *
 * Return: 0, or -EINVAL when neither is valid.
 */
int pram_image_load(struct pram_image *img, const char **why_primary,
		    const char **why_copy)
{
	struct pram_super_block *copy;

	*why_primary = *why_copy = NULL;
	if (img->size < 2 * PRAM_SB_SIZE) {
		*why_primary = *why_copy = "the image is too small";
		return -EINVAL;
	}
	copy = (struct pram_super_block *)(img->base + PRAM_SB_COPY_OFFSET);
	img->sb = pram_img_primary(img);
	if (!pram_sb_usable(img, img->sb, &img->geo, why_primary))
		return 0;
	img->sb = copy;
	if (!pram_sb_usable(img, copy, &img->geo, why_copy))
		return 0;
	img->sb = NULL;
	return -EINVAL;
}

/*
 * A superblock that fails its checks only by its checksum or its stored
 * geometry, whose size, block size and inode count still give a
 * filesystem that fits: what a rescue or a repair can start from.
 */
static int pram_sb_salvageable(struct pram_image *img,
			       const struct pram_super_block *ps,
			       struct pram_geometry *g)
{
	const char *why;

	if (le32_to_cpu(ps->s_magic) != PRAM_SUPER_MAGIC ||
	    le32_to_cpu(ps->s_revision) != PRAM_REVISION ||
	    pram_incompat_refused(le32_to_cpu(ps->s_feature_incompat)))
		return -EINVAL;
	if (pram_geometry_compute(g, le64_to_cpu(ps->s_size),
				  le32_to_cpu(ps->s_blocksize), 0,
				  le32_to_cpu(ps->s_inodes_count),
				  le32_to_cpu(ps->s_feature_incompat) &
				  PRAM_FEATURE_INCOMPAT_JOURNAL, &why) ||
	    g->inodes_count != le32_to_cpu(ps->s_inodes_count) ||
	    g->size > img->size)
		return -EINVAL;
	g->incompat = le32_to_cpu(ps->s_feature_incompat);
	return 0;
}

/**
 * pram_image_salvage() - a superblock to start from when neither is valid
 * @img: the image, after pram_image_load() failed
 *
 * The primary, else the copy, if its magic, revision and features are
 * right and its size, block size and inode count give a filesystem that
 * fits the image; its other geometry fields are then what those give.
 *
 * Return: 0 (img->sb and img->geo set), or -EINVAL.
 */
int pram_image_salvage(struct pram_image *img)
{
	struct pram_super_block *ps;
	int i;

	for (i = 0; i < 2; i++) {
		ps = (struct pram_super_block *)(img->base + i * PRAM_SB_COPY_OFFSET);
		if (!pram_sb_salvageable(img, ps, &img->geo)) {
			img->sb = ps;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Is a physical range mounted? The kernel claims a mounted PRAMFS's
 * range exclusively, as "pramfs" in /proc/iomem. An image file is not
 * mounted by this kernel.
 */
bool pram_target_mounted(const struct pram_target *t)
{
	unsigned long long start, end;
	char line[256], name[64];
	bool busy = false;
	FILE *f;

	if (t->path)
		return false;
	f = fopen("/proc/iomem", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %llx-%llx : %63[^\n]", &start, &end, name) == 3 &&
		    !strcmp(name, "pramfs") && start < t->phys + t->size &&
		    end >= t->phys)
			busy = true;
	}
	if (f)
		fclose(f);
	return busy;
}

/* Checksum inode @ino again, after a change. */
void pram_img_resum(struct pram_image *img, u32 ino)
{
	struct pram_inode *pi = pram_img_inode(img, ino);

	pi->i_csum = cpu_to_le32(pram_inode_csum(pi, ino));
}

/*
 * Checksum the primary superblock and write the copy from it, as the
 * kernel's pram_super_commit() does. The tools always write the primary.
 */
void pram_img_super_commit(struct pram_image *img)
{
	struct pram_super_block *ps = pram_img_primary(img);

	if (img->sb != ps) {
		memcpy(ps, img->sb, PRAM_SB_SIZE);
		img->sb = ps;
	}
	ps->s_wtime = pram_time_now();
	ps->s_csum = cpu_to_le32(pram_super_csum(ps));
	memcpy(img->base + PRAM_SB_COPY_OFFSET, ps, PRAM_SB_SIZE);
}

/**
 * pram_img_set_incompat() - mark a feature in use
 * @img: the image
 * @bit: a PRAM_FEATURE_INCOMPAT_* bit
 *
 * In the superblock in use and the geometry; the caller commits the
 * superblock pair (pram_img_super_commit()).
 */
void pram_img_set_incompat(struct pram_image *img, u32 bit)
{
	img->sb->s_feature_incompat |= cpu_to_le32(bit);
	img->geo.incompat |= bit;
}
