// SPDX-License-Identifier: GPL-2.0
/*
 * The origin side of the put engine: PINMX_IOC_PUT and PINMX_IOC_PUTV copy
 * the bytes of a local region's range or pieces at the ioctl (resends never
 * touch user memory) and send them as PUT frames, each within one piece and
 * naming its remote region offset, at most PINMX_PUT_WINDOW_FRAMES without
 * a PUT_ACK. Frames without an ACK are resent after the resend timeout; the
 * put ends with PINMX_EVENT_PUT_DONE once every frame is acknowledged
 * (remote completion: the bytes are in the target's memory), or
 * PINMX_EVENT_PUT_FAILED on a NACK, a timeout or the interface gone; a
 * NACK HELD (the target holds the region back) resets the resend count
 * instead, so the put waits for the hold's end however long. The
 * target side is put_target.c. A frame written twice writes the same bytes
 * at the same place: resends are harmless. A duplicate that arrives after its
 * put ended is not (a later put may have written there since), so puts are
 * numbered and every frame carries its put's number (header seq) and the
 * number of the endpoint's oldest running put (header ack seq): the target
 * drops a frame numbered below the highest such mark it has seen.
 *
 * One struct pinmx_put_state per put; its spinlock is taken by the receive
 * softirq, the resend timer and the starting ioctl. Lock order: put->lock,
 * then ep->put_seq_lock.
 */

#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#include "pinmx.h"

/* Frames of one put in flight without an ACK. */
#define PINMX_PUT_WINDOW_FRAMES	64

/**
 * struct pinmx_put_state - one put run by the origin
 * @ep: endpoint running it; outlives the put (release ends puts).
 * @lock: guards everything below that changes (receive softirq, resend
 *	timer, starting ioctl).
 * @timer: resend timer; also retries an end event the ring had no room for.
 * @end_work: removes the ended put from @ep->puts and frees it.
 * @rcu: the softirq finds puts under RCU.
 * @id: wire put handle (index in @ep->puts).
 * @seq: its number among the endpoint's puts.
 * @running: in @ep->puts_running until the end is decided.
 * @handle: the caller's handle.
 * @peer_mac: target interface.
 * @peer_index: target endpoint index.
 * @peer_session: target endpoint session.
 * @remote_region: region id at the target.
 * @remote_key: its key.
 * @length: bytes to put.
 * @nframes: frames of the put.
 * @frames: where each frame's bytes come from and go.
 * @base: lowest frame without an ACK.
 * @next: next frame never sent.
 * @acked_frames: frames acknowledged.
 * @retries: resends since the last ACK.
 * @max_retries: resends without an ACK before TIMEOUT.
 * @resend: resend timeout in jiffies, before backoff.
 * @ended: the end is decided.
 * @event_pending: the end event waits for room in the ring.
 * @end: the end event.
 * @acked: bit per frame, set when acknowledged.
 * @data: the bytes to put.
 */
struct pinmx_put_state {
	struct pinmx_endpoint *ep;
	spinlock_t lock;
	struct timer_list timer;
	struct work_struct end_work;
	struct rcu_head rcu;
	u32 id;
	u32 seq;
	struct list_head running;
	u32 handle;
	u8 peer_mac[ETH_ALEN];
	u8 peer_index;
	u32 peer_session;
	u32 remote_region;
	u64 remote_key;
	u64 length;
	u32 nframes;
	struct pinmx_put_frame *frames;
	u32 base;
	u32 next;
	u32 acked_frames;
	unsigned int retries;
	unsigned int max_retries;
	unsigned long resend;
	bool ended;
	bool event_pending;
	struct pinmx_pull_event end;
	unsigned long *acked;
	u8 *data;
};

/**
 * struct pinmx_put_frame - one PUT frame of a put
 * @region_offset: where its bytes go in the remote region.
 * @data_offset: where they are in the put's bytes.
 * @len: bytes.
 *
 * A frame never spans two pieces of a vector put.
 */
struct pinmx_put_frame {
	u64 region_offset;
	u64 data_offset;
	u32 len;
};

static struct workqueue_struct *pinmx_put_wq;

static u32 pinmx_put_frame_limit(const struct net_device *dev)
{
	return pinmx_link_bytes(dev) - sizeof(struct pinmx_wire_put);
}

static int pinmx_put_push_end(struct pinmx_put_state *put)
{
	return pinmx_ring_push_event(put->ep, put->end.status ?
				     PINMX_EVENT_PUT_FAILED :
				     PINMX_EVENT_PUT_DONE, put->peer_mac,
				     &put->end, sizeof(put->end));
}

/* Take @put out of the running puts, moving the endpoint's low mark. */
static void pinmx_put_retire(struct pinmx_put_state *put)
{
	struct pinmx_endpoint *ep = put->ep;
	struct pinmx_put_state *oldest;

	spin_lock_bh(&ep->put_seq_lock);
	list_del_init(&put->running);
	oldest = list_first_entry_or_null(&ep->puts_running,
					  struct pinmx_put_state, running);
	WRITE_ONCE(ep->put_low, oldest ? oldest->seq : ep->put_seq);
	spin_unlock_bh(&ep->put_seq_lock);
}

/* Decide the end of @put and report it; under put->lock. */
static void pinmx_put_end(struct pinmx_put_state *put, u32 status, int error,
			  u16 segment, u64 address)
{
	lockdep_assert_held(&put->lock);
	if (put->ended)
		return;
	put->ended = true;
	pinmx_put_retire(put);
	put->end.handle = put->handle;
	put->end.status = status;
	put->end.error = -error;
	put->end.bytes = status ? 0 : put->length;
	put->end.segment = segment;
	put->end.address = address;
	pinmx_count(status ? PINMX_CNT_PUTS_FAILED : PINMX_CNT_PUTS_DONE, 1);
	if (pinmx_put_push_end(put)) {
		put->event_pending = true;
		mod_timer(&put->timer, jiffies + 1);
		return;
	}
	queue_work(pinmx_put_wq, &put->end_work);
}

/* Queue frame @k of @put; under put->lock, RCU. */
static void pinmx_put_send(struct pinmx_put_state *put, u32 k,
			   struct net_device *dev, struct sk_buff_head *txq)
{
	const struct pinmx_put_frame *fr = &put->frames[k];
	struct pinmx_endpoint *ep = put->ep;
	struct pinmx_wire_put *f;
	struct sk_buff *skb;

	skb = pinmx_frame_alloc(dev, sizeof(*f) + fr->len);
	if (!skb)
		return;
	f = (struct pinmx_wire_put *)skb->data;
	pinmx_mxoe_header(&f->hdr, PINMX_KIND_PUT, put->peer_index, ep->index,
			  put->peer_session, ep->session, fr->len);
	f->hdr.seq = cpu_to_be32(put->seq);
	f->hdr.ack_seq = cpu_to_be32(READ_ONCE(ep->put_low));
	f->handle = cpu_to_be32(put->id);
	f->region_id = cpu_to_be32(put->remote_region);
	f->region_offset = cpu_to_be64(fr->region_offset);
	f->key = cpu_to_be64(put->remote_key);
	f->frame_index = cpu_to_be32(k);
	f->frame_count = cpu_to_be32(put->nframes);
	f->put_offset = cpu_to_be64(fr->data_offset);
	memcpy(f + 1, put->data + fr->data_offset, fr->len);
	pinmx_count(PINMX_CNT_PUT_FRAMES_SENT, 1);
	pinmx_frame_queue(txq, skb, dev, put->peer_mac);
}

/* Send new frames while the window has room; under put->lock. */
static void pinmx_put_fill(struct pinmx_put_state *put, struct net_device *dev,
			   struct sk_buff_head *txq)
{
	while (put->next < put->nframes &&
	       put->next - put->base < PINMX_PUT_WINDOW_FRAMES)
		pinmx_put_send(put, put->next++, dev, txq);
}

static bool pinmx_put_hears(const struct pinmx_put_state *put,
			    const struct pinmx_wire_hdr *f)
{
	return !put->ended && be32_to_cpu(f->src_session) == put->peer_session &&
	       f->src_ep == put->peer_index;
}

/**
 * pinmx_put_ack - a PUT_ACK for @ep arrived; receive softirq, RCU
 * @ep: addressed endpoint.
 * @f: the checked PUT_ACK.
 * @dev: the interface it came in on.
 *
 * Return: 0 if it acknowledged a frame, else the counter of the drop.
 */
int pinmx_put_ack(struct pinmx_endpoint *ep, const struct pinmx_wire_put_ack *f,
		  struct net_device *dev)
{
	struct pinmx_put_state *put = xa_load(&ep->puts, be32_to_cpu(f->handle));
	u32 k = be32_to_cpu(f->frame_index);
	struct sk_buff_head txq;
	int drop = 0;

	if (!put)
		return PINMX_CNT_PUT_DUPLICATE_ACKS;
	__skb_queue_head_init(&txq);
	spin_lock(&put->lock);
	if (!pinmx_put_hears(put, &f->hdr) || k >= put->next ||
	    test_bit(k, put->acked)) {
		drop = PINMX_CNT_PUT_DUPLICATE_ACKS;
		goto out;
	}
	__set_bit(k, put->acked);
	put->acked_frames++;
	put->retries = 0;
	while (put->base < put->next && test_bit(put->base, put->acked))
		put->base++;
	if (put->acked_frames == put->nframes) {
		pinmx_put_end(put, PINMX_PULL_OK, 0, 0, 0);
		goto out;
	}
	pinmx_put_fill(put, dev, &txq);
	mod_timer(&put->timer, jiffies + put->resend);
out:
	spin_unlock(&put->lock);
	pinmx_frame_xmit(&txq);
	return drop;
}

/* enum pinmx_pull_status and errno for a NACK refusing a PUT. */
static u32 pinmx_put_nack_status(u8 reason, int *err)
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
	case PINMX_NACK_BAD_SESSION:
		*err = -ECONNRESET;
		return PINMX_PULL_FAILED;
	default:
		*err = -ECONNREFUSED;
		return PINMX_PULL_FAILED;
	}
}

/**
 * pinmx_put_nack - a NACK refusing one of @ep's PUTs; softirq, RCU
 * @ep: addressed endpoint.
 * @f: the checked NACK.
 *
 * Return: 0 if it ended a put, else the counter of the drop.
 */
int pinmx_put_nack(struct pinmx_endpoint *ep, const struct pinmx_wire_nack *f)
{
	struct pinmx_put_state *put = xa_load(&ep->puts,
					      be32_to_cpu(f->refused_handle));
	u32 status, nerr = be32_to_cpu(f->error);
	int err, drop = 0;

	if (!put)
		return PINMX_CNT_PUT_DUPLICATE_ACKS;
	status = pinmx_put_nack_status(f->reason, &err);
	if (nerr && nerr < MAX_ERRNO)
		err = -(int)nerr;
	spin_lock(&put->lock);
	if (f->reason == PINMX_NACK_HELD && pinmx_put_hears(put, &f->hdr)) {
		/* The target holds its region: wait for it, resending. */
		put->retries = 0;
		mod_timer(&put->timer, jiffies + put->resend);
	} else if (pinmx_put_hears(put, &f->hdr)) {
		put->end.nack_reason = f->reason;
		pinmx_put_end(put, status, err, be16_to_cpu(f->segment),
			      be64_to_cpu(f->address));
	} else {
		drop = PINMX_CNT_PUT_DUPLICATE_ACKS;
	}
	spin_unlock(&put->lock);
	return drop;
}

/* Resend the unacknowledged frames sent so far, or time out. */
static void pinmx_put_timer(struct timer_list *t)
{
	struct pinmx_put_state *put = from_timer(put, t, timer);
	struct net_device *dev;
	struct sk_buff_head txq;
	u32 k;

	__skb_queue_head_init(&txq);
	rcu_read_lock();
	spin_lock(&put->lock);
	if (put->event_pending) {
		if (!pinmx_put_push_end(put)) {
			put->event_pending = false;
			queue_work(pinmx_put_wq, &put->end_work);
		} else {
			mod_timer(&put->timer, jiffies + put->resend);
		}
		goto out;
	}
	if (put->ended)
		goto out;
	dev = pinmx_ep_dev_rcu(put->ep);
	if (!dev) {
		pinmx_put_end(put, PINMX_PULL_FAILED, -ENETDOWN, 0, 0);
		goto out;
	}
	if (put->retries >= put->max_retries) {
		pinmx_count(PINMX_CNT_PUT_TIMEOUTS, 1);
		pinmx_put_end(put, PINMX_PULL_TIMEOUT, -ETIMEDOUT, 0, 0);
		goto out;
	}
	put->retries++;
	for (k = put->base; k < put->next; k++) {
		if (!test_bit(k, put->acked)) {
			pinmx_count(PINMX_CNT_PUT_RESENDS, 1);
			pinmx_put_send(put, k, dev, &txq);
		}
	}
	/* Backoff: the timeout doubles per resend up to 16x. */
	mod_timer(&put->timer, jiffies + (put->resend << min(put->retries, 4U)));
out:
	spin_unlock(&put->lock);
	pinmx_frame_xmit(&txq);
	rcu_read_unlock();
}

static void pinmx_put_free(struct pinmx_put_state *put)
{
	del_timer_sync(&put->timer);
	kvfree(put->data);
	kvfree(put->frames);
	bitmap_free(put->acked);
	kfree_rcu(put, rcu);
}

/* Whoever takes a put out of ep->puts frees it. */
static void pinmx_put_end_work(struct work_struct *work)
{
	struct pinmx_put_state *put =
		container_of(work, struct pinmx_put_state, end_work);
	struct pinmx_endpoint *ep = put->ep;

	if (pinmx_ep_take(ep, &ep->puts, &ep->nr_puts, put->id, put))
		pinmx_put_free(put);
}

/**
 * pinmx_puts_release - end and free every put of a closing endpoint
 * @ep: endpoint no longer reachable by the receive softirq.
 */
void pinmx_puts_release(struct pinmx_endpoint *ep)
{
	struct pinmx_put_state *put;

	while ((put = pinmx_ep_take_any(ep, &ep->puts, &ep->nr_puts))) {
		spin_lock_bh(&put->lock);
		if (!put->ended)
			pinmx_put_retire(put);
		put->ended = true;
		put->event_pending = false;
		spin_unlock_bh(&put->lock);
		cancel_work_sync(&put->end_work);
		pinmx_put_free(put);
	}
	xa_destroy(&ep->puts);
}

/* Copy [@off, @off + @len) of @region, declared by the caller, into @buf. */
static int pinmx_put_copy_in(struct pinmx_region *region, u64 off, u8 *buf,
			     u64 len)
{
	struct pinmx_seg *seg = pinmx_region_find(region, off);
	u64 in = off - seg->offset;

	while (len) {
		u64 n = min(len, seg->len - in);

		if (copy_from_user(buf, u64_to_user_ptr(seg->vaddr + in), n))
			return -EFAULT;
		buf += n;
		len -= n;
		seg++;
		in = 0;
	}
	return 0;
}

/**
 * pinmx_pieces_check - check the pieces of a vector put or pull
 * @pieces: the caller's pieces.
 * @nr: how many.
 * @local_length: length of the local region they name.
 * @max_bytes: largest total.
 * @total: out: their bytes.
 *
 * Return: 0, -EINVAL for an empty piece, -EMSGSIZE past @max_bytes,
 * -EOVERFLOW at 2^63 in the remote region, -ERANGE past the local one.
 */
int pinmx_pieces_check(const struct pinmx_put_piece *pieces, u32 nr,
		       u64 local_length, u64 max_bytes, u64 *total)
{
	u64 end;
	u32 i;

	for (i = 0, *total = 0; i < nr; i++) {
		const struct pinmx_put_piece *p = &pieces[i];

		if (!p->len)
			return -EINVAL;
		if (check_add_overflow(*total, p->len, total) ||
		    *total > max_bytes)
			return -EMSGSIZE;
		if (check_add_overflow(p->remote_offset, p->len, &end) ||
		    end >= PINMX_U63_LIMIT)
			return -EOVERFLOW;
		if (check_add_overflow(p->local_offset, p->len, &end))
			return -EOVERFLOW;
		if (end > local_length)
			return -ERANGE;
	}
	return 0;
}

/* Cut the pieces into frames of at most @frame_bytes, in order. */
static int pinmx_put_frames(struct pinmx_put_state *put,
			    const struct pinmx_put_piece *pieces, u32 nr,
			    u32 frame_bytes)
{
	u64 n = 0, doff = 0, off;
	u32 i, k = 0;

	for (i = 0; i < nr; i++)
		n += DIV_ROUND_UP_ULL(pieces[i].len, frame_bytes);
	put->frames = kvmalloc_array(n, sizeof(*put->frames), GFP_KERNEL);
	put->acked = bitmap_zalloc(n, GFP_KERNEL);
	if (!put->frames || !put->acked)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		for (off = 0; off < pieces[i].len; off += frame_bytes, k++) {
			put->frames[k].region_offset =
				pieces[i].remote_offset + off;
			put->frames[k].data_offset = doff + off;
			put->frames[k].len = min_t(u64, frame_bytes,
						   pieces[i].len - off);
		}
		doff += pieces[i].len;
	}
	put->nframes = n;
	return 0;
}

/* The bound interface's PUT payload limit, or 0 when it is gone or down. */
static u32 pinmx_put_link_frame_bytes(struct pinmx_endpoint *ep)
{
	struct net_device *dev;
	u32 n = 0;

	rcu_read_lock();
	dev = pinmx_ep_dev_rcu(ep);
	if (dev && (dev->flags & IFF_UP))
		n = pinmx_put_frame_limit(dev);
	rcu_read_unlock();
	return n;
}

/* Copy the pieces' bytes out of @local, declared by the caller. */
static int pinmx_put_gather(struct pinmx_put_state *put,
			    const struct pinmx_put_piece *pieces, u32 nr,
			    struct pinmx_region *local)
{
	u64 doff = 0;
	u32 i;
	int err;

	put->data = kvmalloc(put->length, GFP_KERNEL);
	if (!put->data)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		err = pinmx_put_copy_in(local, pieces[i].local_offset,
					put->data + doff, pieces[i].len);
		if (err)
			return err;
		doff += pieces[i].len;
	}
	return 0;
}

/* A put of @req's peer, region and key over @pieces of @local. */
static struct pinmx_put_state *pinmx_put_alloc(struct pinmx_endpoint *ep,
					       const struct pinmx_put *req,
					       const struct pinmx_put_piece *pieces,
					       u32 nr, u64 total,
					       struct pinmx_region *local)
{
	struct pinmx_put_state *put = kzalloc(sizeof(*put), GFP_KERNEL);
	u32 frame_bytes = pinmx_put_link_frame_bytes(ep);
	int err;

	if (!put)
		return ERR_PTR(-ENOMEM);
	put->length = total;
	err = frame_bytes ? pinmx_put_gather(put, pieces, nr, local) :
	      -ENETDOWN;
	if (!err)
		err = pinmx_put_frames(put, pieces, nr, frame_bytes);
	if (err)
		goto err_free;
	put->ep = ep;
	spin_lock_init(&put->lock);
	INIT_LIST_HEAD(&put->running);
	timer_setup(&put->timer, pinmx_put_timer, 0);
	INIT_WORK(&put->end_work, pinmx_put_end_work);
	put->handle = req->handle;
	memcpy(put->peer_mac, req->peer_mac, ETH_ALEN);
	put->peer_index = req->peer_endpoint;
	put->peer_session = req->peer_session;
	put->remote_region = req->remote_region;
	put->remote_key = req->remote_key;
	put->resend = max(1UL, msecs_to_jiffies(READ_ONCE(pinmx_pull_resend_ms)));
	put->max_retries = READ_ONCE(pinmx_pull_max_retries);
	return put;

err_free:
	kvfree(put->data);
	kvfree(put->frames);
	bitmap_free(put->acked);
	kfree(put);
	return ERR_PTR(err);
}

static int pinmx_put_publish(struct pinmx_endpoint *ep,
			     struct pinmx_put_state *put)
{
	int err = -EBUSY;

	mutex_lock(&ep->lock);
	if (ep->nr_puts < PINMX_MAX_PUTS)
		err = xa_alloc_cyclic(&ep->puts, &put->id, put,
				      XA_LIMIT(1, INT_MAX), &ep->put_next,
				      GFP_KERNEL);
	if (err >= 0) {
		ep->nr_puts++;
		err = 0;
		spin_lock_bh(&ep->put_seq_lock);
		put->seq = ep->put_seq++;
		list_add_tail(&put->running, &ep->puts_running);
		if (list_is_singular(&ep->puts_running))
			WRITE_ONCE(ep->put_low, put->seq);
		spin_unlock_bh(&ep->put_seq_lock);
	}
	mutex_unlock(&ep->lock);
	return err;
}

/* Size the put for the link and send its first window; 0 or -ENETDOWN. */
static int pinmx_put_launch(struct pinmx_put_state *put)
{
	struct net_device *dev;
	struct sk_buff_head txq;
	int err = 0;

	__skb_queue_head_init(&txq);
	rcu_read_lock();
	dev = pinmx_ep_dev_rcu(put->ep);
	if (!dev || !(dev->flags & IFF_UP)) {
		err = -ENETDOWN;
		goto out;
	}
	spin_lock_bh(&put->lock);
	pinmx_put_fill(put, dev, &txq);
	mod_timer(&put->timer, jiffies + put->resend);
	spin_unlock_bh(&put->lock);
	pinmx_count(PINMX_CNT_PUTS_STARTED, 1);
	local_bh_disable();
	pinmx_frame_xmit(&txq);
	local_bh_enable();
out:
	rcu_read_unlock();
	return err;
}

/* Start a put to @req's peer and region of @pieces of the caller's region. */
static long pinmx_put_start(struct pinmx_endpoint *ep,
			    const struct pinmx_put *req,
			    const struct pinmx_put_piece *pieces, u32 nr)
{
	struct pinmx_put_state *put;
	struct pinmx_region *local;
	u64 total;
	int err;

	local = pinmx_get_region(ep, req->local_region, true);
	if (IS_ERR(local))
		return PTR_ERR(local);
	err = pinmx_pieces_check(pieces, nr, local->length,
				 PINMX_PUT_MAX_BYTES, &total);
	put = err ? ERR_PTR(err) :
	      pinmx_put_alloc(ep, req, pieces, nr, total, local);
	pinmx_region_put_user(local);
	if (IS_ERR(put))
		return PTR_ERR(put);
	err = pinmx_put_publish(ep, put);
	if (err) {
		pinmx_put_free(put);
		return err;
	}
	err = pinmx_put_launch(put);
	if (err) {
		spin_lock_bh(&put->lock);
		pinmx_put_retire(put);
		put->ended = true;
		spin_unlock_bh(&put->lock);
		pinmx_put_end_work(&put->end_work);
	}
	return err;
}

long pinmx_ioc_put(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_put_piece piece;
	struct pinmx_put req;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.flags || req.pad || req.pad2 || req.reserved)
		return -EINVAL;
	if (!smp_load_acquire(&ep->ring))
		return -ENOTCONN;
	piece = (struct pinmx_put_piece){
		.remote_offset = req.remote_offset,
		.local_offset = req.local_offset, .len = req.length,
	};
	return pinmx_put_start(ep, &req, &piece, 1);
}

long pinmx_ioc_putv(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_put_piece *pieces;
	struct pinmx_putv v;
	struct pinmx_put req;
	long err;

	if (copy_from_user(&v, uarg, sizeof(v)))
		return -EFAULT;
	if (v.flags || v.pad || v.reserved || !v.nr_pieces)
		return -EINVAL;
	if (v.nr_pieces > PINMX_PUT_MAX_PIECES)
		return -E2BIG;
	if (!smp_load_acquire(&ep->ring))
		return -ENOTCONN;
	pieces = memdup_user(u64_to_user_ptr(v.pieces),
			     array_size(v.nr_pieces, sizeof(*pieces)));
	if (IS_ERR(pieces))
		return PTR_ERR(pieces);
	req = (struct pinmx_put){
		.peer_endpoint = v.peer_endpoint,
		.peer_session = v.peer_session,
		.remote_region = v.remote_region,
		.local_region = v.local_region, .handle = v.handle,
		.remote_key = v.remote_key,
	};
	memcpy(req.peer_mac, v.peer_mac, ETH_ALEN);
	err = pinmx_put_start(ep, &req, pieces, v.nr_pieces);
	kfree(pieces);
	return err;
}

int pinmx_put_init(void)
{
	pinmx_put_wq = alloc_workqueue("pinmx_put", 0, 0);
	return pinmx_put_wq ? 0 : -ENOMEM;
}

void pinmx_put_exit(void)
{
	/* kfree_rcu() of the puts must not outlive the module. */
	rcu_barrier();
	destroy_workqueue(pinmx_put_wq);
}
