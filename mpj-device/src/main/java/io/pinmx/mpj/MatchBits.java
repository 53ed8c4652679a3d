package io.pinmx.mpj;

/**
 * How MPJ's (kind of message, init epoch, context, tag) map onto the endpoint's 64-bit match info. The source is
 * not in the bits: the endpoint matches it itself (a partner id, or ANY_SOURCE).
 *
 * <pre>
 *  63..62  kind     0 = message (header + static buffer), 1 = its dynamic buffer, 2 = heartbeat
 *  61..48  epoch    the device's init count in this JVM, mod 2^14: traffic of an earlier init never matches
 *  47..32  context  MPJ's communicator context, 0..65535
 *  31..0   tag      MPJ's tag, all 32 bits (ANY_TAG leaves these out of the mask)
 * </pre>
 * A dynamic buffer (kind 1) carries, instead of context and tag, the sender's sequence number of dynamic buffers
 * to that receiver (bits 31..0, also in its message's header): the receiver asks for exactly the one its message
 * names, so receives that complete out of their posting order still pair each message with its own part.
 */
final class MatchBits
{
    static final int KIND_MESSAGE = 0;
    static final int KIND_DYNAMIC = 1;
    static final int KIND_HEARTBEAT = 2;
    static final int EPOCH_BITS = 14;
    static final int MAX_CONTEXT = 0xFFFF;

    private static final int KIND_SHIFT = 62;
    private static final int EPOCH_SHIFT = 48;
    private static final int CONTEXT_SHIFT = 32;
    private static final long TAG_BITS = 0xFFFF_FFFFL;
    /** Every bit but the tag's: what a receive for ANY_TAG still insists on. */
    static final long ANY_TAG_MASK = ~TAG_BITS;
    static final long EXACT_MASK = -1L;
    /** Kind and epoch only: every message of one init, whatever its context and tag. */
    static final long KIND_AND_EPOCH_MASK = ~((1L << EPOCH_SHIFT) - 1);

    private MatchBits()
    {
    }

    static long of(final int kind, final int epoch, final int context, final int tag)
    {
        return ((long)kind << KIND_SHIFT) |
            ((long)(epoch & ((1 << EPOCH_BITS) - 1)) << EPOCH_SHIFT) |
            ((long)context << CONTEXT_SHIFT) |
            (tag & TAG_BITS);
    }

    /** The bits of the {@code sequence}-th dynamic buffer from one sender to one receiver in this init. */
    static long dynamicPart(final int epoch, final int sequence)
    {
        return of(KIND_DYNAMIC, epoch, 0, sequence);
    }

    static long mask(final boolean anyTag)
    {
        return anyTag ? ANY_TAG_MASK : EXACT_MASK;
    }

    static int tag(final long bits)
    {
        return (int)bits;
    }

    static int context(final long bits)
    {
        return (int)(bits >>> CONTEXT_SHIFT) & MAX_CONTEXT;
    }

    /**
     * @throws xdev.XDevException naming the context if it does not fit its 16 bits.
     */
    static int checkContext(final int context)
    {
        if (context < 0 || context > MAX_CONTEXT)
        {
            throw new xdev.XDevException("mxdev (pinmx): context " + context + " is outside 0.." + MAX_CONTEXT +
                " (the bits the device gives contexts in the endpoint's match info)");
        }
        return context;
    }
}
