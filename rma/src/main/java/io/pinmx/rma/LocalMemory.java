package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * This rank's local buffers ({@code ARMCI_Malloc_local}, {@code ARMCI_Free_local}) and local copy
 * ({@code ARMCI_Copy}). A buffer is private to this rank (no other rank reaches it) and made like an allocation's own
 * slice: native, page aligned and zeroed, so every operation takes it as its local side on its direct paths (through
 * the driver, sent from and pulled into in place, where heap memory is staged). Owns, per buffer, the non-blocking
 * operations issued with it as their local side and not yet waited for: freeing a buffer while any is in flight is
 * refused, naming it. Buffers still held are freed when the {@link Rma} closes. Used by the thread that issues the
 * Rma's operations.
 */
public final class LocalMemory
{
    private static final long PAGE_BYTES = 4096;

    private final int self;
    /** Live buffers by base address. */
    private final TreeMap<Long, Buffer> buffers = new TreeMap<>();

    /** One buffer and the operations in flight on it. */
    private static final class Buffer
    {
        private final Arena arena;
        private final MemorySegment memory;
        private int inFlight;

        private Buffer(final Arena arena, final MemorySegment memory)
        {
            this.arena = arena;
            this.memory = memory;
        }

        private boolean holds(final MemorySegment segment)
        {
            final long from = segment.address() - memory.address();
            return from >= 0 && from <= memory.byteSize() && segment.byteSize() <= memory.byteSize() - from;
        }

        @Override
        public String toString()
        {
            return "local buffer at 0x" + Long.toHexString(memory.address()) + " (" + memory.byteSize() + " bytes)";
        }
    }

    /** Completes when its handle waits for it, after the operation it follows: the buffer is free of that operation. */
    private static final class InFlight implements RmaHandle.Completion
    {
        private final Buffer buffer;

        private InFlight(final Buffer buffer)
        {
            this.buffer = buffer;
        }

        @Override
        public boolean isDone()
        {
            return true;
        }

        @Override
        public void await()
        {
            buffer.inFlight--;
        }
    }

    LocalMemory(final int self)
    {
        this.self = self;
    }

    /**
     * {@code ARMCI_Malloc_local}: a buffer of {@code bytes} (0 allowed), native, page aligned and zeroed, valid until
     * {@link #free(MemorySegment)} or the Rma's close.
     *
     * @throws IllegalArgumentException naming the size if it is negative.
     */
    public MemorySegment allocate(final long bytes)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("local allocation of " + bytes + " bytes on rank " + self +
                ": the size must be >= 0");
        }
        final Arena arena = Arena.ofShared();
        // At least one byte, so that every buffer has an address of its own.
        final MemorySegment memory = arena.allocate(Math.max(1, bytes), PAGE_BYTES).asSlice(0, bytes);
        final Buffer buffer = new Buffer(arena, memory);
        buffers.put(memory.address(), buffer);
        return memory;
    }

    /**
     * {@code ARMCI_Free_local}: frees a buffer from {@link #allocate(long)} (the segment it returned, or one starting
     * at its address); the segment is unusable afterwards.
     *
     * @throws IllegalArgumentException naming the segment if it is null or not the start of a live buffer.
     * @throws IllegalStateException    naming the buffer if a non-blocking operation on it was not waited for yet
     *                                  (its handle's {@code await} or a successful {@code test}, {@code waitAll},
     *                                  a fence); the buffer then stays as it was.
     */
    public void free(final MemorySegment memory)
    {
        if (null == memory)
        {
            throw new IllegalArgumentException("local memory to free is null");
        }
        final Buffer buffer = memory.isNative() ? buffers.get(memory.address()) : null;
        if (null == buffer)
        {
            throw new IllegalArgumentException("local memory to free " + memory + " is not the start of a live " +
                "local buffer of rank " + self + " (never allocated, or freed already)");
        }
        if (buffer.inFlight > 0)
        {
            throw new IllegalStateException(buffer + " of rank " + self + " has " + buffer.inFlight +
                " non-blocking operations not yet waited for: wait for their handles before freeing it");
        }
        buffers.remove(memory.address());
        buffer.arena.close();
    }

    /**
     * {@code ARMCI_Copy}: copies {@code bytes} from the start of {@code source} to the start of {@code destination},
     * any two local memories (heap or native, a buffer of this rank, an allocation's own slice); overlapping memory is
     * copied as if through a temporary buffer (memmove).
     *
     * @throws IllegalArgumentException naming the argument if a segment is null, the destination read-only, the
     *                                  count negative or longer than either segment; nothing is copied then.
     */
    public void copy(final MemorySegment source, final MemorySegment destination, final long bytes)
    {
        if (null == source || null == destination)
        {
            throw new IllegalArgumentException("local copy: the " + (null == source ? "source" : "destination") +
                " is null");
        }
        if (bytes < 0 || bytes > source.byteSize() || bytes > destination.byteSize())
        {
            throw new IllegalArgumentException("local copy of " + bytes + " bytes: the source has " +
                source.byteSize() + " bytes, the destination " + destination.byteSize());
        }
        if (destination.isReadOnly())
        {
            throw new IllegalArgumentException("local copy: the destination " + destination + " is read-only");
        }
        MemorySegment.copy(source, 0, destination, 0, bytes);
    }

    /** @return buffers live now. */
    public int buffers()
    {
        return buffers.size();
    }

    /**
     * A non-blocking operation was issued on the handle with {@code local} as its local side: if that lies in a
     * buffer, the buffer counts it in flight until the handle waits for it.
     */
    void issued(final RmaHandle handle, final MemorySegment local)
    {
        final Buffer buffer = holding(local);
        if (null != buffer)
        {
            inFlight(handle, buffer);
        }
    }

    /** As {@link #issued(RmaHandle, MemorySegment)} for the local pieces of the vectors: once per buffer. */
    void issued(final RmaHandle handle, final IoVector[] vectors)
    {
        if (buffers.isEmpty())
        {
            return;
        }
        final Set<Buffer> holding = Collections.newSetFromMap(new IdentityHashMap<>());
        for (final IoVector v : vectors)
        {
            for (int i = 0; i < v.count(); i++)
            {
                final Buffer buffer = holding(v.piece(i));
                if (null != buffer && holding.add(buffer))
                {
                    inFlight(handle, buffer);
                }
            }
        }
    }

    private Buffer holding(final MemorySegment local)
    {
        if (buffers.isEmpty() || null == local || !local.isNative())
        {
            return null;
        }
        final Map.Entry<Long, Buffer> below = buffers.floorEntry(local.address());
        return null != below && below.getValue().holds(local) ? below.getValue() : null;
    }

    private static void inFlight(final RmaHandle handle, final Buffer buffer)
    {
        buffer.inFlight++;
        handle.add(new InFlight(buffer));
    }

    /** Frees every buffer still held (at the Rma's close). */
    void close()
    {
        for (final Buffer b : buffers.values())
        {
            b.arena.close();
        }
        buffers.clear();
    }
}
