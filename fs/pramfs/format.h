/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * PRAMFS pure code over the on-media format: geometry, checksums and
 * checks, the allocators, block maps and directory entry lists. These
 * files (layout.c, alloc.c, blockmap.c, dirlist.c) touch no VFS object
 * and no memory but the buffers they are given: the module, its KUnit
 * suites and the offline tools in tools/ all compile them, the tools
 * through tools/include, which supplies the few kernel types and
 * helpers they use.
 */
#ifndef _PRAMFS_FORMAT_H
#define _PRAMFS_FORMAT_H

#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/time64.h>
#include <kunit/visibility.h>
#include "pramfs_fs.h"
#ifdef __KERNEL__
#include <linux/stat.h>	/* S_IFMT; the tools have it from <sys/stat.h> */
#endif

/* The root directory init= makes: world-writable and sticky, as /tmp. */
#define PRAM_DEF_ROOT_MODE	(0777 | S_ISVTX)

/* Pages a read fault of a mapping maps at once (mmap.c), aligned. */
#define PRAM_FAULT_AROUND	16

/* Geometry of one filesystem, computed from its size and options. */
struct pram_geometry {
	u64	size;		/* bytes */
	u32	blocksize;
	u32	blocksize_bits;
	u32	inodes_count;	/* inodes PRAM_ROOT_INO .. +inodes_count-1 */
	u32	blocks_count;	/* size >> blocksize_bits */
	u32	bitmap_start;	/* first bitmap block */
	u32	bitmap_blocks;
	u32	journal_start;	/* first journal block, 0 for none */
	u32	journal_blocks;
	u32	data_start;	/* first data block */
	u32	incompat;	/* PRAM_FEATURE_INCOMPAT_* in use */
};

/* layout.c */
/* The incompatible features by name, as the kernel and the tools say them. */
struct pram_feature {
	u32		bit;
	const char	*name;
};
#define PRAM_NR_FEATURES	6
extern const struct pram_feature pram_features[PRAM_NR_FEATURES];
const char *pram_feature_name(u32 bit);
const char *pram_incompat_refused(u32 incompat);
u32 pram_super_csum(const struct pram_super_block *ps);
int pram_geometry_compute(struct pram_geometry *g, u64 size, u32 blocksize,
			  u64 bpi, u64 ninodes, bool journal, const char **why);
void pram_super_format(struct pram_super_block *ps,
		       const struct pram_geometry *g);
void pram_root_format(struct pram_inode *pi, umode_t mode, u32 uid, u32 gid,
		      __le64 now);
int pram_super_check(const struct pram_super_block *ps, struct pram_geometry *g,
		     const char **why);
int pram_inode_check(const struct pram_inode *pi, u32 ino,
		     const struct pram_geometry *g, const char **why);
int pram_name_check(const struct pram_inode *pi, const struct pram_geometry *g,
		    u32 ino, const char **why);
bool pram_inode_deleted(const struct pram_inode *pi);
struct timespec64 pram_time_unpack(__le64 t);

/**
 * pram_time_pack() - encode a timestamp for the media
 * @ts: the time; clamped to PRAM_TIME_MIN..PRAM_TIME_MAX seconds
 *
 * Inline: a create packs eight.
 */
static inline __le64 pram_time_pack(struct timespec64 ts)
{
	s64 sec = clamp_t(s64, ts.tv_sec, PRAM_TIME_MIN, PRAM_TIME_MAX);
	u64 nsec = ts.tv_nsec;

	if (sec != ts.tv_sec)
		nsec = sec < ts.tv_sec ? NSEC_PER_SEC - 1 : 0;
	else if (ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		nsec = 0;
	return cpu_to_le64(((u64)sec << PRAM_TIME_NSEC_BITS) | nsec);
}

/* xblock.c */
u32 pram_xblock_csum(const void *blk);
int pram_xblock_check(const void *blk, u32 size, u32 owner, const char **why);
const struct pram_xattr_entry *pram_xblock_next(const void *blk,
						const struct pram_xattr_entry *e);
const struct pram_xattr_entry *pram_xblock_find(const void *blk, u8 index,
						const char *name, u32 len);
int pram_xblock_edit(void *dst, const void *src, u32 size, u32 owner,
		     u8 index, const char *name, u32 len, const void *value,
		     u32 value_len);

/* The value of an attribute entry, after its name. */
static inline const void *pram_xattr_value(const struct pram_xattr_entry *e)
{
	return e->e_name + e->e_name_len;
}

/* Checks say why they refuse: *@why for the log, and -EINVAL. */
static inline int pram_fail(const char **why, const char *reason)
{
	*why = reason;
	return -EINVAL;
}

/* What a slot of the inode table holds, from its mode. */
static inline bool pram_mode_is_link(umode_t mode)
{
	return (mode & S_IFMT) == PRAM_S_IFLINK;
}

static inline bool pram_mode_is_name(umode_t mode)
{
	return (mode & S_IFMT) == PRAM_S_IFNAME;
}

/*
 * A slot as init= leaves it: every byte zero. A free slot (i_mode 0)
 * that is not is cleared after an unclean stop, by the mount and by
 * fsck.pramfs. A slot in use (the usual case of a record about to
 * change) is told by its mode, without a scan.
 */
static inline bool pram_slot_is_clear(const struct pram_inode *pi)
{
	return !pi->i_mode && !memchr_inv(pi, 0, PRAM_INODE_SIZE);
}

/* An inode: a slot in use that is neither a link entry nor a name record. */
static inline bool pram_mode_is_inode(umode_t mode)
{
	return mode && !pram_mode_is_link(mode) && !pram_mode_is_name(mode);
}

static inline bool pram_has_incompat(const struct pram_geometry *g, u32 bit)
{
	return g->incompat & bit;
}

/* Inode numbers and block numbers read from NVRAM are checked here. */
static inline bool pram_ino_valid(const struct pram_geometry *g, u32 ino)
{
	return ino >= PRAM_ROOT_INO && ino - PRAM_ROOT_INO < g->inodes_count;
}

static inline bool pram_block_valid(const struct pram_geometry *g, u32 block)
{
	return block >= g->data_start && block < g->blocks_count;
}

/*
 * Allocation hints: where the next search starts. A hint read from NVRAM
 * that is out of range starts at the beginning; the hint after the last
 * inode or block wraps round to the first.
 */
static inline u32 pram_ino_hint(const struct pram_geometry *g, u32 ino)
{
	return pram_ino_valid(g, ino) ? ino : PRAM_ROOT_INO;
}

static inline u32 pram_block_hint(const struct pram_geometry *g, u32 block)
{
	return pram_block_valid(g, block) ? block : g->data_start;
}

static inline u64 pram_ino_offset(u32 ino)
{
	return (u64)ino << PRAM_INODE_BITS;
}

static inline u64 pram_block_offset(const struct pram_geometry *g, u32 block)
{
	return (u64)block << g->blocksize_bits;
}

/* journal.c: pure code over the undo journal's lines */
typedef void (*pram_journal_undo_fn)(void *arg, u64 offset, const void *old,
				     u32 len);
void pram_journal_format(void *area);
void pram_journal_clear_lines(void *area);
void pram_journal_move_on(void *area);
int pram_journal_check_head(const struct pram_journal_head *h,
			    const char **why);
void pram_journal_fill(struct pram_journal_entry *e, u32 gen, u32 line,
		       u64 offset, const void *old, u32 len);
u32 pram_journal_fill_lines(struct pram_journal_entry *e, u32 gen, u32 line,
			    u64 offset, const void *old, u32 len);
void pram_journal_fill_slot(struct pram_journal_entry *e, u32 gen, u32 line,
			    u64 offset, const void *old, u32 len, __le32 csum);
bool pram_journal_entry_valid(const struct pram_journal_entry *e, u32 gen,
			      u32 line, const struct pram_geometry *g);
int pram_journal_pending(const void *area, const struct pram_geometry *g);
int pram_journal_undo(const void *area, const struct pram_geometry *g,
		      pram_journal_undo_fn fn, void *arg);
int pram_journal_check_undo(const void *area, const struct pram_geometry *g,
			    const void *base, u32 sb_off, const char **why);

/* Has j_gen come round to 0, the lines of the last round to be cleared? */
static inline bool pram_journal_wrapped(const struct pram_journal_head *h)
{
	return !h->j_gen;
}

static inline u64 pram_journal_offset(const struct pram_geometry *g)
{
	return (u64)g->journal_start << g->blocksize_bits;
}

/* alloc.c: pure code over a bitmap or an inode table in memory */
void pram_bitmap_format(void *bitmap, const struct pram_geometry *g);
void pram_bitmap_mark_meta(void *bitmap, const struct pram_geometry *g);
int pram_bitmap_find_free(const void *bitmap, const struct pram_geometry *g,
			  u32 hint, u32 *block);
int pram_bitmap_alloc(void *bitmap, const struct pram_geometry *g, u32 hint,
		      u32 *block);
int pram_bitmap_free(void *bitmap, const struct pram_geometry *g, u32 block);
u32 pram_bitmap_count_free(const void *bitmap, const struct pram_geometry *g);
u32 pram_bitmap_span(const struct pram_geometry *g, const __le32 *map, u32 n,
		     u32 self, u32 *first);
int pram_itable_find_free(const void *itable, const struct pram_geometry *g,
			  u32 hint, u32 *ino);
u32 pram_itable_count_free(const void *itable, const struct pram_geometry *g);

/* dirlist.c: pure code over a directory's entry list in an image */
struct pram_dir_scan {
	u32	members;	/* entries found */
	u32	recovered;	/* of which found from the tail, past a break */
	u32	last;		/* the last entry the forward chain reached */
	bool	broken;		/* the forward chain ends in a bad link */
	bool	consistent;	/* every back link and the tail agree with it */
};

typedef int (*pram_dir_scan_fn)(void *arg, u32 ino, const struct pram_inode *pi);
int pram_dir_scan(const struct pram_geometry *g, const void *base, u32 dir,
		  pram_dir_scan_fn fn, void *arg, struct pram_dir_scan *scan);

/* blockmap.c: pure block map arithmetic */
u32 pram_map_entries(u32 bits);
u64 pram_max_file_size(u32 bits);
int pram_map_index(u32 bits, u64 fblock, u32 *row, u32 *col);
u64 pram_block_range(u32 bits, u64 pos, u64 len, u64 *first, u64 *last);
u64 pram_blocks_for_size(u32 bits, u64 size);

u32 pram_page_blocks(u32 bits);
bool pram_fault_window(pgoff_t pgoff, pgoff_t *first, pgoff_t *last);

long pram_map_run(const struct pram_geometry *g, const void *base,
		  u32 row_block, u64 fblock, u64 max, u64 *run);
long pram_map_lookup(const struct pram_geometry *g, const void *base,
		     u32 row_block, u64 fblock);
s64 pram_map_seek(const struct pram_geometry *g, const void *base,
		  u32 row_block, u64 from, u64 end, bool data);
int pram_map_check(const struct pram_geometry *g, const void *base,
		   u32 row_block, u32 xattr, u32 *blocks, const char **why);

long pram_file_run(const struct pram_geometry *g, const void *base,
		   const struct pram_inode *pi, u64 fblock, u64 max, u64 *run);
long pram_file_lookup(const struct pram_geometry *g, const void *base,
		      const struct pram_inode *pi, u64 fblock);
s64 pram_file_seek(const struct pram_geometry *g, const void *base,
		   const struct pram_inode *pi, u64 from, u64 end, bool data);
int pram_file_map_check(const struct pram_geometry *g, const void *base,
			const struct pram_inode *pi, u32 *blocks,
			const char **why);

/* One nonzero entry of a block map, as pram_map_walk() shows it. */
struct pram_map_ent {
	u32		map;	/* the map block that holds it */
	u32		idx;	/* its index there */
	u32		block;	/* the block it names */
	bool		is_row;	/* an entry of the row block: names a column */
	const char	*bad;	/* why it cannot be a map entry, or NULL */
};

#define PRAM_MAP_SKIP	1	/* from a visitor: do not descend */

int pram_map_walk(const struct pram_geometry *g, const void *base, u32 row,
		  u32 map, int (*visit)(void *arg, const struct pram_map_ent *e),
		  void *arg);

/* An entry's short name: NUL-padded, not terminated when all 48 bytes are used. */
static inline u32 pram_name_len(const struct pram_inode *pi)
{
	return strnlen(pi->i_name, PRAM_NAME_LEN);
}

static inline bool pram_is_long_name(const struct pram_inode *pi)
{
	return pi->i_flags & cpu_to_le32(PRAM_INODE_LONGNAME);
}

/* name.c: entries' names, short and long, and link entries */
u32 pram_slot_csum(const void *slot, u32 ino);
void pram_slot_seal(void *slot, u32 ino);

/* An inode's checksum: its slot's, seeded with its number. */
static inline u32 pram_inode_csum(const struct pram_inode *pi, u32 ino)
{
	return pram_slot_csum(pi, ino);
}

unsigned int pram_name_recs(u32 len);
int pram_name_rec_check(const struct pram_name_rec *nr, u32 rec,
			const struct pram_geometry *g, const char **why);
int pram_entry_name(const struct pram_geometry *g, const void *base, u32 ino,
		    const struct pram_inode *pi, char *buf, u32 *len,
		    const char **why);
int pram_entry_name_copy(const struct pram_geometry *g, const void *base,
			 u32 ino, const struct pram_inode *pi, char *buf,
			 u32 *len);
void pram_name_store(struct pram_inode *pi, const char *name, u32 len,
		     const u32 *recs);
void pram_name_clear(struct pram_inode *pi);
void pram_name_rec_fill(struct pram_name_rec *nr, u32 rec, u32 owner,
			const char *name, u32 len, unsigned int i);

/**
 * pram_name_rec_at() - the number of entry @pi's name record @i, or 0
 * @pi: an entry
 * @i: 0 or 1
 */
static inline u32 pram_name_rec_at(const struct pram_inode *pi,
				   unsigned int i)
{
	if (!pram_is_long_name(pi) || i >= PRAM_NAME_RECS)
		return 0;
	return le32_to_cpu(pi->i_long.l_rec[i]);
}

/**
 * pram_link_target() - the inode an entry names
 * @pi: an entry: an inode's own, or a link entry
 * Return: the inode number, unchecked; 0 for an entry that is an inode.
 */
static inline u32 pram_link_target(const struct pram_inode *pi)
{
	if (!pram_mode_is_link(le16_to_cpu(pi->i_mode)))
		return 0;
	return le32_to_cpu(pi->i_type.link.ino);
}

#endif /* _PRAMFS_FORMAT_H */
