package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A caller-mode wait polls for {@code callerPollNs} of the wait, then blocks in the driver, which does not spin: a
 * receive awaited on an idle endpoint with {@code callerPollNs} 0 costs its thread a small part of the CPU time of
 * the same wait polled throughout, and still times out when nothing comes; a negative value is refused by name.
 * A waitAny that names its own poll time stays on its core that long on an endpoint whose waits block at once.
 */
class CallerWaitTest
{
    private static final int KEY = 0xCA11;
    private static final Duration WAIT = Duration.ofMillis(400);
    /** Pairs of waits measured at most until the polled one had the CPU. */
    private static final int ATTEMPTS = 5;

    @Test
    void aWaitThatBlocksAtOnceUsesLittleCpuAndStillTimesOut()
    {
        assertBlockingCostsLittleCpu("wait blocking in the driver", () -> cpuOfIdleWait(0),
            () -> cpuOfIdleWait(WAIT.toNanos()));
    }

    @Test
    void aWaitAnyPollsForTheTimeItNames()
    {
        assertBlockingCostsLittleCpu("waitAny polling for 0", () -> cpuOfIdleWaitAny(Duration.ZERO),
            () -> cpuOfIdleWaitAny(WAIT));
    }

    /**
     * The blocking wait costs under a quarter of the CPU of the same wait polled throughout, compared in a pair where
     * the polled wait had the CPU for at least half its time (on a loaded host it may not: the pair is measured
     * again). Pairs that never had it still bound the blocking wait by a quarter of its wall time.
     */
    private static void assertBlockingCostsLittleCpu(final String what, final LongSupplier blockingCpuNs,
        final LongSupplier pollingCpuNs)
    {
        long blocking = 0;
        long polling = 0;
        for (int pair = 0; pair < ATTEMPTS; pair++)
        {
            blocking = blockingCpuNs.getAsLong();
            polling = pollingCpuNs.getAsLong();
            if (polling >= WAIT.toNanos() / 2)
            {
                break;
            }
        }
        final String figures = "CPU of a " + WAIT.toMillis() + " ms " + what + ": " + blocking / 1000 +
            " us; polling throughout: " + polling / 1000 + " us";
        assertTrue(blocking * 4 < (polling >= WAIT.toNanos() / 2 ? polling : WAIT.toNanos()), figures);
    }

    @Test
    void aWaitAnyWithANegativePollTimeIsRefusedByName()
    {
        try (Arena arena = Arena.ofShared(); Endpoint endpoint = open(0))
        {
            final Request receive = endpoint.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, arena.allocate(8));
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> endpoint.waitAny(new Request[] {receive}, 1, WAIT, Duration.ofNanos(-1)));
            assertEquals("pollFor = PT-0.000000001S: must be >= 0", ex.getMessage());
            assertTrue(receive.cancel(), "the refused wait left the receive posted");
            receive.release();
        }
    }

    @Test
    void aNegativePollTimeIsNamed()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> EndpointOptions.builder().callerPollNs(-1).build());
        assertEquals("endpoint option callerPollNs = -1: must be >= 0", ex.getMessage());
    }

    /** @return the CPU time of this thread while it awaited a receive nothing matches, for {@link #WAIT}. */
    private static long cpuOfIdleWait(final long callerPollNs)
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofShared(); Endpoint endpoint = open(callerPollNs))
        {
            final Request receive = endpoint.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, arena.allocate(8));
            final long startWallNs = System.nanoTime();
            final long startCpuNs = threads.getCurrentThreadCpuTime();
            assertFalse(receive.await(WAIT), "nothing was sent");
            final long cpuNs = threads.getCurrentThreadCpuTime() - startCpuNs;
            assertTrue(System.nanoTime() - startWallNs >= WAIT.toNanos(), "waited its timeout");
            assertTrue(receive.cancel());
            receive.release();
            return cpuNs;
        }
    }

    /** @return the CPU time of this thread while a waitAny on a receive nothing matches waited {@link #WAIT}. */
    private static long cpuOfIdleWaitAny(final Duration pollFor)
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofShared(); Endpoint endpoint = open(0))
        {
            final Request receive = endpoint.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, arena.allocate(8));
            final long startWallNs = System.nanoTime();
            final long startCpuNs = threads.getCurrentThreadCpuTime();
            assertEquals(-1, endpoint.waitAny(new Request[] {receive}, 1, WAIT, pollFor), "nothing was sent");
            final long cpuNs = threads.getCurrentThreadCpuTime() - startCpuNs;
            assertTrue(System.nanoTime() - startWallNs >= WAIT.toNanos(), "waited its timeout");
            assertTrue(receive.cancel());
            receive.release();
            return cpuNs;
        }
    }

    private static Endpoint open(final long callerPollNs)
    {
        return TestEndpoints.open(TestEndpoints.options(4, KEY, UserDriverOptions.defaults().withProgressThread(false))
            .progressMode(ProgressMode.CALLER)
            .callerPollNs(callerPollNs)
            .build());
    }
}
