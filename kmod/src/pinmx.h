/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pinmx.ko internal structures, their locks and the functions the source
 * files offer each other.
 *
 * Lock order, outermost first; a lock is taken only under locks above it:
 *
 *   ep->lock			mutex: region ids, the pull table, settings
 *   region->lock		mutex: page arrays against copies; two regions
 *				in address order (copy.c)
 *   pull->lock			spinlock: one pull's state (receive softirq,
 *				resend timer, PULL ioctl, pin answers)
 *   put->lock			spinlock: one put's state (receive softirq,
 *				resend timer, PUT ioctl); never with pull->lock
 *   server->lock		spinlock, _bh: the PULLs the server keeps
 *   atomic_origin->lock	spinlock, _bh: one endpoint's atomics in flight
 *   atomic_target->lock	spinlock, _bh: answers kept per peer; held while
 *				an atomic applies (pages_lock inside)
 *   put_server->lock		spinlock, _bh: the PUTs (and ATOMICs) the target
 *				keeps while their pages are pinned; never with
 *				server->lock
 *   region->pages_lock		spinlock, _bh: page pointers against the pull
 *				engine; the asynchronous pin's waits
 *   ep->ring_lock		spinlock, _bh: event ring producers
 *
 * RTNL (attach, bind, detach) and pinmx_lru_lock are taken with none of
 * these held. MMU-notifier invalidations take region->lock under the mm's
 * locks, so nothing pins or faults pages while holding region->lock.
 * Answers of the asynchronous pin run with no lock held; they take
 * pull->lock or server->lock, then pages_lock to ask again.
 */
#ifndef PINMX_INTERNAL_H
#define PINMX_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct seq_file;
#include <linux/xarray.h>

#include "../include/uapi/pinmx.h"
#include "wire.h"

struct pinmx_region;
struct pinmx_pull_server;
struct pinmx_put_server;
struct pinmx_atomic_origin;
struct pinmx_atomic_target;
struct pinmx_iface;
struct poll_table_struct;
struct sk_buff;
struct sk_buff_head;
struct net_device;

/**
 * struct pinmx_fault - where pinning a range failed
 * @err: negative errno, 0 when nothing failed.
 * @segment: index of the segment in its region.
 * @address: first user address of the range asked of that segment.
 */
struct pinmx_fault {
	int err;
	u16 segment;
	u64 address;
};

struct pinmx_pin_wait;

/* Answer to an asynchronous pin; @where is filled when @err is not 0. */
typedef void (*pinmx_pin_done_fn)(struct pinmx_pin_wait *w, int err,
				  const struct pinmx_fault *where);

/**
 * struct pinmx_pin_wait - one wait for an asynchronous pin of a region range
 * @node: place in region->pin_waits while waiting, else empty; under
 *	region->pages_lock.
 * @offset: region offset of the range to answer for.
 * @len: its bytes; the range widens when asked again before the answer.
 * @gen: the run of the region's pin worker that answers it.
 * @done: called once per answer, in process context, no lock held.
 */
struct pinmx_pin_wait {
	struct list_head node;
	u64 offset;
	u64 len;
	u64 gen;
	pinmx_pin_done_fn done;
};

static inline void pinmx_pin_wait_init(struct pinmx_pin_wait *w,
				       pinmx_pin_done_fn done)
{
	INIT_LIST_HEAD(&w->node);
	w->done = done;
}

/* A segment of up to this many pages keeps its page array in itself. */
#define PINMX_SEG_FEW_PAGES	4

/**
 * struct pinmx_seg - one declared segment and its pins
 * @region: owning region.
 * @notifier: invalidation notifier covering [start, start + npages pages).
 * @vaddr: user address as declared.
 * @len: length in bytes as declared.
 * @offset: offset of the segment's first byte within the region.
 * @start: @vaddr rounded down to a page.
 * @npages: pages touched by the segment.
 * @pages: pinned page per index, NULL if not pinned; changed under both
 *	region->lock and region->pages_lock, read under either.
 * @pages_few: @pages of a segment of at most PINMX_SEG_FEW_PAGES pages.
 * @dirty: bitmap of pages written since pinned (atomic bit operations:
 *	copies set bits under region->lock, the pull engine under
 *	pages_lock; cleared under both).
 * @dirty_word: @dirty of a segment of at most BITS_PER_LONG pages.
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
	struct page *pages_few[PINMX_SEG_FEW_PAGES];
	unsigned long *dirty;
	unsigned long dirty_word;
	unsigned long pinned_upto;
};

/**
 * struct pinmx_region - a declared vector of segments
 * @kref: lifetime; held by the endpoint, the overlapped worker, evictors.
 * @lock: serializes changes of the page arrays (pin install, unpin,
 *	invalidation) with the copies reading them: a copy holds it while it
 *	touches pinned pages, so an invalidation waits for copies in flight.
 * @pages_lock: the same for the softirq pull engine, which cannot sleep:
 *	taken (inside @lock) to change page pointers and @dead, held by the
 *	engine while it copies a frame from or into pinned pages. Also
 *	guards @want_start, @want_end, @want_queued, @pin_waits, @pin_gen
 *	and @pin_calling.
 * @users: ioctls and workers using the region; destroy waits for zero.
 * @wq: woken when pins are published, the worker stops or @users drops.
 * @mm: declaring mm (mmgrab'ed until destroy); the only mm the region is
 *	usable from.
 * @lru: place in the global LRU, under pinmx_lru_lock.
 * @pin_work: overlapped pinning worker.
 * @pin_async_work: the asynchronous pin (pinmx_region_pin_async()).
 * @rcu: frees a region of more than PINMX_REGION_FEW_SEGS segments a
 *	grace period after the last reference (smaller ones come from a
 *	SLAB_TYPESAFE_BY_RCU cache: see pinmx_ids_get()).
 * @want_start: start of the range the pull engine wants pinned.
 * @want_end: its end; @want_start >= @want_end when none.
 * @want_queued: @pin_async_work is queued and holds a reference.
 * @pin_waits: struct pinmx_pin_wait waiting for an answer.
 * @pin_gen: runs of @pin_async_work started.
 * @pin_calling: the wait whose callback runs now, or NULL.
 * @ep: declaring endpoint; valid while the region is not destroyed.
 * @id: id within the endpoint.
 * @mode: pin mode fixed at declaration.
 * @flags: PINMX_DECLARE_* flags.
 * @key: remote-access key (PINMX_DECLARE_REMOTE), else 0; set before the
 *	region is published, never changed.
 * @writable: pins with FOLL_WRITE.
 * @can_lock: declarer had CAP_IPC_LOCK: no RLIMIT_MEMLOCK check.
 * @lock_limit: RLIMIT_MEMLOCK of the declarer, in pages.
 * @chunk_min: first overlapped chunk, in pages.
 * @chunk_max: largest overlapped chunk, in pages.
 * @dead: set under @lock by destroy; no more pins are installed.
 * @writes_held: PINMX_IOC_HOLD_WRITES holds remote writes back: PUT and
 *	ATOMIC frames are answered NACK HELD (release/acquire, read under RCU
 *	by the receive softirq).
 * @worker_running: overlapped worker queued or running; under @lock.
 * @worker_err: how the last worker run ended; under @lock.
 * @worker_started: the queued worker has read @worker_seg and @worker_page
 *	and pins from there; under @lock.
 * @worker_seg: segment index of the worker's position: where it starts
 *	(set by the kick, moved by copiers pinning in line until it starts,
 *	under @lock), then the chunk it pins now (WRITE_ONCE by the worker).
 * @worker_page: page within that segment; the worker pins from its start
 *	to the region's end.
 * @worker_end: end of the chunk the worker pins now (WRITE_ONCE).
 * @kick_ns: when the worker was last kicked (ktime_get_ns()); under @lock.
 * @nr_pinned: pages pinned now; written under @lock.
 * @length: total bytes.
 * @nr_pages: total pages.
 * @nr_segs: segments in @segs.
 * @segs: the segments.
 */
struct pinmx_region {
	struct kref kref;
	struct mutex lock;
	spinlock_t pages_lock;
	atomic_t users;
	wait_queue_head_t wq;
	struct mm_struct *mm;
	struct list_head lru;
	struct work_struct pin_work;
	struct work_struct pin_async_work;
	struct rcu_head rcu;
	u64 want_start;
	u64 want_end;
	bool want_queued;
	struct list_head pin_waits;
	u64 pin_gen;
	struct pinmx_pin_wait *pin_calling;
	struct pinmx_endpoint *ep;
	u32 id;
	u32 mode;
	u32 flags;
	u64 key;
	bool writable;
	bool can_lock;
	unsigned long lock_limit;
	unsigned int chunk_min;
	unsigned int chunk_max;
	bool dead;
	bool writes_held;
	bool worker_running;
	int worker_err;
	bool worker_started;
	unsigned int worker_seg;
	unsigned long worker_page;
	unsigned long worker_end;
	u64 kick_ns;
	unsigned long nr_pinned;
	u64 length;
	unsigned long nr_pages;
	unsigned int nr_segs;
	struct pinmx_seg segs[];
};

/*
 * Regions of up to this many segments (most of them) come from a slab cache
 * whose objects are reused at once; their segment list is copied on the stack.
 */
#define PINMX_REGION_FEW_SEGS	4

struct pinmx_region_table;

/**
 * struct pinmx_region_ids - region id -> region of one endpoint (region_ids.c)
 * @table: indexed by id, grown under the endpoint lock, read under RCU.
 * @used: ids in use; under the endpoint lock.
 */
struct pinmx_region_ids {
	struct pinmx_region_table __rcu *table;
	DECLARE_BITMAP(used, PINMX_MAX_REGIONS + 1);
};

int pinmx_ids_add(struct pinmx_region_ids *ids, struct pinmx_region *region);
struct pinmx_region *pinmx_ids_find(struct pinmx_region_ids *ids, u32 id);
struct pinmx_region *pinmx_ids_get(struct pinmx_region_ids *ids, u32 id);
void pinmx_ids_remove(struct pinmx_region_ids *ids, u32 id);
void pinmx_ids_free(struct pinmx_region_ids *ids);

/**
 * struct pinmx_endpoint - one open file of /dev/pinmx
 * @lock: serializes region id allocation, lookup and destroy, the pull
 *	table's insertions and removals, and the endpoint settings below.
 * @regions: id -> struct pinmx_region; read under RCU by the softirq.
 * @pulls: wire pull handle -> struct pinmx_pull; read under RCU by the
 *	softirq.
 * @pull_next: next handle to try (cyclic allocation).
 * @nr_pulls: pulls in @pulls.
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
 * @server: the pull server's state (PULLs waiting for pins), allocated at
 *	bind, like @ring.
 * @puts: wire put handle -> struct pinmx_put_state; read under RCU by the
 *	softirq; insertions and removals under @lock.
 * @put_next: next put handle to try (cyclic allocation).
 * @nr_puts: puts in @puts.
 * @put_seq_lock: guards @puts_running and @put_seq (_bh; taken under a
 *	put's lock, never the other way round).
 * @puts_running: puts not yet ended, oldest first.
 * @put_seq: number of the next put.
 * @put_low: number of the oldest running put, or @put_seq when none runs:
 *	every PUT frame carries it, so a target drops any frame of a put
 *	numbered below it (a stale duplicate of an ended put); written under
 *	@put_seq_lock, read with READ_ONCE().
 * @put_server: the put target's state (PUTs waiting for pins), allocated
 *	at bind.
 * @atomic_origin: this endpoint's atomics in flight, allocated at bind.
 * @atomic_target: the answers kept for peers' atomics, allocated at bind.
 */
struct pinmx_endpoint {
	struct mutex lock;
	struct pinmx_region_ids regions;
	struct xarray pulls;
	u32 pull_next;
	unsigned int nr_pulls;
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
	struct pinmx_pull_server *server;
	struct xarray puts;
	u32 put_next;
	unsigned int nr_puts;
	spinlock_t put_seq_lock;
	struct list_head puts_running;
	u32 put_seq;
	u32 put_low;
	struct pinmx_put_server *put_server;
	struct pinmx_atomic_origin *atomic_origin;
	struct pinmx_atomic_target *atomic_target;
};

/* A position in a region: segment and byte offset within it. */
struct pinmx_cursor {
	struct pinmx_seg *seg;
	u64 off;
};

struct pinmx_seg *pinmx_region_find(struct pinmx_region *region, u64 offset);

static inline void pinmx_cursor_init(struct pinmx_cursor *c,
				     struct pinmx_region *region, u64 offset)
{
	c->seg = pinmx_region_find(region, offset);
	c->off = offset - c->seg->offset;
}

static inline void pinmx_cursor_advance(struct pinmx_cursor *c, u64 n)
{
	c->off += n;
	if (c->off == c->seg->len) {
		c->seg++;
		c->off = 0;
	}
}

/* Bytes the cursor can go before crossing a page or segment end. */
static inline u64 pinmx_cursor_span(const struct pinmx_cursor *c)
{
	u64 addr = c->seg->vaddr + c->off;

	return min(c->seg->len - c->off, PAGE_SIZE - offset_in_page(addr));
}

static inline unsigned long pinmx_cursor_index(const struct pinmx_cursor *c)
{
	return (c->seg->vaddr + c->off - c->seg->start) >> PAGE_SHIFT;
}

/* module parameters */
extern unsigned int pinmx_default_mode;
extern unsigned int pinmx_chunk_min_pages;
extern unsigned int pinmx_chunk_max_pages;
extern unsigned long pinmx_budget_pages;
extern unsigned int pinmx_pull_resend_ms;
extern unsigned int pinmx_pull_max_retries;

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
int pinmx_region_ensure_fault(struct pinmx_region *region, u64 offset,
			      u64 len, bool explicit, struct pinmx_fault *fault);
void pinmx_region_kick(struct pinmx_region *region);
int pinmx_region_pin_async(struct pinmx_region *region,
			   struct pinmx_pin_wait *w, u64 offset, u64 len);
bool pinmx_pin_wait_queued(const struct pinmx_pin_wait *w);
bool pinmx_ep_take(struct pinmx_endpoint *ep, struct xarray *xa,
		   unsigned int *nr, unsigned long id, void *entry);
void *pinmx_ep_take_any(struct pinmx_endpoint *ep, struct xarray *xa,
			unsigned int *nr);
void pinmx_region_slot_drop(spinlock_t *lock,
			    struct pinmx_region **slot_region,
			    struct pinmx_pin_wait *w);
void pinmx_region_pin_cancel(struct pinmx_region *region,
			     struct pinmx_pin_wait *w);
int pinmx_region_read(struct pinmx_region *region, u64 offset, void *buf,
		      u64 len, u64 *miss);
bool pinmx_region_pinned(struct pinmx_region *region, u64 offset, u64 len);
int pinmx_region_write_skb(struct pinmx_region *region, u64 offset,
			   const struct sk_buff *skb, int skb_off, u64 len,
			   u64 *miss);
void pinmx_region_unpin_range(struct pinmx_region *region, u64 offset,
			      u64 len);
typedef void (*pinmx_word_fn)(void *word, u32 index, void *arg);
int pinmx_region_words(struct pinmx_region *region, u64 offset, u32 width,
		       u32 count, pinmx_word_fn fn, void *arg, u64 *miss);
void pinmx_lru_touch(struct pinmx_region *region);
int pinmx_region_init(void);
void pinmx_region_exit(void);

/* main.c */
struct pinmx_region *pinmx_get_region(struct pinmx_endpoint *ep, u32 id,
				      bool own);

/* net.c */
u32 pinmx_link_bytes(const struct net_device *dev);
void pinmx_mxoe_header(struct pinmx_wire_hdr *h, u8 kind, u8 dst_ep, u8 src_ep,
		       u32 dst_session, u32 src_session, u32 payload_len);
void pinmx_answer_header(struct pinmx_wire_hdr *n, u8 kind,
			 const struct pinmx_wire_hdr *f, u32 payload_len);
void pinmx_nack_queue(struct sk_buff_head *txq, struct net_device *dev,
		      const struct pinmx_wire_hdr *f, const u8 *src_mac,
		      u8 reason, const struct pinmx_fault *where);
struct sk_buff *pinmx_frame_alloc(struct net_device *dev, u32 len);
void pinmx_frame_queue(struct sk_buff_head *txq, struct sk_buff *skb,
		       struct net_device *dev, const u8 *dst_mac);
void pinmx_frame_xmit(struct sk_buff_head *txq);
int pinmx_ring_push_event(struct pinmx_endpoint *ep, u32 type,
			  const u8 *mac, const void *data, u32 len);
struct net_device *pinmx_ep_dev_rcu(struct pinmx_endpoint *ep);
struct pinmx_endpoint *pinmx_iface_peer_rcu(struct pinmx_endpoint *ep,
					    u8 index);
long pinmx_ioc_wait(struct pinmx_endpoint *ep, void __user *uarg);
int pinmx_net_init(void);
void pinmx_net_exit(void);
void pinmx_net_endpoint_init(struct pinmx_endpoint *ep);
void pinmx_net_release(struct pinmx_endpoint *ep);
void pinmx_net_show(struct seq_file *m);
long pinmx_ioc_attach(void __user *uarg);
long pinmx_ioc_bind(struct pinmx_endpoint *ep, void __user *uarg);
long pinmx_ioc_send(struct pinmx_endpoint *ep, void __user *uarg);
int pinmx_net_mmap(struct pinmx_endpoint *ep, struct vm_area_struct *vma);
__poll_t pinmx_net_poll(struct pinmx_endpoint *ep, struct file *file,
			struct poll_table_struct *wait);

/* pull.c */
int pinmx_pull_init(void);
void pinmx_pull_exit(void);
long pinmx_ioc_pull(struct pinmx_endpoint *ep, void __user *uarg);
void pinmx_pulls_release(struct pinmx_endpoint *ep);
int pinmx_pull_reply(struct pinmx_endpoint *ep, struct sk_buff *skb,
		     const struct pinmx_wire_pull_reply *f,
		     struct net_device *dev);
int pinmx_pull_nack(struct pinmx_endpoint *ep, const struct pinmx_wire_nack *f);
void pinmx_serve_pull(struct pinmx_endpoint *ep, const struct pinmx_wire_pull *f,
		      const u8 *src_mac, struct net_device *dev);
int pinmx_serve_pull_frame(struct pinmx_endpoint *ep, struct sk_buff *skb,
			   const struct pinmx_wire_pull *f,
			   struct net_device *dev);
int pinmx_key_check(const struct pinmx_region *region, u64 key);
struct pinmx_pull_server *pinmx_pull_server_alloc(struct pinmx_endpoint *ep);
void pinmx_pull_server_free(struct pinmx_pull_server *server);

/* put.c */
int pinmx_put_init(void);
void pinmx_put_exit(void);
long pinmx_ioc_put(struct pinmx_endpoint *ep, void __user *uarg);
long pinmx_ioc_putv(struct pinmx_endpoint *ep, void __user *uarg);
long pinmx_ioc_pullv(struct pinmx_endpoint *ep, void __user *uarg);
long pinmx_ioc_pull_cancel(struct pinmx_endpoint *ep, void __user *uarg);
int pinmx_pieces_check(const struct pinmx_put_piece *pieces, u32 nr,
		       u64 local_length, u64 max_bytes, u64 *total);
void pinmx_puts_release(struct pinmx_endpoint *ep);
int pinmx_put_frame(struct pinmx_endpoint *ep, struct sk_buff *skb,
		    const struct pinmx_wire_put *f, struct net_device *dev);
int pinmx_put_ack(struct pinmx_endpoint *ep, const struct pinmx_wire_put_ack *f,
		  struct net_device *dev);
int pinmx_put_nack(struct pinmx_endpoint *ep, const struct pinmx_wire_nack *f);
int pinmx_put_defer(struct pinmx_put_server *server,
		    struct pinmx_region *region, const struct pinmx_wire_put *f,
		    const u8 *mac, struct net_device *dev, u64 miss, u64 end);
struct pinmx_put_server *pinmx_put_server_alloc(struct pinmx_endpoint *ep);
void pinmx_put_server_free(struct pinmx_put_server *server);

/* atomic.c */
long pinmx_ioc_atomic(struct pinmx_endpoint *ep, void __user *uarg);
int pinmx_atomic_frame(struct pinmx_endpoint *ep, struct sk_buff *skb,
		       const struct pinmx_wire_atomic *f, struct net_device *dev);
int pinmx_atomic_reply(struct pinmx_endpoint *ep,
		       const struct pinmx_wire_atomic_reply *f);
int pinmx_atomic_nack(struct pinmx_endpoint *ep, const struct pinmx_wire_nack *f);
struct pinmx_atomic_origin *pinmx_atomic_origin_alloc(struct pinmx_endpoint *ep);
void pinmx_atomic_origin_free(struct pinmx_atomic_origin *origin);
struct pinmx_atomic_target *pinmx_atomic_target_alloc(void);
void pinmx_atomic_target_free(struct pinmx_atomic_target *target);

/* copy.c */

/* Which region of a copy could not be pinned, and where. */
struct pinmx_copy_fault {
	struct pinmx_region *region;
	struct pinmx_fault where;
};

int pinmx_copy(struct pinmx_region *src, u64 src_off,
	       struct pinmx_region *dst, u64 dst_off, u64 len,
	       struct pinmx_copy_fault *fault);

#endif /* PINMX_INTERNAL_H */
