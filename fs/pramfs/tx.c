// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRAMFS transactions: the undo journal's glue (the format is in
 * pramfs_fs.h, the pure code in journal.c).
 *
 * A namespace or attribute operation runs between pram_tx_begin() and
 * pram_tx_end(). Each record helper (pram_record_begin(), the bitmap
 * and block-map stores) calls pram_tx_log() with the bytes it is about
 * to change: their old contents go to the journal and are made durable
 * before the change is made in place. pram_tx_end() commits. A power cut
 * before the commit leaves entries that the next read-write mount undoes,
 * so the operation is wholly done or not at all.
 *
 * One transaction at a time per filesystem (tx_lock): transactions never
 * interleave, so undoing the open one restores exactly the state the
 * last commit left. Transactions nest within one task: an operation that
 * evicts an inode or calls another helper that begins one runs it inside
 * its own. tx_lock is taken outside s_lock, the record locks and
 * super_lock, and inside the VFS's inode locks; no one holds it while
 * waiting on user memory.
 *
 * A filesystem without the journal (made by an older revision) runs the
 * same code with nothing logged, as before.
 */
#include <linux/libnvdimm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/vmalloc.h>
#include "pramfs.h"

static struct pram_journal_head *pram_journal_head(struct super_block *sb)
{
	return pram_block_addr(sb, PRAM_SB(sb)->geo.journal_start);
}

/**
 * pram_tx_enter() - begin the outermost transaction of this task
 * @sb: the superblock, mounted read-write, with the journal
 *
 * pram_tx_begin() in pramfs.h calls it when the task is in none.
 */
void pram_tx_enter(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	mutex_lock(&tx->lock);
	tx->owner = current;
	tx->depth = 1;
	/* Reclaim must not evict a PRAMFS inode, which would need tx.lock. */
	tx->nofs = memalloc_nofs_save();
}

/**
 * pram_tx_begin_parts() - begin work that may commit in parts
 * @sb: the superblock, mounted read-write
 *
 * For work that passes through states the next mount finishes (freeing
 * the blocks of a deleted inode, a truncate under its mark): it runs as
 * one transaction, so what it rewrites many times (the inode record, a
 * bitmap word) is logged once and it commits once, but at each
 * pram_tx_checkpoint() between its steps it commits early when the
 * journal is nearly full. Nested in another transaction, it is part of
 * that one and never commits early.
 */
void pram_tx_begin_parts(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	pram_tx_begin(sb);
	if (tx->enabled && tx->depth == 1)
		tx->in_parts = true;
}

/*
 * The journal's lines [@line, @line + @n), writable. A transaction maps
 * the whole journal once, at its first entry, and keeps it until its
 * commit: an entry and the commit cost a write-back and a fence, not a
 * window each. Each is still a persistence point of its own for the
 * crash test (pram_crash_open() and pram_crash_close() around it), and
 * after a cut it goes to the scratch copy like any other store.
 *
 * Unlike a window, the mapping is held while the transaction sleeps (on
 * s_lock, a record lock, super_lock, an allocation): the task stays on
 * its CPU meanwhile, and that CPU's pool has four slots fewer. Nothing
 * that waits for those locks holds a window of its own while waiting,
 * so no one waits for the slots in turn.
 */
static void *pram_tx_lines_open(struct super_block *sb, u32 line, u32 n)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;
	void *head = pram_journal_head(sb), *scratch;

	scratch = pram_crash_open(head + line * PRAM_JOURNAL_LINE,
				  n * PRAM_JOURNAL_LINE);
	if (scratch)
		return scratch;
	if (!tx->window)
		tx->window = pram_wp_map(sb, head, PRAM_JOURNAL_SIZE);
	return tx->window + line * PRAM_JOURNAL_LINE;
}

/* Make lines from pram_tx_lines_open() durable: a persistence point. */
static void pram_tx_lines_close(void *w, u32 n)
{
	pram_wb(w, n * PRAM_JOURNAL_LINE);
	if (!pram_crash_close(w))
		pmem_wmb();
}

/*
 * Once j_gen has come round to 0, the last round's lines go, durably
 * (pram_journal_clear_lines()): after the commit or the undo that
 * brought it there is durable, whose undo they held; or at a mount
 * read-write after a power cut stopped that.
 */
static void pram_tx_clear_round(struct super_block *sb)
{
	struct pram_journal_head *h = pram_journal_head(sb);
	void *w;

	if (!pram_journal_wrapped(h))
		return;
	w = pram_wp_open(sb, h, PRAM_JOURNAL_SIZE);
	pram_journal_clear_lines(w);
	pram_wp_close(sb, w, PRAM_JOURNAL_SIZE);
}

/* Move j_gen on: the entries written are stale, the changes stay. */
static void pram_tx_commit(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;
	struct pram_journal_head *h;

	if (tx->next == 1)
		return;
	pram_crash_commit_delay();
	h = pram_tx_lines_open(sb, 0, 1);
	WRITE_ONCE(h->j_gen, cpu_to_le32(tx->gen + 1));
	pram_tx_lines_close(h, 1);
	if (tx->window) {
		pram_wp_unmap(sb, tx->window, PRAM_JOURNAL_SIZE);
		tx->window = NULL;
	}
	if (tx->gen == U32_MAX)
		pram_tx_clear_round(sb);
	tx->gen++;
	tx->next = 1;
	tx->nlogged = 0;
}

/**
 * pram_tx_leave() - end the outermost transaction: it commits
 * @sb: the superblock, with the journal
 *
 * pram_tx_end() in pramfs.h calls it for all but a nested end; a call
 * from a task in no transaction is a bug, and warns.
 */
void pram_tx_leave(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	if (WARN_ON_ONCE(tx->owner != current))
		return;
	if (--tx->depth)
		return;
	pram_tx_commit(sb);
	pram_release_freed(sb);
	WRITE_ONCE(tx->held, 0);
	tx->in_parts = false;
	tx->owner = NULL;
	memalloc_nofs_restore(tx->nofs);
	mutex_unlock(&tx->lock);
}

/**
 * pram_tx_active() - is the current task in a transaction that logs?
 * @sb: the superblock
 */
bool pram_tx_active(struct super_block *sb)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	return tx->enabled && tx->owner == current;
}

/**
 * pram_tx_may_hold() - may the current task hold a slot (pram_hold_slot())?
 * @sb: the superblock
 *
 * Only in a transaction that logs, which excludes every other task's
 * work, and one slot per transaction.
 */
bool pram_tx_may_hold(struct super_block *sb)
{
	return pram_tx_active(sb) && !READ_ONCE(PRAM_SB(sb)->tx.held);
}

/*
 * The most lines one step of work begun by pram_tx_begin_parts() logs:
 * 16 map entries, 16 bitmap words and the inode record, with room over.
 */
#define PRAM_TX_STEP_LINES	32

/**
 * pram_tx_checkpoint() - between two steps of pram_tx_begin_parts() work
 * @sb: the superblock
 *
 * The state is one the next mount finishes: when the next step might
 * not fit in the journal, what is done so far commits, and the work goes
 * on in a new transaction.
 */
void pram_tx_checkpoint(struct super_block *sb)
{
	pram_tx_checkpoint_for(sb, PRAM_TX_STEP_LINES);
}

/**
 * pram_tx_checkpoint_for() - pram_tx_checkpoint() before a larger step
 * @sb: the superblock
 * @lines: the journal lines the step logs, at most 3/4 of the journal's
 *
 * Return: true when the step now fits in the journal without a commit
 * in its middle (always without a journal), false when it does not and
 * nothing may commit here (not pram_tx_begin_parts() work, or nested):
 * the caller then takes smaller steps.
 */
bool pram_tx_checkpoint_for(struct super_block *sb, u32 lines)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	if (!tx->enabled || tx->owner != current)
		return true;
	if (WARN_ON_ONCE(lines > PRAM_JOURNAL_LINES * 3 / 4))
		return false;
	if (tx->next + lines <= PRAM_JOURNAL_LINES &&
	    tx->nlogged + lines <= ARRAY_SIZE(tx->logged))
		return true;
	if (!tx->in_parts || tx->depth != 1)
		return false;
	/* Others' operations get their turn between the parts. */
	pram_tx_end(sb);
	cond_resched();
	pram_tx_begin_parts(sb);
	return true;
}

/*
 * How many bytes from @off on, up to @len, this transaction has logged:
 * the ranges that hold @off, one after the other. A range logged now
 * need only start past them (a record's attributes logged, then the
 * whole record when its name changes too: only the name is left to log).
 * The bytes after are still as the transaction found them, since every
 * change is logged before it is made.
 */
static __always_inline u32 pram_tx_logged_head(struct pram_tx *tx, u64 off,
						u32 len)
{
	u64 at = off, start, end;
	unsigned int i;
	bool more = true;

	while (more && at < off + len) {
		more = false;
		for (i = 0; i < tx->nlogged; i++) {
			start = tx->logged[i].off;
			end = start + tx->logged[i].len;
			if (at >= start && at < end) {
				at = end;
				more = true;
				break;
			}
		}
	}
	return min_t(u64, at - off, len);
}

/* Has this transaction logged any byte of [@off, @off + @len)? */
static bool pram_tx_touched(struct pram_tx *tx, u64 off, u32 len)
{
	unsigned int i;

	for (i = 0; i < tx->nlogged; i++)
		if (tx->logged[i].off < off + len &&
		    off < tx->logged[i].off + tx->logged[i].len)
			return true;
	return false;
}

/* Is [@off, @off + @len) inside ranges this transaction logged? */
static bool pram_tx_logged(struct pram_tx *tx, u64 off, u32 len)
{
	return pram_tx_logged_head(tx, off, len) == len;
}

/**
 * pram_tx_room() - can the current transaction log [@addr, @addr + @len)?
 * @sb: the superblock
 * @addr: the first byte, in the NVRAM mapping
 * @len: how many, at most PRAM_TX_MAX_RANGE
 *
 * True when the task is in a transaction that logs, and the range is
 * logged already or the journal holds it and an inode record after it
 * without committing what is done so far (which pram_tx_log() would do
 * to make room): a change logged now is undone with the rest of the
 * operation, the record that goes with it included.
 */
bool pram_tx_room(struct super_block *sb, const void *addr, size_t len)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_tx *tx = &sbi->tx;
	u32 n = DIV_ROUND_UP(len, PRAM_JOURNAL_DATA) +
		DIV_ROUND_UP(PRAM_INODE_SIZE, PRAM_JOURNAL_DATA);

	if (!pram_tx_active(sb))
		return false;
	if (pram_tx_logged(tx, addr - sbi->virt_addr, len))
		return true;
	return tx->next + n <= PRAM_JOURNAL_LINES &&
	       tx->nlogged + 2 <= ARRAY_SIZE(tx->logged);
}

/* Count [@off, @off + @len) as logged by this transaction. */
static void pram_tx_add_logged(struct pram_tx *tx, u64 off, u32 len)
{
	tx->logged[tx->nlogged].off = off;
	tx->logged[tx->nlogged].len = len;
	tx->nlogged++;
}

/*
 * Save the bytes of [@addr, @addr + @len) that the transaction has not
 * logged yet, but only those of the first @saved (@len, or less when
 * none of the range is logged), and count the whole range as logged.
 * Inline in its two callers, with the search of the ranges logged: on
 * every record change.
 */
static __always_inline void pram_tx_save(struct super_block *sb,
					 const void *addr, u32 len, u32 saved)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_tx *tx = &sbi->tx;
	struct pram_journal_entry *e;
	u64 off = addr - sbi->virt_addr;
	u32 n, head;

	head = pram_tx_logged_head(tx, off, len);
	if (head == len)
		return;
	n = DIV_ROUND_UP(saved - min(head, saved), PRAM_JOURNAL_DATA);
	/*
	 * Larger than the journal (a fallocate of hundreds of blocks): what
	 * was done so far commits, a consistent state, and the rest goes on
	 * in a new transaction, which has logged nothing yet.
	 */
	if (tx->next + n > PRAM_JOURNAL_LINES ||
	    tx->nlogged == ARRAY_SIZE(tx->logged)) {
		pram_tx_commit(sb);
		head = 0;
		n = DIV_ROUND_UP(saved, PRAM_JOURNAL_DATA);
	}
	addr += head;
	off += head;
	len -= head;
	saved -= min(head, saved);
	e = pram_tx_lines_open(sb, tx->next, n);
	pram_journal_fill_lines(e, tx->gen, tx->next, off, addr, saved);
	pram_tx_lines_close(e, n);
	tx->next += n;
	pram_tx_add_logged(tx, off, len);
}

/**
 * pram_tx_log() - save the bytes at @addr before they change
 * @sb: the superblock
 * @addr: the first byte, in the NVRAM mapping
 * @len: how many, at most PRAM_TX_MAX_RANGE
 *
 * Outside a transaction (a mount-time repair, a filesystem without the
 * journal) this does nothing. The entries are durable when it returns.
 */
void pram_tx_log(struct super_block *sb, const void *addr, size_t len)
{
	struct pram_tx *tx = &PRAM_SB(sb)->tx;

	if (!tx->enabled || tx->owner != current)
		return;
	if (WARN_ON_ONCE(len > PRAM_TX_MAX_RANGE))
		return;
	pram_tx_save(sb, addr, len, len);
}

/**
 * pram_tx_log_slot() - save a few bytes of a slot and its checksum
 * @sb: the superblock, with INCOMPAT_SLOT
 * @addr: the first byte, in the NVRAM mapping: in a slot of the inode
 *	  table, past its checksum
 * @len: how many, at most PRAM_JOURNAL_SLOT_DATA
 *
 * As pram_tx_log(), in one slot entry, which restores the slot's
 * checksum too: the change of a record's link or times is one line.
 * Only the range counts as logged, not the checksum (one range a line,
 * as the other entries): a later slot entry of the same record saves
 * it again, unless a range from the record's first byte holds it.
 */
void pram_tx_log_slot(struct super_block *sb, const void *addr, u32 len)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_tx *tx = &sbi->tx;
	u64 off = addr - sbi->virt_addr;
	u64 slot = round_down(off, PRAM_INODE_SIZE);
	struct pram_journal_entry *e;

	if (!tx->enabled || tx->owner != current)
		return;
	/* Not a slot entry's range: the record from its first byte on. */
	if (WARN_ON_ONCE(!len || len > PRAM_JOURNAL_SLOT_DATA ||
			 off - slot < sizeof(__le32) ||
			 off - slot + len > PRAM_INODE_SIZE)) {
		pram_tx_save(sb, sbi->virt_addr + slot, PRAM_INODE_SIZE,
			     PRAM_INODE_SIZE);
		return;
	}
	if (pram_tx_logged(tx, off, len) &&
	    pram_tx_logged(tx, slot, sizeof(__le32)))
		return;
	if (tx->next + 1 > PRAM_JOURNAL_LINES ||
	    tx->nlogged == ARRAY_SIZE(tx->logged))
		pram_tx_commit(sb);
	e = pram_tx_lines_open(sb, tx->next, 1);
	pram_journal_fill_slot(e, tx->gen, tx->next, off, addr, len,
			       *(const __le32 *)(sbi->virt_addr + slot));
	pram_tx_lines_close(e, 1);
	tx->next++;
	pram_tx_add_logged(tx, off, len);
}

/**
 * pram_tx_log_free() - save a free slot of the inode table before it is taken
 * @sb: the superblock
 * @pi: the slot: free, and all zeros
 *
 * As pram_tx_log() for the whole record, but only its first journal line
 * is saved: the undo zeroes the mode with it, and the slot is free again
 * whatever the rest holds. The next mount clears the rest, as it clears
 * every free slot that is not all zeros after an unclean stop
 * (pram_finish_orphans()); fsck.pramfs does too. A new inode's record
 * costs the journal one line instead of three.
 *
 * Only if the transaction has logged no byte of the record yet: then
 * the slot was free and all zeros when it began. One it freed itself may
 * have been in use, and is saved whole.
 */
void pram_tx_log_free(struct super_block *sb, const struct pram_inode *pi)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_tx *tx = &sbi->tx;
	u64 off = (const void *)pi - sbi->virt_addr;

	BUILD_BUG_ON(offsetofend(struct pram_inode, i_mode) > PRAM_JOURNAL_DATA);
	if (!tx->enabled || tx->owner != current)
		return;
	pram_tx_save(sb, pi, PRAM_INODE_SIZE,
		     pram_tx_touched(tx, off, PRAM_INODE_SIZE) ?
		     PRAM_INODE_SIZE : PRAM_JOURNAL_DATA);
}

static void pram_tx_restore(void *arg, u64 offset, const void *old, u32 len)
{
	struct super_block *sb = arg;
	void *w = pram_wp_open(sb, PRAM_SB(sb)->virt_addr + offset, len);

	memcpy(w, old, len);
	pram_wp_close(sb, w, len);
}

static void pram_tx_restore_copy(void *arg, u64 offset, const void *old,
				 u32 len)
{
	memcpy(arg + offset, old, len);
}

/*
 * A read-only mount may store nothing, so it cannot undo in place: it
 * reads a copy of the filesystem in memory, undone there, instead of the
 * NVRAM (the copy goes at unmount; a remount read-write is refused while
 * the journal is pending). Without memory for the copy it shows the
 * NVRAM as the cut left it, and says so.
 */
static void pram_tx_show_undone(struct super_block *sb, int n)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	void *copy = __vmalloc(sbi->map_size, GFP_KERNEL | __GFP_NOWARN |
			       __GFP_NORETRY);

	if (!copy) {
		pram_warn(sb, "journal: an operation cut by a power loss shows half done: no memory for an undone copy (%d ranges)",
			  n);
		return;
	}
	memcpy(copy, sbi->virt_addr, sbi->map_size);
	pram_journal_undo(copy + pram_journal_offset(&sbi->geo), &sbi->geo,
			  pram_tx_restore_copy, copy);
	sbi->super = copy + ((void *)sbi->super - sbi->virt_addr);
	sbi->nvram_addr = sbi->virt_addr;
	sbi->virt_addr = copy;
	pram_info(sb, "journal: an operation cut by a power loss is undone in a copy in memory, not on the NVRAM (read-only, %d ranges)",
		  n);
}

/* A journal not to be trusted (@why), logged and made empty. */
static void pram_tx_empty(struct super_block *sb, const char *why)
{
	struct pram_journal_head *h = pram_journal_head(sb), *w;

	pram_err(sb, "journal: %s", why);
	w = pram_wp_open(sb, h, PRAM_JOURNAL_SIZE);
	pram_journal_format(w);
	pram_wp_close(sb, w, PRAM_JOURNAL_SIZE);
	pram_warn(sb, "journal: made empty again");
}

/*
 * Logging from now on, read-write, once nothing is left to undo: a bad
 * head (which a read-only mount leaves as it found it) made empty, a
 * round's lines cleared, the generation read.
 */
static void pram_tx_start(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_journal_head *h = pram_journal_head(sb);
	const char *why;

	if (pram_journal_check_head(h, &why))
		pram_tx_empty(sb, why);
	pram_tx_clear_round(sb);
	sbi->tx.gen = le32_to_cpu(h->j_gen);
	sbi->tx.next = 1;
	sbi->tx.nlogged = 0;
	sbi->tx.enabled = true;
}

/**
 * pram_tx_load() - the journal at mount; undo what a power cut left
 * @sb: the superblock; the counts are not loaded yet
 *
 * On a read-write mount, an operation the power cut left half done is
 * undone, before anything else reads the metadata it changed (the
 * caller logs it); on a read-only one nothing is stored.
 * A bad head, or entries whose undo would leave the superblock invalid
 * (pram_journal_check_undo()), is logged, and the journal ignored; a
 * read-write mount writes an empty journal over it: nothing it held can
 * be trusted, and an empty journal loses nothing that was committed.
 *
 * Return: the entries undone, or found and left on a read-only mount.
 */
int pram_tx_load(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);
	struct pram_journal_head *h, *w;
	const char *why;
	int n;

	if (!sbi->geo.journal_blocks)
		return 0;
	h = pram_journal_head(sb);
	if (pram_journal_check_head(h, &why) ||
	    pram_journal_check_undo(h, &sbi->geo, sbi->virt_addr,
				    (void *)sbi->super - sbi->virt_addr, &why)) {
		if (sb_rdonly(sb)) {
			pram_err(sb, "journal: %s", why);
			return 0;
		}
		pram_tx_empty(sb, why);
	}
	n = pram_journal_pending(h, &sbi->geo);
	if (n && sb_rdonly(sb)) {
		pram_tx_show_undone(sb, n);
	} else if (n) {
		pram_journal_undo(h, &sbi->geo, pram_tx_restore, sb);
		w = pram_wp_open(sb, h, sizeof(*h));
		WRITE_ONCE(w->j_gen, cpu_to_le32(le32_to_cpu(h->j_gen) + 1));
		pram_wp_close(sb, w, sizeof(*h));
	}
	if (!sb_rdonly(sb))
		pram_tx_start(sb);
	return n;
}

/**
 * pram_tx_pending() - does the journal hold an operation to undo?
 * @sb: the superblock
 */
bool pram_tx_pending(struct super_block *sb)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	return sbi->geo.journal_blocks &&
	       pram_journal_pending(pram_journal_head(sb), &sbi->geo) > 0;
}

/**
 * pram_tx_enable() - start or stop logging, at a remount
 * @sb: the superblock
 * @rw: mounted read-write from now on
 */
void pram_tx_enable(struct super_block *sb, bool rw)
{
	struct pram_sb_info *sbi = PRAM_SB(sb);

	if (rw && sbi->geo.journal_blocks)
		pram_tx_start(sb);
	else
		sbi->tx.enabled = false;
}

/**
 * pram_tx_init() - the in-memory transaction state of a new mount
 * @sb: the superblock
 */
void pram_tx_init(struct super_block *sb)
{
	mutex_init(&PRAM_SB(sb)->tx.lock);
}
