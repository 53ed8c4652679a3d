package io.pinmx.mx;

import io.pinmx.mx.buffer.BufferPool;
import io.pinmx.mx.match.UnexpectedQueue;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * What an endpoint counts about itself: frames it dropped, resent or failed to send, its driver endpoint's counters,
 * its buffer pool and its unexpected queue. Reached through {@link Endpoint#counters()}; any thread may read them.
 * Counts the protocol state owns are read under the endpoint lock, off the hot path (each read may allocate).
 */
public final class EndpointCounters
{
    private final ReentrantLock lock;
    private final DriverEndpoint driver;
    private final FrameReceiver receiver;
    private final FrameSender sender;
    private final BufferPool pool;
    private final UnexpectedQueue unexpected;

    EndpointCounters(final ReentrantLock lock, final DriverEndpoint driver, final FrameReceiver receiver,
        final FrameSender sender, final BufferPool pool, final UnexpectedQueue unexpected)
    {
        this.lock = lock;
        this.driver = driver;
        this.receiver = receiver;
        this.sender = sender;
        this.pool = pool;
        this.unexpected = unexpected;
    }

    /**
     * @return frames and driver events this library dropped as malformed or stale (the driver counts its own drops).
     */
    public long droppedFrames()
    {
        return underLock(receiver::droppedFrames);
    }

    /**
     * @return sequenced frames this library sent again because no ack came within the resend timeout.
     */
    public long resentFrames()
    {
        return underLock(sender::resentFrames);
    }

    /**
     * @return of {@link #resentFrames()}, those the driver put straight into the partner's receive queue (a
     *         same-host shared-memory ring); the rest went over a link that may have lost the first copy.
     */
    public long resentIntoQueueFrames()
    {
        return underLock(sender::resentIntoQueueFrames);
    }

    /**
     * @return connect replies and NACKs the driver refused to send (nobody waits on them; the peer asks again).
     */
    public long failedSends()
    {
        return underLock(sender::failedSends);
    }

    /**
     * @return the driver endpoint's counters (frames per kind, drops by reason, loss injected, pulls).
     */
    public DriverCounters driver()
    {
        return driver.counters();
    }

    /**
     * @return native bytes the staging and unexpected-message pool has allocated (it reuses them).
     */
    public long pooledBufferBytes()
    {
        return pool.allocatedBytes();
    }

    /**
     * @return messages waiting in the unexpected queue.
     */
    public int unexpectedMessages()
    {
        return (int)underLock(unexpected::size);
    }

    /**
     * @return eager bytes held for unexpected messages (bounded by {@code unexpectedMaxBytes}).
     */
    public long unexpectedBytes()
    {
        return underLock(unexpected::storedEagerBytes);
    }

    private long underLock(final LongSupplier count)
    {
        lock.lock();
        try
        {
            return count.getAsLong();
        }
        finally
        {
            lock.unlock();
        }
    }
}
