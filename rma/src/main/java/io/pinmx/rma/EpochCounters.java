package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The access-epoch counters of the other ranks ({@link EpochGate#counter()}: odd while an epoch is open, one more at
 * each opening and closing), which each rank exposes on its endpoint, as this rank last read them. A get through the
 * driver is a pull that no thread of its target takes part in, so it cannot be held back by the target's epoch;
 * instead it keeps the reading known when it started and, once its reads are done, compares it with a reading taken
 * after them: equal and even, no epoch overlapped the pull; otherwise it waits for the counter to be even and pulls
 * again. Gets whose reads were seen done before one reading share it, so an aggregate wait reads each target's
 * counter once. A test of a get starts that reading without waiting for it ({@link #readAfter}): the reading is a
 * pull the target's endpoint serves, which through the user driver waits for a CPU the target may be computing on.
 * A rank that announced at init that it opens no epochs ({@link RmaOptions#accessEpochs()} false) exposes no counter:
 * a get from it is done when its reads are. Owned by the thread issuing operations.
 */
final class EpochCounters
{
    private static final long FIRST_WAIT_NS = 20_000;
    private static final long MAX_WAIT_NS = 1_000_000;

    /** A rank's region id when it opens no epochs: it exposes no counter. */
    private static final int NO_EPOCHS = -1;

    private final JobEndpoint job;
    private final Endpoint endpoint;
    /** Per rank, the region of its exposed counter, or {@link #NO_EPOCHS}. */
    private final int[] regionIds;
    /** Per rank, the latest reading, and the logical time its read started. */
    private final long[] reading;
    private final long[] readingStartedAt;
    /** Per rank, the reading under way that no one waited for yet ({@link #readAfter}), or null. */
    private final Request[] unlanded;
    /** Per rank, the word its counter is read into. */
    private final MemorySegment[] words;
    /** Logical time: orders readings against gets seen done. */
    private long clock;

    private EpochCounters(final JobEndpoint job, final int[] regionIds)
    {
        this.job = job;
        this.endpoint = job.endpoint();
        this.regionIds = regionIds;
        this.reading = new long[regionIds.length];
        this.readingStartedAt = new long[regionIds.length];
        this.unlanded = new Request[regionIds.length];
        this.words = new MemorySegment[regionIds.length];
        final MemorySegment all = Arena.ofAuto().allocate((long)regionIds.length * Long.BYTES, Long.BYTES);
        for (int r = 0; r < regionIds.length; r++)
        {
            words[r] = all.asSlice((long)r * Long.BYTES, Long.BYTES);
        }
    }

    /**
     * Collective: exposes this rank's counter on its endpoint, unless it opens no epochs, and learns every rank's
     * region. Every counter is 0 (zeroed at start) until its rank opens an epoch, which it can do only once this has
     * returned there.
     *
     * @param accessEpochs whether this rank may open access epochs.
     */
    static EpochCounters exchange(final JobEndpoint job, final EpochGate own, final boolean accessEpochs)
    {
        final int mine = accessEpochs ? job.endpoint().regions().expose(own.counter()).id() : NO_EPOCHS;
        final List<byte[]> all = job.job().allGather(ByteBuffer.allocate(Integer.BYTES).putInt(mine).array());
        final int[] regionIds = new int[all.size()];
        for (int r = 0; r < regionIds.length; r++)
        {
            regionIds[r] = ByteBuffer.wrap(all.get(r)).getInt();
        }
        return new EpochCounters(job, regionIds);
    }

    /** @return a logical time after everything this rank has already seen. */
    long tick()
    {
        return ++clock;
    }

    /** @return the latest reading of the rank's counter: what a get starting now compares with. */
    long known(final int rank)
    {
        return reading[rank];
    }

    /**
     * @param seenDoneAt when the get's reads were seen done ({@link #tick()}).
     * @param known      the reading the get started with ({@link #known(int)}).
     * @return whether no epoch of the rank overlapped a get started after reading {@code known} and done by
     *         {@code seenDoneAt}: a reading started after it is the same, even value.
     * @throws RmaException naming the rank if its counter cannot be read (it died).
     */
    boolean unchanged(final int rank, final long seenDoneAt, final long known)
    {
        if (NO_EPOCHS == regionIds[rank])
        {
            return true;
        }
        land(rank);
        if (readingStartedAt[rank] <= seenDoneAt)
        {
            read(rank);
        }
        return reading[rank] == known && 0 == (known & 1);
    }

    /**
     * Reads the rank's counter until no epoch is open there, backing off between reads (an epoch is its owner's
     * local critical section: short).
     *
     * @return the even reading a get pulled again starts with.
     */
    long awaitNoEpoch(final int rank)
    {
        long waitNs = FIRST_WAIT_NS;
        while (0 != (read(rank) & 1))
        {
            LockSupport.parkNanos(waitNs);
            waitNs = Math.min(MAX_WAIT_NS, 2 * waitNs);
        }
        return reading[rank];
    }

    /**
     * Without blocking: whether a reading of the rank's counter that started after {@code seenDoneAt} has landed (or
     * failed: {@link #unchanged} then throws); if none has started, starts one.
     *
     * @param seenDoneAt when a get's reads were seen done ({@link #tick()}).
     */
    boolean readAfter(final int rank, final long seenDoneAt)
    {
        if (NO_EPOCHS == regionIds[rank])
        {
            return true;
        }
        final Request r = unlanded[rank];
        if (null != r)
        {
            if (!r.test())
            {
                return false;
            }
            if (readingStartedAt[rank] > seenDoneAt || RequestState.FAILED == r.state())
            {
                return true;
            }
            // an earlier get's reading, landed: taken without waiting, and a later one started
            land(rank);
        }
        if (readingStartedAt[rank] > seenDoneAt)
        {
            return true;
        }
        try
        {
            unlanded[rank] = start(rank);
        }
        catch (final RmaException ex)
        {
            // the rank failed: the wait that follows reads again and throws it
            return true;
        }
        return false;
    }

    private long read(final int rank)
    {
        land(rank);
        unlanded[rank] = start(rank);
        land(rank);
        return reading[rank];
    }

    private Request start(final int rank)
    {
        readingStartedAt[rank] = tick();
        try
        {
            return endpoint.regions().iget(job.partner(rank), regionIds[rank], 0, words[rank]);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
    }

    /** Waits for the rank's reading under way, if any, and takes its value. */
    private void land(final int rank)
    {
        final Request r = unlanded[rank];
        if (null == r)
        {
            return;
        }
        unlanded[rank] = null;
        r.await(DriverTier.UNTIL_DONE);
        final RmaException failed = RequestState.FAILED == r.state() ? RankFailures.failure(rank, r) : null;
        r.release();
        if (null != failed)
        {
            throw failed;
        }
        reading[rank] = words[rank].get(ValueLayout.JAVA_LONG, 0);
    }
}
