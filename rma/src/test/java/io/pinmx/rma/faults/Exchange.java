package io.pinmx.rma.faults;

import io.pinmx.mx.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * Two-sided traffic of the kill phase, both ways at once: one rendezvous-sized message to the other rank always in
 * flight and one receive from it always posted, each replaced as it completes. The first failure of either is kept:
 * a partner that is gone must fail them, naming it.
 */
final class Exchange
{
    private static final long MESSAGE_BYTES = 100_000;

    private final MessageStream stream;
    private final MemorySegment out;
    private final MemorySegment in;
    private Request sending;
    private Request receiving;
    private long sent;
    private String failure;

    Exchange(final MessageStream stream, final Arena arena)
    {
        this.stream = stream;
        this.out = arena.allocate(MESSAGE_BYTES);
        this.in = arena.allocate(MESSAGE_BYTES);
    }

    /**
     * Replaces what completed, waiting at most {@code wait} for the receive.
     *
     * @return the first failure of a send or a receive, or null while there is none.
     */
    String step(final Duration wait)
    {
        if (null != failure)
        {
            return failure;
        }
        if (null == receiving || receiving.await(wait))
        {
            receiving = replaced(receiving, true);
            if (null == receiving)
            {
                return failure;
            }
        }
        if (null == sending || sending.test())
        {
            sending = replaced(sending, false);
        }
        return failure;
    }

    /** @return a new request in place of the completed one, or null when it failed (kept as the failure). */
    private Request replaced(final Request done, final boolean receive)
    {
        if (null != done)
        {
            if (done.status().isError())
            {
                failure = done.status().error().replace('\n', ' ');
                return null;
            }
            done.release();
        }
        if (receive)
        {
            return stream.receiveOne(in);
        }
        Payloads.fill(out, sent);
        return stream.sendOne(sent++, out);
    }
}
