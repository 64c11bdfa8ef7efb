/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PRAMFS in-memory state and prototypes, grouped by source file. The
 * on-media format is in pramfs_fs.h, the pure code over it in format.h.
 */
#ifndef _PRAMFS_H
#define _PRAMFS_H

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/uidgid.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#include <asm/special_insns.h>
#else
#include <linux/libnvdimm.h>
#endif
#include "format.h"

/* What the mount options asked for. */
struct pram_mount_opts {
	phys_addr_t	physaddr;
	u64		init_size;	/* 0: use the existing filesystem */
	u32		blocksize;	/* 0: default */
	u64		bpi;		/* 0: default */
	u64		ninodes;	/* 0: from bpi */
	umode_t		mode;
	kuid_t		uid;
	kgid_t		gid;
	bool		noprotect;	/* leave the NVRAM mapping writable */
	bool		noacl;		/* POSIX ACLs not enforced */
	bool		nodirect;	/* no new direct block (INCOMPAT_DIRECT) */
	int		errors;		/* PRAM_ERRORS_*: on corruption */
	unsigned int	given;		/* PRAM_OPT_* bits */
};

/* errors=: what finding corrupted metadata does, as ext4's option. */
enum { PRAM_ERRORS_CONTINUE, PRAM_ERRORS_RO, PRAM_ERRORS_PANIC };

#define PRAM_OPT_PHYSADDR	BIT(0)
#define PRAM_OPT_INIT		BIT(1)
#define PRAM_OPT_BS		BIT(2)
#define PRAM_OPT_BPI		BIT(3)
#define PRAM_OPT_N		BIT(4)
#define PRAM_OPT_MODE		BIT(5)
#define PRAM_OPT_UID		BIT(6)
#define PRAM_OPT_GID		BIT(7)
#define PRAM_OPT_NOPROTECT	BIT(8)
#define PRAM_OPT_ERRORS		BIT(9)
#define PRAM_OPT_ACL		BIT(10)
#define PRAM_OPT_DIRECT		BIT(11)

/* Locks for on-media inode records, hashed by inode number. */
#define PRAM_RECORD_LOCKS	64

#define PRAM_WP_MAX_PAGES	16	/* the most one write window covers */

struct pram_wp_pool;	/* a CPU's window slots, nvram.c */

struct pram_wp {
	bool				enabled;
	struct pram_wp_pool __percpu	*pools;	/* shared by all mounts */
	unsigned int			lent;	/* windows in tx.window's pin */
	unsigned long			pte;	/* a window's PTE of page 0 */
};

/* The most bytes one pram_tx_log() call saves: a block. */
#define PRAM_TX_MAX_RANGE	PRAM_MAX_BLOCK_SIZE

/* The open transaction (tx.c). */
struct pram_tx {
	bool			enabled;	/* a journal, mounted read-write */
	struct mutex		lock;		/* one transaction at a time */
	struct task_struct	*owner;		/* the task in it, under lock */
	unsigned int		depth;		/* its nesting */
	bool			in_parts;	/* may commit at checkpoints */
	unsigned int		nofs;		/* memalloc_nofs_save() */
	u32			gen;		/* j_gen: the open transaction */
	u32			next;		/* its next free line */
	void			*window;	/* the journal, mapped writable */
	u32			held;		/* a slot taken, not written yet */
	unsigned int		nlogged;
	struct {
		u64	off;
		u32	len;
	}			logged[PRAM_JOURNAL_LINES];	/* its ranges */
};

struct pram_sb_info {
	phys_addr_t		phys_addr;
	void			*virt_addr;	/* the whole filesystem */
	void			*nvram_addr;	/* its mapping, if virt_addr is a copy */
	struct pram_super_block	*super;		/* the valid superblock copy */
	u64			map_size;	/* bytes mapped and claimed */
	struct pram_geometry	geo;
	/* the counters, bitmap, inode allocation; taken before a record lock */
	struct mutex		s_lock;
	u32			free_blocks;	/* under s_lock; see balloc.c */
	u32			block_hint;	/* under s_lock */
	unsigned long		*reserved;	/* a bit per block reserved or held */
	unsigned long		nreserved;	/* how many, held ones too */
	/* held: freed in the open transaction, not committed; balloc.c */
	unsigned long		nheld;		/* how many */
	u32			held_first[16];	/* the first of them */
	unsigned long		*held;		/* the others, a bit per block, */
	unsigned long		held_lo;	/* in these words of it */
	unsigned long		held_hi;
	u32			free_inodes;	/* under s_lock */
	u32			inode_hint;	/* under s_lock */
	/* writes of the superblock pair: the innermost lock */
	struct mutex		super_lock;
	struct mutex		record_lock[PRAM_RECORD_LOCKS];
	struct pram_wp		wp;
	struct pram_tx		tx;
	struct pram_mount_opts	opts;
};

/*
 * Locking:
 * - a directory's i_rwsem (held by the VFS) covers its entry list: the
 *   head and tail in its inode and the links of its entries;
 * - a regular file's i_rwsem covers its block map and data, shared for
 *   reads;
 * - tx.lock (tx.c) makes a transaction: taken inside the VFS's inode
 *   locks and a directory's i_index_lock, outside everything below;
 * - an inode's i_xattr_sem covers its attribute block: shared to read
 *   it, exclusive (inside tx.lock) to replace it;
 * - s_lock covers the free counts and hints, the bitmap and the inode
 *   table;
 * - super_lock covers a write of the superblock pair
 *   (pram_super_begin/commit); nothing is taken inside it;
 * - a record lock covers one on-media inode's bytes while they and their
 *   checksum are rewritten (pram_record_begin/end). Record locks never
 *   nest.
 */
struct pram_dir_index;

struct pram_inode_info {
	struct pram_dir_index	*i_index;	/* a directory's name index */
	struct mutex		i_index_lock;	/* building i_index */
	unsigned int		i_index_gen;	/* i_index dropped: positions stale */
	bool			i_stamped;	/* its record has the change's times */
	bool			i_deleted;	/* read deleted, for a mount to free */
	struct rw_semaphore	i_xattr_sem;	/* its attribute block */
	struct inode		vfs_inode;
};

static inline struct pram_inode_info *PRAM_I(struct inode *inode)
{
	return container_of(inode, struct pram_inode_info, vfs_inode);
}

static inline struct pram_sb_info *PRAM_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct pram_super_block *pram_super(struct super_block *sb)
{
	return PRAM_SB(sb)->super;
}

/* nvram.c */
int pram_map(struct super_block *sb, u64 size);
void pram_unmap(struct super_block *sb);
int pram_wp_enable(struct super_block *sb, bool used);
void pram_wp_exit(void);
void pram_wp_close(struct super_block *sb, void *waddr, size_t len);
void *pram_wp_persist(struct super_block *sb, void *waddr, size_t len);
void pram_wp_close_flushed(struct super_block *sb, void *waddr, size_t len);
void *pram_wp_target(struct super_block *sb, void *waddr);
void *pram_wp_map(struct super_block *sb, void *addr, size_t len);
void pram_wp_unmap(struct super_block *sb, void *waddr, size_t len);
struct pram_super_block *pram_super_begin(struct super_block *sb);
void pram_super_commit(struct super_block *sb, struct pram_super_block *ps);

/**
 * pram_wb() - write [@addr, @addr + @len) back from the CPU's caches
 * @addr: first byte
 * @len: bytes
 *
 * arch_wb_cache_pmem()'s loop, inline, as PMFS and NOVA have it: on x86
 * a clwb a cache line (clflushopt or clflush where the CPU has no clwb,
 * by the kernel's alternatives). Every record change writes back its
 * journal lines and the record, one or two cache lines each: inline,
 * that is two calls fewer each time.
 */
static __always_inline void pram_wb(const void *addr, size_t len)
{
#ifdef CONFIG_X86
	unsigned long size = boot_cpu_data.x86_clflush_size;
	unsigned long p = (unsigned long)addr & ~(size - 1);

	for (; p < (unsigned long)addr + len; p += size)
		clwb((void *)p);
#else
	arch_wb_cache_pmem((void *)addr, len);
#endif
}

/* crash.c: power cuts for the crash tests (CONFIG_PRAMFS_CRASH_TEST) */
#ifdef CONFIG_PRAMFS_CRASH_TEST
void *pram_crash_open(void *addr, size_t len);
bool pram_crash_close(void *waddr);
void *pram_crash_target(void *waddr);
void pram_crash_commit_delay(void);
#else
static inline void *pram_crash_open(void *addr, size_t len)
{
	return NULL;
}

static inline bool pram_crash_close(void *waddr)
{
	return false;
}

static inline void *pram_crash_target(void *waddr)
{
	return NULL;
}

static inline void pram_crash_commit_delay(void)
{
}
#endif

/**
 * pram_wp_open() - open a write window over [@addr, @addr + @len)
 * @sb: the superblock
 * @addr: first byte to write, in the NVRAM mapping
 * @len: bytes, over PRAM_WP_MAX_PAGES pages at most
 *
 * Every store PRAMFS makes to the NVRAM goes through a window: store
 * through the pointer returned, then close it with pram_wp_close() or
 * pram_wp_close_flushed(). Windows do not nest (but inside the
 * journal's, which a transaction holds open: see tx.c). Without protection
 * (noprotect, or before pram_wp_enable()) the window is @addr itself.
 * Inline: it is on every store's path.
 *
 * Return: the writable address of @addr.
 */
static inline void *pram_wp_open(struct super_block *sb, void *addr,
				 size_t len)
{
	return pram_crash_open(addr, len) ?: pram_wp_map(sb, addr, len);
}

static inline void *pram_block_addr(struct super_block *sb, u32 block)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	return sbi->virt_addr + pram_block_offset(&sbi->geo, block);
}

/* tx.c */
void pram_tx_init(struct super_block *sb);
int pram_tx_load(struct super_block *sb);
bool pram_tx_pending(struct super_block *sb);
void pram_tx_enable(struct super_block *sb, bool rw);
void pram_tx_enter(struct super_block *sb);
void pram_tx_leave(struct super_block *sb);
void pram_tx_begin_parts(struct super_block *sb);
void pram_tx_checkpoint(struct super_block *sb);
bool pram_tx_checkpoint_for(struct super_block *sb, u32 lines);

/*
 * Records' helpers nest in their operation's transaction: those begins
 * and ends, and a filesystem without the journal, cost no call.
 */

/**
 * pram_tx_begin() - begin a transaction, or nest in this task's
 * @sb: the superblock, mounted read-write
 */
static inline void pram_tx_begin(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	if (!tx->enabled)
		return;
	if (tx->owner == current)
		tx->depth++;
	else
		pram_tx_enter(sb);
}

/**
 * pram_tx_end() - end a transaction: the outermost one commits
 * @sb: the superblock
 */
static inline void pram_tx_end(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	if (!tx->enabled)
		return;
	if (tx->owner == current && tx->depth > 1)
		tx->depth--;
	else
		pram_tx_leave(sb);
}

bool pram_tx_may_hold(struct super_block *sb);
bool pram_tx_active(struct super_block *sb);
bool pram_tx_room(struct super_block *sb, const void *addr, size_t len);
void pram_tx_log(struct super_block *sb, const void *addr, size_t len);
void pram_tx_log_slot(struct super_block *sb, const void *addr, u32 len);
void pram_tx_log_free(struct super_block *sb, const struct pram_inode *pi);

/* balloc.c: the allocators' glue, under s_lock */
int pram_new_block(struct super_block *sb, u32 *block);
int pram_new_blocks(struct super_block *sb, u32 *blocks, unsigned int n);
int pram_reserve_blocks(struct super_block *sb, u32 *blocks, unsigned int n);
void pram_claim_blocks(struct super_block *sb, const u32 *blocks,
		       unsigned int n);
void pram_unreserve_blocks(struct super_block *sb, const u32 *blocks,
			   unsigned int n);
void pram_release_freed(struct super_block *sb);
void pram_free_blocks(struct super_block *sb, const u32 *blocks,
		      unsigned int n);
u32 pram_free_map(struct super_block *sb, u32 map_block, u32 entries,
		  u32 first, u32 len);
typedef void (*pram_slot_fill_fn)(struct pram_inode *pi, u32 ino, void *arg);
int pram_new_slot(struct super_block *sb, pram_slot_fill_fn fill, void *arg,
		  bool logged, u32 *ino);
int pram_new_ino(struct super_block *sb, umode_t mode, u32 *ino);
void pram_free_ino(struct super_block *sb, u32 ino);
void pram_release_ino(struct super_block *sb, u32 ino, u32 block,
		      bool after_cut);
void pram_hold_orphan_block(struct super_block *sb, u32 ino);
int pram_hold_slot(struct super_block *sb, pram_slot_fill_fn fill, void *arg,
		   u32 *ino);
int pram_reserved_init(struct super_block *sb);
void pram_reserved_free(struct pram_sb_info *sbi);
void pram_load_counts(struct super_block *sb);
void pram_sync_counts(struct super_block *sb, bool clean);

/* file.c */
extern const struct file_operations pram_file_operations;
extern const struct inode_operations pram_file_inode_operations;
int pram_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct iattr *attr);
u32 pram_row_block(struct inode *inode);
long pram_data_block(struct inode *inode, u64 fblock);
void pram_free_data(struct inode *inode);
void pram_finish_truncate(struct inode *inode);

/* mmap.c */
extern const struct address_space_operations pram_aops;
int pram_file_mmap(struct file *file, struct vm_area_struct *vma);
void pram_mmap_written(struct inode *inode, loff_t pos, size_t len,
		       bool new_blocks);

/**
 * pram_get_inode() - the on-media inode @ino, or NULL if out of range
 * @sb: the superblock
 * @ino: an inode number, possibly read from NVRAM
 */
static inline struct pram_inode *pram_get_inode(struct super_block *sb,
						u32 ino)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	if (!pram_ino_valid(&sbi->geo, ino))
		return NULL;
	return sbi->virt_addr + pram_ino_offset(ino);
}

/* inode.c */

/* What pram_finish_orphans() finished. */
struct pram_finished {
	unsigned int	deleted;	/* deleted inodes freed */
	unsigned int	truncated;	/* truncates finished */
	unsigned int	names;		/* name records freed */
	unsigned int	cleared;	/* free slots not all zeros, cleared */
};

struct inode *pram_iget(struct super_block *sb, u32 ino);
void pram_finish_orphans(struct super_block *sb, struct pram_finished *done);
void pram_evict_inode(struct inode *inode);
int pram_inode_cache_init(void);
void pram_inode_cache_destroy(void);
struct inode *pram_alloc_inode(struct super_block *sb);
void pram_free_inode(struct inode *inode);
void pram_inode_sizes_to_record(struct inode *inode, struct pram_inode *pi);
void pram_inode_to_record(struct inode *inode, struct pram_inode *pi);
bool pram_record_holds(struct inode *inode);
void pram_update_inode(struct inode *inode);
void pram_init_root(struct super_block *sb, struct pram_inode *pi);
void pram_record_lock(struct super_block *sb, u32 ino);
void pram_record_unlock(struct super_block *sb, u32 ino);
/* A record's bytes before its name: its attributes and list links. */
#define PRAM_INODE_ATTRS	offsetof(struct pram_inode, i_name)
/*
 * What a change that keeps the name saves of a record: PRAM_INODE_ATTRS
 * filled out to whole journal lines with the name's first bytes (88, two
 * lines either way). The name saved later in the same transaction is
 * then one line (40 bytes), not two (48).
 */
#define PRAM_INODE_LOGGED	roundup(PRAM_INODE_ATTRS, PRAM_JOURNAL_DATA)
struct pram_inode *pram_record_open(struct super_block *sb, u32 ino,
				    u32 from, u32 len);
void pram_record_end(struct super_block *sb, struct pram_inode *pi);

/**
 * pram_record_begin() - open inode @ino's on-media record for changes
 * @sb: the superblock
 * @ino: a valid inode number
 *
 * Begins a transaction (or nests in the open one), takes the record's
 * lock, saves the record's attributes and list links (PRAM_INODE_LOGGED
 * bytes: two journal lines, not three) in the journal and opens a write
 * window over it; end with pram_record_end(), which checksums the record
 * and ends the transaction. Never nest two. The name must not change:
 * pram_record_begin_named() is for that.
 *
 * Return: the record, writable until pram_record_end().
 */
static inline struct pram_inode *pram_record_begin(struct super_block *sb,
						   u32 ino)
{
	return pram_record_open(sb, ino, 0, PRAM_INODE_LOGGED);
}

/**
 * pram_record_begin_named() - as pram_record_begin(), the name saved too
 * @sb: the superblock
 * @ino: a valid inode number
 *
 * Return: the record, writable (all of it) until pram_record_end().
 */
static inline struct pram_inode *
pram_record_begin_named(struct super_block *sb, u32 ino)
{
	return pram_record_open(sb, ino, 0, PRAM_INODE_SIZE);
}

/**
 * pram_record_begin_part() - as pram_record_begin(), for a few bytes
 * @sb: the superblock
 * @ino: a valid inode number
 * @from: the first byte to change, past the checksum
 * @len: how many, at most PRAM_JOURNAL_SLOT_DATA: no other byte changes
 *
 * With INCOMPAT_SLOT the journal saves those bytes and the checksum, in
 * one slot entry (a list link, a directory's times and tail: one line,
 * not two); without it, the record's bytes from its first to the last
 * that may change, in whole lines.
 *
 * Return: the record, writable until pram_record_end().
 */
static inline struct pram_inode *
pram_record_begin_part(struct super_block *sb, u32 ino, u32 from, u32 len)
{
	return pram_record_open(sb, ino, from, len);
}

/* A record's size, block count, flags and times: one slot entry. */
#define PRAM_INODE_SIZES_FROM	offsetof(struct pram_inode, i_size)
#define PRAM_INODE_SIZES_LEN	(offsetof(struct pram_inode, i_xattr) - \
				 PRAM_INODE_SIZES_FROM)
static_assert(PRAM_INODE_SIZES_LEN <= PRAM_JOURNAL_SLOT_DATA);

/**
 * pram_record_begin_sizes() - as pram_record_begin(), for a write's change
 * @sb: the superblock
 * @ino: a valid inode number
 *
 * pram_record_begin_part() for what pram_inode_sizes_to_record() writes,
 * and the flags between: nothing else may change.
 *
 * Return: the record, writable until pram_record_end().
 */
static inline struct pram_inode *
pram_record_begin_sizes(struct super_block *sb, u32 ino)
{
	return pram_record_begin_part(sb, ino, PRAM_INODE_SIZES_FROM,
				      PRAM_INODE_SIZES_LEN);
}

/**
 * pram_record_begin_new() - as pram_record_begin(), for a free slot
 * @sb: the superblock
 * @ino: a free slot, just taken
 *
 * Its zeros are not saved in the journal: a power cut before the
 * commit leaves the record written, and recovery frees it as garbage
 * (only for records that tell so: see pram_new_slot()).
 *
 * Return: the record, writable until pram_record_end().
 */
static inline struct pram_inode *pram_record_begin_new(struct super_block *sb,
						       u32 ino)
{
	return pram_record_open(sb, ino, 0, 0);
}

void pram_record_patch(struct super_block *sb, u32 ino, __le32 *field,
		       u32 value);
void pram_record_clear(struct super_block *sb, u32 ino);
void pram_record_wipe(struct super_block *sb, u32 ino);
void pram_set_ops(struct inode *inode, dev_t rdev);

/* dir.c */
struct pram_list_pos {
	u32	prev, next;	/* the entries on each side, 0 for an end */
};

/* entry.c: entries' names and what they name */
struct pram_name_slots {
	u32		rec[PRAM_NAME_RECS];	/* name records reserved */
	unsigned int	n;
};

void pram_set_incompat(struct super_block *sb, u32 bit);
int pram_name_reserve(struct super_block *sb, u32 owner,
		      const struct qstr *name, struct pram_name_slots *ns);
void pram_name_unreserve(struct super_block *sb, struct pram_name_slots *ns);
void pram_name_recs_of(struct super_block *sb, u32 ino, u32 recs[PRAM_NAME_RECS]);
void pram_name_free_recs(struct super_block *sb, u32 ino,
			 const u32 recs[PRAM_NAME_RECS]);
void pram_name_set(struct super_block *sb, u32 ino, const struct qstr *name,
		   struct pram_name_slots *ns, const struct pram_list_pos *pos,
		   u32 parent, struct inode *inode);
int pram_entry_name_get(struct super_block *sb, u32 ino, char *buf, u32 *len);
u32 pram_entry_inode(struct super_block *sb, u32 ino);
int pram_new_link(struct super_block *sb, u32 target, u32 *entry);
bool pram_name_rec_finish(struct super_block *sb, u32 rec);

extern const struct file_operations pram_dir_operations;
void pram_dir_forget(struct inode *dir);
unsigned int pram_dir_gen(struct inode *a, struct inode *b);
struct dentry *pram_lookup(struct inode *dir, struct dentry *dentry,
			   unsigned int flags);
int pram_dir_name_entry(struct inode *dir, const struct qstr *name,
			struct inode *inode, u32 *entry);
int pram_dir_find_gap(struct inode *dir, u32 ino, struct pram_list_pos *pos);
int pram_dir_find_entry(struct inode *dir, u32 ino, struct pram_list_pos *pos);
void pram_dir_pos_skip(struct pram_list_pos *pos, u32 gone,
		       const struct pram_list_pos *gone_pos);
void pram_dir_link(struct inode *dir, u32 ino, const struct qstr *name,
		   struct pram_name_slots *ns, const struct pram_list_pos *pos,
		   struct inode *inode);
void pram_dir_unlink(struct inode *dir, u32 ino,
		     const struct pram_list_pos *pos);
void pram_dir_remove(struct inode *dir, u32 ino,
		     const struct pram_list_pos *pos, struct inode *inode);
void pram_dir_rename(struct inode *dir, u32 ino, const struct qstr *name,
		     struct pram_name_slots *ns, struct inode *inode);
int pram_add_entry(struct inode *dir, u32 ino, const struct qstr *name,
		   struct inode *inode);
int pram_dir_empty(struct inode *dir);

/* xattr.c */
extern const struct xattr_handler * const pram_xattr_handlers[];
int pram_xattr_get(struct inode *inode, u8 index, const char *name,
		   void *buffer, size_t size);
int pram_xattr_set(struct inode *inode, u8 index, const char *name,
		   const void *value, size_t size, int flags);
void pram_xattr_drop(struct inode *inode);
ssize_t pram_listxattr(struct dentry *dentry, char *buffer, size_t size);
int pram_init_security(struct inode *inode, struct inode *dir,
		       const struct qstr *name);

/* acl.c */
#ifdef CONFIG_FS_POSIX_ACL
struct posix_acl *pram_get_inode_acl(struct inode *inode, int type, bool rcu);
int pram_set_acl(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct posix_acl *acl, int type);
int pram_init_acl(struct inode *inode, struct posix_acl *default_acl,
		  struct posix_acl *acl);
#else
#define pram_get_inode_acl	NULL
#define pram_set_acl		NULL
static inline int pram_init_acl(struct inode *inode,
				struct posix_acl *default_acl,
				struct posix_acl *acl)
{
	return 0;
}
#endif

/* index.c: a directory's entries in memory */
struct pram_dir_ent {
	struct hlist_node	node;	/* in its name's bucket, or unhashed */
	u32			hash;
	u32			ino;
	bool			bad;	/* refused when the index was built */
};

struct pram_dir_index *pram_index_new(void);
void pram_index_destroy(struct pram_dir_index *idx);
int pram_index_insert(struct super_block *sb, struct pram_dir_index *idx,
		      u32 ino, bool bad, const char *name, u32 len, u32 *dup);
long pram_index_find(struct super_block *sb, struct pram_dir_index *idx,
		     const struct qstr *name);
void pram_index_refuse(struct pram_dir_index *idx, u32 ino);
bool pram_index_bad(struct pram_dir_index *idx, u32 ino);
void pram_index_del(struct pram_dir_index *idx, u32 ino);
void pram_index_unname(struct pram_dir_index *idx, u32 ino);
void pram_index_rename(struct pram_dir_index *idx, u32 ino, const char *name,
		       u32 len);
struct pram_dir_ent *pram_index_next(struct pram_dir_index *idx,
				     unsigned long *ino);
bool pram_index_has(struct pram_dir_index *idx, u32 ino);
unsigned int pram_index_members(struct pram_dir_index *idx);

/* namei.c */
extern const struct inode_operations pram_dir_inode_operations;
extern const struct inode_operations pram_symlink_inode_operations;
extern const struct inode_operations pram_special_inode_operations;

/* super.c */
__printf(2, 3) void pram_msg(struct super_block *sb, const char *fmt, ...);
__printf(3, 4) void pram_error(struct super_block *sb, u32 ino,
			       const char *fmt, ...);
#define pram_err(sb, fmt, ...) \
	pram_msg(sb, KERN_ERR fmt, ##__VA_ARGS__)
#define pram_warn(sb, fmt, ...) \
	pram_msg(sb, KERN_WARNING fmt, ##__VA_ARGS__)
#define pram_info(sb, fmt, ...) \
	pram_msg(sb, KERN_INFO fmt, ##__VA_ARGS__)

#endif /* _PRAMFS_H */
