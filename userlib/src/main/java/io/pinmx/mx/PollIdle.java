package io.pinmx.mx;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * How a waiting API call idles between the tries of its poll phase, the first {@code callerPollNs} of a wait (or the
 * poll time the wait names), before it parks or blocks in the driver. Each is one of the project's idle strategies
 * ({@link BackoffThenBlockIdleStrategy}); every waiting thread gets an instance of its own.
 */
public enum PollIdle
{
    /**
     * Spin, and yield the core once every {@value BackoffThenBlockIdleStrategy#POLLS_PER_YIELD} empty tries, so that
     * a descheduled partner or the endpoint's agent thread gets it on a small host.
     */
    BUSY_POLLING,
    /**
     * Spin on every empty try, never yield: on a loaded host a yield hands the core to every other runnable task for
     * a scheduler slice, where a partner's reply takes microseconds. For a caller whose waits bound their own poll
     * time and that runs no agent thread beside it (the MPJ device's caller mode).
     */
    BUSY_SPIN;

    /** @return a new idle for one waiting thread. */
    IdleStrategy newIdleStrategy()
    {
        return switch (this)
        {
            case BUSY_POLLING -> BackoffThenBlockIdleStrategy.busyPolling();
            case BUSY_SPIN -> BackoffThenBlockIdleStrategy.busySpin();
        };
    }
}
