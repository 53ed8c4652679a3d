// SPDX-License-Identifier: GPL-2.0
/*
 * Regions: declaration, pinning (at declaration, on demand, overlapped),
 * MMU-notifier invalidation and the global pinned-page budget.
 *
 * Pins are taken with the mmu_interval_notifier read_begin/retry pattern:
 * pages are pinned into a scratch array without region->lock, then
 * installed under it only if no invalidation ran meanwhile.
 */
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "pinmx.h"

/* Protects pinmx_lru, kept least recently used first. */
static DEFINE_SPINLOCK(pinmx_lru_lock);
static LIST_HEAD(pinmx_lru);
static atomic_long_t pinmx_pinned_pages = ATOMIC_LONG_INIT(0);
static struct workqueue_struct *pinmx_wq;
/* Regions of up to PINMX_REGION_FEW_SEGS segments; see pinmx_ids_get(). */
static struct kmem_cache *pinmx_region_cache;

#define PINMX_EVICT_TRIES	8
/* Runs of pinned pages taken out of a page array per pages_lock hold. */
#define PINMX_UNPIN_RUNS	32
/* Page array slots looked at per pages_lock hold: bounds the softirq-off time. */
#define PINMX_UNPIN_HOLD_PAGES	1024
/* Scratch arrays up to this many pages live on the stack. */
#define PINMX_PIN_STACK_PAGES	16

/*
 * Physically contiguous pinned pages sharing one dirty state: the core
 * unpins each folio of a run with one atomic operation, and a transparent
 * huge page is one run, so unpinning costs per folio rather than per page.
 */
struct pinmx_run {
	struct page *page;
	unsigned int n;
	bool dirty;
};

static unsigned int pinmx_pin_delay_us;
module_param_named(pin_delay_us, pinmx_pin_delay_us, uint, 0644);
MODULE_PARM_DESC(pin_delay_us, "sleep before every pin call, microseconds (tests force overlap misses with it)");

/*
 * Time from kicking an overlapped worker to its running, a moving average
 * (weight 1/8; racing updates only blur it). A copier hands the rest of a
 * region to the worker only if pinning it in line would take longer. The
 * first guess lies within the range seen under emulation; the measured
 * average replaces it as workers run.
 */
static unsigned long pinmx_worker_start_ns = 250 * NSEC_PER_USEC;
module_param_named(worker_start_ns, pinmx_worker_start_ns, ulong, 0444);
MODULE_PARM_DESC(worker_start_ns, "measured: from kicking an overlapped pin worker to its running, ns (moving average)");

static unsigned long pinmx_seg_index(const struct pinmx_seg *seg, u64 off)
{
	return (seg->vaddr + off - seg->start) >> PAGE_SHIFT;
}

void pinmx_lru_touch(struct pinmx_region *region)
{
	/* Already the most recent (a new region is): a hint, read unlocked. */
	if (data_race(pinmx_lru.prev == &region->lru))
		return;
	spin_lock(&pinmx_lru_lock);
	if (!list_empty(&region->lru))
		list_move_tail(&region->lru, &pinmx_lru);
	spin_unlock(&pinmx_lru_lock);
}

static void pinmx_uncharge(struct pinmx_region *region, unsigned long n)
{
	atomic64_sub(n, &region->mm->pinned_vm);
	atomic_long_sub(n, &pinmx_pinned_pages);
}

/* Mark each folio of a run dirty once. */
static void pinmx_run_mark_dirty(const struct pinmx_run *run)
{
	unsigned long i = 0;

	while (i < run->n) {
		struct page *page = nth_page(run->page, i);
		struct folio *folio = page_folio(page);

		folio_mark_dirty(folio);
		i += folio_nr_pages(folio) - folio_page_idx(folio, page);
	}
}

/*
 * Unpin a run taken out of a page array.
 *
 * While the notifiers are live, reclaim or migration may hold a page lock
 * and wait in our notifier for region->lock, so taking a page lock under
 * region->lock could deadlock: dirty without it, as ib_umem_odp does; the
 * mapping cannot go away meanwhile because its invalidation waits for
 * region->lock. @notifiers_gone (destroy) allows set_page_dirty_lock().
 */
static void pinmx_unpin_run(const struct pinmx_run *run, bool notifiers_gone)
{
	if (run->dirty && !notifiers_gone)
		pinmx_run_mark_dirty(run);
	unpin_user_page_range_dirty_lock(run->page, run->n,
					 run->dirty && notifiers_gone);
}

/*
 * Take up to PINMX_UNPIN_RUNS runs of pinned pages out of the page array,
 * from *pos on, looking at no more than PINMX_UNPIN_HOLD_PAGES slots. The
 * softirq pull engine reads the array under pages_lock, so once the
 * pointers are gone no copy can start on those pages, and taking the lock
 * waited for any copy in flight.
 *
 * Dirty bits are set under region->lock (copies) or pages_lock (pull
 * engine); with both held nobody else writes the bitmap, so the
 * non-atomic bitmap_clear() is safe.
 */
static unsigned int pinmx_seg_take(struct pinmx_seg *seg, unsigned long *pos,
				   unsigned long last, struct pinmx_run *runs,
				   unsigned long *taken)
{
	struct pinmx_region *region = seg->region;
	unsigned long i = *pos, end, state_end = i;
	unsigned long limit = min(last, i + PINMX_UNPIN_HOLD_PAGES);
	struct pinmx_run *run = runs;
	bool dirty = false;

	lockdep_assert_held(&region->lock);
	spin_lock_bh(&region->pages_lock);
	while (i < limit && run < runs + PINMX_UNPIN_RUNS) {
		if (!seg->pages[i]) {
			i++;
			continue;
		}
		/* Runs share one dirty state: find where the bitmap changes. */
		if (i >= state_end) {
			dirty = test_bit(i, seg->dirty);
			state_end = dirty ?
				find_next_zero_bit(seg->dirty, limit, i) :
				find_next_bit(seg->dirty, limit, i);
		}
		run->page = seg->pages[i];
		run->dirty = dirty;
		seg->pages[i] = NULL;
		for (end = i + 1; end < state_end &&
		     seg->pages[end] == nth_page(run->page, end - i); end++)
			seg->pages[end] = NULL;
		run->n = end - i;
		if (dirty)
			bitmap_clear(seg->dirty, i, run->n);
		*taken += run->n;
		run++;
		i = end;
	}
	spin_unlock_bh(&region->pages_lock);
	*pos = i;
	return run - runs;
}

static unsigned long pinmx_seg_release(struct pinmx_seg *seg,
				       unsigned long first, unsigned long last,
				       bool notifiers_gone)
{
	struct pinmx_region *region = seg->region;
	struct pinmx_run runs[PINMX_UNPIN_RUNS];
	unsigned long pos = first, total = 0;
	unsigned int nr, i;

	lockdep_assert_held(&region->lock);
	while (region->nr_pinned && pos < last) {
		nr = pinmx_seg_take(seg, &pos, last, runs, &total);
		for (i = 0; i < nr; i++)
			pinmx_unpin_run(&runs[i], notifiers_gone);
	}
	if (!total)
		return 0;
	if (first < seg->pinned_upto)
		smp_store_release(&seg->pinned_upto, first);
	region->nr_pinned -= total;
	pinmx_uncharge(region, total);
	pinmx_count(PINMX_CNT_PAGES_PINNED_NOW, -(long)total);
	pinmx_count(PINMX_CNT_PAGES_UNPINNED, total);
	return total;
}

static unsigned long pinmx_region_release_all(struct pinmx_region *region,
					      bool notifiers_gone)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < region->nr_segs; i++)
		n += pinmx_seg_release(&region->segs[i], 0,
				       region->segs[i].npages, notifiers_gone);
	return n;
}

/* Unpin the least recently used idle region; false if none could be. */
static bool pinmx_evict_one(struct pinmx_region *self)
{
	int tries;

	for (tries = 0; tries < PINMX_EVICT_TRIES; tries++) {
		struct pinmx_region *victim = NULL, *r;
		unsigned long n = 0;

		spin_lock(&pinmx_lru_lock);
		list_for_each_entry(r, &pinmx_lru, lru) {
			if (r == self || !READ_ONCE(r->nr_pinned) ||
			    atomic_read(&r->users) ||
			    !kref_get_unless_zero(&r->kref))
				continue;
			victim = r;
			list_move_tail(&r->lru, &pinmx_lru);
			break;
		}
		spin_unlock(&pinmx_lru_lock);
		if (!victim)
			return false;
		if (mutex_trylock(&victim->lock)) {
			if (!atomic_read(&victim->users))
				n = pinmx_region_release_all(victim, false);
			mutex_unlock(&victim->lock);
		}
		pinmx_region_put(victim);
		if (n) {
			pinmx_count(PINMX_CNT_BUDGET_EVICTIONS, 1);
			return true;
		}
	}
	return false;
}

static int pinmx_charge(struct pinmx_region *region, unsigned long n)
{
	s64 locked = atomic64_add_return(n, &region->mm->pinned_vm);

	if (!region->can_lock && locked > region->lock_limit) {
		atomic64_sub(n, &region->mm->pinned_vm);
		pinmx_count(PINMX_CNT_ERR_MEMLOCK, 1);
		return -ENOMEM;
	}
	for (;;) {
		if (atomic_long_add_return(n, &pinmx_pinned_pages) <=
		    READ_ONCE(pinmx_budget_pages))
			return 0;
		atomic_long_sub(n, &pinmx_pinned_pages);
		if (!pinmx_evict_one(region))
			break;
	}
	atomic64_sub(n, &region->mm->pinned_vm);
	pinmx_count(PINMX_CNT_ERR_BUDGET, 1);
	return -ENOSPC;
}

/* Install freshly pinned pages; returns how many were already there. */
static unsigned long pinmx_seg_install(struct pinmx_seg *seg,
				       unsigned long first, unsigned long n,
				       struct page **pages)
{
	struct pinmx_region *region = seg->region;
	unsigned long i, dup = 0, upto;

	lockdep_assert_held(&region->lock);
	spin_lock_bh(&region->pages_lock);
	if (!region->nr_pinned ||
	    !memchr_inv(&seg->pages[first], 0, n * sizeof(*pages))) {
		memcpy(&seg->pages[first], pages, n * sizeof(*pages));
	} else {
		for (i = 0; i < n; i++) {
			if (seg->pages[first + i]) {
				unpin_user_page(pages[i]);
				dup++;
				continue;
			}
			seg->pages[first + i] = pages[i];
		}
	}
	spin_unlock_bh(&region->pages_lock);
	region->nr_pinned += n - dup;
	upto = seg->pinned_upto;
	if (upto >= first)
		upto = max(upto, first + n);
	while (upto < seg->npages && seg->pages[upto])
		upto++;
	smp_store_release(&seg->pinned_upto, upto);
	pinmx_count(PINMX_CNT_PAGES_PINNED_NOW, n - dup);
	pinmx_count(PINMX_CNT_PAGES_PINNED_TOTAL, n - dup);
	return dup;
}

/* Pin pages [first, first + n) of @seg; current->mm must be region->mm. */
static int pinmx_seg_pin(struct pinmx_seg *seg, unsigned long first,
			 unsigned long n)
{
	struct pinmx_region *region = seg->region;
	struct page *stack_pages[PINMX_PIN_STACK_PAGES];
	unsigned int gup_flags = FOLL_LONGTERM;
	struct page **pages = stack_pages;
	unsigned long seq, dup;
	long pinned;
	int err;

	if (region->writable)
		gup_flags |= FOLL_WRITE;
	if (n > PINMX_PIN_STACK_PAGES) {
		pages = kvmalloc_array(n, sizeof(*pages), GFP_KERNEL);
		if (!pages)
			return -ENOMEM;
	}
	err = pinmx_charge(region, n);
	if (err)
		goto out_free;
again:
	if (READ_ONCE(pinmx_pin_delay_us))
		fsleep(READ_ONCE(pinmx_pin_delay_us));
	seq = mmu_interval_read_begin(&seg->notifier);
	pinmx_count(PINMX_CNT_PIN_CALLS, 1);
	pinned = pin_user_pages_fast(seg->start + first * PAGE_SIZE, n,
				     gup_flags, pages);
	if (pinned != n) {
		if (pinned > 0)
			unpin_user_pages(pages, pinned);
		err = pinned < 0 ? pinned : -EFAULT;
		pinmx_count(PINMX_CNT_ERR_FAULT, 1);
		goto out_uncharge;
	}
	mutex_lock(&region->lock);
	if (region->dead) {
		err = -ENOENT;
		goto out_unlock;
	}
	if (mmu_interval_read_retry(&seg->notifier, seq)) {
		mutex_unlock(&region->lock);
		unpin_user_pages(pages, n);
		pinmx_count(PINMX_CNT_PIN_RETRIES, 1);
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			goto out_uncharge;
		}
		goto again;
	}
	dup = pinmx_seg_install(seg, first, n, pages);
	mutex_unlock(&region->lock);
	if (dup)
		pinmx_uncharge(region, dup);
	/* Pairs with the waiters' prepare_to_wait(): see wq_has_sleeper(). */
	if (wq_has_sleeper(&region->wq))
		wake_up_all(&region->wq);
	err = 0;
	goto out_free;

out_unlock:
	mutex_unlock(&region->lock);
	unpin_user_pages(pages, n);
out_uncharge:
	pinmx_uncharge(region, n);
out_free:
	if (pages != stack_pages)
		kvfree(pages);
	return err;
}

/* Find the next run of unpinned pages in [*pos, end), at most @max long. */
static unsigned long pinmx_seg_next_missing(struct pinmx_seg *seg,
					    unsigned long *pos,
					    unsigned long end,
					    unsigned long max)
{
	struct pinmx_region *region = seg->region;
	unsigned long i, n = 0;

	mutex_lock(&region->lock);
	/* Pages below pinned_upto are pinned: no need to look at them. */
	i = max(*pos, seg->pinned_upto);
	while (i < end && seg->pages[i])
		i++;
	/* Nothing pinned in the region: the whole range is missing. */
	if (!region->nr_pinned && i < end)
		n = min(end - i, max);
	while (i + n < end && n < max && !seg->pages[i + n])
		n++;
	mutex_unlock(&region->lock);
	*pos = i;
	return n;
}

static int pinmx_seg_pin_missing(struct pinmx_seg *seg, unsigned long first,
				 unsigned long last)
{
	unsigned long pos = first, n;
	int err;

	/*
	 * Nothing pinned (a region pinned at declaration): all is missing. A
	 * pin racing with this one is harmless, pinmx_seg_install() drops
	 * duplicates.
	 */
	if (!READ_ONCE(seg->region->nr_pinned) &&
	    last - first <= PINMX_CHUNK_LIMIT)
		return pinmx_seg_pin(seg, first, last - first);
	while (pos < last && (n = pinmx_seg_next_missing(seg, &pos, last,
							 PINMX_CHUNK_LIMIT))) {
		err = pinmx_seg_pin(seg, pos, n);
		if (err)
			return err;
		pos += n;
	}
	return 0;
}

/*
 * Workers pin in the declaring process's mm: adopt it for the pin, unless
 * the process is gone. Pair with pinmx_leave_mm().
 */
static bool pinmx_enter_mm(struct mm_struct *mm)
{
	if (!mmget_not_zero(mm))
		return false;
	kthread_use_mm(mm);
	return true;
}

static void pinmx_leave_mm(struct mm_struct *mm)
{
	kthread_unuse_mm(mm);
	mmput(mm);
}

/* A pin of another process's region, run by a worker that adopts its mm. */
struct pinmx_remote_pin {
	struct work_struct work;
	struct pinmx_seg *seg;
	unsigned long first;
	unsigned long last;
	int err;
	struct completion done;
};

static void pinmx_remote_pin_fn(struct work_struct *work)
{
	struct pinmx_remote_pin *req =
		container_of(work, struct pinmx_remote_pin, work);
	struct mm_struct *mm = req->seg->region->mm;

	req->err = -ESRCH;
	if (pinmx_enter_mm(mm)) {
		req->err = pinmx_seg_pin_missing(req->seg, req->first,
						 req->last);
		pinmx_leave_mm(mm);
	}
	complete(&req->done);
}

static int pinmx_seg_pin_range(struct pinmx_seg *seg, unsigned long first,
			       unsigned long last)
{
	struct pinmx_remote_pin req = {
		.seg = seg, .first = first, .last = last,
	};

	if (current->mm == seg->region->mm)
		return pinmx_seg_pin_missing(seg, first, last);
	INIT_WORK_ONSTACK(&req.work, pinmx_remote_pin_fn);
	init_completion(&req.done);
	queue_work(pinmx_wq, &req.work);
	wait_for_completion(&req.done);
	destroy_work_on_stack(&req.work);
	return req.err;
}

/* Pin from the start position the kicker (or a copier since) gave. */
static int pinmx_region_pin_progressive(struct pinmx_region *region)
{
	unsigned long chunk = region->chunk_min, pos, avg;
	unsigned int s;
	int err;

	mutex_lock(&region->lock);
	avg = READ_ONCE(pinmx_worker_start_ns);
	WRITE_ONCE(pinmx_worker_start_ns,
		   avg - avg / 8 + (ktime_get_ns() - region->kick_ns) / 8);
	region->worker_started = true;
	s = region->worker_seg;
	pos = region->worker_page;
	mutex_unlock(&region->lock);
	for (; s < region->nr_segs; s++, pos = 0) {
		struct pinmx_seg *seg = &region->segs[s];
		unsigned long n;

		while (pos < seg->npages &&
		       (n = pinmx_seg_next_missing(seg, &pos, seg->npages,
						   chunk))) {
			if (READ_ONCE(region->dead))
				return -ENOENT;
			/* Where a copier finds the worker (see below). */
			WRITE_ONCE(region->worker_seg, s);
			WRITE_ONCE(region->worker_page, pos);
			WRITE_ONCE(region->worker_end, pos + n);
			err = pinmx_seg_pin(seg, pos, n);
			if (err)
				return err;
			pos += n;
			chunk = min_t(unsigned long, chunk * 2,
				      region->chunk_max);
		}
	}
	return 0;
}

static void pinmx_pin_worker(struct work_struct *work)
{
	struct pinmx_region *region =
		container_of(work, struct pinmx_region, pin_work);
	int err = -ESRCH;

	if (pinmx_enter_mm(region->mm)) {
		err = pinmx_region_pin_progressive(region);
		pinmx_leave_mm(region->mm);
	}
	mutex_lock(&region->lock);
	region->worker_running = false;
	region->worker_err = err;
	mutex_unlock(&region->lock);
	wake_up_all(&region->wq);
	pinmx_region_put_user(region);
	pinmx_region_put(region);
}

/* Queue the worker to pin from page @page of segment @s to the end. */
static void pinmx_worker_kick_locked(struct pinmx_region *region,
				     unsigned int s, unsigned long page)
{
	lockdep_assert_held(&region->lock);
	region->worker_running = true;
	region->worker_started = false;
	region->worker_err = 0;
	region->worker_seg = s;
	region->worker_page = page;
	region->worker_end = 0;
	region->kick_ns = ktime_get_ns();
	atomic_inc(&region->users);
	kref_get(&region->kref);
	queue_work(pinmx_wq, &region->pin_work);
}

static bool pinmx_seg_covered(struct pinmx_seg *seg, unsigned long last)
{
	return smp_load_acquire(&seg->pinned_upto) >= last;
}

/* Is the worker's position before page @page of segment @s? */
static bool pinmx_worker_before(struct pinmx_region *region, unsigned int s,
				unsigned long page)
{
	unsigned int ws = READ_ONCE(region->worker_seg);

	return ws < s || (ws == s && READ_ONCE(region->worker_page) < page);
}

/*
 * Is the running worker pinning, in segment @s, a chunk that holds page
 * @need and ends by @last? Only then is waiting for it cheaper than pinning
 * [need, last) in line: a chunk ending beyond @last takes longer than the
 * range, one before @need is followed by another, and the worker never
 * comes back for a range behind it.
 */
static bool pinmx_worker_pinning(struct pinmx_region *region, unsigned int s,
				 unsigned long need, unsigned long last)
{
	return READ_ONCE(region->worker_seg) == s &&
	       READ_ONCE(region->worker_page) <= need &&
	       need < READ_ONCE(region->worker_end) &&
	       READ_ONCE(region->worker_end) <= last;
}

/* Does anything of the region lie after page @last of @seg? */
static bool pinmx_seg_more_after(struct pinmx_seg *seg, unsigned long last)
{
	struct pinmx_region *region = seg->region;

	return last < seg->npages || seg != &region->segs[region->nr_segs - 1];
}

/*
 * After pinning @need pages in line in @ns: have the worker pin the rest of
 * the region, from page @last of segment @s, if pinning the region's
 * missing pages at that speed takes longer than the worker takes to start.
 * Otherwise the copier pins each batch in line: handing a region that pins
 * faster than a worker starts only adds the hand-off and, once it runs,
 * contention.
 */
static void pinmx_worker_kick_if_pays(struct pinmx_region *region,
				      unsigned int s, unsigned long last,
				      unsigned long need, u64 ns)
{
	mutex_lock(&region->lock);
	if (!region->dead && !region->worker_running &&
	    div64_ul(ns * (region->nr_pages - region->nr_pinned), need) >
	    READ_ONCE(pinmx_worker_start_ns))
		pinmx_worker_kick_locked(region, s, last);
	mutex_unlock(&region->lock);
}

/*
 * Overlapped mode, in the declaring process: the caller never waits for a
 * worker that has not started (a handoff under load costs more than
 * pinning the range). It pins its own range in line and then, if the
 * rest of the region takes longer to pin than a worker to start, has the
 * worker pin ahead of it, from the end of that range; it moves the start
 * of a worker not started yet. It waits only for the chunk the running
 * worker pins now, if that chunk holds the first missing page and ends
 * within the range (woken when it is published). A need of at most
 * chunk_min pages kicks no worker.
 *
 * Another process's region is pinned by a worker in its mm either way: kick
 * the worker from the start and wait for it to pass @last.
 */
static int pinmx_seg_wait_overlapped(struct pinmx_seg *seg,
				     unsigned long first, unsigned long last)
{
	struct pinmx_region *region = seg->region;
	unsigned int s = seg - region->segs;
	bool own = current->mm == region->mm;
	bool kicked = false;
	int err;

	while (!pinmx_seg_covered(seg, last)) {
		mutex_lock(&region->lock);
		if (region->dead) {
			mutex_unlock(&region->lock);
			return -ENOENT;
		}
		if (own && !region->worker_running) {
			unsigned long need = last - max(first, seg->pinned_upto);
			u64 t0 = ktime_get_ns();

			mutex_unlock(&region->lock);
			err = pinmx_seg_pin_missing(seg, first, last);
			if (!err && need > region->chunk_min &&
			    pinmx_seg_more_after(seg, last))
				pinmx_worker_kick_if_pays(region, s, last, need,
							  ktime_get_ns() - t0);
			return err;
		}
		if (own && !region->worker_started) {
			if (pinmx_worker_before(region, s, last)) {
				region->worker_seg = s;
				region->worker_page = last;
			}
			mutex_unlock(&region->lock);
			return pinmx_seg_pin_missing(seg, first, last);
		}
		if (own && !pinmx_worker_pinning(region, s,
						 max(first, seg->pinned_upto),
						 last)) {
			mutex_unlock(&region->lock);
			return pinmx_seg_pin_missing(seg, first, last);
		}
		if (!own && !region->worker_running) {
			if (kicked && region->worker_err) {
				/*
				 * The worker stops at the first page it cannot
				 * pin, maybe in another segment: pin our own
				 * range to get its own answer.
				 */
				mutex_unlock(&region->lock);
				return pinmx_seg_pin_range(seg, first, last);
			}
			pinmx_worker_kick_locked(region, 0, 0);
			kicked = true;
		}
		mutex_unlock(&region->lock);
		pinmx_count(PINMX_CNT_OVERLAP_WAITS, 1);
		err = wait_event_killable(region->wq,
					  pinmx_seg_covered(seg, last) ||
					  !READ_ONCE(region->worker_running) ||
					  READ_ONCE(region->dead));
		if (err)
			return err;
		/* Our own worker stopped short (failed pin): pin in line. */
		if (own && !pinmx_seg_covered(seg, last) &&
		    !READ_ONCE(region->worker_running))
			return pinmx_seg_pin_missing(seg, first, last);
	}
	return 0;
}

/**
 * pinmx_region_kick - start the overlapped worker unless it runs or is done
 * @region: region with a user reference held; process context.
 */
void pinmx_region_kick(struct pinmx_region *region)
{
	mutex_lock(&region->lock);
	if (!region->dead && !region->worker_running &&
	    region->nr_pinned < region->nr_pages)
		pinmx_worker_kick_locked(region, 0, 0);
	mutex_unlock(&region->lock);
}

/*
 * Where a pin of region offset @offset failed when it could not even be
 * tried (the declaring process is gone): its segment and address.
 */
static void pinmx_region_fault_at(struct pinmx_region *region, u64 offset,
				  int err, struct pinmx_fault *where)
{
	struct pinmx_seg *seg = pinmx_region_find(region, offset);

	where->err = err;
	where->segment = seg - region->segs;
	where->address = seg->vaddr + (offset - seg->offset);
}

/*
 * The answer to one wait of a run that ended with @err: a wait whose own
 * range is pinned succeeded; any other is pinned on its own (@in_mm) so
 * that its failure names its own range, not the first failure of the run.
 */
static void pinmx_pin_answer_one(struct pinmx_region *region,
				 struct pinmx_pin_wait *w, u64 offset, u64 len,
				 int err, bool in_mm)
{
	struct pinmx_fault where = { };

	if (err && err != -ENOENT) {
		if (pinmx_region_pinned(region, offset, len))
			err = 0;
		else if (in_mm)
			err = pinmx_region_ensure_fault(region, offset, len,
							true, &where);
		else
			pinmx_region_fault_at(region, offset, err, &where);
	}
	w->done(w, err, &where);
}

/* Next wait answered by run @gen (every one once the region is dead). */
static struct pinmx_pin_wait *pinmx_pin_next_answered(struct pinmx_region *region,
						      u64 gen)
{
	struct pinmx_pin_wait *w;

	lockdep_assert_held(&region->pages_lock);
	list_for_each_entry(w, &region->pin_waits, node)
		if (w->gen <= gen || region->dead)
			return w;
	return NULL;
}

/*
 * Answer the waits run @gen covers, one at a time and without locks held,
 * so a callback may ask again; pinmx_region_pin_cancel() waits for the
 * callback in progress through @pin_calling.
 */
static void pinmx_pin_answer(struct pinmx_region *region, u64 gen, int err,
			     bool in_mm)
{
	struct pinmx_pin_wait *w;
	u64 offset, len;

	for (;;) {
		spin_lock_bh(&region->pages_lock);
		w = pinmx_pin_next_answered(region, gen);
		if (w) {
			list_del_init(&w->node);
			region->pin_calling = w;
			offset = w->offset;
			len = w->len;
		}
		spin_unlock_bh(&region->pages_lock);
		if (!w)
			return;
		pinmx_pin_answer_one(region, w, offset, len, err, in_mm);
		spin_lock_bh(&region->pages_lock);
		region->pin_calling = NULL;
		spin_unlock_bh(&region->pages_lock);
		wake_up_all(&region->wq);
	}
}

/*
 * One run of the asynchronous pin: pins the merged range asked for since
 * the last run, in the declaring process's mm, then answers the waits
 * registered before the run started. Every answer, failures included,
 * comes from a pin tried after the wait was last asked for, so a refusal
 * reflects the mapping at the time of the request.
 */
static void pinmx_pin_async_worker(struct work_struct *work)
{
	struct pinmx_region *region =
		container_of(work, struct pinmx_region, pin_async_work);
	u64 start, end, gen;
	int err;

	spin_lock_bh(&region->pages_lock);
	start = region->want_start;
	end = region->want_end;
	region->want_start = U64_MAX;
	region->want_end = 0;
	region->want_queued = false;
	gen = ++region->pin_gen;
	spin_unlock_bh(&region->pages_lock);
	if (!pinmx_region_get_user(region)) {
		pinmx_pin_answer(region, gen, -ENOENT, false);
		goto out_put;
	}
	if (pinmx_enter_mm(region->mm)) {
		err = start < end ? pinmx_region_ensure(region, start,
							end - start, true) : 0;
		pinmx_pin_answer(region, gen, err, true);
		pinmx_leave_mm(region->mm);
	} else {
		pinmx_pin_answer(region, gen, -ESRCH, false);
	}
	pinmx_region_put_user(region);
out_put:
	pinmx_region_put(region);
}

/**
 * pinmx_region_pin_async - pin a range in the background and say when done
 * @region: region found under RCU or referenced; any context.
 * @w: the wait; initialised with pinmx_pin_wait_init(). Its owner serializes
 *	its calls for @w (and its check of pinmx_pin_wait_queued()).
 * @offset: start byte, within the region.
 * @len: bytes, not zero, within the region.
 *
 * A work item pins the range in the declaring process's mm and then calls
 * @w->done once, in process context, with 0, or the errno and where the
 * range of @w could not be pinned, or -ENOENT if the region was destroyed.
 * Asking again for a @w still waiting widens its range, and its answer
 * then comes from a pin started after this call.
 *
 * Return: 0, or -ENOENT if the region is destroyed (@w is not queued).
 */
int pinmx_region_pin_async(struct pinmx_region *region,
			   struct pinmx_pin_wait *w, u64 offset, u64 len)
{
	bool queue;

	spin_lock_bh(&region->pages_lock);
	if (region->dead) {
		spin_unlock_bh(&region->pages_lock);
		return -ENOENT;
	}
	if (list_empty(&w->node)) {
		w->offset = offset;
		w->len = len;
		list_add_tail(&w->node, &region->pin_waits);
	} else {
		u64 end = max(w->offset + w->len, offset + len);

		w->offset = min(w->offset, offset);
		w->len = end - w->offset;
	}
	w->gen = region->pin_gen + 1;
	region->want_start = min(region->want_start, offset);
	region->want_end = max(region->want_end, offset + len);
	queue = !region->want_queued;
	if (queue) {
		region->want_queued = true;
		/* Not dead: the endpoint still holds its reference. */
		kref_get(&region->kref);
	}
	spin_unlock_bh(&region->pages_lock);
	if (queue && !queue_work(pinmx_wq, &region->pin_async_work))
		pinmx_region_put(region);
	return 0;
}

/**
 * pinmx_pin_wait_queued - is @w waiting for an answer?
 * @w: the wait; stable only under the lock its owner asks for it with.
 *
 * A callback that finds its wait queued again was asked again since the
 * run it answers started: a later answer will come.
 */
bool pinmx_pin_wait_queued(const struct pinmx_pin_wait *w)
{
	return !list_empty(&w->node);
}

/**
 * pinmx_region_pin_cancel - withdraw a wait; process context
 * @region: region @w was asked of, referenced.
 * @w: the wait; its owner no longer asks for it.
 *
 * On return @w->done is not running and will not be called.
 */
void pinmx_region_pin_cancel(struct pinmx_region *region,
			     struct pinmx_pin_wait *w)
{
	spin_lock_bh(&region->pages_lock);
	list_del_init(&w->node);
	spin_unlock_bh(&region->pages_lock);
	wait_event(region->wq, READ_ONCE(region->pin_calling) != w);
}

/**
 * pinmx_region_slot_drop - empty a server slot that waits for pins; process
 *	context
 * @lock: the server's lock, guarding @slot_region.
 * @slot_region: the slot's region, which holds a reference while set.
 * @w: the slot's pin wait on that region.
 *
 * On return the slot is empty and its wait's callback neither runs nor will.
 */
void pinmx_region_slot_drop(spinlock_t *lock,
			    struct pinmx_region **slot_region,
			    struct pinmx_pin_wait *w)
{
	struct pinmx_region *region;

	spin_lock_bh(lock);
	region = *slot_region;
	if (region)
		kref_get(&region->kref);
	spin_unlock_bh(lock);
	if (!region)
		return;
	pinmx_region_pin_cancel(region, w);
	spin_lock_bh(lock);
	if (*slot_region == region) {
		*slot_region = NULL;
		pinmx_region_put(region);
	}
	spin_unlock_bh(lock);
	pinmx_region_put(region);
}

/*
 * Copy between the pinned pages of [offset, offset + len) and @buf or @skb,
 * holding pages_lock so that no unpin can free a page under the copy.
 * Everything is checked before anything is copied; with neither @buf nor
 * @skb, only checked.
 */
static int pinmx_region_io(struct pinmx_region *region, u64 offset, u64 len,
			   void *buf, const struct sk_buff *skb, int skb_off,
			   u64 *miss)
{
	struct pinmx_cursor c;
	u64 left;
	int err = 0;

	spin_lock_bh(&region->pages_lock);
	if (region->dead) {
		err = -ENOENT;
		goto out;
	}
	pinmx_cursor_init(&c, region, offset);
	for (left = len; left; ) {
		u64 n = min(left, pinmx_cursor_span(&c));

		if (!c.seg->pages[pinmx_cursor_index(&c)]) {
			*miss = offset + len - left;
			err = -EAGAIN;
			goto out;
		}
		pinmx_cursor_advance(&c, n);
		left -= n;
	}
	if (!buf && !skb)
		goto out;
	pinmx_cursor_init(&c, region, offset);
	for (left = len; left; ) {
		u64 n = min(left, pinmx_cursor_span(&c));
		unsigned long idx = pinmx_cursor_index(&c);
		struct page *page = c.seg->pages[idx];
		void *addr = kmap_local_page(page) +
			     offset_in_page(c.seg->vaddr + c.off);

		if (skb) {
			/* Cannot fail: the caller checked the skb's length. */
			skb_copy_bits(skb, skb_off, addr, n);
			skb_off += n;
			flush_dcache_page(page);
			set_bit(idx, c.seg->dirty);
		} else {
			memcpy(buf, addr, n);
			buf += n;
		}
		kunmap_local(addr);
		pinmx_cursor_advance(&c, n);
		left -= n;
	}
out:
	spin_unlock_bh(&region->pages_lock);
	return err;
}

/* Is every word of the range naturally aligned in memory and pinned? */
static int pinmx_region_words_check(struct pinmx_region *region, u64 offset,
				    u32 width, u32 count, u64 *miss)
{
	struct pinmx_cursor c;
	u32 i;

	pinmx_cursor_init(&c, region, offset);
	for (i = 0; i < count; i++) {
		/* Aligned words never cross a page; a segment end, maybe. */
		if ((c.seg->vaddr + c.off) % width || c.seg->len - c.off < width)
			return -EINVAL;
		if (!c.seg->pages[pinmx_cursor_index(&c)]) {
			*miss = offset + (u64)i * width;
			return -EAGAIN;
		}
		pinmx_cursor_advance(&c, width);
	}
	return 0;
}

/**
 * pinmx_region_words - apply @fn to pinned words of a region, in any context
 * @region: region found under RCU or referenced.
 * @offset: region offset of the first word; the range is within the region.
 * @width: bytes of a word, 4 or 8.
 * @count: words.
 * @fn: called with the kernel address of word i, for i in order, under
 *	pages_lock (no unpin runs meanwhile); it uses the kernel's atomic ops.
 * @arg: for @fn.
 * @miss: set to the offset of the first word not pinned on -EAGAIN.
 *
 * Everything is checked before @fn runs once.
 *
 * Return: 0; -EINVAL if a word is not naturally aligned in the declaring
 * process's memory or crosses a segment end; -EAGAIN if a page is not
 * pinned; -ENOENT if the region is destroyed.
 */
int pinmx_region_words(struct pinmx_region *region, u64 offset, u32 width,
		       u32 count, pinmx_word_fn fn, void *arg, u64 *miss)
{
	struct pinmx_cursor c;
	int err;
	u32 i;

	spin_lock_bh(&region->pages_lock);
	err = region->dead ? -ENOENT :
	      pinmx_region_words_check(region, offset, width, count, miss);
	if (err)
		goto out;
	pinmx_cursor_init(&c, region, offset);
	for (i = 0; i < count; i++) {
		unsigned long idx = pinmx_cursor_index(&c);
		struct page *page = c.seg->pages[idx];
		void *addr = kmap_local_page(page) +
			     offset_in_page(c.seg->vaddr + c.off);

		fn(addr, i, arg);
		kunmap_local(addr);
		flush_dcache_page(page);
		set_bit(idx, c.seg->dirty);
		pinmx_cursor_advance(&c, width);
	}
out:
	spin_unlock_bh(&region->pages_lock);
	return err;
}

/**
 * pinmx_region_read - copy pinned bytes out of a region, in any context
 * @region: region found under RCU or referenced.
 * @offset: start byte; the range is within the region.
 * @buf: destination.
 * @len: bytes.
 * @miss: set to the offset of the first byte not pinned on -EAGAIN.
 *
 * Return: 0; -EAGAIN if a page is not pinned (nothing copied); -ENOENT if
 * the region is destroyed.
 */
int pinmx_region_read(struct pinmx_region *region, u64 offset, void *buf,
		      u64 len, u64 *miss)
{
	return pinmx_region_io(region, offset, len, buf, NULL, 0, miss);
}

/**
 * pinmx_region_pinned - are all pages of a range pinned now? Any context.
 * @region: region found under RCU or referenced.
 * @offset: start byte; the range is within the region.
 * @len: bytes.
 *
 * Return: true if every page is pinned and the region alive.
 */
bool pinmx_region_pinned(struct pinmx_region *region, u64 offset, u64 len)
{
	u64 miss;

	return !pinmx_region_io(region, offset, len, NULL, NULL, 0, &miss);
}

/**
 * pinmx_region_write_skb - copy skb bytes into pinned pages of a region
 * @region: writable region, referenced.
 * @offset: start byte; the range is within the region.
 * @skb: source.
 * @skb_off: offset in @skb; @skb holds @len bytes from there.
 * @len: bytes.
 * @miss: as for pinmx_region_read().
 *
 * Return: as for pinmx_region_read().
 */
int pinmx_region_write_skb(struct pinmx_region *region, u64 offset,
			   const struct sk_buff *skb, int skb_off, u64 len,
			   u64 *miss)
{
	return pinmx_region_io(region, offset, len, NULL, skb, skb_off, miss);
}

struct pinmx_seg *pinmx_region_find(struct pinmx_region *region, u64 offset)
{
	unsigned int lo = 0, hi = region->nr_segs - 1;

	while (lo < hi) {
		unsigned int mid = (lo + hi + 1) / 2;

		if (region->segs[mid].offset <= offset)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &region->segs[lo];
}

/**
 * pinmx_region_ensure - pin every page touching [offset, offset + len)
 * @region: region with a user reference held.
 * @offset: start byte within the region; the range is already validated.
 * @len: bytes, not zero.
 * @explicit: pin now whatever the mode (PINMX_IOC_PIN).
 *
 * Return: 0, or a negative errno from pinning.
 */
int pinmx_region_ensure(struct pinmx_region *region, u64 offset, u64 len,
			bool explicit)
{
	return pinmx_region_ensure_fault(region, offset, len, explicit, NULL);
}

/**
 * pinmx_region_ensure_fault - pinmx_region_ensure() saying where it failed
 * @region: as for pinmx_region_ensure().
 * @offset: as for pinmx_region_ensure().
 * @len: as for pinmx_region_ensure().
 * @explicit: as for pinmx_region_ensure().
 * @fault: if not NULL, filled on failure: the segment whose pin failed
 *	and the first address of the range asked of it.
 *
 * Return: 0, or a negative errno from pinning.
 */
int pinmx_region_ensure_fault(struct pinmx_region *region, u64 offset,
			      u64 len, bool explicit, struct pinmx_fault *fault)
{
	struct pinmx_seg *seg = pinmx_region_find(region, offset);
	struct pinmx_seg *end_seg = region->segs + region->nr_segs;
	u64 end = offset + len;
	int err = 0;

	for (; seg < end_seg && seg->offset < end; seg++) {
		u64 a = max(offset, seg->offset) - seg->offset;
		u64 b = min(end, seg->offset + seg->len) - seg->offset;
		unsigned long first = pinmx_seg_index(seg, a);
		unsigned long last = pinmx_seg_index(seg, b - 1) + 1;

		if (!explicit && region->mode == PINMX_PIN_OVERLAPPED)
			err = pinmx_seg_wait_overlapped(seg, first, last);
		else
			err = pinmx_seg_pin_range(seg, first, last);
		if (err) {
			if (fault) {
				fault->err = err;
				fault->segment = seg - region->segs;
				fault->address = seg->vaddr + a;
			}
			break;
		}
	}
	pinmx_lru_touch(region);
	return err;
}

int pinmx_region_pin_all(struct pinmx_region *region)
{
	return pinmx_region_ensure(region, 0, region->length, true);
}

void pinmx_region_unpin_range(struct pinmx_region *region, u64 offset,
			      u64 len)
{
	struct pinmx_seg *seg = pinmx_region_find(region, offset);
	struct pinmx_seg *end_seg = region->segs + region->nr_segs;
	u64 end = offset + len;

	mutex_lock(&region->lock);
	for (; seg < end_seg && seg->offset < end; seg++) {
		u64 a = max(offset, seg->offset) - seg->offset;
		u64 b = min(end, seg->offset + seg->len) - seg->offset;

		pinmx_seg_release(seg, pinmx_seg_index(seg, a),
				  pinmx_seg_index(seg, b - 1) + 1, false);
	}
	mutex_unlock(&region->lock);
}

static bool pinmx_invalidate(struct mmu_interval_notifier *mni,
			     const struct mmu_notifier_range *range,
			     unsigned long cur_seq)
{
	struct pinmx_seg *seg = container_of(mni, struct pinmx_seg, notifier);
	struct pinmx_region *region = seg->region;
	unsigned long seg_end = seg->start + (seg->npages << PAGE_SHIFT);
	unsigned long first, last;

	/* Taking the lock waits for the copies in flight over this region. */
	if (mmu_notifier_range_blockable(range)) {
		mutex_lock(&region->lock);
	} else if (!mutex_trylock(&region->lock)) {
		pinmx_count(PINMX_CNT_INVALIDATE_EAGAIN, 1);
		return false;
	}
	mmu_interval_set_seq(mni, cur_seq);
	first = (max(range->start, seg->start) - seg->start) >> PAGE_SHIFT;
	last = (min(range->end, seg_end) - seg->start + PAGE_SIZE - 1) >>
	       PAGE_SHIFT;
	if (pinmx_seg_release(seg, first, last, false))
		pinmx_count(PINMX_CNT_INVALIDATIONS, 1);
	mutex_unlock(&region->lock);
	return true;
}

static const struct mmu_interval_notifier_ops pinmx_mn_ops = {
	.invalidate = pinmx_invalidate,
};

/*
 * The receive softirq finds regions under RCU. A small one goes back to its
 * SLAB_TYPESAFE_BY_RCU cache at once: the memory stays a region for RCU
 * readers, who check what they found (pinmx_ids_get()), and a declare soon
 * after reuses it warm; freeing it a grace period later would have every
 * declare take a fresh object, often from a newly allocated and cleared
 * slab page.
 * Its page arrays and mm went at destroy.
 */
static void pinmx_region_free(struct kref *kref)
{
	struct pinmx_region *region =
		container_of(kref, struct pinmx_region, kref);

	if (region->nr_segs <= PINMX_REGION_FEW_SEGS)
		kmem_cache_free(pinmx_region_cache, region);
	else
		kfree_rcu(region, rcu);
}

void pinmx_region_put(struct pinmx_region *region)
{
	kref_put(&region->kref, pinmx_region_free);
}

bool pinmx_region_get_user(struct pinmx_region *region)
{
	bool alive;

	mutex_lock(&region->lock);
	alive = !region->dead;
	if (alive)
		atomic_inc(&region->users);
	mutex_unlock(&region->lock);
	return alive;
}

void pinmx_region_put_user(struct pinmx_region *region)
{
	/* Only destroy waits for no users: no wake-up (irq-saving lock) else. */
	if (atomic_dec_and_test(&region->users) && wq_has_sleeper(&region->wq))
		wake_up_all(&region->wq);
}

static void pinmx_seg_free_arrays(struct pinmx_seg *seg)
{
	if (seg->pages != seg->pages_few)
		kvfree(seg->pages);
	if (seg->dirty != &seg->dirty_word)
		kvfree(seg->dirty);
	seg->pages = NULL;
	seg->dirty = NULL;
}

static int pinmx_seg_init(struct pinmx_region *region, struct pinmx_seg *seg,
			  const struct pinmx_segment *useg, u64 offset)
{
	int err;

	seg->region = region;
	seg->vaddr = useg->vaddr;
	seg->len = useg->len;
	seg->offset = offset;
	seg->start = useg->vaddr & PAGE_MASK;
	seg->npages = (PAGE_ALIGN(useg->vaddr + useg->len) - seg->start) >>
		      PAGE_SHIFT;
	/* Small segments hold their page array and dirty bits themselves. */
	seg->pages = seg->npages <= PINMX_SEG_FEW_PAGES ? seg->pages_few :
		     kvcalloc(seg->npages, sizeof(*seg->pages), GFP_KERNEL);
	seg->dirty = seg->npages <= BITS_PER_LONG ? &seg->dirty_word :
		     kvcalloc(BITS_TO_LONGS(seg->npages), sizeof(long),
			      GFP_KERNEL);
	if (!seg->pages || !seg->dirty) {
		err = -ENOMEM;
		goto err_free;
	}
	err = mmu_interval_notifier_insert(&seg->notifier, region->mm,
					   seg->start,
					   seg->npages << PAGE_SHIFT,
					   &pinmx_mn_ops);
	if (err)
		goto err_free;
	return 0;

err_free:
	pinmx_seg_free_arrays(seg);
	return err;
}

/**
 * pinmx_region_create - declare a region of the current process
 * @ep: endpoint settings (pin mode, chunk bounds) to apply.
 * @segs: validated segments.
 * @nr: number of segments, 1..PINMX_MAX_SEGMENTS.
 * @flags: PINMX_DECLARE_* flags.
 *
 * Return: the region holding one reference, or an ERR_PTR.
 */
struct pinmx_region *pinmx_region_create(struct pinmx_endpoint *ep,
					 const struct pinmx_segment *segs,
					 unsigned int nr, u32 flags)
{
	size_t size = struct_size_t(struct pinmx_region, segs, nr);
	struct pinmx_region *region;
	unsigned int i;
	u64 offset = 0;
	int err;

	/*
	 * An RCU reader may still try a reference on the cached object's
	 * previous life: it finds the count zero until kref_init(), and drops
	 * one taken after it (pinmx_ids_get()). So the object is freed by its
	 * last put, even when creating it fails.
	 */
	if (nr <= PINMX_REGION_FEW_SEGS)
		region = kmem_cache_alloc(pinmx_region_cache, GFP_KERNEL);
	else
		region = kmalloc(size, GFP_KERNEL);
	if (!region)
		return ERR_PTR(-ENOMEM);
	memset(region, 0, size);
	kref_init(&region->kref);
	mutex_init(&region->lock);
	spin_lock_init(&region->pages_lock);
	INIT_WORK(&region->pin_async_work, pinmx_pin_async_worker);
	INIT_LIST_HEAD(&region->pin_waits);
	region->want_start = U64_MAX;
	init_waitqueue_head(&region->wq);
	INIT_LIST_HEAD(&region->lru);
	INIT_WORK(&region->pin_work, pinmx_pin_worker);
	region->mm = current->mm;
	mmgrab(region->mm);
	region->ep = ep;
	region->mode = ep->mode;
	region->chunk_min = ep->chunk_min;
	region->chunk_max = ep->chunk_max;
	region->flags = flags;
	region->key = 0;
	/* Non-zero: 0 stands for "not exposed" and for "no key carried". */
	while ((flags & PINMX_DECLARE_REMOTE) && !region->key)
		region->key = get_random_u64();
	region->writable = flags & PINMX_DECLARE_WRITABLE;
	region->can_lock = capable(CAP_IPC_LOCK);
	region->lock_limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	region->nr_segs = nr;

	for (i = 0; i < nr; i++) {
		struct pinmx_seg *seg = &region->segs[i];

		err = pinmx_seg_init(region, seg, &segs[i], offset);
		if (err)
			goto err_unwind;
		offset += seg->len;
		region->nr_pages += seg->npages;
	}
	region->length = offset;

	spin_lock(&pinmx_lru_lock);
	list_add_tail(&region->lru, &pinmx_lru);
	spin_unlock(&pinmx_lru_lock);
	pinmx_count(PINMX_CNT_REGIONS_NOW, 1);
	return region;

err_unwind:
	while (i--) {
		mmu_interval_notifier_remove(&region->segs[i].notifier);
		pinmx_seg_free_arrays(&region->segs[i]);
	}
	mmdrop(region->mm);
	pinmx_region_put(region);
	return ERR_PTR(err);
}

/*
 * Free what only users of a live region touch, in process context rather
 * than after a grace period: every later reader (the pull engine under
 * pages_lock, the asynchronous pin's worker, an evictor finding nothing
 * pinned) sees region->dead or nr_pinned == 0 first and touches neither the
 * page arrays nor the mm.
 */
static void pinmx_region_drop_arrays(struct pinmx_region *region)
{
	unsigned int i;

	for (i = 0; i < region->nr_segs; i++)
		pinmx_seg_free_arrays(&region->segs[i]);
	mmdrop(region->mm);
}

/**
 * pinmx_region_destroy - undeclare: wait for users, drop notifiers and pins
 * @region: region already removed from its endpoint; its reference is put.
 */
void pinmx_region_destroy(struct pinmx_region *region)
{
	bool cancelled;
	unsigned int i;

	mutex_lock(&region->lock);
	spin_lock_bh(&region->pages_lock);
	region->dead = true;
	spin_unlock_bh(&region->pages_lock);
	/*
	 * A worker still queued would only find the region dead: take it off
	 * the queue rather than wait for it to start (milliseconds under load).
	 */
	cancelled = region->worker_running && cancel_work(&region->pin_work);
	if (cancelled)
		region->worker_running = false;
	mutex_unlock(&region->lock);
	if (cancelled) {
		pinmx_region_put_user(region);
		pinmx_region_put(region);
	}
	/* Waiters for pins see dead; pairs with their prepare_to_wait(). */
	if (wq_has_sleeper(&region->wq))
		wake_up_all(&region->wq);
	wait_event(region->wq, !atomic_read(&region->users));

	spin_lock(&pinmx_lru_lock);
	list_del_init(&region->lru);
	spin_unlock(&pinmx_lru_lock);
	for (i = 0; i < region->nr_segs; i++)
		mmu_interval_notifier_remove(&region->segs[i].notifier);
	mutex_lock(&region->lock);
	pinmx_region_release_all(region, true);
	mutex_unlock(&region->lock);
	pinmx_region_drop_arrays(region);
	pinmx_count(PINMX_CNT_REGIONS_NOW, -1);
	pinmx_region_put(region);
}

int pinmx_region_init(void)
{
	pinmx_region_cache =
		kmem_cache_create("pinmx_region",
				  struct_size_t(struct pinmx_region, segs,
						PINMX_REGION_FEW_SEGS),
				  0, SLAB_TYPESAFE_BY_RCU, NULL);
	if (!pinmx_region_cache)
		return -ENOMEM;
	pinmx_wq = alloc_workqueue("pinmx", WQ_UNBOUND, 0);
	if (!pinmx_wq) {
		kmem_cache_destroy(pinmx_region_cache);
		return -ENOMEM;
	}
	return 0;
}

void pinmx_region_exit(void)
{
	/* kfree_rcu() of the regions must not outlive the module. */
	rcu_barrier();
	destroy_workqueue(pinmx_wq);
	kmem_cache_destroy(pinmx_region_cache);
}
