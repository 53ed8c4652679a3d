package io.pinmx.mx;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manygets pattern at the endpoint: thousands of 8-byte reads over UDP with more in flight than the driver has
 * pull slots, frames lost both ways and PULL timeouts short, so pulls time out while every slot is busy, and replies
 * that were only late (on a loaded host, many) arrive after their reads ended. A timed-out pull waits for room like a
 * refused start instead of failing its read; each read's 8 bytes are checked when it completes and then overwritten
 * with a mark, and at the end every mark is still there: no reply lands in a destination whose read is done.
 */
class ManySmallReadsTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int KEY = 0x3A11;
    private static final int READS = 4_000;
    private static final int IN_FLIGHT = 600;
    private static final long MARK = 0x5A5A5A5A5A5A5A5AL;
    /**
     * Frames lost each way: a block whose request or reply is lost four times in a row (about 0.6 % of them) times
     * out however quiet the host, so some pulls always time out and are started again.
     */
    private static final double LOSS = 0.15;

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
    void noReplyLandsInADestinationWhoseReadEnded()
    {
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false);
        reader = TestEndpoints.open(TestEndpoints.options(1, KEY, udp
            .withPullResend(TimeUnit.MILLISECONDS.toNanos(1), 3).withLoss(0, LOSS, 7)).build());
        owner = TestEndpoints.open(TestEndpoints.options(2, KEY, udp.withLoss(LOSS, 0, 11)).build());
        final Partner toOwner = reader.connect(owner.address(), KEY, TIMEOUT);
        final MemorySegment exposed = arena.allocate(READS * Long.BYTES, 4096);
        for (int i = 0; i < READS; i++)
        {
            exposed.setAtIndex(ValueLayout.JAVA_LONG, i, value(i));
        }
        final ExposedRegion region = owner.regions().expose(exposed);
        final MemorySegment into = arena.allocate(READS * Long.BYTES, 4096);

        final ArrayDeque<Request> running = new ArrayDeque<>();
        final ArrayDeque<Integer> which = new ArrayDeque<>();
        for (int i = 0; i < READS; i++)
        {
            if (running.size() == IN_FLIGHT)
            {
                finish(running.pollFirst(), which.pollFirst(), into);
            }
            running.addLast(reader.regions().iget(toOwner, region.id(), (long)i * Long.BYTES,
                into.asSlice((long)i * Long.BYTES, Long.BYTES)));
            which.addLast(i);
        }
        while (!running.isEmpty())
        {
            finish(running.pollFirst(), which.pollFirst(), into);
        }
        assertTrue(reader.counters().driver().get(Counter.PULL_REQUESTS_RESENT) > 0, "PULLs were resent");
        assertTrue(reader.counters().driver().get(Counter.PULLS_FAILED) > 0, "pulls timed out and were started again");
        // replies to resent PULLs still arrive after their reads ended: wait until a poll interval passes with none
        final long[] replies = {-1};
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() ->
        {
            final long now = reader.counters().driver().get(Counter.FRAMES_RECEIVED_PULL_REPLY);
            final boolean quiet = now == replies[0];
            replies[0] = now;
            return quiet;
        });
        for (int i = 0; i < READS; i++)
        {
            assertEquals(MARK, into.getAtIndex(ValueLayout.JAVA_LONG, i), "destination " + i + " after its read");
        }
    }

    private static void finish(final Request read, final int i, final MemorySegment into)
    {
        read.awaitOrThrow(TIMEOUT);
        read.release();
        assertEquals(value(i), into.getAtIndex(ValueLayout.JAVA_LONG, i), "read " + i);
        into.setAtIndex(ValueLayout.JAVA_LONG, i, MARK);
    }

    private static long value(final int i)
    {
        return 1_000_000_007L + i;
    }
}
