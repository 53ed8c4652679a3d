package io.pinmx.pin.provider;

/**
 * The contract's {@code await(timeoutNs)} for both providers: check readiness, then idle with a
 * {@link BackoffThenBlockIdleStrategy} whose block waits at most the time left, until ready or the deadline.
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
    private final BackoffThenBlockIdleStrategy idle;
    private long leftNs;

    public AwaitLoop(final Readiness readiness, final TimedBlocker blocker)
    {
        this.readiness = readiness;
        this.idle = BackoffThenBlockIdleStrategy.providerAwait(() -> blocker.block(leftNs));
    }

    /** @return true when an event is ready, false when the timeout passed first. */
    public boolean await(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + Math.max(0, timeoutNs);
        idle.reset();
        while (true)
        {
            if (readiness.ready())
            {
                return true;
            }
            leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                return false;
            }
            idle.idle();
        }
    }
}
