package io.pinmx.pin.kernel;

/**
 * The module-wide counters of pinmx.ko (enum pinmx_counter): the ordinal is the index into
 * {@code struct pinmx_counters.value}; names are the C names without {@code PINMX_CNT_}. Read with
 * {@link KernelEndpoint#moduleCounters(long[])}.
 */
public enum KernelCounter
{
    /** pin_user_pages_fast calls. */
    PIN_CALLS,
    /** pages pinned at this moment. */
    PAGES_PINNED_NOW,
    /** pages ever pinned. */
    PAGES_PINNED_TOTAL,
    /** pages ever unpinned. */
    PAGES_UNPINNED,
    /** notifier callbacks that unpinned pages. */
    INVALIDATIONS,
    /** non-blockable callbacks answered -EAGAIN. */
    INVALIDATE_EAGAIN,
    /** pins redone because an invalidation raced them. */
    PIN_RETRIES,
    /** copies that waited for the overlapped worker. */
    OVERLAP_WAITS,
    /** idle regions unpinned to respect the budget. */
    BUDGET_EVICTIONS,
    /** completed copies. */
    COPIES,
    /** bytes copied. */
    COPY_BYTES,
    /** regions declared at this moment. */
    REGIONS_NOW,
    /** pins that failed on unmapped or forbidden memory. */
    ERR_FAULT,
    /** pins refused by RLIMIT_MEMLOCK. */
    ERR_MEMLOCK,
    /** pins refused because nothing could be evicted. */
    ERR_BUDGET,
    /** uses of a region from another process. */
    ERR_ACCESS,
    /** ioctls rejected for malformed input. */
    ERR_INVAL,
    /** unknown region ids. */
    ERR_NOENT,
    /** MXoE frames sent. */
    TX_FRAMES,
    /** MXoE frames put in an event ring. */
    RX_FRAMES,
    /** frames dropped: interface not attached. */
    RX_NOT_ATTACHED,
    /** frames dropped: shorter than their header [SHORT]. */
    RX_SHORT,
    /** frames dropped: version not 1 [BAD_VERSION]. */
    RX_BAD_VERSION,
    /** frames dropped: kind not 1..15 [UNKNOWN_KIND]. */
    RX_UNKNOWN_KIND,
    /** frames dropped: payload length inconsistent with the frame, the kind or the link limit [BAD_LENGTH]. */
    RX_BAD_LENGTH,
    /** frames dropped: invalid field [BAD_FIELD]. */
    RX_BAD_FIELD,
    /** frames dropped: offset or length out of range [OUT_OF_RANGE]. */
    RX_OUT_OF_RANGE,
    /** frames dropped: no endpoint bound to the destination index on the interface [WRONG_ENDPOINT]. */
    RX_WRONG_ENDPOINT,
    /** frames dropped: destination session is not the endpoint's [WRONG_SESSION]. */
    RX_WRONG_SESSION,
    /** frames dropped: the event ring was full. */
    RX_RING_FULL,
    /** PINMX_IOC_PULL calls that started a pull. */
    PULLS_STARTED,
    /** pulls that ended with PINMX_EVENT_PULL_DONE. */
    PULLS_DONE,
    /** pulls that ended with PINMX_EVENT_PULL_FAILED. */
    PULLS_FAILED,
    /** bytes written into local regions by pulls. */
    PULL_BYTES,
    /** pulls done as a region-to-region copy between endpoints of one interface, without frames. */
    PULLS_LOCAL,
    /** PULL frames sent, resends included. */
    PULL_REQUESTS,
    /** PULL frames sent again after a timeout. */
    PULL_RESENDS,
    /** pulls failed after the last resend. */
    PULL_TIMEOUTS,
    /** PULL_REPLY frames served. */
    PULL_REPLIES_SENT,
    /** PULL_REPLY frames written into a local region. */
    PULL_REPLIES_RECEIVED,
    /** PULL_REPLY frames dropped: unknown or finished pull, other peer, or frame already received [PULL_DUPLICATE_FRAMES]. */
    PULL_DUPLICATES,
    /** PULL_REPLY frames dropped: offset, index or length not matching their block [BAD_FIELD]. */
    PULL_BAD_REPLY,
    /** PULL_REPLY frames dropped because the local pages were not pinned yet (overlapped pinning) [OVERLAP_MISSES]. */
    OVERLAP_MISSES,
    /** PULL requests (or their tails) left unserved because the served pages were not pinned yet; the puller resends. */
    SERVE_MISSES,
    /** NACK frames sent by the module. */
    NACKS_SENT,
    /** frames the module could not send from softirq (no memory, interface down or gone, queue full). */
    TX_ERRORS,
    /** remote accesses refused: the region is exposed and the frame carries no key. */
    RX_NO_KEY,
    /** remote accesses refused: the frame's key is not the exposed region's. */
    RX_BAD_KEY,
    /** PUT frames refused: the region is not exposed. */
    RX_NOT_EXPOSED,
    /** PINMX_IOC_PUT calls that started a put. */
    PUTS_STARTED,
    /** puts that ended with PINMX_EVENT_PUT_DONE. */
    PUTS_DONE,
    /** puts that ended with PINMX_EVENT_PUT_FAILED. */
    PUTS_FAILED,
    /** PUT frames sent, resends included. */
    PUT_FRAMES_SENT,
    /** PUT frames sent again after a timeout. */
    PUT_RESENDS,
    /** puts failed after the last resend. */
    PUT_TIMEOUTS,
    /** PUT frames written into a local region and acknowledged. */
    PUT_FRAMES_WRITTEN,
    /** PUT frames dropped because the target pages were not pinned yet; the origin resends. */
    PUT_MISSES,
    /** PUT_ACK or NACK frames for an unknown or finished put, another peer, or a frame acknowledged already. */
    PUT_DUPLICATE_ACKS,
    /** atomics that ended with PINMX_EVENT_ATOMIC_DONE. */
    ATOMICS_DONE,
    /** atomics that ended with PINMX_EVENT_ATOMIC_FAILED. */
    ATOMICS_FAILED,
    /** ATOMIC requests applied to a local region. */
    ATOMICS_APPLIED,
    /** ATOMIC requests seen before, not applied again: answered with the stored answer, or dropped when older than the peer's window. */
    ATOMIC_REPLAYS,
    /** ATOMIC requests dropped because the target page was not pinned yet; the origin resends. */
    ATOMIC_MISSES,
    /** ATOMIC_REPLY or NACK frames for no atomic in flight. */
    ATOMIC_DUPLICATE_REPLIES,
    /** PUT frames dropped unwritten because their put had ended at the origin (a late duplicate). */
    PUT_STALE,
    /** Pulls ended by PINMX_IOC_PULL_CANCEL (also counted in PULLS_FAILED). */
    PULLS_CANCELLED,
    /** PUT and ATOMIC frames answered NACK HELD: their region's owner holds remote writes back. */
    WRITES_HELD;
}
