package io.pinmx.rma;

import java.util.Arrays;

/**
 * One group of ARMCI's generalized I/O vector: {@code count} pieces of {@code bytes} each, piece i at
 * {@code localOffsets[i]} in the local segment and at {@code remoteOffsets[i]} in the remote rank's slice. For a
 * put the local side is the source, for a get the destination.
 *
 * @param local         the local memory the offsets are relative to.
 * @param localOffsets  local offset of each piece.
 * @param remoteOffsets offset of each piece in the remote slice; as many as localOffsets.
 * @param bytes         bytes of every piece of the group.
 */
public record IoVector(java.lang.foreign.MemorySegment local, long[] localOffsets, long[] remoteOffsets, long bytes)
{
    /**
     * @throws IllegalArgumentException naming what is missing, negative, of different lengths, or outside the local
     *                                  segment.
     */
    public IoVector
    {
        if (null == local || null == localOffsets || null == remoteOffsets)
        {
            throw new IllegalArgumentException("I/O vector needs a local segment and both offset arrays");
        }
        if (localOffsets.length != remoteOffsets.length)
        {
            throw new IllegalArgumentException("I/O vector has " + localOffsets.length + " local and " +
                remoteOffsets.length + " remote offsets");
        }
        if (bytes < 0)
        {
            throw new IllegalArgumentException("I/O vector piece length " + bytes + " is negative");
        }
        for (int i = 0; i < localOffsets.length; i++)
        {
            if (localOffsets[i] < 0 || localOffsets[i] > local.byteSize() - bytes)
            {
                throw new IllegalArgumentException("I/O vector piece " + i + ": local [" + localOffsets[i] + ", +" + bytes +
                    ") is outside the local segment of " + local.byteSize() + " bytes");
            }
        }
        localOffsets = Arrays.copyOf(localOffsets, localOffsets.length);
        remoteOffsets = Arrays.copyOf(remoteOffsets, remoteOffsets.length);
    }

    /** @return the number of pieces. */
    public int count()
    {
        return localOffsets.length;
    }
}
