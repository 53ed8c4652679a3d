package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import io.pinmx.pin.provider.SmallTmpfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real jobs whose {@code PINMX_RMA_DIR} is a tmpfs of a few pages ({@link FullDirectoryScenarios}): running out of
 * room is refused at allocation on every rank with one message naming the rank, the directory, the bytes asked,
 * what is free and the variable, on either tier; nothing is left in the directory. Needs root to mount (skipped
 * otherwise).
 */
class FullDirectoryLauncherTest
{
    /** A job that hangs in a collective is stopped here and fails. */
    private static final long RUN_DEADLINE_S = 180;
    private static final long PAGE_BYTES = 4096;

    @TempDir
    Path dir;

    @Test
    void initInADirectoryWithoutRoomForTheControlFilesIsRefusedOnEveryRank() throws Exception
    {
        final int ranks = 2;
        try (SmallTmpfs tmpfs = SmallTmpfs.mount(Files.createDirectory(dir.resolve("shm")), 2 * PAGE_BYTES))
        {
            final String message = refusalOnEveryRank(tmpfs, ranks, Map.of(), "init");
            assertTrue(message.startsWith("rma cannot start on any rank: rank 0 could not create its control file: " +
                tmpfs.directory() + " has no room for pinmx-rma-"), message);
            assertTrue(message.contains("rank 1 could not create its control file: "), message);
            assertTrue(message.contains(" bytes asked, "), message);
            assertTrue(message.contains(" free of " + 2 * PAGE_BYTES + " (ENOSPC"), message);
            assertTrue(message.contains("set PINMX_RMA_DIR to a directory with more room"), message);
            assertEquals(List.of(), tmpfs.files(), "shared files left behind");
        }
    }

    /**
     * Through the driver (2 ranks) each rank also exposes its slice, and the model's measurement at init allocates
     * 4 MiB a rank (quick, into a model file of the test's): the tmpfs leaves room for that.
     */
    @ParameterizedTest(name = "shared memory {0}")
    @ValueSource(ints = {1, 0})
    void anAllocationThatDoesNotFitIsRefusedOnEveryRankNamingTheRankThatRanOut(final int sharedMemory)
        throws Exception
    {
        final int ranks = 1 == sharedMemory ? 3 : 2;
        final long tmpfsBytes = 1 == sharedMemory ? 64 * PAGE_BYTES : 16L << 20;
        final long tooLarge = 4 * tmpfsBytes;
        try (SmallTmpfs tmpfs = SmallTmpfs.mount(Files.createDirectory(dir.resolve("shm")), tmpfsBytes))
        {
            final String message = refusalOnEveryRank(tmpfs, ranks, Map.of(
                RmaOptions.SHARED_MEMORY_VARIABLE, Integer.toString(sharedMemory),
                RmaOptions.CALIBRATION_VARIABLE, "quick",
                RmaOptions.MODEL_FILE_VARIABLE, dir.resolve("model.properties").toString()),
                "alloc", Long.toString(tooLarge));
            // Init's own allocations (the address-range mutexes, the measurement's) come first: any id.
            assertTrue(message.matches("ALLOC of allocation [0-9]+ refused on every rank: rank 1 could not make its " +
                "slice of " + tooLarge + " bytes: " + Pattern.quote(tmpfs.directory().toString()) +
                " has no room for pinmx-rma-.*"), message);
            assertTrue(message.contains("-rank1: " + tooLarge + " bytes asked, "), message);
            assertTrue(message.contains(" free of " + tmpfsBytes + " (ENOSPC"), message);
            assertTrue(message.endsWith("set PINMX_RMA_DIR to a directory with more room"), message);
            assertEquals(List.of(), tmpfs.files(), "shared files left behind");
        }
    }

    /** @return the one message every rank printed as refused, after checking the job ended well. */
    private String refusalOnEveryRank(final SmallTmpfs tmpfs, final int ranks, final Map<String, String> env,
        final String... args) throws Exception
    {
        final Map<String, String> all = new HashMap<>(env);
        all.put(RmaOptions.DIRECTORY_VARIABLE, tmpfs.directory().toString());
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, all, ranks,
            FullDirectoryScenarios.class.getName(), args);
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        final List<String> refusals = job.err().lines().filter(l -> l.matches("\\[rank \\d+] REFUSED .*")).toList();
        assertEquals(ranks, refusals.size(), job.err());
        final List<String> messages = refusals.stream().map(l -> l.substring(l.indexOf("REFUSED ") + 8)).distinct()
            .toList();
        assertEquals(1, messages.size(), "every rank gets the same refusal:\n" + job.err());
        return messages.getFirst();
    }
}
