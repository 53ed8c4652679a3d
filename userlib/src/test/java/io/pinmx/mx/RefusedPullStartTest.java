package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver that refuses pull starts for want of room (NO_RESOURCES: the kernel module's event ring full when a
 * same-interface pull ended inside its ioctl, every pull slot busy) must not fail the receive or the read: the
 * library starts the pull again after its next poll. Here the real user driver refuses two of every three pull
 * starts (the refusal decided in front of it); every rendezvous message and every one-sided read still arrives
 * whole.
 */
class RefusedPullStartTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int KEY = 0x9011;
    private static final int MESSAGES = 64;
    private static final int MESSAGE_BYTES = 40 * 1024;

    private final Arena arena = Arena.ofShared();
    private final AtomicInteger pullStarts = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
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

    @Test
    void refusedPullStartsAreStartedAgainAndEveryMessageArrives()
    {
        open();
        final Partner partner = sender.connect(receiver.address(), KEY, TIMEOUT);
        final MemorySegment sources = pattern((long)MESSAGES * MESSAGE_BYTES);
        final MemorySegment destinations = arena.allocate(sources.byteSize(), 4096);
        final Request[] receives = new Request[MESSAGES];
        final Request[] sends = new Request[MESSAGES];
        for (int m = 0; m < MESSAGES; m++)
        {
            receives[m] = receiver.irecv(MatchInfo.ANY_SOURCE, m, MatchInfo.MASK_ALL,
                destinations.asSlice((long)m * MESSAGE_BYTES, MESSAGE_BYTES));
            sends[m] = sender.isend(partner, m, sources.asSlice((long)m * MESSAGE_BYTES, MESSAGE_BYTES));
        }
        for (int m = 0; m < MESSAGES; m++)
        {
            assertEquals(MESSAGE_BYTES, receives[m].awaitOrThrow(TIMEOUT).bytesTransferred(), "message " + m);
            sends[m].awaitOrThrow(TIMEOUT);
        }
        assertEquals(-1L, destinations.mismatch(sources), "every byte arrived where it belongs");
        assertTrue(refused.get() >= MESSAGES, "pull starts were refused: " + refused.get());
    }

    @Test
    void refusedReadStartsAreStartedAgainAndEveryReadArrives()
    {
        open();
        final Partner target = receiver.connect(sender.address(), KEY, TIMEOUT);
        final MemorySegment exposed = pattern(256 * 1024);
        final ExposedRegion region = sender.regions().expose(exposed);
        final MemorySegment destination = arena.allocate(16 * 8 * 1024, 4096);
        final long[] offsets = new long[16];
        final long[] lengths = new long[16];
        for (int i = 0; i < offsets.length; i++)
        {
            offsets[i] = i * 16 * 1024L;
            lengths[i] = 8 * 1024;
        }
        final Request read = receiver.regions().iget(target, region.id(), offsets, lengths, offsets.length,
            new MemorySegment[] {destination}, 1);
        read.awaitOrThrow(TIMEOUT);
        for (int i = 0; i < offsets.length; i++)
        {
            assertEquals(-1L, destination.asSlice(i * 8 * 1024L, 8 * 1024).mismatch(exposed.asSlice(offsets[i], 8 * 1024)),
                "piece " + i);
        }
        assertTrue(refused.get() >= offsets.length, "pull starts were refused: " + refused.get());
    }

    private void open()
    {
        sender = TestEndpoints.open(TestEndpoints.options(1, KEY, UserDriverOptions.defaults()).build());
        receiver = Endpoint.open(refusingPullStarts(new UserDriver()),
            TestEndpoints.options(2, KEY, UserDriverOptions.defaults()).build());
    }

    private MemorySegment pattern(final long bytes)
    {
        final MemorySegment segment = arena.allocate(bytes, 4096);
        for (long i = 0; i < bytes / Integer.BYTES; i++)
        {
            segment.setAtIndex(ValueLayout.JAVA_INT, i, (int)(i * 2654435761L));
        }
        return segment;
    }

    /** The driver, with two of every three startPull calls refused before they reach it. */
    private PinDriver refusingPullStarts(final PinDriver driver)
    {
        return new InterceptingDriver(driver, (method, args, call) ->
        {
            if ("startPull".equals(method.getName()) && pullStarts.incrementAndGet() % 3 != 0)
            {
                refused.incrementAndGet();
                throw new DriverException(DriverError.NO_RESOURCES, "refused by the test");
            }
            return call.proceed();
        });
    }
}
