package io.pinmx.mx.match;

import io.pinmx.mx.buffer.PooledBuffer;

import java.lang.foreign.MemorySegment;

/**
 * A message that arrived before any receive accepted it. Eager messages keep their bytes
 * (possibly still arriving fragment by fragment); rendezvous messages keep only the header
 * and the sender's pull coordinates. Pooled by its {@link UnexpectedQueue}.
 */
public final class UnexpectedMessage
{
    /** What kind of protocol the message travels by. */
    public enum Kind
    {
        EAGER,
        RENDEZVOUS
    }

    Kind kind;
    int source;
    long matchInfo;
    long length;
    long bytesArrived;
    PooledBuffer storage;
    int senderRegionId;
    long senderRegionOffset;
    int senderHandle;
    UnexpectedMessage previous;
    UnexpectedMessage next;
    boolean queued;

    public Kind kind()
    {
        return kind;
    }

    public int source()
    {
        return source;
    }

    public long matchInfo()
    {
        return matchInfo;
    }

    /**
     * @return the true length of the message as the sender declared it.
     */
    public long length()
    {
        return length;
    }

    public long bytesArrived()
    {
        return bytesArrived;
    }

    /**
     * @return true when every byte of an eager message is stored, always true for rendezvous.
     */
    public boolean isComplete()
    {
        return Kind.RENDEZVOUS == kind || bytesArrived == length;
    }

    /**
     * @return the stored bytes of an eager message (empty for zero-length and rendezvous).
     */
    public MemorySegment data()
    {
        return null == storage ? MemorySegment.NULL : storage.segment();
    }

    /**
     * Stores one eager fragment; fragments arrive in order, so offset must equal the bytes so far.
     *
     * @throws IllegalArgumentException naming the message and offsets when the fragment does not fit.
     */
    public void append(final long offset, final MemorySegment source, final long sourceOffset, final long fragmentBytes)
    {
        if (Kind.EAGER != kind || offset != bytesArrived || fragmentBytes < 0 || offset + fragmentBytes > length)
        {
            throw new IllegalArgumentException(
                "fragment at offset " + offset + " of " + fragmentBytes + " bytes does not continue " + this);
        }
        if (fragmentBytes > 0)
        {
            MemorySegment.copy(source, sourceOffset, storage.segment(), offset, fragmentBytes);
        }
        bytesArrived += fragmentBytes;
    }

    public int senderRegionId()
    {
        return senderRegionId;
    }

    public long senderRegionOffset()
    {
        return senderRegionOffset;
    }

    public int senderHandle()
    {
        return senderHandle;
    }

    public String toString()
    {
        return "UnexpectedMessage{" + kind + " from " + source + ", matchInfo=" + MatchInfo.format(matchInfo) +
            ", length=" + length + ", arrived=" + bytesArrived + '}';
    }
}
