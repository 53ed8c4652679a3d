package io.pinmx.pin.provider;

/**
 * The contract's {@code await(timeoutNs)} for both providers: check readiness, then block in the provider's own
 * wait for at most the time left, until ready or the deadline. It does not spin or yield first: whoever calls it has
 * polled already (the endpoint library's progress thread through its {@link BackoffThenBlockIdleStrategy}, a
 * caller-mode wait through its poll), and a spin restarted on every call would make a wait of many bounded slices
 * burn its core and, behind its yields, wake late on a loaded host.
 * One instance per endpoint; the contract has one thread in await at a time. Allocation-free.
 */
public final class AwaitLoop
{
    /** Whether an event is ready; may do a provider's work first, and throws when the endpoint is closed. */
    @FunctionalInterface
    public interface Readiness
    {
        boolean ready();
    }

    /** One blocking wait of at most {@code maxNs}. */
    @FunctionalInterface
    public interface TimedBlocker
    {
        void block(long maxNs);
    }

    private final Readiness readiness;
    private final TimedBlocker blocker;

    public AwaitLoop(final Readiness readiness, final TimedBlocker blocker)
    {
        this.readiness = readiness;
        this.blocker = blocker;
    }

    /** @return true when an event is ready, false when the timeout passed first. */
    public boolean await(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + Math.max(0, timeoutNs);
        while (true)
        {
            if (readiness.ready())
            {
                return true;
            }
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                return false;
            }
            blocker.block(leftNs);
        }
    }
}
