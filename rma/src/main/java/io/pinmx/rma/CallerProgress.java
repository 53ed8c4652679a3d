package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;

/**
 * What a computing thread does for the pulls other ranks aim at its rank ({@code ARMCI_Progress}). Through the user
 * driver those pulls are served by this rank's endpoint progress thread, a block per round trip, on the CPUs the
 * caller computes on; a thread computing for seconds holds its CPU for whole time slices, and each block then waits
 * for one to end. While pull requests keep arriving (the endpoint's count of them moved since the last call) the
 * caller yields its CPU once; otherwise the call is one counter read. A rank that reaches every rank through shared
 * memory has no endpoint and nothing to serve.
 */
final class CallerProgress
{
    /** Null without an endpoint. */
    private final DriverCounters counters;
    private long pullRequestsSeen;

    /** @param endpoint this rank's endpoint, null when it has none. */
    CallerProgress(final Endpoint endpoint)
    {
        this.counters = null == endpoint ? null : endpoint.counters().driver();
        this.pullRequestsSeen = null == counters ? 0 : counters.get(Counter.FRAMES_RECEIVED_PULL);
    }

    /** @return true if pull requests arrived since the last call and the CPU was offered to their server. */
    boolean offer()
    {
        if (null == counters)
        {
            return false;
        }
        final long pullRequests = counters.get(Counter.FRAMES_RECEIVED_PULL);
        if (pullRequests == pullRequestsSeen)
        {
            return false;
        }
        pullRequestsSeen = pullRequests;
        Thread.yield();
        return true;
    }
}
