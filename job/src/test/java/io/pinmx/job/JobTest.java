package io.pinmx.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobTest
{
    private static final long FUTURE_DEADLINE_S = 30;

    @TempDir
    Path dir;

    private Map<String, String> env(final int rank, final int size, final long timeoutMs)
    {
        return Map.of("PINMX_RANK", Integer.toString(rank), "PINMX_SIZE", Integer.toString(size),
            "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap"), "PINMX_BOOTSTRAP_TIMEOUT_MS", Long.toString(timeoutMs));
    }

    @Test
    void threeRanksAllGatherBarrierAndGather() throws Exception
    {
        final int size = 3;
        final ExecutorService pool = Executors.newFixedThreadPool(size);
        try
        {
            final List<Future<Object[]>> results = new ArrayList<>();
            for (int r = size - 1; r >= 0; r--)
            {
                final int rank = r;
                results.add(0, pool.submit(() ->
                {
                    try (Job job = Job.join(env(rank, size, 20_000)))
                    {
                        final List<byte[]> all = job.allGather(("rank" + rank).getBytes(StandardCharsets.US_ASCII));
                        job.barrier();
                        return new Object[] {all, job.gather(rank * 1.5)};
                    }
                }));
            }
            for (int r = 0; r < size; r++)
            {
                final Object[] got = results.get(r).get(FUTURE_DEADLINE_S, TimeUnit.SECONDS);
                @SuppressWarnings("unchecked") final List<byte[]> all = (List<byte[]>)got[0];
                assertEquals(size, all.size());
                for (int peer = 0; peer < size; peer++)
                {
                    assertEquals("rank" + peer, new String(all.get(peer), StandardCharsets.US_ASCII));
                }
                assertArrayEquals(0 == r ? new double[] {0, 1.5, 3.0} : new double[0], (double[])got[1]);
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    @Test
    void fourRanksBroadcastAndGatherBytesFromAnyRoot() throws Exception
    {
        final int size = 4;
        final ExecutorService pool = Executors.newFixedThreadPool(size);
        try
        {
            final List<Future<List<String>>> results = new ArrayList<>();
            for (int r = 0; r < size; r++)
            {
                final int rank = r;
                results.add(pool.submit(() ->
                {
                    try (Job job = Job.join(env(rank, size, 20_000)))
                    {
                        final List<String> seen = new ArrayList<>();
                        for (int root = 0; root < size; root++)
                        {
                            final byte[] mine = 0 == rank % 2 ? ("from" + rank).getBytes(StandardCharsets.US_ASCII) : null;
                            seen.add("bcast " + new String(job.broadcast(root, root == rank ? ("root" + root)
                                .getBytes(StandardCharsets.US_ASCII) : mine), StandardCharsets.US_ASCII));
                            final StringBuilder gathered = new StringBuilder("gather");
                            for (final byte[] b : job.gather(root, new byte[rank]))
                            {
                                gathered.append(' ').append(b.length);
                            }
                            seen.add(gathered.toString());
                        }
                        assertTrue(Files.notExists(dir.resolve("bootstrap")), "bootstrap file left after the rendezvous");
                        return seen;
                    }
                }));
            }
            for (int r = 0; r < size; r++)
            {
                final List<String> seen = results.get(r).get(FUTURE_DEADLINE_S, TimeUnit.SECONDS);
                for (int root = 0; root < size; root++)
                {
                    assertEquals("bcast root" + root, seen.get(2 * root), "rank " + r);
                    assertEquals(root == r ? "gather 0 1 2 3" : "gather", seen.get(2 * root + 1), "rank " + r);
                }
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    @Test
    void badRootsAndOversizedPayloadsAreNamedAndTheJobCarriesOn()
    {
        try (Job job = Job.join(Map.of("PINMX_RANK", "0", "PINMX_SIZE", "1")))
        {
            assertEquals("root 1 is not a rank of this job of 1",
                assertThrows(IllegalArgumentException.class, () -> job.broadcast(1, new byte[1])).getMessage());
            assertEquals("root -1 is not a rank of this job of 1",
                assertThrows(IllegalArgumentException.class, () -> job.gather(-1, new byte[1])).getMessage());
            final byte[] tooBig = new byte[Job.MAX_PAYLOAD_BYTES + 1];
            assertEquals("control payload of 16777217 bytes: at most 16777216 (the job's control plane is for small " +
                "messages)", assertThrows(IllegalArgumentException.class, () -> job.allGather(tooBig)).getMessage());
            assertArrayEquals(new byte[] {7}, job.broadcast(0, new byte[] {7}));
            assertEquals(1, job.gather(0, new byte[2]).size());
        }
    }

    @Test
    void aRankThatDiesIsNamedByTheRanksWaitingForIt() throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try
        {
            final Future<Job> rankOne = pool.submit(() -> Job.join(env(1, 2, 20_000)));
            try (Job rankZero = Job.join(env(0, 2, 20_000)))
            {
                rankOne.get(FUTURE_DEADLINE_S, TimeUnit.SECONDS).close();
                final IllegalStateException ex = assertThrows(IllegalStateException.class, rankZero::barrier);
                assertTrue(ex.getMessage().matches("job: rank 0 lost its control connection to rank 1 \\(host " +
                    "[0-9.]+, pid " + ProcessHandle.current().pid() + "; did it die\\?\\)"), ex.getMessage());
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    /**
     * A caller-driven endpoint's rank waits in its collectives running a progress hook, never blocked in a read: the
     * end of a dead rank's connection must still reach it, and rank 0 must pass it on to the ranks waiting on it.
     */
    @Test
    void ranksWaitingWithAProgressHookNameTheRankThatDied() throws Exception
    {
        final int size = 3;
        final ExecutorService pool = Executors.newFixedThreadPool(size);
        try
        {
            final Future<Job> rankOne = pool.submit(() -> Job.join(env(1, size, 20_000)));
            final Future<Job> rankTwo = pool.submit(() -> Job.join(env(2, size, 20_000)));
            try (Job rankZero = Job.join(env(0, size, 20_000)); Job survivor = rankTwo.get(FUTURE_DEADLINE_S, TimeUnit.SECONDS))
            {
                final AtomicInteger hookRuns = new AtomicInteger();
                rankZero.progressHook(hookRuns::incrementAndGet);
                survivor.progressHook(hookRuns::incrementAndGet);
                final Future<Throwable> rankTwoBarrier = pool.submit(() -> failureOf(survivor::barrier));
                rankOne.get(FUTURE_DEADLINE_S, TimeUnit.SECONDS).close();
                final long startNs = System.nanoTime();
                final Throwable atZero = assertTimeoutPreemptively(Duration.ofSeconds(FUTURE_DEADLINE_S),
                    () -> failureOf(rankZero::barrier));
                final long noticedMs = (System.nanoTime() - startNs) / 1_000_000;
                final String dead = "job: rank 0 lost its control connection to rank 1 \\(host [0-9.]+, pid " +
                    ProcessHandle.current().pid() + "; did it die\\?\\)";
                assertTrue(atZero.getMessage().matches(dead), atZero.getMessage());
                assertTrue(noticedMs < 10_000, "rank 0 noticed after " + noticedMs + " ms");
                final String atTwo = rankTwoBarrier.get(FUTURE_DEADLINE_S, TimeUnit.SECONDS).getMessage();
                assertTrue(atTwo.matches("job: rank 2: rank 0 gave the collective up: " + dead), atTwo);
                assertTrue(hookRuns.get() > 0, "the hook never ran");
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private static Throwable failureOf(final Runnable collective)
    {
        return assertThrows(IllegalStateException.class, collective::run);
    }

    @Test
    void rankZeroNamesTheRanksThatNeverCame()
    {
        final IllegalStateException ex = assertTimeoutPreemptively(Duration.ofSeconds(FUTURE_DEADLINE_S),
            () -> assertThrows(IllegalStateException.class, () -> Job.join(env(0, 3, 300))));
        assertTrue(ex.getMessage().contains("heard from 0 of 2 other ranks within 300 ms; missing ranks [1, 2]"),
            ex.getMessage());
        assertTrue(Files.notExists(dir.resolve("bootstrap")), "bootstrap file left after a failed rendezvous");
    }

    @Test
    void aRankWithoutRankZerosAddressGivesUpAtTheDeadline()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> Job.join(env(1, 2, 200)));
        assertTrue(ex.getMessage().startsWith("bootstrap: rank 1 found no address of rank 0 in file:"), ex.getMessage());
        assertTrue(ex.getMessage().contains("within 200 ms (PINMX_BOOTSTRAP_TIMEOUT_MS)"), ex.getMessage());
    }

    @Test
    void aRankThatCannotConnectGivesUpAtTheDeadline() throws Exception
    {
        final int closedPort;
        try (ServerSocket s = new ServerSocket(0))
        {
            closedPort = s.getLocalPort();
        }
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> Job.join(Map.of(
            "PINMX_RANK", "1", "PINMX_SIZE", "2", "PINMX_BOOTSTRAP", "127.0.0.1:" + closedPort,
            "PINMX_BOOTSTRAP_TIMEOUT_MS", "300")));
        assertEquals("bootstrap: rank 1 could not reach rank 0 at /127.0.0.1:" + closedPort +
            " within 300 ms (PINMX_BOOTSTRAP_TIMEOUT_MS)", ex.getMessage());
    }

    @Test
    void badBootstrapSettingsAreNamed()
    {
        assertEquals("PINMX_BOOTSTRAP=localhost is neither host:port nor file:PATH",
            assertThrows(IllegalArgumentException.class, () -> Job.join(Map.of(
                "PINMX_RANK", "1", "PINMX_SIZE", "2", "PINMX_BOOTSTRAP", "localhost"))).getMessage());
        assertEquals("PINMX_BOOTSTRAP=host:99999: port 99999 is not in 1..65535",
            assertThrows(IllegalArgumentException.class, () -> Job.join(Map.of(
                "PINMX_RANK", "1", "PINMX_SIZE", "2", "PINMX_BOOTSTRAP", "host:99999"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Job.join(Map.of(
            "PINMX_RANK", "1", "PINMX_SIZE", "2"))).getMessage().startsWith("PINMX_BOOTSTRAP is not set"));
        assertEquals("PINMX_BOOTSTRAP_TIMEOUT_MS=soon is not a positive number of milliseconds",
            assertThrows(IllegalArgumentException.class, () -> Job.join(Map.of(
                "PINMX_RANK", "1", "PINMX_SIZE", "2", "PINMX_BOOTSTRAP_TIMEOUT_MS", "soon"))).getMessage());
    }
}
