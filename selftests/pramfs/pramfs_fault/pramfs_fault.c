// SPDX-License-Identifier: GPL-2.0
/*
 * PRAMFS write-protection fault module: aims a stray kernel write at a
 * chosen place of a mounted PRAMFS's NVRAM mapping, as a buggy driver
 * would. Write "MODE TARGET PATH" to /proc/pramfs_fault:
 *
 *   MODE   probe: the store is exception-guarded; the write(2) fails
 *                 with EFAULT if it faulted (the NVRAM is protected), and
 *                 succeeds if it landed (the byte is then put back);
 *          crash: a plain store, as a kernel bug makes: with protection
 *                 it oopses, without it corrupts the byte.
 *   TARGET super, copy (the superblocks), inode (PATH's inode), dirent
 *          (the name in PATH's entry), bitmap (the block bitmap's first
 *          byte), data (PATH's first data block), last (the NVRAM's last
 *          byte: the mapping is read-only to its end).
 *   PATH   a file on the PRAMFS to aim at (and to find the mount by).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/namei.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include "pramfs.h"

enum pram_target {
	T_SUPER, T_COPY, T_INODE, T_DIRENT, T_BITMAP, T_DATA, T_LAST,
};

static const char *const target_names[] = {
	[T_SUPER] = "super", [T_COPY] = "copy", [T_INODE] = "inode",
	[T_DIRENT] = "dirent", [T_BITMAP] = "bitmap", [T_DATA] = "data",
	[T_LAST] = "last",
};

/* The first data block of @ino, or NULL. */
static u8 *first_data_block(struct pram_sb_info *sbi, u32 ino)
{
	struct pram_inode *pi = sbi->virt_addr + pram_ino_offset(ino);
	u32 row = le32_to_cpu(pi->i_type.reg.row_block), col, data;

	data = le32_to_cpu(pi->i_type.reg.direct);
	if (data && pram_block_valid(&sbi->geo, data))
		return sbi->virt_addr + pram_block_offset(&sbi->geo, data);
	if (!pram_block_valid(&sbi->geo, row))
		return NULL;
	col = le32_to_cpu(*(__le32 *)(sbi->virt_addr +
				      pram_block_offset(&sbi->geo, row)));
	if (!pram_block_valid(&sbi->geo, col))
		return NULL;
	data = le32_to_cpu(*(__le32 *)(sbi->virt_addr +
				       pram_block_offset(&sbi->geo, col)));
	if (!pram_block_valid(&sbi->geo, data))
		return NULL;
	return sbi->virt_addr + pram_block_offset(&sbi->geo, data);
}

static struct pram_sb_info *sbi_of(struct dentry *dentry)
{
	return dentry->d_sb->s_fs_info;
}

static u8 *target_addr(struct inode *inode, enum pram_target t)
{
	struct pram_sb_info *sbi = inode->i_sb->s_fs_info;
	void *rec = sbi->virt_addr + pram_ino_offset(inode->i_ino);

	switch (t) {
	case T_SUPER:
		return sbi->virt_addr + offsetof(struct pram_super_block, s_size);
	case T_COPY:
		return sbi->virt_addr + PRAM_SB_COPY_OFFSET +
		       offsetof(struct pram_super_block, s_size);
	case T_INODE:
		return rec + offsetof(struct pram_inode, i_size);
	case T_DIRENT:
		return rec + offsetof(struct pram_inode, i_name);
	case T_BITMAP:
		return sbi->virt_addr +
		       pram_block_offset(&sbi->geo, sbi->geo.bitmap_start);
	case T_DATA:
		return S_ISREG(inode->i_mode) ?
		       first_data_block(sbi, inode->i_ino) : NULL;
	case T_LAST:
		return sbi->virt_addr + sbi->map_size - 1;
	}
	return NULL;
}

/* An exception-guarded store: 0 if it landed, -EFAULT if it faulted. */
static int guarded_store(u8 *addr, u8 val)
{
	int ret = 0;

	pagefault_disable();
	__put_kernel_nofault(addr, &val, u8, fault);
	goto out;
fault:
	ret = -EFAULT;
out:
	pagefault_enable();
	return ret;
}

static int aim(bool crash, enum pram_target t, const char *path)
{
	struct path p;
	u8 *addr, old;
	int err;

	err = kern_path(path, LOOKUP_FOLLOW, &p);
	if (err)
		return err;
	err = -EINVAL;
	if (strcmp(p.dentry->d_sb->s_type->name, "pramfs"))
		goto put_path;
	addr = target_addr(d_inode(p.dentry), t);
	if (!addr)
		goto put_path;
	old = READ_ONCE(*addr);
	pr_info("%s at %s of %s: byte %#x at offset %#lx\n",
		crash ? "crash" : "probe", target_names[t], path, old,
		(unsigned long)(addr - (u8 *)sbi_of(p.dentry)->virt_addr));
	if (crash) {
		/* The stray write of a kernel bug. */
		WRITE_ONCE(*addr, (u8)~old);
		err = 0;
		goto put_path;
	}
	err = guarded_store(addr, ~old);
	if (!err) {
		pr_info("the store landed: the NVRAM is not protected\n");
		err = guarded_store(addr, old) ?: 1;
	} else {
		pr_info("the store faulted\n");
		if (READ_ONCE(*addr) != old)
			err = -EIO;
	}
put_path:
	path_put(&p);
	return err;
}

static ssize_t fault_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[256], mode[8], target[8], path[200];
	int t, err;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	if (sscanf(buf, "%7s %7s %199s", mode, target, path) != 3)
		return -EINVAL;
	t = match_string(target_names, ARRAY_SIZE(target_names), target);
	if (t < 0 || (strcmp(mode, "probe") && strcmp(mode, "crash")))
		return -EINVAL;
	err = aim(!strcmp(mode, "crash"), t, path);
	return err < 0 ? err : count;
}

static const struct proc_ops fault_ops = {
	.proc_write	= fault_write,
	.proc_lseek	= noop_llseek,
};

static struct proc_dir_entry *fault_entry;

static int __init fault_init(void)
{
	fault_entry = proc_create("pramfs_fault", 0200, NULL, &fault_ops);
	return fault_entry ? 0 : -ENOMEM;
}

static void __exit fault_exit(void)
{
	proc_remove(fault_entry);
}

module_init(fault_init);
module_exit(fault_exit);

MODULE_DESCRIPTION("PRAMFS write-protection fault test");
MODULE_LICENSE("GPL");
