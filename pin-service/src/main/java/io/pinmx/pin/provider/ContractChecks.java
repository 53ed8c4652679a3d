package io.pinmx.pin.provider;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The argument checks of the driver contract that need no provider state, made once for both providers; each
 * throws {@link DriverError#BAD_ARGUMENT} naming the operation and what was wrong, and allocates only then.
 */
public final class ContractChecks
{
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
     * send: a header holding at least the common header, of a kind the library sends (PULL and PULL_REPLY are the
     * driver's own), and a frame within the provider's limit.
     *
     * @param maxFrameBytes the provider's largest frame, header and payload.
     * @param limitText     what that limit is, for the message.
     * @return the frame's kind.
     */
    public static FrameKind send(
        final int peerIndex, final MemorySegment header, final MemorySegment payload, final long maxFrameBytes,
        final String limitText)
    {
        if (null == header || header.byteSize() < FrameFlyweight.HEADER_BYTES)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "send to peer " + peerIndex + ": header of " +
                (null == header ? "null" : header.byteSize() + " bytes") + " is shorter than the " +
                FrameFlyweight.HEADER_BYTES + "-byte common header");
        }
        final int code = header.get(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET) & 0xFF;
        final FrameKind kind = FrameKind.fromCode(code);
        if (null == kind || kind == FrameKind.PULL || kind == FrameKind.PULL_REPLY)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "send to peer " + peerIndex + ": frame kind " +
                (null == kind ? "code " + code + " is unknown" : kind + " is the driver's own (use startPull)"));
        }
        final long frameBytes = header.byteSize() + (null == payload ? 0 : payload.byteSize());
        if (frameBytes > maxFrameBytes)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "send to peer " + peerIndex + ": " + kind +
                " frame of " + frameBytes + " bytes exceeds " + maxFrameBytes + " (" + limitText + ")");
        }
        return kind;
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
