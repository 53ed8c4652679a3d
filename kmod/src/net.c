// SPDX-License-Identifier: GPL-2.0
/*
 * pinmx networking: MXoE frames (docs/wire-protocol.md) over Ethernet.
 * Attached interfaces, endpoint binding, the receive checks, the event
 * ring shared with user space, the send and wait ioctls, and the frame
 * helpers of the pull engine (pull.c), to which PULL, PULL_REPLY and
 * NACKs refusing a PULL are handed.
 *
 * The list of attached interfaces, their endpoint tables and the endpoints'
 * bindings are changed under RTNL (which also keeps net devices from going
 * away under attach and bind) and read under RCU by the receive softirq
 * and the send ioctl.
 */
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/poll.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <net/net_namespace.h>

#include "pinmx.h"

#define PINMX_NR_EP_INDEX	256

static char *pinmx_ifnames;
module_param_named(ifnames, pinmx_ifnames, charp, 0444);
MODULE_PARM_DESC(ifnames, "comma-separated interfaces to attach at load (lo allowed)");

/**
 * struct pinmx_iface - an interface carrying MXoE
 * @node: place in pinmx_ifaces.
 * @dev: the device; no reference is held: the entry is removed by the
 *	NETDEV_UNREGISTER notifier before the device can be freed.
 * @eps: endpoint bound to each index, or NULL.
 * @rcu: frees the entry after readers are done.
 */
struct pinmx_iface {
	struct list_head node;
	struct net_device *dev;
	struct pinmx_endpoint __rcu *eps[PINMX_NR_EP_INDEX];
	struct rcu_head rcu;
};

static LIST_HEAD(pinmx_ifaces);

/* Header bytes (common + kind part) per kind; 0 for unknown kinds. */
static const u8 pinmx_header_bytes[PINMX_KIND_MAX + 1] = {
	[PINMX_KIND_CONNECT_REQUEST]	= sizeof(struct pinmx_wire_connect),
	[PINMX_KIND_CONNECT_REPLY]	= sizeof(struct pinmx_wire_connect),
	[PINMX_KIND_TINY]		= sizeof(struct pinmx_wire_eager),
	[PINMX_KIND_SMALL]		= sizeof(struct pinmx_wire_eager),
	[PINMX_KIND_MEDIUM_FRAG]	= sizeof(struct pinmx_wire_medium),
	[PINMX_KIND_RNDV]		= sizeof(struct pinmx_wire_rndv),
	[PINMX_KIND_PULL]		= sizeof(struct pinmx_wire_pull),
	[PINMX_KIND_PULL_REPLY]		= sizeof(struct pinmx_wire_pull_reply),
	[PINMX_KIND_NOTIFY]		= sizeof(struct pinmx_wire_notify),
	[PINMX_KIND_ACK]		= sizeof(struct pinmx_wire_ack),
	[PINMX_KIND_NACK]		= sizeof(struct pinmx_wire_nack),
	[PINMX_KIND_PUT]		= sizeof(struct pinmx_wire_put),
	[PINMX_KIND_PUT_ACK]		= sizeof(struct pinmx_wire_put_ack),
	[PINMX_KIND_ATOMIC]		= sizeof(struct pinmx_wire_atomic),
	[PINMX_KIND_ATOMIC_REPLY]	= sizeof(struct pinmx_wire_atomic_reply),
};

/* Payload limit per kind; U32_MAX: only the link limit applies. */
static const u32 pinmx_payload_limit[PINMX_KIND_MAX + 1] = {
	[PINMX_KIND_TINY]		= PINMX_TINY_MAX_BYTES,
	[PINMX_KIND_SMALL]		= PINMX_SMALL_MAX_BYTES,
	[PINMX_KIND_MEDIUM_FRAG]	= U32_MAX,
	[PINMX_KIND_PULL_REPLY]		= U32_MAX,
	[PINMX_KIND_PULL]		= PINMX_PULL_KEY_BYTES,
	[PINMX_KIND_PUT]		= U32_MAX,
	[PINMX_KIND_ATOMIC]		= PINMX_ATOMIC_MAX_WORDS * 8,
};

/* Is @a + @b below 2^63, with both below 2^63? */
static bool pinmx_u63_sum_ok(u64 a, u64 b)
{
	return a < PINMX_U63_LIMIT && b < PINMX_U63_LIMIT &&
	       a + b < PINMX_U63_LIMIT;
}

static int pinmx_check_connect(const struct pinmx_wire_connect *c)
{
	if (!c->hdr.src_session || c->status > PINMX_CONNECT_STATUS_MAX ||
	    (c->hdr.kind == PINMX_KIND_CONNECT_REQUEST &&
	     c->status != PINMX_CONNECT_OK))
		return PINMX_CNT_RX_BAD_FIELD;
	return 0;
}

static int pinmx_check_medium(const struct pinmx_wire_medium *m, u32 plen)
{
	u16 count = be16_to_cpu(m->frag_count);

	if (!plen)
		return PINMX_CNT_RX_BAD_LENGTH;
	if (!count)
		return PINMX_CNT_RX_BAD_FIELD;
	if (be16_to_cpu(m->frag_index) >= count)
		return PINMX_CNT_RX_OUT_OF_RANGE;
	if ((u64)be32_to_cpu(m->frag_offset) + plen > be32_to_cpu(m->msg_len))
		return PINMX_CNT_RX_OUT_OF_RANGE;
	return 0;
}

static int pinmx_check_pull(const struct pinmx_wire_pull *p, u32 plen)
{
	u32 block = be32_to_cpu(p->block_len), per = be32_to_cpu(p->reply_bytes);

	if (plen && plen != PINMX_PULL_KEY_BYTES)
		return PINMX_CNT_RX_BAD_LENGTH;
	if (!block || !per)
		return PINMX_CNT_RX_BAD_FIELD;
	if (be16_to_cpu(p->frame_count) != DIV_ROUND_UP((u64)block, per))
		return PINMX_CNT_RX_BAD_FIELD;
	if (!pinmx_u63_sum_ok(be64_to_cpu(p->region_offset), block) ||
	    !pinmx_u63_sum_ok(be64_to_cpu(p->pull_offset), block))
		return PINMX_CNT_RX_OUT_OF_RANGE;
	return 0;
}

static int pinmx_check_put(const struct pinmx_wire_put *p, u32 plen)
{
	u32 count = be32_to_cpu(p->frame_count);

	if (!plen)
		return PINMX_CNT_RX_BAD_LENGTH;
	if (!count || be32_to_cpu(p->frame_index) >= count)
		return PINMX_CNT_RX_BAD_FIELD;
	if (!pinmx_u63_sum_ok(be64_to_cpu(p->region_offset), plen) ||
	    !pinmx_u63_sum_ok(be64_to_cpu(p->put_offset), plen))
		return PINMX_CNT_RX_OUT_OF_RANGE;
	return 0;
}

static int pinmx_check_atomic(const struct pinmx_wire_atomic *a, u32 plen)
{
	u16 count = be16_to_cpu(a->count);
	u32 words;

	if (!a->op || a->op >= PINMX_ATOMIC_NR_OPS ||
	    (a->width != 4 && a->width != 8) || !count ||
	    (a->op != PINMX_ATOMIC_ACCUMULATE && count != 1) ||
	    be64_to_cpu(a->region_offset) % a->width)
		return PINMX_CNT_RX_BAD_FIELD;
	words = a->op == PINMX_ATOMIC_CAS ? 2 :
		a->op == PINMX_ATOMIC_ACCUMULATE ? count : 1;
	if (plen != words * 8)
		return PINMX_CNT_RX_BAD_LENGTH;
	if (!pinmx_u63_sum_ok(be64_to_cpu(a->region_offset),
			      (u64)count * a->width))
		return PINMX_CNT_RX_OUT_OF_RANGE;
	return 0;
}

static int pinmx_check_notify(const struct pinmx_wire_notify *n)
{
	if (be32_to_cpu(n->status) > PINMX_NOTIFY_STATUS_MAX)
		return PINMX_CNT_RX_BAD_FIELD;
	return be64_to_cpu(n->bytes_pulled) < PINMX_U63_LIMIT ?
	       0 : PINMX_CNT_RX_OUT_OF_RANGE;
}

static int pinmx_check_nack(const struct pinmx_wire_nack *n)
{
	if (!n->reason || n->reason > PINMX_NACK_REASON_MAX ||
	    !n->refused_kind || n->refused_kind > PINMX_KIND_MAX)
		return PINMX_CNT_RX_BAD_FIELD;
	return 0;
}

/* Receiver check 7: kind-specific fields of a frame with a whole header. */
static int pinmx_check_kind(const union pinmx_wire_frame *f, u32 plen)
{
	switch (f->hdr.kind) {
	case PINMX_KIND_CONNECT_REQUEST:
	case PINMX_KIND_CONNECT_REPLY:
		return pinmx_check_connect(&f->connect);
	case PINMX_KIND_TINY:
	case PINMX_KIND_SMALL:
		return be32_to_cpu(f->eager.msg_len) != plen ?
		       PINMX_CNT_RX_BAD_LENGTH : 0;
	case PINMX_KIND_MEDIUM_FRAG:
		return pinmx_check_medium(&f->medium, plen);
	case PINMX_KIND_RNDV:
		return pinmx_u63_sum_ok(be64_to_cpu(f->rndv.msg_len),
					be64_to_cpu(f->rndv.region_offset)) ?
		       0 : PINMX_CNT_RX_OUT_OF_RANGE;
	case PINMX_KIND_PULL:
		return pinmx_check_pull(&f->pull, plen);
	case PINMX_KIND_PULL_REPLY:
		if (!plen)
			return PINMX_CNT_RX_BAD_LENGTH;
		return pinmx_u63_sum_ok(be64_to_cpu(f->reply.pull_offset), plen) ?
		       0 : PINMX_CNT_RX_OUT_OF_RANGE;
	case PINMX_KIND_NOTIFY:
		return pinmx_check_notify(&f->notify);
	case PINMX_KIND_NACK:
		return pinmx_check_nack(&f->nack);
	case PINMX_KIND_PUT:
		return pinmx_check_put(&f->put, plen);
	case PINMX_KIND_ATOMIC:
		return pinmx_check_atomic(&f->atomic, plen);
	default:
		return 0;
	}
}

/*
 * Receiver checks 1-7 of the wire protocol on a frame of @received bytes
 * whose first min(@received, PINMX_WIRE_MAX_HEADER) bytes are at @f.
 * Returns 0 or the drop counter of the first failed check.
 */
static int pinmx_frame_check(const union pinmx_wire_frame *f, u32 received)
{
	u64 declared;
	u32 plen;
	u8 kind;

	if (received < PINMX_MXOE_COMMON_BYTES)
		return PINMX_CNT_RX_SHORT;
	if (f->hdr.version != PINMX_MXOE_VERSION)
		return PINMX_CNT_RX_BAD_VERSION;
	kind = f->hdr.kind;
	if (!kind || kind > PINMX_KIND_MAX)
		return PINMX_CNT_RX_UNKNOWN_KIND;
	if (received < pinmx_header_bytes[kind])
		return PINMX_CNT_RX_SHORT;
	plen = be32_to_cpu(f->hdr.payload_len);
	declared = (u64)pinmx_header_bytes[kind] + plen;
	if (declared > received ||
	    (declared < received && received > PINMX_MXOE_MIN_BYTES))
		return PINMX_CNT_RX_BAD_LENGTH;
	if (plen > pinmx_payload_limit[kind] ||
	    declared > PINMX_MXOE_MAX_BYTES)
		return PINMX_CNT_RX_BAD_LENGTH;
	return pinmx_check_kind(f, plen);
}

static struct pinmx_iface *pinmx_iface_find(const struct net_device *dev)
{
	struct pinmx_iface *iface;

	list_for_each_entry_rcu(iface, &pinmx_ifaces, node, lockdep_rtnl_is_held())
		if (iface->dev == dev)
			return iface;
	return NULL;
}

/*
 * Fill the next slot of @ep's ring with a head and @len bytes from @data or
 * @skb; 0 or a drop counter. Producers are softirqs and ioctls: _bh.
 */
static int pinmx_ring_push(struct pinmx_endpoint *ep, u32 type, u32 ifindex,
			   const u8 *mac, const void *data,
			   const struct sk_buff *skb, u32 len)
{
	struct pinmx_ring_ctl *ctl = ep->ring;
	struct pinmx_event *ev;
	u32 prod;

	spin_lock_bh(&ep->ring_lock);
	prod = ep->ring_prod;
	if (prod - smp_load_acquire(&ctl->consumer) >= PINMX_RING_SLOTS) {
		spin_unlock_bh(&ep->ring_lock);
		return PINMX_CNT_RX_RING_FULL;
	}
	ev = ep->ring + PINMX_RING_CTL_BYTES +
	     (prod % PINMX_RING_SLOTS) * PINMX_RING_SLOT_BYTES;
	ev->type = type;
	ev->frame_len = len;
	ev->ifindex = ifindex;
	memcpy(ev->src_mac, mac, ETH_ALEN);
	memset(ev->pad, 0, sizeof(ev->pad));
	ev->reserved = 0;
	if (skb)
		/* Cannot fail: @len is skb->len. */
		skb_copy_bits(skb, 0, ev + 1, len);
	else
		memcpy(ev + 1, data, len);
	WRITE_ONCE(ep->ring_prod, prod + 1);
	smp_store_release(&ctl->producer, prod + 1);
	spin_unlock_bh(&ep->ring_lock);
	wake_up_interruptible_poll(&ep->ring_wq, EPOLLIN | EPOLLRDNORM);
	return 0;
}

/**
 * pinmx_ring_push_event - put a pull end event in @ep's ring
 * @ep: bound endpoint.
 * @type: PINMX_EVENT_PULL_*.
 * @mac: the pull's peer.
 * @data: struct pinmx_pull_event.
 * @len: its size.
 *
 * Return: 0, or -ENOSPC when the ring is full (nothing counted).
 */
int pinmx_ring_push_event(struct pinmx_endpoint *ep, u32 type,
			  const u8 *mac, const void *data, u32 len)
{
	struct net_device *dev;
	u32 ifindex = 0;

	rcu_read_lock();
	dev = pinmx_ep_dev_rcu(ep);
	if (dev)
		ifindex = dev->ifindex;
	rcu_read_unlock();
	return pinmx_ring_push(ep, type, ifindex, mac, data, NULL, len) ?
	       -ENOSPC : 0;
}

u32 pinmx_link_bytes(const struct net_device *dev)
{
	return min_t(u32, READ_ONCE(dev->mtu), PINMX_MXOE_MAX_BYTES);
}

/* Write a common header with seq, ack and flags zero. */
void pinmx_mxoe_header(struct pinmx_wire_hdr *h, u8 kind, u8 dst_ep, u8 src_ep,
		       u32 dst_session, u32 src_session, u32 payload_len)
{
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	h->version = PINMX_MXOE_VERSION;
	h->dst_ep = dst_ep;
	h->src_ep = src_ep;
	h->dst_session = cpu_to_be32(dst_session);
	h->src_session = cpu_to_be32(src_session);
	h->payload_len = cpu_to_be32(payload_len);
}

/**
 * pinmx_frame_alloc - a zeroed MXoE frame of @len bytes for @dev, atomic
 * @dev: interface it will go out on.
 * @len: MXoE frame bytes; padded to PINMX_MXOE_MIN_BYTES.
 *
 * Return: the skb with skb->data at the MXoE frame, or NULL (counted).
 */
struct sk_buff *pinmx_frame_alloc(struct net_device *dev, u32 len)
{
	u32 padded = max_t(u32, len, PINMX_MXOE_MIN_BYTES);
	int hlen = LL_RESERVED_SPACE(dev);
	struct sk_buff *skb;

	skb = alloc_skb(hlen + padded + dev->needed_tailroom, GFP_ATOMIC);
	if (!skb) {
		pinmx_count(PINMX_CNT_TX_ERRORS, 1);
		return NULL;
	}
	skb_reserve(skb, hlen);
	skb_reset_network_header(skb);
	skb_put_zero(skb, padded);
	return skb;
}

/* Add the Ethernet header and queue @skb on @txq; frees it on failure. */
void pinmx_frame_queue(struct sk_buff_head *txq, struct sk_buff *skb,
		       struct net_device *dev, const u8 *dst_mac)
{
	skb->dev = dev;
	skb->protocol = htons(PINMX_ETH_P_MXOE);
	if (dev_hard_header(skb, dev, PINMX_ETH_P_MXOE, dst_mac, NULL,
			    skb->len) < 0) {
		pinmx_count(PINMX_CNT_TX_ERRORS, 1);
		kfree_skb(skb);
		return;
	}
	__skb_queue_tail(txq, skb);
}

/*
 * Send one frame whose Ethernet header @skb->data points at; 0 or an errno.
 * A frame for the interface's own address (an endpoint's message to itself,
 * or to another endpoint bound to the same interface) would never come back:
 * a NIC or a veth does not return what it sends, only loopback does. Such a
 * frame enters our receive path here instead, as if the wire had returned it.
 * netif_rx() queues it to this CPU's backlog; from process context that
 * backlog is usually run before netif_rx() returns.
 */
static int pinmx_xmit(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	int err;

	if (!(dev->flags & IFF_LOOPBACK) &&
	    ether_addr_equal(((const struct ethhdr *)skb->data)->h_dest,
			     dev->dev_addr)) {
		skb->protocol = eth_type_trans(skb, dev);
		return netif_rx(skb) == NET_RX_SUCCESS ? 0 : -ENOBUFS;
	}
	err = dev_queue_xmit(skb);
	return err > 0 ? net_xmit_errno(err) : err;
}

/*
 * Send what pinmx_frame_queue() queued, after the caller dropped its
 * spinlocks (a qdisc may hold frames and run later, never re-entering).
 */
void pinmx_frame_xmit(struct sk_buff_head *txq)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(txq)))
		pinmx_count(pinmx_xmit(skb) ? PINMX_CNT_TX_ERRORS :
			    PINMX_CNT_TX_FRAMES, 1);
}

/* Device @ep is bound to, or NULL; under RCU. */
struct net_device *pinmx_ep_dev_rcu(struct pinmx_endpoint *ep)
{
	struct pinmx_iface *iface = rcu_dereference(ep->iface);

	return iface ? iface->dev : NULL;
}

/* Endpoint bound to @index of @ep's interface, or NULL; under RCU. */
struct pinmx_endpoint *pinmx_iface_peer_rcu(struct pinmx_endpoint *ep,
					    u8 index)
{
	struct pinmx_iface *iface = rcu_dereference(ep->iface);

	return iface ? rcu_dereference(iface->eps[index]) : NULL;
}

/*
 * Header of an answer to frame @f (PULL_REPLY, NACK): from the endpoint
 * and session @f was addressed to, back to its sender.
 */
void pinmx_answer_header(struct pinmx_wire_hdr *n, u8 kind,
			 const struct pinmx_wire_hdr *f, u32 payload_len)
{
	pinmx_mxoe_header(n, kind, f->src_ep, f->dst_ep,
			  be32_to_cpu(f->src_session),
			  be32_to_cpu(f->dst_session), payload_len);
}

/**
 * pinmx_nack_queue - queue a NACK refusing frame @f; softirq, RCU
 * @txq: where the NACK is queued for pinmx_frame_xmit().
 * @dev: interface @f came in on.
 * @f: the refused frame's header, checked; a whole PULL if it is one.
 * @src_mac: its sender's interface address.
 * @reason: enum pinmx_nack_reason.
 * @where: segment, address and errno to report, or NULL.
 *
 * Never a NACK to a NACK, nor to a frame that named no session.
 */
void pinmx_nack_queue(struct sk_buff_head *txq, struct net_device *dev,
		      const struct pinmx_wire_hdr *f, const u8 *src_mac,
		      u8 reason, const struct pinmx_fault *where)
{
	struct pinmx_wire_nack *n;
	struct sk_buff *nack;

	if (f->kind == PINMX_KIND_NACK || !f->dst_session)
		return;
	nack = pinmx_frame_alloc(dev, sizeof(*n));
	if (!nack)
		return;
	n = (struct pinmx_wire_nack *)nack->data;
	pinmx_answer_header(&n->hdr, PINMX_KIND_NACK, f, 0);
	n->reason = reason;
	n->refused_kind = f->kind;
	n->refused_seq = f->seq;
	if (f->kind == PINMX_KIND_PULL) {
		const struct pinmx_wire_pull *pull =
			container_of(f, struct pinmx_wire_pull, hdr);

		n->refused_handle = pull->handle;
		n->region_id = pull->region_id;
	} else if (f->kind == PINMX_KIND_PUT || f->kind == PINMX_KIND_ATOMIC) {
		/* An ATOMIC has its seq and region id where a PUT has them. */
		const struct pinmx_wire_put *put =
			container_of(f, struct pinmx_wire_put, hdr);

		n->refused_handle = put->handle;
		n->region_id = put->region_id;
	}
	if (where) {
		n->segment = cpu_to_be16(where->segment);
		n->address = cpu_to_be64(where->address);
		n->error = cpu_to_be32(-where->err);
	}
	pinmx_count(PINMX_CNT_NACKS_SENT, 1);
	pinmx_frame_queue(txq, nack, dev, src_mac);
}

/* Answer a frame refused by the addressing check with a NACK. */
static void pinmx_nack_refused(struct sk_buff *skb, struct net_device *dev,
			       const struct pinmx_wire_hdr *f, u8 reason)
{
	struct sk_buff_head txq;

	__skb_queue_head_init(&txq);
	pinmx_nack_queue(&txq, dev, f, eth_hdr(skb)->h_source, reason, NULL);
	pinmx_frame_xmit(&txq);
}

/* Hand a frame for @ep to the pull engine or the ring; 0 or a counter. */
static int pinmx_deliver(struct pinmx_endpoint *ep, struct sk_buff *skb,
			 struct net_device *dev,
			 const union pinmx_wire_frame *f, u32 len)
{
	switch (f->hdr.kind) {
	case PINMX_KIND_PULL:
		return pinmx_serve_pull_frame(ep, skb, &f->pull, dev);
	case PINMX_KIND_PULL_REPLY:
		return pinmx_pull_reply(ep, skb, &f->reply, dev);
	case PINMX_KIND_PUT:
		return pinmx_put_frame(ep, skb, &f->put, dev);
	case PINMX_KIND_PUT_ACK:
		return pinmx_put_ack(ep, &f->put_ack, dev);
	case PINMX_KIND_ATOMIC:
		return pinmx_atomic_frame(ep, skb, &f->atomic, dev);
	case PINMX_KIND_ATOMIC_REPLY:
		return pinmx_atomic_reply(ep, &f->atomic_reply);
	case PINMX_KIND_NACK:
		if (f->nack.refused_kind == PINMX_KIND_PULL)
			return pinmx_pull_nack(ep, &f->nack);
		if (f->nack.refused_kind == PINMX_KIND_PUT)
			return pinmx_put_nack(ep, &f->nack);
		if (f->nack.refused_kind == PINMX_KIND_ATOMIC)
			return pinmx_atomic_nack(ep, &f->nack);
		break;
	}
	return pinmx_ring_push(ep, PINMX_EVENT_FRAME, skb->dev->ifindex,
			       eth_hdr(skb)->h_source, NULL, skb, len);
}

/* Checks 1-8 and delivery; 0 or the drop counter. Under RCU. */
static int pinmx_rcv_frame(struct sk_buff *skb, struct net_device *dev)
{
	union pinmx_wire_frame f;
	struct pinmx_endpoint *ep;
	struct pinmx_iface *iface;
	u32 len = skb->len;
	int drop;

	iface = pinmx_iface_find(dev);
	if (!iface)
		return PINMX_CNT_RX_NOT_ATTACHED;
	if (skb_copy_bits(skb, 0, &f, min_t(u32, len, sizeof(f))))
		return PINMX_CNT_RX_SHORT;
	drop = pinmx_frame_check(&f, len);
	if (drop)
		return drop;
	ep = rcu_dereference(iface->eps[f.hdr.dst_ep]);
	if (!ep) {
		/* A puller or putter learns at once that its peer is gone. */
		if (f.hdr.kind == PINMX_KIND_PULL || f.hdr.kind == PINMX_KIND_PUT ||
		    f.hdr.kind == PINMX_KIND_ATOMIC)
			pinmx_nack_refused(skb, dev, &f.hdr,
					   PINMX_NACK_BAD_ENDPOINT);
		return PINMX_CNT_RX_WRONG_ENDPOINT;
	}
	if (f.hdr.kind != PINMX_KIND_CONNECT_REQUEST &&
	    be32_to_cpu(f.hdr.dst_session) != ep->session) {
		pinmx_nack_refused(skb, dev, &f.hdr, PINMX_NACK_BAD_SESSION);
		return PINMX_CNT_RX_WRONG_SESSION;
	}
	return pinmx_deliver(ep, skb, dev, &f, len);
}

static int pinmx_rcv(struct sk_buff *skb, struct net_device *dev,
		     struct packet_type *pt, struct net_device *orig_dev)
{
	int drop;

	if (skb->pkt_type == PACKET_OTHERHOST) {
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	drop = pinmx_rcv_frame(skb, dev);
	if (drop) {
		pinmx_count(drop, 1);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	pinmx_count(PINMX_CNT_RX_FRAMES, 1);
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

/*
 * debugfs "interfaces": one line per attached interface, then one per endpoint
 * bound to it (what pinmx-admin shows as attached interfaces and endpoints):
 *   iface NAME ifindex N mtu N mac XX:XX:XX:XX:XX:XX
 *   endpoint NAME INDEX id N session 0xHEX mode N
 */
void pinmx_net_show(struct seq_file *m)
{
	struct pinmx_iface *iface;
	struct pinmx_endpoint *ep;
	int i;

	rcu_read_lock();
	list_for_each_entry_rcu(iface, &pinmx_ifaces, node) {
		seq_printf(m, "iface %s ifindex %d mtu %u mac %pM\n",
			   iface->dev->name, iface->dev->ifindex,
			   READ_ONCE(iface->dev->mtu), iface->dev->dev_addr);
		for (i = 0; i < PINMX_NR_EP_INDEX; i++) {
			ep = rcu_dereference(iface->eps[i]);
			if (ep)
				seq_printf(m, "endpoint %s %d id %u session 0x%08x mode %u\n",
					   iface->dev->name, i, ep->id,
					   READ_ONCE(ep->session), READ_ONCE(ep->mode));
		}
	}
	rcu_read_unlock();
}

static struct packet_type pinmx_packet_type __read_mostly = {
	.type = cpu_to_be16(PINMX_ETH_P_MXOE),
	.func = pinmx_rcv,
};

/* Attach @dev; under RTNL. */
static int pinmx_iface_attach(struct net_device *dev)
{
	struct pinmx_iface *iface;

	if (dev->addr_len != ETH_ALEN || dev->hard_header_len != ETH_HLEN)
		return -EINVAL;
	if (pinmx_iface_find(dev))
		return 0;
	iface = kzalloc(sizeof(*iface), GFP_KERNEL);
	if (!iface)
		return -ENOMEM;
	iface->dev = dev;
	list_add_tail_rcu(&iface->node, &pinmx_ifaces);
	return 0;
}

/* Detach @dev and unbind its endpoints; under RTNL. */
static void pinmx_iface_detach(struct pinmx_iface *iface)
{
	struct pinmx_endpoint *ep;
	int i;

	list_del_rcu(&iface->node);
	for (i = 0; i < PINMX_NR_EP_INDEX; i++) {
		ep = rtnl_dereference(iface->eps[i]);
		if (ep)
			RCU_INIT_POINTER(ep->iface, NULL);
	}
	kfree_rcu(iface, rcu);
}

static int pinmx_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct pinmx_iface *iface;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	iface = pinmx_iface_find(dev);
	if (iface)
		pinmx_iface_detach(iface);
	return NOTIFY_DONE;
}

static struct notifier_block pinmx_netdev_nb = {
	.notifier_call = pinmx_netdev_event,
};

/* Attach an interface of @net by name; under RTNL. */
static int pinmx_attach_name(struct net *net, const char *name,
			     struct net_device **devp)
{
	struct net_device *dev = __dev_get_by_name(net, name);
	int err;

	if (!dev)
		return -ENODEV;
	err = pinmx_iface_attach(dev);
	if (!err && devp)
		*devp = dev;
	return err;
}

long pinmx_ioc_attach(void __user *uarg)
{
	struct net_device *dev;
	struct pinmx_attach req;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.reserved || !memchr(req.ifname, 0, sizeof(req.ifname)))
		return -EINVAL;
	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	rtnl_lock();
	err = pinmx_attach_name(current->nsproxy->net_ns, req.ifname, &dev);
	if (!err) {
		req.ifindex = dev->ifindex;
		req.mtu = dev->mtu;
	}
	rtnl_unlock();
	if (err)
		return err;
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}

/* Attached interface of @net called @name; under RTNL. */
static struct pinmx_iface *pinmx_iface_by_name(struct net *net,
					       const char *name)
{
	struct pinmx_iface *iface;

	list_for_each_entry(iface, &pinmx_ifaces, node)
		if (net_eq(dev_net(iface->dev), net) &&
		    !strcmp(iface->dev->name, name))
			return iface;
	return NULL;
}

/* Bind @ep to @req->index of the named interface; under RTNL. */
static int pinmx_bind_locked(struct pinmx_endpoint *ep, void *ring,
			     struct pinmx_pull_server *server,
			     struct pinmx_put_server *put_server,
			     struct pinmx_atomic_origin *origin,
			     struct pinmx_atomic_target *target,
			     struct pinmx_bind *req)
{
	struct pinmx_iface *iface;
	u32 session;

	if (ep->ring)
		return -EALREADY;
	iface = pinmx_iface_by_name(current->nsproxy->net_ns, req->ifname);
	if (!iface)
		return -ENODEV;
	if (rtnl_dereference(iface->eps[req->index]))
		return -EADDRINUSE;
	do {
		session = get_random_u32();
	} while (!session);
	ep->index = req->index;
	ep->session = session;
	ep->server = server;
	ep->put_server = put_server;
	ep->atomic_origin = origin;
	ep->atomic_target = target;
	smp_store_release(&ep->ring, ring);
	rcu_assign_pointer(ep->iface, iface);
	rcu_assign_pointer(iface->eps[req->index], ep);
	req->session = session;
	memcpy(req->mac, iface->dev->dev_addr, ETH_ALEN);
	req->ifindex = iface->dev->ifindex;
	req->mtu = READ_ONCE(iface->dev->mtu);
	return 0;
}

long pinmx_ioc_bind(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_atomic_origin *origin;
	struct pinmx_atomic_target *target;
	struct pinmx_put_server *put_server;
	struct pinmx_pull_server *server;
	struct pinmx_bind req;
	void *ring;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.pad || req.pad2 ||
	    req.index >= PINMX_NR_EP_INDEX ||
	    !memchr(req.ifname, 0, sizeof(req.ifname)))
		return -EINVAL;
	ring = vmalloc_user(PINMX_RING_BYTES);
	server = pinmx_pull_server_alloc(ep);
	put_server = pinmx_put_server_alloc(ep);
	origin = pinmx_atomic_origin_alloc(ep);
	target = pinmx_atomic_target_alloc();
	err = -ENOMEM;
	if (!ring || !server || !put_server || !origin || !target)
		goto err_free;
	rtnl_lock();
	err = pinmx_bind_locked(ep, ring, server, put_server, origin, target,
				&req);
	rtnl_unlock();
	if (err)
		goto err_free;
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;

err_free:
	if (server)
		pinmx_pull_server_free(server);
	if (put_server)
		pinmx_put_server_free(put_server);
	if (origin)
		pinmx_atomic_origin_free(origin);
	if (target)
		pinmx_atomic_target_free(target);
	vfree(ring);
	return err;
}

/* The device @ep is bound to, with a reference; ERR_PTR if none. */
static struct net_device *pinmx_ep_dev_get(struct pinmx_endpoint *ep)
{
	struct net_device *dev = ERR_PTR(-ENETDOWN);
	struct pinmx_iface *iface;

	if (!smp_load_acquire(&ep->ring))
		return ERR_PTR(-ENOTCONN);
	rcu_read_lock();
	iface = rcu_dereference(ep->iface);
	if (iface) {
		dev = iface->dev;
		dev_hold(dev);
	}
	rcu_read_unlock();
	return dev;
}

/* Checks a header to send from @ep: kind, length, identity, checks 1-7. */
static int pinmx_send_check(struct pinmx_endpoint *ep,
			    const union pinmx_wire_frame *f, u32 header_len,
			    u32 frame_len)
{
	u8 kind = f->hdr.kind;

	if (!kind || kind > PINMX_KIND_MAX ||
	    header_len != pinmx_header_bytes[kind])
		return -EINVAL;
	if (kind >= PINMX_KIND_PUT || kind == PINMX_KIND_PULL ||
	    kind == PINMX_KIND_PULL_REPLY)
		return -EPROTOTYPE;
	if (f->hdr.src_ep != ep->index ||
	    be32_to_cpu(f->hdr.src_session) != ep->session)
		return -EINVAL;
	return pinmx_frame_check(f, frame_len) ? -EINVAL : 0;
}

/* Builds the frame of @req in a new skb for @dev; ERR_PTR on failure. */
static struct sk_buff *pinmx_send_build(struct pinmx_endpoint *ep,
					struct net_device *dev,
					const struct pinmx_send *req)
{
	u32 len = req->header_len + req->payload_len;
	u32 padded = max_t(u32, len, PINMX_MXOE_MIN_BYTES);
	struct sk_buff *skb;
	int hlen = LL_RESERVED_SPACE(dev);
	union pinmx_wire_frame *f;
	int err;

	if (len > READ_ONCE(dev->mtu))
		return ERR_PTR(-EMSGSIZE);
	skb = alloc_skb(hlen + padded + dev->needed_tailroom, GFP_KERNEL);
	if (!skb)
		return ERR_PTR(-ENOMEM);
	skb_reserve(skb, hlen);
	skb_reset_network_header(skb);
	f = skb_put_zero(skb, padded);
	err = -EFAULT;
	if (copy_from_user(f, u64_to_user_ptr(req->header), req->header_len))
		goto err_free;
	if (req->payload_len &&
	    copy_from_user((u8 *)f + req->header_len,
			   u64_to_user_ptr(req->payload), req->payload_len))
		goto err_free;
	err = -EINVAL;
	if (be32_to_cpu(f->hdr.payload_len) != req->payload_len)
		goto err_free;
	err = pinmx_send_check(ep, f, req->header_len, padded);
	if (err)
		goto err_free;
	skb->dev = dev;
	skb->protocol = htons(PINMX_ETH_P_MXOE);
	err = -EINVAL;
	if (dev_hard_header(skb, dev, PINMX_ETH_P_MXOE, req->dst_mac, NULL,
			    skb->len) < 0)
		goto err_free;
	return skb;

err_free:
	kfree_skb(skb);
	return ERR_PTR(err);
}

/* What a RNDV asks of its region: id, offset, length. */
struct pinmx_rndv_ref {
	u32 region;
	u64 offset;
	u64 len;
};

/*
 * A RNDV is on its way: pin what the peer will pull, overlapped with the
 * frame's flight. Errors are the pull's to report (NACK SEGMENT_FAULT).
 */
static void pinmx_rndv_sent(struct pinmx_endpoint *ep,
			    const struct pinmx_rndv_ref *ref)
{
	struct pinmx_region *region = pinmx_get_region(ep, ref->region, true);

	if (IS_ERR(region))
		return;
	if (region->mode == PINMX_PIN_OVERLAPPED)
		pinmx_region_kick(region);
	else if (ref->len && ref->offset + ref->len <= region->length)
		pinmx_region_ensure(region, ref->offset, ref->len, false);
	pinmx_region_put_user(region);
}

long pinmx_ioc_send(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_rndv_ref rndv = { };
	struct net_device *dev;
	struct pinmx_send req;
	const struct pinmx_wire_rndv *f;
	struct sk_buff *skb;
	bool is_rndv;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.pad || req.reserved)
		return -EINVAL;
	if (req.header_len < PINMX_MXOE_COMMON_BYTES ||
	    req.header_len > PINMX_WIRE_MAX_HEADER)
		return -EINVAL;
	if (req.payload_len > PINMX_MXOE_MAX_BYTES - req.header_len)
		return -EMSGSIZE;
	dev = pinmx_ep_dev_get(ep);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	err = -ENETDOWN;
	if (!(dev->flags & IFF_UP))
		goto out_put;
	skb = pinmx_send_build(ep, dev, &req);
	err = PTR_ERR_OR_ZERO(skb);
	if (err)
		goto out_put;
	f = (const struct pinmx_wire_rndv *)skb_network_header(skb);
	is_rndv = f->hdr.kind == PINMX_KIND_RNDV;
	if (is_rndv) {
		rndv.len = be64_to_cpu(f->msg_len);
		rndv.offset = be64_to_cpu(f->region_offset);
		rndv.region = be32_to_cpu(f->region_id);
	}
	err = pinmx_xmit(skb);
	if (!err)
		pinmx_count(PINMX_CNT_TX_FRAMES, 1);
out_put:
	dev_put(dev);
	if (!err && is_rndv)
		pinmx_rndv_sent(ep, &rndv);
	return err;
}

/* Events waiting in @ep's ring; the consumer index is the user's. */
static u32 pinmx_ring_ready(struct pinmx_endpoint *ep)
{
	struct pinmx_ring_ctl *ctl = ep->ring;

	return min_t(u32, READ_ONCE(ep->ring_prod) - READ_ONCE(ctl->consumer),
		     PINMX_RING_SLOTS);
}

long pinmx_ioc_wait(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_wait req;
	long err = 0;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.pad)
		return -EINVAL;
	if (!smp_load_acquire(&ep->ring))
		return -ENOTCONN;
	if (req.timeout_ns == U64_MAX)
		err = wait_event_interruptible(ep->ring_wq,
					       pinmx_ring_ready(ep));
	else if (req.timeout_ns)
		err = wait_event_interruptible_hrtimeout(ep->ring_wq,
				pinmx_ring_ready(ep),
				ns_to_ktime(min_t(u64, req.timeout_ns, KTIME_MAX)));
	if (err == -ERESTARTSYS)
		return -EINTR;
	req.ready = pinmx_ring_ready(ep);
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}

int pinmx_net_mmap(struct pinmx_endpoint *ep, struct vm_area_struct *vma)
{
	void *ring = smp_load_acquire(&ep->ring);

	if (!ring)
		return -ENOTCONN;
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PINMX_RING_BYTES ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	return remap_vmalloc_range(vma, ring, 0);
}

__poll_t pinmx_net_poll(struct pinmx_endpoint *ep, struct file *file,
			struct poll_table_struct *wait)
{
	struct pinmx_ring_ctl *ctl = smp_load_acquire(&ep->ring);

	poll_wait(file, &ep->ring_wq, wait);
	if (ctl && pinmx_ring_ready(ep))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

void pinmx_net_endpoint_init(struct pinmx_endpoint *ep)
{
	spin_lock_init(&ep->ring_lock);
	init_waitqueue_head(&ep->ring_wq);
}

void pinmx_net_release(struct pinmx_endpoint *ep)
{
	struct pinmx_iface *iface;

	if (!ep->ring)
		return;
	rtnl_lock();
	iface = rtnl_dereference(ep->iface);
	if (iface)
		RCU_INIT_POINTER(iface->eps[ep->index], NULL);
	rtnl_unlock();
	/* Receive softirqs may still be using the endpoint. */
	synchronize_net();
	pinmx_pull_server_free(ep->server);
	pinmx_put_server_free(ep->put_server);
	pinmx_pulls_release(ep);
	pinmx_puts_release(ep);
	pinmx_atomic_origin_free(ep->atomic_origin);
	pinmx_atomic_target_free(ep->atomic_target);
	vfree(ep->ring);
}

/* Attaches the interfaces named by the ifnames= parameter; under RTNL. */
static int pinmx_attach_param(void)
{
	char *names, *cur, *name;
	int err = 0;

	if (!pinmx_ifnames || !*pinmx_ifnames)
		return 0;
	names = kstrdup(pinmx_ifnames, GFP_KERNEL);
	if (!names)
		return -ENOMEM;
	cur = names;
	while (!err && (name = strsep(&cur, ",")))
		if (*name)
			err = pinmx_attach_name(&init_net, name, NULL);
	kfree(names);
	if (err)
		pr_err("pinmx: cannot attach ifnames=%s: %d\n", pinmx_ifnames,
		       err);
	return err;
}

static void pinmx_detach_all(void)
{
	struct pinmx_iface *iface, *next;

	rtnl_lock();
	list_for_each_entry_safe(iface, next, &pinmx_ifaces, node)
		pinmx_iface_detach(iface);
	rtnl_unlock();
}

int pinmx_net_init(void)
{
	int err;

	err = register_netdevice_notifier(&pinmx_netdev_nb);
	if (err)
		return err;
	rtnl_lock();
	err = pinmx_attach_param();
	rtnl_unlock();
	if (err)
		goto err_detach;
	dev_add_pack(&pinmx_packet_type);
	return 0;

err_detach:
	pinmx_detach_all();
	unregister_netdevice_notifier(&pinmx_netdev_nb);
	return err;
}

void pinmx_net_exit(void)
{
	dev_remove_pack(&pinmx_packet_type);
	pinmx_detach_all();
	unregister_netdevice_notifier(&pinmx_netdev_nb);
	/* kfree_rcu() of the interfaces must not outlive the module. */
	rcu_barrier();
}
