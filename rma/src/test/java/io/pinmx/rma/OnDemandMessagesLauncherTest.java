package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link OnDemandMessagesScenario} as a real job of 4 JVMs on the shared-memory tier, with the user driver's endpoint
 * files in a directory of its own so that each rank can count them: none until ranks send messages, then one for
 * each of the two ranks that did; nothing left behind.
 */
class OnDemandMessagesLauncherTest
{
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @Test
    void onlyRanksThatExchangeMessagesOpenAnEndpoint() throws Exception
    {
        final Path rmaFiles = Files.createDirectories(dir.resolve("rma"));
        final Path endpointFiles = Files.createDirectories(dir.resolve("endpoints"));
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, Map.of(
            RmaOptions.DIRECTORY_VARIABLE, rmaFiles.toString(),
            "PINMX_SHM_DIR", endpointFiles.toString(),
            "PINMX_PEER_TIMEOUT_MS", "20000"), 4, RmaScenarios.class.getName(), "ondemand");
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        assertTrue(job.out().lines().anyMatch("PASSED ondemand"::equals), job.out() + job.err());
        for (final Path shared : List.of(rmaFiles, endpointFiles))
        {
            try (var left = Files.list(shared))
            {
                assertEquals(List.of(), left.toList(), "files left behind in " + shared);
            }
        }
    }
}
