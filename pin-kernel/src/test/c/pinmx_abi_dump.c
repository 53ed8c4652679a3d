/*
 * Prints what the Java mirror of kmod/include/uapi/pinmx.h (io.pinmx.pin.kernel.PinmxAbi) must match:
 * "struct NAME SIZE", "field NAME.FIELD OFFSET SIZE", "const NAME VALUE" (the PINMX_ macros and enum values
 * the binding uses, ioctl numbers included) and "counter NAME INDEX". Compiled and run by PinmxAbiTest.
 */
#include <stddef.h>
#include <stdio.h>
#include "pinmx.h"

#define S(s) printf("struct %s %zu\n", #s, sizeof(struct s))
#define F(s, f) printf("field %s.%s %zu %zu\n", #s, #f, offsetof(struct s, f), sizeof(((struct s *)0)->f))
#define C(c) printf("const %s %llu\n", #c, (unsigned long long)(c))
#define N(c) printf("counter %s %d\n", #c, (int)(c))

int main(void)
{
	S(pinmx_info); F(pinmx_info, abi_version); F(pinmx_info, pin_mode); F(pinmx_info, features);
	F(pinmx_info, max_segments); F(pinmx_info, max_regions); F(pinmx_info, endpoint_id);
	F(pinmx_info, page_size); F(pinmx_info, chunk_min_pages); F(pinmx_info, chunk_max_pages);
	F(pinmx_info, budget_pages); F(pinmx_info, max_region_bytes); F(pinmx_info, reserved);
	S(pinmx_hello); F(pinmx_hello, abi_version); F(pinmx_hello, endpoint_id); F(pinmx_hello, reserved);
	S(pinmx_segment); F(pinmx_segment, vaddr); F(pinmx_segment, len);
	S(pinmx_declare); F(pinmx_declare, segments); F(pinmx_declare, nr_segments); F(pinmx_declare, flags);
	F(pinmx_declare, region_id); F(pinmx_declare, pad); F(pinmx_declare, length);
	S(pinmx_region_ref); F(pinmx_region_ref, region_id); F(pinmx_region_ref, pad);
	S(pinmx_range); F(pinmx_range, region_id); F(pinmx_range, pad); F(pinmx_range, offset); F(pinmx_range, len);
	S(pinmx_region_info); F(pinmx_region_info, region_id); F(pinmx_region_info, nr_segments);
	F(pinmx_region_info, length); F(pinmx_region_info, nr_pages); F(pinmx_region_info, pinned_pages);
	F(pinmx_region_info, pin_mode); F(pinmx_region_info, flags); F(pinmx_region_info, key);
	F(pinmx_region_info, reserved);
	S(pinmx_copy); F(pinmx_copy, src_fd); F(pinmx_copy, src_region); F(pinmx_copy, src_offset);
	F(pinmx_copy, dst_region); F(pinmx_copy, flags); F(pinmx_copy, dst_offset); F(pinmx_copy, len);
	F(pinmx_copy, reserved);
	S(pinmx_pin_mode_req); F(pinmx_pin_mode_req, pin_mode); F(pinmx_pin_mode_req, chunk_min_pages);
	F(pinmx_pin_mode_req, chunk_max_pages); F(pinmx_pin_mode_req, pad);
	S(pinmx_counters); F(pinmx_counters, nr_counters); F(pinmx_counters, pad); F(pinmx_counters, value);
	S(pinmx_attach); F(pinmx_attach, ifname); F(pinmx_attach, ifindex); F(pinmx_attach, mtu);
	F(pinmx_attach, reserved);
	S(pinmx_bind); F(pinmx_bind, ifname); F(pinmx_bind, index); F(pinmx_bind, pad); F(pinmx_bind, session);
	F(pinmx_bind, mac); F(pinmx_bind, pad2); F(pinmx_bind, ifindex); F(pinmx_bind, mtu);
	S(pinmx_send); F(pinmx_send, header); F(pinmx_send, payload); F(pinmx_send, header_len);
	F(pinmx_send, payload_len); F(pinmx_send, dst_mac); F(pinmx_send, pad); F(pinmx_send, reserved);
	S(pinmx_event); F(pinmx_event, type); F(pinmx_event, frame_len); F(pinmx_event, ifindex);
	F(pinmx_event, src_mac); F(pinmx_event, pad); F(pinmx_event, reserved);
	S(pinmx_pull_event); F(pinmx_pull_event, handle); F(pinmx_pull_event, status); F(pinmx_pull_event, bytes);
	F(pinmx_pull_event, error); F(pinmx_pull_event, nack_reason); F(pinmx_pull_event, local);
	F(pinmx_pull_event, segment); F(pinmx_pull_event, address);
	S(pinmx_ring_ctl); F(pinmx_ring_ctl, producer); F(pinmx_ring_ctl, pad); F(pinmx_ring_ctl, consumer);
	S(pinmx_pull); F(pinmx_pull, peer_mac); F(pinmx_pull, peer_endpoint); F(pinmx_pull, flags);
	F(pinmx_pull, peer_session); F(pinmx_pull, remote_region); F(pinmx_pull, local_region);
	F(pinmx_pull, handle); F(pinmx_pull, remote_offset); F(pinmx_pull, local_offset); F(pinmx_pull, length);
	F(pinmx_pull, remote_key);
	S(pinmx_wait); F(pinmx_wait, timeout_ns); F(pinmx_wait, ready); F(pinmx_wait, pad);
	S(pinmx_put); F(pinmx_put, peer_mac); F(pinmx_put, peer_endpoint); F(pinmx_put, flags);
	F(pinmx_put, peer_session); F(pinmx_put, remote_region); F(pinmx_put, local_region); F(pinmx_put, handle);
	F(pinmx_put, pad); F(pinmx_put, pad2); F(pinmx_put, remote_offset); F(pinmx_put, local_offset); F(pinmx_put, length);
	F(pinmx_put, remote_key); F(pinmx_put, reserved);
	S(pinmx_put_piece); F(pinmx_put_piece, remote_offset); F(pinmx_put_piece, local_offset);
	F(pinmx_put_piece, len);
	S(pinmx_pull_cancel); F(pinmx_pull_cancel, handle); F(pinmx_pull_cancel, cancelled);
	F(pinmx_pull_cancel, reserved);
	S(pinmx_hold_writes); F(pinmx_hold_writes, region_id); F(pinmx_hold_writes, hold);
	F(pinmx_hold_writes, reserved);
	S(pinmx_putv); F(pinmx_putv, peer_mac); F(pinmx_putv, peer_endpoint); F(pinmx_putv, flags);
	F(pinmx_putv, peer_session); F(pinmx_putv, remote_region); F(pinmx_putv, local_region);
	F(pinmx_putv, handle); F(pinmx_putv, nr_pieces); F(pinmx_putv, pad); F(pinmx_putv, pieces);
	F(pinmx_putv, remote_key); F(pinmx_putv, reserved);
	S(pinmx_atomic); F(pinmx_atomic, peer_mac); F(pinmx_atomic, peer_endpoint); F(pinmx_atomic, op);
	F(pinmx_atomic, peer_session); F(pinmx_atomic, remote_region); F(pinmx_atomic, width);
	F(pinmx_atomic, handle); F(pinmx_atomic, count); F(pinmx_atomic, pad); F(pinmx_atomic, remote_offset);
	F(pinmx_atomic, remote_key); F(pinmx_atomic, operand); F(pinmx_atomic, compare); F(pinmx_atomic, values);
	F(pinmx_atomic, reserved);
	S(pinmx_atomic_event); F(pinmx_atomic_event, handle); F(pinmx_atomic_event, status);
	F(pinmx_atomic_event, old); F(pinmx_atomic_event, error); F(pinmx_atomic_event, nack_reason);
	F(pinmx_atomic_event, op); F(pinmx_atomic_event, pad); F(pinmx_atomic_event, address);

	C(PINMX_ABI_VERSION); C(PINMX_IOC_MAGIC); C(PINMX_MAX_SEGMENTS); C(PINMX_MAX_REGIONS);
	C(PINMX_MAX_REGION_BYTES);
	C(PINMX_FEATURE_PIN_DECLARE); C(PINMX_FEATURE_PIN_ON_DEMAND); C(PINMX_FEATURE_PIN_OVERLAPPED);
	C(PINMX_FEATURE_LOCAL_COPY); C(PINMX_FEATURE_INVALIDATE); C(PINMX_FEATURE_BUDGET);
	C(PINMX_FEATURE_NET_IFACE); C(PINMX_FEATURE_NET_SEND); C(PINMX_FEATURE_NET_EVENT_RING);
	C(PINMX_FEATURE_NET_PULL); C(PINMX_FEATURE_NET_WAIT); C(PINMX_FEATURE_NET_LOCAL_PULL);
	C(PINMX_FEATURE_NET_PUT); C(PINMX_FEATURE_NET_ATOMIC);
	C(PINMX_FEATURE_NET_PULL_CANCEL);
	C(PINMX_FEATURE_NET_HOLD_WRITES);
	C(PINMX_ETH_P_MXOE); C(PINMX_MXOE_VERSION); C(PINMX_MXOE_COMMON_BYTES); C(PINMX_MXOE_MIN_BYTES);
	C(PINMX_MXOE_MAX_BYTES);
	C(PINMX_PIN_DECLARE); C(PINMX_PIN_ON_DEMAND); C(PINMX_PIN_OVERLAPPED); C(PINMX_PIN_NR_MODES);
	C(PINMX_DECLARE_WRITABLE); C(PINMX_DECLARE_REMOTE); C(PINMX_COUNTERS_MAX); C(PINMX_IFNAMSIZ);
	C(PINMX_EVENT_FRAME); C(PINMX_EVENT_PULL_DONE); C(PINMX_EVENT_PULL_FAILED);
	C(PINMX_EVENT_PUT_DONE); C(PINMX_EVENT_PUT_FAILED); C(PINMX_EVENT_ATOMIC_DONE);
	C(PINMX_EVENT_ATOMIC_FAILED);
	C(PINMX_PULL_OK); C(PINMX_PULL_FAILED); C(PINMX_PULL_SEGMENT_FAULT); C(PINMX_PULL_UNKNOWN_REGION);
	C(PINMX_PULL_OUT_OF_RANGE); C(PINMX_PULL_TIMEOUT); C(PINMX_PULL_NO_RESOURCES); C(PINMX_PULL_BAD_KEY);
	C(PINMX_PULL_CANCELLED);
	C(PINMX_RING_SLOTS); C(PINMX_RING_SLOT_BYTES); C(PINMX_RING_CTL_BYTES); C(PINMX_RING_BYTES);
	C(PINMX_PULL_WIRE); C(PINMX_PULL_MAX_BLOCK_FRAMES); C(PINMX_MAX_PULLS);
	C(PINMX_PUT_MAX_BYTES); C(PINMX_MAX_PUTS); C(PINMX_PUT_MAX_PIECES);
	C(PINMX_ATOMIC_FETCH_ADD); C(PINMX_ATOMIC_SWAP); C(PINMX_ATOMIC_CAS); C(PINMX_ATOMIC_ACCUMULATE);
	C(PINMX_ATOMIC_NR_OPS); C(PINMX_ATOMIC_WINDOW); C(PINMX_ATOMIC_MAX_WORDS);
	C(PINMX_IOC_INFO); C(PINMX_IOC_HELLO); C(PINMX_IOC_DECLARE); C(PINMX_IOC_DESTROY); C(PINMX_IOC_PIN);
	C(PINMX_IOC_UNPIN); C(PINMX_IOC_REGION_INFO); C(PINMX_IOC_COPY); C(PINMX_IOC_SET_PIN_MODE);
	C(PINMX_IOC_COUNTERS); C(PINMX_IOC_ATTACH); C(PINMX_IOC_BIND); C(PINMX_IOC_SEND); C(PINMX_IOC_PULL);
	C(PINMX_IOC_WAIT); C(PINMX_IOC_PUT); C(PINMX_IOC_ATOMIC); C(PINMX_IOC_PUTV);
	C(PINMX_IOC_PULL_CANCEL);
	C(PINMX_IOC_HOLD_WRITES);

	N(PINMX_CNT_PIN_CALLS); N(PINMX_CNT_PAGES_PINNED_NOW); N(PINMX_CNT_PAGES_PINNED_TOTAL);
	N(PINMX_CNT_PAGES_UNPINNED); N(PINMX_CNT_INVALIDATIONS); N(PINMX_CNT_INVALIDATE_EAGAIN);
	N(PINMX_CNT_PIN_RETRIES); N(PINMX_CNT_OVERLAP_WAITS); N(PINMX_CNT_BUDGET_EVICTIONS); N(PINMX_CNT_COPIES);
	N(PINMX_CNT_COPY_BYTES); N(PINMX_CNT_REGIONS_NOW); N(PINMX_CNT_ERR_FAULT); N(PINMX_CNT_ERR_MEMLOCK);
	N(PINMX_CNT_ERR_BUDGET); N(PINMX_CNT_ERR_ACCESS); N(PINMX_CNT_ERR_INVAL); N(PINMX_CNT_ERR_NOENT);
	N(PINMX_CNT_TX_FRAMES); N(PINMX_CNT_RX_FRAMES); N(PINMX_CNT_RX_NOT_ATTACHED); N(PINMX_CNT_RX_SHORT);
	N(PINMX_CNT_RX_BAD_VERSION); N(PINMX_CNT_RX_UNKNOWN_KIND); N(PINMX_CNT_RX_BAD_LENGTH);
	N(PINMX_CNT_RX_BAD_FIELD); N(PINMX_CNT_RX_OUT_OF_RANGE); N(PINMX_CNT_RX_WRONG_ENDPOINT);
	N(PINMX_CNT_RX_WRONG_SESSION); N(PINMX_CNT_RX_RING_FULL); N(PINMX_CNT_PULLS_STARTED);
	N(PINMX_CNT_PULLS_DONE); N(PINMX_CNT_PULLS_FAILED); N(PINMX_CNT_PULL_BYTES); N(PINMX_CNT_PULLS_LOCAL);
	N(PINMX_CNT_PULL_REQUESTS); N(PINMX_CNT_PULL_RESENDS); N(PINMX_CNT_PULL_TIMEOUTS);
	N(PINMX_CNT_PULL_REPLIES_SENT); N(PINMX_CNT_PULL_REPLIES_RECEIVED); N(PINMX_CNT_PULL_DUPLICATES);
	N(PINMX_CNT_PULL_BAD_REPLY); N(PINMX_CNT_OVERLAP_MISSES); N(PINMX_CNT_SERVE_MISSES);
	N(PINMX_CNT_NACKS_SENT); N(PINMX_CNT_TX_ERRORS); N(PINMX_CNT_RX_NO_KEY); N(PINMX_CNT_RX_BAD_KEY);
	N(PINMX_CNT_RX_NOT_EXPOSED); N(PINMX_CNT_PUTS_STARTED); N(PINMX_CNT_PUTS_DONE); N(PINMX_CNT_PUTS_FAILED);
	N(PINMX_CNT_PUT_FRAMES_SENT); N(PINMX_CNT_PUT_RESENDS); N(PINMX_CNT_PUT_TIMEOUTS);
	N(PINMX_CNT_PUT_FRAMES_WRITTEN); N(PINMX_CNT_PUT_MISSES); N(PINMX_CNT_PUT_DUPLICATE_ACKS);
	N(PINMX_CNT_ATOMICS_DONE); N(PINMX_CNT_ATOMICS_FAILED); N(PINMX_CNT_ATOMICS_APPLIED);
	N(PINMX_CNT_ATOMIC_REPLAYS); N(PINMX_CNT_ATOMIC_MISSES); N(PINMX_CNT_ATOMIC_DUPLICATE_REPLIES);
	N(PINMX_CNT_PUT_STALE); N(PINMX_CNT_PULLS_CANCELLED);
	N(PINMX_CNT_WRITES_HELD);
	printf("const PINMX_CNT_NR %d\n", (int)PINMX_CNT_NR);
	return 0;
}
