// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS power-cut emulation for the crash tests (CONFIG_PRAMFS_CRASH_TEST,
 * the test guest only; never in a normal build).
 *
 * Every store PRAMFS makes goes through a write window, and every window
 * ends with a fence (pram_wp_fence_release(), in pram_wp_close() and
 * pram_wp_close_flushed()): the persistence points.
 * With crash_after=N written to the module parameter, the first N
 * fences happen; at fence N+1 the power "goes": of the lines the window
 * being closed wrote, crash_tear chooses which reach the NVRAM (-1: none;
 * 2k: only line k; 2k+1: all but line k), the others get their old
 * contents back, and from then on every window is a scratch copy, so
 * nothing more is stored. The filesystem runs on in memory; the test
 * unmounts it, writes crash_after=-1 and mounts the NVRAM as the cut
 * left it. "fences" counts the persistence points since the knob was
 * armed (a count-only pass arms it with a large N), "crash_lines" the
 * lines of the window that was cut.
 *
 * Only the window being closed can be torn: lines written earlier were
 * all fenced. The knob is global, for one filesystem and one writing
 * task at a time (the crash kselftest), but for crash_commit_delay_ms:
 * it holds each commit back, so that a second task's work runs while a
 * transaction is open and the cut can fall on that commit.
 */
#include <linux/delay.h>
#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include "pramfs.h"

#define PRAM_CRASH_BUF	((PRAM_WP_MAX_PAGES + 1) * PAGE_SIZE)

static DEFINE_SPINLOCK(pram_crash_lock);
static int crash_after = -1;
static int crash_tear = -1;
static unsigned int fences, crash_lines;
static bool crashed;

/* The open window's lines as they were, and the scratch window. */
static u8 pram_crash_saved[PRAM_CRASH_BUF];
static void *pram_crash_saved_at;
static size_t pram_crash_saved_len;
static u8 pram_crash_scratch[PRAM_CRASH_BUF];
static void *pram_crash_scratch_target;

static int pram_crash_arm(const char *val, const struct kernel_param *kp)
{
	int n, err = kstrtoint(val, 0, &n);

	if (err)
		return err;
	spin_lock(&pram_crash_lock);
	crash_after = n;
	fences = 0;
	crash_lines = 0;
	crashed = false;
	spin_unlock(&pram_crash_lock);
	return 0;
}

static const struct kernel_param_ops pram_crash_after_ops = {
	.set = pram_crash_arm,
	.get = param_get_int,
};

module_param_cb(crash_after, &pram_crash_after_ops, &crash_after, 0600);
MODULE_PARM_DESC(crash_after, "crash test: fences that persist before the power goes (-1: off)");
module_param(crash_tear, int, 0600);
MODULE_PARM_DESC(crash_tear, "crash test: lines of the cut window that persist (-1 none, 2k only k, 2k+1 all but k)");
module_param(fences, uint, 0400);
MODULE_PARM_DESC(fences, "crash test: fences since crash_after was written");
module_param(crash_lines, uint, 0400);
MODULE_PARM_DESC(crash_lines, "crash test: lines of the window that was cut");
module_param(crashed, bool, 0400);
MODULE_PARM_DESC(crashed, "crash test: the power has gone");

/*
 * Every commit waits this long first, with its transaction's lock held:
 * a window in which another task's work runs against the open
 * transaction, and the test can arm the cut for the commit's own fence.
 */
static unsigned int crash_commit_delay_ms;
module_param(crash_commit_delay_ms, uint, 0600);
MODULE_PARM_DESC(crash_commit_delay_ms, "crash test: each commit waits this long first");

/**
 * pram_crash_commit_delay() - a transaction is about to commit
 */
void pram_crash_commit_delay(void)
{
	unsigned int ms = READ_ONCE(crash_commit_delay_ms);

	if (ms)
		msleep(ms);
}

static void *pram_line_start(void *addr)
{
	return (void *)((unsigned long)addr & ~(unsigned long)(PRAM_JOURNAL_LINE - 1));
}

/**
 * pram_crash_open() - a window is opening over [@addr, @addr + @len)
 * @addr: in the NVRAM mapping
 * @len: bytes
 *
 * Return: after the cut, a scratch copy of the range to store into
 * instead; else NULL, and the range's lines are saved when armed.
 */
void *pram_crash_open(void *addr, size_t len)
{
	void *start = pram_line_start(addr), *page;

	if (crash_after < 0)
		return NULL;
	if (READ_ONCE(crashed)) {
		page = (void *)((unsigned long)addr & PAGE_MASK);
		if (WARN_ON_ONCE(offset_in_page(addr) + len > PRAM_CRASH_BUF))
			len = PRAM_CRASH_BUF - offset_in_page(addr);
		pram_crash_scratch_target = page;
		memcpy(pram_crash_scratch + offset_in_page(addr), addr, len);
		return pram_crash_scratch + offset_in_page(addr);
	}
	pram_crash_saved_len = min_t(size_t, round_up(addr + len - start,
						      PRAM_JOURNAL_LINE),
				     PRAM_CRASH_BUF);
	pram_crash_saved_at = start;
	memcpy(pram_crash_saved, start, pram_crash_saved_len);
	return NULL;
}

/* Put back the lines of the window at @waddr that do not persist. */
static void pram_crash_tear(void *waddr)
{
	void *wstart = pram_line_start(waddr);
	unsigned int line, only = crash_tear / 2;
	bool keep;

	crash_lines = pram_crash_saved_len / PRAM_JOURNAL_LINE;
	for (line = 0; line < crash_lines; line++) {
		if (crash_tear < 0 || only >= crash_lines)
			keep = false;
		else
			keep = (line == only) != (crash_tear & 1);
		if (!keep)
			memcpy(wstart + line * PRAM_JOURNAL_LINE,
			       pram_crash_saved + line * PRAM_JOURNAL_LINE,
			       PRAM_JOURNAL_LINE);
	}
	pram_wb(wstart, pram_crash_saved_len);
}

/**
 * pram_crash_close() - a window is closing: a persistence point
 * @waddr: the window's writable address
 *
 * Return: true if @waddr is the scratch copy (nothing to close).
 */
bool pram_crash_close(void *waddr)
{
	bool cut;

	if (crash_after < 0)
		return false;
	if (waddr >= (void *)pram_crash_scratch &&
	    waddr < (void *)pram_crash_scratch + PRAM_CRASH_BUF)
		return true;
	spin_lock(&pram_crash_lock);
	cut = !crashed && fences++ == crash_after;
	spin_unlock(&pram_crash_lock);
	if (cut) {
		pram_crash_tear(waddr);
		WRITE_ONCE(crashed, true);
	}
	return false;
}

/**
 * pram_crash_target() - where a scratch address stands in the mapping
 * @waddr: a window's address
 *
 * Return: the mapping address, or NULL if @waddr is not the scratch.
 */
void *pram_crash_target(void *waddr)
{
	if (waddr < (void *)pram_crash_scratch ||
	    waddr >= (void *)pram_crash_scratch + PRAM_CRASH_BUF)
		return NULL;
	return pram_crash_scratch_target + (waddr - (void *)pram_crash_scratch);
}
