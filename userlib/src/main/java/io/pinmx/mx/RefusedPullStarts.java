package io.pinmx.mx;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Pull starts the driver refused for want of room (NO_RESOURCES: the kernel module's event ring full when a pull
 * ended inside its ioctl, every pull slot busy). Each is tried again after the next poll, which drains the ring and
 * ends pulls, for up to {@link #PATIENCE_NS} from its first refusal; a refusal after that, or of another kind, is
 * final and fails the request as before. One per owner of pulls (rendezvous receives, one-sided reads); guarded by
 * the endpoint lock.
 */
final class RefusedPullStarts
{
    /** How long a request's pull may keep being refused for want of room before it fails. */
    static final long PATIENCE_NS = TimeUnit.SECONDS.toNanos(5);

    private final ArrayDeque<Request> waiting;

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
            r.pullStartRefused = true;
            r.pullFirstRefusedNs = nowNs;
        }
        else if (nowNs - r.pullFirstRefusedNs > PATIENCE_NS)
        {
            return false;
        }
        waiting.addLast(r);
        return true;
    }

    /**
     * Tries each waiting start once, oldest first; {@code retry} starts it again and may defer it anew.
     */
    void retryEach(final Consumer<Request> retry)
    {
        for (int n = waiting.size(); n > 0; n--)
        {
            retry.accept(waiting.pollFirst());
        }
    }

    /** A start that was accepted: the next refusal of this request starts its patience afresh. */
    static void accepted(final Request r)
    {
        r.pullStartRefused = false;
    }
}
