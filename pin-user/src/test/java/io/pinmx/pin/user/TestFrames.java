package io.pinmx.pin.user;

import io.pinmx.pin.wire.AckFrame;
import io.pinmx.pin.wire.ConnectFrame;
import io.pinmx.pin.wire.ConnectStatus;
import io.pinmx.pin.wire.EagerFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.MediumFragFrame;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.NotifyFrame;
import io.pinmx.pin.wire.NotifyStatus;
import io.pinmx.pin.wire.RndvFrame;

import java.lang.foreign.MemorySegment;
import java.util.List;

/** Valid frames of every kind the library sends, encoded with the wire flyweights, for driver tests. */
final class TestFrames
{
    /** Every kind an application hands to send(); PULL and PULL_REPLY belong to the driver. */
    static final List<FrameKind> LIBRARY_KINDS = List.of(
        FrameKind.CONNECT_REQUEST, FrameKind.CONNECT_REPLY, FrameKind.TINY, FrameKind.SMALL, FrameKind.MEDIUM_FRAG,
        FrameKind.RNDV, FrameKind.NOTIFY, FrameKind.ACK, FrameKind.NACK);

    private TestFrames()
    {
    }

    /** Payload bytes the test sends with a frame of this kind. */
    static int payloadBytes(final FrameKind kind)
    {
        return switch (kind)
        {
            case TINY -> 32;
            case SMALL -> 128;
            case MEDIUM_FRAG -> 4000;
            default -> 0;
        };
    }

    /**
     * Encode the header (common + kind part) of a {@code kind} frame with {@code payloadBytes} of payload into
     * {@code buffer}; {@code tag} goes into a field the receiver can check (match info, seq, ...).
     *
     * @return header bytes.
     */
    static int encodeHeader(
        final MemorySegment buffer, final FrameKind kind, final int dstEndpoint, final int srcEndpoint,
        final int dstSession, final int srcSession, final int tag)
    {
        final int payload = payloadBytes(kind);
        final FrameFlyweight header = new FrameFlyweight().wrap(buffer, 0);
        header.encodeHeader(kind, dstEndpoint, srcEndpoint, kind == FrameKind.CONNECT_REQUEST ? 0 : dstSession,
            srcSession, tag, payload);
        switch (kind)
        {
            case CONNECT_REQUEST -> new ConnectFrame().wrap(buffer, 0).encode(0xC0FFEE, tag, 1, ConnectStatus.OK);
            case CONNECT_REPLY -> new ConnectFrame().wrap(buffer, 0).encode(0xC0FFEE, tag, 1, ConnectStatus.BAD_KEY);
            case TINY, SMALL -> new EagerFrame().wrap(buffer, 0).encode(0x1000L + tag, payload);
            case MEDIUM_FRAG -> new MediumFragFrame().wrap(buffer, 0).encode(0x2000L + tag, 3 * payload, payload, 1, 3, tag);
            case RNDV -> new RndvFrame().wrap(buffer, 0).encode(0x3000L + tag, 1L << 26, 5, 0, tag);
            case NOTIFY -> new NotifyFrame().wrap(buffer, 0).encode(tag, NotifyStatus.OK, 1L << 26);
            case ACK -> new AckFrame().wrap(buffer, 0).encode(tag);
            case NACK -> new NackFrame().wrap(buffer, 0).encode(NackReason.BAD_SESSION, FrameKind.TINY, tag, 0, 0, 0, 0, 0);
            default -> throw new IllegalArgumentException("not a library frame kind: " + kind);
        }
        return kind.headerBytes();
    }

    /** Writes the frame check of the first {@code bytes} of {@code frame} (native), as the user driver's sender does. */
    static void stampCheck(final MemorySegment frame, final int bytes)
    {
        new FrameChecksum().stamp(frame.address(), bytes);
    }
}
