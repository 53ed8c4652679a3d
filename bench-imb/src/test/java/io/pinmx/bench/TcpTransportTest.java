package io.pinmx.bench;

import io.pinmx.job.Job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two ranks in two threads of this JVM, over real loopback sockets.
 */
class TcpTransportTest
{
    private static final long DEADLINE_S = 60;
    private static final int BIG_BYTES = 4 << 20;

    @TempDir
    Path dir;

    private <T> T[] twoRanks(final BiFunction<Job, Transport, T> body, final T[] out) throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try
        {
            @SuppressWarnings("unchecked") final Future<T>[] futures = new Future[2];
            for (int r = 0; r < 2; r++)
            {
                final int rank = r;
                futures[r] = pool.submit(() ->
                {
                    try (Job job = Job.join(Map.of("PINMX_RANK", Integer.toString(rank), "PINMX_SIZE", "2",
                        "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap"), "PINMX_BOOTSTRAP_TIMEOUT_MS", "20000"));
                        Transport transport = TcpTransport.open(job, "127.0.0.1"))
                    {
                        return body.apply(job, transport);
                    }
                });
            }
            for (int r = 0; r < 2; r++)
            {
                out[r] = futures[r].get(DEADLINE_S, TimeUnit.SECONDS);
            }
            return out;
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private static MemorySegment pattern(final Arena arena, final int bytes, final int seed)
    {
        final MemorySegment s = arena.allocate(bytes, 4096);
        for (int i = 0; i < bytes; i += 4)
        {
            s.set(ValueLayout.JAVA_INT_UNALIGNED, i, i * 31 + seed);
        }
        return s;
    }

    @Test
    void blockingAndPostedMessagesArriveWholeAndInOrder() throws Exception
    {
        final Long[] mismatches = twoRanks((job, transport) ->
        {
            try (Arena arena = Arena.ofConfined())
            {
                final int peer = 1 - job.rank();
                final MemorySegment mine = pattern(arena, BIG_BYTES, job.rank());
                final MemorySegment theirs = pattern(arena, BIG_BYTES, peer);
                final MemorySegment in = arena.allocate(BIG_BYTES, 4096);
                final MemorySegment in2 = arena.allocate(BIG_BYTES, 4096);
                long bad = 0;
                if (0 == job.rank())
                {
                    transport.send(peer, mine, 0);
                    transport.send(peer, mine, 12345);
                    transport.recv(peer, in, BIG_BYTES);
                }
                else
                {
                    transport.recv(peer, in, 0);
                    transport.recv(peer, in, 12345);
                    bad += in.asSlice(0, 12345).mismatch(theirs.asSlice(0, 12345)) == -1 ? 0 : 1;
                    transport.send(peer, mine, BIG_BYTES);
                }
                bad += 0 == job.rank() && in.mismatch(theirs) != -1 ? 1 : 0;
                // Both directions at once with messages far larger than the socket buffers.
                transport.postSend(peer, mine, BIG_BYTES);
                transport.postSend(peer, mine, 100);
                transport.postRecv(peer, in, BIG_BYTES);
                transport.postRecv(peer, in2, 100);
                transport.awaitPosted();
                bad += in.mismatch(theirs) == -1 ? 0 : 1;
                bad += in2.asSlice(0, 100).mismatch(theirs.asSlice(0, 100)) == -1 ? 0 : 1;
                return bad;
            }
        }, new Long[2]);
        assertEquals(0L, mismatches[0]);
        assertEquals(0L, mismatches[1]);
    }

    @Test
    void aMessageOfTheWrongLengthIsAnErrorNamingBothLengths() throws Exception
    {
        final String[] errors = twoRanks((job, transport) ->
        {
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment buffer = arena.allocate(64);
                if (0 == job.rank())
                {
                    transport.send(1, buffer, 8);
                    return "";
                }
                return assertThrows(IllegalStateException.class, () -> transport.recv(0, buffer, 16)).getMessage();
            }
        }, new String[2]);
        assertTrue(errors[1].contains("rank 0 sent a message of 8 B where rank 1 expected 16 B"), errors[1]);
    }

    @Test
    void aPeerThatIsNotARankIsNamed() throws Exception
    {
        final String[] errors = twoRanks((job, transport) ->
        {
            try (Arena arena = Arena.ofConfined())
            {
                return assertThrows(IllegalArgumentException.class,
                    () -> transport.send(job.rank(), arena.allocate(8), 8)).getMessage();
            }
        }, new String[2]);
        assertEquals("peer 0 is not another rank of this job of 2", errors[0]);
    }
}
