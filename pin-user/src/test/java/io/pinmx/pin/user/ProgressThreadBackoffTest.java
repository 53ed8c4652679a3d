package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver's progress thread on an endpoint without the same-host ring, where every idle round of its duty cycle
 * is a UDP receive system call: a frame wakes it, it delivers the frame and parks in poll(2) again within its time
 * bound, not after thousands of rounds on the CPU the application computes on.
 */
class ProgressThreadBackoffTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int WARM_UP_FRAMES = 20;
    private static final int FRAMES = 30;
    /** Ten times the backoff's bound: room for the frame's own work and a loaded host, far below 2,000 receive calls. */
    private static final long MAX_CPU_PER_WAKE_UP_NS = 10 * 50_000L;

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void closeAll()
    {
        resources.close();
        arena.close();
    }

    @Test
    void aWokenUdpOnlyProgressThreadParksAgainWithinItsBackoff()
    {
        final DriverEndpoint sender = resources.open(UserDriverOptions.defaults().withSameHost(false)
            .withProgressThread(false).withCountersFile(null));
        final DriverEndpoint receiver = resources.open(UserDriverOptions.defaults().withSameHost(false)
            .withCountersFile(null));
        final int peer = sender.acquirePeer(receiver.address().board());
        final MemorySegment header = arena.allocate(64);
        final int headerBytes = TestFrames.encodeHeader(header, FrameKind.ACK, 0, 0, receiver.address().sessionId(),
            sender.address().sessionId(), 1);
        final String name = "pinmx-progress-" + receiver.address();
        final Thread progress = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals(name)).findFirst().orElseThrow();
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final EventLog log = new EventLog();
        long startCpuNs = 0;
        for (int seq = 1; seq <= WARM_UP_FRAMES + FRAMES; seq++)
        {
            await().atMost(TIMEOUT).until(() -> UserEndpointTest.isParkedInSelector(name));
            if (seq == WARM_UP_FRAMES + 1)
            {
                startCpuNs = threads.getThreadCpuTime(progress.threadId());
            }
            final int tag = seq;
            new FrameFlyweight().wrap(header, 0).seq(tag);
            sender.send(peer, header.asSlice(0, headerBytes), MemorySegment.NULL);
            log.awaitEvent(receiver, TIMEOUT, s -> s.type() == EventType.RECV_ACK && s.seq() == tag);
        }
        await().atMost(TIMEOUT).until(() -> UserEndpointTest.isParkedInSelector(name));
        final long perWakeUpNs = (threads.getThreadCpuTime(progress.threadId()) - startCpuNs) / FRAMES;
        assertTrue(perWakeUpNs < MAX_CPU_PER_WAKE_UP_NS,
            "progress thread CPU per woken frame " + perWakeUpNs + " ns, expected < " + MAX_CPU_PER_WAKE_UP_NS);
    }
}
