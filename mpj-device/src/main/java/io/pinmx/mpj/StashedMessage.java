package io.pinmx.mpj;

import java.lang.foreign.MemorySegment;

/**
 * A message a probe had to take out of the endpoint to read its header (header and static buffer, in arrival
 * order per sender); the next receive that matches it gets it from here.
 */
record StashedMessage(int sourceRank, long bits, byte[] bytes)
{
    MemorySegment header()
    {
        return MemorySegment.ofArray(bytes).asSlice(0, MessageHeader.BYTES);
    }

    MemorySegment staticPart()
    {
        return MemorySegment.ofArray(bytes).asSlice(MessageHeader.BYTES);
    }

    boolean matches(final int source, final int context, final int tag, final boolean anyTag)
    {
        return (source < 0 || source == sourceRank) && MatchBits.context(bits) == context &&
            (anyTag || MatchBits.tag(bits) == tag);
    }
}
