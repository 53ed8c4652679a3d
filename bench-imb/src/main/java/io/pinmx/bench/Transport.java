package io.pinmx.bench;

import java.lang.foreign.MemorySegment;

/**
 * What a benchmark needs from a message-passing stack: blocking send and receive of the first
 * {@code bytes} of a native segment to or from a peer rank, and a batch of posted operations completed
 * together (for traffic in both directions at once). Messages between two ranks arrive in send order.
 * Implementations allocate nothing per message once every buffer has been used once.
 */
public interface Transport extends AutoCloseable
{
    /**
     * @return the short name used in output and ratio lines ("pinmx", "tcp").
     */
    String name();

    /**
     * @return how progress is driven: busy-poll or blocking, and threads per process.
     */
    String progress();

    void send(int peer, MemorySegment buffer, int bytes);

    void recv(int peer, MemorySegment buffer, int bytes);

    /**
     * Posts a send that completes in {@link #awaitPosted()}; the buffer must stay untouched until then.
     */
    void postSend(int peer, MemorySegment buffer, int bytes);

    void postRecv(int peer, MemorySegment buffer, int bytes);

    /**
     * Completes every posted operation.
     */
    void awaitPosted();

    @Override
    void close();
}
