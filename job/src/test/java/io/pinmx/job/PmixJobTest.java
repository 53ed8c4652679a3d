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
    private static final Pattern KILLED = Pattern.compile("rank 1 kills itself, pid (\\d+)");

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

    /**
     * Rank 1 SIGKILLs itself; with {@code receive} rank 0 waits on it through its endpoint and rank 2 in a barrier,
     * with {@code barrier} both wait in a barrier, with {@code broadcast} both wait in a broadcast from rank 1 (a
     * fence, then a get). Open MPI 4.1 delivers no death event to its clients, so a collective's wait ends when the
     * fence the dead rank never joins fails: the survivor's error names rank 1 with its host and pid from mpirun's
     * process table, and PMIx's status. An endpoint's wait names rank 1's exited process.
     */
    @ParameterizedTest
    @ValueSource(strings = {"receive", "barrier", "broadcast"})
    void aKilledRanksSurvivorsFailAtOnceNamingIt(final String wait) throws Exception
    {
        MpirunJob.assumeMpirun();
        final LaunchedJob.Result job = MpirunJob.run(dir, "", RUN_DEADLINE_S,
            Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, LONG_PEER_TIMEOUT_MS, JobEndpoint.SAME_HOST_VARIABLE, "0"),
            // mpirun would otherwise kill the survivors itself as soon as rank 1 died
            List.of("--enable-recovery"), 3, DyingRank.class.getName(), wait);
        final Matcher killed = KILLED.matcher(job.out());
        assertTrue(killed.find(), job.out() + job.err());
        final String deadPid = killed.group(1);
        final List<String> survivors = MpirunJob.lines(job.out(), "survivor ");
        assertEquals(2, survivors.size(), job.out() + job.err());
        for (final String line : survivors)
        {
            System.out.println(line);
            final Matcher m = SURVIVOR.matcher(line);
            assertTrue(m.matches(), line);
            assertTrue(Long.parseLong(m.group(2)) < PROMPT_FAILURE_MS, "not failed at once: " + line);
            final String outcome = m.group(3);
            if ("receive".equals(wait) && "0".equals(m.group(1)))
            {
                // its endpoint waited on rank 1 itself: the partner named, failed by its process having exited
                assertTrue(outcome.startsWith("failed: ") && outcome.contains("rank 1"), line);
                assertTrue(outcome.contains("its process " + deadPid + " exited"),
                    "pid " + deadPid + " not named: " + line);
            }
            else
            {
                // in a fence: rank 1 named with its host and pid, and PMIx's status for the fence
                assertTrue(outcome.startsWith("failed: job: rank " + m.group(1)), line);
                assertTrue(Pattern.compile("rank 1 \\(host \\S+, pid " + deadPid + "\\) ended: ").matcher(outcome).find(),
                    "rank 1 (pid " + deadPid + ") not named: " + line);
                assertTrue(outcome.contains("PMIx_Fence"), "PMIx's call not named: " + line);
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
