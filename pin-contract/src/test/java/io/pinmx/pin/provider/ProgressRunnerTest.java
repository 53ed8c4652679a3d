package io.pinmx.pin.provider;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The threading modes seen from the agents: which threads run their duty cycles, in what order when composed, and
 * what close and a failing duty cycle do.
 */
class ProgressRunnerTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** Records the threads that ran its duty cycles; throws once when told to. */
    private static final class RecordingAgent implements Agent
    {
        final String role;
        final List<String> order;
        final ConcurrentHashMap.KeySetView<Thread, Boolean> threads = ConcurrentHashMap.newKeySet();
        final AtomicInteger cycles = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        volatile RuntimeException throwNext;

        RecordingAgent(final String role, final List<String> order)
        {
            this.role = role;
            this.order = order;
        }

        @Override
        public int doWork()
        {
            threads.add(Thread.currentThread());
            cycles.incrementAndGet();
            if (order.size() < 6)
            {
                order.add(role);
            }
            final RuntimeException ex = throwNext;
            if (null != ex)
            {
                throwNext = null;
                throw ex;
            }
            return 0;
        }

        @Override
        public void onClose()
        {
            closes.incrementAndGet();
        }

        @Override
        public String roleName()
        {
            return role;
        }
    }

    @Test
    void dedicatedRunsTheAgentsOnADaemonThreadNamedAfterTheirRoleAndStopsItOnClose()
    {
        final List<String> order = new CopyOnWriteArrayList<>();
        final RecordingAgent driver = new RecordingAgent("driver", order);
        final RecordingAgent round = new RecordingAgent("round", order);
        final ProgressRunner progress = ProgressRunner.start(ThreadingMode.DEDICATED, new NoOpIdleStrategy(),
            Throwable::printStackTrace, driver, round);
        await().atMost(TIMEOUT).until(() -> order.size() == 6 && null != progress.thread());
        final Thread thread = progress.thread();
        assertEquals(ThreadingMode.DEDICATED, progress.mode());
        assertEquals("[driver,round]", thread.getName());
        assertTrue(thread.isDaemon());
        assertEquals(List.of("driver", "round", "driver", "round", "driver", "round"), order);
        assertEquals(0, progress.invoke(), "callers never run a dedicated thread's agents");
        assertEquals(java.util.Set.of(thread), driver.threads);

        progress.close();
        assertTrue(!thread.isAlive(), "the thread ended");
        assertEquals(1, driver.closes.get());
        assertEquals(1, round.closes.get());
        final int cycles = driver.cycles.get();
        assertEquals(0, progress.invoke());
        assertEquals(cycles, driver.cycles.get());
    }

    @Test
    void invokerRunsADutyCycleOnlyOnTheCallersThreadAndNoneOnceClosed()
    {
        final List<String> order = new CopyOnWriteArrayList<>();
        final RecordingAgent round = new RecordingAgent("round", order);
        final ProgressRunner progress = ProgressRunner.start(ThreadingMode.INVOKER, null,
            Throwable::printStackTrace, round);
        assertNull(progress.thread());
        assertEquals(0, round.cycles.get(), "nothing runs until a caller invokes");
        progress.invoke();
        progress.invoke();
        assertEquals(2, round.cycles.get());
        assertEquals(java.util.Set.of(Thread.currentThread()), round.threads);

        progress.close();
        assertEquals(1, round.closes.get());
        progress.invoke();
        assertEquals(2, round.cycles.get());
    }

    @Test
    void aDutyCycleThatThrowsReachesTheErrorHandlerAndATerminationEndsTheThread()
    {
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final RecordingAgent round = new RecordingAgent("round", new CopyOnWriteArrayList<>());
        final IllegalStateException broken = new IllegalStateException("driver gone");
        round.throwNext = broken;
        final ProgressRunner progress = ProgressRunner.start(ThreadingMode.DEDICATED, new NoOpIdleStrategy(),
            errors::add, round);
        await().atMost(TIMEOUT).until(() -> !errors.isEmpty() && round.cycles.get() > 1);
        assertEquals(broken, errors.getFirst(), "the thread goes on after an error");

        round.throwNext = new AgentTerminationException("stopped");
        await().atMost(TIMEOUT).until(() -> null != progress.thread() && !progress.thread().isAlive());
        assertEquals(1, round.closes.get());
        progress.close();
        assertEquals(1, round.closes.get());
    }

    @Test
    void missingArgumentsAreNamed()
    {
        final RecordingAgent agent = new RecordingAgent("a", new CopyOnWriteArrayList<>());
        final IllegalArgumentException noIdle = assertThrows(IllegalArgumentException.class,
            () -> ProgressRunner.start(ThreadingMode.DEDICATED, null, Throwable::printStackTrace, agent));
        assertTrue(noIdle.getMessage().startsWith("mode DEDICATED, idleStrategy null"), noIdle.getMessage());
        final IllegalArgumentException noAgents = assertThrows(IllegalArgumentException.class,
            () -> ProgressRunner.start(ThreadingMode.INVOKER, null, Throwable::printStackTrace));
        assertEquals("agents: expected at least one", noAgents.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> ProgressRunner.start(null, new NoOpIdleStrategy(), Throwable::printStackTrace, agent));
        assertEquals(0, agent.cycles.get());
    }
}
