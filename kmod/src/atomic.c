// SPDX-License-Identifier: GPL-2.0
/*
 * Remote atomics, the origin side: PINMX_IOC_ATOMIC sends one ATOMIC
 * request (fetch-and-add, swap, compare-and-swap, accumulate of int32/int64
 * words) to an exposed region of a peer, resends it until the ATOMIC_REPLY
 * or a NACK comes, and ends it with PINMX_EVENT_ATOMIC_DONE (the old value)
 * or PINMX_EVENT_ATOMIC_FAILED; a NACK HELD (the target holds the region
 * back) resets its resend count, so it waits for the hold's end. The target
 * side is atomic_target.c.
 *
 * Exactly once: requests are numbered (seq) and a new one is refused with
 * EBUSY while seq - PINMX_ATOMIC_WINDOW still runs, so the target's window
 * of that many answers per peer tells every request in flight apart.
 *
 * Lock: origin->lock (spinlock, _bh) guards one endpoint's requests.
 */

#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#include "pinmx.h"

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
	if (req && f->reason == PINMX_NACK_HELD) {
		/* The target holds its region: resend from now, never time out. */
		req->retries = 0;
		req->due = jiffies + max(1UL,
			   msecs_to_jiffies(READ_ONCE(pinmx_pull_resend_ms)));
	} else if (req) {
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

	if (req->reserved || req->pad || !req->op || req->op >= PINMX_ATOMIC_NR_OPS ||
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
