// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS superblock: mount options, formatting with init=, finding an
 * existing filesystem, statfs, remount, and the module.
 */
#define pr_fmt(fmt) "pramfs " fmt

#include <linux/ctype.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/timekeeping.h>
#include "pramfs.h"

/**
 * pram_msg() - log a message that names the filesystem instance
 * @sb: the superblock
 * @fmt: a KERN_<LEVEL> prefix, then the format
 */
void pram_msg(struct super_block *sb, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;
	int level = printk_get_level(fmt);

	va_start(args, fmt);
	vaf.fmt = printk_skip_level(fmt);
	vaf.va = &args;
	switch (level) {
	case '0' + LOGLEVEL_ERR:
		pr_err("(%s): %pV\n", sb->s_id, &vaf);
		break;
	case '0' + LOGLEVEL_WARNING:
		pr_warn("(%s): %pV\n", sb->s_id, &vaf);
		break;
	default:
		pr_info("(%s): %pV\n", sb->s_id, &vaf);
	}
	va_end(args);
}

/*
 * Record in the superblock pair that corruption was found, once; only a
 * read-write mount that is up writes it (not a mount that is failing).
 */
static void pram_mark_errors(struct super_block *sb)
{
	struct pram_super_block *ps = PRAM_SB(sb)->virt_addr;

	if (sb_rdonly(sb) || !sb->s_root ||
	    (le16_to_cpu(ps->s_state) & PRAM_STATE_ERRORS))
		return;
	ps = pram_super_begin(sb);
	ps->s_state |= cpu_to_le16(PRAM_STATE_ERRORS);
	pram_super_commit(sb, ps);
}

/**
 * pram_error() - report corrupted metadata found at run time
 * @sb: the superblock
 * @ino: the inode the problem is in, or 0
 * @fmt: what is wrong
 *
 * Logs it, records in the superblock that the filesystem has errors, and
 * does what errors= says: nothing more (continue), make the filesystem
 * read-only (remount-ro), or panic. Takes super_lock: call it with no
 * record lock held and no window open (but a transaction's journal
 * mapping, which is no window: tx.c).
 */
void pram_error(struct super_block *sb, u32 ino, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (ino)
		pr_err("(%s): error: inode %u: %pV\n", sb->s_id, ino, &vaf);
	else
		pr_err("(%s): error: %pV\n", sb->s_id, &vaf);
	va_end(args);
	pram_mark_errors(sb);
	switch (PRAM_SB(sb)->opts.errors) {
	case PRAM_ERRORS_PANIC:
		panic("pramfs (%s): panic forced after error\n", sb->s_id);
	case PRAM_ERRORS_RO:
		if (sb_rdonly(sb))
			break;
		pr_crit("(%s): remounting filesystem read-only\n", sb->s_id);
		sb->s_flags |= SB_RDONLY;
		break;
	}
}

/* ---- mount options ---- */

enum { Opt_physaddr, Opt_init, Opt_bs, Opt_bpi, Opt_N, Opt_mode, Opt_uid,
	Opt_gid, Opt_noprotect, Opt_errors, Opt_acl, Opt_direct };

static const struct constant_table pram_param_errors[] = {
	{ "continue",	PRAM_ERRORS_CONTINUE },
	{ "remount-ro",	PRAM_ERRORS_RO },
	{ "panic",	PRAM_ERRORS_PANIC },
	{}
};

static const struct fs_parameter_spec pram_fs_parameters[] = {
	fsparam_u64("physaddr",	Opt_physaddr),
	fsparam_string("init",	Opt_init),
	fsparam_string("bs",	Opt_bs),
	fsparam_string("bpi",	Opt_bpi),
	fsparam_u64("N",	Opt_N),
	fsparam_u32oct("mode",	Opt_mode),
	fsparam_uid("uid",	Opt_uid),
	fsparam_gid("gid",	Opt_gid),
	fsparam_flag("noprotect", Opt_noprotect),
	fsparam_enum("errors",	Opt_errors, pram_param_errors),
	fsparam_flag_no("acl",	Opt_acl),
	fsparam_flag_no("direct", Opt_direct),
	{}
};

/* A size with an optional K, M or G suffix, as memparse() reads it. */
static int pram_parse_size(struct fs_context *fc, struct fs_parameter *param,
			   u64 *val)
{
	char *rest;

	if (!isdigit(param->string[0]))
		goto bad;
	*val = memparse(param->string, &rest);
	if (*rest || !*val)
		goto bad;
	return 0;
bad:
	return invalfc(fc, "bad value '%s' for %s=", param->string, param->key);
}

static int pram_parse_physaddr(struct fs_context *fc, u64 addr)
{
	struct pram_mount_opts *opts = fc->fs_private;

	if (addr & ~PAGE_MASK)
		return invalfc(fc, "physaddr=%#llx is not page-aligned", addr);
	if (addr != (phys_addr_t)addr)
		return invalfc(fc, "physaddr=%#llx is out of range", addr);
	opts->physaddr = addr;
	return 0;
}

static int pram_parse_bs(struct fs_context *fc, struct fs_parameter *param)
{
	struct pram_mount_opts *opts = fc->fs_private;
	u64 bs;

	if (pram_parse_size(fc, param, &bs))
		return -EINVAL;
	if (bs < PRAM_MIN_BLOCK_SIZE || bs > PRAM_MAX_BLOCK_SIZE ||
	    !is_power_of_2(bs))
		return invalfc(fc, "bs=%s: must be 512, 1024, 2048 or 4096",
			       param->string);
	opts->blocksize = bs;
	return 0;
}

static int pram_parse_numbers(struct fs_context *fc,
			      struct fs_parameter *param, int opt,
			      struct fs_parse_result *result)
{
	struct pram_mount_opts *opts = fc->fs_private;

	switch (opt) {
	case Opt_init:
		return pram_parse_size(fc, param, &opts->init_size);
	case Opt_bpi:
		if (pram_parse_size(fc, param, &opts->bpi))
			return -EINVAL;
		if (opts->bpi < PRAM_INODE_SIZE)
			return invalfc(fc, "bpi=%s: at least %u bytes per inode",
				       param->string, PRAM_INODE_SIZE);
		return 0;
	case Opt_N:
		if (!result->uint_64 || result->uint_64 > U32_MAX)
			return invalfc(fc, "N=%s: must be 1 to %u", param->string,
				       U32_MAX);
		opts->ninodes = result->uint_64;
		return 0;
	}
	return pram_parse_bs(fc, param);
}

static int pram_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct pram_mount_opts *opts = fc->fs_private;
	struct fs_parse_result result;
	int opt, err = 0;

	opt = fs_parse(fc, pram_fs_parameters, param, &result);
	if (opt < 0)
		return opt;
	switch (opt) {
	case Opt_physaddr:
		err = pram_parse_physaddr(fc, result.uint_64);
		break;
	case Opt_mode:
		if (result.uint_32 & ~07777)
			return invalfc(fc, "mode=%s: not a permission mode",
				       param->string);
		opts->mode = result.uint_32;
		break;
	case Opt_uid:
		opts->uid = result.uid;
		break;
	case Opt_gid:
		opts->gid = result.gid;
		break;
	case Opt_noprotect:
		opts->noprotect = true;
		break;
	case Opt_errors:
		opts->errors = result.uint_32;
		break;
	case Opt_acl:
		if (!result.negated && !IS_ENABLED(CONFIG_FS_POSIX_ACL))
			return invalfc(fc, "acl: this kernel has no POSIX ACL support");
		opts->noacl = result.negated;
		break;
	case Opt_direct:
		opts->nodirect = result.negated;
		break;
	default:
		err = pram_parse_numbers(fc, param, opt, &result);
	}
	if (!err)
		opts->given |= BIT(opt);
	return err;
}

/* ---- formatting (init=) and finding an existing filesystem ---- */

static void pram_format_media(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_geometry *g = &sbi->geo;
	void *base = sbi->virt_addr;
	size_t meta = pram_block_offset(g, g->data_start);
	struct pram_super_block *ps = base;

	/*
	 * The superblock is zeroed first and written last: a power cut in
	 * between leaves no valid filesystem rather than a half-made one.
	 */
	/* Before pram_wp_enable(): the windows are the mapping itself. */
	base = pram_wp_open(sb, base, meta);
	memset(base, 0, pram_block_offset(g, g->bitmap_start));
	pram_bitmap_format(base + pram_block_offset(g, g->bitmap_start), g);
	pram_journal_format(base + pram_journal_offset(g));
	pram_init_root(sb, base + pram_ino_offset(PRAM_ROOT_INO));
	pram_wp_close(sb, base, meta);

	ps = pram_wp_open(sb, ps, PRAM_SB_SIZE);
	pram_super_format(ps, g);
	get_random_bytes(ps->s_uuid, sizeof(ps->s_uuid));
	pram_wp_close(sb, ps, PRAM_SB_SIZE);
}

static int pram_format(struct super_block *sb, struct fs_context *fc)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_mount_opts *opts = &sbi->opts;
	const char *why;
	int err;

	err = pram_geometry_compute(&sbi->geo, opts->init_size, opts->blocksize,
				    opts->bpi, opts->ninodes, true, &why);
	if (err)
		return invalfc(fc, "init=%llu: %s", opts->init_size, why);
	err = pram_map(sb, sbi->geo.size);
	if (err)
		return err;
	sbi->super = sbi->virt_addr;
	pram_format_media(sb);
	pram_info(sb, "formatted %llu bytes: block size %u, %u inodes, %u data blocks",
		  sbi->geo.size, sbi->geo.blocksize, sbi->geo.inodes_count,
		  sbi->geo.blocks_count - sbi->geo.data_start);
	/* Written through the mapping itself: the TLBs may hold it. */
	return pram_wp_enable(sb, true);
}

/*
 * Read both superblock copies through a one-page mapping and pick the
 * valid one (the primary if both are). Returns the copy's offset.
 */
static int pram_probe_super(struct super_block *sb, struct fs_context *fc,
			    struct pram_geometry *g)
{
	struct pram_super_block copies[2];
	const char *why[2];
	int i, err;

	err = pram_map(sb, PAGE_SIZE);
	if (err)
		return err;
	memcpy(copies, PRAM_SB(sb)->virt_addr, sizeof(copies));
	pram_unmap(sb);
	for (i = 0; i < 2; i++)
		if (!pram_super_check(&copies[i], g, &why[i]))
			return i * PRAM_SB_COPY_OFFSET;
	return invalfc(fc, "no valid pramfs at physaddr %#llx (superblock: %s; copy: %s)",
		       (u64)PRAM_SB(sb)->phys_addr, why[0], why[1]);
}

static void pram_repair_super(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_super_block *ps = pram_super_begin(sb);

	memcpy(ps, sbi->super, PRAM_SB_SIZE);
	pram_super_commit(sb, ps);
	sbi->super = sbi->virt_addr;
	pram_warn(sb, "primary superblock was bad: repaired from the copy");
}

static int pram_load(struct super_block *sb, struct fs_context *fc)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	int off, err;

	off = pram_probe_super(sb, fc, &sbi->geo);
	if (off < 0)
		return off;
	/*
	 * Read-only before the first access, on this CPU alone: no other
	 * TLB can hold the mapping, so no IPI flushes it (only the first
	 * protected mount after the module loads sends one, for the pools).
	 */
	migrate_disable();
	err = pram_map(sb, sbi->geo.size);
	if (!err)
		err = pram_wp_enable(sb, false);
	migrate_enable();
	if (err)
		return err;
	sbi->super = sbi->virt_addr + off;
	/* Refuse before anything is written, the repair included. */
	if (!sb_rdonly(sb) && (le32_to_cpu(sbi->super->s_feature_ro_compat) &
			       ~PRAM_FEATURE_RO_COMPAT_SUPP))
		return invalfc(fc, "unknown ro_compat features: mount read-only");
	if (off && !sb_rdonly(sb))
		pram_repair_super(sb);
	else if (off)
		pram_warn(sb, "primary superblock is bad: using the copy until a read-write mount repairs it");
	return 0;
}

/* ---- the root directory and the mount itself ---- */

#define PRAM_ROOT_OPTS	(PRAM_OPT_MODE | PRAM_OPT_UID | PRAM_OPT_GID)

/* mode=, uid= and gid= given without init= change the root directory. */
static void pram_set_root_attrs(struct super_block *sb,
				const struct pram_mount_opts *opts)
{
	struct inode *root = d_inode(sb->s_root);

	if (!(opts->given & PRAM_ROOT_OPTS))
		return;
	inode_lock(root);
	if (opts->given & PRAM_OPT_MODE)
		root->i_mode = (root->i_mode & S_IFMT) | opts->mode;
	if (opts->given & PRAM_OPT_UID)
		root->i_uid = opts->uid;
	if (opts->given & PRAM_OPT_GID)
		root->i_gid = opts->gid;
	inode_set_ctime_current(root);
	pram_update_inode(root);
	inode_unlock(root);
}

/* Record the root options of a mount or remount for show_options. */
static void pram_keep_root_opts(struct pram_mount_opts *kept,
				const struct pram_mount_opts *opts)
{
	if (opts->given & PRAM_OPT_MODE)
		kept->mode = opts->mode;
	if (opts->given & PRAM_OPT_UID)
		kept->uid = opts->uid;
	if (opts->given & PRAM_OPT_GID)
		kept->gid = opts->gid;
	kept->given |= opts->given & PRAM_ROOT_OPTS;
}

/*
 * A read-write mount: counted, and no longer clean, so that a power cut
 * before the next clean unmount makes the next mount count the inodes.
 */
static void pram_count_mount(struct super_block *sb)
{
	struct pram_super_block *ps;
	struct timespec64 now;

	ktime_get_real_ts64(&now);
	ps = pram_super_begin(sb);
	le32_add_cpu(&ps->s_mount_count, 1);
	ps->s_mtime = pram_time_pack(now);
	ps->s_state &= ~cpu_to_le16(PRAM_STATE_CLEAN);
	pram_super_commit(sb, ps);
}

static int pram_make_root(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root = pram_iget(sb, PRAM_ROOT_INO);

	if (IS_ERR(root))
		return invalfc(fc, "root inode is not valid");
	if (!S_ISDIR(root->i_mode)) {
		iput(root);
		return invalfc(fc, "root inode is not a directory");
	}
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static const struct super_operations pram_sops;

/* Which filesystem this is, in the log: its UUID and label. */
static void pram_say_mounted(struct super_block *sb)
{
	const struct pram_super_block *ps = pram_super(sb);

	pram_info(sb, "mounted %s: uuid %pU, label \"%*pE\"",
		  sb_rdonly(sb) ? "read-only" : "read-write", ps->s_uuid,
		  (int)strnlen(ps->s_volume_name, sizeof(ps->s_volume_name)),
		  ps->s_volume_name);
}

/* acl (the default where the kernel has ACLs) or noacl. */
static void pram_set_acl_flag(struct super_block *sb,
			      const struct pram_mount_opts *opts)
{
	if (IS_ENABLED(CONFIG_FS_POSIX_ACL) && !opts->noacl)
		sb->s_flags |= SB_POSIXACL;
	else
		sb->s_flags &= ~SB_POSIXACL;
}

static void pram_init_sb(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	int i;

	sb->s_op = &pram_sops;
	sb->s_xattr = pram_xattr_handlers;
	sb->s_magic = PRAM_SUPER_MAGIC;
	sb->s_time_gran = 1;
	sb->s_time_min = PRAM_TIME_MIN;
	sb->s_time_max = PRAM_TIME_MAX;
	sb->s_max_links = PRAM_LINK_MAX;
	/*
	 * As a block device's filesystems get it: a write need not look up
	 * security.capability once the VFS has found none (S_NOSEC, which
	 * it drops again on a chmod or a security.* change).
	 */
	sb->s_flags |= SB_NOSEC;
	pram_set_acl_flag(sb, &sbi->opts);
	snprintf(sb->s_id, sizeof(sb->s_id), "pram@%llx", (u64)sbi->phys_addr);
	mutex_init(&sbi->s_lock);
	mutex_init(&sbi->super_lock);
	for (i = 0; i < PRAM_RECORD_LOCKS; i++)
		mutex_init(&sbi->record_lock[i]);
	pram_tx_init(sb);
}

/*
 * After an unclean stop: finish the evictions the cut interrupted, and
 * say in one line what recovery did.
 */
static void pram_recover(struct super_block *sb, int undone, bool clean)
{
	struct pram_finished done = {};

	if (sb_rdonly(sb))
		return;
	if (!clean)
		pram_finish_orphans(sb, &done);
	if (undone || done.deleted || done.truncated || done.names ||
	    done.cleared)
		pram_info(sb, "recovered %d operations (%d ranges undone), finished %u orphans (%u deleted, %u truncates, %u name records), cleared %u free slots",
			  !!undone, undone,
			  done.deleted + done.truncated + done.names,
			  done.deleted, done.truncated, done.names,
			  done.cleared);
}

/*
 * A read-only mount after an unclean stop, going read-write: finish what
 * the cut left, as a read-write mount would have (the journal is empty:
 * pram_reconfigure() refuses otherwise). The VFS makes the superblock
 * writable only after pram_reconfigure(): the evictions need it so now.
 */
static void pram_recover_on_remount(struct super_block *sb)
{
	sb->s_flags &= ~SB_RDONLY;
	pram_recover(sb, 0, false);
	sb->s_flags |= SB_RDONLY;
}

static int pram_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	int undone, err;
	bool clean;

	sbi->opts = *(struct pram_mount_opts *)fc->fs_private;
	sbi->phys_addr = sbi->opts.physaddr;
	pram_init_sb(sb);
	if (sbi->opts.init_size && sb_rdonly(sb))
		return invalfc(fc, "init= needs a read-write mount");
	err = sbi->opts.init_size ? pram_format(sb, fc) : pram_load(sb, fc);
	if (!err)
		err = pram_reserved_init(sb);
	if (err)
		return err;
	/* Undo a cut operation before anything reads what it changed. */
	undone = pram_tx_load(sb);
	pram_load_counts(sb);
	clean = le16_to_cpu(sbi->super->s_state) & PRAM_STATE_CLEAN;
	if (le16_to_cpu(sbi->super->s_state) & PRAM_STATE_ERRORS)
		pram_warn(sb, "the filesystem has errors: run fsck.pramfs");
	sb->s_blocksize = sbi->geo.blocksize;
	sb->s_blocksize_bits = sbi->geo.blocksize_bits;
	sb->s_maxbytes = pram_max_file_size(sbi->geo.blocksize_bits);
	err = pram_make_root(sb, fc);
	if (err)
		return err;
	pram_recover(sb, undone, clean);
	if (!sbi->opts.init_size && (sbi->opts.given & PRAM_ROOT_OPTS)) {
		if (sb_rdonly(sb))
			return invalfc(fc, "mode=, uid= and gid= need a read-write mount");
		pram_set_root_attrs(sb, &sbi->opts);
	}
	if (!sb_rdonly(sb))
		pram_count_mount(sb);
	pram_say_mounted(sb);
	return 0;
}

static int pram_get_tree(struct fs_context *fc)
{
	struct pram_mount_opts *opts = fc->fs_private;

	if (!(opts->given & PRAM_OPT_PHYSADDR))
		return invalfc(fc, "physaddr= is required");
	return get_tree_nodev(fc, pram_fill_super);
}

static int pram_reconfigure(struct fs_context *fc)
{
	struct super_block *sb = fc->root->d_sb;
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_mount_opts *opts = fc->fs_private;
	bool to_rw = sb_rdonly(sb) && !(fc->sb_flags & SB_RDONLY);
	bool to_ro = !sb_rdonly(sb) && (fc->sb_flags & SB_RDONLY);

	if ((opts->given & PRAM_OPT_PHYSADDR) && opts->physaddr != sbi->phys_addr)
		return invalfc(fc, "physaddr cannot change on remount");
	if (opts->given & PRAM_OPT_INIT)
		return invalfc(fc, "init= cannot be given on remount");
	if (opts->noprotect != sbi->opts.noprotect)
		return invalfc(fc, "noprotect cannot change on remount");
	if (to_rw && (le32_to_cpu(pram_super(sb)->s_feature_ro_compat) &
		      ~PRAM_FEATURE_RO_COMPAT_SUPP))
		return invalfc(fc, "unknown ro_compat features: mount read-only");
	if ((opts->given & PRAM_ROOT_OPTS) && (fc->sb_flags & SB_RDONLY))
		return invalfc(fc, "mode=, uid= and gid= need a read-write mount");
	/* What a read-only mount shows cannot be undone under it. */
	if (to_rw && pram_tx_pending(sb))
		return invalfc(fc, "the journal holds an operation cut by a power loss: unmount, then mount read-write");
	sync_filesystem(sb);
	if (to_rw && pram_super(sb) != sbi->virt_addr)
		pram_repair_super(sb);
	pram_set_root_attrs(sb, opts);
	pram_keep_root_opts(&sbi->opts, opts);
	if (opts->given & PRAM_OPT_ERRORS)
		sbi->opts.errors = opts->errors;
	if (opts->given & PRAM_OPT_ACL) {
		sbi->opts.noacl = opts->noacl;
		pram_set_acl_flag(sb, &sbi->opts);
	}
	if (opts->given & PRAM_OPT_DIRECT)
		WRITE_ONCE(sbi->opts.nodirect, opts->nodirect);
	if (to_rw) {
		bool clean = le16_to_cpu(pram_super(sb)->s_state) &
			     PRAM_STATE_CLEAN;

		pram_tx_enable(sb, true);
		if (!clean)
			pram_recover_on_remount(sb);
		pram_count_mount(sb);
	}
	if (to_ro) {
		pram_sync_counts(sb, true);
		pram_tx_enable(sb, false);
	}
	return 0;
}

static void pram_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
	kfree(fc->s_fs_info);
}

static const struct fs_context_operations pram_context_ops = {
	.free		= pram_free_fc,
	.parse_param	= pram_parse_param,
	.get_tree	= pram_get_tree,
	.reconfigure	= pram_reconfigure,
};

static int pram_init_fs_context(struct fs_context *fc)
{
	struct pram_mount_opts *opts;

	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	if (!opts)
		return -ENOMEM;
	opts->mode = PRAM_DEF_ROOT_MODE;
	opts->uid = current_fsuid();
	opts->gid = current_fsgid();
	fc->fs_private = opts;
	if (fc->purpose != FS_CONTEXT_FOR_RECONFIGURE) {
		fc->s_fs_info = kzalloc(sizeof(struct pram_sb_info), GFP_KERNEL);
		if (!fc->s_fs_info)
			return -ENOMEM;
	}
	fc->ops = &pram_context_ops;
	return 0;
}

/* ---- super_operations ---- */

static int pram_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct pram_sb_info *sbi = PRAM_SB(sb);

	buf->f_type = PRAM_SUPER_MAGIC;
	buf->f_bsize = sbi->geo.blocksize;
	buf->f_frsize = sbi->geo.blocksize;
	buf->f_blocks = sbi->geo.blocks_count - sbi->geo.data_start;
	buf->f_bfree = READ_ONCE(sbi->free_blocks);
	buf->f_bavail = buf->f_bfree;
	buf->f_files = sbi->geo.inodes_count;
	buf->f_ffree = READ_ONCE(sbi->free_inodes);
	buf->f_namelen = PRAM_NAME_MAX;
	buf->f_fsid = u64_to_fsid(sbi->phys_addr);
	return 0;
}

static int pram_show_options(struct seq_file *seq, struct dentry *root)
{
	struct pram_sb_info *sbi = PRAM_SB(root->d_sb);
	struct pram_mount_opts *opts = &sbi->opts;

	seq_printf(seq, ",physaddr=%#llx", (u64)sbi->phys_addr);
	if (sbi->geo.blocksize != PRAM_DEF_BLOCK_SIZE)
		seq_printf(seq, ",bs=%u", sbi->geo.blocksize);
	if (opts->given & PRAM_OPT_MODE)
		seq_printf(seq, ",mode=%o", opts->mode);
	if (opts->given & PRAM_OPT_UID)
		seq_printf(seq, ",uid=%u", from_kuid_munged(&init_user_ns, opts->uid));
	if (opts->given & PRAM_OPT_GID)
		seq_printf(seq, ",gid=%u", from_kgid_munged(&init_user_ns, opts->gid));
	if (opts->noprotect)
		seq_puts(seq, ",noprotect");
	seq_puts(seq, root->d_sb->s_flags & SB_POSIXACL ? ",acl" : ",noacl");
	if (opts->errors != PRAM_ERRORS_CONTINUE)
		seq_printf(seq, ",errors=%s", pram_param_errors[opts->errors].name);
	if (opts->nodirect)
		seq_puts(seq, ",nodirect");
	return 0;
}

/* The free counts and hints: see balloc.c. */
static int pram_sync_fs(struct super_block *sb, int wait)
{
	if (!sb_rdonly(sb))
		pram_sync_counts(sb, false);
	return 0;
}

/* A clean unmount: every inode is gone, so the counts are final. */
static void pram_put_super(struct super_block *sb)
{
	if (!sb_rdonly(sb))
		pram_sync_counts(sb, true);
}

static void pram_dirty_inode(struct inode *inode, int flags)
{
	pram_update_inode(inode);
}

static const struct super_operations pram_sops = {
	.alloc_inode	= pram_alloc_inode,
	.free_inode	= pram_free_inode,
	.dirty_inode	= pram_dirty_inode,
	.evict_inode	= pram_evict_inode,
	.put_super	= pram_put_super,
	.statfs		= pram_statfs,
	.sync_fs	= pram_sync_fs,
	.show_options	= pram_show_options,
};

static void pram_kill_sb(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	kill_anon_super(sb);
	if (sbi) {
		pram_reserved_free(sbi);
		pram_unmap(sb);
		kfree(sbi);
	}
}

static struct file_system_type pram_fs_type = {
	.owner		= THIS_MODULE,
	.name		= "pramfs",
	.init_fs_context = pram_init_fs_context,
	.parameters	= pram_fs_parameters,
	.kill_sb	= pram_kill_sb,
};
MODULE_ALIAS_FS("pramfs");

/* The on-media format is fixed: any change to these sizes is a bug. */
static void __init pram_check_layout(void)
{
	BUILD_BUG_ON(sizeof(struct pram_super_block) != PRAM_SB_SIZE);
	BUILD_BUG_ON(sizeof(struct pram_inode) != PRAM_INODE_SIZE);
	BUILD_BUG_ON(1 << PRAM_INODE_BITS != PRAM_INODE_SIZE);
	BUILD_BUG_ON(offsetof(struct pram_super_block, s_size) != 24);
	BUILD_BUG_ON(offsetof(struct pram_super_block, s_mtime) != 72);
	BUILD_BUG_ON(offsetof(struct pram_super_block, s_state) != 88);
	BUILD_BUG_ON(offsetof(struct pram_super_block, s_journal) != 92);
	BUILD_BUG_ON(offsetof(struct pram_super_block, s_uuid) != 96);
	BUILD_BUG_ON(offsetof(struct pram_inode, i_size) != 16);
	BUILD_BUG_ON(offsetof(struct pram_inode, i_atime) != 32);
	BUILD_BUG_ON(offsetof(struct pram_inode, i_type) != 60);
	BUILD_BUG_ON(offsetof(struct pram_inode, i_next) != 68);
	BUILD_BUG_ON(offsetof(struct pram_inode, i_name) != 80);
	BUILD_BUG_ON(PRAM_ROOT_INO != 2);
	BUILD_BUG_ON(sizeof(struct pram_journal_head) != PRAM_JOURNAL_LINE);
	BUILD_BUG_ON(sizeof(struct pram_journal_entry) != PRAM_JOURNAL_LINE);
	BUILD_BUG_ON(offsetof(struct pram_journal_entry, e_old) != 20);
	BUILD_BUG_ON(PRAM_JOURNAL_SIZE % PRAM_MAX_BLOCK_SIZE);
	BUILD_BUG_ON(sizeof(struct pram_long_name) != PRAM_NAME_LEN);
	BUILD_BUG_ON(sizeof(struct pram_name_rec) != PRAM_INODE_SIZE);
	BUILD_BUG_ON(offsetof(struct pram_name_rec, n_mode) !=
		     offsetof(struct pram_inode, i_mode));
	BUILD_BUG_ON(offsetof(struct pram_name_rec, n_part) != 12);
	BUILD_BUG_ON(PRAM_NAME_HEAD + PRAM_NAME_RECS * PRAM_NAME_PART <
		     PRAM_NAME_MAX);
}

static int __init pram_init(void)
{
	int err;

	pram_check_layout();
	err = pram_inode_cache_init();
	if (err)
		return err;
	err = register_filesystem(&pram_fs_type);
	if (err)
		goto destroy_inode_cache;
	return 0;

destroy_inode_cache:
	pram_inode_cache_destroy();
	return err;
}

static void __exit pram_exit(void)
{
	unregister_filesystem(&pram_fs_type);
	pram_wp_exit();
	pram_inode_cache_destroy();
}

module_init(pram_init);
module_exit(pram_exit);

MODULE_DESCRIPTION("Persistent and protected RAM filesystem");
MODULE_LICENSE("GPL");
