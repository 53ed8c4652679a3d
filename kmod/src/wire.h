/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MXoE frames as docs/wire-protocol.md defines them: one packed struct per
 * frame kind (common header and kind part, big-endian fields at the
 * protocol's offsets, checked below field by field), the limits of every
 * field the receiver checks, and the protocol's constants. The module
 * reads and writes frames only through these structs.
 */
#ifndef PINMX_WIRE_H
#define PINMX_WIRE_H

#include <linux/build_bug.h>
#include <linux/compiler_attributes.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "../include/uapi/pinmx.h"

/* Offsets, region offsets and lengths on the wire stay below 2^63. */
#define PINMX_U63_LIMIT		(1ULL << 63)
/* Payload limits of the eager kinds. */
#define PINMX_TINY_MAX_BYTES	32
#define PINMX_SMALL_MAX_BYTES	128
/* Payload of a PULL that carries the serving region's key. */
#define PINMX_PULL_KEY_BYTES	8

/* CONNECT_REQUEST/REPLY status codes. */
enum pinmx_connect_status {
	PINMX_CONNECT_OK = 0,
	PINMX_CONNECT_BAD_KEY = 1,
	PINMX_CONNECT_NO_RESOURCES = 2,
	PINMX_CONNECT_STATUS_MAX = 2,
};

/* NOTIFY status codes above the pull ones of enum pinmx_pull_status. */
enum pinmx_notify_status {
	PINMX_NOTIFY_OK = 0,
	PINMX_NOTIFY_TRUNCATED = 1,
	PINMX_NOTIFY_STATUS_MAX = PINMX_PULL_NO_RESOURCES,
};

/* NACK reasons. */
enum pinmx_nack_reason {
	PINMX_NACK_BAD_ENDPOINT = 1,
	PINMX_NACK_BAD_SESSION = 2,
	PINMX_NACK_UNKNOWN_REGION = 3,
	PINMX_NACK_OUT_OF_RANGE = 4,
	PINMX_NACK_SEGMENT_FAULT = 5,
	PINMX_NACK_BAD_FIELD = 6,
	PINMX_NACK_BAD_KEY = 7,
	PINMX_NACK_HELD = 8,
	PINMX_NACK_REASON_MAX = 8,
};

/* Common header, 32 bytes (PINMX_MXOE_COMMON_BYTES). */
struct pinmx_wire_hdr {
	u8 kind;
	u8 version;
	__be16 flags;
	u8 dst_ep;
	u8 src_ep;
	__be16 reserved;
	__be32 dst_session;
	__be32 src_session;
	__be32 seq;
	__be32 ack_seq;
	__be32 payload_len;
	__be32 reserved2;
} __packed;

/* CONNECT_REQUEST (1) and CONNECT_REPLY (2), 48 bytes. */
struct pinmx_wire_connect {
	struct pinmx_wire_hdr hdr;
	__be32 app_key;
	__be32 connect_seq;
	__be32 initial_seq;
	u8 status;
	u8 reserved[3];
} __packed;

/* TINY (3) and SMALL (4), 48 bytes, then the message. */
struct pinmx_wire_eager {
	struct pinmx_wire_hdr hdr;
	__be64 match;
	__be32 msg_len;
	__be32 reserved;
} __packed;

/* MEDIUM_FRAG (5), 56 bytes, then the fragment. */
struct pinmx_wire_medium {
	struct pinmx_wire_hdr hdr;
	__be64 match;
	__be32 msg_len;
	__be32 frag_offset;
	__be16 frag_index;
	__be16 frag_count;
	__be32 msg_seq;
} __packed;

/* RNDV (6), 64 bytes. */
struct pinmx_wire_rndv {
	struct pinmx_wire_hdr hdr;
	__be64 match;
	__be64 msg_len;
	__be64 region_offset;
	__be32 region_id;
	__be32 send_handle;
} __packed;

/*
 * PULL (7), 72 bytes; then no payload, or the key of an exposed region
 * (PINMX_PULL_KEY_BYTES, big-endian).
 */
struct pinmx_wire_pull {
	struct pinmx_wire_hdr hdr;
	__be32 handle;
	__be32 region_id;
	__be64 region_offset;
	__be64 pull_offset;
	__be32 block_len;
	__be32 first_frame;
	__be16 frame_count;
	__be16 reserved;
	__be32 reply_bytes;
} __packed;

/* PULL_REPLY (8), 48 bytes, then the pulled bytes. */
struct pinmx_wire_pull_reply {
	struct pinmx_wire_hdr hdr;
	__be32 handle;
	__be32 frame_index;
	__be64 pull_offset;
} __packed;

/* NOTIFY (9), 48 bytes. */
struct pinmx_wire_notify {
	struct pinmx_wire_hdr hdr;
	__be32 send_handle;
	__be32 status;
	__be64 bytes_pulled;
} __packed;

/* ACK (10), 40 bytes. */
struct pinmx_wire_ack {
	struct pinmx_wire_hdr hdr;
	__be32 ack_up_to;
	__be32 reserved;
} __packed;

/* NACK (11), 64 bytes. */
struct pinmx_wire_nack {
	struct pinmx_wire_hdr hdr;
	u8 reason;
	u8 refused_kind;
	__be16 segment;
	__be32 refused_seq;
	__be32 refused_handle;
	__be32 region_id;
	__be64 address;
	__be32 error;
	__be32 reserved;
} __packed;

/* PUT (12), 72 bytes, then the bytes to write at region offset. */
struct pinmx_wire_put {
	struct pinmx_wire_hdr hdr;
	__be32 handle;
	__be32 region_id;
	__be64 region_offset;
	__be64 key;
	__be32 frame_index;
	__be32 frame_count;
	__be64 put_offset;
} __packed;

/* PUT_ACK (13), 48 bytes. */
struct pinmx_wire_put_ack {
	struct pinmx_wire_hdr hdr;
	__be32 handle;
	__be32 frame_index;
	__be64 reserved;
} __packed;

/*
 * ATOMIC (14), 64 bytes, then the operands as 8-byte big-endian words: one
 * for FETCH_ADD and SWAP, compare then new for CAS, @count for ACCUMULATE.
 * Offsets 32..55 are laid out as PUT's, so a kept request is refused alike.
 */
struct pinmx_wire_atomic {
	struct pinmx_wire_hdr hdr;
	__be32 seq;
	__be32 region_id;
	__be64 region_offset;
	__be64 key;
	u8 op;
	u8 width;
	__be16 count;
	__be32 reserved;
} __packed;

/* ATOMIC_REPLY (15), 48 bytes. */
struct pinmx_wire_atomic_reply {
	struct pinmx_wire_hdr hdr;
	__be32 seq;
	__be32 reserved;
	__be64 old;
} __packed;

/* The header of any frame, as the receiver copies it out of the skb. */
union pinmx_wire_frame {
	struct pinmx_wire_hdr hdr;
	struct pinmx_wire_connect connect;
	struct pinmx_wire_eager eager;
	struct pinmx_wire_medium medium;
	struct pinmx_wire_rndv rndv;
	struct pinmx_wire_pull pull;
	struct pinmx_wire_pull_reply reply;
	struct pinmx_wire_notify notify;
	struct pinmx_wire_ack ack;
	struct pinmx_wire_nack nack;
	struct pinmx_wire_put put;
	struct pinmx_wire_put_ack put_ack;
	struct pinmx_wire_atomic atomic;
	struct pinmx_wire_atomic_reply atomic_reply;
};

/* Longest header (common + kind part) of any kind: the PULL's and PUT's. */
#define PINMX_WIRE_MAX_HEADER	sizeof(struct pinmx_wire_pull)

#define PINMX_WIRE_AT(type, field, off) \
	static_assert(offsetof(struct type, field) == (off))

PINMX_WIRE_AT(pinmx_wire_hdr, kind, 0);
PINMX_WIRE_AT(pinmx_wire_hdr, version, 1);
PINMX_WIRE_AT(pinmx_wire_hdr, flags, 2);
PINMX_WIRE_AT(pinmx_wire_hdr, dst_ep, 4);
PINMX_WIRE_AT(pinmx_wire_hdr, src_ep, 5);
PINMX_WIRE_AT(pinmx_wire_hdr, reserved, 6);
PINMX_WIRE_AT(pinmx_wire_hdr, dst_session, 8);
PINMX_WIRE_AT(pinmx_wire_hdr, src_session, 12);
PINMX_WIRE_AT(pinmx_wire_hdr, seq, 16);
PINMX_WIRE_AT(pinmx_wire_hdr, ack_seq, 20);
PINMX_WIRE_AT(pinmx_wire_hdr, payload_len, 24);
PINMX_WIRE_AT(pinmx_wire_hdr, reserved2, 28);
static_assert(sizeof(struct pinmx_wire_hdr) == PINMX_MXOE_COMMON_BYTES);

PINMX_WIRE_AT(pinmx_wire_connect, app_key, 32);
PINMX_WIRE_AT(pinmx_wire_connect, connect_seq, 36);
PINMX_WIRE_AT(pinmx_wire_connect, initial_seq, 40);
PINMX_WIRE_AT(pinmx_wire_connect, status, 44);
PINMX_WIRE_AT(pinmx_wire_connect, reserved, 45);
static_assert(sizeof(struct pinmx_wire_connect) == 48);

PINMX_WIRE_AT(pinmx_wire_eager, match, 32);
PINMX_WIRE_AT(pinmx_wire_eager, msg_len, 40);
PINMX_WIRE_AT(pinmx_wire_eager, reserved, 44);
static_assert(sizeof(struct pinmx_wire_eager) == 48);

PINMX_WIRE_AT(pinmx_wire_medium, match, 32);
PINMX_WIRE_AT(pinmx_wire_medium, msg_len, 40);
PINMX_WIRE_AT(pinmx_wire_medium, frag_offset, 44);
PINMX_WIRE_AT(pinmx_wire_medium, frag_index, 48);
PINMX_WIRE_AT(pinmx_wire_medium, frag_count, 50);
PINMX_WIRE_AT(pinmx_wire_medium, msg_seq, 52);
static_assert(sizeof(struct pinmx_wire_medium) == 56);

PINMX_WIRE_AT(pinmx_wire_rndv, match, 32);
PINMX_WIRE_AT(pinmx_wire_rndv, msg_len, 40);
PINMX_WIRE_AT(pinmx_wire_rndv, region_offset, 48);
PINMX_WIRE_AT(pinmx_wire_rndv, region_id, 56);
PINMX_WIRE_AT(pinmx_wire_rndv, send_handle, 60);
static_assert(sizeof(struct pinmx_wire_rndv) == 64);

PINMX_WIRE_AT(pinmx_wire_pull, handle, 32);
PINMX_WIRE_AT(pinmx_wire_pull, region_id, 36);
PINMX_WIRE_AT(pinmx_wire_pull, region_offset, 40);
PINMX_WIRE_AT(pinmx_wire_pull, pull_offset, 48);
PINMX_WIRE_AT(pinmx_wire_pull, block_len, 56);
PINMX_WIRE_AT(pinmx_wire_pull, first_frame, 60);
PINMX_WIRE_AT(pinmx_wire_pull, frame_count, 64);
PINMX_WIRE_AT(pinmx_wire_pull, reserved, 66);
PINMX_WIRE_AT(pinmx_wire_pull, reply_bytes, 68);
static_assert(sizeof(struct pinmx_wire_pull) == 72);

PINMX_WIRE_AT(pinmx_wire_pull_reply, handle, 32);
PINMX_WIRE_AT(pinmx_wire_pull_reply, frame_index, 36);
PINMX_WIRE_AT(pinmx_wire_pull_reply, pull_offset, 40);
static_assert(sizeof(struct pinmx_wire_pull_reply) == 48);

PINMX_WIRE_AT(pinmx_wire_notify, send_handle, 32);
PINMX_WIRE_AT(pinmx_wire_notify, status, 36);
PINMX_WIRE_AT(pinmx_wire_notify, bytes_pulled, 40);
static_assert(sizeof(struct pinmx_wire_notify) == 48);

PINMX_WIRE_AT(pinmx_wire_ack, ack_up_to, 32);
PINMX_WIRE_AT(pinmx_wire_ack, reserved, 36);
static_assert(sizeof(struct pinmx_wire_ack) == 40);

PINMX_WIRE_AT(pinmx_wire_nack, reason, 32);
PINMX_WIRE_AT(pinmx_wire_nack, refused_kind, 33);
PINMX_WIRE_AT(pinmx_wire_nack, segment, 34);
PINMX_WIRE_AT(pinmx_wire_nack, refused_seq, 36);
PINMX_WIRE_AT(pinmx_wire_nack, refused_handle, 40);
PINMX_WIRE_AT(pinmx_wire_nack, region_id, 44);
PINMX_WIRE_AT(pinmx_wire_nack, address, 48);
PINMX_WIRE_AT(pinmx_wire_nack, error, 56);
PINMX_WIRE_AT(pinmx_wire_nack, reserved, 60);
static_assert(sizeof(struct pinmx_wire_nack) == 64);

PINMX_WIRE_AT(pinmx_wire_put, handle, 32);
PINMX_WIRE_AT(pinmx_wire_put, region_id, 36);
PINMX_WIRE_AT(pinmx_wire_put, region_offset, 40);
PINMX_WIRE_AT(pinmx_wire_put, key, 48);
PINMX_WIRE_AT(pinmx_wire_put, frame_index, 56);
PINMX_WIRE_AT(pinmx_wire_put, frame_count, 60);
PINMX_WIRE_AT(pinmx_wire_put, put_offset, 64);
static_assert(sizeof(struct pinmx_wire_put) == 72);

PINMX_WIRE_AT(pinmx_wire_put_ack, handle, 32);
PINMX_WIRE_AT(pinmx_wire_put_ack, frame_index, 36);
PINMX_WIRE_AT(pinmx_wire_put_ack, reserved, 40);
static_assert(sizeof(struct pinmx_wire_put_ack) == 48);

PINMX_WIRE_AT(pinmx_wire_atomic, seq, 32);
PINMX_WIRE_AT(pinmx_wire_atomic, region_id, 36);
PINMX_WIRE_AT(pinmx_wire_atomic, region_offset, 40);
PINMX_WIRE_AT(pinmx_wire_atomic, key, 48);
PINMX_WIRE_AT(pinmx_wire_atomic, op, 56);
PINMX_WIRE_AT(pinmx_wire_atomic, width, 57);
PINMX_WIRE_AT(pinmx_wire_atomic, count, 58);
PINMX_WIRE_AT(pinmx_wire_atomic, reserved, 60);
static_assert(sizeof(struct pinmx_wire_atomic) == 64);
static_assert(offsetof(struct pinmx_wire_atomic, seq) ==
	      offsetof(struct pinmx_wire_put, handle));
static_assert(offsetof(struct pinmx_wire_atomic, region_offset) ==
	      offsetof(struct pinmx_wire_put, region_offset));

PINMX_WIRE_AT(pinmx_wire_atomic_reply, seq, 32);
PINMX_WIRE_AT(pinmx_wire_atomic_reply, reserved, 36);
PINMX_WIRE_AT(pinmx_wire_atomic_reply, old, 40);
static_assert(sizeof(struct pinmx_wire_atomic_reply) == 48);

static_assert(sizeof(union pinmx_wire_frame) == PINMX_WIRE_MAX_HEADER);

#endif /* PINMX_WIRE_H */
