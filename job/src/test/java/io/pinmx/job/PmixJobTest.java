package io.pinmx.job;

import io.pinmx.job.example.RankRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs whose ranks meet through Open MPI's PMIx server (mpirun starts bin/pinmx-run per rank): no bootstrap file
 * (nothing under HOME), no PINMX_SIZE; and a killed rank's survivors failing at once.
 */
class PmixJobTest
{
    private static final long RUN_DEADLINE_S = 180;
    /** Far beyond what the test waits: only news of the death, not the peer timeout, can end the waits in time. */
    private static final String LONG_PEER_TIMEOUT_MS = "100000";
    private static final long PROMPT_FAILURE_MS = 30_000;
    private static final Pattern SURVIVOR = Pattern.compile("survivor (\\d+) after (\\d+) ms (.*)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void rankRingMeetsThroughPmixWithoutFiles(final int ranks) throws Exception
    {
        MpirunJob.assumeMpirun();
        final LaunchedJob.Result job = MpirunJob.run(dir, "", RUN_DEADLINE_S, Map.of(), ranks, RankRing.class.getName());
        assertEquals(0, job.exitStatus(), job.err());
        for (int rank = 0; rank < ranks; rank++)
        {
            final int previous = (rank + ranks - 1) % ranks;
            final String line = "rank " + rank + " of " + ranks + " got " + previous + " from rank " + previous;
            assertTrue(job.out().lines().anyMatch(line::equals), "missing '" + line + "' in\n" + job.out() + job.err());
        }
        assertFalse(Files.exists(dir.resolve("home").resolve(".pinmx")), "a bootstrap file was made under HOME");
    }

    @Test
    void aKilledRanksSurvivorsFailAtOnceNamingIt() throws Exception
    {
        MpirunJob.assumeMpirun();
        final LaunchedJob.Result job = MpirunJob.run(dir, "", RUN_DEADLINE_S,
            Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, LONG_PEER_TIMEOUT_MS, JobEndpoint.SAME_HOST_VARIABLE, "0"),
            // mpirun would otherwise kill the survivors itself as soon as rank 1 died
            List.of("--enable-recovery"), 3, DyingRank.class.getName());
        final List<String> survivors = MpirunJob.lines(job.out(), "survivor ");
        assertEquals(2, survivors.size(), job.out() + job.err());
        for (final String line : survivors)
        {
            final Matcher m = SURVIVOR.matcher(line);
            assertTrue(m.matches(), line);
            assertTrue(Long.parseLong(m.group(2)) < PROMPT_FAILURE_MS, "not failed at once: " + line);
            final String outcome = m.group(3);
            if ("0".equals(m.group(1)))
            {
                // its endpoint waited on rank 1 itself: the partner named, failed by the launcher's event or, on
                // this host, by its process having exited
                assertTrue(outcome.startsWith("failed: ") && outcome.contains("rank 1"), line);
            }
            else
            {
                // in a barrier: named when the launcher's PMIx server reports the death as an event; Open MPI 4.1
                // reports none to its clients here, and the fence the dead rank never joins fails instead
                assertTrue(outcome.startsWith("failed: ") &&
                    (outcome.contains("rank 1 died (PMIx event") || outcome.contains("PMIx_Fence failed")), line);
            }
        }
    }

    @Test
    void aPmixServerIsUsedOnlyWhenNothingAsksForTheStar()
    {
        final Map<String, String> served = Map.of("PMIX_NAMESPACE", "42", "PMIX_RANK", "0",
            "PMIX_SERVER_URI41", "42.0;tcp4://127.0.0.1:1");
        assertTrue(Job.servedByPmix(served));
        assertFalse(Job.servedByPmix(Map.of("PMIX_NAMESPACE", "42", "PMIX_RANK", "0")), "no server address");
        final Map<String, String> pinmxRun = new java.util.HashMap<>(served);
        pinmxRun.put("PINMX_RANK", "0");
        assertFalse(Job.servedByPmix(pinmxRun), "bin/pinmx-run's own ranks");
        final Map<String, String> bootstrap = new java.util.HashMap<>(served);
        bootstrap.put(BootstrapAddress.VARIABLE, "file:/tmp/x");
        assertFalse(Job.servedByPmix(bootstrap), "an explicit bootstrap");
    }

    @Test
    void everyRankOnThisNodeMeansLoopback()
    {
        final RankAddress local = RankAddress.withoutRoute(new int[] {0, 1, 2}, 3);
        assertTrue(local.address().isLoopbackAddress(), local.toString());
        final RankAddress spread = RankAddress.withoutRoute(new int[] {0}, 3);
        assertFalse(spread.address().isLoopbackAddress(), spread.toString());
        assertTrue(spread.chosenBy().contains("default route") || spread.chosenBy().contains("only"), spread.toString());
    }
}
