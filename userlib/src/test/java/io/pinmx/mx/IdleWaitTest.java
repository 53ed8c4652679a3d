package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An endpoint's progress thread with no timer due blocks in the driver for the longest idle wait its options allow
 * ({@link PartnerTimers#maxIdleWaitNs}), not a millisecond at a time; a timer that falls due sooner, a delayed ack it
 * owes, shortens the wait to exactly what is left of it (the receiver's protocol clock is the test's), and once it is
 * due and out the thread blocks for the longest wait again.
 */
class IdleWaitTest
{
    private static final int KEY = 0x1D1E;
    private static final int TAG = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final long ACK_DELAY_NS = 4_000_000L;
    private static final int GAPS = 4;

    @Test
    void theLongestIdleWaitIsHalfTheShortestIntervalAnApiThreadArms()
    {
        final EndpointOptions defaults = options(20).build();
        assertEquals(defaults.resendTimeoutNs / 2, PartnerTimers.maxIdleWaitNs(defaults));
        final EndpointOptions shortKeepalive = options(20).keepaliveIntervalNs(6_000_000L).build();
        assertEquals(3_000_000L, PartnerTimers.maxIdleWaitNs(shortKeepalive));
    }

    @Test
    void anIdleProgressThreadBlocksForTheLongestIdleWait()
    {
        final AwaitRecording awaits = new AwaitRecording();
        final EndpointOptions options = options(21).build();
        final long longestNs = PartnerTimers.maxIdleWaitNs(options);
        try (Endpoint idle = Endpoint.open(awaits.driver(), options))
        {
            await("the progress thread blocks " + (GAPS + 1) + " times").atMost(TIMEOUT)
                .until(() -> awaits.count() > GAPS);
            final List<long[]> seen = awaits.snapshot();
            for (int i = 0; i < seen.size(); i++)
            {
                assertEquals(longestNs, seen.get(i)[1], "await " + i + " of an endpoint with nothing due");
            }
            for (int i = 1; i <= GAPS; i++)
            {
                final long gapNs = seen.get(i)[0] - seen.get(i - 1)[0];
                assertTrue(gapNs >= longestNs, "await " + i + " began " + gapNs + " ns after the one before, " +
                    "which asked for " + longestNs + " ns with nothing to end it sooner");
            }
        }
    }

    @Test
    void aDelayedAckOwedShortensTheWaitToItsDeadline()
    {
        // the receiver's protocol time moves only when the test says: its waits ask for exactly what is left
        final AtomicLong receiverTime = new AtomicLong(System.nanoTime());
        final AwaitRecording awaits = new AwaitRecording();
        final EndpointOptions options = options(22).ackDelayNs(ACK_DELAY_NS).losslessAckDelayNs(ACK_DELAY_NS)
            .clock(receiverTime::get).build();
        final long longestNs = PartnerTimers.maxIdleWaitNs(options);
        assertTrue(ACK_DELAY_NS < longestNs, "the ack falls due before the longest idle wait ends");
        try (Arena arena = Arena.ofShared();
             Endpoint receiver = Endpoint.open(awaits.driver(), options);
             Endpoint sender = TestEndpoints.open(options(23).build()))
        {
            final Partner toReceiver = sender.connect(receiver.address(), KEY, TIMEOUT);
            // time moves on until the handshake's acks are out and the receiver blocks for the longest wait again
            final int settledFrom = awaits.count();
            await("the receiver idles after the connect").atMost(TIMEOUT).until(() ->
            {
                receiverTime.addAndGet(ACK_DELAY_NS);
                return awaits.since(settledFrom).stream().anyMatch(a -> longestNs == a[1]);
            });

            // no receive posted: the receiver waits on nobody, so only the ack it will owe is due before long
            final int from = awaits.count();
            final MemorySegment word = arena.allocate(8);
            word.set(ValueLayout.JAVA_LONG, 0, 77);
            final Request send = sender.isend(toReceiver, TAG, word);
            final Status probed = new Status();
            await("the message arrives").atMost(TIMEOUT)
                .until(() -> receiver.iprobe(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, probed));
            await("the receiver blocks until its ack falls due").atMost(TIMEOUT)
                .until(() -> awaits.since(from).stream().anyMatch(a -> ACK_DELAY_NS == a[1]));

            // due now: once it went out nothing is owed, and the receiver blocks for the longest wait again (an ack
            // still owed would keep its waits at the shortest)
            final int due = awaits.count();
            receiverTime.addAndGet(ACK_DELAY_NS);
            await("the receiver sends its ack and idles").atMost(TIMEOUT)
                .until(() -> awaits.since(due).stream().anyMatch(a -> longestNs == a[1]));
            send.awaitOrThrow(TIMEOUT);
            send.release();
            final MemorySegment into = arena.allocate(8);
            final Request receive = receiver.irecv(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, into);
            receive.awaitOrThrow(TIMEOUT);
            assertEquals(77, into.get(ValueLayout.JAVA_LONG, 0));
            receive.release();
        }
    }

    private static EndpointOptions.Builder options(final int endpointIndex)
    {
        // over UDP (no same-host ring): every frame wakes the progress thread blocked on the socket
        return TestEndpoints.options(endpointIndex, KEY, UserDriverOptions.defaults().withSameHost(false));
    }

    /** The user driver, recording when the endpoint's progress thread called await and for how long. */
    private static final class AwaitRecording
    {
        private final List<long[]> awaits = new CopyOnWriteArrayList<>();
        private final PinDriver driver = new InterceptingDriver(new UserDriver(), (method, args, call) ->
        {
            if ("await".equals(method.getName()) && Thread.currentThread().getName().startsWith("pinmx-progress-"))
            {
                awaits.add(new long[] {System.nanoTime(), (Long)args[0]});
            }
            return call.proceed();
        });

        PinDriver driver()
        {
            return driver;
        }

        int count()
        {
            return awaits.size();
        }

        List<long[]> snapshot()
        {
            return List.copyOf(awaits);
        }

        List<long[]> since(final int from)
        {
            final List<long[]> all = snapshot();
            return all.subList(Math.min(from, all.size()), all.size());
        }
    }
}
