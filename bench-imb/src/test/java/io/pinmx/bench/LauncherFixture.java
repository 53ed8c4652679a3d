package io.pinmx.bench;

import io.pinmx.job.Job;
import io.pinmx.job.JobRank;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A program for the launcher tests, started by bin/pinmx-run as each rank. Modes:
 * {@code join} joins the job and prints what the all-gather brought; {@code fail-rank-1} makes rank 1 exit
 * with status 3 while the others block; {@code block} prints "ready" and blocks until killed; {@code driver} prints
 * the PINMX_DRIVER the rank was given.
 */
public final class LauncherFixture
{
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
            case "driver" -> System.out.println("rank " + rank.rank() + " driver " + System.getenv("PINMX_DRIVER"));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }
}
