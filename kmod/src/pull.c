// SPDX-License-Identifier: GPL-2.0
/*
 * The pull engine (docs/wire-protocol.md, PULL and PULL_REPLY).
 *
 * Puller: PINMX_IOC_PULL asks for the pull in blocks of PULL_REPLY frames,
 * several blocks in flight (PINMX_IOC_PULLV: over a list of pieces, each
 * block within one piece, named by its remote offset and placed at its
 * local one); the receive softirq writes each reply into the
 * pinned pages of the local region, asks for the next block when one is
 * complete and reports the end in the event ring; a timer asks again for
 * blocks that stall, and gives up after bounded retries.
 *
 * Server: a PULL is answered in the receive softirq with PULL_REPLY frames
 * read straight from the pinned pages of the named region, or a NACK.
 *
 * Pages not pinned yet (overlapped pinning, or unpinned by an
 * invalidation) make a frame an overlap miss: it is dropped and the range
 * is pinned asynchronously (pinmx_region_pin_async()). Its answer asks the
 * puller's waiting blocks again at once, or serves the PULL the server
 * kept; a pin that fails ends the pull, or is answered with NACK
 * SEGMENT_FAULT. Failures are never remembered: each is the answer of a
 * pin tried after the request it refuses.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#include "pinmx.h"

#define PINMX_PULL_MAX_BLOCKS	16
#define PINMX_PULL_MAX_BACKOFF	4	/* resend timeout grows up to 16x */

static unsigned int pinmx_pull_block_frames = 32;
module_param_named(pull_block_frames, pinmx_pull_block_frames, uint, 0644);
MODULE_PARM_DESC(pull_block_frames, "PULL_REPLY frames per PULL request, 1..64");

static unsigned int pinmx_pull_blocks = 8;
module_param_named(pull_blocks, pinmx_pull_blocks, uint, 0644);
MODULE_PARM_DESC(pull_blocks, "blocks of one pull in flight, 1..16");

unsigned int pinmx_pull_resend_ms = 50;
module_param_named(pull_resend_ms, pinmx_pull_resend_ms, uint, 0644);
MODULE_PARM_DESC(pull_resend_ms, "a block without replies for this long is asked for again (doubling up to 16x)");

unsigned int pinmx_pull_max_retries = 8;
module_param_named(pull_max_retries, pinmx_pull_max_retries, uint, 0644);
MODULE_PARM_DESC(pull_max_retries, "resends of one block before the pull fails with TIMEOUT");

/**
 * struct pinmx_pull_block - one block of a pull in flight
 * @offset: pull offset of the block's first byte (the pieces one after
 *	the other).
 * @remote: where that byte is in the remote region.
 * @local: where it goes in the local region.
 * @len: bytes in the block, all within one piece.
 * @first_frame: frame index of its first reply.
 * @nframes: replies in the block.
 * @retries: resends so far.
 * @missing: bit k set while reply k has not been written.
 * @active: the block is asked for and not complete.
 * @pin_wait: a reply was an overlap miss: asked again when the pull's
 *	asynchronous pin answers, or by the resend timeout if that is first.
 * @touched: jiffies of the last request or reply.
 */
struct pinmx_pull_block {
	u64 offset;
	u64 remote;
	u64 local;
	u32 len;
	u32 first_frame;
	u16 nframes;
	u16 retries;
	u64 missing;
	bool active;
	bool pin_wait;
	unsigned long touched;
};

/**
 * struct pinmx_pull_state - one pull run by the engine
 * @ep: endpoint running it; outlives the pull (release cancels pulls).
 * @lock: guards everything below that changes: taken by the receive
 *	softirq (replies, NACKs), the resend timer and the starting ioctl.
 * @timer: resend timer; also retries an end event the ring had no room for.
 * @end_work: removes the ended pull from @ep->pulls and frees it.
 * @rcu: the softirq finds pulls under RCU.
 * @local: local region, with a reference.
 * @id: wire pull handle (index in @ep->pulls).
 * @handle: the caller's handle.
 * @peer_mac: serving interface.
 * @peer_index: serving endpoint index.
 * @peer_session: serving endpoint session.
 * @remote_region: region id at the server.
 * @remote_key: its key, carried by every PULL when not 0.
 * @pieces: what to pull from where to where: @one, or an array it owns.
 * @nr_pieces: entries of @pieces.
 * @one: the piece of a PINMX_IOC_PULL.
 * @length: bytes to pull, all pieces.
 * @reply_bytes: payload of each reply but a block's last.
 * @block_frames: replies per block.
 * @nblocks: blocks in flight at most.
 * @resend: resend timeout in jiffies, before backoff.
 * @max_retries: resends of one block before TIMEOUT.
 * @next_offset: pull offset of the next block to ask for.
 * @piece: piece of the next block.
 * @piece_done: bytes of @piece asked for already.
 * @next_frame: frame index of the next block's first reply.
 * @bytes: bytes written into @local.
 * @ended: the end is decided; nothing but @event_pending changes after.
 * @event_pending: the end event waits for room in the ring.
 * @end: the end event.
 * @pin_wait: asynchronous pin of the local pages overlap misses found
 *	missing; asked for under @lock.
 * @blocks: blocks in flight.
 */
struct pinmx_pull_state {
	struct pinmx_endpoint *ep;
	spinlock_t lock;
	struct timer_list timer;
	struct work_struct end_work;
	struct rcu_head rcu;
	struct pinmx_region *local;
	u32 id;
	u32 handle;
	u8 peer_mac[ETH_ALEN];
	u8 peer_index;
	u32 peer_session;
	u32 remote_region;
	u64 remote_key;
	struct pinmx_put_piece *pieces;
	u32 nr_pieces;
	struct pinmx_put_piece one;
	u64 length;
	u32 reply_bytes;
	u32 block_frames;
	unsigned int nblocks;
	unsigned long resend;
	unsigned int max_retries;
	u64 next_offset;
	u32 piece;
	u64 piece_done;
	u32 next_frame;
	u64 bytes;
	bool ended;
	bool event_pending;
	struct pinmx_pull_event end;
	struct pinmx_pin_wait pin_wait;
	struct pinmx_pull_block blocks[PINMX_PULL_MAX_BLOCKS];
};

/* PULLs one endpoint keeps while their pages are pinned, one per region. */
#define PINMX_SERVE_SLOTS	16

/**
 * struct pinmx_serve_slot - a PULL left unserved until its pages are pinned
 * @wait: the asynchronous pin of the pages it found missing.
 * @server: the server it belongs to.
 * @region: the region it names, with a reference; NULL when free.
 * @pull: the PULL (the latest one for @region), its key checked.
 * @mac: its puller's interface address.
 * @ifindex: the interface it came in on.
 */
struct pinmx_serve_slot {
	struct pinmx_pin_wait wait;
	struct pinmx_pull_server *server;
	struct pinmx_region *region;
	struct pinmx_wire_pull pull;
	u8 mac[ETH_ALEN];
	int ifindex;
};

/**
 * struct pinmx_pull_server - the serving side of one bound endpoint
 * @ep: the endpoint.
 * @lock: guards @closing and the slots' @region, @pull, @mac, @ifindex,
 *	and asks for their waits: taken by the receive softirq, the
 *	callbacks of the asynchronous pins and the release.
 * @closing: the endpoint is being released: no slot is taken any more.
 * @slots: PULLs waiting for pins.
 */
struct pinmx_pull_server {
	struct pinmx_endpoint *ep;
	spinlock_t lock;
	bool closing;
	struct pinmx_serve_slot slots[PINMX_SERVE_SLOTS];
};

static struct workqueue_struct *pinmx_pull_wq;

/* Payload bytes of a PULL_REPLY on @dev. */
static u32 pinmx_reply_limit(const struct net_device *dev)
{
	return pinmx_link_bytes(dev) - sizeof(struct pinmx_wire_pull_reply);
}

/* Fill the end event of a pull; @where may be NULL. */
static void pinmx_pull_event_fill(struct pinmx_pull_event *ev, u32 handle,
				  u32 status, int error, u64 bytes, bool local,
				  const struct pinmx_fault *where)
{
	ev->handle = handle;
	ev->status = status;
	ev->bytes = bytes;
	ev->error = -error;
	ev->local = local;
	if (where) {
		ev->segment = where->segment;
		ev->address = where->address;
	}
}

/* Put an end event in @ep's ring; -ENOSPC when it is full. */
static int pinmx_pull_event_push(struct pinmx_endpoint *ep, const u8 *mac,
				 const struct pinmx_pull_event *ev)
{
	return pinmx_ring_push_event(ep, ev->status ? PINMX_EVENT_PULL_FAILED :
				     PINMX_EVENT_PULL_DONE, mac, ev,
				     sizeof(*ev));
}

static int pinmx_push_end(struct pinmx_pull_state *pull)
{
	return pinmx_pull_event_push(pull->ep, pull->peer_mac, &pull->end);
}

/* Decide the end of @pull and report it; under pull->lock. */
static void pinmx_pull_end(struct pinmx_pull_state *pull, u32 status, int error,
			   const struct pinmx_fault *where, bool local)
{
	lockdep_assert_held(&pull->lock);
	if (pull->ended)
		return;
	pull->ended = true;
	pinmx_pull_event_fill(&pull->end, pull->handle, status, error,
			      pull->bytes, local, where);
	pinmx_count(status ? PINMX_CNT_PULLS_FAILED : PINMX_CNT_PULLS_DONE, 1);
	if (pinmx_push_end(pull)) {
		/* The timer tries again as the application drains the ring. */
		pull->event_pending = true;
		mod_timer(&pull->timer, jiffies + 1);
		return;
	}
	queue_work(pinmx_pull_wq, &pull->end_work);
}

/* Queue a PULL for frames [k0, k1] of @blk; under pull->lock, RCU. */
static void pinmx_pull_request(struct pinmx_pull_state *pull,
			       struct pinmx_pull_block *blk, unsigned int k0,
			       unsigned int k1, struct net_device *dev,
			       struct sk_buff_head *txq)
{
	struct pinmx_endpoint *ep = pull->ep;
	u64 start = (u64)k0 * pull->reply_bytes;
	u64 end = min_t(u64, (u64)(k1 + 1) * pull->reply_bytes, blk->len);
	u32 key_len = pull->remote_key ? PINMX_PULL_KEY_BYTES : 0;
	struct pinmx_wire_pull *f;
	struct sk_buff *skb;

	blk->touched = jiffies;
	skb = pinmx_frame_alloc(dev, sizeof(*f) + key_len);
	if (!skb)
		return;
	f = (struct pinmx_wire_pull *)skb->data;
	pinmx_mxoe_header(&f->hdr, PINMX_KIND_PULL, pull->peer_index, ep->index,
			  pull->peer_session, ep->session, key_len);
	if (key_len) {
		__be64 key = cpu_to_be64(pull->remote_key);

		memcpy(f + 1, &key, sizeof(key));
	}
	f->handle = cpu_to_be32(pull->id);
	f->region_id = cpu_to_be32(pull->remote_region);
	f->region_offset = cpu_to_be64(blk->remote + start);
	f->pull_offset = cpu_to_be64(blk->offset + start);
	f->block_len = cpu_to_be32(end - start);
	f->first_frame = cpu_to_be32(blk->first_frame + k0);
	f->frame_count = cpu_to_be16(k1 - k0 + 1);
	f->reply_bytes = cpu_to_be32(pull->reply_bytes);
	pinmx_count(PINMX_CNT_PULL_REQUESTS, 1);
	pinmx_frame_queue(txq, skb, dev, pull->peer_mac);
}

/* Ask for the next block into @blk if any is left; under pull->lock. */
static void pinmx_pull_next_block(struct pinmx_pull_state *pull,
				  struct pinmx_pull_block *blk,
				  struct net_device *dev,
				  struct sk_buff_head *txq)
{
	u64 block_bytes = (u64)pull->block_frames * pull->reply_bytes;
	const struct pinmx_put_piece *p;

	if (pull->next_offset >= pull->length)
		return;
	p = &pull->pieces[pull->piece];
	blk->offset = pull->next_offset;
	blk->remote = p->remote_offset + pull->piece_done;
	blk->local = p->local_offset + pull->piece_done;
	blk->len = min_t(u64, block_bytes, p->len - pull->piece_done);
	blk->first_frame = pull->next_frame;
	blk->nframes = DIV_ROUND_UP(blk->len, pull->reply_bytes);
	pull->next_frame += blk->nframes;
	pull->piece_done += blk->len;
	if (pull->piece_done == p->len) {
		pull->piece++;
		pull->piece_done = 0;
	}
	blk->missing = blk->nframes == 64 ? ~0ULL : BIT_ULL(blk->nframes) - 1;
	blk->retries = 0;
	blk->active = true;
	blk->pin_wait = false;
	pull->next_offset += blk->len;
	pinmx_pull_request(pull, blk, 0, blk->nframes - 1, dev, txq);
}

static struct pinmx_pull_block *pinmx_pull_block_of(struct pinmx_pull_state *pull,
						    u32 frame)
{
	unsigned int i;

	for (i = 0; i < pull->nblocks; i++) {
		struct pinmx_pull_block *blk = &pull->blocks[i];

		if (blk->active && frame - blk->first_frame < blk->nframes)
			return blk;
	}
	return NULL;
}

/* Is frame @f from @pull's server, and @pull still running? Under its lock. */
static bool pinmx_pull_hears(const struct pinmx_pull_state *pull,
			     const struct pinmx_wire_hdr *f)
{
	return !pull->ended && be32_to_cpu(f->src_session) == pull->peer_session &&
	       f->src_ep == pull->peer_index;
}

/* Write one reply of @pull; returns 0 or the drop counter. Under locks. */
static int pinmx_pull_take_reply(struct pinmx_pull_state *pull, struct sk_buff *skb,
				 const struct pinmx_wire_pull_reply *f,
				 struct net_device *dev, struct sk_buff_head *txq)
{
	u32 frame = be32_to_cpu(f->frame_index);
	u64 poff = be64_to_cpu(f->pull_offset);
	u32 plen = be32_to_cpu(f->hdr.payload_len);
	struct pinmx_pull_block *blk;
	unsigned int k;
	u64 expect, miss;
	int err;

	if (!pinmx_pull_hears(pull, &f->hdr))
		return PINMX_CNT_PULL_DUPLICATES;
	blk = pinmx_pull_block_of(pull, frame);
	if (!blk)
		return PINMX_CNT_PULL_DUPLICATES;
	k = frame - blk->first_frame;
	if (!(blk->missing & BIT_ULL(k)))
		return PINMX_CNT_PULL_DUPLICATES;
	expect = (u64)k * pull->reply_bytes;
	if (poff != blk->offset + expect ||
	    plen != min_t(u64, pull->reply_bytes, blk->len - expect))
		return PINMX_CNT_PULL_BAD_REPLY;
	err = pinmx_region_write_skb(pull->local, blk->local + expect, skb,
				     sizeof(*f), plen, &miss);
	if (err == -EAGAIN) {
		err = pinmx_region_pin_async(pull->local, &pull->pin_wait,
					     blk->local, blk->len);
		if (!err) {
			blk->pin_wait = true;
			return PINMX_CNT_OVERLAP_MISSES;
		}
	}
	if (err) {
		/* -ENOENT: the local region was destroyed. */
		pinmx_pull_end(pull, PINMX_PULL_UNKNOWN_REGION, err, NULL, true);
		return PINMX_CNT_PULL_DUPLICATES;
	}
	blk->missing &= ~BIT_ULL(k);
	blk->touched = jiffies;
	pull->bytes += plen;
	pinmx_count(PINMX_CNT_PULL_BYTES, plen);
	if (!blk->missing) {
		blk->active = false;
		pinmx_pull_next_block(pull, blk, dev, txq);
	}
	if (pull->bytes == pull->length)
		pinmx_pull_end(pull, PINMX_PULL_OK, 0, NULL, false);
	return 0;
}

/**
 * pinmx_pull_reply - a PULL_REPLY for @ep arrived; receive softirq, RCU
 * @ep: addressed endpoint.
 * @skb: the frame (MXoE header at offset 0), checked.
 * @f: its header.
 * @dev: the interface it came in on.
 *
 * Return: 0 if written, else the counter to count the drop with.
 */
int pinmx_pull_reply(struct pinmx_endpoint *ep, struct sk_buff *skb,
		     const struct pinmx_wire_pull_reply *f,
		     struct net_device *dev)
{
	struct pinmx_pull_state *pull = xa_load(&ep->pulls,
						be32_to_cpu(f->handle));
	struct sk_buff_head txq;
	int drop;

	if (!pull)
		return PINMX_CNT_PULL_DUPLICATES;
	__skb_queue_head_init(&txq);
	spin_lock(&pull->lock);
	drop = pinmx_pull_take_reply(pull, skb, f, dev, &txq);
	spin_unlock(&pull->lock);
	pinmx_frame_xmit(&txq);
	if (!drop)
		pinmx_count(PINMX_CNT_PULL_REPLIES_RECEIVED, 1);
	return drop;
}

/* enum pinmx_pull_status and errno for a NACK reason. */
static void pinmx_nack_status(u8 reason, u32 *status, int *err)
{
	switch (reason) {
	case PINMX_NACK_UNKNOWN_REGION:
		*status = PINMX_PULL_UNKNOWN_REGION;
		*err = -ENOENT;
		break;
	case PINMX_NACK_OUT_OF_RANGE:
		*status = PINMX_PULL_OUT_OF_RANGE;
		*err = -ERANGE;
		break;
	case PINMX_NACK_SEGMENT_FAULT:
		*status = PINMX_PULL_SEGMENT_FAULT;
		*err = -EFAULT;
		break;
	case PINMX_NACK_BAD_FIELD:
		*status = PINMX_PULL_NO_RESOURCES;
		*err = -EMSGSIZE;
		break;
	case PINMX_NACK_BAD_SESSION:
		*status = PINMX_PULL_FAILED;
		*err = -ECONNRESET;
		break;
	case PINMX_NACK_BAD_KEY:
		*status = PINMX_PULL_BAD_KEY;
		*err = -EACCES;
		break;
	default:
		*status = PINMX_PULL_FAILED;
		*err = -ECONNREFUSED;
		break;
	}
}

/**
 * pinmx_pull_nack - a NACK refusing one of @ep's PULLs; softirq, RCU
 * @ep: addressed endpoint.
 * @f: the checked NACK.
 *
 * Return: 0 if it ended a pull, else the counter to count the drop with.
 */
int pinmx_pull_nack(struct pinmx_endpoint *ep, const struct pinmx_wire_nack *f)
{
	struct pinmx_pull_state *pull = xa_load(&ep->pulls,
						be32_to_cpu(f->refused_handle));
	struct pinmx_fault where = {
		.segment = be16_to_cpu(f->segment),
		.address = be64_to_cpu(f->address),
	};
	u32 status, nerr = be32_to_cpu(f->error);
	int err;

	if (!pull)
		return PINMX_CNT_PULL_DUPLICATES;
	pinmx_nack_status(f->reason, &status, &err);
	if (nerr && nerr < MAX_ERRNO)
		err = -(int)nerr;
	spin_lock(&pull->lock);
	if (!pinmx_pull_hears(pull, &f->hdr)) {
		spin_unlock(&pull->lock);
		return PINMX_CNT_PULL_DUPLICATES;
	}
	pull->end.nack_reason = f->reason;
	pinmx_pull_end(pull, status, err, &where, false);
	spin_unlock(&pull->lock);
	return 0;
}

/* Has @blk gone its resend timeout (with backoff) without a reply? */
static bool pinmx_block_due(const struct pinmx_pull_state *pull,
			    const struct pinmx_pull_block *blk,
			    unsigned long now)
{
	unsigned int shift = min_t(unsigned int, blk->retries,
				   PINMX_PULL_MAX_BACKOFF);

	return time_after_eq(now, blk->touched + (pull->resend << shift));
}

/* Ask again for @blk, from its first to its last missing reply. */
static void pinmx_pull_ask_missing(struct pinmx_pull_state *pull,
				   struct pinmx_pull_block *blk,
				   struct net_device *dev,
				   struct sk_buff_head *txq)
{
	pinmx_count(PINMX_CNT_PULL_RESENDS, 1);
	pinmx_pull_request(pull, blk, __ffs64(blk->missing),
			   fls64(blk->missing) - 1, dev, txq);
}

/*
 * The local pages overlap misses found missing are pinned (or not): ask
 * the blocks that waited for them again at once, without spending a
 * retry since no reply was lost, or end the pull with the failure.
 */
static void pinmx_pull_pinned(struct pinmx_pin_wait *w, int err,
			      const struct pinmx_fault *where)
{
	struct pinmx_pull_state *pull =
		container_of(w, struct pinmx_pull_state, pin_wait);
	struct net_device *dev;
	struct sk_buff_head txq;
	unsigned int i;

	__skb_queue_head_init(&txq);
	rcu_read_lock();
	spin_lock_bh(&pull->lock);
	/* Asked again since this answer's pin started: a later one comes. */
	if (pull->ended || pinmx_pin_wait_queued(w))
		goto out;
	if (err) {
		pinmx_pull_end(pull, err == -ENOENT ? PINMX_PULL_UNKNOWN_REGION :
			       PINMX_PULL_SEGMENT_FAULT, err,
			       err == -ENOENT ? NULL : where, true);
		goto out;
	}
	dev = pinmx_ep_dev_rcu(pull->ep);
	for (i = 0; dev && i < pull->nblocks; i++) {
		struct pinmx_pull_block *blk = &pull->blocks[i];

		if (blk->active && blk->pin_wait) {
			blk->pin_wait = false;
			pinmx_pull_ask_missing(pull, blk, dev, &txq);
		}
	}
out:
	spin_unlock_bh(&pull->lock);
	local_bh_disable();
	pinmx_frame_xmit(&txq);
	local_bh_enable();
	rcu_read_unlock();
}

/* Resend stalled blocks; fail the pull when one ran out of retries. */
static void pinmx_pull_resend(struct pinmx_pull_state *pull, struct net_device *dev,
			      struct sk_buff_head *txq)
{
	unsigned long now = jiffies;
	unsigned int i;

	for (i = 0; i < pull->nblocks && !pull->ended; i++) {
		struct pinmx_pull_block *blk = &pull->blocks[i];

		/* A block still waiting for its pages goes back to resends. */
		if (!blk->active || !pinmx_block_due(pull, blk, now))
			continue;
		blk->pin_wait = false;
		if (blk->retries >= pull->max_retries) {
			pinmx_count(PINMX_CNT_PULL_TIMEOUTS, 1);
			pinmx_pull_end(pull, PINMX_PULL_TIMEOUT, -ETIMEDOUT,
				       NULL, false);
			return;
		}
		blk->retries++;
		pinmx_pull_ask_missing(pull, blk, dev, txq);
	}
}

static void pinmx_pull_timer(struct timer_list *t)
{
	struct pinmx_pull_state *pull = from_timer(pull, t, timer);
	struct net_device *dev;
	struct sk_buff_head txq;

	__skb_queue_head_init(&txq);
	rcu_read_lock();
	spin_lock(&pull->lock);
	if (pull->event_pending) {
		if (!pinmx_push_end(pull)) {
			pull->event_pending = false;
			queue_work(pinmx_pull_wq, &pull->end_work);
		} else {
			mod_timer(&pull->timer, jiffies + pull->resend);
		}
		goto out;
	}
	if (pull->ended)
		goto out;
	dev = pinmx_ep_dev_rcu(pull->ep);
	if (!dev) {
		pinmx_pull_end(pull, PINMX_PULL_FAILED, -ENETDOWN, NULL, true);
		goto out;
	}
	pinmx_pull_resend(pull, dev, &txq);
	if (!pull->ended)
		mod_timer(&pull->timer, jiffies + pull->resend);
out:
	spin_unlock(&pull->lock);
	pinmx_frame_xmit(&txq);
	rcu_read_unlock();
}

static void pinmx_pull_free(struct pinmx_pull_state *pull)
{
	pinmx_region_pin_cancel(pull->local, &pull->pin_wait);
	del_timer_sync(&pull->timer);
	pinmx_region_put(pull->local);
	if (pull->pieces != &pull->one)
		kvfree(pull->pieces);
	kfree_rcu(pull, rcu);
}

/* Whoever takes a pull out of ep->pulls frees it. */
static void pinmx_pull_end_work(struct work_struct *work)
{
	struct pinmx_pull_state *pull =
		container_of(work, struct pinmx_pull_state, end_work);
	struct pinmx_endpoint *ep = pull->ep;

	if (pinmx_ep_take(ep, &ep->pulls, &ep->nr_pulls, pull->id, pull))
		pinmx_pull_free(pull);
}

/**
 * pinmx_pulls_release - end and free every pull of a closing endpoint
 * @ep: endpoint no longer reachable by the receive softirq.
 */
void pinmx_pulls_release(struct pinmx_endpoint *ep)
{
	struct pinmx_pull_state *pull;

	while ((pull = pinmx_ep_take_any(ep, &ep->pulls, &ep->nr_pulls))) {
		spin_lock_bh(&pull->lock);
		if (!pull->ended)
			pinmx_count(PINMX_CNT_PULLS_FAILED, 1);
		pull->event_pending = false;
		pull->ended = true;
		spin_unlock_bh(&pull->lock);
		cancel_work_sync(&pull->end_work);
		pinmx_pull_free(pull);
	}
	xa_destroy(&ep->pulls);
}

/* End every running pull of @ep started with @handle; returns how many. */
static u32 pinmx_pulls_cancel(struct pinmx_endpoint *ep, u32 handle)
{
	struct pinmx_pull_state *pull;
	unsigned long id;
	u32 cancelled = 0;

	/* ep->lock keeps every pull in ep->pulls: end_work takes it to free. */
	mutex_lock(&ep->lock);
	xa_for_each(&ep->pulls, id, pull) {
		if (pull->handle != handle)
			continue;
		spin_lock_bh(&pull->lock);
		if (!pull->ended) {
			pinmx_pull_end(pull, PINMX_PULL_CANCELLED, -ECANCELED,
				       NULL, true);
			pinmx_count(PINMX_CNT_PULLS_CANCELLED, 1);
			cancelled++;
		}
		spin_unlock_bh(&pull->lock);
	}
	mutex_unlock(&ep->lock);
	return cancelled;
}

long pinmx_ioc_pull_cancel(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_pull_cancel req;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.cancelled || req.reserved)
		return -EINVAL;
	if (!smp_load_acquire(&ep->ring))
		return -ENOTCONN;
	req.cancelled = pinmx_pulls_cancel(ep, req.handle);
	if (copy_to_user(uarg, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

/* Push an end event for a pull that never ran on the wire. */
static int pinmx_pull_report(struct pinmx_endpoint *ep,
			     const struct pinmx_pull *req, u32 status, int err,
			     u64 bytes, bool local, const struct pinmx_fault *where)
{
	struct pinmx_pull_event ev = { };

	pinmx_pull_event_fill(&ev, req->handle, status, err, bytes, local,
			      where);
	if (pinmx_pull_event_push(ep, req->peer_mac, &ev))
		return -ENOBUFS;
	pinmx_count(PINMX_CNT_PULLS_STARTED, 1);
	pinmx_count(status ? PINMX_CNT_PULLS_FAILED : PINMX_CNT_PULLS_DONE, 1);
	pinmx_count(PINMX_CNT_PULL_BYTES, bytes);
	return 0;
}

/* Pull status of a local pull whose serving region was not found. */
static u32 pinmx_local_status(int err)
{
	switch (err) {
	case -ENOENT:
		return PINMX_PULL_UNKNOWN_REGION;
	case -EACCES:
		return PINMX_PULL_BAD_KEY;
	default:
		return PINMX_PULL_FAILED;
	}
}

/*
 * The serving endpoint is on this interface: take a reference on its
 * region. ERR_PTR(-ECONNREFUSED) if there is no such endpoint,
 * -ECONNRESET for another session, -ENOENT for an unknown region, -EACCES
 * for a key that is not the region's (counted as the wire path counts it).
 */
static struct pinmx_region *pinmx_local_peer_region(struct pinmx_endpoint *ep,
						    const struct pinmx_pull *req)
{
	struct pinmx_region *region = ERR_PTR(-ECONNREFUSED);
	struct pinmx_endpoint *peer;

	rcu_read_lock();
	peer = pinmx_iface_peer_rcu(ep, req->peer_endpoint);
	if (peer && READ_ONCE(peer->session) != req->peer_session)
		region = ERR_PTR(-ECONNRESET);
	else if (peer) {
		region = pinmx_ids_get(&peer->regions, req->remote_region);
		if (!region) {
			region = ERR_PTR(-ENOENT);
		} else if (pinmx_key_check(region, req->remote_key)) {
			pinmx_count(pinmx_key_check(region, req->remote_key), 1);
			pinmx_region_put(region);
			region = ERR_PTR(-EACCES);
		}
	}
	rcu_read_unlock();
	return region;
}

/*
 * Copy @pieces from @src to @dst in order; 0, or the first failure with
 * *@range the offending piece's remote offset for -ERANGE.
 */
static int pinmx_pull_copy_pieces(struct pinmx_region *src,
				  struct pinmx_region *dst,
				  const struct pinmx_put_piece *pieces, u32 nr,
				  struct pinmx_copy_fault *fault,
				  struct pinmx_fault *range)
{
	u32 i;
	int err;

	for (i = 0; i < nr; i++) {
		const struct pinmx_put_piece *p = &pieces[i];

		if (p->remote_offset + p->len > src->length) {
			range->address = p->remote_offset;
			return -ERANGE;
		}
		err = pinmx_copy(src, p->remote_offset, dst, p->local_offset,
				 p->len, fault);
		if (err)
			return err;
	}
	return 0;
}

/* A pull from an endpoint of the same interface: a region copy per piece. */
static int pinmx_pull_local(struct pinmx_endpoint *ep,
			    const struct pinmx_pull *req,
			    const struct pinmx_put_piece *pieces, u32 nr,
			    struct pinmx_region *dst)
{
	struct pinmx_region *src = pinmx_local_peer_region(ep, req);
	struct pinmx_copy_fault fault = { };
	struct pinmx_fault range = { };
	int err;

	if (IS_ERR(src)) {
		err = PTR_ERR(src);
		return pinmx_pull_report(ep, req, pinmx_local_status(err), err,
					 0, false, NULL);
	}
	err = -ENOENT;
	if (!pinmx_region_get_user(src))
		goto out_put;
	err = pinmx_pull_copy_pieces(src, dst, pieces, nr, &fault, &range);
	pinmx_region_put_user(src);
out_put:
	pinmx_region_put(src);
	switch (err) {
	case 0:
		pinmx_count(PINMX_CNT_PULLS_LOCAL, 1);
		return pinmx_pull_report(ep, req, PINMX_PULL_OK, 0,
					 req->length, false, NULL);
	case -ERANGE:
		return pinmx_pull_report(ep, req, PINMX_PULL_OUT_OF_RANGE, err,
					 0, false, &range);
	case -ENOENT:
		return pinmx_pull_report(ep, req, PINMX_PULL_UNKNOWN_REGION,
					 err, 0, false, NULL);
	case -EINTR:
	case -ERESTARTSYS:
		/* A fatal signal: the caller is going away. */
		return err;
	case -ESRCH:
		/* The serving region's process has exited: the peer is gone. */
		return pinmx_pull_report(ep, req, PINMX_PULL_FAILED, err, 0,
					 false, NULL);
	default:
		/* A pin failed, as a wire pull's NACK would report it. */
		return pinmx_pull_report(ep, req, PINMX_PULL_SEGMENT_FAULT,
					 err, 0, fault.region == dst,
					 &fault.where);
	}
}

static bool pinmx_pull_is_local(struct pinmx_endpoint *ep,
				const struct pinmx_pull *req)
{
	struct net_device *dev;
	bool local;

	if (req->flags & PINMX_PULL_WIRE)
		return false;
	rcu_read_lock();
	dev = pinmx_ep_dev_rcu(ep);
	local = dev && ether_addr_equal(dev->dev_addr, req->peer_mac);
	rcu_read_unlock();
	return local;
}

/* A pull of @req's peer, region and key over a copy of @pieces. */
static struct pinmx_pull_state *pinmx_pull_alloc(struct pinmx_endpoint *ep,
					   const struct pinmx_pull *req,
					   const struct pinmx_put_piece *pieces,
					   u32 nr, struct pinmx_region *local)
{
	struct pinmx_pull_state *pull = kzalloc(sizeof(*pull), GFP_KERNEL);

	if (!pull)
		return NULL;
	pull->one = pieces[0];
	pull->pieces = &pull->one;
	pull->nr_pieces = nr;
	if (nr > 1) {
		pull->pieces = kvmalloc_array(nr, sizeof(*pieces), GFP_KERNEL);
		if (!pull->pieces) {
			kfree(pull);
			return NULL;
		}
		memcpy(pull->pieces, pieces, nr * sizeof(*pieces));
	}
	pull->ep = ep;
	spin_lock_init(&pull->lock);
	timer_setup(&pull->timer, pinmx_pull_timer, 0);
	INIT_WORK(&pull->end_work, pinmx_pull_end_work);
	pinmx_pin_wait_init(&pull->pin_wait, pinmx_pull_pinned);
	kref_get(&local->kref);
	pull->local = local;
	pull->handle = req->handle;
	memcpy(pull->peer_mac, req->peer_mac, ETH_ALEN);
	pull->peer_index = req->peer_endpoint;
	pull->peer_session = req->peer_session;
	pull->remote_region = req->remote_region;
	pull->remote_key = req->remote_key;
	pull->length = req->length;
	pull->block_frames = clamp_t(unsigned int,
				     READ_ONCE(pinmx_pull_block_frames), 1,
				     PINMX_PULL_MAX_BLOCK_FRAMES);
	pull->nblocks = clamp_t(unsigned int, READ_ONCE(pinmx_pull_blocks), 1,
				PINMX_PULL_MAX_BLOCKS);
	pull->resend = max(1UL, msecs_to_jiffies(READ_ONCE(pinmx_pull_resend_ms)));
	pull->max_retries = READ_ONCE(pinmx_pull_max_retries);
	return pull;
}

static int pinmx_pull_publish(struct pinmx_endpoint *ep,
			      struct pinmx_pull_state *pull)
{
	int err;

	mutex_lock(&ep->lock);
	err = -EBUSY;
	if (ep->nr_pulls < PINMX_MAX_PULLS)
		err = xa_alloc_cyclic(&ep->pulls, &pull->id, pull,
				      XA_LIMIT(1, INT_MAX), &ep->pull_next,
				      GFP_KERNEL);
	if (err >= 0) {
		ep->nr_pulls++;
		err = 0;
	}
	mutex_unlock(&ep->lock);
	return err;
}

/* Ask for the first blocks; 0 or -ENETDOWN (nothing sent). */
static int pinmx_pull_launch(struct pinmx_pull_state *pull)
{
	struct net_device *dev;
	struct sk_buff_head txq;
	unsigned int i;
	int err = 0;

	__skb_queue_head_init(&txq);
	rcu_read_lock();
	dev = pinmx_ep_dev_rcu(pull->ep);
	if (!dev || !(dev->flags & IFF_UP)) {
		err = -ENETDOWN;
		goto out;
	}
	spin_lock_bh(&pull->lock);
	pull->reply_bytes = pinmx_reply_limit(dev);
	for (i = 0; i < pull->nblocks; i++)
		pinmx_pull_next_block(pull, &pull->blocks[i], dev, &txq);
	mod_timer(&pull->timer, jiffies + pull->resend);
	spin_unlock_bh(&pull->lock);
	pinmx_count(PINMX_CNT_PULLS_STARTED, 1);
	local_bh_disable();
	pinmx_frame_xmit(&txq);
	local_bh_enable();
out:
	rcu_read_unlock();
	return err;
}

static int pinmx_pull_check(const struct pinmx_pull *req)
{
	u64 end;

	if (req->flags & ~PINMX_PULL_WIRE)
		return -EINVAL;
	if (check_add_overflow(req->remote_offset, req->length, &end) ||
	    end >= PINMX_U63_LIMIT)
		return -EOVERFLOW;
	if (check_add_overflow(req->local_offset, req->length, &end))
		return -EOVERFLOW;
	return 0;
}

/*
 * Start @req's pull of @pieces (@req->length bytes in all, offsets checked
 * for overflow) into @local.
 */
static int pinmx_pull_start(struct pinmx_endpoint *ep,
			    const struct pinmx_pull *req,
			    const struct pinmx_put_piece *pieces, u32 nr,
			    struct pinmx_region *local)
{
	struct pinmx_pull_state *pull;
	u32 i;
	int err;

	if (!local->writable)
		return -EPERM;
	for (i = 0; i < nr; i++)
		if (pieces[i].local_offset + pieces[i].len > local->length)
			return -ERANGE;
	if (!req->length)
		return pinmx_pull_report(ep, req, PINMX_PULL_OK, 0, 0, false,
					 NULL);
	for (i = 0; local->mode != PINMX_PIN_OVERLAPPED && i < nr; i++) {
		err = pinmx_region_ensure(local, pieces[i].local_offset,
					  pieces[i].len, false);
		if (err)
			return err;
	}
	if (pinmx_pull_is_local(ep, req))
		return pinmx_pull_local(ep, req, pieces, nr, local);
	pull = pinmx_pull_alloc(ep, req, pieces, nr, local);
	if (!pull)
		return -ENOMEM;
	err = pinmx_pull_publish(ep, pull);
	if (err) {
		pinmx_pull_free(pull);
		return err;
	}
	err = pinmx_pull_launch(pull);
	if (err) {
		spin_lock_bh(&pull->lock);
		pull->ended = true;
		spin_unlock_bh(&pull->lock);
		pinmx_pull_end_work(&pull->end_work);
		return err;
	}
	/* Overlap: the requests are on their way while the worker pins. */
	if (local->mode == PINMX_PIN_OVERLAPPED)
		pinmx_region_kick(local);
	return 0;
}

long pinmx_ioc_pull(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_put_piece piece;
	struct pinmx_region *local;
	struct pinmx_pull req;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	err = pinmx_pull_check(&req);
	if (err)
		return err;
	if (!smp_load_acquire(&ep->ring))
		return -ENOTCONN;
	local = pinmx_get_region(ep, req.local_region, true);
	if (IS_ERR(local))
		return PTR_ERR(local);
	piece = (struct pinmx_put_piece){
		.remote_offset = req.remote_offset,
		.local_offset = req.local_offset, .len = req.length,
	};
	err = pinmx_pull_start(ep, &req, &piece, 1, local);
	pinmx_region_put_user(local);
	return err;
}

/* The pieces of @v, checked against @local, as a pull of @req's peer. */
static int pinmx_pullv_pieces(const struct pinmx_pullv *v,
			      struct pinmx_region *local,
			      struct pinmx_put_piece **pieces,
			      struct pinmx_pull *req)
{
	int err;

	*pieces = memdup_user(u64_to_user_ptr(v->pieces),
			      array_size(v->nr_pieces, sizeof(**pieces)));
	if (IS_ERR(*pieces))
		return PTR_ERR(*pieces);
	*req = (struct pinmx_pull){
		.peer_endpoint = v->peer_endpoint, .flags = v->flags,
		.peer_session = v->peer_session,
		.remote_region = v->remote_region,
		.local_region = v->local_region, .handle = v->handle,
		.remote_key = v->remote_key,
	};
	memcpy(req->peer_mac, v->peer_mac, ETH_ALEN);
	err = pinmx_pieces_check(*pieces, v->nr_pieces, local->length, U64_MAX,
				 &req->length);
	if (err)
		kfree(*pieces);
	return err;
}

long pinmx_ioc_pullv(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_put_piece *pieces;
	struct pinmx_region *local;
	struct pinmx_pullv v;
	struct pinmx_pull req;
	int err;

	if (copy_from_user(&v, uarg, sizeof(v)))
		return -EFAULT;
	if ((v.flags & ~PINMX_PULL_WIRE) || v.pad || v.reserved ||
	    !v.nr_pieces)
		return -EINVAL;
	if (v.nr_pieces > PINMX_PULL_MAX_PIECES)
		return -E2BIG;
	if (!smp_load_acquire(&ep->ring))
		return -ENOTCONN;
	local = pinmx_get_region(ep, v.local_region, true);
	if (IS_ERR(local))
		return PTR_ERR(local);
	err = pinmx_pullv_pieces(&v, local, &pieces, &req);
	if (!err) {
		err = pinmx_pull_start(ep, &req, pieces, v.nr_pieces, local);
		kfree(pieces);
	}
	pinmx_region_put_user(local);
	return err;
}

/* Free slot, or the one already waiting for @region; under server->lock. */
static struct pinmx_serve_slot *pinmx_serve_slot_find(struct pinmx_pull_server *server,
						      struct pinmx_region *region)
{
	struct pinmx_serve_slot *free = NULL;
	unsigned int i;

	for (i = 0; i < PINMX_SERVE_SLOTS; i++) {
		struct pinmx_serve_slot *slot = &server->slots[i];

		if (slot->region == region)
			return slot;
		if (!slot->region && !free)
			free = slot;
	}
	return free;
}

/*
 * Keep PULL @f, which found region offset @miss not pinned, until
 * [@miss, @miss + @len) is pinned; softirq or a pin callback, RCU, a
 * reference on @region held. Without a slot the PULL is left to the
 * puller's resend.
 * Return: 0 (kept or left), or -ENOENT if the region is destroyed.
 */
static int pinmx_serve_defer(struct pinmx_endpoint *ep,
			     struct pinmx_region *region,
			     const struct pinmx_wire_pull *f,
			     const u8 *src_mac, struct net_device *dev,
			     u64 miss, u64 len)
{
	struct pinmx_pull_server *server = ep->server;
	struct pinmx_serve_slot *slot;
	int err = 0;

	spin_lock_bh(&server->lock);
	slot = server->closing ? NULL : pinmx_serve_slot_find(server, region);
	if (!slot)
		goto out;
	if (!slot->region) {
		kref_get(&region->kref);
		slot->region = region;
	}
	slot->pull = *f;
	memcpy(slot->mac, src_mac, ETH_ALEN);
	slot->ifindex = dev->ifindex;
	err = pinmx_region_pin_async(region, &slot->wait, miss, len);
	if (err && !pinmx_pin_wait_queued(&slot->wait)) {
		slot->region = NULL;
		pinmx_region_put(region);
	}
out:
	spin_unlock_bh(&server->lock);
	return err;
}

/*
 * Refuse PULL @f whose pages could not be pinned: NACK SEGMENT_FAULT naming
 * where, or NACK BAD_ENDPOINT with ESRCH when the region's process has
 * exited (the serving side is gone, as for an endpoint closed).
 */
static void pinmx_serve_refuse(struct sk_buff_head *txq,
			       struct net_device *dev,
			       const struct pinmx_wire_pull *f, const u8 *mac,
			       const struct pinmx_fault *where)
{
	struct pinmx_fault gone = { .err = -ESRCH };

	if (where->err == -ESRCH)
		pinmx_nack_queue(txq, dev, &f->hdr, mac,
				 PINMX_NACK_BAD_ENDPOINT, &gone);
	else
		pinmx_nack_queue(txq, dev, &f->hdr, mac,
				 PINMX_NACK_SEGMENT_FAULT, where);
}

/*
 * The pages a kept PULL found missing are pinned (or not): serve it as the
 * receive softirq would have, or refuse it naming where this pin failed.
 * Runs while the region has a user (pin worker), so its endpoint is
 * alive. A region destroyed meanwhile is refused as the softirq refuses a
 * dead one (NACK UNKNOWN_REGION): dropped, the PULL was sent again and,
 * with its id declared anew and unpinned each time, kept and dropped again
 * until the puller gave up with TIMEOUT.
 */
static void pinmx_serve_pinned(struct pinmx_pin_wait *w, int err,
			       const struct pinmx_fault *where)
{
	struct pinmx_serve_slot *slot =
		container_of(w, struct pinmx_serve_slot, wait);
	struct pinmx_pull_server *server = slot->server;
	struct pinmx_wire_pull pull;
	struct pinmx_region *region;
	u8 mac[ETH_ALEN];
	struct net_device *dev;
	struct sk_buff_head txq;
	int ifindex;

	spin_lock_bh(&server->lock);
	region = slot->region;
	/* Asked again since this answer's pin started: a later one comes. */
	if (!region || pinmx_pin_wait_queued(w)) {
		spin_unlock_bh(&server->lock);
		return;
	}
	pull = slot->pull;
	memcpy(mac, slot->mac, sizeof(mac));
	ifindex = slot->ifindex;
	slot->region = NULL;
	spin_unlock_bh(&server->lock);
	__skb_queue_head_init(&txq);
	rcu_read_lock();
	local_bh_disable();
	dev = pinmx_ep_dev_rcu(server->ep);
	if (dev && dev->ifindex == ifindex) {
		if (err == -ENOENT)
			pinmx_nack_queue(&txq, dev, &pull.hdr, mac,
					 PINMX_NACK_UNKNOWN_REGION, NULL);
		else if (err)
			pinmx_serve_refuse(&txq, dev, &pull, mac, where);
		else
			pinmx_serve_pull(server->ep, &pull, mac, dev);
	}
	pinmx_frame_xmit(&txq);
	local_bh_enable();
	rcu_read_unlock();
	pinmx_region_put(region);
}

/**
 * pinmx_pull_server_alloc - the serving side of an endpoint being bound
 * @ep: the endpoint.
 *
 * Return: the server, or NULL without memory.
 */
struct pinmx_pull_server *pinmx_pull_server_alloc(struct pinmx_endpoint *ep)
{
	struct pinmx_pull_server *server = kzalloc(sizeof(*server), GFP_KERNEL);
	unsigned int i;

	if (!server)
		return NULL;
	server->ep = ep;
	spin_lock_init(&server->lock);
	for (i = 0; i < PINMX_SERVE_SLOTS; i++) {
		server->slots[i].server = server;
		pinmx_pin_wait_init(&server->slots[i].wait, pinmx_serve_pinned);
	}
	return server;
}

/**
 * pinmx_pull_server_free - drop the PULLs kept by a closing endpoint
 * @server: server of an endpoint no longer reachable by the softirq.
 */
void pinmx_pull_server_free(struct pinmx_pull_server *server)
{
	unsigned int i;

	spin_lock_bh(&server->lock);
	server->closing = true;
	spin_unlock_bh(&server->lock);
	for (i = 0; i < PINMX_SERVE_SLOTS; i++)
		pinmx_region_slot_drop(&server->lock, &server->slots[i].region,
				       &server->slots[i].wait);
	kfree(server);
}

/* Queue the replies to a PULL for @region; stops at the first miss. */
static void pinmx_serve_replies(struct pinmx_endpoint *ep,
				const struct pinmx_wire_pull *f,
				const u8 *src_mac, struct net_device *dev,
				struct pinmx_region *region,
				struct sk_buff_head *txq)
{
	u64 roff = be64_to_cpu(f->region_offset);
	u64 poff = be64_to_cpu(f->pull_offset);
	u32 blen = be32_to_cpu(f->block_len);
	u32 first = be32_to_cpu(f->first_frame);
	u16 count = be16_to_cpu(f->frame_count);
	u32 per = be32_to_cpu(f->reply_bytes);
	unsigned int k;

	for (k = 0; k < count; k++) {
		u32 n = min_t(u32, per, blen - k * per);
		struct pinmx_wire_pull_reply *r;
		struct sk_buff *skb;
		u64 miss;
		int err;

		skb = pinmx_frame_alloc(dev, sizeof(*r) + n);
		if (!skb)
			return;
		r = (struct pinmx_wire_pull_reply *)skb->data;
		err = pinmx_region_read(region, roff + (u64)k * per, r + 1, n,
					&miss);
		if (err) {
			kfree_skb(skb);
			if (err == -EAGAIN) {
				pinmx_count(PINMX_CNT_SERVE_MISSES, 1);
				/* Answered in full once pinned, no resend. */
				err = pinmx_serve_defer(ep, region, f, src_mac,
							dev, miss,
							roff + blen - miss);
			}
			if (err == -ENOENT)
				pinmx_nack_queue(txq, dev, &f->hdr, src_mac,
						 PINMX_NACK_UNKNOWN_REGION,
						 NULL);
			return;
		}
		pinmx_answer_header(&r->hdr, PINMX_KIND_PULL_REPLY, &f->hdr, n);
		r->handle = f->handle;
		r->frame_index = cpu_to_be32(first + k);
		r->pull_offset = cpu_to_be64(poff + (u64)k * per);
		pinmx_count(PINMX_CNT_PULL_REPLIES_SENT, 1);
		pinmx_frame_queue(txq, skb, dev, src_mac);
	}
}

/**
 * pinmx_key_check - may an access carrying @key use @region remotely?
 * @region: the named region, with a reference.
 * @key: the key the access carries, 0 for none.
 *
 * A region not declared PINMX_DECLARE_REMOTE has key 0 and takes any. The
 * key is written before the region is published and never changed, so a
 * holder of a reference reads it as is.
 *
 * Return: 0, or the counter of the refusal's reason.
 */
int pinmx_key_check(const struct pinmx_region *region, u64 key)
{
	if (!region->key || key == region->key)
		return 0;
	return key ? PINMX_CNT_RX_BAD_KEY : PINMX_CNT_RX_NO_KEY;
}

/**
 * pinmx_serve_pull_frame - a PULL frame for @ep; receive softirq, RCU
 * @ep: addressed endpoint (session checked).
 * @skb: the frame, its payload the key if any.
 * @f: its checked header.
 * @dev: the interface it came in on.
 *
 * A PULL naming an exposed region without its key is refused with NACK
 * BAD_KEY and reads nothing; the rest is pinmx_serve_pull()'s.
 *
 * Return: 0 if taken, else the counter of the drop.
 */
int pinmx_serve_pull_frame(struct pinmx_endpoint *ep, struct sk_buff *skb,
			   const struct pinmx_wire_pull *f,
			   struct net_device *dev)
{
	const u8 *src_mac = eth_hdr(skb)->h_source;
	struct pinmx_region *region;
	struct sk_buff_head txq;
	__be64 wire_key = 0;
	int refused;

	if (be32_to_cpu(f->hdr.payload_len) == PINMX_PULL_KEY_BYTES &&
	    skb_copy_bits(skb, sizeof(*f), &wire_key, sizeof(wire_key)))
		return PINMX_CNT_RX_SHORT;
	region = pinmx_ids_get(&ep->regions, be32_to_cpu(f->region_id));
	if (!region) {
		pinmx_serve_pull(ep, f, src_mac, dev);
		return 0;
	}
	refused = pinmx_key_check(region, be64_to_cpu(wire_key));
	pinmx_region_put(region);
	if (!refused) {
		pinmx_serve_pull(ep, f, src_mac, dev);
		return 0;
	}
	__skb_queue_head_init(&txq);
	pinmx_nack_queue(&txq, dev, &f->hdr, src_mac, PINMX_NACK_BAD_KEY, NULL);
	pinmx_frame_xmit(&txq);
	return refused;
}

/**
 * pinmx_serve_pull - answer a PULL addressed to @ep; receive softirq, RCU
 * @ep: addressed endpoint (session checked).
 * @f: the checked PULL, its key checked.
 * @src_mac: the puller's interface.
 * @dev: the interface it came in on, where the answers go.
 */
void pinmx_serve_pull(struct pinmx_endpoint *ep, const struct pinmx_wire_pull *f,
		      const u8 *src_mac, struct net_device *dev)
{
	struct pinmx_region *region =
		pinmx_ids_get(&ep->regions, be32_to_cpu(f->region_id));
	u64 roff = be64_to_cpu(f->region_offset);
	u32 blen = be32_to_cpu(f->block_len);
	struct pinmx_fault where = { };
	struct sk_buff_head txq;

	__skb_queue_head_init(&txq);
	if (be32_to_cpu(f->reply_bytes) > pinmx_reply_limit(dev) ||
	    be16_to_cpu(f->frame_count) > PINMX_PULL_MAX_BLOCK_FRAMES) {
		pinmx_count(PINMX_CNT_RX_BAD_FIELD, 1);
		where.address = pinmx_reply_limit(dev);
		pinmx_nack_queue(&txq, dev, &f->hdr, src_mac,
				 PINMX_NACK_BAD_FIELD, &where);
	} else if (!region || READ_ONCE(region->dead)) {
		pinmx_nack_queue(&txq, dev, &f->hdr, src_mac,
				 PINMX_NACK_UNKNOWN_REGION, NULL);
	} else if (roff + blen > region->length) {
		where.address = roff;
		pinmx_nack_queue(&txq, dev, &f->hdr, src_mac,
				 PINMX_NACK_OUT_OF_RANGE, &where);
	} else {
		pinmx_serve_replies(ep, f, src_mac, dev, region, &txq);
	}
	if (region)
		pinmx_region_put(region);
	pinmx_frame_xmit(&txq);
}

int pinmx_pull_init(void)
{
	pinmx_pull_wq = alloc_workqueue("pinmx_pull", 0, 0);
	return pinmx_pull_wq ? 0 : -ENOMEM;
}

void pinmx_pull_exit(void)
{
	/* kfree_rcu() of the pulls must not outlive the module. */
	rcu_barrier();
	destroy_workqueue(pinmx_pull_wq);
}
