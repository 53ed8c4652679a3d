package io.pinmx.mx;

import java.lang.foreign.MemorySegment;

/**
 * The buffer of one request: one segment or a vector of up to {@link #MAX_SEGMENTS}, seen as
 * one contiguous byte range. Copies in and out clip at the vector's end, which is how a
 * short receive buffer truncates without writing past itself. Reused with its request.
 */
public final class SegmentVector
{
    /** Most segments in one request, as in the driver contract. */
    public static final int MAX_SEGMENTS = 256;
    /** A thread object never started: a segment it may access is one any thread may access. */
    private static final Thread ANOTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });
    /** The scope of raw addresses ({@code MemorySegment.ofAddress}) and of {@code Arena.global()}. */
    private static final MemorySegment.Scope GLOBAL_SCOPE = MemorySegment.NULL.scope();

    private final MemorySegment[] segments = new MemorySegment[MAX_SEGMENTS];
    private final MemorySegment[] nonEmpty = new MemorySegment[MAX_SEGMENTS];
    private int count;
    private int nonEmptyCount;
    private long totalBytes;
    private boolean allNative;
    private boolean allJvmMapped;

    /**
     * @throws IllegalArgumentException if the segment is null or confined to one thread.
     */
    public SegmentVector set(final MemorySegment segment)
    {
        if (null == segment)
        {
            throw new IllegalArgumentException("buffer segment is null");
        }
        requireShareable(segment, "buffer segment ");
        clear();
        add(segment);
        return this;
    }

    /**
     * @throws IllegalArgumentException naming the count, or the index of a null or thread-confined segment.
     */
    public SegmentVector set(final MemorySegment[] vector, final int vectorCount)
    {
        if (null == vector || vectorCount < 1 || vectorCount > MAX_SEGMENTS || vectorCount > vector.length)
        {
            throw new IllegalArgumentException("segment vector of " + vectorCount + " segments (array of " +
                (null == vector ? "null" : Integer.toString(vector.length)) + "): need 1.." + MAX_SEGMENTS);
        }
        for (int i = 0; i < vectorCount; i++)
        {
            if (null == vector[i])
            {
                throw new IllegalArgumentException("segment vector: segment " + i + " of " + vectorCount + " is null");
            }
            requireShareable(vector[i], "segment vector: segment " + i + " of " + vectorCount + " ");
        }
        clear();
        for (int i = 0; i < vectorCount; i++)
        {
            add(vector[i]);
        }
        return this;
    }

    /**
     * The endpoint's progress thread (or whichever thread drives progress) copies into and out of request buffers,
     * so a segment of an {@code Arena.ofConfined()} would throw WrongThreadException there, far from the caller.
     */
    private static void requireShareable(final MemorySegment segment, final String what)
    {
        if (!segment.isAccessibleBy(ANOTHER_THREAD))
        {
            throw new IllegalArgumentException(what + segment + " is confined to the thread that allocated it " +
                "(Arena.ofConfined()): the endpoint's progress thread could not read or write it; allocate request " +
                "buffers from Arena.ofShared(), Arena.global() or Arena.ofAuto()");
        }
    }

    public void clear()
    {
        for (int i = 0; i < count; i++)
        {
            segments[i] = null;
        }
        for (int i = 0; i < nonEmptyCount; i++)
        {
            nonEmpty[i] = null;
        }
        count = 0;
        nonEmptyCount = 0;
        totalBytes = 0;
        allNative = true;
        allJvmMapped = true;
    }

    private void add(final MemorySegment segment)
    {
        segments[count++] = segment;
        final long bytes = segment.byteSize();
        if (bytes > 0)
        {
            nonEmpty[nonEmptyCount++] = segment;
        }
        totalBytes += bytes;
        allNative &= segment.isNative();
        allJvmMapped &= !segment.isNative() || !GLOBAL_SCOPE.equals(segment.scope());
    }

    public long totalBytes()
    {
        return totalBytes;
    }

    public int count()
    {
        return count;
    }

    public MemorySegment segment(final int index)
    {
        return segments[index];
    }

    /**
     * @return true if every segment is native: the request can go zero-copy.
     */
    public boolean isAllNative()
    {
        return allNative;
    }

    /**
     * @return true if every segment is heap memory or native memory of an arena or a ByteBuffer: memory the JVM
     * keeps mapped while its scope is alive, so a copy in this process cannot fault. A raw address (global scope) may
     * be unmapped: only the driver's pull, which reports a fault, may read or write it.
     */
    public boolean isAllJvmMapped()
    {
        return allJvmMapped;
    }

    /**
     * @return the non-empty segments, as a region is declared (first {@link #nonEmptyCount()} valid).
     */
    public MemorySegment[] nonEmptySegments()
    {
        return nonEmpty;
    }

    public int nonEmptyCount()
    {
        return nonEmptyCount;
    }

    /**
     * Copies bytes into the vector at a logical offset, clipped at its end.
     *
     * @return how many bytes were written.
     */
    public long copyIn(final long offset, final MemorySegment source, final long sourceOffset, final long length)
    {
        long written = 0;
        long segmentStart = 0;
        final long end = Math.min(offset + length, totalBytes);
        for (int i = 0; i < nonEmptyCount && segmentStart < end; i++)
        {
            final MemorySegment s = nonEmpty[i];
            final long segmentEnd = segmentStart + s.byteSize();
            final long from = Math.max(offset, segmentStart);
            final long to = Math.min(end, segmentEnd);
            if (from < to)
            {
                MemorySegment.copy(source, sourceOffset + (from - offset), s, from - segmentStart, to - from);
                written += to - from;
            }
            segmentStart = segmentEnd;
        }
        return written;
    }

    /**
     * Copies the first {@code length} bytes of {@code source}, its segments in order, into this vector from offset 0,
     * clipped at its end.
     *
     * @return how many bytes were written.
     */
    public long copyIn(final SegmentVector source, final long length)
    {
        long written = 0;
        for (int i = 0; i < source.nonEmptyCount && written < length; i++)
        {
            final MemorySegment s = source.nonEmpty[i];
            written += copyIn(written, s, 0, Math.min(s.byteSize(), length - written));
        }
        return written;
    }

    /**
     * Gathers the whole vector into a contiguous destination at offset 0.
     */
    public void copyOut(final MemorySegment destination)
    {
        long at = 0;
        for (int i = 0; i < nonEmptyCount; i++)
        {
            final MemorySegment s = nonEmpty[i];
            MemorySegment.copy(s, 0, destination, at, s.byteSize());
            at += s.byteSize();
        }
    }
}
