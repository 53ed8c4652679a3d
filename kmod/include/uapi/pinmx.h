/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pinmx user ABI: /dev/pinmx ioctls.
 *
 * Each open file of /dev/pinmx is one endpoint. An endpoint must say hello
 * (PINMX_IOC_HELLO with PINMX_ABI_VERSION) before any ioctl other than
 * PINMX_IOC_INFO and PINMX_IOC_COUNTERS; until then those fail with EBADFD.
 *
 * Every struct is made of fixed-width fields with explicit padding; every
 * reserved or padding field must be zero on input (EINVAL otherwise) so it
 * can carry meaning in a later ABI version.
 *
 * Ioctl numbers 0x01-0x1f belong to the pinning core. Numbers 0x20-0x3f
 * belong to the networking part (interface attach, endpoint bind, frame
 * send, event ring mapped with mmap), announced by the PINMX_FEATURE_NET_*
 * bits; a module that does not set a bit answers its ioctls with ENOTTY.
 *
 * Networking carries MXoE frames (docs/wire-protocol.md) in Ethernet frames
 * of EtherType PINMX_ETH_P_MXOE. Frames are sent by PINMX_IOC_SEND and
 * received into the endpoint's event ring (struct pinmx_ring_ctl); eager
 * payloads land in the ring slots with their headers. PINMX_IOC_PULL starts
 * a pull that the module runs by itself (PULL and PULL_REPLY frames never
 * reach user space); its end arrives as a PINMX_EVENT_PULL_* event. PULLs
 * from peers are served in the receive softirq straight from the pinned
 * pages of the named region, without the serving process doing anything.
 *
 * ABI version 4: room for 128 counters, the put_stale counter,
 * PINMX_IOC_PULLV, explicit padding in struct pinmx_put and struct
 * pinmx_atomic; PINMX_IOC_PULL_CANCEL where PINMX_FEATURE_NET_PULL_CANCEL
 * announces it and PINMX_IOC_HOLD_WRITES where PINMX_FEATURE_NET_HOLD_WRITES
 * does (additions only: the version stays). Version 3:
 * regions exposed with a random key (PINMX_DECLARE_REMOTE,
 * struct pinmx_region_info.key, struct pinmx_pull.remote_key), the
 * BAD_KEY pull status and the key counters; PINMX_IOC_PUT and its events
 * and counters; PINMX_IOC_ATOMIC, its events and counters. Version 2: the pull engine,
 * the wait ioctl, 64 counters, the MTU in struct pinmx_bind.
 */
#ifndef _UAPI_LINUX_PINMX_H
#define _UAPI_LINUX_PINMX_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define PINMX_ABI_VERSION	4
#define PINMX_IOC_MAGIC		0xB7

/* most segments one region may be declared with. */
#define PINMX_MAX_SEGMENTS	256
/* most regions one endpoint may hold at once. */
#define PINMX_MAX_REGIONS	4096
/* largest total length of one region, in bytes (16 GiB). */
#define PINMX_MAX_REGION_BYTES	(1ULL << 34)

/* Feature bits reported in pinmx_info.features. */
#define PINMX_FEATURE_PIN_DECLARE	(1ULL << 0)	/* pin at declaration */
#define PINMX_FEATURE_PIN_ON_DEMAND	(1ULL << 1)	/* pin on first use */
#define PINMX_FEATURE_PIN_OVERLAPPED	(1ULL << 2)	/* progressive pinning */
#define PINMX_FEATURE_LOCAL_COPY	(1ULL << 3)	/* region-to-region copy */
#define PINMX_FEATURE_INVALIDATE	(1ULL << 4)	/* MMU-notifier unpinning */
#define PINMX_FEATURE_BUDGET		(1ULL << 5)	/* global pinned-page budget */
/* PINMX_IOC_ATTACH and PINMX_IOC_BIND */
#define PINMX_FEATURE_NET_IFACE		(1ULL << 16)
/* PINMX_IOC_SEND of eager and control frames */
#define PINMX_FEATURE_NET_SEND		(1ULL << 17)
/* received frames in the mmap'ed event ring; poll() */
#define PINMX_FEATURE_NET_EVENT_RING	(1ULL << 18)
/* PINMX_IOC_PULL, PULLs served in softirq, PINMX_EVENT_PULL_* events */
#define PINMX_FEATURE_NET_PULL		(1ULL << 19)
/* PINMX_IOC_WAIT */
#define PINMX_FEATURE_NET_WAIT		(1ULL << 20)
/* pulls between endpoints of one interface copy region to region */
#define PINMX_FEATURE_NET_LOCAL_PULL	(1ULL << 21)
/* PINMX_IOC_PUT, PUTs served in softirq, PINMX_EVENT_PUT_* events */
#define PINMX_FEATURE_NET_PUT		(1ULL << 22)
/* PINMX_IOC_ATOMIC, atomics served in softirq, PINMX_EVENT_ATOMIC_* events */
#define PINMX_FEATURE_NET_ATOMIC	(1ULL << 23)
/* PINMX_IOC_PULL_CANCEL, the PINMX_PULL_CANCELLED status */
#define PINMX_FEATURE_NET_PULL_CANCEL	(1ULL << 24)
/* PINMX_IOC_HOLD_WRITES */
#define PINMX_FEATURE_NET_HOLD_WRITES	(1ULL << 25)

/* EtherType of MXoE frames. */
#define PINMX_ETH_P_MXOE	0x86DF
/* MXoE protocol version (common header byte 1). */
#define PINMX_MXOE_VERSION	1
/* bytes of the MXoE common header. */
#define PINMX_MXOE_COMMON_BYTES	32
/* shorter MXoE frames are padded by Ethernet to this length. */
#define PINMX_MXOE_MIN_BYTES	46
/* largest MXoE frame (header + payload) sent or received: the link limit. */
#define PINMX_MXOE_MAX_BYTES	1500

/**
 * enum pinmx_frame_kind - MXoE frame kind codes (common header byte 0)
 * @PINMX_KIND_CONNECT_REQUEST: 48-byte header, no payload.
 * @PINMX_KIND_CONNECT_REPLY: 48-byte header, no payload.
 * @PINMX_KIND_TINY: 48-byte header, 0..32 payload bytes.
 * @PINMX_KIND_SMALL: 48-byte header, 0..128 payload bytes.
 * @PINMX_KIND_MEDIUM_FRAG: 56-byte header, 1..link limit payload bytes.
 * @PINMX_KIND_RNDV: 64-byte header, no payload.
 * @PINMX_KIND_PULL: 72-byte header; no payload, or the 8-byte key of an
 *	exposed region.
 * @PINMX_KIND_PULL_REPLY: 48-byte header, 1..link limit payload bytes.
 * @PINMX_KIND_NOTIFY: 48-byte header, no payload.
 * @PINMX_KIND_ACK: 40-byte header, no payload.
 * @PINMX_KIND_NACK: 64-byte header, no payload.
 * @PINMX_KIND_PUT: 72-byte header, 1..link limit payload bytes (pinmx.ko's
 *	put engine).
 * @PINMX_KIND_PUT_ACK: 48-byte header, no payload.
 * @PINMX_KIND_ATOMIC: 64-byte header, 8-byte big-endian operands.
 * @PINMX_KIND_ATOMIC_REPLY: 48-byte header, no payload.
 * @PINMX_KIND_MAX: highest kind code.
 */
enum pinmx_frame_kind {
	PINMX_KIND_CONNECT_REQUEST	= 1,
	PINMX_KIND_CONNECT_REPLY	= 2,
	PINMX_KIND_TINY			= 3,
	PINMX_KIND_SMALL		= 4,
	PINMX_KIND_MEDIUM_FRAG		= 5,
	PINMX_KIND_RNDV			= 6,
	PINMX_KIND_PULL			= 7,
	PINMX_KIND_PULL_REPLY		= 8,
	PINMX_KIND_NOTIFY		= 9,
	PINMX_KIND_ACK			= 10,
	PINMX_KIND_NACK			= 11,
	PINMX_KIND_PUT			= 12,
	PINMX_KIND_PUT_ACK		= 13,
	PINMX_KIND_ATOMIC		= 14,
	PINMX_KIND_ATOMIC_REPLY		= 15,
	PINMX_KIND_MAX			= 15,
};

/**
 * enum pinmx_pin_mode - when a region's pages get pinned
 * @PINMX_PIN_DECLARE: all pages are pinned by PINMX_IOC_DECLARE; a page that
 *	cannot be pinned fails the declaration.
 * @PINMX_PIN_ON_DEMAND: pages are pinned when a copy or PINMX_IOC_PIN first
 *	needs them, and only those.
 * @PINMX_PIN_OVERLAPPED: the first use starts a worker that pins the whole
 *	region from its start in chunks growing from chunk_min_pages to
 *	chunk_max_pages; a copy proceeds over what is pinned and waits where it
 *	reaches past the pinned length (counted as PINMX_CNT_OVERLAP_WAITS).
 * @PINMX_PIN_NR_MODES: number of modes.
 *
 * In every mode pages may be unpinned at any time (invalidation, budget
 * eviction, PINMX_IOC_UNPIN); the region stays declared and the next use
 * pins again.
 */
enum pinmx_pin_mode {
	PINMX_PIN_DECLARE	= 0,
	PINMX_PIN_ON_DEMAND	= 1,
	PINMX_PIN_OVERLAPPED	= 2,
	PINMX_PIN_NR_MODES	= 3,
};

/**
 * struct pinmx_info - PINMX_IOC_INFO: what this module offers
 * @abi_version: PINMX_ABI_VERSION of the module.
 * @pin_mode: this endpoint's pin mode (enum pinmx_pin_mode).
 * @features: PINMX_FEATURE_* bits.
 * @max_segments: PINMX_MAX_SEGMENTS.
 * @max_regions: PINMX_MAX_REGIONS.
 * @endpoint_id: node-wide id of this endpoint (0 before hello).
 * @page_size: kernel page size in bytes.
 * @chunk_min_pages: this endpoint's first overlapped chunk, in pages.
 * @chunk_max_pages: this endpoint's largest overlapped chunk, in pages.
 * @budget_pages: global pinned-page budget (module parameter).
 * @max_region_bytes: PINMX_MAX_REGION_BYTES.
 * @reserved: zero.
 */
struct pinmx_info {
	__u32 abi_version;
	__u32 pin_mode;
	__u64 features;
	__u32 max_segments;
	__u32 max_regions;
	__u32 endpoint_id;
	__u32 page_size;
	__u32 chunk_min_pages;
	__u32 chunk_max_pages;
	__u64 budget_pages;
	__u64 max_region_bytes;
	__u64 reserved[3];
};

/**
 * struct pinmx_hello - PINMX_IOC_HELLO: bind the file to this ABI
 * @abi_version: in: PINMX_ABI_VERSION the caller was built against; any
 *	other value fails with EPROTONOSUPPORT. A second hello fails with
 *	EALREADY.
 * @endpoint_id: out: node-wide endpoint id.
 * @reserved: zero.
 */
struct pinmx_hello {
	__u32 abi_version;
	__u32 endpoint_id;
	__u64 reserved;
};

/**
 * struct pinmx_segment - one contiguous piece of a region
 * @vaddr: start address in the declaring process; any alignment.
 * @len: length in bytes, not zero.
 */
struct pinmx_segment {
	__u64 vaddr;
	__u64 len;
};

/* pinmx_declare.flags */
#define PINMX_DECLARE_WRITABLE	(1U << 0)	/* may be a copy destination */
/*
 * Exposed: the declaration draws a random non-zero 64-bit key (read back by
 * PINMX_IOC_REGION_INFO) that every remote access must carry: a PULL of the
 * region without it or with another value is refused with NACK BAD_KEY and
 * counted, and nothing is read. Needs PINMX_DECLARE_WRITABLE (EINVAL): the
 * key is also what remote writes and atomics are checked against.
 */
#define PINMX_DECLARE_REMOTE	(1U << 1)

/**
 * struct pinmx_declare - PINMX_IOC_DECLARE: declare a region
 * @segments: in: user pointer to @nr_segments struct pinmx_segment.
 * @nr_segments: in: 1..PINMX_MAX_SEGMENTS (E2BIG above, EINVAL for 0).
 * @flags: in: PINMX_DECLARE_*.
 * @region_id: out: id of the region within this endpoint (>= 1).
 * @pad: zero.
 * @length: out: total length in bytes (sum of the segment lengths).
 *
 * Region offsets run through the segments in order. Segments are checked
 * for a null (EFAULT) or kernel-half (EFAULT) address, zero length (EINVAL)
 * and wrap-around (EOVERFLOW), and the region for a total length above
 * PINMX_MAX_REGION_BYTES (EFBIG); whether they are mapped is checked by the
 * first use, which fails with EFAULT if not. The region is usable only by
 * the process (mm) that declared it, except as the source of a copy by a
 * holder of this endpoint's file (see struct pinmx_copy).
 */
struct pinmx_declare {
	__u64 segments;
	__u32 nr_segments;
	__u32 flags;
	__u32 region_id;
	__u32 pad;
	__u64 length;
};

/**
 * struct pinmx_region_ref - PINMX_IOC_DESTROY: name a region
 * @region_id: region to destroy; ENOENT if unknown, EACCES from another mm.
 * @pad: zero.
 */
struct pinmx_region_ref {
	__u32 region_id;
	__u32 pad;
};

/**
 * struct pinmx_range - PINMX_IOC_PIN / PINMX_IOC_UNPIN: a byte range
 * @region_id: region of this endpoint.
 * @pad: zero.
 * @offset: start offset in the region.
 * @len: length in bytes; not zero; offset + len must not pass the region's
 *	end (EINVAL) nor wrap (EOVERFLOW).
 *
 * PIN pins every page touching the range now, whatever the pin mode; UNPIN
 * drops the pins of those pages.
 */
struct pinmx_range {
	__u32 region_id;
	__u32 pad;
	__u64 offset;
	__u64 len;
};

/**
 * struct pinmx_region_info - PINMX_IOC_REGION_INFO: state of one region
 * @region_id: in: region of this endpoint.
 * @nr_segments: out.
 * @length: out: bytes.
 * @nr_pages: out: pages the region touches.
 * @pinned_pages: out: pages pinned now.
 * @pin_mode: out: mode fixed at declaration.
 * @flags: out: PINMX_DECLARE_* flags.
 * @key: out: the region's key if declared PINMX_DECLARE_REMOTE, else 0;
 *	only the declaring process can read it (EACCES), so handing it to
 *	peers is the owner's decision. Ignored on input.
 * @reserved: zero.
 */
struct pinmx_region_info {
	__u32 region_id;
	__u32 nr_segments;
	__u64 length;
	__u64 nr_pages;
	__u64 pinned_pages;
	__u32 pin_mode;
	__u32 flags;
	__u64 key;
	__u64 reserved;
};

/**
 * struct pinmx_copy - PINMX_IOC_COPY: copy between two regions of this host
 * @src_fd: in: file descriptor of the source endpoint, or -1 for this
 *	endpoint. Holding the source endpoint's file (inherited or passed over
 *	a unix socket) is what grants read access to its regions; EBADF if it
 *	is not an open /dev/pinmx file.
 * @src_region: in: region of the source endpoint.
 * @src_offset: in: byte offset in the source region.
 * @dst_region: in: writable region of this endpoint declared by the calling
 *	process (EACCES from another process, EPERM if not writable).
 * @flags: zero.
 * @dst_offset: in: byte offset in the destination region.
 * @len: in: bytes to copy, not zero.
 * @reserved: zero.
 *
 * Pages are pinned according to each region's pin mode; the copy runs in
 * the caller's context. Both regions may be the same one.
 */
struct pinmx_copy {
	__s32 src_fd;
	__u32 src_region;
	__u64 src_offset;
	__u32 dst_region;
	__u32 flags;
	__u64 dst_offset;
	__u64 len;
	__u64 reserved;
};

/**
 * struct pinmx_pin_mode_req - PINMX_IOC_SET_PIN_MODE: this endpoint's mode
 * @pin_mode: enum pinmx_pin_mode, used by regions declared afterwards.
 * @chunk_min_pages: first overlapped chunk; 0 for the module default.
 * @chunk_max_pages: largest overlapped chunk; 0 for the module default;
 *	at most 65536 and not below @chunk_min_pages (EINVAL).
 * @pad: zero.
 */
struct pinmx_pin_mode_req {
	__u32 pin_mode;
	__u32 chunk_min_pages;
	__u32 chunk_max_pages;
	__u32 pad;
};

/**
 * enum pinmx_counter - indices into pinmx_counters.value (module-wide)
 * @PINMX_CNT_PIN_CALLS: pin_user_pages_fast calls.
 * @PINMX_CNT_PAGES_PINNED_NOW: pages pinned at this moment.
 * @PINMX_CNT_PAGES_PINNED_TOTAL: pages ever pinned.
 * @PINMX_CNT_PAGES_UNPINNED: pages ever unpinned.
 * @PINMX_CNT_INVALIDATIONS: notifier callbacks that unpinned pages.
 * @PINMX_CNT_INVALIDATE_EAGAIN: non-blockable callbacks answered -EAGAIN.
 * @PINMX_CNT_PIN_RETRIES: pins redone because an invalidation raced them.
 * @PINMX_CNT_OVERLAP_WAITS: copies that waited for the overlapped worker.
 * @PINMX_CNT_BUDGET_EVICTIONS: idle regions unpinned to respect the budget.
 * @PINMX_CNT_COPIES: completed copies.
 * @PINMX_CNT_COPY_BYTES: bytes copied.
 * @PINMX_CNT_REGIONS_NOW: regions declared at this moment.
 * @PINMX_CNT_ERR_FAULT: pins that failed on unmapped or forbidden memory.
 * @PINMX_CNT_ERR_MEMLOCK: pins refused by RLIMIT_MEMLOCK.
 * @PINMX_CNT_ERR_BUDGET: pins refused because nothing could be evicted.
 * @PINMX_CNT_ERR_ACCESS: uses of a region from another process.
 * @PINMX_CNT_ERR_INVAL: ioctls rejected for malformed input.
 * @PINMX_CNT_ERR_NOENT: unknown region ids.
 * @PINMX_CNT_TX_FRAMES: MXoE frames sent.
 * @PINMX_CNT_RX_FRAMES: MXoE frames accepted: put in an event ring, or
 *	taken by the pull engine (PULL, PULL_REPLY, NACK refusing a PULL).
 * @PINMX_CNT_RX_NOT_ATTACHED: frames dropped: interface not attached.
 * @PINMX_CNT_RX_SHORT: frames dropped: shorter than their header [SHORT].
 * @PINMX_CNT_RX_BAD_VERSION: frames dropped: version not 1 [BAD_VERSION].
 * @PINMX_CNT_RX_UNKNOWN_KIND: frames dropped: kind not 1..15 [UNKNOWN_KIND].
 * @PINMX_CNT_RX_BAD_LENGTH: frames dropped: payload length inconsistent
 *	with the frame, the kind or the link limit [BAD_LENGTH].
 * @PINMX_CNT_RX_BAD_FIELD: frames dropped: invalid field [BAD_FIELD].
 * @PINMX_CNT_RX_OUT_OF_RANGE: frames dropped: offset or length out of
 *	range [OUT_OF_RANGE].
 * @PINMX_CNT_RX_WRONG_ENDPOINT: frames dropped: no endpoint bound to the
 *	destination index on the interface [WRONG_ENDPOINT]; a PULL or PUT is
 *	answered with NACK BAD_ENDPOINT so its sender fails at once.
 * @PINMX_CNT_RX_WRONG_SESSION: frames dropped: destination session is not
 *	the endpoint's [WRONG_SESSION]; answered with NACK BAD_SESSION
 *	(never a NACK to a NACK).
 * @PINMX_CNT_RX_RING_FULL: frames dropped: the event ring was full.
 * @PINMX_CNT_PULLS_STARTED: PINMX_IOC_PULL calls that started a pull.
 * @PINMX_CNT_PULLS_DONE: pulls that ended with PINMX_EVENT_PULL_DONE.
 * @PINMX_CNT_PULLS_FAILED: pulls that ended with PINMX_EVENT_PULL_FAILED.
 * @PINMX_CNT_PULL_BYTES: bytes written into local regions by pulls.
 * @PINMX_CNT_PULLS_LOCAL: pulls done as a region-to-region copy between
 *	endpoints of one interface, without frames.
 * @PINMX_CNT_PULL_REQUESTS: PULL frames sent, resends included.
 * @PINMX_CNT_PULL_RESENDS: PULL frames sent again after a timeout.
 * @PINMX_CNT_PULL_TIMEOUTS: pulls failed after the last resend.
 * @PINMX_CNT_PULL_REPLIES_SENT: PULL_REPLY frames served.
 * @PINMX_CNT_PULL_REPLIES_RECEIVED: PULL_REPLY frames written into a
 *	local region.
 * @PINMX_CNT_PULL_DUPLICATES: PULL_REPLY frames dropped: unknown or
 *	finished pull, other peer, or frame already received
 *	[PULL_DUPLICATE_FRAMES].
 * @PINMX_CNT_PULL_BAD_REPLY: PULL_REPLY frames dropped: offset, index or
 *	length not matching their block [BAD_FIELD].
 * @PINMX_CNT_OVERLAP_MISSES: PULL_REPLY frames dropped because the local
 *	pages were not pinned yet (overlapped pinning) [OVERLAP_MISSES].
 * @PINMX_CNT_SERVE_MISSES: PULL requests (or their tails) left unserved
 *	because the served pages were not pinned yet; the puller resends.
 * @PINMX_CNT_NACKS_SENT: NACK frames sent by the module.
 * @PINMX_CNT_TX_ERRORS: frames the module could not send from softirq
 *	(no memory, interface down or gone, queue full).
 * @PINMX_CNT_RX_NO_KEY: remote accesses refused: the region is exposed
 *	and the frame carries no key [NO_KEY]; answered with NACK BAD_KEY.
 * @PINMX_CNT_RX_BAD_KEY: remote accesses refused: the frame's key is not
 *	the exposed region's [BAD_KEY]; answered with NACK BAD_KEY.
 * @PINMX_CNT_RX_NOT_EXPOSED: PUT frames refused: the region is not declared
 *	PINMX_DECLARE_REMOTE [NOT_EXPOSED]; answered with NACK BAD_KEY.
 * @PINMX_CNT_PUTS_STARTED: PINMX_IOC_PUT calls that started a put.
 * @PINMX_CNT_PUTS_DONE: puts that ended with PINMX_EVENT_PUT_DONE.
 * @PINMX_CNT_PUTS_FAILED: puts that ended with PINMX_EVENT_PUT_FAILED.
 * @PINMX_CNT_PUT_FRAMES_SENT: PUT frames sent, resends included.
 * @PINMX_CNT_PUT_RESENDS: PUT frames sent again after a timeout.
 * @PINMX_CNT_PUT_TIMEOUTS: puts failed after the last resend.
 * @PINMX_CNT_PUT_FRAMES_WRITTEN: PUT frames written into a local region
 *	and acknowledged.
 * @PINMX_CNT_PUT_MISSES: PUT frames dropped because the target pages were
 *	not pinned yet [PUT_MISSES]; the origin resends.
 * @PINMX_CNT_PUT_DUPLICATE_ACKS: PUT_ACK or NACK frames for an unknown or
 *	finished put, another peer, or a frame acknowledged already.
 * @PINMX_CNT_ATOMICS_DONE: atomics that ended with PINMX_EVENT_ATOMIC_DONE.
 * @PINMX_CNT_ATOMICS_FAILED: atomics that ended with
 *	PINMX_EVENT_ATOMIC_FAILED.
 * @PINMX_CNT_ATOMICS_APPLIED: ATOMIC requests applied to a local region.
 * @PINMX_CNT_ATOMIC_REPLAYS: ATOMIC requests seen before, not applied
 *	again: answered with the stored answer, or dropped when older than
 *	the peer's window.
 * @PINMX_CNT_ATOMIC_MISSES: ATOMIC requests dropped because the target
 *	page was not pinned yet; the origin resends.
 * @PINMX_CNT_ATOMIC_DUPLICATE_REPLIES: ATOMIC_REPLY or NACK frames for no
 *	atomic in flight.
 * @PINMX_CNT_PUT_STALE: PUT frames dropped unwritten because their put had
 *	ended at the origin (a late duplicate) [PUT_STALE].
 * @PINMX_CNT_PULLS_CANCELLED: pulls ended by PINMX_IOC_PULL_CANCEL (also
 *	counted in PINMX_CNT_PULLS_FAILED).
 * @PINMX_CNT_WRITES_HELD: PUT and ATOMIC frames answered NACK HELD: their
 *	region's owner holds remote writes back (PINMX_IOC_HOLD_WRITES).
 * @PINMX_CNT_NR: number of counters in use.
 */
enum pinmx_counter {
	PINMX_CNT_PIN_CALLS,
	PINMX_CNT_PAGES_PINNED_NOW,
	PINMX_CNT_PAGES_PINNED_TOTAL,
	PINMX_CNT_PAGES_UNPINNED,
	PINMX_CNT_INVALIDATIONS,
	PINMX_CNT_INVALIDATE_EAGAIN,
	PINMX_CNT_PIN_RETRIES,
	PINMX_CNT_OVERLAP_WAITS,
	PINMX_CNT_BUDGET_EVICTIONS,
	PINMX_CNT_COPIES,
	PINMX_CNT_COPY_BYTES,
	PINMX_CNT_REGIONS_NOW,
	PINMX_CNT_ERR_FAULT,
	PINMX_CNT_ERR_MEMLOCK,
	PINMX_CNT_ERR_BUDGET,
	PINMX_CNT_ERR_ACCESS,
	PINMX_CNT_ERR_INVAL,
	PINMX_CNT_ERR_NOENT,
	PINMX_CNT_TX_FRAMES,
	PINMX_CNT_RX_FRAMES,
	PINMX_CNT_RX_NOT_ATTACHED,
	PINMX_CNT_RX_SHORT,
	PINMX_CNT_RX_BAD_VERSION,
	PINMX_CNT_RX_UNKNOWN_KIND,
	PINMX_CNT_RX_BAD_LENGTH,
	PINMX_CNT_RX_BAD_FIELD,
	PINMX_CNT_RX_OUT_OF_RANGE,
	PINMX_CNT_RX_WRONG_ENDPOINT,
	PINMX_CNT_RX_WRONG_SESSION,
	PINMX_CNT_RX_RING_FULL,
	PINMX_CNT_PULLS_STARTED,
	PINMX_CNT_PULLS_DONE,
	PINMX_CNT_PULLS_FAILED,
	PINMX_CNT_PULL_BYTES,
	PINMX_CNT_PULLS_LOCAL,
	PINMX_CNT_PULL_REQUESTS,
	PINMX_CNT_PULL_RESENDS,
	PINMX_CNT_PULL_TIMEOUTS,
	PINMX_CNT_PULL_REPLIES_SENT,
	PINMX_CNT_PULL_REPLIES_RECEIVED,
	PINMX_CNT_PULL_DUPLICATES,
	PINMX_CNT_PULL_BAD_REPLY,
	PINMX_CNT_OVERLAP_MISSES,
	PINMX_CNT_SERVE_MISSES,
	PINMX_CNT_NACKS_SENT,
	PINMX_CNT_TX_ERRORS,
	PINMX_CNT_RX_NO_KEY,
	PINMX_CNT_RX_BAD_KEY,
	PINMX_CNT_RX_NOT_EXPOSED,
	PINMX_CNT_PUTS_STARTED,
	PINMX_CNT_PUTS_DONE,
	PINMX_CNT_PUTS_FAILED,
	PINMX_CNT_PUT_FRAMES_SENT,
	PINMX_CNT_PUT_RESENDS,
	PINMX_CNT_PUT_TIMEOUTS,
	PINMX_CNT_PUT_FRAMES_WRITTEN,
	PINMX_CNT_PUT_MISSES,
	PINMX_CNT_PUT_DUPLICATE_ACKS,
	PINMX_CNT_ATOMICS_DONE,
	PINMX_CNT_ATOMICS_FAILED,
	PINMX_CNT_ATOMICS_APPLIED,
	PINMX_CNT_ATOMIC_REPLAYS,
	PINMX_CNT_ATOMIC_MISSES,
	PINMX_CNT_ATOMIC_DUPLICATE_REPLIES,
	PINMX_CNT_PUT_STALE,
	PINMX_CNT_PULLS_CANCELLED,
	PINMX_CNT_WRITES_HELD,
	PINMX_CNT_NR,
};

/* room in pinmx_counters.value, for later counters. */
#define PINMX_COUNTERS_MAX	128

/**
 * struct pinmx_counters - PINMX_IOC_COUNTERS: module-wide counters
 * @nr_counters: out: PINMX_CNT_NR; entries above it read as zero.
 * @pad: zero.
 * @value: out: indexed by enum pinmx_counter.
 */
struct pinmx_counters {
	__u32 nr_counters;
	__u32 pad;
	__u64 value[PINMX_COUNTERS_MAX];
};

/* length of an interface name, with its NUL (IFNAMSIZ). */
#define PINMX_IFNAMSIZ	16

/**
 * struct pinmx_attach - PINMX_IOC_ATTACH: carry MXoE on an interface
 * @ifname: in: NUL-terminated interface name in the caller's network
 *	namespace; ENODEV if none, EINVAL if not terminated. Attaching an
 *	attached interface succeeds. Needs CAP_NET_ADMIN (EPERM). The module
 *	parameter ifnames= attaches a comma-separated list of interfaces of
 *	the initial namespace at load. An interface stays attached until it
 *	is unregistered or the module is unloaded; ``lo`` is allowed.
 * @ifindex: out: interface index in its namespace.
 * @mtu: out: MTU of the interface now.
 * @reserved: zero.
 */
struct pinmx_attach {
	char ifname[PINMX_IFNAMSIZ];
	__u32 ifindex;
	__u32 mtu;
	__u64 reserved;
};

/**
 * struct pinmx_bind - PINMX_IOC_BIND: make this endpoint addressable
 * @ifname: in: NUL-terminated name of an attached interface of the
 *	caller's network namespace (ENODEV otherwise).
 * @index: in: endpoint index on that interface, 0..255 (EINVAL above);
 *	EADDRINUSE if another endpoint holds it. An endpoint binds once
 *	(EALREADY) and stays bound until its file is released.
 * @pad: zero.
 * @session: out: random non-zero session id drawn for this endpoint;
 *	received frames must carry it as dst session (except
 *	CONNECT_REQUEST), sent frames as src session.
 * @mac: out: the interface's MAC address, the endpoint's peer address.
 * @pad2: zero.
 * @ifindex: out: interface index.
 * @mtu: out: MTU of the interface at bind time. Frames are limited to
 *	min(@mtu, PINMX_MXOE_MAX_BYTES) bytes: a MEDIUM_FRAG carries at most
 *	that minus 56 payload bytes, a PULL_REPLY that minus 48.
 *
 * Binding allocates the endpoint's event ring (see struct pinmx_ring_ctl).
 */
struct pinmx_bind {
	char ifname[PINMX_IFNAMSIZ];
	__u32 index;
	__u32 pad;
	__u32 session;
	__u8 mac[6];
	__u16 pad2;
	__u32 ifindex;
	__u32 mtu;
};

/**
 * struct pinmx_send - PINMX_IOC_SEND: send one eager or control frame
 * @header: in: user pointer to the encoded MXoE header (common header and
 *	kind part, big-endian as on the wire).
 * @payload: in: user pointer to @payload_len bytes; ignored when zero.
 * @header_len: in: must be the header bytes of the header's kind.
 * @payload_len: in: must equal the header's payload length field.
 * @dst_mac: in: destination MAC address.
 * @pad: zero.
 * @reserved: zero.
 *
 * The endpoint must be bound (ENOTCONN). Kinds CONNECT_REQUEST,
 * CONNECT_REPLY, TINY, SMALL, MEDIUM_FRAG, RNDV, NOTIFY, ACK and NACK may
 * be sent (PULL and PULL_REPLY belong to the pull engine: EPROTOTYPE); the
 * header's src endpoint and src session must be the endpoint's index and
 * session, and the frame must pass the receiver checks 1-7 of the wire
 * protocol (EINVAL otherwise). A frame above PINMX_MXOE_MAX_BYTES or the
 * interface MTU fails with EMSGSIZE. Frames shorter than
 * PINMX_MXOE_MIN_BYTES are padded with zeros.
 *
 * A SEND that fails sent nothing, so it may be repeated as it was.
 *
 * Sending a RNDV starts pinning the region it names (if it is a region of
 * this endpoint declared by the caller), after the frame is on its way: in
 * overlapped mode the worker is kicked and the ioctl returns; in the other
 * modes the message's range is pinned before the ioctl returns. A PULL
 * that finds pages not pinned yet is left unserved
 * (PINMX_CNT_SERVE_MISSES) and the puller asks again.
 */
struct pinmx_send {
	__u64 header;
	__u64 payload;
	__u32 header_len;
	__u32 payload_len;
	__u8 dst_mac[6];
	__u16 pad;
	__u64 reserved;
};

/* Event types of struct pinmx_event. */
#define PINMX_EVENT_FRAME	1	/* a received MXoE frame */
#define PINMX_EVENT_PULL_DONE	2	/* struct pinmx_pull_event follows */
#define PINMX_EVENT_PULL_FAILED	3	/* struct pinmx_pull_event follows */
#define PINMX_EVENT_PUT_DONE	4	/* struct pinmx_pull_event follows */
#define PINMX_EVENT_PUT_FAILED	5	/* struct pinmx_pull_event follows */
#define PINMX_EVENT_ATOMIC_DONE	6	/* struct pinmx_atomic_event follows */
#define PINMX_EVENT_ATOMIC_FAILED 7	/* struct pinmx_atomic_event follows */

/**
 * struct pinmx_event - head of one event ring slot
 * @type: PINMX_EVENT_*.
 * @frame_len: bytes that follow the head: PINMX_EVENT_FRAME: the MXoE
 *	frame (the Ethernet payload, padding included); PINMX_EVENT_PULL_*:
 *	sizeof(struct pinmx_pull_event).
 * @ifindex: interface the frame came in on, or the pull ran on.
 * @src_mac: the frame's Ethernet source address, or the pull's peer.
 * @pad: zero.
 * @reserved: zero; keeps what follows the head 8-byte aligned.
 *
 * The frame bytes or the pull event follow the head in the slot; frames
 * as received (big-endian).
 */
struct pinmx_event {
	__u32 type;
	__u32 frame_len;
	__u32 ifindex;
	__u8 src_mac[6];
	__u8 pad[2];
	__u32 reserved;
};

/**
 * enum pinmx_pull_status - how a pull ended (the NOTIFY status codes)
 * @PINMX_PULL_OK: every byte is in the local region.
 * @PINMX_PULL_FAILED: another cause: the peer answered NACK BAD_ENDPOINT
 *	or BAD_SESSION (gone or restarted), the interface went away, the
 *	endpoint was closed, or the process that declared the remote region
 *	has exited while its endpoint stays open (@error ESRCH, on both paths).
 * @PINMX_PULL_SEGMENT_FAULT: a page could not be pinned; @local says on
 *	which side, @segment and @address where, @error the errno. Decided
 *	by a pin tried during this pull: memory fixed since an earlier
 *	failure is pulled.
 * @PINMX_PULL_UNKNOWN_REGION: the remote region id is unknown to the peer,
 *	or the local region was destroyed during the pull (@local set).
 * @PINMX_PULL_OUT_OF_RANGE: the remote range passes the remote region's
 *	end (@address: the refused offset).
 * @PINMX_PULL_TIMEOUT: a block stayed incomplete after the last resend.
 * @PINMX_PULL_NO_RESOURCES: the peer refused the request's shape (NACK
 *	BAD_FIELD, @address: its reply payload limit).
 * @PINMX_PULL_BAD_KEY: the remote region is exposed and the pull carried
 *	no key or another one (NACK BAD_KEY; @error EACCES).
 * @PINMX_PULL_CANCELLED: PINMX_IOC_PULL_CANCEL ended it (@error ECANCELED,
 *	@local set); @bytes were written before.
 */
enum pinmx_pull_status {
	PINMX_PULL_OK			= 0,
	PINMX_PULL_FAILED		= 2,
	PINMX_PULL_SEGMENT_FAULT	= 3,
	PINMX_PULL_UNKNOWN_REGION	= 4,
	PINMX_PULL_OUT_OF_RANGE		= 5,
	PINMX_PULL_TIMEOUT		= 6,
	PINMX_PULL_NO_RESOURCES		= 7,
	PINMX_PULL_BAD_KEY		= 8,
	PINMX_PULL_CANCELLED		= 9,
};

/**
 * struct pinmx_pull_event - end of a pull, after the head of its slot
 * @handle: the caller's handle from struct pinmx_pull.
 * @status: enum pinmx_pull_status.
 * @bytes: bytes written into the local region (all of them when OK;
 *	those of completed blocks otherwise).
 * @error: positive errno of the failure (EFAULT, ETIMEDOUT, ...), 0 if OK.
 * @nack_reason: the peer's NACK reason code (wire protocol) when a NACK
 *	ended the pull, else 0.
 * @local: 1 when the failure is on this side (local region), else 0.
 * @segment: SEGMENT_FAULT: index of the faulting segment in its region.
 * @address: SEGMENT_FAULT: faulting address; OUT_OF_RANGE: the refused
 *	region offset; NO_RESOURCES: the peer's limit; else 0.
 */
struct pinmx_pull_event {
	__u32 handle;
	__u32 status;
	__u64 bytes;
	__s32 error;
	__u8 nack_reason;
	__u8 local;
	__u16 segment;
	__u64 address;
};

/* slots in an event ring; a power of two. */
#define PINMX_RING_SLOTS	256
/* bytes of one slot: struct pinmx_event, then up to PINMX_MXOE_MAX_BYTES. */
#define PINMX_RING_SLOT_BYTES	2048
/* bytes before the first slot: struct pinmx_ring_ctl and padding. */
#define PINMX_RING_CTL_BYTES	4096
/* length to mmap at offset 0 of a bound endpoint's file. */
#define PINMX_RING_BYTES	(PINMX_RING_CTL_BYTES + \
				 PINMX_RING_SLOTS * PINMX_RING_SLOT_BYTES)

/**
 * struct pinmx_ring_ctl - start of the mmap'ed event ring
 * @producer: events ever written by the kernel. The kernel writes slot
 *	producer % PINMX_RING_SLOTS, then publishes producer + 1 with release
 *	ordering; user space reads it with acquire ordering before the slot.
 * @pad: keeps @consumer on its own cache line.
 * @consumer: events ever consumed, written by user space with release
 *	ordering after it is done with a slot; the kernel never writes it
 *	and reads it with acquire ordering. A slot is free when
 *	producer - consumer < PINMX_RING_SLOTS; an event that finds the ring
 *	full is dropped and counted (PINMX_CNT_RX_RING_FULL).
 *
 * Slot i starts at PINMX_RING_CTL_BYTES + i * PINMX_RING_SLOT_BYTES.
 * poll() reports POLLIN while producer != consumer. The mapping is shared
 * and must be exactly PINMX_RING_BYTES at offset 0 (EINVAL), of a bound
 * endpoint (ENOTCONN).
 */
struct pinmx_ring_ctl {
	__u32 producer;
	__u32 pad[15];
	__u32 consumer;
};

/* pinmx_pull.flags: always use frames, even to an endpoint of this host. */
#define PINMX_PULL_WIRE		(1U << 0)

/* PULL_REPLY frames one PULL may ask for (NACK BAD_FIELD above). */
#define PINMX_PULL_MAX_BLOCK_FRAMES	64
/* pulls one endpoint may run at once (EBUSY above). */
#define PINMX_MAX_PULLS		1024

/**
 * struct pinmx_pull - PINMX_IOC_PULL: pull from a peer's region
 * @peer_mac: in: the serving endpoint's interface address.
 * @peer_endpoint: in: the serving endpoint's index.
 * @flags: in: PINMX_PULL_*.
 * @peer_session: in: the serving endpoint's session id.
 * @remote_region: in: region id at the serving endpoint (from its RNDV).
 * @local_region: in: writable region of this endpoint declared by the
 *	caller (ENOENT, EACCES, EPERM as for PINMX_IOC_COPY).
 * @handle: in: the caller's handle, echoed by the end event.
 * @remote_offset: in: offset in the remote region; below 2^63 with
 *	@length (EOVERFLOW).
 * @local_offset: in: offset in the local region; the range must lie
 *	within it (ERANGE, EOVERFLOW).
 * @length: in: bytes; 0 completes at once with PINMX_EVENT_PULL_DONE.
 * @remote_key: in: key of the remote region if it is exposed
 *	(PINMX_DECLARE_REMOTE at the peer), carried by every PULL as its
 *	payload; 0 for a region that is not exposed (PULLs without payload).
 *
 * The endpoint must be bound (ENOTCONN) to an interface that is up
 * (ENETDOWN); at most PINMX_MAX_PULLS pulls run at once (EBUSY). Unless
 * the local region is overlapped, its range is pinned first, whatever the
 * path (an unpinnable page fails the ioctl with EFAULT, nothing is sent). Then the
 * first PULL requests go out; an overlapped region's worker is kicked only
 * after them, so pinning overlaps their flight; and the ioctl returns.
 * Replies are written into the local region in softirq as they arrive. A
 * reply whose local pages are not pinned yet is dropped
 * (PINMX_CNT_OVERLAP_MISSES), the range is pinned by a work item, and the
 * block is asked for again. A block that sees no reply for the resend
 * timeout (module parameter pull_resend_ms, doubling up to 16x) is asked
 * for again from its first to its last missing reply, at most
 * pull_max_retries times; then the pull fails with TIMEOUT. Blocks are
 * pull_block_frames replies of min(MTU, PINMX_MXOE_MAX_BYTES) - 48 bytes,
 * pull_blocks of them in flight.
 *
 * When the peer is an endpoint bound to the same interface of this host
 * (same MAC address) and @flags lacks PINMX_PULL_WIRE, the pull is one
 * region-to-region copy in the ioctl (as PINMX_IOC_COPY; counted as
 * PINMX_CNT_PULLS_LOCAL) and its end event is in the ring when the ioctl
 * returns. Every other outcome is reported by the event, never by the
 * ioctl's return value, once the ioctl has returned 0; a PULL that fails
 * started nothing. A pull that ends inside the ioctl (zero length, same
 * interface) fails it with ENOBUFS when the event ring has no free slot
 * for its end event. A SEGMENT_FAULT event names the segment and the
 * first address of the range asked of it, on either path.
 */
struct pinmx_pull {
	__u8 peer_mac[6];
	__u8 peer_endpoint;
	__u8 flags;
	__u32 peer_session;
	__u32 remote_region;
	__u32 local_region;
	__u32 handle;
	__u64 remote_offset;
	__u64 local_offset;
	__u64 length;
	__u64 remote_key;
};

/* pieces of one PINMX_IOC_PULLV (E2BIG above). */
#define PINMX_PULL_MAX_PIECES	1024

/**
 * struct pinmx_pullv - PINMX_IOC_PULLV: a pull over a list of pieces
 * @peer_mac: in: as for struct pinmx_pull.
 * @peer_endpoint: in: as for struct pinmx_pull.
 * @flags: in: as for struct pinmx_pull.
 * @peer_session: in: as for struct pinmx_pull.
 * @remote_region: in: as for struct pinmx_pull.
 * @local_region: in: as for struct pinmx_pull.
 * @handle: in: as for struct pinmx_pull.
 * @nr_pieces: in: 1..PINMX_PULL_MAX_PIECES (EINVAL, E2BIG).
 * @pad: zero.
 * @pieces: in: user pointer to @nr_pieces struct pinmx_put_piece (EFAULT):
 *	where each piece is in the remote region and where it goes in the
 *	local one; each not empty (EINVAL), below 2^63 remotely (EOVERFLOW),
 *	inside the local region (ERANGE).
 * @remote_key: in: as for struct pinmx_pull.
 * @reserved: zero.
 *
 * One pull whose pieces the serving softirq reads from their remote
 * offsets and this endpoint's softirq writes at their local offsets, each
 * block of PULL requests within one piece: a strided or vector get in one
 * completion, no host CPU at the server. Otherwise as PINMX_IOC_PULL, the
 * same-interface path included (one copy per piece, in order); the end
 * event's @bytes is the pieces' total, and an OUT_OF_RANGE or
 * SEGMENT_FAULT address names the refused remote offset.
 */
struct pinmx_pullv {
	__u8 peer_mac[6];
	__u8 peer_endpoint;
	__u8 flags;
	__u32 peer_session;
	__u32 remote_region;
	__u32 local_region;
	__u32 handle;
	__u32 nr_pieces;
	__u32 pad;
	__u64 pieces;
	__u64 remote_key;
	__u64 reserved;
};

/* largest PINMX_IOC_PUT (EMSGSIZE above). */
#define PINMX_PUT_MAX_BYTES	(16ULL << 20)
/* puts one endpoint may run at once (EBUSY above). */
#define PINMX_MAX_PUTS		1024
/* pieces of one PINMX_IOC_PUTV (E2BIG above). */
#define PINMX_PUT_MAX_PIECES	1024

/**
 * struct pinmx_put - PINMX_IOC_PUT: write into a peer's exposed region
 * @peer_mac: in: the target endpoint's interface address.
 * @peer_endpoint: in: the target endpoint's index.
 * @flags: in: zero.
 * @peer_session: in: the target endpoint's session id.
 * @remote_region: in: region id at the target, declared there with
 *	PINMX_DECLARE_REMOTE.
 * @local_region: in: region of this endpoint declared by the caller, the
 *	source (ENOENT, EACCES).
 * @handle: in: the caller's handle, echoed by the end event.
 * @pad: zero.
 * @pad2: zero.
 * @remote_offset: in: offset in the remote region; below 2^63 with
 *	@length (EOVERFLOW).
 * @local_offset: in: offset in the local region; the range must lie
 *	within it (ERANGE, EOVERFLOW).
 * @length: in: bytes, 1..PINMX_PUT_MAX_BYTES (EINVAL, EMSGSIZE).
 * @remote_key: in: the remote region's key.
 * @reserved: zero.
 *
 * The endpoint must be bound (ENOTCONN) to an interface that is up
 * (ENETDOWN); at most PINMX_MAX_PUTS run at once (EBUSY). The bytes are
 * copied from the local region before the ioctl returns (EFAULT if that
 * memory is not readable: nothing is sent), so the local region may be
 * reused at once. They go as PUT frames of min(MTU, PINMX_MXOE_MAX_BYTES)
 * - 72 bytes, at most 64 without an acknowledgement; the target's receive
 * softirq writes each into the pinned pages of the remote region and
 * acknowledges it, without the target process running. A frame whose
 * target pages are not pinned yet is dropped there and pinned in the
 * background; frames without an acknowledgement for pull_resend_ms
 * (doubling up to 16x) are sent again, at most pull_max_retries times in a
 * row; then the put fails with TIMEOUT.
 *
 * The end is a PINMX_EVENT_PUT_DONE event once the target acknowledged
 * every frame (remote completion: the bytes are in its memory), or
 * PINMX_EVENT_PUT_FAILED with a struct pinmx_pull_event whose status is
 * UNKNOWN_REGION, OUT_OF_RANGE (@address: the refused region offset),
 * BAD_KEY (no or wrong key, or a region not exposed), SEGMENT_FAULT (a
 * target page cannot be pinned, e.g. unmapped: @address is the region
 * offset of the refused frame, @segment the segment, @error the errno),
 * FAILED (target gone) or TIMEOUT. Bytes of frames acknowledged before a
 * failure are written; no other byte is, and never into a page the target
 * process no longer maps.
 */
struct pinmx_put {
	__u8 peer_mac[6];
	__u8 peer_endpoint;
	__u8 flags;
	__u32 peer_session;
	__u32 remote_region;
	__u32 local_region;
	__u32 handle;
	__u32 pad;
	__u32 pad2;
	__u64 remote_offset;
	__u64 local_offset;
	__u64 length;
	__u64 remote_key;
	__u64 reserved;
};

/**
 * struct pinmx_put_piece - one piece of a PINMX_IOC_PUTV or PINMX_IOC_PULLV
 * @remote_offset: where it goes in the remote region; below 2^63 with
 *	@len (EOVERFLOW).
 * @local_offset: where it is in the local region (ERANGE past its end).
 * @len: bytes, not zero (EINVAL).
 */
struct pinmx_put_piece {
	__u64 remote_offset;
	__u64 local_offset;
	__u64 len;
};

/**
 * struct pinmx_putv - PINMX_IOC_PUTV: a put over a list of pieces
 * @peer_mac: in: as for struct pinmx_put.
 * @peer_endpoint: in: as for struct pinmx_put.
 * @flags: in: zero.
 * @peer_session: in: as for struct pinmx_put.
 * @remote_region: in: as for struct pinmx_put.
 * @local_region: in: as for struct pinmx_put.
 * @handle: in: as for struct pinmx_put.
 * @nr_pieces: in: 1..PINMX_PUT_MAX_PIECES (EINVAL, E2BIG).
 * @pad: zero.
 * @pieces: in: user pointer to @nr_pieces struct pinmx_put_piece (EFAULT).
 * @remote_key: in: as for struct pinmx_put.
 * @reserved: zero.
 *
 * One put whose bytes are gathered from the pieces' local ranges and
 * scattered by the target's softirq to their remote offsets, each frame
 * within one piece (strided and vector puts in one completion); the pieces
 * together are at most PINMX_PUT_MAX_BYTES (EMSGSIZE). Pieces that overlap
 * in the remote region leave one or the other's bytes there. Otherwise as
 * PINMX_IOC_PUT; a SEGMENT_FAULT or OUT_OF_RANGE @address is the refused
 * frame's remote offset.
 */
struct pinmx_putv {
	__u8 peer_mac[6];
	__u8 peer_endpoint;
	__u8 flags;
	__u32 peer_session;
	__u32 remote_region;
	__u32 local_region;
	__u32 handle;
	__u32 nr_pieces;
	__u32 pad;
	__u64 pieces;
	__u64 remote_key;
	__u64 reserved;
};

/**
 * enum pinmx_atomic_op - operations of PINMX_IOC_ATOMIC
 * @PINMX_ATOMIC_FETCH_ADD: add @operand to the word; answer the old value.
 * @PINMX_ATOMIC_SWAP: store @operand; answer the old value.
 * @PINMX_ATOMIC_CAS: store @operand if the word equals @compare; answer the
 *	old value (equal to @compare when it stored).
 * @PINMX_ATOMIC_ACCUMULATE: add word i of @values to word i of the range,
 *	each addition atomic; answer 0.
 * @PINMX_ATOMIC_NR_OPS: one past the last.
 */
enum pinmx_atomic_op {
	PINMX_ATOMIC_FETCH_ADD		= 1,
	PINMX_ATOMIC_SWAP		= 2,
	PINMX_ATOMIC_CAS		= 3,
	PINMX_ATOMIC_ACCUMULATE		= 4,
	PINMX_ATOMIC_NR_OPS		= 5,
};

/*
 * The origin's numbering window: an atomic is refused with EBUSY while the
 * one started PINMX_ATOMIC_WINDOW before it is still in flight (so at most
 * this many are); the target keeps per peer the answers of this many.
 */
#define PINMX_ATOMIC_WINDOW		256
/* words of one PINMX_ATOMIC_ACCUMULATE: (1500 - 64) / 8. */
#define PINMX_ATOMIC_MAX_WORDS		179

/**
 * struct pinmx_atomic - PINMX_IOC_ATOMIC: an atomic on a peer's exposed region
 * @peer_mac: in: the target endpoint's interface address.
 * @peer_endpoint: in: the target endpoint's index.
 * @op: in: enum pinmx_atomic_op (EINVAL otherwise).
 * @peer_session: in: the target endpoint's session id.
 * @remote_region: in: region id at the target, declared PINMX_DECLARE_REMOTE.
 * @width: in: bytes of a word, 4 (int32) or 8 (int64) (EINVAL otherwise).
 * @handle: in: the caller's handle, echoed by the end event.
 * @count: in: words: 1, or 1..PINMX_ATOMIC_MAX_WORDS for ACCUMULATE (EINVAL).
 * @pad: zero.
 * @remote_offset: in: region offset of the (first) word, a multiple of
 *	@width (EINVAL); below 2^63 with the words (EOVERFLOW).
 * @remote_key: in: the remote region's key.
 * @operand: in: FETCH_ADD's addend, SWAP's and CAS's new value; for width
 *	4 its low 32 bits.
 * @compare: in: CAS's expected value.
 * @values: in: ACCUMULATE: user pointer to @count words of @width bytes.
 * @reserved: zero.
 *
 * The endpoint must be bound (ENOTCONN) to an interface that is up
 * (ENETDOWN); EBUSY while the atomic this endpoint started
 * PINMX_ATOMIC_WINDOW before this one is still in flight. The target's receive softirq applies the operation with the
 * kernel's atomic operations on the word in its pinned page, so it is
 * atomic against the target CPUs' own atomics on that word, and answers
 * with the old value; the target process never runs. A page not pinned yet
 * drops the request while it is pinned; a request without an answer is
 * sent again after pull_resend_ms (doubling), at most pull_max_retries
 * times, then the atomic fails with TIMEOUT. A resent request is applied
 * once: the target keeps, per peer endpoint, the answers of its last
 * PINMX_ATOMIC_WINDOW requests and answers a request seen before with the
 * stored answer; older ones are dropped.
 *
 * The end is a PINMX_EVENT_ATOMIC_DONE event with the old value, or
 * PINMX_EVENT_ATOMIC_FAILED with the pull statuses: UNKNOWN_REGION,
 * OUT_OF_RANGE, BAD_KEY, NO_RESOURCES (a word not naturally aligned in the
 * target's memory, NACK BAD_FIELD), SEGMENT_FAULT (a page cannot be
 * pinned; @address the region offset), FAILED, TIMEOUT.
 */
struct pinmx_atomic {
	__u8 peer_mac[6];
	__u8 peer_endpoint;
	__u8 op;
	__u32 peer_session;
	__u32 remote_region;
	__u32 width;
	__u32 handle;
	__u32 count;
	__u32 pad;
	__u64 remote_offset;
	__u64 remote_key;
	__u64 operand;
	__u64 compare;
	__u64 values;
	__u64 reserved;
};

/**
 * struct pinmx_atomic_event - end of an atomic, after the head of its slot
 * @handle: the caller's handle.
 * @status: enum pinmx_pull_status.
 * @old: DONE: the word's value before the operation (0 for ACCUMULATE;
 *	zero-extended for width 4).
 * @error: positive errno of a failure, else 0.
 * @nack_reason: the peer's NACK reason when a NACK ended it, else 0.
 * @op: the operation.
 * @pad: zero.
 * @address: SEGMENT_FAULT, OUT_OF_RANGE: the region offset; else 0.
 */
struct pinmx_atomic_event {
	__u32 handle;
	__u32 status;
	__u64 old;
	__s32 error;
	__u8 nack_reason;
	__u8 op;
	__u16 pad;
	__u64 address;
};

/**
 * struct pinmx_wait - PINMX_IOC_WAIT: sleep until the event ring has events
 * @timeout_ns: in: longest wait; 0 only looks, U64_MAX waits forever.
 * @ready: out: events waiting in the ring (0 when the timeout passed).
 * @pad: zero.
 *
 * The endpoint must be bound (ENOTCONN). A signal ends the wait with
 * EINTR; a failed WAIT changed nothing. Cheaper than poll() for one
 * file: no poll table.
 */
struct pinmx_wait {
	__u64 timeout_ns;
	__u32 ready;
	__u32 pad;
};

/**
 * struct pinmx_pull_cancel - PINMX_IOC_PULL_CANCEL: end running pulls now
 * @handle: in: the caller's handle the pulls were started with (struct
 *	pinmx_pull or struct pinmx_pullv).
 * @cancelled: out: pulls this call ended; zero in.
 * @reserved: zero.
 *
 * Every pull of this endpoint with @handle that has not ended yet ends
 * under its lock, as a pull that fails does: its end event
 * (PINMX_EVENT_PULL_FAILED, PINMX_PULL_CANCELLED) goes into the ring once,
 * no reply is written into the local region after the ioctl returns
 * (replies arriving later are dropped and counted as
 * PINMX_CNT_PULL_DUPLICATES), and the pull's hold on the local region and
 * its pending pin are released with it. A pull that ended before (its
 * event already in the ring or read), and a handle no pull has, are left
 * alone: @cancelled 0, return 0. The endpoint must be bound (ENOTCONN);
 * reserved fields not zero: EINVAL. Announced by
 * PINMX_FEATURE_NET_PULL_CANCEL; it adds an ioctl, a status, a counter
 * and a feature bit and changes nothing else, so the ABI version stays:
 * a module without the bit answers ENOTTY.
 */
struct pinmx_pull_cancel {
	__u32 handle;
	__u32 cancelled;
	__u64 reserved;
};

/**
 * struct pinmx_hold_writes - PINMX_IOC_HOLD_WRITES: hold back remote writes
 * @region_id: in: a region of the caller declared PINMX_DECLARE_REMOTE.
 * @hold: in: 1 holds the region's remote writes back, 0 lets them in.
 * @reserved: zero.
 *
 * While a region is held, PUT and ATOMIC frames that name it are answered
 * NACK HELD and touch nothing (an ATOMIC already applied is still answered
 * from its peer's window); their origin resends them every pull_resend_ms
 * without counting the resends against pull_max_retries, so they wait
 * rather than fail, and land once the region is let in. PULLs are served
 * as before. Holding returns only once no PUT or ATOMIC that found the
 * region open is still writing into it, so the declaring process may then
 * load and store the region as its own (ARMCI's access epoch). Holding a
 * held region, or letting in an open one, changes nothing. Errors: ENOENT
 * (no such region), EACCES (another process's), EINVAL (not declared
 * PINMX_DECLARE_REMOTE, @hold not 0 or 1, reserved not zero). Announced by
 * PINMX_FEATURE_NET_HOLD_WRITES; it adds an ioctl, a NACK reason and a
 * feature bit and changes nothing else, so the ABI version stays: a module
 * without the bit answers ENOTTY.
 */
struct pinmx_hold_writes {
	__u32 region_id;
	__u32 hold;
	__u64 reserved;
};

#define PINMX_IOC_INFO		_IOR(PINMX_IOC_MAGIC, 0x01, struct pinmx_info)
#define PINMX_IOC_HELLO		_IOWR(PINMX_IOC_MAGIC, 0x02, struct pinmx_hello)
#define PINMX_IOC_DECLARE	_IOWR(PINMX_IOC_MAGIC, 0x03, struct pinmx_declare)
#define PINMX_IOC_DESTROY	_IOW(PINMX_IOC_MAGIC, 0x04, struct pinmx_region_ref)
#define PINMX_IOC_PIN		_IOW(PINMX_IOC_MAGIC, 0x05, struct pinmx_range)
#define PINMX_IOC_UNPIN		_IOW(PINMX_IOC_MAGIC, 0x06, struct pinmx_range)
#define PINMX_IOC_REGION_INFO	_IOWR(PINMX_IOC_MAGIC, 0x07, struct pinmx_region_info)
#define PINMX_IOC_COPY		_IOW(PINMX_IOC_MAGIC, 0x08, struct pinmx_copy)
#define PINMX_IOC_SET_PIN_MODE	_IOW(PINMX_IOC_MAGIC, 0x09, struct pinmx_pin_mode_req)
#define PINMX_IOC_COUNTERS	_IOR(PINMX_IOC_MAGIC, 0x0a, struct pinmx_counters)
#define PINMX_IOC_ATTACH	_IOWR(PINMX_IOC_MAGIC, 0x20, struct pinmx_attach)
#define PINMX_IOC_BIND		_IOWR(PINMX_IOC_MAGIC, 0x21, struct pinmx_bind)
#define PINMX_IOC_SEND		_IOW(PINMX_IOC_MAGIC, 0x22, struct pinmx_send)
#define PINMX_IOC_PULL		_IOW(PINMX_IOC_MAGIC, 0x23, struct pinmx_pull)
#define PINMX_IOC_WAIT		_IOWR(PINMX_IOC_MAGIC, 0x24, struct pinmx_wait)
#define PINMX_IOC_PUT		_IOW(PINMX_IOC_MAGIC, 0x25, struct pinmx_put)
#define PINMX_IOC_ATOMIC	_IOW(PINMX_IOC_MAGIC, 0x26, struct pinmx_atomic)
#define PINMX_IOC_PUTV		_IOW(PINMX_IOC_MAGIC, 0x27, struct pinmx_putv)
#define PINMX_IOC_PULLV		_IOW(PINMX_IOC_MAGIC, 0x28, struct pinmx_pullv)
#define PINMX_IOC_PULL_CANCEL	_IOWR(PINMX_IOC_MAGIC, 0x29, struct pinmx_pull_cancel)
#define PINMX_IOC_HOLD_WRITES	_IOW(PINMX_IOC_MAGIC, 0x2a, struct pinmx_hold_writes)

#endif /* _UAPI_LINUX_PINMX_H */
