package io.pinmx.job.example;

import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.job.ProgramArguments;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/**
 * The job module's example: N ranks, each sends its rank to the next and receives the previous one's.
 * Run it with {@code bin/pinmx-run -np 4 io.pinmx.job.example.RankRing}.
 */
public final class RankRing
{
    private static final long MATCH_INFO = 42;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String USAGE = """
        usage: bin/pinmx-run -np N io.pinmx.job.example.RankRing   (N >= 2)
          Each rank sends its rank number to the next and prints what the previous one sent.
          Reads the job's PINMX_* variables (bin/pinmx-run --help, docs/environment.md).
          exit status: 0 done, 1 a rank failed, 2 fewer than 2 ranks
        """;

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        try (Job job = Job.join(System.getenv());
            JobEndpoint ranks = JobEndpoint.open(job, System.getenv());
            Arena arena = Arena.ofShared())
        {
            if (job.size() < 2)
            {
                System.err.println("RankRing: needs at least 2 ranks (bin/pinmx-run -np 2 " + RankRing.class.getName() + ")");
                System.exit(2);
            }
            final int next = (job.rank() + 1) % job.size();
            final int previous = (job.rank() + job.size() - 1) % job.size();
            final MemorySegment mine = arena.allocate(ValueLayout.JAVA_INT);
            final MemorySegment theirs = arena.allocate(ValueLayout.JAVA_INT);
            mine.set(ValueLayout.JAVA_INT, 0, job.rank());

            final Endpoint endpoint = ranks.endpoint();
            final Request received = endpoint.irecv(ranks.partner(previous).id(), MATCH_INFO, -1L, theirs);
            endpoint.send(ranks.partner(next), MATCH_INFO, mine, TIMEOUT);
            received.awaitOrThrow(TIMEOUT);
            received.release();
            System.out.println("rank " + job.rank() + " of " + job.size() + " got " +
                theirs.get(ValueLayout.JAVA_INT, 0) + " from rank " + previous);

            // Nobody closes its endpoint while a neighbour may still wait for an ack from it.
            job.barrier();
        }
    }
}
