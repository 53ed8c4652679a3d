package io.pinmx.job;

import io.pinmx.job.example.RankRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs across two "hosts" (network namespaces joined by a veth pair) with different home directories, one rank
 * each, meeting through mpirun's PMIx servers ({@link MpirunAcrossNamespaces}): RankRing over the veth, and a rank
 * killed in the second namespace, which the survivor in the first names: waiting on it through its endpoint within
 * its peer timeout, waiting in a barrier with its host and pid from mpirun's process table.
 */
class PmixTwoNamespaceTest
{
    private static final long RUN_DEADLINE_S = 180;
    private static final long PEER_TIMEOUT_MS = 3_000;
    /** The survivor's wait ends by the peer timeout; the slack covers a loaded host's late timer and liveness probes. */
    private static final long PEER_TIMEOUT_SLACK_MS = 20_000;
    private static final Pattern SURVIVOR = Pattern.compile("survivor 0 after (\\d+) ms (.*)");

    @TempDir
    Path dir;

    @Test
    void rankRingAcrossNamespacesWithTheirOwnHomes() throws Exception
    {
        MpirunAcrossNamespaces.assumeReady();
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final MpirunAcrossNamespaces mpirun = MpirunAcrossNamespaces.over(hosts, dir);
            final long bytesBefore = hosts.bytes(0);
            final LaunchedJob.Result job = mpirun.run(RUN_DEADLINE_S, Map.of(), List.of(), RankRing.class.getName());

            assertEquals(0, job.exitStatus(), job.out() + job.err() + "\nthe namespaces after the job:\n" +
                hosts.describe());
            assertTrue(job.out().lines().anyMatch("rank 0 of 2 got 1 from rank 1"::equals), job.out() + job.err());
            assertTrue(job.out().lines().anyMatch("rank 1 of 2 got 0 from rank 0"::equals), job.out() + job.err());
            mpirun.assertNoBootstrapFile();
            assertTrue(hosts.bytes(0) > bytesBefore, "nothing crossed the veth pair");
        }
    }

    @Test
    void aRankKilledInTheOtherNamespaceIsNamedWithinThePeerTimeout() throws Exception
    {
        final Matcher m = survivorOfAKill("receive");
        // Another host's rank: no process of this host to watch, so the endpoint's peer timeout fails it.
        assertTrue(m.group(2).startsWith("failed: ") && m.group(2).contains("rank 1"), m.group());
    }

    @Test
    void aRankKilledInTheOtherNamespaceIsNamedByTheBarrierItNeverJoins() throws Exception
    {
        final Matcher m = survivorOfAKill("barrier");
        // Another host's rank: named from mpirun's process table once the fence it never joins failed.
        assertTrue(m.group(2).startsWith("failed: job: rank 0 barrier: rank 1 (host "), m.group());
        assertTrue(Pattern.compile("rank 1 \\(host \\S+, pid \\d+\\) ended: ").matcher(m.group(2)).find(), m.group());
    }

    /** @return the survivor's line of a DyingRank job with {@code wait}, after checking it failed in time. */
    private Matcher survivorOfAKill(final String wait) throws Exception
    {
        MpirunAcrossNamespaces.assumeReady();
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final LaunchedJob.Result job = MpirunAcrossNamespaces.over(hosts, dir).run(RUN_DEADLINE_S,
                Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, Long.toString(PEER_TIMEOUT_MS)),
                // mpirun would otherwise kill the survivor itself as soon as rank 1 died
                List.of("--enable-recovery"), DyingRank.class.getName(), wait);

            final List<String> survivors = MpirunJob.lines(job.out(), "survivor ");
            assertEquals(1, survivors.size(), job.out() + job.err());
            final Matcher m = SURVIVOR.matcher(survivors.getFirst());
            assertTrue(m.matches(), survivors.getFirst());
            System.out.println(m.group());
            assertTrue(Long.parseLong(m.group(1)) < PEER_TIMEOUT_MS + PEER_TIMEOUT_SLACK_MS,
                "not failed within the peer timeout of " + PEER_TIMEOUT_MS + " ms: " + m.group());
            return m;
        }
    }
}
