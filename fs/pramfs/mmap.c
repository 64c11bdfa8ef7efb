// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS memory mappings: execute in place.
 *
 * With a block size equal to the page size, a mapping of a regular file
 * maps the NVRAM itself: the fault handler puts the page frame of the
 * file's block in the process's page table, so a program stored on PRAMFS
 * runs from the NVRAM and nothing is copied into the page cache.
 *
 * The NVRAM sits outside the RAM the kernel manages and has no struct
 * pages, so the frames go in with vmf_insert_mixed() in a VM_MIXEDMAP
 * mapping: it makes special PTEs, which the memory manager neither
 * refcounts nor reverse-maps. VM_PFNMAP with vmf_insert_pfn() cannot do
 * private mappings (a private writable VM_PFNMAP is only allowed for
 * remap_pfn_range() of the whole range), and vmf_insert_page() needs a
 * struct page.
 *
 * Every user PTE for the NVRAM is read-only. A private mapping is
 * copy-on-write: a store faults, and since a special PTE has no page the
 * memory manager copies the page through its user address into an
 * anonymous page, which the NVRAM never sees. A shared mapping must be
 * read-only, and stays so: it loses VM_MAYWRITE, so mprotect() cannot
 * make it writable. Holes map the zero page.
 *
 * With smaller blocks, the blocks of a page are scattered in the NVRAM, so
 * mappings fall back to ordinary pages in the page cache, filled by
 * pram_read_folio() and dropped when write(2) changes their bytes.
 *
 * Coherence with write(2) and truncate: the mapping's invalidate_lock
 * is held shared by a fault from its block lookup to its PTE, and
 * exclusively while a write that filled holes unmaps them (they may map
 * the zero page) and while a truncate unmaps and frees the blocks past
 * the new size.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pfn_t.h>
#include <linux/uaccess.h>
#include "pramfs.h"

static bool pram_maps_nvram(struct inode *inode)
{
	return pram_page_blocks(inode->i_blkbits) == 1;
}

/* Pages the file's size covers, the last one partial. */
static pgoff_t pram_size_pages(struct inode *inode)
{
	return DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
}

/*
 * The block behind page @pgoff (block size = page size): a block number,
 * 0 for a hole, -ERANGE past the end of the file, or -EUCLEAN.
 */
static long pram_page_block(struct inode *inode, pgoff_t pgoff)
{
	if (pgoff >= pram_size_pages(inode))
		return -ERANGE;
	return pram_data_block(inode, pgoff);
}

/* The frame to map for page @pgoff: its block's, or the zero page's. */
static vm_fault_t pram_page_pfn(struct inode *inode, pgoff_t pgoff,
				unsigned long addr, pfn_t *pfn)
{
	struct pram_sb_info *sbi = PRAM_SB(inode->i_sb);
	long block = pram_page_block(inode, pgoff);

	if (block < 0)
		return VM_FAULT_SIGBUS;
	if (!block)
		*pfn = pfn_to_pfn_t(my_zero_pfn(addr));
	else
		*pfn = phys_to_pfn_t(sbi->phys_addr +
				     pram_block_offset(&sbi->geo, block),
				     PFN_DEV);
	return 0;
}

static vm_fault_t pram_map_page(struct vm_fault *vmf, pgoff_t pgoff,
				unsigned long addr)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	vm_fault_t ret;
	pfn_t pfn;

	ret = pram_page_pfn(inode, pgoff, addr, &pfn);
	if (ret)
		return ret;
	return vmf_insert_mixed(vmf->vma, addr, pfn);
}

/*
 * A read fault maps the pages around it too, as filemap_map_pages() does
 * for the page cache: one fault per page is most of the cost of reading
 * a mapping. Pages already mapped (private copies among them) are left.
 */
static void pram_map_around(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct inode *inode = file_inode(vma->vm_file);
	pgoff_t first = vma->vm_pgoff, last, pgoff;
	unsigned long addr;

	last = min(vma->vm_pgoff + vma_pages(vma), pram_size_pages(inode));
	if (!pram_fault_window(vmf->pgoff, &first, &last))
		return;
	for (pgoff = first; pgoff < last; pgoff++) {
		if (pgoff == vmf->pgoff)
			continue;
		addr = vma->vm_start + ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
		if (pram_map_page(vmf, pgoff, addr) != VM_FAULT_NOPAGE)
			break;
	}
}

static vm_fault_t pram_fault(struct vm_fault *vmf)
{
	struct address_space *mapping = vmf->vma->vm_file->f_mapping;
	vm_fault_t ret;

	filemap_invalidate_lock_shared(mapping);
	ret = pram_map_page(vmf, vmf->pgoff, vmf->address);
	/*
	 * A store into a private mapping comes back as a write-protect
	 * fault on this read-only PTE, which copies the page.
	 */
	if (ret == VM_FAULT_NOPAGE && !(vmf->flags & FAULT_FLAG_WRITE))
		pram_map_around(vmf);
	filemap_invalidate_unlock_shared(mapping);
	return ret;
}

/*
 * ptrace and /proc/PID/mem: get_user_pages() finds no page behind a
 * special PTE, so their reads of the NVRAM come here. Their writes come
 * here only for a shared mapping (a private one is copied first), and
 * are refused.
 */
static int pram_access(struct vm_area_struct *vma, unsigned long addr,
		       void *buf, int len, int write)
{
	struct inode *inode = file_inode(vma->vm_file);
	struct address_space *mapping = inode->i_mapping;
	pgoff_t pgoff = vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
	unsigned int off = offset_in_page(addr);
	long block;
	int ret = -EIO;

	if (write)
		return -EACCES;
	len = min_t(int, len, PAGE_SIZE - off);
	filemap_invalidate_lock_shared(mapping);
	block = pram_page_block(inode, pgoff);
	if (block < 0)
		goto unlock_mapping;
	if (!block)
		memset(buf, 0, len);
	else if (copy_mc_to_kernel(buf, pram_block_addr(inode->i_sb, block) +
				   off, len))
		goto unlock_mapping;
	ret = len;
unlock_mapping:
	filemap_invalidate_unlock_shared(mapping);
	return ret;
}

static const struct vm_operations_struct pram_nvram_vm_ops = {
	.fault		= pram_fault,
	.access		= pram_access,
};

/* Smaller blocks: the page cache's faults, without page_mkwrite. */
static const struct vm_operations_struct pram_cached_vm_ops = {
	.fault		= filemap_fault,
	.map_pages	= filemap_map_pages,
};

/**
 * pram_file_mmap() - map a regular file
 * @file: the file
 * @vma: the new mapping
 *
 * Private mappings may be writable (copy on write); shared ones may not.
 *
 * Return: 0, or -EINVAL for a shared writable mapping.
 */
int pram_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct inode *inode = file_inode(file);

	if (vma->vm_flags & VM_SHARED) {
		if (vma->vm_flags & VM_WRITE)
			return -EINVAL;
		vm_flags_clear(vma, VM_MAYWRITE);
	}
	file_accessed(file);
	if (!pram_maps_nvram(inode)) {
		vma->vm_ops = &pram_cached_vm_ops;
		return 0;
	}
	vm_flags_set(vma, VM_MIXEDMAP);
	vma->vm_ops = &pram_nvram_vm_ops;
	return 0;
}

/**
 * pram_mmap_written() - keep mappings right after a write or fallocate
 * @inode: the file, its i_rwsem held
 * @pos: where the change starts
 * @len: its length in bytes
 * @new_blocks: whether holes got blocks
 *
 * A mapping of the NVRAM sees written bytes at once, but a hole that got
 * a block may still map the zero page there. Pages in the page cache hold
 * copies, which are dropped.
 */
void pram_mmap_written(struct inode *inode, loff_t pos, size_t len,
		       bool new_blocks)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t first = pos >> PAGE_SHIFT, last = (pos + len - 1) >> PAGE_SHIFT;

	if (!len)
		return;
	if (pram_maps_nvram(inode)) {
		if (!new_blocks || !mapping_mapped(mapping))
			return;
		filemap_invalidate_lock(mapping);
		unmap_mapping_pages(mapping, first, last - first + 1, false);
		filemap_invalidate_unlock(mapping);
		return;
	}
	if (!mapping->nrpages)
		return;
	filemap_invalidate_lock(mapping);
	if (invalidate_inode_pages2_range(mapping, first, last))
		pram_err(inode->i_sb, "inode %lu: mapped pages %lu-%lu could not be dropped after a write",
			 inode->i_ino, first, last);
	filemap_invalidate_unlock(mapping);
}

/*
 * Fill a page of the page cache from the blocks it covers (block size
 * below the page size); holes and bytes past the end are zero.
 */
static int pram_read_folio(struct file *file, struct folio *folio)
{
	struct inode *inode = folio->mapping->host;
	struct super_block *sb = inode->i_sb;
	u32 bs = sb->s_blocksize;
	u64 fblock = folio_pos(folio) >> sb->s_blocksize_bits;
	size_t off;
	long block;
	void *dst;
	int err = 0;

	for (off = 0; off < folio_size(folio) && !err; off += bs, fblock++) {
		block = pram_data_block(inode, fblock);
		dst = kmap_local_folio(folio, off);
		if (block < 0)
			err = block;
		else if (!block)
			memset(dst, 0, bs);
		else if (copy_mc_to_kernel(dst, pram_block_addr(sb, block), bs))
			err = -EIO;
		kunmap_local(dst);
	}
	folio_end_read(folio, !err);
	return err;
}

const struct address_space_operations pram_aops = {
	.read_folio	= pram_read_folio,
};
