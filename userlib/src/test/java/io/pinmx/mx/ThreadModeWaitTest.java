package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In THREAD mode ({@code ThreadingMode.DEDICATED}) only the endpoint's agent thread polls: a wait stays on its core
 * for its first {@code callerPollNs} watching its request, then parks on it, and the agent thread receives the
 * message and completes (and unparks) the request. In CALLER mode ({@code ThreadingMode.INVOKER}) there is no agent
 * thread and the waiting thread receives its message itself.
 */
class ThreadModeWaitTest
{
    private static final int KEY = 0x7A17;
    private static final int TAG = 5;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void aSpinningWaitLeavesThePollingToTheAgentThread() throws InterruptedException
    {
        final PollRecordingDriver recording = new PollRecordingDriver();
        try (Arena arena = Arena.ofShared();
             Endpoint receiver = Endpoint.open(recording.driver(), options(6).callerPollNs(TIMEOUT.toNanos()).build());
             Endpoint sender = TestEndpoints.open(options(7).build()))
        {
            final Partner toReceiver = sender.connect(receiver.address(), KEY, TIMEOUT);
            final Thread progress = progressThread(recording);
            final MemorySegment into = arena.allocate(8);
            final Request receive = receiver.irecv(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, into);
            final AtomicBoolean received = new AtomicBoolean();
            final Thread waiter = Thread.ofPlatform().name("waiter").start(() -> received.set(receive.await(TIMEOUT)));
            await().atMost(TIMEOUT).until(() -> Thread.State.RUNNABLE == waiter.getState());
            final long progressPolls = recording.polls(progress);
            await("the agent thread goes on polling while the wait spins").atMost(TIMEOUT)
                .until(() -> recording.polls(progress) > progressPolls + 100);

            final long progressDelivered = recording.delivered(progress);
            send(sender, toReceiver, arena, 42);
            waiter.join(TIMEOUT.toMillis());
            assertTrue(received.get(), "the receive completed");
            assertEquals(42, into.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(0, recording.polls(waiter), "the wait never polled");
            await("the agent thread received it").atMost(TIMEOUT)
                .until(() -> recording.delivered(progress) > progressDelivered);
            receive.release();
        }
    }

    @Test
    void aCallerModeWaitReceivesItsMessageItselfWithNoAgentThread() throws InterruptedException
    {
        final PollRecordingDriver recording = new PollRecordingDriver();
        try (Arena arena = Arena.ofShared();
             Endpoint receiver = Endpoint.open(recording.driver(),
                 options(13).progressMode(ProgressMode.CALLER).build());
             Endpoint sender = TestEndpoints.open(options(14).build()))
        {
            final MemorySegment into = arena.allocate(8);
            final Request receive = receiver.irecv(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, into);
            final AtomicBoolean received = new AtomicBoolean();
            // the wait's rounds answer the connect too: nothing else polls the receiver
            final Thread waiter = Thread.ofPlatform().name("caller-waiter").start(() ->
                received.set(receive.await(TIMEOUT)));
            final Partner toReceiver = sender.connect(receiver.address(), KEY, TIMEOUT);
            send(sender, toReceiver, arena, 45);
            waiter.join(TIMEOUT.toMillis());
            assertTrue(received.get(), "the receive completed");
            assertEquals(45, into.get(ValueLayout.JAVA_LONG, 0));
            assertTrue(recording.delivered(waiter) > 0, "the waiting thread received the message");
            assertNull(recording.pollingThread("pinmx-progress-"), "no agent thread polled");
            receive.release();
        }
    }

    @Test
    void aWaitThatDoesNotPollIsWokenByTheProgressThread() throws InterruptedException
    {
        final PollRecordingDriver recording = new PollRecordingDriver();
        try (Arena arena = Arena.ofShared();
             Endpoint receiver = Endpoint.open(recording.driver(), options(8).callerPollNs(0).build());
             Endpoint sender = TestEndpoints.open(options(9).build()))
        {
            final Partner toReceiver = sender.connect(receiver.address(), KEY, TIMEOUT);
            final Thread progress = progressThread(recording);
            final MemorySegment into = arena.allocate(8);
            final Request receive = receiver.irecv(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, into);
            final AtomicBoolean received = new AtomicBoolean();
            final Thread waiter = Thread.ofPlatform().name("parked-waiter").start(() ->
                received.set(receive.await(TIMEOUT)));
            await().atMost(TIMEOUT).until(() -> Thread.State.TIMED_WAITING == waiter.getState());

            final long progressDelivered = recording.delivered(progress);
            send(sender, toReceiver, arena, 43);
            waiter.join(TIMEOUT.toMillis());
            assertTrue(received.get(), "the receive completed");
            assertEquals(43, into.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(0, recording.polls(waiter), "the wait never polled");
            // the recording counts a poll's events once the poll returns, which may be after the waiter woke
            await("the progress thread received it").atMost(TIMEOUT)
                .until(() -> recording.delivered(progress) > progressDelivered);
            receive.release();
        }
    }

    @Test
    void waitsWithTheLongestTimeoutWaitForTheirMessageInsteadOfEndingAtOnce() throws InterruptedException
    {
        final Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        try (Arena arena = Arena.ofShared();
             Endpoint receiver = TestEndpoints.open(options(11).build());
             Endpoint sender = TestEndpoints.open(options(12).build()))
        {
            final Partner toReceiver = sender.connect(receiver.address(), KEY, TIMEOUT);
            final MemorySegment into = arena.allocate(8);
            final Request receive = receiver.irecv(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, into);
            final Status probed = new Status();
            final int[] anyDone = {-2};
            final AtomicBoolean probeFound = new AtomicBoolean();
            final AtomicBoolean received = new AtomicBoolean();
            final Thread prober = Thread.ofPlatform().name("prober").start(() ->
                probeFound.set(receiver.probe(MatchInfo.ANY_SOURCE, TAG + 1, MatchInfo.MASK_ALL, probed, longest)));
            final Thread anyWaiter = Thread.ofPlatform().name("any-waiter").start(() ->
                anyDone[0] = receiver.waitAny(new Request[] {receive}, 1, longest));
            final Thread waiter = Thread.ofPlatform().name("waiter").start(() ->
                received.set(receive.await(longest)));
            await().atMost(TIMEOUT).until(() -> Thread.State.TIMED_WAITING == waiter.getState() &&
                Thread.State.TIMED_WAITING == anyWaiter.getState());
            assertTrue(prober.isAlive() && anyWaiter.isAlive() && waiter.isAlive(), "no wait ended at once");

            send(sender, toReceiver, arena, 44);
            waiter.join(TIMEOUT.toMillis());
            anyWaiter.join(TIMEOUT.toMillis());
            assertTrue(received.get(), "the receive completed");
            assertEquals(0, anyDone[0]);
            assertEquals(44, into.get(ValueLayout.JAVA_LONG, 0));
            receive.release();

            final MemorySegment word = arena.allocate(8);
            final Request probedSend = sender.isend(toReceiver, TAG + 1, word);
            prober.join(TIMEOUT.toMillis());
            assertTrue(probeFound.get(), "the probe found its message");
            probedSend.awaitOrThrow(TIMEOUT);
            probedSend.release();
            final Request drain = receiver.irecv(MatchInfo.ANY_SOURCE, TAG + 1, MatchInfo.MASK_ALL, word);
            drain.awaitOrThrow(TIMEOUT);
            drain.release();
        }
    }

    @Test
    void aNegativePollTimeOfOneWaitIsNamed()
    {
        try (Arena arena = Arena.ofShared(); Endpoint endpoint = TestEndpoints.open(options(10).build()))
        {
            final Request receive = endpoint.irecv(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, arena.allocate(8));
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> receive.await(TIMEOUT, Duration.ofNanos(-1)));
            assertEquals("pollFor = PT-0.000000001S: must be >= 0", ex.getMessage());
            assertTrue(receive.cancel());
            receive.release();
        }
    }

    private static EndpointOptions.Builder options(final int endpointIndex)
    {
        return TestEndpoints.options(endpointIndex, KEY, UserDriverOptions.defaults().withProgressThread(false));
    }

    private static Thread progressThread(final PollRecordingDriver recording)
    {
        await().atMost(TIMEOUT).until(() -> null != recording.pollingThread("pinmx-progress-"));
        return recording.pollingThread("pinmx-progress-");
    }

    private static void send(final Endpoint sender, final Partner to, final Arena arena, final long value)
    {
        final MemorySegment word = arena.allocate(8);
        word.set(ValueLayout.JAVA_LONG, 0, value);
        final Request send = sender.isend(to, TAG, word);
        send.awaitOrThrow(TIMEOUT);
        send.release();
    }
}
