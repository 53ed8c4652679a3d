package io.pinmx.rma.faults;

import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One rank of {@link KernelFaultSoakTest}'s two-rank job, each rank in its own network namespace:
 * {@code FaultSoakRank MESSAGES GO_FILE}.
 * <ol>
 * <li>joins the job, starts rma on its driver tier and its two-sided stream endpoint, prints {@code READY} and waits
 * for GO_FILE (the test damages the link between the two, then creates it);</li>
 * <li>sends MESSAGES messages to the other rank and checks the other's MESSAGES while running one-sided rounds to it
 * ({@link OneSidedTraffic}); then fences, checks what the other's rounds left in its slice, prints
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
    private static final Duration SOAK_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration VICTIM_LIFETIME = Duration.ofSeconds(120);
    private static final int KILL_PHASE_MESSAGE_BYTES = 100_000;

    private FaultSoakRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int messages = Integer.parseInt(args[0]);
        final Path go = Path.of(args[1]);
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
            final long deadline = started + SOAK_TIMEOUT.toNanos();
            while (!stream.done() && System.nanoTime() < deadline)
            {
                oneSided.round();
            }
            stream.finish(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            rma.allFence();
            rma.barrier();
            oneSided.checkTarget(job);
            stream.checkNothingLeft();
            say("COUNTERS rank=" + rma.rank() + " " + stream.counters() + " rmaRounds=" + oneSided.rounds() + " " +
                rma.protocolCounts());
            say("SOAK_PASSED rank=" + rma.rank() + " messages=" + messages + " rmaRounds=" + oneSided.rounds() + " ms=" +
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            rma.barrier();

            say("KILL_PHASE");
            if (1 == rma.rank())
            {
                keepSendingUntilKilled(oneSided, stream, arena);
            }
            else
            {
                keepGoingUntilThePeerFails(oneSided, stream, arena, JobEndpoint.peerTimeoutMs(env));
            }
        }
    }

    /** Rank 1: one-sided rounds and rendezvous messages to rank 0 until the test kills this process. */
    private static void keepSendingUntilKilled(final OneSidedTraffic oneSided, final MessageStream stream,
        final Arena arena)
    {
        final MemorySegment data = arena.allocate(KILL_PHASE_MESSAGE_BYTES);
        final long deadline = System.nanoTime() + VICTIM_LIFETIME.toNanos();
        long sent = 0;
        Request previous = null;
        while (System.nanoTime() < deadline)
        {
            oneSided.round();
            if (null != previous)
            {
                previous.awaitOrThrow(VICTIM_LIFETIME);
                previous.release();
            }
            Payloads.fill(data, sent);
            previous = stream.sendOne(sent++, data);
        }
        throw new AssertionError("rank 1 was not killed within " + VICTIM_LIFETIME);
    }

    /**
     * Rank 0: one-sided rounds to rank 1 and a receive posted for its messages, until an operation fails; the
     * failure must name rank 1, and so must the posted receive's.
     */
    private static void keepGoingUntilThePeerFails(final OneSidedTraffic oneSided, final MessageStream stream,
        final Arena arena, final long peerTimeoutMs) throws InterruptedException
    {
        final MemorySegment in = arena.allocate(KILL_PHASE_MESSAGE_BYTES);
        Request posted = stream.receiveOne(in);
        long lastDone = System.nanoTime();
        final long deadline = lastDone + VICTIM_LIFETIME.toNanos();
        RmaException failure = null;
        while (null == failure && System.nanoTime() < deadline)
        {
            try
            {
                oneSided.round();
                lastDone = System.nanoTime();
            }
            catch (final RmaException ex)
            {
                failure = ex;
            }
            if (null == failure && posted.test() && !posted.status().isError())
            {
                posted.release();
                posted = stream.receiveOne(in);
            }
        }
        if (null == failure)
        {
            throw new AssertionError("no operation on rank 1 failed within " + VICTIM_LIFETIME);
        }
        final long silentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastDone);
        // Messages rank 1 sent before it died may still come in; the receive posted after the last of them must fail.
        final long receiveDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2 * peerTimeoutMs);
        while (posted.await(Duration.ofNanos(Math.max(1, receiveDeadline - System.nanoTime()))) &&
            !posted.status().isError())
        {
            posted.release();
            posted = stream.receiveOne(in);
        }
        if (!posted.test())
        {
            throw new AssertionError("the receive posted for rank 1 neither completed nor failed within " +
                2 * peerTimeoutMs + " ms of its one-sided failure");
        }
        final Status s = posted.status();
        say("SURVIVOR_FAILED silentMs=" + silentMs + " rma=[" + failure.getMessage().replace('\n', ' ') +
            "] twoSided=[" + (s.isError() ? s.error().replace('\n', ' ') : "completed") + "]");
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
