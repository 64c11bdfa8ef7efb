/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the PRAMFS tools share: an image opened from a file or from a
 * physical range through /dev/mem, its checked superblock and geometry,
 * checksum-keeping writes, and building blocks for mkfs -d and fsck's
 * repairs. The format and its rules are the kernel's own pure code
 * (fs/pramfs/format.h), compiled here unchanged.
 */
#ifndef _LIBPRAMFS_H
#define _LIBPRAMFS_H

#include <stdarg.h>
#include <stdio.h>
#include "format.h"

#define PRAM_TOOLS_VERSION	"1.0"

/* Where an image is: a file, or a physical range (--phys ADDR --size SIZE). */
struct pram_target {
	const char	*path;		/* the file; NULL for a physical range */
	u64		phys;
	u64		size;		/* bytes; 0: the file's size */
	bool		create;		/* mkfs: create the file, SIZE long */
};

struct pram_image {
	const char		*name;	/* for messages: the file, or "phys:ADDR" */
	u8			*base;	/* the mapping */
	u64			size;	/* bytes mapped */
	bool			writable;
	struct pram_geometry	geo;
	struct pram_super_block	*sb;	/* the valid copy: primary, or the copy */
	char			namebuf[64];
};

/* image.c */
int pram_image_open(struct pram_image *img, const struct pram_target *t,
		    bool writable);
void pram_image_close(struct pram_image *img);
int pram_image_load(struct pram_image *img, const char **why_primary,
		    const char **why_copy);
int pram_image_salvage(struct pram_image *img);
bool pram_target_mounted(const struct pram_target *t);
void pram_image_flush(struct pram_image *img);

static inline struct pram_inode *pram_img_inode(struct pram_image *img, u32 ino)
{
	return (struct pram_inode *)(img->base + pram_ino_offset(ino));
}

static inline void *pram_img_block(struct pram_image *img, u32 block)
{
	return img->base + pram_block_offset(&img->geo, block);
}

static inline void *pram_img_bitmap(struct pram_image *img)
{
	return pram_img_block(img, img->geo.bitmap_start);
}

static inline struct pram_super_block *pram_img_primary(struct pram_image *img)
{
	return (struct pram_super_block *)img->base;
}

void pram_img_resum(struct pram_image *img, u32 ino);
void pram_img_super_commit(struct pram_image *img);
void pram_img_set_incompat(struct pram_image *img, u32 bit);

/* build.c: making a filesystem's contents, for mkfs -d and fsck */
struct pram_builder {
	struct pram_image	*img;
	u32			inode_hint, block_hint;
	u32			free_inodes, free_blocks;
};

void pram_build_start(struct pram_builder *b, struct pram_image *img);
int pram_build_inode(struct pram_builder *b, u32 *ino);
int pram_build_block(struct pram_builder *b, u32 *block);
void pram_build_free_block(struct pram_builder *b, u32 block);
int pram_build_name(struct pram_builder *b, u32 ino, const char *name,
		    size_t len);
int pram_build_link_entry(struct pram_builder *b, u32 target, u32 *entry);
int pram_build_list(struct pram_builder *b, u32 dir, u32 ino);
int pram_build_link(struct pram_builder *b, u32 dir, u32 ino, const char *name,
		    size_t len);
int pram_build_map(struct pram_builder *b, u32 ino, u64 fblock, u32 *block);
void pram_build_finish(struct pram_builder *b);

/* lookup.c */
int pram_img_name(struct pram_image *img, u32 ino, char *buf, u32 *len);
u32 pram_img_target(struct pram_image *img, u32 ino);
u32 pram_img_lookup(struct pram_image *img, u32 dir, const char *name, size_t len);
u32 pram_img_resolve(struct pram_image *img, const char *what);

/* util.c */
extern const char *pram_prog;
void pram_vwarn(const char *what, const char *fmt, va_list ap);
__printf(1, 2) void pram_die(const char *fmt, ...);
__printf(1, 2) void pram_warnx(const char *fmt, ...);
int pram_parse_size(const char *s, u64 *val);
int pram_parse_u64(const char *s, u64 *val);
int pram_target_option(struct pram_target *t, const char *opt, const char *arg);
__le64 pram_time_now(void);
double pram_seconds(void);

/* The bit of the feature called @name (pram_features[]), or 0. */
u32 pram_feature_bit(const char *name);

#endif /* _LIBPRAMFS_H */
