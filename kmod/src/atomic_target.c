// SPDX-License-Identifier: GPL-2.0
/*
 * Remote atomics, the target side: the receive softirq checks an ATOMIC
 * request (region, exposure, key, range), applies it with the kernel's
 * atomic operations on the words in their pinned pages (pinmx_region_words()),
 * so it is atomic against the target CPUs' own atomics, and answers
 * ATOMIC_REPLY with the old value; the target process never runs. A
 * request not applied yet to a region its owner holds
 * (PINMX_IOC_HOLD_WRITES) is answered NACK HELD; one applied already is
 * answered from the window even then.
 *
 * Exactly once: per peer endpoint (interface address, index, session) the
 * answers of the last PINMX_ATOMIC_WINDOW seqs are kept, indexed by seq
 * modulo the window; a request found there is answered again from it, one
 * older than the window is dropped (its origin has had its answer). The
 * table lock is held from the lookup to the storing of the answer, so two
 * copies of one request on two CPUs apply it once.
 *
 * Lock: target->lock (spinlock, _bh) guards the peers' windows; taken
 * before the region's pages_lock; a request whose page is not pinned is
 * kept like a PUT (pinmx_put_defer(), after target->lock is dropped).
 */

#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "pinmx.h"

/* Peer endpoints whose windows one target endpoint keeps. */
#define PINMX_ATOMIC_PEERS		64
/* A peer silent this long has no request in flight any more: reusable. */
#define PINMX_ATOMIC_PEER_IDLE_MS	30000
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
	if (smp_load_acquire(&region->writes_held))
		return -EBUSY;
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
	} else if (ret == -EBUSY) {
		drop = PINMX_CNT_WRITES_HELD;
		reason = PINMX_NACK_HELD;
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
