// SPDX-License-Identifier: GPL-2.0
/*
 * The target side of the put engine (put.c): a PUT frame for an exposed
 * region is checked (region, exposure, key, range), written by the receive
 * softirq straight into the region's pinned pages under pages_lock, which
 * every unpin takes, and acknowledged with PUT_ACK; the target process never
 * runs. A frame whose pages are not pinned is dropped and kept in a slot
 * while its range is pinned in the declarer's mm; a failed pin is answered
 * with NACK SEGMENT_FAULT naming the frame's region offset. ATOMIC requests
 * that miss are kept the same way (atomic_target.c). A region its owner
 * holds (PINMX_IOC_HOLD_WRITES) answers NACK HELD and is not touched.
 *
 * Per origin endpoint (interface address, index, session) the server keeps
 * the highest low mark its frames carried (put.c): a frame of a put numbered
 * below it is a stale duplicate of an ended put and is dropped unwritten, so
 * it cannot undo a later put to the same bytes. The least recently heard
 * origin's entry is reused when the table is full.
 *
 * Lock: put_server->lock (spinlock, _bh) guards the slots and the origins;
 * taken before the region's pages_lock (pinmx_region_pin_async()).
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "pinmx.h"

/* Requests kept per endpoint while their target pages are pinned. */
#define PINMX_PUT_SLOTS		16
/* Origin endpoints whose low marks one target endpoint keeps. */
#define PINMX_PUT_ORIGINS	64

/**
 * struct pinmx_put_slot - a PUT frame whose target pages are being pinned
 * @wait: the asynchronous pin.
 * @server: the put server it belongs to.
 * @region: the region it names, with a reference; NULL when free.
 * @put: the frame's header (the latest one for @region).
 * @mac: its origin's interface address.
 * @ifindex: the interface it came in on.
 */
struct pinmx_put_slot {
	struct pinmx_pin_wait wait;
	struct pinmx_put_server *server;
	struct pinmx_region *region;
	struct pinmx_wire_put put;
	u8 mac[ETH_ALEN];
	int ifindex;
};

/**
 * struct pinmx_put_origin - what a target knows of one origin's puts
 * @mac: its interface address.
 * @index: its endpoint index.
 * @session: its session; a new session is a new origin.
 * @low: highest low mark its frames carried.
 * @heard: jiffies of its last PUT frame; 0 for a free entry.
 */
struct pinmx_put_origin {
	u8 mac[ETH_ALEN];
	u8 index;
	u32 session;
	u32 low;
	unsigned long heard;
};

/**
 * struct pinmx_put_server - the target side of one bound endpoint
 * @ep: the endpoint.
 * @lock: guards @closing and the slots' fields (softirq, pin answers,
 *	release); taken with _bh.
 * @closing: the endpoint is being released: no slot is taken any more.
 * @slots: PUT frames waiting for pins.
 * @origins: the endpoints that put here.
 */
struct pinmx_put_server {
	struct pinmx_endpoint *ep;
	spinlock_t lock;
	bool closing;
	struct pinmx_put_slot slots[PINMX_PUT_SLOTS];
	struct pinmx_put_origin origins[PINMX_PUT_ORIGINS];
};

static void pinmx_put_ack_queue(struct sk_buff_head *txq, struct net_device *dev,
				const struct pinmx_wire_put *f, const u8 *mac)
{
	struct pinmx_wire_put_ack *a;
	struct sk_buff *skb = pinmx_frame_alloc(dev, sizeof(*a));

	if (!skb)
		return;
	a = (struct pinmx_wire_put_ack *)skb->data;
	pinmx_answer_header(&a->hdr, PINMX_KIND_PUT_ACK, &f->hdr, 0);
	a->handle = f->handle;
	a->frame_index = f->frame_index;
	pinmx_frame_queue(txq, skb, dev, mac);
}

/* Refuse PUT @f: NACK @reason naming its region offset and @err. */
static void pinmx_put_refuse(struct sk_buff_head *txq, struct net_device *dev,
			     const struct pinmx_wire_put *f, const u8 *mac,
			     u8 reason, const struct pinmx_fault *where)
{
	struct pinmx_fault at = {
		.address = be64_to_cpu(f->region_offset),
		.segment = where ? where->segment : 0,
		.err = where ? where->err : 0,
	};

	pinmx_nack_queue(txq, dev, &f->hdr, mac, reason, &at);
}

/* Free slot, or the one already waiting for @region; under server->lock. */
static struct pinmx_put_slot *pinmx_put_slot_find(struct pinmx_put_server *server,
						  struct pinmx_region *region)
{
	struct pinmx_put_slot *free = NULL;
	unsigned int i;

	for (i = 0; i < PINMX_PUT_SLOTS; i++) {
		struct pinmx_put_slot *slot = &server->slots[i];

		if (slot->region == region)
			return slot;
		if (!slot->region && !free)
			free = slot;
	}
	return free;
}

/**
 * pinmx_put_defer - keep a request whose target page is not pinned
 * @server: the target endpoint's put server.
 * @region: the region it names, referenced.
 * @f: a PUT, or an ATOMIC copied into one (same offsets up to the key).
 * @mac: its origin's interface.
 * @dev: the interface it came in on.
 * @miss: region offset of the first byte not pinned.
 * @end: end of the range to pin.
 *
 * The range is pinned in the background; a failure is answered with NACK
 * SEGMENT_FAULT naming @f's region offset, a success with nothing (the
 * origin resends). Without a slot @f is left to the origin's resend.
 *
 * Return: 0, or -ENOENT if the region is destroyed.
 */
int pinmx_put_defer(struct pinmx_put_server *server,
		    struct pinmx_region *region, const struct pinmx_wire_put *f,
		    const u8 *mac, struct net_device *dev, u64 miss, u64 end)
{
	struct pinmx_put_slot *slot;
	int err = 0;

	spin_lock_bh(&server->lock);
	slot = server->closing ? NULL : pinmx_put_slot_find(server, region);
	if (!slot)
		goto out;
	if (!slot->region) {
		kref_get(&region->kref);
		slot->region = region;
	}
	slot->put = *f;
	memcpy(slot->mac, mac, ETH_ALEN);
	slot->ifindex = dev->ifindex;
	err = pinmx_region_pin_async(region, &slot->wait, miss, end - miss);
	if (err && !pinmx_pin_wait_queued(&slot->wait)) {
		slot->region = NULL;
		pinmx_region_put(region);
	}
out:
	spin_unlock_bh(&server->lock);
	return err;
}

/*
 * The pages a PUT found missing are pinned, and the origin's resend writes
 * them; or they cannot be: refuse the PUT naming where, so the origin's
 * put fails instead of resending until it times out.
 */
static void pinmx_put_pinned(struct pinmx_pin_wait *w, int err,
			     const struct pinmx_fault *where)
{
	struct pinmx_put_slot *slot = container_of(w, struct pinmx_put_slot, wait);
	struct pinmx_put_server *server = slot->server;
	struct pinmx_region *region;
	struct pinmx_wire_put put;
	struct sk_buff_head txq;
	struct net_device *dev;
	u8 mac[ETH_ALEN];
	int ifindex;

	spin_lock_bh(&server->lock);
	region = slot->region;
	if (!region || pinmx_pin_wait_queued(w)) {
		spin_unlock_bh(&server->lock);
		return;
	}
	put = slot->put;
	memcpy(mac, slot->mac, sizeof(mac));
	ifindex = slot->ifindex;
	slot->region = NULL;
	spin_unlock_bh(&server->lock);
	__skb_queue_head_init(&txq);
	rcu_read_lock();
	local_bh_disable();
	dev = pinmx_ep_dev_rcu(server->ep);
	if (err && dev && dev->ifindex == ifindex)
		pinmx_put_refuse(&txq, dev, &put, mac,
				 err == -ENOENT ? PINMX_NACK_UNKNOWN_REGION :
				 PINMX_NACK_SEGMENT_FAULT,
				 err == -ENOENT ? NULL : where);
	pinmx_frame_xmit(&txq);
	local_bh_enable();
	rcu_read_unlock();
	pinmx_region_put(region);
}

/*
 * Why @region refuses PUT @f: the NACK reason, or 0 if it does not; *@drop
 * is the counter of the refusal (0 for an unknown region: as for a PULL,
 * the NACK is the answer).
 */
static u8 pinmx_put_refusal(const struct pinmx_region *region,
			    const struct pinmx_wire_put *f, u32 plen, int *drop)
{
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
	if (be64_to_cpu(f->region_offset) + plen > region->length) {
		*drop = PINMX_CNT_RX_OUT_OF_RANGE;
		return PINMX_NACK_OUT_OF_RANGE;
	}
	if (smp_load_acquire(&region->writes_held)) {
		*drop = PINMX_CNT_WRITES_HELD;
		return PINMX_NACK_HELD;
	}
	return 0;
}

/* The entry of @f's origin, or the one to reuse for it; under server->lock. */
static struct pinmx_put_origin *pinmx_put_origin(struct pinmx_put_server *server,
						 const struct pinmx_wire_put *f,
						 const u8 *mac, bool *known)
{
	u32 session = be32_to_cpu(f->hdr.src_session);
	struct pinmx_put_origin *o, *lru = &server->origins[0];

	for (o = server->origins; o < server->origins + PINMX_PUT_ORIGINS; o++) {
		if (o->heard && o->session == session &&
		    o->index == f->hdr.src_ep && ether_addr_equal(o->mac, mac)) {
			*known = true;
			return o;
		}
		if (!o->heard || (lru->heard && time_before(o->heard, lru->heard)))
			lru = o;
	}
	*known = false;
	return lru;
}

/*
 * Whether PUT @f belongs to a put its origin has ended (a stale duplicate);
 * else remember the low mark it carries.
 */
static bool pinmx_put_stale(struct pinmx_put_server *server,
			    const struct pinmx_wire_put *f, const u8 *mac)
{
	u32 seq = be32_to_cpu(f->hdr.seq), low = be32_to_cpu(f->hdr.ack_seq);
	struct pinmx_put_origin *o;
	bool known, stale = false;

	spin_lock(&server->lock);
	o = pinmx_put_origin(server, f, mac, &known);
	if (!known) {
		memcpy(o->mac, mac, ETH_ALEN);
		o->index = f->hdr.src_ep;
		o->session = be32_to_cpu(f->hdr.src_session);
		o->low = low;
	} else if ((s32)(seq - o->low) < 0) {
		stale = true;
	} else if ((s32)(low - o->low) > 0) {
		o->low = low;
	}
	o->heard = jiffies ?: 1;
	spin_unlock(&server->lock);
	return stale;
}

/**
 * pinmx_put_frame - a PUT frame for @ep; receive softirq, RCU
 * @ep: addressed endpoint (session checked).
 * @skb: the frame, its payload the bytes to write.
 * @f: its checked header.
 * @dev: the interface it came in on.
 *
 * Return: 0 if written and acknowledged, else the counter of the drop.
 */
int pinmx_put_frame(struct pinmx_endpoint *ep, struct sk_buff *skb,
		    const struct pinmx_wire_put *f, struct net_device *dev)
{
	struct pinmx_region *region =
		pinmx_ids_get(&ep->regions, be32_to_cpu(f->region_id));
	u64 roff = be64_to_cpu(f->region_offset), miss;
	u32 plen = be32_to_cpu(f->hdr.payload_len);
	const u8 *mac = eth_hdr(skb)->h_source;
	struct sk_buff_head txq;
	int drop = 0, err;
	u8 reason;

	__skb_queue_head_init(&txq);
	reason = pinmx_put_refusal(region, f, plen, &drop);
	if (reason) {
		pinmx_put_refuse(&txq, dev, f, mac, reason, NULL);
		goto out;
	}
	if (pinmx_put_stale(ep->put_server, f, mac)) {
		drop = PINMX_CNT_PUT_STALE;
		goto out;
	}
	err = pinmx_region_write_skb(region, roff, skb, sizeof(*f), plen, &miss);
	if (err == -EAGAIN) {
		drop = PINMX_CNT_PUT_MISSES;
		err = pinmx_put_defer(ep->put_server, region, f, mac, dev, miss,
				      roff + plen);
	}
	if (err == -ENOENT)
		pinmx_put_refuse(&txq, dev, f, mac, PINMX_NACK_UNKNOWN_REGION,
				 NULL);
	else if (!drop) {
		pinmx_count(PINMX_CNT_PUT_FRAMES_WRITTEN, 1);
		pinmx_put_ack_queue(&txq, dev, f, mac);
	}
out:
	if (region)
		pinmx_region_put(region);
	pinmx_frame_xmit(&txq);
	return drop;
}

/**
 * pinmx_put_server_alloc - the target side of an endpoint being bound
 * @ep: the endpoint.
 *
 * Return: the server, or NULL without memory.
 */
struct pinmx_put_server *pinmx_put_server_alloc(struct pinmx_endpoint *ep)
{
	struct pinmx_put_server *server = kzalloc(sizeof(*server), GFP_KERNEL);
	unsigned int i;

	if (!server)
		return NULL;
	server->ep = ep;
	spin_lock_init(&server->lock);
	for (i = 0; i < PINMX_PUT_SLOTS; i++) {
		server->slots[i].server = server;
		pinmx_pin_wait_init(&server->slots[i].wait, pinmx_put_pinned);
	}
	return server;
}

/**
 * pinmx_put_server_free - drop the PUTs kept by a closing endpoint
 * @server: server of an endpoint no longer reachable by the softirq.
 */
void pinmx_put_server_free(struct pinmx_put_server *server)
{
	unsigned int i;

	spin_lock_bh(&server->lock);
	server->closing = true;
	spin_unlock_bh(&server->lock);
	for (i = 0; i < PINMX_PUT_SLOTS; i++)
		pinmx_region_slot_drop(&server->lock, &server->slots[i].region,
				       &server->slots[i].wait);
	kfree(server);
}
