package io.pinmx.bench;

import io.pinmx.job.Job;
import io.pinmx.job.JobRank;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A program for the launcher tests, started by bin/pinmx-run as each rank. Modes:
 * {@code join} joins the job and prints what the all-gather brought; {@code fail-rank-1} makes rank 1 exit
 * with status 3 while the others block; {@code block} prints "ready" and blocks until killed; {@code driver} prints
 * the PINMX_DRIVER the rank was given; {@code exit-together EPOCH_MS} makes every rank exit with status 1 at that
 * moment, as ranks that all time out at once do; {@code usage-slow-rank-0} has every rank refuse its arguments with
 * the usage status, rank 0, the one that says why, after the others, as a JVM that starts slower does;
 * {@code killed-between-messages} has every rank exchange one round of Sendrecv over pinmx (caller-driven, as
 * the benchmarks run), then rank 1 kill itself (SIGKILL) while the others wait for it in a barrier with nothing
 * pending on their endpoints: they print how the barrier ended on stderr and exit 1 if it failed.
 */
public final class LauncherFixture
{
    /** Longer than a JVM takes to start and exit, so that the other ranks' usage status is seen first. */
    private static final long SLOW_RANK_0_MS = 3_000;
    private static final int EXCHANGED_BYTES = 64;

    public static void main(final String[] args) throws InterruptedException
    {
        final JobRank rank = JobRank.fromEnvironment(System.getenv());
        switch (args[0])
        {
            case "join" ->
            {
                try (Job job = Job.join(System.getenv()))
                {
                    final List<byte[]> all = job.allGather(Integer.toString(job.rank()).getBytes(StandardCharsets.US_ASCII));
                    final StringBuilder seen = new StringBuilder();
                    for (final byte[] b : all)
                    {
                        seen.append(new String(b, StandardCharsets.US_ASCII)).append(' ');
                    }
                    System.out.println("rank " + job.rank() + " of " + job.size() + " saw " + seen.toString().trim());
                }
            }
            case "fail-rank-1" ->
            {
                if (1 == rank.rank())
                {
                    System.err.println("rank 1 failing on purpose");
                    System.exit(3);
                }
                new CountDownLatch(1).await();
            }
            case "block" ->
            {
                System.out.println("ready " + rank.rank());
                System.out.flush();
                new CountDownLatch(1).await();
            }
            case "exit-together" ->
            {
                final long at = Long.parseLong(args[1]);
                while (System.currentTimeMillis() < at)
                {
                    Thread.sleep(Math.max(1, at - System.currentTimeMillis()));
                }
                System.exit(1);
            }
            case "usage-slow-rank-0" ->
            {
                if (0 == rank.rank())
                {
                    Thread.sleep(SLOW_RANK_0_MS);
                    System.err.println("LauncherFixture: bad argument, said by rank 0");
                }
                System.exit(BenchmarkRun.EXIT_USAGE);
            }
            case "killed-between-messages" -> System.exit(killedBetweenMessages());
            case "driver" -> System.out.println("rank " + rank.rank() + " driver " + System.getenv("PINMX_DRIVER"));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    /** @return the survivor's exit status: 1 if its barrier failed (it says why on stderr), 0 if it passed. */
    private static int killedBetweenMessages() throws InterruptedException
    {
        try (Job job = Job.join(System.getenv());
            PinmxTransport transport = PinmxTransport.open(job, System.getenv());
            Arena arena = Arena.ofShared())
        {
            final MemorySegment send = arena.allocate(EXCHANGED_BYTES);
            final MemorySegment receive = arena.allocate(EXCHANGED_BYTES);
            transport.postSend((job.rank() + 1) % job.size(), send, EXCHANGED_BYTES);
            transport.postRecv((job.rank() + job.size() - 1) % job.size(), receive, EXCHANGED_BYTES);
            transport.awaitPosted();
            job.barrier();
            if (1 == job.rank())
            {
                System.out.println("rank 1 kills itself, pid " + ProcessHandle.current().pid());
                System.out.flush();
                new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                new CountDownLatch(1).await();
            }
            job.barrier();
            System.out.println("rank " + job.rank() + " passed a barrier rank 1 never reached");
            return 0;
        }
        catch (final IOException | RuntimeException ex)
        {
            System.err.println("LauncherFixture: " + ex.getMessage());
            return 1;
        }
    }
}
