package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventType;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The end events of an origin's puts and atomics, by handle, polled until the ones a test waits for arrived. */
final class OneSidedEnds
{
    /** One put's or atomic's end as its event said. */
    record End(EventType type, int handle, long bytes, long oldValue, DriverError error, String message)
    {
        boolean done()
        {
            return type == EventType.PUT_DONE || type == EventType.ATOMIC_DONE;
        }
    }

    private final DriverEndpoint origin;
    private final Map<Integer, End> ends = new HashMap<>();

    OneSidedEnds(final DriverEndpoint origin)
    {
        this.origin = origin;
    }

    /** Polls until {@code handle} ended, or fails the test after {@code timeoutNs}. */
    End await(final int handle, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (!ends.containsKey(handle) && System.nanoTime() - deadline < 0)
        {
            origin.await(Math.max(1, deadline - System.nanoTime()));
            origin.poll((DriverEvent e) -> ends.put(e.pullHandle(), new End(e.type(), e.pullHandle(), e.bytes(),
                e.oldValue(), e.error(), e.errorMessage() == null ? "" : e.errorMessage().toString())), 64);
        }
        assertTrue(ends.containsKey(handle), "an end event for handle " + handle + " within " +
            TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
        return ends.remove(handle);
    }

    /** {@link #await} and check the end is of {@code type}. */
    End await(final int handle, final long timeoutNs, final EventType type)
    {
        final End end = await(handle, timeoutNs);
        assertEquals(type, end.type(), end.toString());
        return end;
    }
}
