// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS inodes: reading them from NVRAM into the VFS and writing them
 * back. Metadata is written through at once: there is no dirty state
 * that could be lost at a power cut.
 */
#include <linux/slab.h>
#include <linux/writeback.h>
#include "pramfs.h"

static struct kmem_cache *pram_inode_cachep;

static struct mutex *pram_record_mutex(struct super_block *sb, u32 ino)
{
	return &PRAM_SB(sb)->record_lock[ino % PRAM_RECORD_LOCKS];
}

/**
 * pram_record_lock() - hold inode @ino's record still, to read it whole
 * @sb: the superblock
 * @ino: a valid inode number
 */
void pram_record_lock(struct super_block *sb, u32 ino)
{
	mutex_lock(pram_record_mutex(sb, ino));
}

/**
 * pram_record_unlock() - undo pram_record_lock()
 * @sb: the superblock
 * @ino: the inode number
 */
void pram_record_unlock(struct super_block *sb, u32 ino)
{
	mutex_unlock(pram_record_mutex(sb, ino));
}

/*
 * Save what pram_record_open() is to save of record @pi: bytes [@from,
 * @from + @len) past its checksum in a slot entry, with INCOMPAT_SLOT;
 * otherwise the record's bytes from its first on, in whole journal
 * lines; of a free slot all zeros, what makes it free again (the undo
 * of a new record).
 */
static void pram_record_save(struct super_block *sb, struct pram_inode *pi,
			     u32 from, u32 len)
{
	if (pram_slot_is_clear(pi))
		pram_tx_log_free(sb, pi);
	else if (from >= sizeof(pi->i_csum) && len <= PRAM_JOURNAL_SLOT_DATA &&
		 pram_has_incompat(&PRAM_SB(sb)->geo,
				   PRAM_FEATURE_INCOMPAT_SLOT))
		pram_tx_log_slot(sb, (void *)pi + from, len);
	else
		pram_tx_log(sb, pi, min_t(u32, roundup(from + len,
						       PRAM_JOURNAL_DATA),
					  PRAM_INODE_SIZE));
}

/**
 * pram_record_open() - open inode @ino's on-media record for changes
 * @sb: the superblock
 * @ino: a valid inode number
 * @from: the first byte that may change
 * @len: how many may, from @from on; 0 to save nothing
 *
 * The record's lock, its window, and in the journal what may change
 * (pram_record_save()). pram_record_begin() and its variants in pramfs.h
 * say what.
 *
 * Return: the record, writable until pram_record_end().
 */
struct pram_inode *pram_record_open(struct super_block *sb, u32 ino,
				    u32 from, u32 len)
{
	struct pram_inode *pi = pram_get_inode(sb, ino);

	if (WARN_ON_ONCE(from + len > PRAM_INODE_SIZE))
		from = 0;
	pram_tx_begin(sb);
	pram_record_lock(sb, ino);
	if (len)
		pram_record_save(sb, pi, from, len);
	return pram_wp_open(sb, pi, PRAM_INODE_SIZE);
}

/**
 * pram_record_end() - checksum the record, close its window and unlock
 * @sb: the superblock
 * @pi: as returned by pram_record_begin()
 */
void pram_record_end(struct super_block *sb, struct pram_inode *pi)
{
	void *target = pram_wp_target(sb, pi);
	u32 ino = (target - PRAM_SB(sb)->virt_addr) >> PRAM_INODE_BITS;

	pram_slot_seal(pi, ino);
	pram_wp_close(sb, pi, PRAM_INODE_SIZE);
	pram_record_unlock(sb, ino);
	pram_tx_end(sb);
}

/**
 * pram_record_patch() - set one __le32 field of a record that may be bad
 * @sb: the superblock
 * @ino: a valid inode number
 * @field: the field, in the record in the mapping
 * @value: its new value
 *
 * The checksum stays exactly as right or as wrong as it was (crc32c is
 * linear: the stored value moves by what the true one moves by), so a
 * record refused for a bad checksum is not made valid by a change of a
 * neighbour's list link.
 */
void pram_record_patch(struct super_block *sb, u32 ino, __le32 *field,
		       u32 value)
{
	struct pram_inode *pi = pram_get_inode(sb, ino), *w;
	u32 before;

	if (WARN_ON_ONCE((void *)field - (void *)pi > PRAM_INODE_ATTRS - 4))
		return;
	pram_tx_begin(sb);
	pram_record_lock(sb, ino);
	pram_tx_log(sb, pi, PRAM_INODE_LOGGED);
	before = pram_inode_csum(pi, ino);
	w = pram_wp_open(sb, pi, PRAM_INODE_SIZE);
	*(__le32 *)((void *)w + ((void *)field - (void *)pi)) = cpu_to_le32(value);
	w->i_csum = cpu_to_le32(le32_to_cpu(w->i_csum) ^ before ^
				pram_inode_csum(w, ino));
	pram_wp_close(sb, w, PRAM_INODE_SIZE);
	pram_record_unlock(sb, ino);
	pram_tx_end(sb);
}

/**
 * pram_record_clear() - zero inode @ino's record, as init= left it: free
 * @sb: the superblock
 * @ino: a valid inode number
 */
void pram_record_clear(struct super_block *sb, u32 ino)
{
	struct pram_inode *pi = pram_get_inode(sb, ino);

	pram_tx_begin(sb);
	pram_record_lock(sb, ino);
	/*
	 * A name already taken away (a link entry's, a first name's while
	 * others stay) is zero: no need to save it. A deleted inode's short
	 * name is saved.
	 */
	pram_tx_log(sb, pi, memchr_inv(pi->i_name, 0, PRAM_NAME_LEN) ?
			    PRAM_INODE_SIZE : PRAM_INODE_LOGGED);
	pi = pram_wp_open(sb, pi, PRAM_INODE_SIZE);
	memset(pi, 0, PRAM_INODE_SIZE);
	pram_wp_close(sb, pi, PRAM_INODE_SIZE);
	pram_record_unlock(sb, ino);
	pram_tx_end(sb);
}

/**
 * pram_record_wipe() - zero inode @ino's record without the journal
 * @sb: the superblock, s_lock held
 * @ino: an inode that is deleted and holds nothing but its slot (its
 *	 block, if it had one, freed: pram_release_ino())
 *
 * Its mode goes first, in a persistence point of its own: from then on
 * the slot is free, and what a cut leaves of the rest the next mount
 * clears (pram_finish_orphans()), as fsck.pramfs does. A cut before
 * leaves the record deleted, which the next mount frees.
 */
void pram_record_wipe(struct super_block *sb, u32 ino)
{
	struct pram_inode *w;

	pram_record_lock(sb, ino);
	w = pram_wp_open(sb, pram_get_inode(sb, ino), PRAM_INODE_SIZE);
	WRITE_ONCE(w->i_mode, 0);
	w = pram_wp_persist(sb, w, PRAM_INODE_SIZE);
	memset(w, 0, PRAM_INODE_SIZE);
	pram_wp_close(sb, w, PRAM_INODE_SIZE);
	pram_record_unlock(sb, ino);
}

/**
 * pram_set_ops() - the operations for @inode's type
 * @inode: an inode whose i_mode is set
 * @rdev: the device number of a device inode
 */
void pram_set_ops(struct inode *inode, dev_t rdev)
{
	switch (inode->i_mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &pram_file_inode_operations;
		inode->i_fop = &pram_file_operations;
		inode->i_mapping->a_ops = &pram_aops;
		break;
	case S_IFDIR:
		inode->i_op = &pram_dir_inode_operations;
		inode->i_fop = &pram_dir_operations;
		break;
	case S_IFLNK:
		inode->i_op = &pram_symlink_inode_operations;
		inode_nohighmem(inode);
		break;
	default:
		inode->i_op = &pram_special_inode_operations;
		init_special_inode(inode, inode->i_mode, rdev);
		break;
	}
}

static void pram_read_inode(struct inode *inode, const struct pram_inode *pi)
{
	inode->i_mode = le16_to_cpu(pi->i_mode);
	i_uid_write(inode, le32_to_cpu(pi->i_uid));
	i_gid_write(inode, le32_to_cpu(pi->i_gid));
	set_nlink(inode, le16_to_cpu(pi->i_links_count));
	inode->i_size = le64_to_cpu(pi->i_size);
	inode->i_blocks = (blkcnt_t)le32_to_cpu(pi->i_blocks) <<
			  (inode->i_sb->s_blocksize_bits - 9);
	inode_set_atime_to_ts(inode, pram_time_unpack(pi->i_atime));
	inode_set_mtime_to_ts(inode, pram_time_unpack(pi->i_mtime));
	inode_set_ctime_to_ts(inode, pram_time_unpack(pi->i_ctime));
	pram_set_ops(inode, new_decode_dev(le32_to_cpu(pi->i_type.dev.rdev)));
}

/*
 * A regular file's block count must be what its map holds; the map is
 * read whole, once, when the inode is first read.
 */
static int pram_check_map(struct super_block *sb, const struct pram_inode *pi,
			  const char **why)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	u32 blocks;

	if (!S_ISREG(le16_to_cpu(pi->i_mode)))
		return 0;
	if (pram_file_map_check(&sbi->geo, sbi->virt_addr, pi, &blocks, why))
		return -EINVAL;
	if (blocks != le32_to_cpu(pi->i_blocks)) {
		*why = "block count does not match the block map";
		return -EINVAL;
	}
	return 0;
}

/*
 * The checks of a record read for @inode. A deleted inode (no links, no
 * parent: see pram_inode_deleted()) passes them when @deleted is true and
 * the record is otherwise what a linked one would be: its checksum
 * first, then a copy with the links of a linked inode.
 */
static int pram_check_record(struct super_block *sb, const struct pram_inode *pi,
			     u32 ino, bool deleted, const char **why)
{
	struct pram_inode copy;

	if (!pram_mode_is_inode(le16_to_cpu(pi->i_mode))) {
		*why = pi->i_mode ? "not an inode" : "inode is free";
		return -EINVAL;
	}
	if (!deleted)
		return pram_inode_check(pi, ino, &PRAM_SB(sb)->geo, why);
	if (!pram_inode_deleted(pi) ||
	    le32_to_cpu(pi->i_csum) != pram_inode_csum(pi, ino)) {
		*why = "not a deleted inode";
		return -EINVAL;
	}
	copy = *pi;
	copy.i_links_count = cpu_to_le16(S_ISDIR(le16_to_cpu(pi->i_mode)) ? 2 : 1);
	pram_slot_seal(&copy, ino);
	return pram_inode_check(&copy, ino, &PRAM_SB(sb)->geo, why);
}

static struct inode *pram_iget_record(struct super_block *sb, u32 ino,
				      bool deleted)
{
	struct pram_inode *pi = pram_get_inode(sb, ino);
	struct inode *inode;
	const char *why;
	int err;

	if (!pi) {
		pram_error(sb, ino, "inode number out of range");
		return ERR_PTR(-EUCLEAN);
	}
	inode = iget_locked(sb, ino);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	/* The record lock: a neighbour's entry links may be changing. */
	pram_record_lock(sb, ino);
	err = pram_check_record(sb, pi, ino, deleted, &why);
	if (!err)
		pram_read_inode(inode, pi);
	PRAM_I(inode)->i_deleted = deleted;
	pram_record_unlock(sb, ino);
	if (!err)
		err = pram_check_map(sb, pi, &why);
	if (err) {
		iget_failed(inode);
		pram_error(sb, ino, "refused: %s", why);
		return ERR_PTR(-EUCLEAN);
	}
	unlock_new_inode(inode);
	return inode;
}

/**
 * pram_iget() - the VFS inode for @ino, read and checked on first use
 * @sb: the superblock
 * @ino: the inode number
 *
 * Return: the inode, or ERR_PTR(-EUCLEAN) for an inode that fails its
 * checks (an error, see pram_error()), or ERR_PTR(-ENOMEM).
 */
struct inode *pram_iget(struct super_block *sb, u32 ino)
{
	return pram_iget_record(sb, ino, false);
}

/* A truncate the cut stopped: finish it. */
static bool pram_finish_one_truncate(struct super_block *sb, u32 ino)
{
	struct inode *inode = pram_iget(sb, ino);

	if (IS_ERR(inode))
		return false;
	if (S_ISREG(inode->i_mode)) {
		inode_lock(inode);
		pram_finish_truncate(inode);
		inode_unlock(inode);
	}
	iput(inode);
	return true;
}

/*
 * A deleted inode: read it as one and let it go, so eviction frees it.
 * One that stays keeps its direct block, if free, from others.
 */
static bool pram_finish_one_deleted(struct super_block *sb, u32 ino)
{
	struct inode *inode = pram_iget_record(sb, ino, true);

	if (IS_ERR(inode)) {
		pram_hold_orphan_block(sb, ino);
		return false;
	}
	iput(inode);
	return true;
}

/*
 * A free slot that is not all zeros is cleared: a new record whose
 * operation a cut undid (only its mode is restored: pram_tx_log_free()),
 * a record freed without the journal and cut before its end
 * (pram_record_wipe()), or a name record torn before its mode.
 */
static bool pram_free_slot_finish(struct super_block *sb, u32 ino)
{
	if (pram_slot_is_clear(pram_get_inode(sb, ino)))
		return false;
	pram_record_clear(sb, ino);
	return true;
}

/**
 * pram_finish_orphans() - finish what a power cut left under way
 * @sb: the superblock, mounted read-write after an unclean stop
 * @done: what was finished, counted
 *
 * Inodes deleted while in use are freed, as their eviction would have
 * done; truncates marked PRAM_INODE_TRUNCATE are finished; name records
 * that no entry's name holds (written, not journaled, by an operation
 * the cut undid) are freed; free slots that are not all zeros are
 * cleared. A record that fails its checks stays, logged, for
 * fsck.pramfs. The inode table is scanned once, as for the free inode
 * count after an unclean stop.
 */
void pram_finish_orphans(struct super_block *sb, struct pram_finished *done)
{
	u32 ino, end = PRAM_ROOT_INO + PRAM_SB(sb)->geo.inodes_count;
	const struct pram_inode *pi;

	memset(done, 0, sizeof(*done));
	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		pi = pram_get_inode(sb, ino);
		if (!pi->i_mode && ino != PRAM_ROOT_INO)
			done->cleared += pram_free_slot_finish(sb, ino);
		else if (pram_mode_is_name(le16_to_cpu(pi->i_mode)))
			done->names += pram_name_rec_finish(sb, ino);
		if (!pram_mode_is_inode(le16_to_cpu(pi->i_mode)))
			continue;
		if (ino != PRAM_ROOT_INO && pram_inode_deleted(pi))
			done->deleted += pram_finish_one_deleted(sb, ino);
		else if (pi->i_flags & cpu_to_le32(PRAM_INODE_TRUNCATE))
			done->truncated += pram_finish_one_truncate(sb, ino);
		cond_resched();
	}
}

/**
 * pram_inode_sizes_to_record() - what a write changes, into the record
 * @inode: the inode
 * @pi: its record, open (pram_record_begin_sizes() is enough)
 *
 * The size, the block count and the times: PRAM_INODE_SIZES_FROM on.
 */
void pram_inode_sizes_to_record(struct inode *inode, struct pram_inode *pi)
{
	pi->i_size = cpu_to_le64(inode->i_size);
	pi->i_blocks = cpu_to_le32(inode->i_blocks >> (inode->i_blkbits - 9));
	pi->i_atime = pram_time_pack(inode_get_atime(inode));
	pi->i_mtime = pram_time_pack(inode_get_mtime(inode));
	pi->i_ctime = pram_time_pack(inode_get_ctime(inode));
}

/**
 * pram_inode_to_record() - the VFS inode's attributes into its record
 * @inode: the inode
 * @pi: its record, open (pram_record_begin())
 */
void pram_inode_to_record(struct inode *inode, struct pram_inode *pi)
{
	pi->i_mode = cpu_to_le16(inode->i_mode);
	pi->i_uid = cpu_to_le32(i_uid_read(inode));
	pi->i_gid = cpu_to_le32(i_gid_read(inode));
	pi->i_links_count = cpu_to_le16(inode->i_nlink);
	pram_inode_sizes_to_record(inode, pi);
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		pi->i_type.dev.rdev = cpu_to_le32(new_encode_dev(inode->i_rdev));
}

/**
 * pram_record_holds() - does @inode's record hold its attributes already?
 * @inode: the inode
 */
bool pram_record_holds(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	const struct pram_inode *pi = pram_get_inode(sb, inode->i_ino);
	struct pram_inode want;
	bool same;

	pram_record_lock(sb, inode->i_ino);
	want = *pi;
	pram_inode_to_record(inode, &want);
	same = !memcmp(&want, pi, sizeof(want));
	pram_record_unlock(sb, inode->i_ino);
	return same;
}

/**
 * pram_update_inode() - write the VFS inode's attributes to NVRAM
 * @inode: the inode
 */
void pram_update_inode(struct inode *inode)
{
	struct pram_inode *pi;

	pi = pram_record_begin(inode->i_sb, inode->i_ino);
	pram_inode_to_record(inode, pi);
	pram_record_end(inode->i_sb, pi);
}

/*
 * Is @inode really gone from the namespace: no links, and in no directory
 * list (unlinking clears i_parent)? Never decided by a count read from
 * NVRAM alone, and never true of the root.
 */
static bool pram_unlinked(struct inode *inode)
{
	struct pram_inode *pi;

	if (inode->i_nlink || inode->i_ino == PRAM_ROOT_INO)
		return false;
	pi = pram_get_inode(inode->i_sb, inode->i_ino);
	return pi && !pi->i_parent;
}

/*
 * May the deleted @inode go without the journal (pram_release_ino())?
 * When it holds nothing but its slot and perhaps a direct file's one
 * block, *@block (else 0): no map or symlink block, no attribute block,
 * no truncate under way, no long name (a short one goes with the
 * record). Not with a block inside this task's own transaction, whose
 * undo would set the block's bit again.
 */
static bool pram_holds_little(struct inode *inode, u32 *block)
{
	struct super_block *sb = inode->i_sb;
	const struct pram_inode *pi = pram_get_inode(sb, inode->i_ino);
	bool mapped = S_ISREG(inode->i_mode) || S_ISLNK(inode->i_mode);

	*block = S_ISREG(inode->i_mode) ? le32_to_cpu(pi->i_type.reg.direct) : 0;
	if (*block && pram_tx_active(sb))
		return false;
	return le32_to_cpu(pi->i_blocks) == !!*block && !pi->i_xattr &&
	       !pi->i_flags && !(mapped && pi->i_type.reg.row_block) &&
	       !(S_ISLNK(inode->i_mode) && pi->i_type.reg.direct);
}

/*
 * The last reference to an inode is gone. One that is unlinked (possibly
 * while it was open) gives its blocks and its inode number back now; on
 * a read-only filesystem nothing is written, so it stays, unreachable,
 * for fsck.pramfs.
 */
void pram_evict_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	bool release = !is_bad_inode(inode) && pram_unlinked(inode);
	u32 block;

	truncate_inode_pages_final(&inode->i_data);
	if (S_ISDIR(inode->i_mode))
		pram_dir_forget(inode);
	if (release && sb_rdonly(sb)) {
		pram_warn(sb, "inode %lu: unlinked on a read-only filesystem: not freed",
			  inode->i_ino);
		release = false;
	}
	if (!release) {
		clear_inode(inode);
		return;
	}
	if (pram_holds_little(inode, &block)) {
		/* No undo needed: the next mount finishes what a cut leaves. */
		clear_inode(inode);
		pram_release_ino(sb, inode->i_ino, block,
				 PRAM_I(inode)->i_deleted);
		return;
	}
	/* One transaction, the record logged once, committing in parts. */
	pram_tx_begin_parts(sb);
	pram_free_data(inode);
	pram_xattr_drop(inode);
	clear_inode(inode);
	pram_free_ino(sb, inode->i_ino);
	pram_tx_end(sb);
}

/**
 * pram_init_root() - write a fresh root directory inode
 * @sb: the superblock being formatted, its options in PRAM_SB(sb)->opts
 * @pi: the root inode, zeroed, inside an open write window
 */
void pram_init_root(struct super_block *sb, struct pram_inode *pi)
{
	struct pram_mount_opts *opts = &PRAM_SB(sb)->opts;
	struct timespec64 now;

	ktime_get_real_ts64(&now);
	pram_root_format(pi, opts->mode, from_kuid(&init_user_ns, opts->uid),
			 from_kgid(&init_user_ns, opts->gid), pram_time_pack(now));
}

struct inode *pram_alloc_inode(struct super_block *sb)
{
	struct pram_inode_info *pii;

	pii = alloc_inode_sb(sb, pram_inode_cachep, GFP_KERNEL);
	if (!pii)
		return NULL;
	pii->i_index = NULL;
	pii->i_index_gen = 0;
	pii->i_stamped = false;
	pii->i_deleted = false;
	return &pii->vfs_inode;
}

void pram_free_inode(struct inode *inode)
{
	kmem_cache_free(pram_inode_cachep, PRAM_I(inode));
}

static void pram_inode_init_once(void *obj)
{
	struct pram_inode_info *pii = obj;

	mutex_init(&pii->i_index_lock);
	init_rwsem(&pii->i_xattr_sem);
	inode_init_once(&pii->vfs_inode);
}

int pram_inode_cache_init(void)
{
	pram_inode_cachep = kmem_cache_create("pram_inode_cache",
					      sizeof(struct pram_inode_info), 0,
					      SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					      pram_inode_init_once);
	return pram_inode_cachep ? 0 : -ENOMEM;
}

void pram_inode_cache_destroy(void)
{
	/* RCU-freed inodes must be gone before the cache is. */
	rcu_barrier();
	kmem_cache_destroy(pram_inode_cachep);
}
