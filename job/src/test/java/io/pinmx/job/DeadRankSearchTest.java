package io.pinmx.job;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which ranks a failed collective names and which a still-waiting one names, over process tables as the launcher
 * gives them, with a real exited process of this host as a node rank.
 */
class DeadRankSearchTest
{
    private static final int RUNNING = 4;
    private static final int ABORTED_BY_SIGNAL = 54;
    private static final long SEARCH_MS = 500;

    @Test
    void aWaitingCollectiveNamesOnlyRanksTheLauncherShowsFailed() throws Exception
    {
        final int exitedPid = exitedProcess();
        // rank 1 shares this node and its process has exited, the launcher has not recorded it yet; rank 2 ended
        // normally on another node: both may have left the fence this rank still waits to be released from
        final List<PmixProcess> table = new ArrayList<>(List.of(new PmixProcess(0, "here", 100, RUNNING),
            new PmixProcess(1, "here", exitedPid, RUNNING),
            new PmixProcess(2, "there", 300, PmixProcess.STATE_TERMINATED)));
        final DeadRankSearch search = new DeadRankSearch(0, new int[] {0, 1},
            () -> CompletableFuture.completedFuture(List.copyOf(table)));

        assertEquals(List.of(), search.look(), "a normal end or a bare exit is no failure while the fence waits");

        table.set(2, new PmixProcess(2, "there", 300, ABORTED_BY_SIGNAL));
        final List<DeadRankSearch.EndedRank> looked = search.look();
        assertEquals(1, looked.size(), looked.toString());
        assertEquals(2, looked.getFirst().rank());
        assertEquals("rank 2 (host there, pid 300) ended: aborted by signal (PMIx process state 54)",
            looked.getFirst().description());
    }

    @Test
    void aFailedCollectiveNamesEveryRankThatEnded() throws Exception
    {
        final int exitedPid = exitedProcess();
        final DeadRankSearch search = new DeadRankSearch(0, new int[] {0, 1},
            () -> CompletableFuture.completedFuture(List.of(new PmixProcess(0, "here", 100, RUNNING),
                new PmixProcess(1, "here", exitedPid, RUNNING),
                new PmixProcess(2, "there", 300, PmixProcess.STATE_TERMINATED))));

        final List<DeadRankSearch.EndedRank> ended = search.search(SEARCH_MS);
        assertEquals(List.of(1, 2), ended.stream().map(DeadRankSearch.EndedRank::rank).toList(), ended.toString());
        assertTrue(ended.get(0).description().startsWith("rank 1 (host here, pid " + exitedPid +
            ") ended: its process exited"), ended.toString());
        assertEquals("rank 2 (host there, pid 300) ended: terminated (PMIx process state 20)",
            ended.get(1).description());
    }

    private static int exitedProcess() throws Exception
    {
        final Process process = new ProcessBuilder("true").start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "true did not exit");
        return Math.toIntExact(process.pid());
    }
}
