package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Where the {@link DataServer} receives data it does not apply as it lands (accumulates, packed puts): one buffer
 * kept across requests, so the endpoint's region cache finds it declared already (fresh memory per request would cost
 * a declaration each). The server serves one request at a time, so the buffer is free again once a request is served;
 * a request larger than {@link #KEPT_MAX_BYTES} gets memory of its own. Owned by the server's thread.
 */
final class StagingBuffer
{
    /** The largest buffer kept across requests: memory the server holds while idle. */
    static final long KEPT_MAX_BYTES = 64L << 20;
    private static final long PAGE_BYTES = 4096;

    private MemorySegment kept;

    /** @return {@code bytes} of page-aligned memory: the kept buffer, grown to fit (at least doubling), or its own. */
    MemorySegment take(final long bytes)
    {
        if (bytes > KEPT_MAX_BYTES)
        {
            return Arena.ofAuto().allocate(bytes, PAGE_BYTES);
        }
        if (null == kept || kept.byteSize() < bytes)
        {
            final long size = Math.min(KEPT_MAX_BYTES, Math.max(2 * (null == kept ? 0 : kept.byteSize()),
                (bytes + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES));
            kept = Arena.ofAuto().allocate(size, PAGE_BYTES);
        }
        return kept.asSlice(0, bytes);
    }

    /**
     * A request whose receive may still write into the buffer (it did not arrive whole): the next request gets
     * another.
     */
    void abandon()
    {
        kept = null;
    }
}
