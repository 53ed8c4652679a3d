package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.RemoteWrites;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;
import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The origin side of puts, integer accumulates and read-modify-writes that the target's driver applies itself
 * ({@link RemoteWrites}: on the kernel module, in softirq), so that the target's process, data server included, does
 * nothing: a stopped target still takes them. Each put or accumulate is copied into {@link #staging} and started;
 * the driver copies the bytes before the start returns, so the call is locally complete on return and the staging
 * memory, declared once, is reused at once. What is still in flight is followed here, in start order, until the
 * target acknowledged it: {@link #complete(int)} waits for one rank's (a fence), and at most
 * {@link #OPS_IN_FLIGHT} run at once, the oldest completed first, so the module's own in-flight limits are never
 * met. Operations in flight to one rank are not ordered by the driver (a frame resent after a later put to the same
 * bytes would undo it), so an ordered one (a blocking put or accumulate, which ARMCI orders per target, and every
 * read-modify-write) first waits for every earlier one to its rank, and any other for those still in flight that
 * touch its bytes, unless both are additions, which commute. A failure is kept and thrown naming the rank by the
 * next wait for it. Owned by the thread issuing operations.
 */
final class ModuleWrites
{
    /**
     * Operations in flight at once: below the module's window of atomics in flight per endpoint (256, EBUSY beyond)
     * and its puts running per endpoint (1024).
     */
    static final int OPS_IN_FLIGHT = 128;
    /** Most pieces of one scattered put (the module's limit, uapi pinmx.h). */
    static final int PUT_MAX_PIECES = 1024;
    /** Words of one accumulate (the module's limit, uapi pinmx.h: what one frame carries). */
    static final int ACCUMULATE_MAX_WORDS = 179;
    /** Bytes packed for one put; a larger one goes as several. Far below the module's 16 MiB per put. */
    static final int STAGING_BYTES = 1 << 20;

    private final JobEndpoint job;
    private final boolean capable;
    private final MemorySegment staging = Arena.ofAuto().allocate(STAGING_BYTES, 4096);
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>(OPS_IN_FLIGHT);
    /** Per rank, the first failure not yet thrown. */
    private final RmaException[] failures;
    private final long[] remoteOffsets = new long[PUT_MAX_PIECES];
    private final long[] stagingOffsets = new long[PUT_MAX_PIECES];
    private final long[] lengths = new long[PUT_MAX_PIECES];

    /** An operation started to a rank, over remote bytes [{@code from}, {@code to}) of its slice. */
    private record InFlight(int rank, Request request, long from, long to, boolean accumulate)
    {
        /** Whether {@code later} must wait for this one: they touch common bytes and are not both additions. */
        boolean orders(final int laterRank, final long laterFrom, final long laterTo, final boolean laterAccumulate)
        {
            return rank == laterRank && from < laterTo && laterFrom < to && !(accumulate && laterAccumulate);
        }
    }

    ModuleWrites(final JobEndpoint job)
    {
        this.job = job;
        this.capable = passive(job.endpoint().driverInfo());
        this.failures = new RmaException[job.job().size()];
    }

    /**
     * @return whether the driver applies partners' writes and atomics itself, without this process (the kernel
     *         module); the user driver's writes need the target's driver thread, which its data server has too.
     */
    static boolean passive(final DriverInfo info)
    {
        return info.has(DriverFeature.REMOTE_WRITE) && info.has(DriverFeature.REMOTE_ATOMIC) &&
            info.has(DriverFeature.PASSIVE_WRITES);
    }

    /** @return whether writes and atomics to the rank's slice of the allocation go to its driver. */
    boolean takes(final RmaAllocation allocation, final int rank)
    {
        return capable && allocation.writes().exposed(rank);
    }

    /** @return whether the driver applies an accumulate of this scale: int32 or int64 words added as they are. */
    static boolean applies(final AccumulateScale scale)
    {
        return (ElementType.INT == scale.type() || ElementType.LONG == scale.type()) && 1 == scale.integral();
    }

    /**
     * Puts the pieces into the rank's slice ({@code ordered}: after every earlier operation to it): batches of at most {@link #PUT_MAX_PIECES} pieces and
     * {@link #STAGING_BYTES} bytes (a longer piece split), each one put of its packed bytes scattered by the driver.
     */
    void put(final int rank, final RmaAllocation allocation, final Pieces pieces, final boolean ordered)
    {
        if (ordered)
        {
            complete(rank);
        }
        int batch = 0;
        long packed = 0;
        for (int i = 0; i < pieces.count(); i++)
        {
            long done = 0;
            while (done < pieces.lengths[i])
            {
                if (PUT_MAX_PIECES == batch || STAGING_BYTES == packed)
                {
                    startPut(rank, allocation, batch);
                    batch = 0;
                    packed = 0;
                }
                final long bytes = Math.min(pieces.lengths[i] - done, STAGING_BYTES - packed);
                MemorySegment.copy(pieces.local[i], done, staging, packed, bytes);
                remoteOffsets[batch] = pieces.remoteOffsets[i] + done;
                stagingOffsets[batch] = packed;
                lengths[batch] = bytes;
                batch++;
                packed += bytes;
                done += bytes;
            }
        }
        if (batch > 0)
        {
            startPut(rank, allocation, batch);
        }
    }

    /** Adds each piece's int32 or int64 words (scale 1, {@link #applies}) to the rank's slice, a frame's worth a time. */
    void accumulate(final int rank, final RmaAllocation allocation, final Pieces pieces, final ElementType type,
        final boolean ordered)
    {
        if (ordered)
        {
            complete(rank);
        }
        final int width = type.bytes();
        final long chunkBytes = (long)ACCUMULATE_MAX_WORDS * width;
        for (int i = 0; i < pieces.count(); i++)
        {
            for (long done = 0; done < pieces.lengths[i]; done += chunkBytes)
            {
                final long bytes = Math.min(chunkBytes, pieces.lengths[i] - done);
                MemorySegment.copy(pieces.local[i], done, staging, 0, bytes);
                final long remoteOffset = pieces.remoteOffsets[i] + done;
                start(rank, remoteOffset, remoteOffset + bytes, true, () -> writes().iaccumulate(job.partner(rank),
                    allocation.writes().regionId(rank), allocation.writes().key(rank), width, remoteOffset,
                    staging.asSlice(0, bytes)));
            }
        }
    }

    /**
     * A fetch-and-add, swap or compare-and-swap ({@code compare}: the value the word must hold for the operand to be
     * stored; ignored by the others) of the int32 ({@code widthBytes} 4) or int64 word at {@code offset}, waited for.
     *
     * @return the word's value before.
     */
    long atomic(final int rank, final RmaAllocation allocation, final AtomicOp op, final int widthBytes,
        final long offset, final long operand, final long compare)
    {
        complete(rank);
        final Request r = start(rank, offset, offset + widthBytes, false, () -> writes().iatomic(job.partner(rank),
            allocation.writes().regionId(rank), allocation.writes().key(rank), op, widthBytes, offset, operand,
            compare));
        r.await(DriverTier.UNTIL_DONE);
        final long old = r.status().oldValue();
        // releases it, and throws if it (or an earlier operation to the rank) failed
        complete(rank);
        return old;
    }

    /**
     * Waits until the rank's driver acknowledged every operation started to it (remote completion).
     *
     * @throws RmaException naming the rank and the driver's cause if one failed since the last wait.
     */
    void complete(final int rank)
    {
        final Iterator<InFlight> it = inFlight.iterator();
        while (it.hasNext())
        {
            final InFlight op = it.next();
            if (op.rank == rank)
            {
                it.remove();
                finish(op);
            }
        }
        final RmaException failure = failures[rank];
        if (null != failure)
        {
            failures[rank] = null;
            throw failure;
        }
    }

    private void startPut(final int rank, final RmaAllocation allocation, final int batch)
    {
        final Partner partner = job.partner(rank);
        long from = Long.MAX_VALUE;
        long to = 0;
        for (int b = 0; b < batch; b++)
        {
            from = Math.min(from, remoteOffsets[b]);
            to = Math.max(to, remoteOffsets[b] + lengths[b]);
        }
        // always the whole staging memory as the source, so that the endpoint's region cache declares it once
        start(rank, from, to, false, () -> writes().iputv(partner, allocation.writes().regionId(rank),
            allocation.writes().key(rank), remoteOffsets, staging, stagingOffsets, lengths, batch));
    }

    private interface Start
    {
        Request start();
    }

    /**
     * Waits for the operations in flight that the new one on [{@code from}, {@code to}) must follow, makes room under
     * {@link #OPS_IN_FLIGHT}, then starts it and follows it.
     */
    private Request start(final int rank, final long from, final long to, final boolean accumulate, final Start start)
    {
        final Iterator<InFlight> it = inFlight.iterator();
        while (it.hasNext())
        {
            final InFlight op = it.next();
            if (op.orders(rank, from, to, accumulate))
            {
                it.remove();
                finish(op);
            }
        }
        while (inFlight.size() >= OPS_IN_FLIGHT)
        {
            finish(inFlight.removeFirst());
        }
        try
        {
            final Request r = start.start();
            inFlight.addLast(new InFlight(rank, r, from, to, accumulate));
            return r;
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
        catch (final DriverException ex)
        {
            throw new RmaException("operation on rank " + rank + " refused by the driver: " + ex.getMessage(), ex);
        }
    }

    /** Waits for one operation (a dead target fails it within the driver's retries) and keeps its failure. */
    private void finish(final InFlight op)
    {
        final Request r = op.request;
        r.await(DriverTier.UNTIL_DONE);
        if (RequestState.FAILED == r.state() && null == failures[op.rank])
        {
            failures[op.rank] = RankFailures.failure(op.rank, r);
        }
        r.release();
    }

    private RemoteWrites writes()
    {
        return job.endpoint().writes();
    }
}
