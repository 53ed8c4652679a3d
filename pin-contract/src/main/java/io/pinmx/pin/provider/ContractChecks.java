package io.pinmx.pin.provider;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The argument checks of the driver contract that need no provider state, made once for both providers; each
 * throws {@link DriverError#BAD_ARGUMENT} naming the operation and what was wrong, and allocates only then.
 */
public final class ContractChecks
{
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private ContractChecks()
    {
    }

    /** declareRegion: 1..maxSegments native segments within the array, valid access flags. */
    public static void declare(
        final MemorySegment[] segments, final int count, final int maxSegments, final int accessFlags)
    {
        if (null == segments || count < 1 || count > maxSegments || count > segments.length)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "declareRegion: segment count " + count +
                " not in 1.." + maxSegments + (null == segments ? " (array is null)" :
                " and within the array of " + segments.length));
        }
        if (!RegionAccess.isValid(accessFlags))
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "declareRegion: access flags " +
                RegionAccess.describe(accessFlags));
        }
        for (int i = 0; i < count; i++)
        {
            final MemorySegment segment = segments[i];
            if (null == segment || !segment.isNative())
            {
                throw new DriverException(DriverError.BAD_ARGUMENT, "declareRegion: segment " + i + " is " +
                    (null == segment ? "null" : "a heap segment; only native segments can be declared"));
            }
        }
    }

    /**
     * send: a header holding at least the common header, of a kind the library sends (PULL, PULL_REPLY, PUT, PUT_ACK,
     * ATOMIC and ATOMIC_REPLY are the driver's own), and a frame within the provider's limit.
     *
     * @param maxFrameBytes the provider's largest frame, header and payload.
     * @param limitText     what that limit is, for the message.
     * @return the frame's kind.
     */
    public static FrameKind send(
        final int peerIndex, final MemorySegment header, final MemorySegment payload, final long maxFrameBytes,
        final String limitText)
    {
        return frame(peerIndex, -1, header, payload, maxFrameBytes, limitText);
    }

    /**
     * sendRun: 1 or more frames within both arrays, each one as {@link #send} checks it, every header naming the
     * destination endpoint and session of the first.
     */
    public static void sendRun(
        final int peerIndex, final MemorySegment[] headers, final MemorySegment[] payloads, final int frames,
        final long maxFrameBytes, final String limitText)
    {
        if (null == headers || null == payloads || frames < 1 || frames > headers.length || frames > payloads.length)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "sendRun to peer " + peerIndex + ": frame count " +
                frames + " not 1 or more within the header and payload arrays (" +
                (null == headers ? "null" : headers.length) + " and " + (null == payloads ? "null" : payloads.length) +
                " entries)");
        }
        for (int k = 0; k < frames; k++)
        {
            frame(peerIndex, k, headers[k], payloads[k], maxFrameBytes, limitText);
            if (k > 0 && (destinationEndpoint(headers[k]) != destinationEndpoint(headers[0]) ||
                destinationSession(headers[k]) != destinationSession(headers[0])))
            {
                throw new DriverException(DriverError.BAD_ARGUMENT, "sendRun to peer " + peerIndex + ", frame " + k +
                    ": names endpoint " + destinationEndpoint(headers[k]) + " session " + destinationSession(headers[k]) +
                    " where frame 0 names endpoint " + destinationEndpoint(headers[0]) + " session " +
                    destinationSession(headers[0]) + "; a run goes to one endpoint");
            }
        }
    }

    /** @return the kind a frame header names, or null for an unknown code. */
    public static FrameKind kind(final MemorySegment header)
    {
        return FrameKind.fromCode(header.get(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET) & 0xFF);
    }

    public static int destinationEndpoint(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_BYTE, FrameFlyweight.DST_ENDPOINT_OFFSET) & 0xFF;
    }

    public static int destinationSession(final MemorySegment header)
    {
        return header.get(U32, FrameFlyweight.DST_SESSION_OFFSET);
    }

    /** @param frameIndex the frame's place in a run, or -1 for a single send. */
    private static FrameKind frame(
        final int peerIndex, final int frameIndex, final MemorySegment header, final MemorySegment payload,
        final long maxFrameBytes, final String limitText)
    {
        if (null == header || header.byteSize() < FrameFlyweight.HEADER_BYTES)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, sending(peerIndex, frameIndex) + ": header of " +
                (null == header ? "null" : header.byteSize() + " bytes") + " is shorter than the " +
                FrameFlyweight.HEADER_BYTES + "-byte common header");
        }
        final FrameKind kind = kind(header);
        if (null == kind || null == EventType.received(kind))
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, sending(peerIndex, frameIndex) + ": frame kind " +
                (null == kind ? "code " + (header.get(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET) & 0xFF) +
                " is unknown" : kind + " is the driver's own (use startPull, startPut or startAtomic)"));
        }
        final long frameBytes = header.byteSize() + (null == payload ? 0 : payload.byteSize());
        if (frameBytes > maxFrameBytes)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, sending(peerIndex, frameIndex) + ": " + kind +
                " frame of " + frameBytes + " bytes exceeds " + maxFrameBytes + " (" + limitText + ")");
        }
        return kind;
    }

    private static String sending(final int peerIndex, final int frameIndex)
    {
        return frameIndex < 0 ? "send to peer " + peerIndex : "sendRun to peer " + peerIndex + ", frame " + frameIndex;
    }

    /** startPull: a spec, valid on its own ({@link PullSpec#validate()}). */
    public static void pull(final PullSpec spec)
    {
        if (null == spec)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "startPull: spec is null");
        }
        spec.validate();
    }

    /** poll: a handler and a positive limit. */
    public static void poll(final EventHandler handler, final int limit)
    {
        if (null == handler || limit < 1)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "poll: handler must not be null and limit " + limit +
                " must be >= 1");
        }
    }
}
