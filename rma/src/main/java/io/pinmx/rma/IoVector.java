package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One group of ARMCI's generalized I/O vector: {@link #count()} pieces of {@link #bytes()} each, piece i in local
 * memory at {@link #piece(int)} and at {@code remoteOffsets[i]} in the remote rank's slice. For a put or accumulate
 * the local side is the source, for a get the destination. The local pieces lie in one segment (at offsets in it)
 * or each in a segment of its own, as ARMCI's one pointer per piece: heap and native memory, several arenas and
 * slices of allocations may be mixed in one group.
 */
public final class IoVector
{
    private final MemorySegment[] pieces;
    private final long[] remoteOffsets;
    private final long bytes;

    /**
     * The pieces at {@code localOffsets} in one local segment.
     *
     * @param local         the local memory the offsets are relative to.
     * @param localOffsets  local offset of each piece.
     * @param remoteOffsets offset of each piece in the remote slice; as many as localOffsets.
     * @param bytes         bytes of every piece of the group.
     * @throws IllegalArgumentException naming what is missing, negative, of different lengths, or outside the local
     *                                  segment.
     */
    public IoVector(final MemorySegment local, final long[] localOffsets, final long[] remoteOffsets, final long bytes)
    {
        this(pieces(local, localOffsets, remoteOffsets, bytes), remoteOffsets, bytes);
    }

    private IoVector(final MemorySegment[] pieces, final long[] remoteOffsets, final long bytes)
    {
        this.pieces = pieces;
        this.remoteOffsets = Arrays.copyOf(remoteOffsets, remoteOffsets.length);
        this.bytes = bytes;
    }

    /**
     * The pieces each in a segment of its own: piece i is the first {@code bytes} of {@code localPieces[i]}.
     *
     * @throws IllegalArgumentException naming the piece that is null or shorter than {@code bytes}, or what is
     *                                  missing, negative or of different lengths.
     */
    public static IoVector ofPieces(final MemorySegment[] localPieces, final long[] remoteOffsets, final long bytes)
    {
        if (null == localPieces || null == remoteOffsets)
        {
            throw new IllegalArgumentException("I/O vector needs the local pieces and the remote offsets");
        }
        checkShape(localPieces.length, remoteOffsets.length, bytes);
        final MemorySegment[] pieces = new MemorySegment[localPieces.length];
        for (int i = 0; i < localPieces.length; i++)
        {
            if (null == localPieces[i])
            {
                throw new IllegalArgumentException("I/O vector local piece " + i + " is null");
            }
            if (localPieces[i].byteSize() < bytes)
            {
                throw new IllegalArgumentException("I/O vector local piece " + i + " has " + localPieces[i].byteSize() +
                    " bytes, fewer than the group's " + bytes);
            }
            pieces[i] = localPieces[i].asSlice(0, bytes);
        }
        return new IoVector(pieces, remoteOffsets, bytes);
    }

    private static MemorySegment[] pieces(final MemorySegment local, final long[] localOffsets,
        final long[] remoteOffsets, final long bytes)
    {
        if (null == local || null == localOffsets || null == remoteOffsets)
        {
            throw new IllegalArgumentException("I/O vector needs a local segment and both offset arrays");
        }
        checkShape(localOffsets.length, remoteOffsets.length, bytes);
        final MemorySegment[] pieces = new MemorySegment[localOffsets.length];
        for (int i = 0; i < localOffsets.length; i++)
        {
            if (localOffsets[i] < 0 || localOffsets[i] > local.byteSize() - bytes)
            {
                throw new IllegalArgumentException("I/O vector piece " + i + ": local [" + localOffsets[i] + ", +" + bytes +
                    ") is outside the local segment of " + local.byteSize() + " bytes");
            }
            pieces[i] = local.asSlice(localOffsets[i], bytes);
        }
        return pieces;
    }

    private static void checkShape(final int locals, final int remotes, final long bytes)
    {
        if (locals != remotes)
        {
            throw new IllegalArgumentException("I/O vector has " + locals + " local and " + remotes + " remote offsets");
        }
        if (bytes < 0)
        {
            throw new IllegalArgumentException("I/O vector piece length " + bytes + " is negative");
        }
    }

    /** @return the number of pieces. */
    public int count()
    {
        return pieces.length;
    }

    /** @return bytes of every piece. */
    public long bytes()
    {
        return bytes;
    }

    /** @return piece i's local memory, {@link #bytes()} long. */
    public MemorySegment piece(final int i)
    {
        return pieces[i];
    }

    /** @return piece i's offset in the remote slice. */
    public long remoteOffset(final int i)
    {
        return remoteOffsets[i];
    }
}
