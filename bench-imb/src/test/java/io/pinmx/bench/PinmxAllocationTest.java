package io.pinmx.bench;

import io.pinmx.job.Job;
import io.pinmx.job.RankBinding;

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
 * The pinmx transport's timed loops allocate nothing once warm, for every protocol PingPong's sizes reach (tiny,
 * medium in one and in several fragments, rendezvous), messages arriving before and after their receive is posted:
 * measured by the JVM's per-thread allocation counter in every pass ({@link PassAllocation}), two ranks in two
 * threads over the user-space driver's same-host path. A G1 pause takes milliseconds, so a steady allocation would
 * sooner or later land in a timed size.
 */
@Tag("allocation")
class PinmxAllocationTest
{
    private static final int REPETITIONS = 1_000;
    private static final int[] SIZES = {8, 256, 16384, 65536};

    @TempDir
    Path dir;

    @Test
    void pingPongAndPingPingLoopsAllocateNothingOnceWarm() throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try
        {
            @SuppressWarnings("unchecked") final Future<String[]>[] allocated = new Future[2];
            for (int r = 0; r < 2; r++)
            {
                final int rank = r;
                allocated[r] = pool.submit(() -> allocatedInLoops(rank));
            }
            for (int r = 0; r < 2; r++)
            {
                final String[] steady = allocated[r].get(300, TimeUnit.SECONDS);
                for (int s = 0; s < SIZES.length; s++)
                {
                    assertNull(steady[s], "rank " + r + ", " + SIZES[s] + " B messages, passes of " + REPETITIONS +
                        " repetitions of PingPong and PingPing: " + steady[s]);
                }
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private String[] allocatedInLoops(final int rank)
    {
        final Map<String, String> env = Map.of("PINMX_RANK", Integer.toString(rank), "PINMX_SIZE", "2",
            "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap"), RankBinding.BIND_VARIABLE, "none");
        try (Job job = Job.join(env);
            Transport transport = PinmxTransport.open(job, env);
            MessageBuffers buffers = new MessageBuffers(SIZES[SIZES.length - 1]))
        {
            final LoopAllocation allocation = new LoopAllocation(transport, job, buffers);
            final String[] steadyBySize = new String[SIZES.length];
            for (int s = 0; s < SIZES.length; s++)
            {
                steadyBySize[s] = allocation.steadyAllocation(SIZES[s], REPETITIONS);
            }
            return steadyBySize;
        }
    }
}
