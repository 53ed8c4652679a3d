package io.pinmx.rma;

/**
 * The match info of the one-sided layer's messages: a marker byte, a kind byte and a 48-bit sequence number that
 * pairs a request with its data and its reply.
 */
final class RmaTags
{
    static final long KIND_MASK = 0xFFFF_0000_0000_0000L;
    static final long SEQUENCE_MASK = ~KIND_MASK;
    private static final long MARKER = 0xA5L << 56;
    /** Origin to the target's data server: a request header (and inline data). */
    static final long REQUEST = MARKER | 1L << 48;
    /** Origin to the target's data server: the data of a put or accumulate too large to travel inline. */
    static final long DATA = MARKER | 2L << 48;
    /** Data server to the origin: an old value, a fence or a mutex grant. */
    static final long REPLY = MARKER | 3L << 48;
    /** Data server to the origin: a chunk of the packed data of a GET_PACKED request. */
    static final long PACKED = MARKER | 4L << 48;
    /** Rank to rank: an ARMCI two-sided message ({@code armci_msg_snd}), its tag in the low 32 bits. */
    static final long MESSAGE = MARKER | 5L << 48;
    /** Releaser to a waiter: its turn of a passive host's mutex is in its flag word ({@link TurnWakes}); no bytes. */
    static final long WAKE = MARKER | 6L << 48;

    private RmaTags()
    {
    }

    static long of(final long kind, final long sequence)
    {
        return kind | (sequence & SEQUENCE_MASK);
    }
}
