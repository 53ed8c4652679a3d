package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an origin's fence waits for, per target: the first write since the last fence asks for an answer, which is the
 * fence only while that write is the last one sent; the answer arrives under the write's sequence; a refused send
 * gives up the answer it had posted, and a fence starts the count again.
 */
class WritesSinceFenceTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x41F3;
    private static final int TARGET = 2;

    private Endpoint origin;
    private Endpoint target;
    private Partner originToTarget;
    private Partner targetToOrigin;
    private WritesSinceFence writes;

    @BeforeEach
    void open()
    {
        origin = open(41);
        target = open(42);
        originToTarget = origin.connect(target.address(), KEY, TIMEOUT);
        targetToOrigin = target.connect(origin.address(), KEY, TIMEOUT);
        writes = new WritesSinceFence(origin, 3);
    }

    @AfterEach
    void close()
    {
        origin.close();
        target.close();
    }

    private static Endpoint open(final int index)
    {
        return Endpoint.open(new UserDriver(), EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder().boardIndex(0).endpointIndex(index).build())
            .applicationKey(KEY)
            .build());
    }

    @Test
    void theFirstWriteSinceAFenceAsksAndItsAnswerArrivesUnderItsSequence()
    {
        assertFalse(writes.any(TARGET));
        assertTrue(writes.sending(TARGET), "the first write since the fence");
        writes.expectAnswer(TARGET, originToTarget, 41);
        assertTrue(writes.any(TARGET));
        assertTrue(writes.answerIsLast(TARGET));
        assertFalse(writes.sending(TARGET), "a second write is not the first");
        assertFalse(writes.answerIsLast(TARGET), "a later write was sent: the answer is no longer the fence");
        assertFalse(writes.any(0), "other targets are not touched");

        final MemorySegment reply = Arena.ofAuto().allocate(Long.BYTES);
        reply.set(ValueLayout.JAVA_LONG, 0, 0);
        final Request send = target.isend(targetToOrigin, RmaTags.of(RmaTags.REPLY, 41), reply);
        final Request answer = writes.takeAnswer(TARGET);
        assertNotNull(answer);
        assertNull(writes.takeAnswer(TARGET), "taken once");
        assertTrue(answer.await(TIMEOUT), "the answer to sequence 41 arrived");
        assertEquals(RequestState.COMPLETED, answer.state());
        answer.release();
        assertTrue(send.await(TIMEOUT));
        send.release();

        writes.fenced(TARGET);
        assertFalse(writes.any(TARGET));
        assertTrue(writes.sending(TARGET), "after a fence the next write is the first again");
    }

    @Test
    void aRefusedSendGivesUpTheAnswerItPostedOnly()
    {
        writes.sending(TARGET);
        writes.expectAnswer(TARGET, originToTarget, 7);
        writes.refused(TARGET);
        assertFalse(writes.answerIsLast(TARGET));
        assertNull(writes.takeAnswer(TARGET), "nothing will answer a request that was not sent");

        writes.fenced(1);
        writes.sending(1);
        writes.expectAnswer(1, originToTarget, 8);
        writes.sending(1);
        writes.refused(1);
        final Request earlier = writes.takeAnswer(1);
        assertNotNull(earlier, "the refused write did not ask: the earlier write's answer still comes");
        assertTrue(earlier.cancel(), "nothing answered it yet");
        earlier.release();
    }
}
