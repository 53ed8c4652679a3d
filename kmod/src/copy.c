// SPDX-License-Identifier: GPL-2.0
/*
 * Region-to-region copy, the intra-node single-copy path. The copy walks
 * the range in batches: pin (or wait for the overlapped worker) without
 * locks, then copy the batch holding both regions' locks so invalidations
 * of those pages wait for it.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "pinmx.h"

/* Bytes copied per lock hold: bounds how long an invalidation waits. */
#define PINMX_COPY_BATCH	(64UL * PAGE_SIZE)

static void pinmx_lock_pair(struct pinmx_region *a, struct pinmx_region *b)
{
	if (a == b) {
		mutex_lock(&a->lock);
		return;
	}
	if (a > b)
		swap(a, b);
	mutex_lock(&a->lock);
	mutex_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);
}

static void pinmx_unlock_pair(struct pinmx_region *a, struct pinmx_region *b)
{
	if (a != b)
		mutex_unlock(&b->lock);
	mutex_unlock(&a->lock);
}

/* Copy @len bytes whose pages are pinned; -EAGAIN if one is not (any more). */
static int pinmx_copy_batch(struct pinmx_region *src, u64 src_off,
			    struct pinmx_region *dst, u64 dst_off, u64 len)
{
	struct pinmx_cursor s, d;
	int err = 0;

	pinmx_lock_pair(src, dst);
	if (src->dead || dst->dead) {
		err = -ENOENT;
		goto out;
	}
	pinmx_cursor_init(&s, src, src_off);
	pinmx_cursor_init(&d, dst, dst_off);
	while (len) {
		unsigned long si = pinmx_cursor_index(&s);
		unsigned long di = pinmx_cursor_index(&d);
		struct page *sp = s.seg->pages[si];
		struct page *dp = d.seg->pages[di];
		u64 n = min3(len, pinmx_cursor_span(&s), pinmx_cursor_span(&d));
		void *from, *to;

		if (!sp || !dp) {
			err = -EAGAIN;
			break;
		}
		from = kmap_local_page(sp);
		to = kmap_local_page(dp);
		memcpy(to + offset_in_page(d.seg->vaddr + d.off),
		       from + offset_in_page(s.seg->vaddr + s.off), n);
		kunmap_local(to);
		kunmap_local(from);
		flush_dcache_page(dp);
		set_bit(di, d.seg->dirty);
		pinmx_cursor_advance(&s, n);
		pinmx_cursor_advance(&d, n);
		len -= n;
	}
out:
	pinmx_unlock_pair(src, dst);
	return err;
}

/**
 * pinmx_copy - copy between two regions, pinning as their modes say
 * @src: source region, user reference held.
 * @src_off: validated offset in @src.
 * @dst: writable destination region, user reference held.
 * @dst_off: validated offset in @dst.
 * @len: bytes, not zero; the ranges are validated and do not overlap.
 * @fault: if not NULL, filled when pinning failed: the region that failed
 *	and where.
 *
 * Return: 0 or a negative errno; on error part of the range may be copied.
 */
int pinmx_copy(struct pinmx_region *src, u64 src_off,
	       struct pinmx_region *dst, u64 dst_off, u64 len,
	       struct pinmx_copy_fault *fault)
{
	struct pinmx_fault *where = fault ? &fault->where : NULL;
	u64 done = 0;
	int err;

	while (done < len) {
		u64 n = min(len - done, PINMX_COPY_BATCH);

		err = pinmx_region_ensure_fault(src, src_off + done, n, false,
						where);
		if (err && fault)
			fault->region = src;
		if (!err) {
			err = pinmx_region_ensure_fault(dst, dst_off + done, n,
							false, where);
			if (err && fault)
				fault->region = dst;
		}
		if (!err)
			err = pinmx_copy_batch(src, src_off + done, dst,
					       dst_off + done, n);
		if (err == -EAGAIN) {
			/* An invalidation won the race: pin again. */
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
			continue;
		}
		if (err)
			return err;
		done += n;
		cond_resched();
	}
	pinmx_count(PINMX_CNT_COPIES, 1);
	pinmx_count(PINMX_CNT_COPY_BYTES, len);
	return 0;
}
