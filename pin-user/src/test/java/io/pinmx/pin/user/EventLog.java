package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.wire.FrameFlyweight;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/** Copies events out of the flyweight so tests can assert on them after poll returns. */
final class EventLog
{
    /** One event as seen by the handler. */
    record Seen(EventType type, int peer, int kindCode, int seq, int srcSession, byte[] frame, int pullHandle, long bytes,
                DriverError error, String message)
    {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    void onEvent(final DriverEvent event)
    {
        final boolean received = event.frameLength() > 0;
        final byte[] frame = received ? event.frame().toArray(ValueLayout.JAVA_BYTE) : new byte[0];
        final FrameFlyweight header = new FrameFlyweight();
        if (received)
        {
            header.wrap(event.frame(), 0);
        }
        seen.add(new Seen(event.type(), event.peerIndex(), received ? header.kindCode() : -1,
            received ? header.seq() : 0, received ? header.srcSession() : 0, frame, event.pullHandle(), event.bytes(),
            event.error(), event.errorMessage() == null ? "" : event.errorMessage().toString()));
    }

    /** Poll {@code endpoint} until an event matching {@code condition} was seen; returns it. */
    Seen awaitEvent(final DriverEndpoint endpoint, final Duration timeout, final Predicate<Seen> condition)
    {
        await().atMost(timeout).pollInterval(Duration.ofMillis(1)).until(() ->
        {
            endpoint.poll(this::onEvent, 64);
            return seen.stream().anyMatch(condition);
        });
        return seen.stream().filter(condition).findFirst().orElseThrow();
    }

    Seen awaitPull(final DriverEndpoint endpoint, final Duration timeout, final int handle)
    {
        return awaitEvent(endpoint, timeout, s ->
            (s.type() == EventType.PULL_DONE || s.type() == EventType.PULL_FAILED) && s.pullHandle() == handle);
    }

    List<Seen> all()
    {
        return new ArrayList<>(seen);
    }
}
