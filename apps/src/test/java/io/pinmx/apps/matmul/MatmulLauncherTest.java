package io.pinmx.apps.matmul;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SRUMMA and SUMMA as real jobs started by bin/pinmx-run: SRUMMA on both rma tiers and SUMMA on pinmx's MPJ device,
 * 1, 2 and 4 ranks, each product matching the closed form; an order the ranks cannot share and one that is not a
 * number refused with a one-line error and status 2.
 */
class MatmulLauncherTest
{
    private static final long RUN_DEADLINE_S = 600;
    private static final Path MODEL_FILE = Path.of("target", "rma-model-test.properties").toAbsolutePath();
    private static final String ORDER = "192";
    /** Several chunks per block: a piece taken from the wrong place within its block changes the product. */
    private static final String CHUNK = "32";

    @TempDir
    Path dir;

    /** One rank moves nothing, so it runs on one tier only. */
    @ParameterizedTest(name = "SRUMMA on {0} ranks, shared memory {1}, {2} chunks ahead")
    @CsvSource({"1, 1, 1", "2, 1, 1", "4, 1, 1", "2, 0, 1", "4, 0, 1", "2, 0, 5"})
    void srummaMatchesTheClosedForm(final int ranks, final int sharedMemory, final int ahead) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(
            "PINMX_RMA_DIR", shm.toString(),
            "PINMX_RMA_SHARED_MEMORY", Integer.toString(sharedMemory),
            "PINMX_RMA_MODEL_FILE", MODEL_FILE.toString(),
            "PINMX_RMA_CALIBRATION", "quick"),
            "-np", Integer.toString(ranks), "--peer-timeout", "30", SrummaOneSided.class.getName(), ORDER, CHUNK,
            Integer.toString(ahead));
        assertVerified(run, ranks, Srumma.VERSION);
        assertReports(run.out(), "Hidden fraction", ranks > 1 ? "[01]\\.[0-9]{3}" : "-");
        assertReports(run.out(), "Hidden vs pass", ranks > 1 ? "[01]\\.[0-9]{3}" : "-");
        assertReports(run.out(), "Unhidden secs", "-?[0-9]+\\.[0-9]{4}");
        assertReports(run.out(), "Comm thread secs", "[0-9]+\\.[0-9]{4}");
        for (final String phase : List.of("Get issue secs", "Get test secs", "Get await secs", "Progress secs"))
        {
            assertReports(run.out(), phase, "[0-9]+\\.[0-9]{4}");
        }
        assertReports(run.out(), "Get tests", "[0-9]+");
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
    }

    @ParameterizedTest(name = "SUMMA on pinmx's MPJ device, {0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void summaMatchesTheClosedForm(final int ranks) throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(),
            "-np", Integer.toString(ranks), "--peer-timeout", "30", "--mpj", SummaMessagePassing.class.getName(),
            ORDER, CHUNK);
        assertVerified(run, ranks, "MPJ mxdev");
    }

    @ParameterizedTest(name = "refuses {1} on {0} ranks")
    @CsvSource(quoteCharacter = '"', value = {
        "3, --mpj, 128, SUMMA: matrix order 128 is not a multiple of the 3 ranks of a 1x3 grid",
        "3, , 128, SRUMMA: matrix order 128 is not a multiple of the 3 ranks of a 1x3 grid",
        "1, , big, SRUMMA: matrix order 'big' is not an integer",
        "2, , 96 0 0, SRUMMA: chunks ahead 0 is below 1",
        "2, , 96 0 1 1, \"SRUMMA: usage: SRUMMA ORDER [CHUNK [AHEAD]], got 4 arguments\"",
        "2, --mpj, 96 7, SUMMA: chunk 7 does not divide the blocks' common side 48"})
    void refusesAnOrderTheRanksCannotShare(final int ranks, final String mpj, final String order, final String error)
        throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("-np", Integer.toString(ranks)));
        if (null != mpj)
        {
            command.add(mpj);
        }
        command.add((null != mpj ? SummaMessagePassing.class : SrummaOneSided.class).getName());
        command.addAll(List.of(order.split(" ")));
        final LaunchedJob.Result run = LaunchedJob.finish(LaunchedJob.start(dir, "", Map.of(), command), dir,
            RUN_DEADLINE_S);
        assertEquals(2, run.exitStatus(), run.out() + run.err());
        final String prefix = error.substring(0, error.indexOf(':') + 1);
        final List<String> lines = run.err().lines().filter(l -> l.contains(prefix)).toList();
        assertTrue(!lines.isEmpty() && lines.stream().allMatch(l -> l.endsWith(error)), run.err());
    }

    private static void assertVerified(final LaunchedJob.Result run, final int ranks, final String version)
    {
        assertEquals(0, run.exitStatus(), run.out() + run.err());
        assertReports(run.out(), "Order", ORDER);
        assertReports(run.out(), "Chunk", CHUNK);
        assertReports(run.out(), "Total processes", Integer.toString(ranks));
        assertReports(run.out(), "Version", version);
        assertReports(run.out(), "Verification", "SUCCESSFUL");
        assertReports(run.out(), "Max rel. error", "[0-9]\\.[0-9]{3}e-1[3-9]");
        assertReports(run.out(), "Time in seconds", "[0-9]+\\.[0-9]{4}");
    }

    private static void assertReports(final String out, final String name, final String valuePattern)
    {
        final String pattern = String.format(" %-16s= *", name) + valuePattern;
        assertTrue(out.lines().anyMatch(l -> l.matches(pattern)), "no line '" + pattern + "' in\n" + out);
    }
}
