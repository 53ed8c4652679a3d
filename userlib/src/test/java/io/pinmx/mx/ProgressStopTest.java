package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A progress round that throws stops its endpoint: every request pending then (sends, rendezvous sends, receives from
 * one partner or from any) fails at once naming the cause, instead of waiting out its deadline on a progress thread
 * that is gone; every later call throws with the cause attached; close still releases the driver endpoint.
 */
class ProgressStopTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Far under {@link #TIMEOUT}: a wait that ends on its deadline instead of on the stop fails the test. */
    private static final long PROMPT_NS = Duration.ofSeconds(10).toNanos();
    private static final int KEY = 0x5707;

    private final Arena arena = Arena.ofShared();
    private final AtomicBoolean failPolls = new AtomicBoolean();
    private final AtomicInteger driverCloses = new AtomicInteger();
    private final IllegalStateException bug = new IllegalStateException("a bug in a frame handler (thrown by the test)");
    private final InterceptingDriver driver = new InterceptingDriver(new UserDriver(), (method, args, call) ->
    {
        if ("poll".equals(method.getName()) && failPolls.get())
        {
            throw bug;
        }
        if ("close".equals(method.getName()))
        {
            driverCloses.incrementAndGet();
        }
        return call.proceed();
    });
    private Endpoint failing;
    private Endpoint peer;

    @AfterEach
    void close()
    {
        if (null != failing)
        {
            failing.close();
        }
        if (null != peer)
        {
            peer.close();
        }
        arena.close();
    }

    @Test
    void aDriverClosedUnderTheProgressThreadFailsEveryPendingRequestAtOnce()
    {
        open(ProgressMode.THREAD);
        final Partner partner = failing.connect(peer.address(), KEY, TIMEOUT);
        final Request anySource = failing.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, arena.allocate(64));
        final Request fromPeer = failing.irecv(partner.id(), 2, MatchInfo.MASK_ALL, arena.allocate(64));
        // the peer posts no receive for it: the rendezvous send waits for a pull that never comes
        final Request rendezvous = failing.isend(partner, 3, arena.allocate(1 << 20));

        driver.opened().getFirst().close();

        for (final Request r : new Request[] {anySource, fromPeer, rendezvous})
        {
            final long startNs = System.nanoTime();
            assertTrue(r.await(TIMEOUT), r + " done");
            assertTrue(System.nanoTime() - startNs < PROMPT_NS, r + " failed at once, not on its deadline");
            assertEquals(RequestState.FAILED, r.state());
            assertTrue(r.status().error().contains("stopped: a progress round failed: " + DriverException.class.getName()),
                r.status().error());
            assertTrue(r.status().error().contains("is closed"), r.status().error());
            final MxException thrown = assertThrows(MxException.class, () -> r.awaitOrThrow(TIMEOUT));
            assertEquals(r.status().error(), thrown.getMessage());
            r.release();
        }
        final MxException send = assertThrows(MxException.class, () -> failing.isend(partner, 4, arena.allocate(8)));
        assertTrue(send.getCause() instanceof DriverException, "cause " + send.getCause());
        assertTrue(send.getMessage().contains("stopped"), send.getMessage());
        assertThrows(MxException.class, () -> failing.iprobe(MatchInfo.ANY_SOURCE, 0, 0, new Status()));

        failing.close();
        failing = null;
        assertTrue(driverCloses.get() >= 1, "the driver endpoint was closed");
    }

    @Test
    void aRoundThatThrowsOnACallerThreadStopsTheEndpointAndCloseStillReleasesTheDriver()
    {
        open(ProgressMode.CALLER);
        final Partner partner = TestEndpoints.connectPolling(failing, peer, KEY, TIMEOUT);
        final Request anySource = failing.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, arena.allocate(64));
        final Request send = failing.isend(partner, 5, arena.allocate(1 << 20));

        failPolls.set(true);

        assertTrue(anySource.test(), "the round that threw ended the receive");
        assertEquals(RequestState.FAILED, anySource.state());
        assertTrue(anySource.status().error().contains(bug.toString()), anySource.status().error());
        assertTrue(send.await(TIMEOUT), "the send ended too");
        assertEquals(RequestState.FAILED, send.state());
        final MxException later = assertThrows(MxException.class,
            () -> failing.irecv(partner.id(), 6, MatchInfo.MASK_ALL, arena.allocate(8)));
        assertSame(bug, later.getCause());

        failing.close();
        failing = null;
        assertEquals(1, driverCloses.get(), "close closed the driver endpoint of the stopped endpoint");
    }

    @Test
    void closingAnEndpointFailsItsReceivesFromAnySource()
    {
        open(ProgressMode.THREAD);
        final Request anySource = failing.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, arena.allocate(64));
        failing.close();
        final Endpoint closed = failing;
        failing = null;
        assertEquals(RequestState.FAILED, anySource.state());
        assertTrue(anySource.status().error().contains("endpoint " + closed.address() + " closed"),
            anySource.status().error());
        assertEquals(1, driverCloses.get());
    }

    private void open(final ProgressMode mode)
    {
        failing = Endpoint.open(driver, TestEndpoints.options(1, KEY, UserDriverOptions.defaults())
            .progressMode(mode).build());
        peer = TestEndpoints.open(TestEndpoints.options(2, KEY, UserDriverOptions.defaults()).build());
    }
}
