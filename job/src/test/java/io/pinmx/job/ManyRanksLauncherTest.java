package io.pinmx.job;

import io.pinmx.job.example.AllPairs;
import io.pinmx.job.example.RankRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RankRing and AllPairs as real JVMs through bin/pinmx-run, over the user driver's shared memory and over UDP
 * (PINMX_SAME_HOST=0, checked by the
 * ranks' counts of frames received through shared memory). The normal run uses {@value #NORMAL_RANKS} ranks; {@code -Dpinmx.manyRanks=true} runs
 * {@value #MANY_RANKS}, which takes minutes on a two-core host.
 */
class ManyRanksLauncherTest
{
    private static final int NORMAL_RANKS = 4;
    private static final int MANY_RANKS = 32;
    private static final int RANKS = Boolean.getBoolean("pinmx.manyRanks") ? MANY_RANKS : NORMAL_RANKS;
    private static final long RUN_DEADLINE_S = 180L + 30L * RANKS;
    private static final Pattern REPORT = Pattern.compile(
        "allpairs rank (\\d+) of (\\d+) received (\\d+) x 1024 B checked, first-message-ms (\\d+), rss-kib (\\d+), hwm-kib (\\d+), shm-frames-received (\\d+)");

    @TempDir
    Path dir;

    private static Map<String, String> transport(final String sameHost)
    {
        // Ranks that start minutes apart on a loaded host still meet.
        return Map.of(JobEndpoint.SAME_HOST_VARIABLE, sameHost, "PINMX_BOOTSTRAP_TIMEOUT_MS", "300000");
    }

    @ParameterizedTest(name = "PINMX_SAME_HOST={0}")
    @ValueSource(strings = {"1", "0"})
    void everyRankGetsThePreviousRanksNumber(final String sameHost) throws Exception
    {
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, transport(sameHost), RANKS,
            RankRing.class.getName());
        final String err = job.err();
        assertEquals(0, job.exitStatus(), err);
        assertEquals("rank 0 of " + RANKS + " got " + (RANKS - 1) + " from rank " + (RANKS - 1), job.out().trim(), err);
        for (int rank = 1; rank < RANKS; rank++)
        {
            final String line = "[rank " + rank + "] rank " + rank + " of " + RANKS + " got " + (rank - 1) +
                " from rank " + (rank - 1);
            assertTrue(err.lines().anyMatch(line::equals), "missing '" + line + "' in\n" + err);
        }
    }

    @ParameterizedTest(name = "PINMX_SAME_HOST={0}")
    @ValueSource(strings = {"1", "0"})
    void everyRankReceivesACheckedMessageFromEveryOther(final String sameHost) throws Exception
    {
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, transport(sameHost), RANKS,
            AllPairs.class.getName());
        final String all = job.out() + job.err();
        assertEquals(0, job.exitStatus(), all);
        final boolean[] reported = new boolean[RANKS];
        final Matcher m = REPORT.matcher(all);
        while (m.find())
        {
            final int rank = Integer.parseInt(m.group(1));
            assertEquals(RANKS, Integer.parseInt(m.group(2)), m.group());
            assertEquals(RANKS - 1, Integer.parseInt(m.group(3)), m.group());
            assertTrue(Long.parseLong(m.group(4)) > 0 && Long.parseLong(m.group(5)) > 0, m.group());
            final long shmFrames = Long.parseLong(m.group(7));
            assertTrue("1".equals(sameHost) ? shmFrames > 0 : shmFrames == 0, "shared-memory frames: " + m.group());
            reported[rank] = true;
        }
        for (int rank = 0; rank < RANKS; rank++)
        {
            assertTrue(reported[rank], "rank " + rank + " did not report its exchange in\n" + all);
        }
    }

    @Test
    void aSameHostSettingOtherThanZeroOrOneIsNamed()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> JobEndpoint.sameHost(Map.of(JobEndpoint.SAME_HOST_VARIABLE, "no")));
        assertTrue(ex.getMessage().contains("PINMX_SAME_HOST=no"), ex.getMessage());
        assertTrue(JobEndpoint.sameHost(Map.of()));
        assertTrue(!JobEndpoint.sameHost(Map.of(JobEndpoint.SAME_HOST_VARIABLE, "0")));
    }
}
