package io.pinmx.rma;

import java.util.ArrayList;
import java.util.List;

/**
 * Completion of non-blocking operations. An explicit handle ({@link Rma#handle()}) follows one operation at a time,
 * an aggregate handle ({@link Rma#aggregateHandle()}) any number; operations given no handle are followed by the
 * implicit handles ({@link Rma#waitProc(int)}, {@link Rma#waitAll()}). A put or accumulate is complete when its
 * source may be reused, a get when its data is in place. Operations on the shared-memory tier complete before the
 * call returns, so they leave nothing here; operations through the driver add what they wait for.
 */
public final class RmaHandle
{
    /** Something an operation still waits for. */
    interface Completion
    {
        /** @return true once done (errors are thrown from {@link #await()}). */
        boolean isDone();

        /** Moves on as {@link #isDone()} does, short of starting what only a test needs before a wait. */
        default void noteProgress()
        {
            isDone();
        }

        /** Waits until done; throws {@link RmaException} naming the target if the operation failed. */
        void await();
    }

    private final boolean aggregate;
    private final boolean blocking;
    private final List<Completion> pending = new ArrayList<>();
    private int operations;

    RmaHandle(final boolean aggregate)
    {
        this(aggregate, false);
    }

    /** @param blocking the handle of blocking calls, waited for before the call returns. */
    RmaHandle(final boolean aggregate, final boolean blocking)
    {
        this.aggregate = aggregate;
        this.blocking = blocking;
    }

    /** @return whether the call that adds an operation waits for it before it returns (a blocking call's handle). */
    boolean isBlocking()
    {
        return blocking;
    }

    /** @return true for an aggregate handle. */
    public boolean isAggregate()
    {
        return aggregate;
    }

    /**
     * An explicit handle given a new operation first completes the one it still follows, as {@link #await()} does:
     * ARMCI lets a handle be reused without a wait, and on the shared-memory tier (where every operation is complete
     * on return) that always worked, so the driver tier must not refuse it nor drop the earlier operation unfinished
     * (a staged get never unpacked, its requests never released).
     *
     * @throws RmaException naming the target if the earlier operation failed (the new one is then not started).
     */
    void begin()
    {
        if (!aggregate && !pending.isEmpty())
        {
            await();
        }
        if (!aggregate)
        {
            operations = 0;
        }
        operations++;
    }

    void add(final Completion completion)
    {
        pending.add(completion);
    }

    /**
     * Never blocks. When every operation is done it also finishes them as {@link #await()} does (a staged or packed
     * get is unpacked into the caller's memory, the endpoint's requests released): a get whose handle tested
     * complete has its data in place, and the handle is free for the next operation, waited for or not (ARMCI_Test).
     *
     * @return true if every operation this handle follows is complete.
     * @throws RmaException naming the target of an operation that failed (the handle is then free again).
     */
    public boolean test()
    {
        for (int i = 0; i < pending.size(); i++)
        {
            if (!pending.get(i).isDone())
            {
                return false;
            }
        }
        if (!pending.isEmpty())
        {
            await();
        }
        return true;
    }

    /**
     * Waits for every operation this handle follows, then frees it for new ones. A failure does not cut the wait
     * short: the caller may reuse or free its buffers once this returns or throws, so no operation may still be
     * writing into them.
     *
     * @throws RmaException naming the target of the first operation that failed (later failures suppressed in it).
     */
    public void await()
    {
        RuntimeException failure = null;
        try
        {
            // Gets seen done before the first waits share one check of their target's epoch counter.
            for (int i = 0; i < pending.size(); i++)
            {
                pending.get(i).noteProgress();
            }
            for (int i = 0; i < pending.size(); i++)
            {
                try
                {
                    pending.get(i).await();
                }
                catch (final RuntimeException ex)
                {
                    if (null == failure)
                    {
                        failure = ex;
                    }
                    else if (failure != ex)
                    {
                        failure.addSuppressed(ex);
                    }
                }
            }
        }
        finally
        {
            pending.clear();
            operations = 0;
        }
        if (null != failure)
        {
            throw failure;
        }
    }
}
