/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PINMX_INTERNAL_H
#define PINMX_INTERNAL_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "../include/uapi/pinmx.h"

struct pinmx_region;
struct pinmx_iface;
struct poll_table_struct;

/**
 * struct pinmx_seg - one declared segment and its pins
 * @region: owning region.
 * @notifier: invalidation notifier covering [start, start + npages pages).
 * @vaddr: user address as declared.
 * @len: length in bytes as declared.
 * @offset: offset of the segment's first byte within the region.
 * @start: @vaddr rounded down to a page.
 * @npages: pages touched by the segment.
 * @pages: pinned page per index, NULL if not pinned; under region->lock.
 * @dirty: bitmap of pages written by copies since pinned; under region->lock.
 * @pinned_upto: pages pinned contiguously from index 0; written with
 *	smp_store_release() under region->lock, read with smp_load_acquire()
 *	by waiters that hold no lock.
 */
struct pinmx_seg {
	struct pinmx_region *region;
	struct mmu_interval_notifier notifier;
	u64 vaddr;
	u64 len;
	u64 offset;
	unsigned long start;
	unsigned long npages;
	struct page **pages;
	unsigned long *dirty;
	unsigned long pinned_upto;
};

/**
 * struct pinmx_region - a declared vector of segments
 * @kref: lifetime; held by the endpoint, the overlapped worker, evictors.
 * @lock: serializes changes of the page arrays (pin install, unpin,
 *	invalidation) with the copies reading them: a copy holds it while it
 *	touches pinned pages, so an invalidation waits for copies in flight.
 * @users: ioctls and workers using the region; destroy waits for zero.
 * @wq: woken when pins are published, the worker stops or @users drops.
 * @mm: declaring mm (mmgrab'ed); the only mm the region is usable from.
 * @lru: place in the global LRU, under pinmx_lru_lock.
 * @pin_work: overlapped pinning worker.
 * @id: id within the endpoint.
 * @mode: pin mode fixed at declaration.
 * @flags: PINMX_DECLARE_* flags.
 * @writable: pins with FOLL_WRITE.
 * @can_lock: declarer had CAP_IPC_LOCK: no RLIMIT_MEMLOCK check.
 * @lock_limit: RLIMIT_MEMLOCK of the declarer, in pages.
 * @chunk_min: first overlapped chunk, in pages.
 * @chunk_max: largest overlapped chunk, in pages.
 * @dead: set under @lock by destroy; no more pins are installed.
 * @worker_running: overlapped worker queued or running; under @lock.
 * @worker_err: how the last worker run ended; under @lock.
 * @nr_pinned: pages pinned now; written under @lock.
 * @length: total bytes.
 * @nr_pages: total pages.
 * @nr_segs: segments in @segs.
 * @segs: the segments.
 */
struct pinmx_region {
	struct kref kref;
	struct mutex lock;
	atomic_t users;
	wait_queue_head_t wq;
	struct mm_struct *mm;
	struct list_head lru;
	struct work_struct pin_work;
	u32 id;
	u32 mode;
	u32 flags;
	bool writable;
	bool can_lock;
	unsigned long lock_limit;
	unsigned int chunk_min;
	unsigned int chunk_max;
	bool dead;
	bool worker_running;
	int worker_err;
	unsigned long nr_pinned;
	u64 length;
	unsigned long nr_pages;
	unsigned int nr_segs;
	struct pinmx_seg segs[];
};

/**
 * struct pinmx_endpoint - one open file of /dev/pinmx
 * @lock: serializes region id allocation, lookup and destroy, and the
 *	endpoint settings below.
 * @regions: id -> struct pinmx_region.
 * @id: node-wide endpoint id, 0 before hello.
 * @mode: pin mode for regions declared from now on.
 * @chunk_min: overlapped chunk bounds for those regions, in pages.
 * @chunk_max: see @chunk_min.
 * @iface: interface the endpoint is bound to; set under RTNL, cleared
 *	under RTNL when the interface goes away, read under RCU by send.
 * @index: endpoint index on @iface, fixed at bind.
 * @session: session id drawn at bind.
 * @ring: event ring (vmalloc_user), NULL before bind; published with
 *	smp_store_release() and never changed until release.
 * @ring_lock: serializes the producers (receive softirqs on any CPU)
 *	writing slots and @ring_prod.
 * @ring_prod: kernel's own copy of the producer index; under @ring_lock.
 * @ring_wq: poll() waiters, woken for each event.
 */
struct pinmx_endpoint {
	struct mutex lock;
	struct xarray regions;
	u32 id;
	u32 mode;
	unsigned int chunk_min;
	unsigned int chunk_max;
	struct pinmx_iface __rcu *iface;
	u8 index;
	u32 session;
	void *ring;
	spinlock_t ring_lock;
	u32 ring_prod;
	wait_queue_head_t ring_wq;
};

/* module parameters */
extern unsigned int pinmx_default_mode;
extern unsigned int pinmx_chunk_min_pages;
extern unsigned int pinmx_chunk_max_pages;
extern unsigned long pinmx_budget_pages;

#define PINMX_CHUNK_LIMIT	65536

/* counters.c */
extern atomic64_t pinmx_counters[PINMX_CNT_NR];

static inline void pinmx_count(enum pinmx_counter c, long n)
{
	atomic64_add(n, &pinmx_counters[c]);
}

void pinmx_debugfs_init(void);
void pinmx_debugfs_exit(void);

/* region.c */
struct pinmx_region *pinmx_region_create(struct pinmx_endpoint *ep,
					 const struct pinmx_segment *segs,
					 unsigned int nr, u32 flags);
void pinmx_region_destroy(struct pinmx_region *region);
void pinmx_region_put(struct pinmx_region *region);
bool pinmx_region_get_user(struct pinmx_region *region);
void pinmx_region_put_user(struct pinmx_region *region);
int pinmx_region_pin_all(struct pinmx_region *region);
int pinmx_region_ensure(struct pinmx_region *region, u64 offset, u64 len,
			bool explicit);
void pinmx_region_unpin_range(struct pinmx_region *region, u64 offset,
			      u64 len);
struct pinmx_seg *pinmx_region_find(struct pinmx_region *region, u64 offset);
void pinmx_lru_touch(struct pinmx_region *region);
int pinmx_region_init(void);
void pinmx_region_exit(void);

/* net.c */
int pinmx_net_init(void);
void pinmx_net_exit(void);
void pinmx_net_endpoint_init(struct pinmx_endpoint *ep);
void pinmx_net_release(struct pinmx_endpoint *ep);
long pinmx_ioc_attach(void __user *uarg);
long pinmx_ioc_bind(struct pinmx_endpoint *ep, void __user *uarg);
long pinmx_ioc_send(struct pinmx_endpoint *ep, void __user *uarg);
int pinmx_net_mmap(struct pinmx_endpoint *ep, struct vm_area_struct *vma);
__poll_t pinmx_net_poll(struct pinmx_endpoint *ep, struct file *file,
			struct poll_table_struct *wait);

/* copy.c */
int pinmx_copy(struct pinmx_region *src, u64 src_off,
	       struct pinmx_region *dst, u64 dst_off, u64 len);

#endif /* PINMX_INTERNAL_H */
