package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A one-sided read whose partner is given up while its pull is still out: the library cancels the pull and the read
 * is done once the driver reports the pull ended, well before the pull's own timeout, so the buffer its owner then
 * reuses never receives the bytes the partner sends late. The partner here is an endpoint that serves pulls only
 * while polled; it answers the read's PULL requests only after the reader has given it up and reused the buffer,
 * and those replies are dropped and counted instead of landing there.
 */
class LateReadReplyTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x1A7E;
    private static final int READ_BYTES = 64 << 10;
    private static final byte REUSED = (byte)0x5A;
    /**
     * How soon a read of a partner given up ends: far below the reader driver's pull timeout (seconds at its
     * defaults, which the reader keeps), with slack for a loaded host.
     */
    private static final Duration CANCELLED_WITHIN = Duration.ofMillis(1500);

    private final Arena arena = Arena.ofShared();
    private Endpoint reader;
    private Endpoint owner;

    @AfterEach
    void close()
    {
        if (null != reader)
        {
            reader.close();
        }
        if (null != owner)
        {
            owner.close();
        }
        arena.close();
    }

    @Test
    void repliesToAReadOfAPartnerGivenUpNeverLandInItsReusedBuffer()
    {
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false);
        reader = TestEndpoints.open(TestEndpoints.options(1, KEY, udp).build());
        owner = TestEndpoints.open(TestEndpoints.options(2, KEY, udp.withProgressThread(false).withResponder(false))
            .progressMode(ProgressMode.CALLER).build());
        final Partner toOwner = TestEndpoints.connectPolling(reader, owner, KEY, TIMEOUT);
        final MemorySegment exposed = arena.allocate(READ_BYTES, 4096);
        for (int i = 0; i < READ_BYTES; i++)
        {
            exposed.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 7 + 1));
        }
        final ExposedRegion region = owner.regions().expose(exposed);
        final MemorySegment buffer = arena.allocate(READ_BYTES, 4096);

        final Request read = reader.regions().iget(toOwner, region.id(), 0, buffer);
        await().atMost(TIMEOUT).until(() -> reader.counters().driver().get(Counter.FRAMES_SENT_PULL) > 0);
        final long failedAtNs = System.nanoTime();
        reader.failPartner(toOwner, "owner given up by the test");
        assertTrue(read.await(TIMEOUT), "the read ends once its pull ended");
        final long tookMs = (System.nanoTime() - failedAtNs) / 1_000_000;
        assertTrue(tookMs <= CANCELLED_WITHIN.toMillis(), "read ended after " + tookMs + " ms, not at its pull's cancel");
        assertEquals(1, reader.counters().driver().get(Counter.PULLS_CANCELLED), "its pull was cancelled");
        assertEquals(RequestState.FAILED, read.state());
        assertTrue(read.status().error().contains("owner given up by the test"), read.status().error());
        read.release();

        buffer.fill(REUSED);
        final long repliesBefore = reader.counters().driver().get(Counter.FRAMES_RECEIVED_PULL_REPLY);
        final Status ignored = new Status();
        await().atMost(TIMEOUT).until(() ->
        {
            owner.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, ignored);
            return reader.counters().driver().get(Counter.FRAMES_RECEIVED_PULL_REPLY) > repliesBefore;
        });
        assertTrue(owner.counters().driver().get(Counter.PULLS_SERVED) > 0, "the owner served the late requests");
        assertTrue(reader.counters().driver().get(Counter.PULL_DUPLICATE_FRAMES) > 0, "late replies are counted");
        for (long i = 0; i < READ_BYTES; i++)
        {
            final long at = i;
            assertEquals(REUSED, buffer.get(ValueLayout.JAVA_BYTE, at), () -> "byte " + at + " of the reused buffer");
        }
        assertFalse(reader.counters().driver().get(Counter.PULL_FRAMES_RECEIVED) > 0, "no reply was accepted");
    }

    /**
     * A driver that never reports the end of a cancelled pull (its cancel and every pull end are lost on the way):
     * the read held for that end still fails, once the reader's {@code pullEndPatienceNs} passed, saying why,
     * instead of waiting for ever.
     */
    @Test
    void aReadWhosePullNeverReportsItsEndFailsAfterThePatienceSayingSo()
    {
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false);
        final AtomicInteger cancels = new AtomicInteger();
        final AtomicInteger pullEndsLost = new AtomicInteger();
        final InterceptingDriver losingPullEnds = new InterceptingDriver(new UserDriver(), (method, args, call) ->
        {
            if ("cancelPull".equals(method.getName()))
            {
                cancels.incrementAndGet();
                return null;
            }
            if ("poll".equals(method.getName()))
            {
                final EventHandler handler = (EventHandler)args[0];
                args[0] = (EventHandler)event ->
                {
                    if (EventType.PULL_DONE == event.type() || EventType.PULL_FAILED == event.type())
                    {
                        pullEndsLost.incrementAndGet();
                        return;
                    }
                    handler.onEvent(event);
                };
            }
            return call.proceed();
        });
        // longer than the driver lets the unanswered pull run (its end comes about 6 s after the cancel), so the
        // driver's own timeout ends it first and that end is lost
        final Duration patience = Duration.ofSeconds(10);
        reader = Endpoint.open(losingPullEnds, TestEndpoints.options(1, KEY, udp)
            .pullEndPatienceNs(patience.toNanos()).build());
        owner = TestEndpoints.open(TestEndpoints.options(2, KEY, udp.withProgressThread(false).withResponder(false))
            .progressMode(ProgressMode.CALLER).build());
        final Partner toOwner = TestEndpoints.connectPolling(reader, owner, KEY, TIMEOUT);
        final ExposedRegion region = owner.regions().expose(arena.allocate(READ_BYTES, 4096));
        final Request read = reader.regions().iget(toOwner, region.id(), 0, arena.allocate(READ_BYTES, 4096));
        await().atMost(TIMEOUT).until(() -> reader.counters().driver().get(Counter.FRAMES_SENT_PULL) > 0);
        final long failedAtNs = System.nanoTime();
        reader.failPartner(toOwner, "owner given up by the test");
        assertEquals(1, cancels.get(), "the library asked for the cancel");

        assertTrue(read.await(patience.plus(TIMEOUT)), "the read still waits for a pull end that never comes");
        final long tookMs = (System.nanoTime() - failedAtNs) / 1_000_000;
        // the patience runs from the endpoint's clock as its last round read it, a little before failPartner
        assertTrue(tookMs >= patience.toMillis() / 2, "failed after " + tookMs + " ms, long before the patience");
        assertTrue(pullEndsLost.get() > 0, "the pull's own timeout ended it in the driver, and that end was lost");
        assertEquals(RequestState.FAILED, read.state());
        assertTrue(read.status().error().contains("owner given up by the test; its pull's end was not reported " +
            "within " + patience.toMillis() + " ms of its cancel"), read.status().error());
        read.release();
    }

    @Test
    void closingTheReaderEndsAReadHeldForItsPull()
    {
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false);
        reader = TestEndpoints.open(TestEndpoints.options(1, KEY, udp).build());
        owner = TestEndpoints.open(TestEndpoints.options(2, KEY, udp.withProgressThread(false).withResponder(false))
            .progressMode(ProgressMode.CALLER).build());
        final Partner toOwner = TestEndpoints.connectPolling(reader, owner, KEY, TIMEOUT);
        final ExposedRegion region = owner.regions().expose(arena.allocate(READ_BYTES, 4096));
        final Request read = reader.regions().iget(toOwner, region.id(), 0, arena.allocate(READ_BYTES, 4096));
        await().atMost(TIMEOUT).until(() -> reader.counters().driver().get(Counter.FRAMES_SENT_PULL) > 0);
        reader.failPartner(toOwner, "owner given up by the test");
        assertEquals(RequestState.PULLING, read.state(), () -> "held until its pull ends: " + read.status().error());

        reader.close();
        assertEquals(RequestState.FAILED, read.state());
        assertTrue(read.status().error().contains("owner given up by the test"), read.status().error());
        read.release();
    }
}
