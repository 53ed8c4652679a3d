package io.pinmx.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The timed loops allocate nothing once warm: measured by the JVM's per-thread allocation counter around
 * PingPong's and PingPing's loops over TCP (two ranks in two threads).
 */
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
            @SuppressWarnings("unchecked") final Future<Long>[] allocated = new Future[2];
            for (int r = 0; r < 2; r++)
            {
                final int rank = r;
                allocated[r] = pool.submit(() -> allocatedInLoops(rank));
            }
            assertEquals(0L, allocated[0].get(120, TimeUnit.SECONDS));
            assertEquals(0L, allocated[1].get(120, TimeUnit.SECONDS));
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private long allocatedInLoops(final int rank)
    {
        try (Job job = Job.join(Map.of("PINMX_RANK", Integer.toString(rank), "PINMX_SIZE", "2",
            "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap")));
            Transport transport = TcpTransport.open(job, "127.0.0.1");
            MessageBuffers buffers = new MessageBuffers(65536))
        {
            final LoopAllocation allocation = new LoopAllocation(transport, job, buffers);
            long total = 0;
            for (final int bytes : new int[] {8, 65536})
            {
                total += allocation.quietestPass(bytes, REPETITIONS);
            }
            return total;
        }
    }
}
