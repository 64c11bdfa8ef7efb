// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS access to the NVRAM: claiming and mapping the physical range,
 * and the window in which PRAMFS writes to it.
 *
 * The range is mapped write-back (cached) with memremap(); stores are
 * made durable by writing the cache lines back (arch_wb_cache_pmem) and
 * fencing (pmem_wmb) when a write window closes.
 */
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/timekeeping.h>
#include "pramfs.h"

/* Resources a PRAMFS may live in: persistent memory, or reserved ranges. */
static const unsigned long pram_home_descs[] = {
	IORES_DESC_PERSISTENT_MEMORY,
	IORES_DESC_PERSISTENT_MEMORY_LEGACY,
	IORES_DESC_RESERVED,
};

static int pram_add_covered(struct resource *res, void *arg)
{
	*(u64 *)arg += resource_size(res);
	return 0;
}

/*
 * The whole range must be described as persistent memory or reserved
 * (memmap=nn$ss reserves undescribed NVRAM). A range that the firmware
 * leaves undescribed may be a device (the local APIC is one on x86), and
 * one that runs past the end of the NVRAM would write into whatever
 * follows it.
 */
static bool pram_range_is_nvram(phys_addr_t phys, u64 len)
{
	u64 covered = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(pram_home_descs); i++)
		walk_iomem_res_desc(pram_home_descs[i], IORESOURCE_MEM, phys,
				    phys + len - 1, &covered, pram_add_covered);
	return covered >= len;
}

/**
 * pram_map() - claim and map @size bytes of NVRAM at the mount's physaddr
 * @sb: the superblock being set up
 * @size: bytes; the claim and the mapping are rounded up to pages
 *
 * A range that overlaps system RAM, that is not wholly described as
 * persistent memory or reserved, or that another driver or PRAMFS mount
 * holds is refused with -EBUSY.
 *
 * Return: 0 or a negative errno, logged.
 */
int pram_map(struct super_block *sb, u64 size)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	phys_addr_t phys = sbi->phys_addr;
	u64 len = PAGE_ALIGN(size);

	if (!len || phys + len - 1 < phys) {
		pram_err(sb, "physaddr %pa + %llu bytes wraps around", &phys, len);
		return -EINVAL;
	}
	if (region_intersects(phys, len, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pram_err(sb, "%pa + %llu bytes overlaps system RAM", &phys, len);
		return -EBUSY;
	}
	if (!pram_range_is_nvram(phys, len)) {
		pram_err(sb, "%pa + %llu bytes is not all persistent memory or reserved",
			 &phys, len);
		return -EBUSY;
	}
	if (!request_mem_region_exclusive(phys, len, "pramfs")) {
		pram_err(sb, "%pa + %llu bytes is busy (another driver or mount)",
			 &phys, len);
		return -EBUSY;
	}
	sbi->virt_addr = memremap(phys, len, MEMREMAP_WB);
	if (!sbi->virt_addr) {
		release_mem_region(phys, len);
		pram_err(sb, "cannot map %pa + %llu bytes", &phys, len);
		return -ENOMEM;
	}
	sbi->map_size = len;
	return 0;
}

/**
 * pram_unmap() - undo pram_map(); harmless when nothing is mapped
 * @sb: the superblock
 */
void pram_unmap(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	if (!sbi->virt_addr)
		return;
	memunmap(sbi->virt_addr);
	release_mem_region(sbi->phys_addr, sbi->map_size);
	sbi->virt_addr = NULL;
	sbi->map_size = 0;
}

/**
 * pram_wp_open() - open the write window over [@addr, @addr + @len)
 * @sb: the superblock
 * @addr: first byte PRAMFS is about to write
 * @len: bytes
 *
 * Every store PRAMFS makes to the NVRAM is bracketed by pram_wp_open()
 * and pram_wp_close(), so that write protection has one place to live.
 */
void pram_wp_open(struct super_block *sb, void *addr, size_t len)
{
}

/**
 * pram_wp_close() - make the stores durable and close the window
 * @sb: the superblock
 * @addr: as given to pram_wp_open()
 * @len: as given to pram_wp_open()
 */
void pram_wp_close(struct super_block *sb, void *addr, size_t len)
{
	arch_wb_cache_pmem(addr, len);
	pram_wp_close_flushed(sb, addr, len);
}

/**
 * pram_wp_close_flushed() - close a window whose stores bypassed the cache
 * @sb: the superblock
 * @addr: as given to pram_wp_open()
 * @len: as given to pram_wp_open()
 *
 * For stores already written back (memcpy_flushcache() and the like):
 * only the fence is left to do.
 */
void pram_wp_close_flushed(struct super_block *sb, void *addr, size_t len)
{
	pmem_wmb();
}

/**
 * pram_super_begin() - open the primary superblock for changes
 * @sb: the superblock, mounted read-write; the caller holds s_lock
 *
 * Return: the primary superblock, inside an open write window, to be
 * closed with pram_super_commit().
 */
struct pram_super_block *pram_super_begin(struct super_block *sb)
{
	struct pram_super_block *ps = PRAM_SB(sb)->virt_addr;

	pram_wp_open(sb, ps, PRAM_SB_SIZE);
	return ps;
}

/**
 * pram_super_commit() - checksum the superblock and refresh its copy
 * @sb: the superblock; the caller holds s_lock
 *
 * The primary is made durable before the copy is written, so a power
 * cut leaves at least one of the two valid.
 */
void pram_super_commit(struct super_block *sb)
{
	struct pram_super_block *ps = PRAM_SB(sb)->virt_addr;
	void *copy = (void *)ps + PRAM_SB_COPY_OFFSET;
	struct timespec64 now;

	ktime_get_real_ts64(&now);
	ps->s_wtime = pram_time_pack(now);
	ps->s_csum = cpu_to_le32(pram_super_csum(ps));
	pram_wp_close(sb, ps, PRAM_SB_SIZE);

	pram_wp_open(sb, copy, PRAM_SB_SIZE);
	memcpy(copy, ps, PRAM_SB_SIZE);
	pram_wp_close(sb, copy, PRAM_SB_SIZE);
}
