package io.pinmx.bench.osc;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each one-sided benchmark program run for real by bin/pinmx-run on 2 ranks with tiny sizes: its header and rows
 * parse ({@link OscTable}) with the keys and values the program must give.
 */
class OscBenchTest
{
    private static final long RUN_DEADLINE_S = 240;
    private static final String[] TINY = {"-m", "64", "-d", "1000", "-n", "16", "-w", "100", "-l", "2"};

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(OscProgram.class)
    void eachProgramPrintsItsTableOnTheSharedMemoryTier(final OscProgram program) throws Exception
    {
        final LaunchedJob.Result o = run(Map.of(), program.osuName());
        assertEquals(0, o.exitStatus(), o.err());
        final OscTable table = OscTable.parse(o.out().lines().toList());
        final OscTable.Section section = table.section(program);
        assertNotNull(section, o.out());
        assertTrue(section.implementation().startsWith("pinmx rma (Java), SHARED_MEMORY tier"), o.out());
        checkRows(section, o.out());
        for (final OscProgram other : OscProgram.values())
        {
            assertTrue(other == program || null == table.section(other), o.out());
        }
    }

    @Test
    void everyProgramRunsThroughTheDriverAndCompletesWhileTheTargetComputes() throws Exception
    {
        final LaunchedJob.Result o = run(Map.of("PINMX_RMA_SHARED_MEMORY", "0"), "all");
        assertEquals(0, o.exitStatus(), o.err());
        final OscTable table = OscTable.parse(o.out().lines().toList());
        for (final OscProgram p : OscProgram.values())
        {
            final OscTable.Section section = table.section(p);
            assertNotNull(section, p + " missing in\n" + o.out());
            assertTrue(section.implementation().startsWith("pinmx rma (Java), DRIVER tier"), o.out());
            checkRows(section, o.out());
        }
        for (final OscTable.Row row : table.section(OscProgram.COMPUTE_WINDOW).rows())
        {
            assertTrue(row.values()[1] > 0, "no " + row.key() + " completed while the target computed:\n" + o.out());
        }
    }

    @Test
    void anUnknownProgramOrOptionIsRefusedByName() throws Exception
    {
        final LaunchedJob.Result unknown = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2",
            "io.pinmx.bench.osc.OscBench", "osu_nothing");
        assertEquals(2, unknown.exitStatus(), unknown.err());
        assertTrue(unknown.err().contains("unknown PROGRAM 'osu_nothing'"), unknown.err());
        final LaunchedJob.Result option = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2", "osu_put_bw",
            "-q", "3");
        assertEquals(2, option.exitStatus(), option.err());
        assertTrue(option.err().contains("unknown option '-q'"), option.err());
    }

    private LaunchedJob.Result run(final Map<String, String> env, final String program) throws Exception
    {
        final String[] args = new String[4 + TINY.length];
        args[0] = "-np";
        args[1] = "2";
        args[2] = "io.pinmx.bench.osc.OscBench";
        args[3] = program;
        System.arraycopy(TINY, 0, args, 4, TINY.length);
        return LaunchedJob.run(dir, RUN_DEADLINE_S, env, args);
    }

    /**
     * The keys of the tiny sweeps and positive values. Completed counts may be anything up to those issued; a
     * bandwidth row is printed in MB/s with 3 decimals, so a tiny sweep's one window of 32 one-byte operations that
     * took over 64 ms (a loaded host, a JVM's first second: seen in CI) prints 0.000, and only the largest size's row
     * must be positive.
     */
    static void checkRows(final OscTable.Section section, final String out)
    {
        final List<String> keys = section.rows().stream().map(OscTable.Row::key).toList();
        final boolean bandwidth = OscProgram.OSU_PUT_BW == section.program() || OscProgram.OSU_GET_BW == section.program();
        final List<String> expected = switch (section.program())
        {
            case OSU_PUT_LATENCY, OSU_GET_LATENCY, OSU_PUT_BW, OSU_GET_BW -> List.of("1", "2", "4", "8", "16", "32", "64");
            case OSU_ACC_LATENCY -> List.of("8", "16", "32", "64");
            case OSU_FOP_LATENCY, OSU_SWAP_LATENCY, OSU_LOCK_LATENCY -> List.of("8");
            case ARMCI_STRIDED -> List.of("8", "16");
            case COMPUTE_WINDOW -> List.of("put", "get", "fetch_add", "acc");
        };
        assertEquals(expected, keys, out);
        for (final OscTable.Row row : section.rows())
        {
            for (int v = 0; v < row.values().length; v++)
            {
                final boolean count = OscProgram.COMPUTE_WINDOW == section.program() && 1 == v;
                final boolean mayRoundToZero = count || bandwidth && !row.key().equals(keys.getLast());
                assertTrue(mayRoundToZero ? row.values()[v] >= 0 : row.values()[v] > 0,
                    section.program() + " " + row.key() + " column " + v + ":\n" + out);
            }
        }
    }
}
