package io.pinmx.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
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
    private static final int WARM_PASSES = 3;
    private static final int MEASURED_PASSES = 3;

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
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (Job job = Job.join(Map.of("PINMX_RANK", Integer.toString(rank), "PINMX_SIZE", "2",
            "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap")));
            Transport transport = TcpTransport.open(job, "127.0.0.1");
            MessageBuffers buffers = new MessageBuffers(65536))
        {
            final PingPong pingPong = new PingPong();
            final PingPing pingPing = new PingPing();
            long total = 0;
            for (final int bytes : new int[] {8, 65536})
            {
                for (int warm = 0; warm < WARM_PASSES; warm++)
                {
                    pingPong.loop(transport, job, buffers, bytes, REPETITIONS);
                    pingPing.loop(transport, job, buffers, bytes, REPETITIONS);
                }
                // A deoptimisation mid-pass can allocate a few bytes once; an allocation per message
                // would show in every pass, so the quietest of several passes is what counts. Both
                // ranks run every pass to stay in step.
                long quietest = Long.MAX_VALUE;
                for (int pass = 0; pass < MEASURED_PASSES; pass++)
                {
                    job.barrier();
                    final long before = threads.getCurrentThreadAllocatedBytes();
                    pingPong.loop(transport, job, buffers, bytes, REPETITIONS);
                    pingPing.loop(transport, job, buffers, bytes, REPETITIONS);
                    quietest = Math.min(quietest, threads.getCurrentThreadAllocatedBytes() - before);
                    job.barrier();
                }
                total += quietest;
            }
            return total;
        }
    }
}
