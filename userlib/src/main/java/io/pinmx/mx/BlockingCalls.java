package io.pinmx.mx;

import io.pinmx.pin.wire.ConnectStatus;
import org.agrona.concurrent.IdleStrategy;

import java.time.Duration;

/**
 * The endpoint's blocking calls that wait on requests or messages: each tries its non-blocking form, and between
 * tries lets {@link CallerWaits} pause it (progress rounds or spins on this thread first, then parking or blocking
 * in the driver), until done or its deadline. Runs on the calling thread; holds no state of its own.
 */
final class BlockingCalls
{
    /** Longest pause between two tries, so that a deadline is noticed in time. */
    private static final long MAX_PAUSE_NS = 1_000_000L;

    private final CallerWaits waits;

    BlockingCalls(final CallerWaits waits)
    {
        this.waits = waits;
    }

    /**
     * Waits for a blocking send's or receive's request and releases it; one that did not match in time is cancelled.
     *
     * @param out where the request's outcome is copied, or null.
     * @throws MxException naming the request if it did not complete in time or failed.
     */
    static void finish(final Request request, final Duration timeout, final Status out)
    {
        if (!request.await(timeout))
        {
            final String what = request.toString();
            if (!request.cancel())
            {
                throw new MxException(what + " did not complete within " + timeout.toMillis() + " ms");
            }
            request.release();
            throw new MxException(what + " did not match within " + timeout.toMillis() + " ms and was cancelled");
        }
        final String error = request.status.error;
        if (null != out)
        {
            out.copyFrom(request.status);
        }
        request.release();
        if (null != error)
        {
            throw new MxException(error);
        }
    }

    /**
     * @return true if {@code endpoint}'s {@link Endpoint#iprobe} found such a message within the timeout.
     */
    boolean probe(
        final Endpoint endpoint, final int source, final long matchInfo, final long matchMask, final Status out,
        final Duration timeout)
    {
        final long startNs = System.nanoTime();
        final long deadline = startNs + timeout.toNanos();
        final long pollEndNs = startNs + waits.callerPollNs();
        final IdleStrategy idle = waits.pollIdle();
        while (!endpoint.iprobe(source, matchInfo, matchMask, out))
        {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return false;
            }
            waits.pause(Math.min(remaining, MAX_PAUSE_NS), pollEndNs, idle);
        }
        return true;
    }

    /**
     * @return the index of one of the first {@code count} requests that is done, or -1 if none is within the timeout.
     */
    int waitAny(final Request[] requests, final int count, final Duration timeout)
    {
        return waitAny(requests, count, timeout, waits.callerPollNs());
    }

    /**
     * @param pollNs how long the wait stays on its core before it blocks or parks.
     * @return the index of one of the first {@code count} requests that is done, or -1 if none is within the timeout.
     */
    int waitAny(final Request[] requests, final int count, final Duration timeout, final long pollNs)
    {
        final long startNs = System.nanoTime();
        final long deadline = startNs + timeout.toNanos();
        final long pollEndNs = startNs + pollNs;
        final IdleStrategy idle = waits.pollIdle();
        while (true)
        {
            for (int i = 0; i < count; i++)
            {
                if (requests[i].state.isDone())
                {
                    return i;
                }
            }
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return -1;
            }
            waits.pause(Math.min(remaining, MAX_PAUSE_NS), pollEndNs, idle);
        }
    }

    /**
     * Waits until a partner that {@code endpoint} began connecting to is connected and has verified the application
     * key; the connector's timers end a connect that gets no answer by its deadline.
     *
     * @return the partner, connected.
     * @throws MxException naming the partner and the cause: failed, or refused (a wrong key named).
     */
    Partner awaitConnected(
        final Endpoint endpoint, final Partner partner, final int applicationKey, final long startNs,
        final long deadline, final Duration timeout)
    {
        final long pollEndNs = startNs + waits.callerPollNs();
        final IdleStrategy idle = waits.pollIdle();
        while (true)
        {
            final ConnectionState state = partner.connection;
            if (ConnectionState.FAILED == state)
            {
                throw new MxException(partner.failure);
            }
            if (state.isConnected())
            {
                final int verified = endpoint.verifyOutcome(partner, applicationKey, deadline, timeout);
                if (verified == ConnectStatus.OK.code())
                {
                    return partner;
                }
                if (verified >= 0)
                {
                    throw new MxException("connect to " + partner.describe() + " refused: " +
                        ConnectStatus.fromCode(verified) + (ConnectStatus.BAD_KEY.code() == verified ?
                        " (application key 0x" + Integer.toHexString(applicationKey) +
                        " is not the endpoint's)" : ""));
                }
            }
            waits.pause(MAX_PAUSE_NS, pollEndNs, idle);
        }
    }
}
