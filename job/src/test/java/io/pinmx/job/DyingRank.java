package io.pinmx.job;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A job in which rank 1 kills itself (SIGKILL) once connected while the others wait: with argument {@code receive}
 * (the default) rank 0 waits to receive from it and the other ranks wait in a barrier; with {@code barrier} or
 * {@code broadcast} every survivor waits in that collective (a broadcast from rank 1: a fence, then a get of its
 * value). Each survivor prints "survivor R after T ms ..." with how its wait ended. Run under a PMIx launcher with a
 * peer timeout far longer than the test's patience, so that only news of the death can end the waits in time.
 */
public final class DyingRank
{
    private static final Duration WAIT = Duration.ofSeconds(120);

    private DyingRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String wait = 0 == args.length ? "receive" : args[0];
        try (Job job = Job.join(System.getenv());
            JobEndpoint ranks = JobEndpoint.open(job, System.getenv());
            Arena arena = Arena.ofShared())
        {
            if (1 == job.rank())
            {
                System.out.println("rank 1 kills itself, pid " + ProcessHandle.current().pid());
                System.out.flush();
                new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start()
                    .waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
                return;
            }
            final long startNs = System.nanoTime();
            String outcome;
            try
            {
                if ("broadcast".equals(wait))
                {
                    job.broadcast(1, new byte[0]);
                }
                else if ("receive".equals(wait) && 0 == job.rank())
                {
                    final Endpoint endpoint = ranks.endpoint();
                    final MemorySegment buffer = arena.allocate(8);
                    final Request never = endpoint.irecv(ranks.partner(1).id(), 7, -1L, buffer);
                    never.awaitOrThrow(WAIT);
                }
                else
                {
                    job.barrier();
                }
                outcome = "not failed";
            }
            catch (final RuntimeException ex)
            {
                outcome = "failed: " + ex.getMessage();
            }
            System.out.println("survivor " + job.rank() + " after " +
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) + " ms " + outcome);
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
    }
}
