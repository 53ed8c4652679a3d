// SPDX-License-Identifier: GPL-2.0
/*
 * Remote atomics: PINMX_IOC_ATOMIC sends one ATOMIC request (fetch-and-add,
 * swap, compare-and-swap, accumulate of int32/int64 words) to an exposed
 * region of a peer; the peer's receive softirq applies it with the kernel's
 * atomic operations on the words in their pinned pages and answers
 * ATOMIC_REPLY with the old value, without the target process.
 *
 * Exactly once: the origin numbers its requests (seq) and never has seq and
 * seq + PINMX_ATOMIC_WINDOW in flight at once. The target keeps, per peer
 * endpoint (interface address, index, session), the answers of the last
 * PINMX_ATOMIC_WINDOW seqs, indexed by seq modulo the window: a request
 * found there is answered again from it, one older than the window is
 * dropped (its origin has had its answer), so a resent fetch-and-add never
 * adds twice. The target's table lock is held from the lookup to the
 * storing of the answer, so two copies of one request on two CPUs apply it
 * once.
 *
 * Locks: origin->lock (spinlock, _bh) guards the requests of one endpoint;
 * target->lock (spinlock, _bh) the peers' windows, taken before the
 * region's pages_lock (pinmx_region_words()) and before put_server->lock
 * (a request whose page is not pinned is kept like a PUT).
 */

#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#include "pinmx.h"

/* Peer endpoints whose windows one target endpoint keeps. */
#define PINMX_ATOMIC_PEERS		64
/* A peer silent this long has no request in flight any more: reusable. */
#define PINMX_ATOMIC_PEER_IDLE_MS	30000
#define PINMX_ATOMIC_HEADER_BYTES	sizeof(struct pinmx_wire_atomic)

/**
 * struct pinmx_atomic_req - one atomic in flight at the origin
 * @seq: its request number.
 * @handle: the caller's handle.
 * @peer_mac: target interface.
 * @peer_index: target endpoint index.
 * @peer_session: target endpoint session.
 * @due: jiffies of the next resend.
 * @retries: resends so far.
 * @event_pending: ended; the end event waits for room in the ring.
 * @end: the end event.
 * @frame_len: bytes of @frame.
 * @frame: the request frame (MXoE header and operands), sent as is.
 */
struct pinmx_atomic_req {
	u32 seq;
	u32 handle;
	u8 peer_mac[ETH_ALEN];
	u8 peer_index;
	u32 peer_session;
	unsigned long due;
	unsigned int retries;
	bool event_pending;
	struct pinmx_atomic_event end;
	u32 frame_len;
	u8 frame[];
};

/**
 * struct pinmx_atomic_origin - the atomics of one bound endpoint
 * @ep: the endpoint.
 * @lock: guards everything below.
 * @timer: resends, retries end events; runs while @in_flight.
 * @closing: the endpoint is being released: the timer stays off.
 * @next_seq: seq of the next request.
 * @in_flight: requests in @reqs.
 * @reqs: request seq at index seq % PINMX_ATOMIC_WINDOW, or NULL.
 */
struct pinmx_atomic_origin {
	struct pinmx_endpoint *ep;
	spinlock_t lock;
	struct timer_list timer;
	bool closing;
	u32 next_seq;
	unsigned int in_flight;
	struct pinmx_atomic_req *reqs[PINMX_ATOMIC_WINDOW];
};

/* An answer the target keeps for a resent request. */
struct pinmx_atomic_answer {
	u32 seq;
	bool valid;
	u64 old;
};

/**
 * struct pinmx_atomic_peer - the answers kept for one peer endpoint
 * @mac: its interface address.
 * @index: its endpoint index.
 * @session: its session; a new session is a new peer.
 * @highest: highest seq applied.
 * @used: jiffies of its last request.
 * @answers: by seq % PINMX_ATOMIC_WINDOW.
 */
struct pinmx_atomic_peer {
	u8 mac[ETH_ALEN];
	u8 index;
	u32 session;
	u32 highest;
	unsigned long used;
	struct pinmx_atomic_answer answers[PINMX_ATOMIC_WINDOW];
};

/**
 * struct pinmx_atomic_target - the target side of one bound endpoint
 * @lock: guards @peers and their contents.
 * @peers: peers seen, NULL when free.
 */
struct pinmx_atomic_target {
	spinlock_t lock;
	struct pinmx_atomic_peer *peers[PINMX_ATOMIC_PEERS];
};

/* What one request does to its words (pinmx_region_words()). */
struct pinmx_atomic_ctx {
	u8 op;
	u8 width;
	const struct sk_buff *skb;
	u64 old;
};

/* Operand @i of the request in @ctx->skb (checked to hold them all). */
static u64 pinmx_atomic_operand(const struct pinmx_atomic_ctx *ctx, u32 i)
{
	__be64 v;

	skb_copy_bits(ctx->skb, sizeof(struct pinmx_wire_atomic) + i * 8, &v,
		      sizeof(v));
	return be64_to_cpu(v);
}

static u32 pinmx_atomic_words_on_wire(u8 op, u16 count)
{
	switch (op) {
	case PINMX_ATOMIC_CAS:
		return 2;
	case PINMX_ATOMIC_ACCUMULATE:
		return count;
	default:
		return 1;
	}
}

/* ---- origin ---------------------------------------------------------- */

static void pinmx_atomic_send(struct pinmx_atomic_req *req,
			      struct net_device *dev, struct sk_buff_head *txq)
{
	struct sk_buff *skb = pinmx_frame_alloc(dev, req->frame_len);

	if (!skb)
		return;
	memcpy(skb->data, req->frame, req->frame_len);
	pinmx_frame_queue(txq, skb, dev, req->peer_mac);
}

static int pinmx_atomic_push(struct pinmx_atomic_origin *origin,
			     struct pinmx_atomic_req *req)
{
	return pinmx_ring_push_event(origin->ep, req->end.status ?
				     PINMX_EVENT_ATOMIC_FAILED :
				     PINMX_EVENT_ATOMIC_DONE, req->peer_mac,
				     &req->end, sizeof(req->end));
}

static void pinmx_atomic_free(struct pinmx_atomic_origin *origin,
			      struct pinmx_atomic_req *req)
{
	origin->reqs[req->seq % PINMX_ATOMIC_WINDOW] = NULL;
	origin->in_flight--;
	kfree(req);
}

/* End @req and report it; under origin->lock. */
static void pinmx_atomic_end(struct pinmx_atomic_origin *origin,
			     struct pinmx_atomic_req *req, u32 status,
			     int error, u64 old, u64 address)
{
	req->end.status = status;
	req->end.error = -error;
	req->end.old = old;
	req->end.address = address;
	pinmx_count(status ? PINMX_CNT_ATOMICS_FAILED : PINMX_CNT_ATOMICS_DONE,
		    1);
	if (pinmx_atomic_push(origin, req)) {
		req->event_pending = true;
		return;
	}
	pinmx_atomic_free(origin, req);
}

/* The request in flight a reply or NACK from @f answers, or NULL. */
static struct pinmx_atomic_req *pinmx_atomic_find(struct pinmx_atomic_origin *origin,
						  u32 seq,
						  const struct pinmx_wire_hdr *f)
{
	struct pinmx_atomic_req *req = origin->reqs[seq % PINMX_ATOMIC_WINDOW];

	if (!req || req->seq != seq || req->event_pending ||
	    be32_to_cpu(f->src_session) != req->peer_session ||
	    f->src_ep != req->peer_index)
		return NULL;
	return req;
}

/**
 * pinmx_atomic_reply - an ATOMIC_REPLY for @ep; receive softirq, RCU
 * @ep: addressed endpoint.
 * @f: the checked reply.
 *
 * Return: 0 if it ended an atomic, else the counter of the drop.
 */
int pinmx_atomic_reply(struct pinmx_endpoint *ep,
		       const struct pinmx_wire_atomic_reply *f)
{
	struct pinmx_atomic_origin *origin = ep->atomic_origin;
	struct pinmx_atomic_req *req;
	int drop = 0;

	spin_lock_bh(&origin->lock);
	req = pinmx_atomic_find(origin, be32_to_cpu(f->seq), &f->hdr);
	if (req)
		pinmx_atomic_end(origin, req, PINMX_PULL_OK, 0,
				 be64_to_cpu(f->old), 0);
	else
		drop = PINMX_CNT_ATOMIC_DUPLICATE_REPLIES;
	spin_unlock_bh(&origin->lock);
	return drop;
}

static u32 pinmx_atomic_nack_status(u8 reason, int *err)
{
	switch (reason) {
	case PINMX_NACK_UNKNOWN_REGION:
		*err = -ENOENT;
		return PINMX_PULL_UNKNOWN_REGION;
	case PINMX_NACK_OUT_OF_RANGE:
		*err = -ERANGE;
		return PINMX_PULL_OUT_OF_RANGE;
	case PINMX_NACK_SEGMENT_FAULT:
		*err = -EFAULT;
		return PINMX_PULL_SEGMENT_FAULT;
	case PINMX_NACK_BAD_KEY:
		*err = -EACCES;
		return PINMX_PULL_BAD_KEY;
	case PINMX_NACK_BAD_FIELD:
		*err = -EINVAL;
		return PINMX_PULL_NO_RESOURCES;
	default:
		*err = -ECONNREFUSED;
		return PINMX_PULL_FAILED;
	}
}

/**
 * pinmx_atomic_nack - a NACK refusing one of @ep's atomics; softirq, RCU
 * @ep: addressed endpoint.
 * @f: the checked NACK.
 *
 * Return: 0 if it ended an atomic, else the counter of the drop.
 */
int pinmx_atomic_nack(struct pinmx_endpoint *ep, const struct pinmx_wire_nack *f)
{
	struct pinmx_atomic_origin *origin = ep->atomic_origin;
	u32 status, nerr = be32_to_cpu(f->error);
	struct pinmx_atomic_req *req;
	int err, drop = 0;

	status = pinmx_atomic_nack_status(f->reason, &err);
	if (nerr && nerr < MAX_ERRNO)
		err = -(int)nerr;
	spin_lock_bh(&origin->lock);
	req = pinmx_atomic_find(origin, be32_to_cpu(f->refused_handle), &f->hdr);
	if (req) {
		req->end.nack_reason = f->reason;
		pinmx_atomic_end(origin, req, status, err, 0,
				 be64_to_cpu(f->address));
	} else {
		drop = PINMX_CNT_ATOMIC_DUPLICATE_REPLIES;
	}
	spin_unlock_bh(&origin->lock);
	return drop;
}

/* Resend, time out or report one request; under origin->lock, RCU. */
static void pinmx_atomic_tick(struct pinmx_atomic_origin *origin,
			      struct pinmx_atomic_req *req,
			      struct net_device *dev, struct sk_buff_head *txq)
{
	unsigned long resend;

	if (req->event_pending) {
		if (!pinmx_atomic_push(origin, req))
			pinmx_atomic_free(origin, req);
		return;
	}
	if (time_before(jiffies, req->due))
		return;
	if (!dev) {
		pinmx_atomic_end(origin, req, PINMX_PULL_FAILED, -ENETDOWN, 0, 0);
		return;
	}
	if (req->retries >= READ_ONCE(pinmx_pull_max_retries)) {
		pinmx_atomic_end(origin, req, PINMX_PULL_TIMEOUT, -ETIMEDOUT, 0,
				 0);
		return;
	}
	req->retries++;
	resend = max(1UL, msecs_to_jiffies(READ_ONCE(pinmx_pull_resend_ms)));
	req->due = jiffies + (resend << min(req->retries, 4U));
	pinmx_atomic_send(req, dev, txq);
}

static void pinmx_atomic_timer(struct timer_list *t)
{
	struct pinmx_atomic_origin *origin = from_timer(origin, t, timer);
	struct net_device *dev;
	struct sk_buff_head txq;
	unsigned int i;

	__skb_queue_head_init(&txq);
	rcu_read_lock();
	dev = pinmx_ep_dev_rcu(origin->ep);
	spin_lock_bh(&origin->lock);
	for (i = 0; i < PINMX_ATOMIC_WINDOW && origin->in_flight; i++)
		if (origin->reqs[i])
			pinmx_atomic_tick(origin, origin->reqs[i], dev, &txq);
	if (origin->in_flight && !origin->closing)
		mod_timer(&origin->timer, jiffies + max(1UL,
			  msecs_to_jiffies(READ_ONCE(pinmx_pull_resend_ms)) / 2));
	spin_unlock_bh(&origin->lock);
	local_bh_disable();
	pinmx_frame_xmit(&txq);
	local_bh_enable();
	rcu_read_unlock();
}

static int pinmx_atomic_check(const struct pinmx_atomic *req)
{
	u64 end;

	if (req->reserved || !req->op || req->op >= PINMX_ATOMIC_NR_OPS ||
	    (req->width != 4 && req->width != 8) || !req->count ||
	    req->remote_offset % req->width)
		return -EINVAL;
	if (req->op == PINMX_ATOMIC_ACCUMULATE ?
	    req->count > PINMX_ATOMIC_MAX_WORDS : req->count != 1)
		return -EINVAL;
	if (check_add_overflow(req->remote_offset,
			       (u64)req->count * req->width, &end) ||
	    end >= PINMX_U63_LIMIT)
		return -EOVERFLOW;
	return 0;
}

/* The operands as 8-byte big-endian words after the header. */
static int pinmx_atomic_operands(const struct pinmx_atomic *req, __be64 *out)
{
	u32 i;

	switch (req->op) {
	case PINMX_ATOMIC_CAS:
		out[0] = cpu_to_be64(req->compare);
		out[1] = cpu_to_be64(req->operand);
		return 0;
	case PINMX_ATOMIC_ACCUMULATE:
		for (i = 0; i < req->count; i++) {
			u64 v = 0;
			u32 v32;

			if (req->width == 8 ?
			    copy_from_user(&v, u64_to_user_ptr(req->values +
							       i * 8ULL), 8) :
			    copy_from_user(&v32, u64_to_user_ptr(req->values +
								 i * 4ULL), 4))
				return -EFAULT;
			out[i] = cpu_to_be64(req->width == 8 ? v : v32);
		}
		return 0;
	default:
		out[0] = cpu_to_be64(req->operand);
		return 0;
	}
}

static struct pinmx_atomic_req *pinmx_atomic_build(struct pinmx_endpoint *ep,
						   const struct pinmx_atomic *req)
{
	u32 words = pinmx_atomic_words_on_wire(req->op, req->count);
	u32 len = PINMX_ATOMIC_HEADER_BYTES + words * 8;
	struct pinmx_wire_atomic *f;
	struct pinmx_atomic_req *r;
	int err;

	r = kzalloc(sizeof(*r) + len, GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	f = (struct pinmx_wire_atomic *)r->frame;
	err = pinmx_atomic_operands(req, (__be64 *)(f + 1));
	if (err) {
		kfree(r);
		return ERR_PTR(err);
	}
	pinmx_mxoe_header(&f->hdr, PINMX_KIND_ATOMIC, req->peer_endpoint,
			  ep->index, req->peer_session, ep->session, words * 8);
	f->region_id = cpu_to_be32(req->remote_region);
	f->region_offset = cpu_to_be64(req->remote_offset);
	f->key = cpu_to_be64(req->remote_key);
	f->op = req->op;
	f->width = req->width;
	f->count = cpu_to_be16(req->count);
	r->frame_len = len;
	r->handle = req->handle;
	memcpy(r->peer_mac, req->peer_mac, ETH_ALEN);
	r->peer_index = req->peer_endpoint;
	r->peer_session = req->peer_session;
	r->end.handle = req->handle;
	r->end.op = req->op;
	return r;
}

/* Number @r, keep it and send it; 0, -EBUSY or -ENETDOWN. */
static int pinmx_atomic_launch(struct pinmx_atomic_origin *origin,
			       struct pinmx_atomic_req *r)
{
	unsigned long resend =
		max(1UL, msecs_to_jiffies(READ_ONCE(pinmx_pull_resend_ms)));
	struct net_device *dev;
	struct sk_buff_head txq;
	int err = 0;

	__skb_queue_head_init(&txq);
	rcu_read_lock();
	dev = pinmx_ep_dev_rcu(origin->ep);
	if (!dev || !(dev->flags & IFF_UP)) {
		err = -ENETDOWN;
		goto out;
	}
	spin_lock_bh(&origin->lock);
	if (origin->reqs[origin->next_seq % PINMX_ATOMIC_WINDOW]) {
		/* seq - WINDOW still runs: the target could not tell them apart. */
		spin_unlock_bh(&origin->lock);
		err = -EBUSY;
		goto out;
	}
	r->seq = origin->next_seq++;
	((struct pinmx_wire_atomic *)r->frame)->seq = cpu_to_be32(r->seq);
	r->due = jiffies + resend;
	origin->reqs[r->seq % PINMX_ATOMIC_WINDOW] = r;
	if (!origin->in_flight++)
		mod_timer(&origin->timer, jiffies + max(1UL, resend / 2));
	pinmx_atomic_send(r, dev, &txq);
	spin_unlock_bh(&origin->lock);
	local_bh_disable();
	pinmx_frame_xmit(&txq);
	local_bh_enable();
out:
	rcu_read_unlock();
	return err;
}

long pinmx_ioc_atomic(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_atomic_req *r;
	struct pinmx_atomic req;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	err = pinmx_atomic_check(&req);
	if (err)
		return err;
	if (!smp_load_acquire(&ep->ring))
		return -ENOTCONN;
	r = pinmx_atomic_build(ep, &req);
	if (IS_ERR(r))
		return PTR_ERR(r);
	err = pinmx_atomic_launch(ep->atomic_origin, r);
	if (err)
		kfree(r);
	return err;
}

struct pinmx_atomic_origin *pinmx_atomic_origin_alloc(struct pinmx_endpoint *ep)
{
	struct pinmx_atomic_origin *origin = kzalloc(sizeof(*origin), GFP_KERNEL);

	if (!origin)
		return NULL;
	origin->ep = ep;
	origin->next_seq = 1;
	spin_lock_init(&origin->lock);
	timer_setup(&origin->timer, pinmx_atomic_timer, 0);
	return origin;
}

/* Drop the atomics of an endpoint no longer reachable by the softirq. */
void pinmx_atomic_origin_free(struct pinmx_atomic_origin *origin)
{
	unsigned int i;

	spin_lock_bh(&origin->lock);
	origin->closing = true;
	spin_unlock_bh(&origin->lock);
	del_timer_sync(&origin->timer);
	for (i = 0; i < PINMX_ATOMIC_WINDOW; i++)
		kfree(origin->reqs[i]);
	kfree(origin);
}

/* ---- target ---------------------------------------------------------- */

static void pinmx_atomic_word32(atomic_t *w, struct pinmx_atomic_ctx *ctx,
				u32 i)
{
	s32 v = (s32)pinmx_atomic_operand(ctx, ctx->op == PINMX_ATOMIC_CAS ?
					  1 : i);

	switch (ctx->op) {
	case PINMX_ATOMIC_FETCH_ADD:
		ctx->old = (u32)atomic_fetch_add(v, w);
		break;
	case PINMX_ATOMIC_SWAP:
		ctx->old = (u32)atomic_xchg(w, v);
		break;
	case PINMX_ATOMIC_CAS:
		ctx->old = (u32)atomic_cmpxchg(w,
					       (s32)pinmx_atomic_operand(ctx, 0),
					       v);
		break;
	default:
		atomic_add(v, w);
		break;
	}
}

static void pinmx_atomic_word64(atomic64_t *w, struct pinmx_atomic_ctx *ctx,
				u32 i)
{
	s64 v = (s64)pinmx_atomic_operand(ctx, ctx->op == PINMX_ATOMIC_CAS ?
					  1 : i);

	switch (ctx->op) {
	case PINMX_ATOMIC_FETCH_ADD:
		ctx->old = atomic64_fetch_add(v, w);
		break;
	case PINMX_ATOMIC_SWAP:
		ctx->old = atomic64_xchg(w, v);
		break;
	case PINMX_ATOMIC_CAS:
		ctx->old = atomic64_cmpxchg(w, (s64)pinmx_atomic_operand(ctx, 0),
					    v);
		break;
	default:
		atomic64_add(v, w);
		break;
	}
}

static void pinmx_atomic_word(void *word, u32 i, void *arg)
{
	struct pinmx_atomic_ctx *ctx = arg;

	if (ctx->width == 4)
		pinmx_atomic_word32(word, ctx, i);
	else
		pinmx_atomic_word64(word, ctx, i);
}

/* The window of the peer that sent @f; under target->lock. */
static struct pinmx_atomic_peer *pinmx_atomic_peer(struct pinmx_atomic_target *target,
						   const struct pinmx_wire_hdr *f,
						   const u8 *mac)
{
	unsigned long idle = msecs_to_jiffies(PINMX_ATOMIC_PEER_IDLE_MS);
	u32 session = be32_to_cpu(f->src_session);
	struct pinmx_atomic_peer *peer;
	int i, reuse = -1;

	for (i = 0; i < PINMX_ATOMIC_PEERS; i++) {
		peer = target->peers[i];
		if (!peer) {
			if (reuse < 0)
				reuse = i;
			continue;
		}
		if (peer->session == session && peer->index == f->src_ep &&
		    ether_addr_equal(peer->mac, mac))
			return peer;
		if (reuse < 0 && time_after(jiffies, peer->used + idle))
			reuse = i;
	}
	if (reuse < 0)
		return NULL;
	peer = target->peers[reuse];
	if (!peer)
		peer = kmalloc(sizeof(*peer), GFP_ATOMIC);
	if (!peer)
		return NULL;
	memset(peer, 0, sizeof(*peer));
	memcpy(peer->mac, mac, ETH_ALEN);
	peer->index = f->src_ep;
	peer->session = session;
	peer->highest = be32_to_cpu(((const struct pinmx_wire_atomic *)f)->seq);
	target->peers[reuse] = peer;
	return peer;
}

static void pinmx_atomic_reply_queue(struct sk_buff_head *txq,
				     struct net_device *dev,
				     const struct pinmx_wire_atomic *f,
				     const u8 *mac, u64 old)
{
	struct pinmx_wire_atomic_reply *r;
	struct sk_buff *skb = pinmx_frame_alloc(dev, sizeof(*r));

	if (!skb)
		return;
	r = (struct pinmx_wire_atomic_reply *)skb->data;
	pinmx_answer_header(&r->hdr, PINMX_KIND_ATOMIC_REPLY, &f->hdr, 0);
	r->seq = f->seq;
	r->old = cpu_to_be64(old);
	pinmx_frame_queue(txq, skb, dev, mac);
}

/* Why @region refuses @f: a NACK reason, or 0; *@drop its counter. */
static u8 pinmx_atomic_refusal(const struct pinmx_region *region,
			       const struct pinmx_wire_atomic *f, int *drop)
{
	u64 end = be64_to_cpu(f->region_offset) +
		  (u64)be16_to_cpu(f->count) * f->width;

	*drop = 0;
	if (!region || READ_ONCE(region->dead))
		return PINMX_NACK_UNKNOWN_REGION;
	if (!(region->flags & PINMX_DECLARE_REMOTE)) {
		*drop = PINMX_CNT_RX_NOT_EXPOSED;
		return PINMX_NACK_BAD_KEY;
	}
	*drop = pinmx_key_check(region, be64_to_cpu(f->key));
	if (*drop)
		return PINMX_NACK_BAD_KEY;
	if (end > region->length) {
		*drop = PINMX_CNT_RX_OUT_OF_RANGE;
		return PINMX_NACK_OUT_OF_RANGE;
	}
	return 0;
}

/*
 * Apply @f unless its peer's window has it; under target->lock. Return:
 * 0 (answered), a drop counter, or -errno of pinmx_region_words() with
 * *@miss set for -EAGAIN.
 */
static int pinmx_atomic_apply(struct pinmx_atomic_peer *peer,
			      struct pinmx_region *region,
			      const struct pinmx_wire_atomic *f,
			      const struct sk_buff *skb, u64 *old, u64 *miss)
{
	u32 seq = be32_to_cpu(f->seq);
	struct pinmx_atomic_answer *a =
		&peer->answers[seq % PINMX_ATOMIC_WINDOW];
	struct pinmx_atomic_ctx ctx = {
		.op = f->op, .width = f->width, .skb = skb,
	};
	int err;

	peer->used = jiffies;
	if ((s32)(seq - peer->highest) <= -PINMX_ATOMIC_WINDOW)
		return PINMX_CNT_ATOMIC_REPLAYS;
	if (a->valid && a->seq == seq) {
		pinmx_count(PINMX_CNT_ATOMIC_REPLAYS, 1);
		*old = a->old;
		return 0;
	}
	err = pinmx_region_words(region, be64_to_cpu(f->region_offset),
				 f->width, be16_to_cpu(f->count),
				 pinmx_atomic_word, &ctx, miss);
	if (err)
		return err;
	a->seq = seq;
	a->valid = true;
	a->old = ctx.old;
	if ((s32)(seq - peer->highest) > 0)
		peer->highest = seq;
	pinmx_count(PINMX_CNT_ATOMICS_APPLIED, 1);
	*old = ctx.old;
	return 0;
}

/* Keep @f like a PUT while its page is pinned (the NACK on failure alike). */
static int pinmx_atomic_defer(struct pinmx_endpoint *ep,
			      struct pinmx_region *region,
			      const struct pinmx_wire_atomic *f, const u8 *mac,
			      struct net_device *dev, u64 miss)
{
	struct pinmx_wire_put kept = { };

	memcpy(&kept, f, sizeof(*f));
	return pinmx_put_defer(ep->put_server, region, &kept, mac, dev, miss,
			       miss + f->width);
}

/**
 * pinmx_atomic_frame - an ATOMIC request for @ep; receive softirq, RCU
 * @ep: addressed endpoint (session checked).
 * @skb: the frame, its payload the operands.
 * @f: its checked header.
 * @dev: the interface it came in on.
 *
 * Return: 0 if answered, else the counter of the drop.
 */
int pinmx_atomic_frame(struct pinmx_endpoint *ep, struct sk_buff *skb,
		       const struct pinmx_wire_atomic *f, struct net_device *dev)
{
	struct pinmx_region *region =
		pinmx_ids_get(&ep->regions, be32_to_cpu(f->region_id));
	struct pinmx_atomic_target *target = ep->atomic_target;
	const u8 *mac = eth_hdr(skb)->h_source;
	struct pinmx_atomic_peer *peer;
	struct pinmx_fault at = { .address = be64_to_cpu(f->region_offset) };
	struct sk_buff_head txq;
	u64 old = 0, miss;
	int drop = 0, ret;
	u8 reason;

	__skb_queue_head_init(&txq);
	reason = pinmx_atomic_refusal(region, f, &drop);
	if (reason)
		goto out;
	spin_lock_bh(&target->lock);
	peer = pinmx_atomic_peer(target, &f->hdr, mac);
	ret = peer ? pinmx_atomic_apply(peer, region, f, skb, &old, &miss) :
	      -ENOSPC;
	spin_unlock_bh(&target->lock);
	if (ret > 0) {
		drop = ret;
	} else if (ret == -EAGAIN) {
		drop = PINMX_CNT_ATOMIC_MISSES;
		if (pinmx_atomic_defer(ep, region, f, mac, dev, miss) == -ENOENT)
			reason = PINMX_NACK_UNKNOWN_REGION;
	} else if (ret == -ENOENT) {
		reason = PINMX_NACK_UNKNOWN_REGION;
	} else if (ret) {
		reason = PINMX_NACK_BAD_FIELD;	/* misaligned, or no room */
	} else {
		pinmx_atomic_reply_queue(&txq, dev, f, mac, old);
	}
out:
	if (reason)
		pinmx_nack_queue(&txq, dev, &f->hdr, mac, reason, &at);
	if (region)
		pinmx_region_put(region);
	pinmx_frame_xmit(&txq);
	return drop;
}

struct pinmx_atomic_target *pinmx_atomic_target_alloc(void)
{
	struct pinmx_atomic_target *target = kzalloc(sizeof(*target),
						     GFP_KERNEL);

	if (target)
		spin_lock_init(&target->lock);
	return target;
}

void pinmx_atomic_target_free(struct pinmx_atomic_target *target)
{
	unsigned int i;

	for (i = 0; i < PINMX_ATOMIC_PEERS; i++)
		kfree(target->peers[i]);
	kfree(target);
}
