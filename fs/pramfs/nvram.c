// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS access to the NVRAM: claiming and mapping the physical range,
 * and the window in which PRAMFS writes to it.
 *
 * The range is mapped write-back (cached) with memremap(); stores are
 * made durable by writing the cache lines back (pram_wb(), x86's clwb
 * inline) and fencing (pmem_wmb) when a write window closes. With write
 * protection the mapping is read-only and the windows are the only way
 * to write.
 */
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <asm/tlbflush.h>
#include "pramfs.h"

static void pram_wp_disable(struct pram_sb_info *sbi);

/* Resources a PRAMFS may live in: persistent memory, or reserved ranges. */
static const unsigned long pram_home_descs[] = {
	IORES_DESC_PERSISTENT_MEMORY,
	IORES_DESC_PERSISTENT_MEMORY_LEGACY,
	IORES_DESC_RESERVED,
};

struct pram_range {
	u64	start, end;	/* inclusive */
	bool	inside;		/* found wholly inside one resource */
};

/* The walk hands each resource clipped to the range asked about. */
static int pram_find_home(struct resource *res, void *arg)
{
	struct pram_range *r = arg;

	if (res->start == r->start && res->end == r->end)
		r->inside = true;
	return 0;
}

/*
 * The whole range must lie inside one resource described as persistent
 * memory or reserved (memmap=nn$ss reserves undescribed NVRAM). A range
 * that the firmware leaves undescribed may be a device (the local APIC
 * is one on x86), and one that runs past the end of the NVRAM would
 * write into whatever follows it. One resource, not a sum: resources
 * nest (a region and its namespace), and adding them up would count the
 * same bytes twice.
 */
static bool pram_range_is_nvram(phys_addr_t phys, u64 len)
{
	struct pram_range r = { .start = phys, .end = phys + len - 1 };
	int i;

	for (i = 0; i < ARRAY_SIZE(pram_home_descs) && !r.inside; i++)
		walk_iomem_res_desc(pram_home_descs[i], IORESOURCE_MEM, r.start,
				    r.end, &r, pram_find_home);
	return r.inside;
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

	if (sbi->nvram_addr) {
		/* A read-only mount that read an undone copy (tx.c). */
		vfree(sbi->virt_addr);
		sbi->virt_addr = sbi->nvram_addr;
		sbi->nvram_addr = NULL;
	}
	if (!sbi->virt_addr)
		return;
	pram_wp_disable(sbi);
	memunmap(sbi->virt_addr);
	release_mem_region(sbi->phys_addr, sbi->map_size);
	sbi->virt_addr = NULL;
	sbi->map_size = 0;
}

/* ---- the write window ---- */

#ifdef CONFIG_PRAMFS_WRITE_PROTECT

/*
 * Write protection, x86_64. The kernel's mapping of the NVRAM (memremap,
 * often with 2 MiB or 1 GiB pages) is made read-only once, at mount, and
 * stays so. PRAMFS writes through alias windows: each CPU has a pool of
 * wp_slots virtual pages (slots, 4,096 by default), a vmap() area with
 * 4 KiB PTEs of its own. A window takes one or more consecutive slots of
 * the CPU it runs on, pins the task there (migrate_disable()) and points
 * the slots' PTEs at the pages to write, writable; closing it clears the
 * PTEs. A window opened inside its transaction's journal window, which
 * pins the task until the commit, takes no pin of its own.
 *
 * No other CPU ever uses a slot, so no other CPU can hold a translation
 * of it, and no IPI is needed. The CPU that used a closed slot may still
 * hold its translation in its TLB: a slot therefore maps one page between
 * two flushes of that CPU's TLB, which happen when all its free slots
 * have been used (a full local flush per pool of slots used: the pool is
 * large because after a flush every translation is refilled, which under
 * QEMU's TCG costs more than the windows themselves). A window over the
 * page a free slot mapped last takes that slot again (the pool remembers
 * the last window over each page number modulo PRAM_WP_RECENT): the TLB
 * may hold it still, and under TCG a fill costs more than the window's
 * instructions.
 * What remains: until the flush, a stray write through that slot's
 * address, which nothing outside this file knows, could reach the page it
 * mapped. A stray pointer into the filesystem points into the main
 * mapping, which is never writable.
 *
 * A slot's PTE names no filesystem until a window sets it, so the pools
 * are made by the first protected mount and serve every mount after it
 * until the module goes (pram_wp_exit()): building them (8,192 PTEs on
 * two CPUs) cost a third of a mount's instructions. By default they hold
 * about 100 KiB and 16 MiB of addresses per possible CPU meanwhile. Unmount
 * flushes every CPU's TLB, so no translation of a slot outlives the
 * mount.
 */

/*
 * Slots per CPU, a module parameter read when the pools are made (fewer
 * cost less memory and flush the TLB more often). A transaction holds
 * its journal's window (4 or 5 slots) while it sleeps on a lock, on one
 * CPU, and a window takes consecutive slots: with the fewest, a dozen
 * mounts' transactions asleep there could leave no run of
 * PRAM_WP_MAX_PAGES; with the default, some two hundred.
 */
#define PRAM_WP_MIN_SLOTS	256
#define PRAM_WP_DEFAULT_SLOTS	4096
#define PRAM_WP_MAX_SLOTS	65536
static unsigned int wp_slots = PRAM_WP_DEFAULT_SLOTS;

static int pram_wp_slots_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, PRAM_WP_MIN_SLOTS,
				     PRAM_WP_MAX_SLOTS);
}

static const struct kernel_param_ops pram_wp_slots_ops = {
	.set = pram_wp_slots_set,
	.get = param_get_uint,
};

module_param_cb(wp_slots, &pram_wp_slots_ops, &wp_slots, 0444);
MODULE_PARM_DESC(wp_slots, "write-window slots per CPU, "
		 __stringify(PRAM_WP_MIN_SLOTS) " to "
		 __stringify(PRAM_WP_MAX_SLOTS) " (default "
		 __stringify(PRAM_WP_DEFAULT_SLOTS) ")");

/*
 * Windows a pool remembers, to map their pages again: the last over each
 * page number modulo this (a power of 2). 16 served a create's pages; a
 * random writer's map blocks (a column per 4 MiB of file) took fresh
 * slots among them.
 */
#define PRAM_WP_RECENT		256

struct pram_wp_pool {
	unsigned int	slots;		/* wp_slots when it was made */
	void		*base;		/* slot i is page i of this area */
	pte_t		**pte;		/* each slot's 4 KiB PTE */
	void		**target;	/* the page each slot maps */
	unsigned long	*busy;		/* slots in use */
	unsigned long	*stale;		/* used since the last flush */
	unsigned long	*pinned;	/* a window's first slot, if it pinned */
	unsigned int	next;		/* where the search starts */
	/* by page: 1 + the first slot of the last window over it, or 0 */
	unsigned int	recent[PRAM_WP_RECENT];
};

static DEFINE_MUTEX(pram_wp_pools_lock);
static struct pram_wp_pool __percpu *pram_wp_pools;

static void pram_flush_tlb_all(void *unused)
{
	__flush_tlb_all();
}

/*
 * The leaf entry of @a, the address after the one @prev maps at @level:
 * the next entry of @prev's table if @a is in that table and the entry is
 * a leaf of the same size (a 4 KiB PTE, or a 2 MiB or 1 GiB entry with
 * _PAGE_PSE), else a walk from the top, which sets @level.
 */
static pte_t *pram_wp_next_leaf(unsigned long a, pte_t *prev,
				unsigned int *level)
{
	/* What @prev's table maps: an entry of the level above. */
	unsigned long span = page_level_size(*level + 1);

	if (prev && !IS_ALIGNED(a, span) &&
	    pte_present(prev[1]) &&
	    (*level == PG_LEVEL_4K || pte_flags(prev[1]) & _PAGE_PSE))
		return prev + 1;
	return lookup_address(a, level);
}

/*
 * A window's PTE of the NVRAM's first page: the main mapping's first leaf
 * entry @leaf, as a writable 4 KiB PTE. A window then maps the memory as
 * the main mapping does, its memory type and its encryption bit included
 * (ioremap maps a range decrypted on a host with SME, or a reserved one
 * in an SEV or TDX guest, where PAGE_KERNEL's would be encrypted).
 */
static pteval_t pram_wp_window_pte(struct pram_sb_info *sbi, pte_t *leaf,
				   unsigned int level)
{
	pgprot_t prot;

	if (level == PG_LEVEL_4K)
		prot = pte_pgprot(*leaf);
	else if (level == PG_LEVEL_2M)
		prot = pgprot_large_2_4k(pmd_pgprot(*(pmd_t *)leaf));
	else
		prot = pgprot_large_2_4k(pud_pgprot(*(pud_t *)leaf));
	prot = __pgprot(pgprot_val(prot) | _PAGE_RW);
	return pte_val(pfn_pte(PHYS_PFN(sbi->phys_addr), prot));
}

/*
 * Clear the write bit of every leaf entry of the main mapping (512 of 2
 * MiB for 1 GiB: a walk from the top for each cost 2 % of a mount's
 * instructions at 512 MiB), and take a window's PTE from the first.
 */
static int pram_wp_main(struct pram_sb_info *sbi)
{
	unsigned long a = (unsigned long)sbi->virt_addr;
	unsigned long end = a + sbi->map_size;
	unsigned int level = PG_LEVEL_4K;
	pte_t *pte = NULL;

	while (a < end) {
		pte = pram_wp_next_leaf(a, pte, &level);
		if (!pte || !pte_present(*pte))
			return -EFAULT;
		if (a == (unsigned long)sbi->virt_addr)
			sbi->wp.pte = pram_wp_window_pte(sbi, pte, level);
		set_pte(pte, pte_wrprotect(*pte));
		a = ALIGN_DOWN(a, page_level_size(level)) + page_level_size(level);
	}
	return 0;
}

/*
 * The 4 KiB PTE of the page at @va, the one after @prev's page: the PTEs
 * of one page table are consecutive, so only the first page and a page
 * that starts a new table (a PMD's span) need a walk.
 */
static pte_t *pram_wp_next_pte(unsigned long va, pte_t *prev)
{
	unsigned int level;
	pte_t *pte;

	if (prev && !IS_ALIGNED(va, PMD_SIZE))
		return prev + 1;
	pte = lookup_address(va, &level);
	return pte && level == PG_LEVEL_4K ? pte : NULL;
}

/*
 * The slots' area: vmap() of the zero page, read-only, which makes the
 * page tables; then every PTE is cleared until a window sets it.
 */
static int pram_wp_area_init(struct pram_wp_pool *pool)
{
	struct page **pages;
	pte_t *pte = NULL;
	unsigned int i;

	pages = kvmalloc_array(pool->slots, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < pool->slots; i++)
		pages[i] = ZERO_PAGE(0);
	/* VM_IOREMAP: /proc/kcore reads zeros there, not the windows. */
	pool->base = vmap(pages, pool->slots, VM_MAP | VM_IOREMAP,
			  PAGE_KERNEL_RO);
	kvfree(pages);
	if (!pool->base)
		return -ENOMEM;
	for (i = 0; i < pool->slots; i++) {
		pte = pram_wp_next_pte((unsigned long)pool->base + i * PAGE_SIZE,
				       pte);
		if (!pte)
			return -EFAULT;
		pool->pte[i] = pte;
		set_pte(pte, __pte(0));
	}
	return 0;
}

static int pram_wp_pool_init(struct pram_wp_pool *pool)
{
	pool->slots = wp_slots;
	pool->pte = kvcalloc(pool->slots, sizeof(*pool->pte), GFP_KERNEL);
	pool->target = kvcalloc(pool->slots, sizeof(*pool->target),
				GFP_KERNEL);
	pool->busy = bitmap_zalloc(pool->slots, GFP_KERNEL);
	pool->stale = bitmap_zalloc(pool->slots, GFP_KERNEL);
	pool->pinned = bitmap_zalloc(pool->slots, GFP_KERNEL);
	if (!pool->pte || !pool->target || !pool->busy || !pool->stale ||
	    !pool->pinned)
		return -ENOMEM;
	return pram_wp_area_init(pool);
}

static void pram_wp_pool_free(struct pram_wp_pool *pool)
{
	if (pool->base)
		vunmap(pool->base);
	kvfree(pool->pte);
	kvfree(pool->target);
	bitmap_free(pool->busy);
	bitmap_free(pool->stale);
	bitmap_free(pool->pinned);
}

static void pram_wp_pools_free(struct pram_wp_pool __percpu *pools)
{
	int cpu;

	for_each_possible_cpu(cpu)
		pram_wp_pool_free(per_cpu_ptr(pools, cpu));
	free_percpu(pools);
}

/* The pools, made by the first caller; NULL if they cannot be. */
static struct pram_wp_pool __percpu *pram_wp_get_pools(void)
{
	struct pram_wp_pool __percpu *pools;
	int cpu, err = 0;

	mutex_lock(&pram_wp_pools_lock);
	pools = pram_wp_pools;
	if (pools)
		goto unlock;
	pools = alloc_percpu(struct pram_wp_pool);
	if (!pools)
		goto unlock;
	for_each_possible_cpu(cpu) {
		err = pram_wp_pool_init(per_cpu_ptr(pools, cpu));
		if (err)
			break;
	}
	if (err) {
		pram_wp_pools_free(pools);
		pools = NULL;
		goto unlock;
	}
	/* Nothing read the zero page there, but nothing need assume it. */
	on_each_cpu(pram_flush_tlb_all, NULL, 1);
	pram_wp_pools = pools;
unlock:
	mutex_unlock(&pram_wp_pools_lock);
	return pools;
}

/**
 * pram_wp_exit() - free the window pools, at module exit
 *
 * No filesystem is mounted then, so no window is open.
 */
void pram_wp_exit(void)
{
	if (pram_wp_pools)
		pram_wp_pools_free(pram_wp_pools);
	pram_wp_pools = NULL;
}

/* No slot's translation of this filesystem's pages outlives the mount. */
static void pram_wp_disable(struct pram_sb_info *sbi)
{
	if (sbi->wp.enabled)
		on_each_cpu(pram_flush_tlb_all, NULL, 1);
	sbi->wp.enabled = false;
	sbi->wp.pools = NULL;
}

/**
 * pram_wp_enable() - make the NVRAM mapping read-only for this mount
 * @sb: the superblock, mapped; noprotect leaves the mapping writable
 * @used: the mapping may be in another CPU's TLB: it was read or written
 *	since pram_map(), or the task was not pinned to this CPU meanwhile
 *
 * A TLB entry keeps the write permission it was filled with, even one
 * filled by a speculative access. A mapping that only this CPU could
 * have touched needs this CPU's TLB flushed; one in use, every CPU's (an
 * IPI, about a tenth of a mount under TCG). The addresses memremap()
 * gives are in no other TLB: the vmap allocator flushes a range from
 * every CPU before it hands it out again.
 *
 * Return: 0 or a negative errno, logged.
 */
int pram_wp_enable(struct super_block *sb, bool used)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_wp *wp = &sbi->wp;
	int err;

	if (sbi->opts.noprotect)
		return 0;
	wp->pools = pram_wp_get_pools();
	err = wp->pools ? pram_wp_main(sbi) : -ENOMEM;
	if (used || err) {
		on_each_cpu(pram_flush_tlb_all, NULL, 1);
	} else {
		preempt_disable();
		__flush_tlb_all();
		preempt_enable();
	}
	if (err) {
		pram_wp_disable(sbi);
		pram_err(sb, "cannot write-protect the NVRAM mapping (%d)", err);
		return err;
	}
	wp->enabled = true;
	return 0;
}

static void *pram_wp_slot_addr(struct pram_wp_pool *pool, unsigned int slot)
{
	return pool->base + slot * PAGE_SIZE;
}

/* The slot of @waddr, an address inside a window of @pool. */
static inline unsigned int pram_wp_slot_of(struct pram_wp_pool *pool,
					   void *waddr)
{
	return (waddr - pool->base) >> PAGE_SHIFT;
}

/*
 * The bits of slots [@i, @i + @n) in their bitmap word, or 0 when they
 * span two words (the bitmap functions handle those).
 */
static unsigned long pram_wp_bits(unsigned int i, unsigned int n)
{
	if (WARN_ON_ONCE(!n) || i % BITS_PER_LONG + n > BITS_PER_LONG)
		return 0;
	return GENMASK(n - 1, 0) << (i % BITS_PER_LONG);
}

/* Mark slots [@i, @i + @n) busy and stale. */
static __always_inline void
pram_wp_mark(struct pram_wp_pool *pool, unsigned int i, unsigned int n)
{
	unsigned long bits = pram_wp_bits(i, n);

	if (bits) {
		pool->busy[BIT_WORD(i)] |= bits;
		pool->stale[BIT_WORD(i)] |= bits;
		return;
	}
	bitmap_set(pool->busy, i, n);
	bitmap_set(pool->stale, i, n);
}

static unsigned int *pram_wp_recent(struct pram_wp_pool *pool, void *target)
{
	return &pool->recent[((unsigned long)target >> PAGE_SHIFT) &
			     (PRAM_WP_RECENT - 1)];
}

/*
 * The @n slots a window over the pages from @target took last, if they
 * are free and have mapped nothing else since: what this CPU's TLB may
 * hold of them is a translation to those very pages, so they may map
 * them again before the next flush. Under TCG a TLB fill costs more than
 * a window's instructions, and a create writes the same inode table
 * page, its directory's record and the journal operation after
 * operation. -1 if there are none. Called with preemption off.
 */
static int pram_wp_take_again(struct pram_wp_pool *pool, void *target,
			      unsigned int n)
{
	unsigned int i = *pram_wp_recent(pool, target), k;

	if (!i-- || i + n > pool->slots)
		return -1;
	for (k = 0; k < n; k++)
		if (pool->target[i + k] != target + k * PAGE_SIZE ||
		    test_bit(i + k, pool->busy))
			return -1;
	pram_wp_mark(pool, i, n);
	return i;
}

/*
 * @n consecutive free slots of this CPU's pool that its TLB cannot hold,
 * or -1 if there are not so many, for a window over the pages from
 * @target. Called with preemption off.
 */
static int pram_wp_take_slots(struct pram_wp_pool *pool, void *target,
			      unsigned int n)
{
	unsigned long i = pool->next, bits = pram_wp_bits(i, n);

	/* Slots are taken in turn: the next ones are usually fresh. */
	if (i + n <= pool->slots && bits && !(pool->stale[BIT_WORD(i)] & bits))
		goto take;
	/* Most stale ones are behind (not a slot taken again). */
	i = bitmap_find_next_zero_area(pool->stale, pool->slots, pool->next,
				       n, 0);
	if (i >= pool->slots) {
		if (bitmap_find_next_zero_area(pool->busy, pool->slots, 0, n,
					       0) >= pool->slots)
			return -1;
		/* The free slots were used since the last flush. */
		__flush_tlb_all();
		bitmap_copy(pool->stale, pool->busy, pool->slots);
		i = bitmap_find_next_zero_area(pool->stale, pool->slots, 0,
					       n, 0);
	}
take:
	/* A busy slot is stale too, so these are free. */
	pram_wp_mark(pool, i, n);
	pool->next = i + n;
	*pram_wp_recent(pool, target) = i + 1;
	return i;
}

/* Is the task pinned to its CPU, as each window needs until it closes? */
static inline bool pram_wp_task_pinned(void)
{
#ifdef CONFIG_SMP
	return current->migration_disabled;
#else
	return true;
#endif
}

/*
 * Does the task stay on this CPU already, for as long as a window it
 * opens now? Its transaction's journal window (tx.c) pins it until the
 * commit, and the windows of a transaction close before it commits.
 */
static bool pram_wp_tx_pinned(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	return tx->owner == current && tx->window;
}

/**
 * pram_wp_map() - the writable alias of a window, and nothing more
 * @sb: the superblock
 * @addr: first byte, in the NVRAM mapping
 * @len: bytes, over PRAM_WP_MAX_PAGES pages at most
 *
 * For a window held open across several persistence points (the
 * journal's, for a transaction): its stores are made durable and
 * counted by the caller, and pram_wp_unmap() ends it. The task stays on
 * this CPU until then.
 *
 * Return: the writable address of @addr.
 */
void *pram_wp_map(struct super_block *sb, void *addr, size_t len)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	void *target = (void *)((unsigned long)addr & PAGE_MASK);
	/* A page-aligned offset changes the PFN field alone. */
	pteval_t pte = sbi->wp.pte + (target - sbi->virt_addr);
	unsigned int n = DIV_ROUND_UP(offset_in_page(addr) + len, PAGE_SIZE), k;
	struct pram_wp_pool *pool;
	bool pin;
	int i;

	if (!sbi->wp.enabled)
		return addr;
	if (WARN_ON_ONCE(n > PRAM_WP_MAX_PAGES))
		n = PRAM_WP_MAX_PAGES;
	/* Inside the journal's window, a record's costs no pin of its own. */
	pin = !pram_wp_tx_pinned(sb);
	if (pin)
		migrate_disable();
	else
		sbi->wp.lent++;
	for (;;) {
		preempt_disable();
		pool = this_cpu_ptr(sbi->wp.pools);
		i = pram_wp_take_again(pool, target, n);
		if (i < 0)
			i = pram_wp_take_slots(pool, target, n);
		if (i >= 0 && pin)
			__set_bit(i, pool->pinned);
		preempt_enable();
		if (i >= 0)
			break;
		/* The slots of this CPU are in use: wait for some. */
		if (pin)
			migrate_enable();
		schedule_timeout_uninterruptible(1);
		if (pin)
			migrate_disable();
	}
	for (k = 0; k < n; k++) {
		pool->target[i + k] = target + k * PAGE_SIZE;
		set_pte(pool->pte[i + k], __pte(pte + k * PAGE_SIZE));
	}
	return pram_wp_slot_addr(pool, i) + offset_in_page(addr);
}

/* pram_wp_unmap()'s work, inline in the closes every window ends with. */
static __always_inline void pram_wp_release(struct super_block *sb,
					     void *waddr, size_t len)
{
	struct pram_wp *wp = &PRAM_SB(sb)->wp;
	struct pram_wp_pool *pool;
	unsigned int i, n, k;
	unsigned long bits;
	bool pinned;

	if (!wp->enabled)
		return;
	/* Still on the CPU that opened the window. */
	WARN_ON_ONCE(!pram_wp_task_pinned());
	pool = this_cpu_ptr(wp->pools);
	i = pram_wp_slot_of(pool, waddr);
	n = min(DIV_ROUND_UP(offset_in_page(waddr) + len, PAGE_SIZE),
		PRAM_WP_MAX_PAGES);
	for (k = 0; k < n; k++)
		set_pte(pool->pte[i + k], __pte(0));
	bits = pram_wp_bits(i, n);
	preempt_disable();
	if (bits)
		pool->busy[BIT_WORD(i)] &= ~bits;
	else
		bitmap_clear(pool->busy, i, n);
	pinned = __test_and_clear_bit(i, pool->pinned);
	preempt_enable();
	if (!pinned) {
		wp->lent--;
		return;
	}
	/* The journal's window goes last: the others rely on its pin. */
	WARN_ON_ONCE(waddr == READ_ONCE(PRAM_SB(sb)->tx.window) && wp->lent);
	migrate_enable();
}

/**
 * pram_wp_target() - where a window's writable address is in the mapping
 * @sb: the superblock
 * @waddr: an address inside an open window
 */
void *pram_wp_target(struct super_block *sb, void *waddr)
{
	struct pram_wp *wp = &PRAM_SB(sb)->wp;
	struct pram_wp_pool *pool;

	if (pram_crash_target(waddr))
		return pram_crash_target(waddr);
	if (!wp->enabled)
		return waddr;
	pool = this_cpu_ptr(wp->pools);
	return pool->target[pram_wp_slot_of(pool, waddr)] +
	       offset_in_page(waddr);
}

#else /* !CONFIG_PRAMFS_WRITE_PROTECT */

int pram_wp_enable(struct super_block *sb, bool used)
{
	return 0;
}

static void pram_wp_disable(struct pram_sb_info *sbi)
{
}

void *pram_wp_map(struct super_block *sb, void *addr, size_t len)
{
	return addr;
}

static inline void pram_wp_release(struct super_block *sb, void *waddr,
				   size_t len)
{
}

void pram_wp_exit(void)
{
}

void *pram_wp_target(struct super_block *sb, void *waddr)
{
	return pram_crash_target(waddr) ?: waddr;
}

#endif /* CONFIG_PRAMFS_WRITE_PROTECT */

/**
 * pram_wp_unmap() - end a window from pram_wp_map()
 * @sb: the superblock
 * @waddr: as returned by pram_wp_map()
 * @len: as given to pram_wp_map()
 *
 * No fence: the caller made what it stored durable.
 */
void pram_wp_unmap(struct super_block *sb, void *waddr, size_t len)
{
	pram_wp_release(sb, waddr, len);
}

/* The fence, then the window goes: inline in both closes. */
static __always_inline void pram_wp_fence_release(struct super_block *sb,
						  void *waddr, size_t len)
{
	if (pram_crash_close(waddr))
		return;
	pmem_wmb();
	pram_wp_release(sb, waddr, len);
}

/**
 * pram_wp_close_flushed() - close a window whose stores bypassed the cache
 * @sb: the superblock
 * @waddr: as returned by pram_wp_open()
 * @len: as given to pram_wp_open()
 *
 * For stores already written back (memcpy_flushcache() and the like):
 * the fence orders them, then the window goes.
 */
void pram_wp_close_flushed(struct super_block *sb, void *waddr, size_t len)
{
	pram_wp_fence_release(sb, waddr, len);
}

/**
 * pram_wp_close() - make the stores durable and close the window
 * @sb: the superblock
 * @waddr: as returned by pram_wp_open()
 * @len: as given to pram_wp_open()
 */
void pram_wp_close(struct super_block *sb, void *waddr, size_t len)
{
	pram_wb(waddr, len);
	pram_wp_fence_release(sb, waddr, len);
}

/**
 * pram_wp_persist() - a persistence point inside an open window
 * @sb: the superblock
 * @waddr: as returned by pram_wp_open()
 * @len: as given to pram_wp_open()
 *
 * What the window holds is made durable before anything stored through
 * it next: two ordered steps in one window. After the crash test's cut
 * the rest goes to a scratch copy, like any later window.
 *
 * Return: where the window is from now on: @waddr, or the scratch copy
 * (the window then closed).
 */
void *pram_wp_persist(struct super_block *sb, void *waddr, size_t len)
{
	void *scratch;

	pram_wb(waddr, len);
	if (pram_crash_close(waddr))
		return waddr;
	pmem_wmb();
	scratch = pram_crash_open(pram_wp_target(sb, waddr), len);
	if (!scratch)
		return waddr;
	pram_wp_unmap(sb, waddr, len);
	return scratch;
}

/**
 * pram_super_begin() - open the primary superblock for changes
 * @sb: the superblock, mounted read-write
 *
 * Takes super_lock, the innermost lock: a caller may hold s_lock or a
 * directory's locks, but no record lock and no window (a transaction's
 * journal mapping, held across its sleeps, is not one: tx.c).
 *
 * Return: the primary superblock, inside an open write window, to be
 * closed with pram_super_commit().
 */
struct pram_super_block *pram_super_begin(struct super_block *sb)
{
	mutex_lock(&PRAM_SB(sb)->super_lock);
	return pram_wp_open(sb, PRAM_SB(sb)->virt_addr, PRAM_SB_SIZE);
}

/**
 * pram_super_commit() - checksum the superblock, refresh its copy, unlock
 * @sb: the superblock
 * @ps: as returned by pram_super_begin()
 *
 * The primary is made durable before the copy is written, so a power
 * cut leaves at least one of the two valid.
 */
void pram_super_commit(struct super_block *sb, struct pram_super_block *ps)
{
	void *primary = PRAM_SB(sb)->virt_addr, *copy;
	struct timespec64 now;

	ktime_get_real_ts64(&now);
	ps->s_wtime = pram_time_pack(now);
	ps->s_csum = cpu_to_le32(pram_super_csum(ps));
	pram_wp_close(sb, ps, PRAM_SB_SIZE);

	copy = pram_wp_open(sb, primary + PRAM_SB_COPY_OFFSET, PRAM_SB_SIZE);
	memcpy(copy, primary, PRAM_SB_SIZE);
	pram_wp_close(sb, copy, PRAM_SB_SIZE);
	mutex_unlock(&PRAM_SB(sb)->super_lock);
}
