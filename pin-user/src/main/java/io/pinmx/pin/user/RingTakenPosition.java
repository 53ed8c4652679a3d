package io.pinmx.pin.user;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes, in this endpoint's shared-memory ring, how far its library has taken the ring's frames
 * ({@link ShmFrameRing#taken()}), so that a sender can tell a frame still waiting (it cannot be lost) from one the
 * library read and may have refused. A position P says every record before P was taken by the library or consumed by
 * the driver itself (pulls served, replies placed, frames dropped): frames the drain queued as events hold P back
 * until poll hands them to the library.
 * <p>
 * Who writes: the thread draining the ring (the progress thread, or whoever owns the duty cycle) and poll. Without a
 * progress thread both are whoever holds the agent's owner lock ({@link #oneOwner}): the lock orders them, so the
 * counts are plain and the position is published with a release store. With one, two threads write at once: each
 * writes its own figure before reading the other's, so whichever sees no frame left queued publishes the drained
 * position, and neither publishes past a frame still queued.
 */
final class RingTakenPosition
{
    private final ShmFrameRing ring;
    private final boolean oneOwner;
    private final AtomicLong queuedFrames = new AtomicLong();
    private final AtomicLong takenFrames = new AtomicLong();
    private final AtomicLong drainedEnd = new AtomicLong();
    /** {@link #oneOwner}: the position last published (only this endpoint's owner writes it). */
    private long published;

    /**
     * @param oneOwner true when the drain and poll hold the same lock (no progress thread); false when the drain runs
     *                 on a progress thread while poll runs on an application thread.
     */
    RingTakenPosition(final ShmFrameRing ring, final boolean oneOwner)
    {
        this.ring = ring;
        this.oneOwner = oneOwner;
        this.published = ring.taken();
    }

    /** Drain: the frame ending at {@code end} went into the event queue for poll. */
    void queued(final long end)
    {
        if (oneOwner)
        {
            queuedFrames.setPlain(queuedFrames.getPlain() + 1);
            drainedEnd.setPlain(end);
            return;
        }
        queuedFrames.incrementAndGet();
        drainedEnd.set(end);
    }

    /** Drain: the record ending at {@code end} needs nothing more from the library (consumed, dropped or handed on). */
    void consumed(final long end)
    {
        if (oneOwner)
        {
            drainedEnd.setPlain(end);
            if (queuedFrames.getPlain() == takenFrames.getPlain())
            {
                publishOwned(end);
            }
            return;
        }
        drainedEnd.set(end);
        if (queuedFrames.get() == takenFrames.get())
        {
            ring.publishTaken(end);
        }
    }

    /** Poll: the library took the queued frame ending at {@code end}. */
    void taken(final long end)
    {
        if (oneOwner)
        {
            final long taken = takenFrames.getPlain() + 1;
            takenFrames.setPlain(taken);
            publishOwned(queuedFrames.getPlain() == taken ? Math.max(end, drainedEnd.getPlain()) : end);
            return;
        }
        final long taken = takenFrames.incrementAndGet();
        final long drained = drainedEnd.get();
        ring.publishTaken(queuedFrames.get() == taken ? Math.max(end, drained) : end);
    }

    private void publishOwned(final long position)
    {
        if (position - published > 0)
        {
            published = position;
            ring.storeTaken(position);
        }
    }
}
