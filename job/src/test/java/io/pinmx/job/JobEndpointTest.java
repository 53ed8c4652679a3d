package io.pinmx.job;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.MxException;
import io.pinmx.pin.provider.SmallTmpfs;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ranks as threads of one JVM over the user-space driver: each opens its endpoint, gets every other rank as a
 * connected partner, and messages flow between them, with progress by a thread or by the caller (then the job's
 * control plane drives the endpoint while it waits); an endpoint opened unconnected is reached by its address alone.
 */
class JobEndpointTest
{
    private static final long FUTURE_DEADLINE_S = 60;
    private static final Duration MESSAGE_TIMEOUT = Duration.ofSeconds(30);
    private static final int RANKS = 3;

    @TempDir
    Path dir;

    private Map<String, String> env(final int rank, final int size)
    {
        final Map<String, String> env = new HashMap<>(Map.of("PINMX_RANK", Integer.toString(rank),
            "PINMX_SIZE", Integer.toString(size), "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap")));
        env.put(JobEndpoint.PEER_TIMEOUT_VARIABLE, "10000");
        return env;
    }

    private static EndpointTuning tuning(final ProgressMode mode)
    {
        return new EndpointTuning()
        {
            @Override
            public void driverConfig(final EndpointConfig.Builder config)
            {
                config.options(UserDriverOptions.class, UserDriverOptions.defaults()
                    .withProgressThread(ProgressMode.THREAD == mode).withCountersFile(null));
            }

            @Override
            public void options(final EndpointOptions.Builder options)
            {
                options.progressMode(mode);
            }
        };
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void everyRankReachesEveryOtherThroughItsPartner(final ProgressMode mode) throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(RANKS);
        try
        {
            @SuppressWarnings("unchecked") final Future<String>[] results = new Future[RANKS];
            for (int r = 0; r < RANKS; r++)
            {
                final int rank = r;
                results[r] = pool.submit(() -> exchangeWithEveryRank(rank, mode));
            }
            for (int r = 0; r < RANKS; r++)
            {
                assertEquals("user " + mode + " 10000 ms; got" + (0 == r ? "" : " 0") + (1 == r ? "" : " 1") +
                    (2 == r ? "" : " 2"), results[r].get(FUTURE_DEADLINE_S, TimeUnit.SECONDS), "rank " + r);
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private String exchangeWithEveryRank(final int rank, final ProgressMode mode)
    {
        try (Job job = Job.join(env(rank, RANKS));
            JobEndpoint ranks = JobEndpoint.open(job, env(rank, RANKS), tuning(mode));
            Arena arena = Arena.ofShared())
        {
            final StringBuilder got = new StringBuilder(ranks.driver() + " " + ranks.endpoint().options().progressMode() +
                " " + ranks.endpoint().options().peerTimeoutNs() / 1_000_000 + " ms; got");
            assertEquals("rank " + rank + " is not another rank of this job of " + RANKS,
                assertThrows(IllegalArgumentException.class, () -> ranks.partner(rank)).getMessage());
            final Request[] received = new Request[RANKS];
            final MemorySegment[] in = new MemorySegment[RANKS];
            for (int peer = 0; peer < RANKS; peer++)
            {
                if (peer != rank)
                {
                    in[peer] = arena.allocate(ValueLayout.JAVA_INT);
                    received[peer] = ranks.endpoint().irecv(ranks.partner(peer).id(), rank, -1L, in[peer]);
                }
            }
            final MemorySegment mine = arena.allocate(ValueLayout.JAVA_INT);
            mine.set(ValueLayout.JAVA_INT, 0, rank);
            for (int peer = 0; peer < RANKS; peer++)
            {
                if (peer != rank)
                {
                    final Request sent = ranks.endpoint().isend(ranks.partner(peer), peer, mine);
                    poll(sent);
                    sent.release();
                }
            }
            for (int peer = 0; peer < RANKS; peer++)
            {
                if (peer != rank)
                {
                    poll(received[peer]);
                    received[peer].release();
                    got.append(' ').append(in[peer].get(ValueLayout.JAVA_INT, 0));
                }
            }
            // Acks for what this rank received go out while it waits here for the others.
            job.barrier();
            return got.toString();
        }
    }

    /** Each test is a round of progress in caller mode; a deadline, not a bare sleep, bounds the wait. */
    private static void poll(final Request request)
    {
        final long deadlineNs = System.nanoTime() + MESSAGE_TIMEOUT.toNanos();
        final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.busyPolling();
        while (!request.test())
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "request not done within " + MESSAGE_TIMEOUT + ": " + request);
            idle.idle();
        }
        request.awaitOrThrow(MESSAGE_TIMEOUT);
    }

    @Test
    void aRankWhoseEndpointFileDoesNotFitFailsEveryRankAlike() throws Exception
    {
        final Path roomy = Files.createDirectory(dir.resolve("roomy"));
        final ExecutorService pool = Executors.newFixedThreadPool(RANKS);
        try (SmallTmpfs small = SmallTmpfs.mount(Files.createDirectory(dir.resolve("small")), 8 * 1024))
        {
            @SuppressWarnings("unchecked") final Future<String>[] results = new Future[RANKS];
            for (int r = 0; r < RANKS; r++)
            {
                final int rank = r;
                final Path shm = 1 == rank ? small.directory() : roomy;
                results[r] = pool.submit(() -> refusedOpen(rank, shm));
            }
            final String message = results[0].get(FUTURE_DEADLINE_S, TimeUnit.SECONDS);
            assertTrue(message.startsWith("the job's endpoints did not open on every rank: rank 1 could not open its " +
                "endpoint: "), message);
            assertTrue(message.contains(small.directory() + " has no room for pinmx-udp-"), message);
            assertTrue(message.contains(" bytes asked, 8192 free of 8192 (ENOSPC"), message);
            assertTrue(message.endsWith("set PINMX_SHM_DIR to a directory with more room"), message);
            for (int r = 1; r < RANKS; r++)
            {
                assertEquals(message, results[r].get(FUTURE_DEADLINE_S, TimeUnit.SECONDS), "rank " + r);
            }
            assertEquals(List.of(), small.files());
            try (var left = Files.list(roomy))
            {
                assertEquals(List.of(), left.toList(), "the ranks whose endpoints opened closed them");
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    /** @return the message of the refusal this rank got from opening its endpoint with files in {@code shm}. */
    private String refusedOpen(final int rank, final Path shm)
    {
        try (Job job = Job.join(env(rank, RANKS)))
        {
            final EndpointTuning tuning = new EndpointTuning()
            {
                @Override
                public void driverConfig(final EndpointConfig.Builder config)
                {
                    config.options(UserDriverOptions.class, UserDriverOptions.defaults().withShmDirectory(shm)
                        .withCountersFile(null));
                }
            };
            return assertThrows(MxException.class, () -> JobEndpoint.open(job, env(rank, RANKS), tuning).close())
                .getMessage();
        }
    }

    @Test
    void aBadDriverOrPeerTimeoutIsNamed()
    {
        try (Job job = Job.join(Map.of("PINMX_RANK", "0", "PINMX_SIZE", "1")))
        {
            final IllegalArgumentException badDriver = assertThrows(IllegalArgumentException.class,
                () -> JobEndpoint.open(job, Map.of(JobEndpoint.DRIVER_VARIABLE, "gpu")));
            assertTrue(badDriver.getMessage().contains("PINMX_DRIVER=gpu"), badDriver.getMessage());
            assertEquals("PINMX_PEER_TIMEOUT_MS=soon: expected milliseconds, 1..2147483647",
                assertThrows(IllegalArgumentException.class, () -> JobEndpoint.open(job,
                    Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, "soon"))).getMessage());
            assertThrows(IllegalArgumentException.class, () -> JobEndpoint.peerTimeoutMs(
                Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, "0")));
            assertEquals(5_000, JobEndpoint.peerTimeoutMs(Map.of()));
        }
    }

    @Test
    void anUnconnectedEndpointOpensWithoutACollectiveAndIsReachedByItsAddress() throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        final CompletableFuture<EndpointAddress> published = new CompletableFuture<>();
        try
        {
            final Future<Integer> receiver = pool.submit(() ->
            {
                try (Job job = Job.join(env(0, 2));
                    Endpoint endpoint = JobEndpoint.openUnconnected(job, env(0, 2), tuning(ProgressMode.CALLER));
                    Arena arena = Arena.ofShared())
                {
                    assertEquals(10_000, endpoint.options().peerTimeoutNs() / 1_000_000);
                    assertEquals(JobEndpoint.APPLICATION_KEY, endpoint.options().applicationKey());
                    final MemorySegment in = arena.allocate(ValueLayout.JAVA_INT);
                    final Request received = endpoint.irecv(MatchInfo.ANY_SOURCE, 5, -1L, in);
                    published.complete(endpoint.address());
                    received.awaitOrThrow(MESSAGE_TIMEOUT);
                    received.release();
                    return in.get(ValueLayout.JAVA_INT, 0);
                }
            });
            try (Job job = Job.join(env(1, 2));
                Endpoint endpoint = JobEndpoint.openUnconnected(job, env(1, 2), tuning(ProgressMode.CALLER)))
            {
                final Partner rank0 = endpoint.connect(published.get(FUTURE_DEADLINE_S, TimeUnit.SECONDS),
                    JobEndpoint.APPLICATION_KEY, MESSAGE_TIMEOUT);
                endpoint.send(rank0, 5, MemorySegment.ofArray(new int[] {77}), MESSAGE_TIMEOUT);
                assertEquals(77, receiver.get(FUTURE_DEADLINE_S, TimeUnit.SECONDS));
            }
        }
        finally
        {
            pool.shutdownNow();
        }
        try (Job job = Job.join(Map.of("PINMX_RANK", "0", "PINMX_SIZE", "1")))
        {
            final IllegalArgumentException badDriver = assertThrows(IllegalArgumentException.class,
                () -> JobEndpoint.openUnconnected(job, Map.of(JobEndpoint.DRIVER_VARIABLE, "gpu"), EndpointTuning.DEFAULTS));
            assertTrue(badDriver.getMessage().contains("PINMX_DRIVER=gpu"), badDriver.getMessage());
        }
    }

    @Test
    void aOneRankJobHasAnEndpointAndNoPartners()
    {
        try (Job job = Job.join(Map.of("PINMX_RANK", "0", "PINMX_SIZE", "1"));
            JobEndpoint ranks = JobEndpoint.open(job, Map.of(), tuning(ProgressMode.CALLER)))
        {
            assertEquals(JobEndpoint.DEFAULT_DRIVER, ranks.driver());
            assertTrue(null != ranks.driverEndpoint(), "the provider's endpoint is kept");
            assertThrows(IllegalArgumentException.class, () -> ranks.partner(0));
            job.barrier();
        }
    }
}
