package io.pinmx.rma.faults;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaException;

import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One rank of {@link KernelFaultSoakTest}'s two-rank job, each rank in its own network namespace:
 * {@code FaultSoakRank MESSAGES GO_FILE SOAK_SECONDS}.
 * <ol>
 * <li>joins the job, starts rma on its driver tier and its two-sided stream endpoint, prints {@code READY} and waits
 * for GO_FILE (the test damages the link between the two, then creates it);</li>
 * <li>sends MESSAGES messages to the other rank and checks the other's MESSAGES while running one-sided rounds to it
 * ({@link OneSidedTraffic}), within SOAK_SECONDS; then fences, checks what the other's rounds left in its slice, prints
 * {@code COUNTERS ...} and {@code SOAK_PASSED ...};</li>
 * <li>prints {@code KILL_PHASE} and keeps both kinds of traffic going: rank 1 until the test kills it, rank 0 until
 * an operation on rank 1 fails; rank 0 then prints {@code SURVIVOR_FAILED}, how long after its last completed
 * operation, and the errors of its one-sided and two-sided operations, and exits 0.</li>
 * </ol>
 * Any check that fails ends the rank with a non-zero status and the reason on stderr.
 */
public final class FaultSoakRank
{
    private static final Duration GO_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration VICTIM_LIFETIME = Duration.ofSeconds(120);
    private static final Duration STEP_WAIT = Duration.ofMillis(10);
    private static final int MESSAGES_PER_ROUND = 10;

    private FaultSoakRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int messages = Integer.parseInt(args[0]);
        final Path go = Path.of(args[1]);
        final Duration soakTimeout = Duration.ofSeconds(Long.parseLong(args[2]));
        final Map<String, String> env = System.getenv();
        try (Job job = Job.join(env); Rma rma = Rma.init(job); Arena arena = Arena.ofShared();
            MessageStream stream = MessageStream.open(job, env))
        {
            final OneSidedTraffic oneSided = new OneSidedTraffic(rma, arena);
            rma.barrier();
            say("READY " + rma.rank());
            awaitFile(go);

            final long started = System.nanoTime();
            stream.start(messages);
            final long deadline = started + soakTimeout.toNanos();
            // One one-sided round per MESSAGES_PER_ROUND messages received: both kinds of traffic all along, and
            // the two CPUs of the host shared between them rather than taken by whichever spins more.
            while (!stream.done() && System.nanoTime() < deadline)
            {
                oneSided.round();
                stream.awaitReceived((int)Math.min(messages, oneSided.rounds() * MESSAGES_PER_ROUND),
                    Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            }
            stream.finish(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            rma.allFence();
            rma.barrier();
            oneSided.checkTarget(job);
            stream.checkNothingLeft();
            say("COUNTERS rank=" + rma.rank() + " " + stream.counters() + " rmaRounds=" + oneSided.rounds() + " " +
                rma.protocols().counts());
            say("SOAK_PASSED rank=" + rma.rank() + " messages=" + messages + " rmaRounds=" + oneSided.rounds() + " ms=" +
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            rma.barrier();

            say("KILL_PHASE");
            final Exchange exchange = new Exchange(stream, arena);
            if (1 == rma.rank())
            {
                keepSendingUntilKilled(oneSided, exchange);
            }
            else
            {
                keepGoingUntilThePeerFails(oneSided, exchange);
            }
        }
    }

    /** Rank 1: one-sided rounds and two-sided messages both ways until the test kills this process. */
    private static void keepSendingUntilKilled(final OneSidedTraffic oneSided, final Exchange exchange)
    {
        final long deadline = System.nanoTime() + VICTIM_LIFETIME.toNanos();
        while (System.nanoTime() < deadline)
        {
            oneSided.round();
            final String failure = exchange.step(Duration.ZERO);
            if (null != failure)
            {
                throw new AssertionError("rank 1's two-sided traffic failed before it was killed: " + failure);
            }
        }
        throw new AssertionError("rank 1 was not killed within " + VICTIM_LIFETIME);
    }

    /**
     * Rank 0: one-sided rounds and two-sided messages both ways, until both kinds failed on rank 1, each failure
     * timed from the last operation of its kind that completed.
     */
    private static void keepGoingUntilThePeerFails(final OneSidedTraffic oneSided, final Exchange exchange)
    {
        final long deadline = System.nanoTime() + VICTIM_LIFETIME.toNanos();
        long oneSidedDone = System.nanoTime();
        long twoSidedDone = oneSidedDone;
        long oneSidedSilentMs = 0;
        long twoSidedSilentMs = 0;
        RmaException oneSidedFailure = null;
        String twoSidedFailure = null;
        while ((null == oneSidedFailure || null == twoSidedFailure) && System.nanoTime() < deadline)
        {
            if (null == oneSidedFailure)
            {
                try
                {
                    oneSided.round();
                    oneSidedDone = System.nanoTime();
                }
                catch (final RmaException ex)
                {
                    oneSidedFailure = ex;
                    oneSidedSilentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - oneSidedDone);
                }
            }
            if (null == twoSidedFailure)
            {
                twoSidedFailure = exchange.step(null == oneSidedFailure ? Duration.ZERO : STEP_WAIT);
                if (null == twoSidedFailure)
                {
                    twoSidedDone = System.nanoTime();
                }
                else
                {
                    twoSidedSilentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - twoSidedDone);
                }
            }
        }
        if (null == oneSidedFailure || null == twoSidedFailure)
        {
            throw new AssertionError("within " + VICTIM_LIFETIME + " of the kill phase, one-sided operations on rank 1 " +
                (null == oneSidedFailure ? "never failed" : "failed") + ", two-sided ones " +
                (null == twoSidedFailure ? "never failed" : "failed"));
        }
        say("SURVIVOR_FAILED silentMs=" + Math.max(oneSidedSilentMs, twoSidedSilentMs) + " rma=[" +
            oneSidedFailure.getMessage().replace('\n', ' ') + "] twoSided=[" + twoSidedFailure + "]");
        System.exit(0);
    }

    private static void awaitFile(final Path file) throws InterruptedException
    {
        final long deadline = System.nanoTime() + GO_TIMEOUT.toNanos();
        while (!Files.exists(file))
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no " + file + " within " + GO_TIMEOUT);
            }
            Thread.sleep(20);
        }
    }

    private static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }
}
