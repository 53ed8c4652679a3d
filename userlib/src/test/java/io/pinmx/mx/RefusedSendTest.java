package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver that refuses sequenced sends for now (NO_RESOURCES: a same-host peer's ring stayed full): once a frame
 * to the partner is refused, the next one handed to the driver is that frame again (or an earlier one, resent), never
 * a later one that the receiver would drop for the gap before it; and every message of every size class arrives
 * intact in its order, with both progress modes.
 */
class RefusedSendTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int KEY = 0x5E7D;
    private static final long[] SIZES = {0, 8, 100, 3000, 20_000, 100_000};
    private static final int MESSAGES = 300;
    /** Every this many sequenced sends the driver refuses one. */
    private static final int REFUSE_EVERY = 7;
    /** The endpoint's 31-bit sequence space. */
    private static final int SEQUENCE_MASK = Integer.MAX_VALUE;
    private static final Set<FrameKind> SEQUENCED =
        Set.of(FrameKind.TINY, FrameKind.SMALL, FrameKind.MEDIUM_FRAG, FrameKind.RNDV, FrameKind.NOTIFY);

    /** One sequenced send handed to the driver: its first frame's sequence number, refused or not, resent or not. */
    private record Handed(int firstSeq, boolean refused, boolean resent)
    {
    }

    private final Arena arena = Arena.ofShared();
    private final List<Handed> handed = new ArrayList<>();
    private Endpoint sender;
    private Endpoint receiver;

    @AfterEach
    void close()
    {
        if (null != sender)
        {
            sender.close();
        }
        if (null != receiver)
        {
            receiver.close();
        }
        arena.close();
    }

    @ParameterizedTest(name = "progress {0}")
    @EnumSource(ProgressMode.class)
    void nothingAfterARefusedFrameGoesOutBeforeIt(final ProgressMode mode)
    {
        final FrameFlyweight header = new FrameFlyweight();
        final InterceptingDriver refusing = new InterceptingDriver(new UserDriver(), (method, args, call) ->
        {
            final boolean run = "sendRun".equals(method.getName());
            if (!run && !"send".equals(method.getName()))
            {
                return call.proceed();
            }
            synchronized (handed)
            {
                header.wrap(run ? ((MemorySegment[])args[1])[0] : (MemorySegment)args[1], 0);
                if (!SEQUENCED.contains(header.kind()))
                {
                    return call.proceed();
                }
                final boolean refuse = handed.size() % REFUSE_EVERY == REFUSE_EVERY - 1;
                handed.add(new Handed(header.seq(), refuse, 0 != (header.flags() & FrameFlyweight.FLAG_RESENT)));
                if (refuse)
                {
                    throw new DriverException(DriverError.NO_RESOURCES, "test: the peer's ring stayed full");
                }
            }
            return call.proceed();
        });
        sender = Endpoint.open(refusing, TestEndpoints.options(1, KEY, UserDriverOptions.defaults())
            .progressMode(mode).build());
        receiver = TestEndpoints.open(TestEndpoints.options(2, KEY, UserDriverOptions.defaults()).build());
        final Partner partner = sender.connect(receiver.address(), KEY, TIMEOUT);

        final List<Request> receives = new ArrayList<>();
        final List<MemorySegment> into = new ArrayList<>();
        final List<Request> sends = new ArrayList<>();
        for (int m = 0; m < MESSAGES; m++)
        {
            final MemorySegment in = arena.allocate(SIZES[m % SIZES.length]);
            into.add(in);
            receives.add(receiver.irecv(MatchInfo.ANY_SOURCE, m, MatchInfo.MASK_ALL, in));
            sends.add(sender.isend(partner, m, pattern(in.byteSize(), m)));
        }
        for (int m = 0; m < MESSAGES; m++)
        {
            // the send first: a caller-driven sender sends its held-back frames only in its own waits
            sends.get(m).awaitOrThrow(TIMEOUT);
            final Status status = receives.get(m).awaitOrThrow(TIMEOUT);
            final MemorySegment in = into.get(m);
            assertEquals(in.byteSize(), status.bytesTransferred(), "message " + m);
            assertEquals(-1, in.mismatch(pattern(in.byteSize(), m)), "message " + m + " intact");
        }
        synchronized (handed)
        {
            int refusals = 0;
            for (int i = 0; i + 1 < handed.size(); i++)
            {
                // A resend may be refused after its first copy arrived and was acknowledged: only a first send's
                // refusal tells that the receiver lacks the frame.
                if (handed.get(i).refused() && !handed.get(i).resent())
                {
                    refusals++;
                    final int refusedSeq = handed.get(i).firstSeq();
                    final int nextSeq = handed.get(i + 1).firstSeq();
                    assertTrue((refusedSeq - nextSeq & SEQUENCE_MASK) <= sender.options().sendWindowFrames,
                        "send " + (i + 1) + " began at seq " + nextSeq + " after seq " + refusedSeq + " was refused");
                }
            }
            assertTrue(refusals >= MESSAGES / REFUSE_EVERY / 2, refusals + " refusals of first sends");
        }
    }

    private MemorySegment pattern(final long size, final int seed)
    {
        final MemorySegment s = arena.allocate(Math.max(size, 1)).asSlice(0, size);
        for (long i = 0; i < size; i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 29 + seed));
        }
        return s;
    }
}
