package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import io.pinmx.rma.example.RmaRing;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's RmaRing as real JVMs through bin/pinmx-run on both tiers: every rank received the previous rank's
 * number, the fetch-and-add tickets are exactly 0..N-1 (each returned once) and the total is the sum of the ranks.
 * The normal run uses {@value #NORMAL_RANKS} ranks; {@code -Dpinmx.manyRanks=true} runs {@value #MANY_RANKS}.
 */
class RmaRingManyRanksTest
{
    private static final int NORMAL_RANKS = 4;
    private static final int MANY_RANKS = 32;
    private static final int RANKS = Boolean.getBoolean("pinmx.manyRanks") ? MANY_RANKS : NORMAL_RANKS;
    private static final long RUN_DEADLINE_S = 180L + 30L * RANKS;
    private static final Pattern LINE =
        Pattern.compile("rank (\\d+) of (\\d+) received (\\d+), ticket (\\d+), parity sum (\\d+), total (\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "PINMX_RMA_SHARED_MEMORY={0}")
    @ValueSource(strings = {"1", "0"})
    void ticketsAreEachRankOnceAndTheTotalIsTheSumOfRanks(final String sharedMemory) throws Exception
    {
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S,
            Map.of(RmaOptions.SHARED_MEMORY_VARIABLE, sharedMemory, "PINMX_BOOTSTRAP_TIMEOUT_MS", "300000"), RANKS,
            RmaRing.class.getName());
        final String all = job.out() + job.err();
        assertEquals(0, job.exitStatus(), all);
        final boolean[] reported = new boolean[RANKS];
        final boolean[] ticketTaken = new boolean[RANKS];
        final Matcher m = LINE.matcher(all);
        while (m.find())
        {
            final int rank = Integer.parseInt(m.group(1));
            final int ticket = Integer.parseInt(m.group(4));
            assertEquals(RANKS, Integer.parseInt(m.group(2)), m.group());
            assertEquals((rank + RANKS - 1) % RANKS, Integer.parseInt(m.group(3)), m.group());
            assertTrue(ticket < RANKS && !ticketTaken[ticket], "ticket " + ticket + " out of range or taken twice: " + all);
            assertEquals(paritySum(rank), Long.parseLong(m.group(5)), m.group());
            assertEquals((long)RANKS * (RANKS - 1) / 2, Long.parseLong(m.group(6)), m.group());
            ticketTaken[ticket] = true;
            reported[rank] = true;
        }
        for (int rank = 0; rank < RANKS; rank++)
        {
            assertTrue(reported[rank], "rank " + rank + " did not report in\n" + all);
        }
    }

    /** The example's group reduction: the sum of the ranks of the same parity as {@code rank}. */
    private static long paritySum(final int rank)
    {
        long sum = 0;
        for (int r = rank % 2; r < RANKS; r += 2)
        {
            sum += r;
        }
        return sum;
    }
}
