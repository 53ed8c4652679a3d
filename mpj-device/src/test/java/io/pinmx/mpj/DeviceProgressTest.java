package io.pinmx.mpj;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.PollIdle;
import io.pinmx.mx.Request;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Caller mode's waits poll without yielding in the endpoint's own wait for the time the device names, and the {@link SpinBudget}
 * learns from how each poll ended: waits on a receive nothing matches run their polls out, after
 * {@link SpinBudget#MISSES_BEFORE_BLOCKING} such waits in a row the next ones block at once, and a wait done within
 * its poll starts the count again.
 */
class DeviceProgressTest
{
    private static final Duration WAIT = Duration.ofMillis(5);
    private static final Duration CONNECT = Duration.ofSeconds(10);

    @Test
    void callerModeWaitsPollWithoutYieldingAndThreadModeKeepsTheLibrarysIdle()
    {
        final EndpointOptions.Builder caller = EndpointOptions.builder();
        DeviceProgress.CALLER.tuning(PinmxDevice.EAGER_MAX_BYTES).options(caller);
        assertEquals(PollIdle.BUSY_SPIN, caller.build().callerPollIdle());
        final EndpointOptions.Builder thread = EndpointOptions.builder();
        DeviceProgress.THREAD.tuning(PinmxDevice.EAGER_MAX_BYTES).options(thread);
        assertEquals(PollIdle.BUSY_POLLING, thread.build().callerPollIdle());
    }

    @Test
    void theEagerLimitComesFromTheEnvironmentAndABadOneIsRefusedNamingTheVariable()
    {
        assertEquals(PinmxDevice.EAGER_MAX_BYTES, DeviceProgress.eagerMaxBytes(Map.of()));
        assertEquals(65536, DeviceProgress.eagerMaxBytes(Map.of(DeviceProgress.EAGER_VARIABLE, "65536")));
        final EndpointOptions.Builder options = EndpointOptions.builder();
        DeviceProgress.CALLER.tuning(65536).options(options);
        assertEquals(65536, options.build().rendezvousThresholdBytes());
        final String tooLarge = Integer.toString(DeviceProgress.MAX_EAGER_MAX_BYTES + 1);
        for (final String bad : new String[] {"64k", "127", tooLarge, "-1"})
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> DeviceProgress.eagerMaxBytes(Map.of(DeviceProgress.EAGER_VARIABLE, bad)));
            assertTrue(refused.getMessage().contains(DeviceProgress.EAGER_VARIABLE + "='" + bad + "'"),
                refused.getMessage());
        }
    }

    @Test
    void waitsWhosePollsRunOutMakeTheNextWaitsBlock()
    {
        try (Arena arena = Arena.ofShared(); Endpoint endpoint = open(20))
        {
            final Request receive = endpoint.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, arena.allocate(8));
            final SpinBudget budget = new SpinBudget();
            for (int i = 0; i < SpinBudget.MISSES_BEFORE_BLOCKING - 1; i++)
            {
                assertFalse(DeviceProgress.CALLER.await(receive, 8, WAIT, budget), "nothing was sent");
            }
            assertEquals(-1, DeviceProgress.CALLER.awaitAny(endpoint, new Request[] {receive}, 1, WAIT, budget));
            assertFalse(budget.pollNext(), "after " + SpinBudget.MISSES_BEFORE_BLOCKING + " polls that ran out");
            assertTrue(receive.cancel(), "the waits left the receive posted");
            receive.release();
        }
    }

    @Test
    void aWaitDoneWithinItsPollKeepsTheWaitsPolling()
    {
        try (Arena arena = Arena.ofShared(); Endpoint endpoint = open(21))
        {
            final Partner self = endpoint.connect(endpoint.address(), endpoint.options().applicationKey(), CONNECT);
            final MemorySegment in = arena.allocate(8);
            final MemorySegment out = arena.allocate(8);
            final SpinBudget budget = new SpinBudget();
            final Request silent = endpoint.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, in);
            for (int i = 0; i < SpinBudget.MISSES_BEFORE_BLOCKING - 1; i++)
            {
                assertFalse(DeviceProgress.CALLER.await(silent, 8, WAIT, budget), "nothing was sent with tag 1");
            }
            assertTrue(silent.cancel());
            silent.release();

            out.set(ValueLayout.JAVA_LONG, 0, 42);
            final Request receive = endpoint.irecv(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, in);
            final Request send = endpoint.isend(self, 2, out);
            // The longest poll the device gives (a 2 MB message): the frame to itself arrives well within it.
            assertTrue(DeviceProgress.CALLER.await(receive, 2_000_000, CONNECT, budget), "the message to itself");
            assertEquals(42, in.get(ValueLayout.JAVA_LONG, 0));
            receive.release();
            assertTrue(send.await(CONNECT));
            send.release();

            final Request again = endpoint.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, in);
            for (int i = 0; i < SpinBudget.MISSES_BEFORE_BLOCKING - 1; i++)
            {
                assertFalse(DeviceProgress.CALLER.await(again, 8, WAIT, budget), "nothing was sent with tag 1");
            }
            assertTrue(budget.pollNext(), "the poll that was done in time started the count of misses again");
            assertTrue(again.cancel());
            again.release();
        }
    }

    /** An endpoint as the device's caller mode opens it, over the user driver on loopback. */
    private static Endpoint open(final int endpointIndex)
    {
        final EndpointConfig.Builder config = EndpointConfig.builder().boardIndex(0).endpointIndex(endpointIndex);
        DeviceProgress.CALLER.tuning(PinmxDevice.EAGER_MAX_BYTES).driverConfig(config);
        final EndpointOptions.Builder options = EndpointOptions.builder().driverConfig(config.build());
        DeviceProgress.CALLER.tuning(PinmxDevice.EAGER_MAX_BYTES).options(options);
        return Endpoint.open(new UserDriver(), options.build());
    }
}
