package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.PeerLiveness;
import io.pinmx.pin.wire.FrameKind;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DriverEndpoint#checkLiveness} of the user driver: exact on this host from the endpoint file, and answered
 * by probes that the remote endpoint's agent answers without its application ever polling, also while its event
 * queue is full.
 */
class LivenessTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int OWN_PID = (int)ProcessHandle.current().pid();

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();
    private final PeerLiveness liveness = new PeerLiveness();

    @AfterEach
    void closeAll()
    {
        resources.close();
        arena.close();
    }

    @Test
    void aPeerThatNeverPollsAnswersProbesThroughItsResponder()
    {
        final DriverEndpoint a = resources.open(quiet(false));
        final DriverEndpoint b = resources.open(quiet(false));
        final int peer = a.acquirePeer(b.address().board());
        assertEquals(PeerLiveness.State.UNKNOWN, check(a, peer, b).state(), "before any answer: " + liveness);
        awaitAlive(a, peer, b);
        assertEquals(OWN_PID, liveness.pid(), "the answer carries the peer's process id");
        assertTrue(b.counters().get(Counter.LIVENESS_PROBES_ANSWERED) > 0);
        assertTrue(a.counters().get(Counter.LIVENESS_PROBES_SENT) > 0);
    }

    /**
     * The peer has a shared-memory ring, so its agent polls a quiet UDP socket only every few cycles; its responder
     * still answers a probe within a few of its 25 ms rounds (every 64 cycles would be over 1.6 s). The prober looks
     * for endpoint files in another directory, so it knows the peer only by probes.
     */
    @Test
    void aPeerWithARingAnswersProbesPromptlyThoughItsSocketIsQuiet(@TempDir final Path elsewhere)
        throws InterruptedException
    {
        final DriverEndpoint a = resources.open(quiet(true).withShmDirectory(elsewhere));
        final DriverEndpoint b = resources.open(quiet(true));
        final int peer = a.acquirePeer(b.address().board());
        // the scenario: nothing reaches b's socket for a while, so its agent treats UDP as cold
        Thread.sleep(4 * EndpointAgent.RESPONDER_IDLE_NS / 1_000_000);
        final long startNs = System.nanoTime();
        awaitAlive(a, peer, b);
        final long tookMs = (System.nanoTime() - startNs) / 1_000_000;
        assertTrue(tookMs < 1500, "the first answer took " + tookMs + " ms");
        assertEquals(OWN_PID, liveness.pid());
    }

    @Test
    void probesAreAnsweredWhileTheEventQueueIsFull()
    {
        final DriverEndpoint a = resources.open(quiet(false));
        final DriverEndpoint b = resources.open(quiet(false).withRingBytes(1 << 20, 256 * 1024));
        final int peer = a.acquirePeer(b.address().board());
        final MemorySegment header = arena.allocate(128);
        final MemorySegment payload = arena.allocate(TestFrames.payloadBytes(FrameKind.MEDIUM_FRAG));
        TestFrames.encodeHeader(header, FrameKind.MEDIUM_FRAG, b.address().endpointIndex(),
            a.address().endpointIndex(), b.address().sessionId(), a.address().sessionId(), 1);
        final MemorySegment frameHeader = header.asSlice(0, FrameKind.MEDIUM_FRAG.headerBytes());
        Awaitility.await("the peer drops frames for want of event room").atMost(TIMEOUT).until(() ->
        {
            for (int k = 0; k < 16; k++)
            {
                a.send(peer, frameHeader, payload);
            }
            return b.counters().get(Counter.DROPPED_EVENT_QUEUE_FULL) > 0;
        });
        final long answeredBefore = b.counters().get(Counter.LIVENESS_PROBES_ANSWERED);
        Awaitility.await("a probe answered with a full event queue").atMost(TIMEOUT).until(() ->
        {
            a.send(peer, frameHeader, payload);
            check(a, peer, b);
            return b.counters().get(Counter.LIVENESS_PROBES_ANSWERED) > answeredBefore &&
                liveness.state() == PeerLiveness.State.ALIVE;
        });
    }

    @Test
    void onThisHostTheEndpointFileTellsAtOnceAndItsRemovalMeansGone()
    {
        final DriverEndpoint a = resources.open(quiet(true));
        final DriverEndpoint b = new UserDriver("test").open(io.pinmx.pin.spi.EndpointConfig.builder()
            .endpointIndex(0).options(UserDriverOptions.class, quiet(true)).build());
        final int peer = a.acquirePeer(b.address().board());
        try
        {
            assertEquals(PeerLiveness.State.ALIVE, check(a, peer, b).state(), liveness.toString());
            assertEquals(OWN_PID, liveness.pid());
            assertEquals(PeerLiveness.State.GONE,
                a.checkLiveness(peer, b.address().endpointIndex(), b.address().sessionId() + 1, liveness).state(),
                "another session at the port: " + liveness);
        }
        finally
        {
            b.close();
        }
        assertEquals(PeerLiveness.State.GONE, check(a, peer, b).state(), liveness.toString());
        assertEquals("it closed its endpoint", liveness.reason());
    }

    /** No progress thread, no counters file: nothing runs the agent but the responder. */
    private static UserDriverOptions quiet(final boolean sameHost)
    {
        return UserDriverOptions.defaults().withSameHost(sameHost).withProgressThread(false).withCountersFile(null);
    }

    private PeerLiveness check(final DriverEndpoint from, final int peer, final DriverEndpoint to)
    {
        return from.checkLiveness(peer, to.address().endpointIndex(), to.address().sessionId(), liveness);
    }

    private void awaitAlive(final DriverEndpoint from, final int peer, final DriverEndpoint to)
    {
        Awaitility.await("an answer from a peer that never polls").atMost(TIMEOUT)
            .until(() -> check(from, peer, to).state() == PeerLiveness.State.ALIVE);
    }
}
