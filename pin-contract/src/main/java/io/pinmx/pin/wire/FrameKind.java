package io.pinmx.pin.wire;

/**
 * MXoE frame kinds with their one-byte wire code, the length of their kind-specific part and the
 * largest payload the kind allows regardless of the link.
 */
public enum FrameKind
{
    /** Open a session with a peer endpoint. */
    CONNECT_REQUEST(1, ConnectFrame.KIND_PART_BYTES, 0),
    /** Answer a CONNECT_REQUEST. */
    CONNECT_REPLY(2, ConnectFrame.KIND_PART_BYTES, 0),
    /** Eager message of at most 32 bytes. */
    TINY(3, EagerFrame.KIND_PART_BYTES, EagerFrame.TINY_MAX_PAYLOAD_BYTES),
    /** Eager message of at most 128 bytes. */
    SMALL(4, EagerFrame.KIND_PART_BYTES, EagerFrame.SMALL_MAX_PAYLOAD_BYTES),
    /** One fragment of a medium eager message; payload bounded by the link. */
    MEDIUM_FRAG(5, MediumFragFrame.KIND_PART_BYTES, Integer.MAX_VALUE),
    /** Rendezvous: the sender's region is ready to be pulled. */
    RNDV(6, RndvFrame.KIND_PART_BYTES, 0),
    /** Request for one block of a pull; the payload is the serving region's key when it is exposed. */
    PULL(7, PullFrame.KIND_PART_BYTES, PullFrame.KEY_PAYLOAD_BYTES),
    /** One frame of pulled data; payload bounded by the link. */
    PULL_REPLY(8, PullReplyFrame.KIND_PART_BYTES, Integer.MAX_VALUE),
    /** The receiver pulled a rendezvous message; the sender may complete. */
    NOTIFY(9, NotifyFrame.KIND_PART_BYTES, 0),
    /** Explicit acknowledgement. */
    ACK(10, AckFrame.KIND_PART_BYTES, 0),
    /** Refusal of a frame (bad endpoint, session, region, range, segment fault). */
    NACK(11, NackFrame.KIND_PART_BYTES, 0),
    /** Bytes written into a region exposed for remote writes; payload bounded by the link. */
    PUT(12, PutFrame.KIND_PART_BYTES, Integer.MAX_VALUE),
    /** One PUT frame was written. */
    PUT_ACK(13, PutAckFrame.KIND_PART_BYTES, 0),
    /** A read-modify-write on words of an exposed region; 8-byte operands. */
    ATOMIC(14, AtomicFrame.KIND_PART_BYTES, AtomicFrame.MAX_OPERAND_BYTES),
    /** An ATOMIC was applied: the old value. */
    ATOMIC_REPLY(15, AtomicReplyFrame.KIND_PART_BYTES, 0);

    /** Highest kind code in use. */
    public static final int MAX_CODE = 15;

    private static final FrameKind[] BY_CODE = new FrameKind[256];

    static
    {
        for (final FrameKind kind : values())
        {
            BY_CODE[kind.code] = kind;
        }
    }

    private final int code;
    private final int kindPartBytes;
    private final int maxPayloadBytes;

    FrameKind(final int code, final int kindPartBytes, final int maxPayloadBytes)
    {
        this.code = code;
        this.kindPartBytes = kindPartBytes;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /**
     * @return the wire code.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return bytes of the kind-specific part after the common header.
     */
    public int kindPartBytes()
    {
        return kindPartBytes;
    }

    /**
     * @return header bytes: common header plus kind part; the payload starts here.
     */
    public int headerBytes()
    {
        return FrameFlyweight.HEADER_BYTES + kindPartBytes;
    }

    /**
     * @return largest payload the kind allows ({@link Integer#MAX_VALUE}: bounded by the link only).
     */
    public int maxPayloadBytes()
    {
        return maxPayloadBytes;
    }

    /**
     * @param code a wire code, 0..255.
     * @return the kind, or null for an unknown code.
     */
    public static FrameKind fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
