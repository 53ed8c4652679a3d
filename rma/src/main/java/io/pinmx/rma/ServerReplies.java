package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link DataServer}'s sends in flight: answers (an 8-byte value or a served get's bytes, each sent from a
 * buffer of {@link KeptBuffers}, given back once its send is released) and packed chunks (sent from memory the
 * send holds). Owned by the server's thread.
 */
final class ServerReplies
{
    private final Endpoint endpoint;
    private final List<Request> sends = new ArrayList<>();
    /** The kept buffer each of {@link #sends} goes from; null for a packed chunk. */
    private final List<MemorySegment> buffers = new ArrayList<>();
    private final KeptBuffers answerBuffers = new KeptBuffers(DriverTier.SERVED_GET_MAX_BYTES);

    ServerReplies(final Endpoint endpoint)
    {
        this.endpoint = endpoint;
    }

    /** Answers request {@code sequence} of {@code origin} with a value. */
    void value(final Partner origin, final long sequence, final long value)
    {
        final MemorySegment buffer = answerBuffers.take();
        buffer.set(ValueLayout.JAVA_LONG, 0, value);
        answer(origin, sequence, buffer, Long.BYTES);
    }

    /**
     * Answers a served get with the bytes.
     *
     * @throws IllegalStateException naming the size if it is more than {@link DriverTier#SERVED_GET_MAX_BYTES}.
     */
    void bytes(final Partner origin, final long sequence, final MemorySegment bytes)
    {
        if (bytes.byteSize() > DriverTier.SERVED_GET_MAX_BYTES)
        {
            throw new IllegalStateException("served get of " + bytes.byteSize() + " bytes, more than " +
                DriverTier.SERVED_GET_MAX_BYTES);
        }
        final MemorySegment buffer = answerBuffers.take();
        MemorySegment.copy(bytes, 0, buffer, 0, bytes.byteSize());
        answer(origin, sequence, buffer, bytes.byteSize());
    }

    /** Sends one packed chunk of a get with {@code tag}; the chunk's memory stays held until its send is released. */
    void chunk(final Partner origin, final long tag, final MemorySegment chunk)
    {
        sends.add(endpoint.isend(origin, tag, chunk));
        buffers.add(null);
    }

    /** Releases every send that ended and gives its buffer back. */
    void reap()
    {
        for (int i = sends.size() - 1; i >= 0; i--)
        {
            final Request r = sends.get(i);
            if (r.test())
            {
                sends.remove(i);
                r.release();
                final MemorySegment buffer = buffers.remove(i);
                if (null != buffer)
                {
                    answerBuffers.giveBack(buffer);
                }
            }
        }
    }

    private void answer(final Partner origin, final long sequence, final MemorySegment buffer, final long bytes)
    {
        sends.add(endpoint.isend(origin, RmaTags.of(RmaTags.REPLY, sequence), buffer.asSlice(0, bytes)));
        buffers.add(buffer);
    }
}
