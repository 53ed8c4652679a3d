package io.pinmx.mx;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.PutSpec;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The origin side of one-sided writes and atomics into a partner's region exposed for writes
 * ({@link EndpointRegions#exposeForWrites}), reached through {@link Endpoint#writes()}: the driver carries them and the
 * partner's driver applies them, with no message to the partner and nothing for its process to do. Only drivers
 * with {@link DriverFeature#REMOTE_WRITE} / {@link DriverFeature#REMOTE_ATOMIC} do this; on others a call is refused
 * before any request is taken. A put declares its source (or a staging copy of heap memory) outside the endpoint
 * lock, then starts under it; the request completes on the driver's end event (remote completion) and holds its
 * source until then.
 */
public final class RemoteWrites
{
    private final Endpoint endpoint;
    private final ReentrantLock lock;
    private final DriverEndpoint driver;
    private final RequestPool requests;
    private final PutSpec putSpec = new PutSpec();
    private final AtomicSpec atomicSpec = new AtomicSpec();

    RemoteWrites(
        final Endpoint endpoint, final ReentrantLock lock, final DriverEndpoint driver, final RequestPool requests)
    {
        this.endpoint = endpoint;
        this.lock = lock;
        this.driver = driver;
        this.requests = requests;
    }

    /**
     * One-sided write of {@code source} at {@code remoteOffset} of a partner's region exposed for writes (its
     * {@link ExposedRegion#id()} and {@link ExposedRegion#key()}): the partner's driver writes the bytes, its process
     * does nothing. The request completes once every byte is in the partner's memory (remote completion), or fails
     * naming the partner and the cause (a wrong key, a range past the region's end, the partner gone). The source
     * must stay unchanged until then. Needs {@link DriverFeature#REMOTE_WRITE}.
     *
     * @throws io.pinmx.pin.spi.DriverException {@link io.pinmx.pin.spi.DriverError#UNSUPPORTED} naming the driver
     *                                          and the capability; the driver's refusal naming a bad argument.
     * @throws IllegalArgumentException         for an empty source.
     */
    public Request iput(final Partner target, final int remoteRegionId, final long key, final long remoteOffset,
        final MemorySegment source)
    {
        endpoint.checkOpen();
        return postPut(target, remoteRegionId, key, new long[] {remoteOffset}, source, null, null, 1);
    }

    /**
     * One-sided write of {@code pieces} pieces, piece {@code i} being {@code lengths[i]} bytes at
     * {@code sourceOffsets[i]} of {@code source} written at {@code remoteOffsets[i]} of the partner's region (strided
     * and vector puts; the partner's driver scatters them), completing once all are there. As {@link #iput}.
     *
     * @throws IllegalArgumentException naming a piece outside the source.
     */
    public Request iputv(final Partner target, final int remoteRegionId, final long key, final long[] remoteOffsets,
        final MemorySegment source, final long[] sourceOffsets, final long[] lengths, final int pieces)
    {
        endpoint.checkOpen();
        if (null == sourceOffsets || null == remoteOffsets)
        {
            throw new IllegalArgumentException("put of " + pieces + " pieces: null offsets");
        }
        return postPut(target, remoteRegionId, key, remoteOffsets, source, sourceOffsets, lengths, pieces);
    }

    /**
     * One-sided atomic on the naturally aligned int32 ({@code widthBytes} 4) or int64 (8) word at
     * {@code remoteOffset} of a partner's region exposed for writes, applied by the partner's driver atomically
     * against its own CPU's atomics on that word. {@code operand} is FETCH_ADD's addend and SWAP's and
     * COMPARE_AND_SWAP's new value, {@code compare} COMPARE_AND_SWAP's expected value. On completion
     * {@link Status#oldValue()} is the word's value before. Needs {@link DriverFeature#REMOTE_ATOMIC}.
     *
     * @throws io.pinmx.pin.spi.DriverException UNSUPPORTED naming the driver and the capability; BAD_ARGUMENT naming
     *                                          a width or a misaligned offset.
     */
    public Request iatomic(final Partner target, final int remoteRegionId, final long key, final AtomicOp op,
        final int widthBytes, final long remoteOffset, final long operand, final long compare)
    {
        endpoint.checkOpen();
        if (AtomicOp.ACCUMULATE == op)
        {
            throw new IllegalArgumentException("iatomic: ACCUMULATE takes a vector of values: use iaccumulate");
        }
        return postAtomic(target, remoteRegionId, key, op, widthBytes, remoteOffset, operand, compare,
            MemorySegment.NULL);
    }

    /**
     * One-sided integer accumulate: word {@code i} of {@code values} (native memory of whole {@code widthBytes}
     * words, this host's byte order) is added atomically to the word at {@code remoteOffset + i * widthBytes} of a
     * partner's region exposed for writes. As {@link #iatomic}.
     */
    public Request iaccumulate(final Partner target, final int remoteRegionId, final long key, final int widthBytes,
        final long remoteOffset, final MemorySegment values)
    {
        endpoint.checkOpen();
        return postAtomic(target, remoteRegionId, key, AtomicOp.ACCUMULATE, widthBytes, remoteOffset, 0, 0,
            values);
    }

    /**
     * @param localOffsets null for one contiguous put of the whole source at {@code remoteOffsets[0]}.
     * @throws io.pinmx.pin.spi.DriverException {@link DriverError#UNSUPPORTED} naming the driver and the capability,
     *                                          or the driver's refusal naming the argument.
     * @throws IllegalArgumentException         naming an empty source or a piece outside it.
     * @throws MxException                      if the partner is not connected or every request is in use.
     */
    Request postPut(
        final Partner p, final int remoteRegionId, final long key, final long[] remoteOffsets,
        final MemorySegment source, final long[] localOffsets, final long[] lengths, final int pieces)
    {
        require(DriverFeature.REMOTE_WRITE, "iput");
        if (null == source || 0 == source.byteSize())
        {
            throw new IllegalArgumentException("put into region " + remoteRegionId + " of " + describe(p) +
                ": the source must be non-empty memory, not " + source);
        }
        if (null != localOffsets)
        {
            checkPieces(source, localOffsets, lengths, pieces);
        }
        final Request r = allocate(p, remoteRegionId, Request.Kind.WRITE);
        try
        {
            r.vector.set(new MemorySegment[] {source}, 1);
            requests.declareDestination(r, source.byteSize());
            if (null != r.staging)
            {
                r.vector.copyOut(r.staging.segment());
            }
        }
        catch (final RuntimeException ex)
        {
            discard(r);
            throw ex;
        }
        r.messageLength = null == localOffsets ? source.byteSize() : sum(lengths, pieces);
        r.status.messageLength = r.messageLength;
        lock.lock();
        try
        {
            checkConnected(p, remoteRegionId);
            putSpec.target().set(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId, remoteRegionId, key);
            putSpec.source(r.lease.regionId(), r.handle());
            if (null == localOffsets)
            {
                putSpec.contiguous(remoteOffsets[0], r.lease.offset(), source.byteSize());
            }
            else
            {
                final long[] shifted = new long[pieces];
                for (int i = 0; i < pieces; i++)
                {
                    shifted[i] = r.lease.offset() + localOffsets[i];
                }
                putSpec.pieces(remoteOffsets, shifted, lengths, pieces);
            }
            driver.startPut(putSpec);
            RequestPool.moveTo(r, RequestState.SENDING);
            return r;
        }
        catch (final RuntimeException ex)
        {
            requests.releaseResources(r);
            r.vector.clear();
            requests.free(r);
            throw ex;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @param values for {@link AtomicOp#ACCUMULATE}: native memory of whole words; else unused.
     * @throws io.pinmx.pin.spi.DriverException as {@link #postPut}, for {@link DriverFeature#REMOTE_ATOMIC}.
     */
    Request postAtomic(
        final Partner p, final int remoteRegionId, final long key, final AtomicOp op, final int widthBytes,
        final long remoteOffset, final long operand, final long compare, final MemorySegment values)
    {
        require(DriverFeature.REMOTE_ATOMIC, "iatomic");
        if (null == op)
        {
            throw new IllegalArgumentException("atomic on region " + remoteRegionId + " of " + describe(p) +
                ": no operation");
        }
        final Request r = allocate(p, remoteRegionId, Request.Kind.ATOMIC);
        lock.lock();
        try
        {
            checkConnected(p, remoteRegionId);
            atomicSpec.target().set(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId, remoteRegionId, key);
            if (AtomicOp.ACCUMULATE == op)
            {
                atomicSpec.accumulate(widthBytes, remoteOffset, values, r.handle());
            }
            else
            {
                atomicSpec.word(op, widthBytes, remoteOffset, operand, compare, r.handle());
            }
            driver.startAtomic(atomicSpec);
            RequestPool.moveTo(r, RequestState.SENDING);
            return r;
        }
        catch (final RuntimeException ex)
        {
            requests.free(r);
            throw ex;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * A put or atomic ended (under the lock, from the progress round).
     *
     * @return false if no live write or atomic has this handle (a stale event).
     */
    boolean onEnded(
        final int handle, final long bytes, final long oldValue, final DriverError errorKind,
        final CharSequence errorMessage)
    {
        final Request r = requests.byHandle(handle);
        if (null == r || RequestState.SENDING != r.state ||
            (Request.Kind.WRITE != r.kind && Request.Kind.ATOMIC != r.kind))
        {
            return false;
        }
        r.vector.clear();
        if (null != errorKind)
        {
            requests.fail(r, (Request.Kind.WRITE == r.kind ? "put into region " : "atomic on region ") +
                r.remoteRegionId + " of " + r.partner.describe() + " failed: " + errorKind + ": " + errorMessage);
            return true;
        }
        r.status.bytesTransferred = bytes;
        r.status.oldValue = oldValue;
        requests.complete(r);
        return true;
    }

    private void require(final DriverFeature feature, final String operation)
    {
        if (!driver.info().has(feature))
        {
            throw DriverEndpoint.unsupported(driver, feature, operation);
        }
    }

    private Request allocate(final Partner p, final int remoteRegionId, final Request.Kind kind)
    {
        lock.lock();
        try
        {
            checkConnected(p, remoteRegionId);
            final Request r = requests.allocate();
            r.kind = kind;
            r.partner = p;
            r.remoteRegionId = remoteRegionId;
            r.messageLength = 0;
            r.status.source = p.id();
            r.status.messageLength = 0;
            r.status.oldValue = 0;
            return r;
        }
        finally
        {
            lock.unlock();
        }
    }

    private void discard(final Request r)
    {
        lock.lock();
        try
        {
            requests.releaseResources(r);
            r.vector.clear();
            requests.free(r);
        }
        finally
        {
            lock.unlock();
        }
    }

    private static void checkPieces(
        final MemorySegment source, final long[] localOffsets, final long[] lengths, final int pieces)
    {
        if (null == lengths || pieces < 1 || pieces > localOffsets.length || pieces > lengths.length)
        {
            throw new IllegalArgumentException("put of " + pieces + " pieces: the offset and length arrays must " +
                "hold that many, 1 or more");
        }
        for (int i = 0; i < pieces; i++)
        {
            if (localOffsets[i] < 0 || lengths[i] <= 0 || localOffsets[i] + lengths[i] > source.byteSize() ||
                localOffsets[i] + lengths[i] < 0)
            {
                throw new IllegalArgumentException("put piece " + i + ": source offset " + localOffsets[i] +
                    ", length " + lengths[i] + " is not within the " + source.byteSize() + "-byte source");
            }
        }
    }

    private static long sum(final long[] lengths, final int pieces)
    {
        long total = 0;
        for (int i = 0; i < pieces; i++)
        {
            total += lengths[i];
        }
        return total;
    }

    private static void checkConnected(final Partner p, final int remoteRegionId)
    {
        if (!p.isConnected())
        {
            throw new MxException("one-sided write into region " + remoteRegionId + " of " + p.describe() +
                ": partner is " + p.state() + (null != p.failure ? ": " + p.failure : ""));
        }
    }

    private static String describe(final Partner p)
    {
        return null == p ? "no partner" : p.describe();
    }
}
