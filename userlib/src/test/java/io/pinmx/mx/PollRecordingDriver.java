package io.pinmx.mx;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.user.UserDriver;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The user driver, recording per thread how often it polled the endpoint it opened and how many events those polls
 * delivered: which thread made progress, seen from the driver.
 */
final class PollRecordingDriver implements PinDriver
{
    private final UserDriver driver = new UserDriver();
    private final Map<Thread, AtomicLong> polls = new ConcurrentHashMap<>();
    private final Map<Thread, AtomicLong> delivered = new ConcurrentHashMap<>();

    long polls(final Thread thread)
    {
        return polls.getOrDefault(thread, new AtomicLong()).get();
    }

    long delivered(final Thread thread)
    {
        return delivered.getOrDefault(thread, new AtomicLong()).get();
    }

    /** @return the thread whose name starts so, among those that polled (the endpoint's progress thread). */
    Thread pollingThread(final String namePrefix)
    {
        return polls.keySet().stream().filter(t -> t.getName().startsWith(namePrefix)).findFirst().orElse(null);
    }

    @Override
    public DriverInfo info()
    {
        return driver.info();
    }

    @Override
    public DriverEndpoint open(final EndpointConfig config)
    {
        final DriverEndpoint endpoint = driver.open(config);
        return new DriverEndpoint()
        {
            @Override
            public EndpointAddress address()
            {
                return endpoint.address();
            }

            @Override
            public DriverInfo info()
            {
                return endpoint.info();
            }

            @Override
            public int acquirePeer(final BoardAddress board)
            {
                return endpoint.acquirePeer(board);
            }

            @Override
            public void retainPeer(final int peerIndex)
            {
                endpoint.retainPeer(peerIndex);
            }

            @Override
            public void releasePeer(final int peerIndex)
            {
                endpoint.releasePeer(peerIndex);
            }

            @Override
            public BoardAddress peer(final int peerIndex)
            {
                return endpoint.peer(peerIndex);
            }

            @Override
            public int declareRegion(final MemorySegment[] segments, final int count, final int accessFlags)
            {
                return endpoint.declareRegion(segments, count, accessFlags);
            }

            @Override
            public void destroyRegion(final int regionId)
            {
                endpoint.destroyRegion(regionId);
            }

            @Override
            public boolean send(final int peerIndex, final MemorySegment header, final MemorySegment payload)
            {
                return endpoint.send(peerIndex, header, payload);
            }

            @Override
            public void startPull(final PullSpec spec)
            {
                endpoint.startPull(spec);
            }

            @Override
            public int poll(final EventHandler handler, final int limit)
            {
                final int events = endpoint.poll(handler, limit);
                final Thread self = Thread.currentThread();
                polls.computeIfAbsent(self, t -> new AtomicLong()).incrementAndGet();
                delivered.computeIfAbsent(self, t -> new AtomicLong()).addAndGet(events);
                return events;
            }

            @Override
            public boolean await(final long timeoutNs)
            {
                return endpoint.await(timeoutNs);
            }

            @Override
            public DriverCounters counters()
            {
                return endpoint.counters();
            }

            @Override
            public void close()
            {
                endpoint.close();
            }
        };
    }
}
