package io.pinmx.mx;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Pull starts the driver refused for want of room (NO_RESOURCES: the kernel module's event ring full when a pull
 * ended inside its ioctl, every pull slot busy), in the order they came. They are tried again after the next poll,
 * which drains the ring and ends pulls, oldest first and only until one is refused again; a new start waits behind
 * them ({@link #queueBehind}), so that a caller posting faster than pulls end cannot starve the oldest. A refusal is
 * final, failing the request as before, only when the driver made no room for {@link #PATIENCE_NS}: the request
 * waited that long and no waiting start was accepted meanwhile; a refusal of another kind is final at once. One per
 * owner of pulls (rendezvous receives, one-sided reads); guarded by the endpoint lock.
 */
final class RefusedPullStarts
{
    /**
     * How long pull starts may keep being refused for want of room, none accepted, before they fail: longer than a
     * pull may run before its driver times it out (the user driver's default, 20 resends backing off, takes about
     * 6 s), so slots held by pulls of a slow or dead peer are given back before anyone waiting gives up.
     */
    static final long PATIENCE_NS = TimeUnit.SECONDS.toNanos(30);

    private final ArrayDeque<Request> waiting;
    private boolean retrying;
    private boolean refusedAgain;
    private long lastAcceptedNs;

    RefusedPullStarts(final int capacity)
    {
        waiting = new ArrayDeque<>(capacity);
    }

    /**
     * @param r       the request whose pull start was refused.
     * @param refusal what the driver threw.
     * @param nowNs   the endpoint's clock.
     * @return true when the request waits for its next try; false when the refusal is final.
     */
    boolean defer(final Request r, final RuntimeException refusal, final long nowNs)
    {
        if (!(refusal instanceof DriverException de) || DriverError.NO_RESOURCES != de.kind())
        {
            return false;
        }
        if (!r.pullStartRefused)
        {
            firstRefusal(r, nowNs);
        }
        else if (nowNs - r.pullFirstRefusedNs > PATIENCE_NS && nowNs - lastAcceptedNs > PATIENCE_NS)
        {
            return false;
        }
        if (retrying)
        {
            // tried in its turn: it keeps its place, and those behind it wait for the next poll
            refusedAgain = true;
            waiting.addFirst(r);
        }
        else
        {
            waiting.addLast(r);
        }
        return true;
    }

    boolean isEmpty()
    {
        return waiting.isEmpty();
    }

    /**
     * A start not tried yet waits behind the refused ones, if any.
     *
     * @return true if it was queued (its owner tries nothing now).
     */
    boolean queueBehind(final Request r, final long nowNs)
    {
        if (retrying || waiting.isEmpty())
        {
            return false;
        }
        if (!r.pullStartRefused)
        {
            firstRefusal(r, nowNs);
        }
        waiting.addLast(r);
        return true;
    }

    /**
     * Tries the waiting starts, oldest first, until one is refused again; {@code retry} starts one again and may
     * defer it anew (it then stays first).
     */
    void retryEach(final Consumer<Request> retry)
    {
        retrying = true;
        refusedAgain = false;
        try
        {
            for (int n = waiting.size(); n > 0 && !refusedAgain; n--)
            {
                retry.accept(waiting.pollFirst());
            }
        }
        finally
        {
            retrying = false;
        }
    }

    /** A start that was accepted: the next refusal of this request starts its patience afresh. */
    void accepted(final Request r, final long nowNs)
    {
        if (r.pullStartRefused)
        {
            r.pullStartRefused = false;
            lastAcceptedNs = nowNs;
        }
    }

    private void firstRefusal(final Request r, final long nowNs)
    {
        if (waiting.isEmpty())
        {
            lastAcceptedNs = nowNs;
        }
        r.pullStartRefused = true;
        r.pullFirstRefusedNs = nowNs;
    }
}
