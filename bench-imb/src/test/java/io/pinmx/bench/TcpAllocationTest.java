package io.pinmx.bench;

import io.pinmx.job.Job;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The timed loops allocate nothing once warm: measured by the JVM's per-thread allocation counter around every
 * pass of PingPong's and PingPing's loops over TCP (two ranks in two threads; {@link PassAllocation}).
 */
@Tag("allocation")
class TcpAllocationTest
{
    private static final int REPETITIONS = 2_000;

    @TempDir
    Path dir;

    @Test
    void pingPongAndPingPingLoopsAllocateNothingOnceWarm() throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try
        {
            @SuppressWarnings("unchecked") final Future<String>[] allocated = new Future[2];
            for (int r = 0; r < 2; r++)
            {
                final int rank = r;
                allocated[r] = pool.submit(() -> allocatedInLoops(rank));
            }
            for (int r = 0; r < 2; r++)
            {
                final String steady = allocated[r].get(120, TimeUnit.SECONDS);
                assertNull(steady, "rank " + r + ": " + steady);
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private String allocatedInLoops(final int rank)
    {
        try (Job job = Job.join(Map.of("PINMX_RANK", Integer.toString(rank), "PINMX_SIZE", "2",
            "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap")));
            Transport transport = TcpTransport.open(job, "127.0.0.1");
            MessageBuffers buffers = new MessageBuffers(65536))
        {
            final LoopAllocation allocation = new LoopAllocation(transport, job, buffers);
            final StringBuilder steady = new StringBuilder();
            for (final int bytes : new int[] {8, 65536})
            {
                final String found = allocation.steadyAllocation(bytes, REPETITIONS);
                if (null != found)
                {
                    steady.append(bytes).append(" B messages: ").append(found).append("; ");
                }
            }
            return steady.isEmpty() ? null : steady.toString();
        }
    }
}
