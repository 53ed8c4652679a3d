package io.pinmx.pin.user;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes, in this endpoint's shared-memory ring, how far its library has taken the ring's frames
 * ({@link ShmFrameRing#taken()}), so that a sender can tell a frame still waiting (it cannot be lost) from one the
 * library read and may have refused. A position P says every record before P was taken by the library or consumed by
 * the driver itself (pulls served, replies placed, frames dropped): frames the drain queued as events hold P back
 * until poll hands them to the library.
 * <p>
 * Two threads may write: the one draining the ring (the progress thread, or whoever owns the duty cycle) and poll.
 * The drain counts frames it queues and notes how far it drained; poll counts frames it hands on. Each writes its
 * own figure before reading the other's, so whichever sees no frame left queued publishes the drained position, and
 * neither publishes past a frame still queued.
 */
final class RingTakenPosition
{
    private final ShmFrameRing ring;
    private final AtomicLong queuedFrames = new AtomicLong();
    private final AtomicLong takenFrames = new AtomicLong();
    private volatile long drainedEnd;

    RingTakenPosition(final ShmFrameRing ring)
    {
        this.ring = ring;
    }

    /** Drain: the frame ending at {@code end} went into the event queue for poll. */
    void queued(final long end)
    {
        queuedFrames.incrementAndGet();
        drainedEnd = end;
    }

    /** Drain: the record ending at {@code end} needs nothing more from the library (consumed, dropped or handed on). */
    void consumed(final long end)
    {
        drainedEnd = end;
        if (queuedFrames.get() == takenFrames.get())
        {
            ring.publishTaken(end);
        }
    }

    /** Poll: the library took the queued frame ending at {@code end}. */
    void taken(final long end)
    {
        final long taken = takenFrames.incrementAndGet();
        final long drained = drainedEnd;
        ring.publishTaken(queuedFrames.get() == taken ? Math.max(end, drained) : end);
    }
}
