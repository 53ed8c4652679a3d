package io.pinmx.mpj.jgf;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java Grande MPJ programs on the device through {@code bin/pinmx-run --mpj} with 2 ranks: section 2 at size A
 * validates every kernel against the suite's reference values, section 1 prints a line for every benchmark, size and
 * element type it was asked for, and bad arguments are refused by name with exit status 2.
 */
class JgfProgramsTest
{
    /** MPJ programs start several JVMs each; under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 900;
    private static final String SECTION1 = JgfSection1.class.getName();
    private static final String SECTION2 = JgfSection2.class.getName();

    @TempDir
    Path dir;

    @Test
    void sectionTwoValidatesEveryKernelAtSizeA() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2", "--peer-timeout", "30",
            "--mpj", SECTION2);
        assertEquals(0, run.exitStatus(), run.out() + run.err());
        for (final String kernel : List.of("Crypt", "LUFact", "SOR", "Series", "SparseMatmult"))
        {
            final String prefix = "Section2:" + kernel + ":Kernel";
            assertTrue(run.out().lines().anyMatch(l -> l.startsWith(prefix) && l.contains(" size A ") &&
                l.endsWith("validation passed")), "no validated line for " + kernel + " in\n" + run.out());
        }
    }

    @Test
    void sectionOneMeasuresEveryBenchmarkSizeAndType() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2", "--peer-timeout", "30",
            "--mpj", SECTION1, "--target-s", "0.01", "--max-elements", "100");
        assertEquals(0, run.exitStatus(), run.out() + run.err());
        final List<String> lines = run.out().lines().filter(l -> l.startsWith("Section1:")).toList();
        for (final String name : List.of("PingPong:Double", "PingPong:Object", "Bcast:Double", "Bcast:Object",
            "Alltoall:Double", "Alltoall:Object", "Gather:Double", "Gather:Object"))
        {
            // Sizes 4 .. 100 of the suite's log-spaced steps: 4, 7, 12, 21, 37, 66 (Alltoall: 4, 7, 13, 25, 48, 89).
            assertEquals(6, lines.stream().filter(l -> l.startsWith("Section1:" + name + " ")).count(),
                name + " in\n" + run.out());
        }
        for (final String name : List.of("Barrier", "Scatter:Double", "Scatter:Object", "Reduce:Double"))
        {
            assertEquals(1, lines.stream().filter(l -> l.startsWith("Section1:" + name + " ")).count(), name + " in\n" + run.out());
        }
        assertTrue(lines.stream().allMatch(l -> l.matches(".* reps +[0-9]+ +time\\(s\\) +-?[0-9.]+ +[a-z]+/s .*")),
            run.out());
    }

    @Test
    void refusesAnUnknownKernelPingPongOnThreeRanksAndAnUnknownSize() throws Exception
    {
        final LaunchedJob.Result unknown = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2", "--mpj", SECTION2,
            "Sorting");
        assertEquals(2, unknown.exitStatus(), unknown.err());
        assertTrue(unknown.err().contains("no kernel 'Sorting'; the kernels are Crypt, LUFact, SOR, Series, SparseMatmult"),
            unknown.err());
        final LaunchedJob.Result size = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2", "--mpj", SECTION2,
            "--size", "Q");
        assertEquals(2, size.exitStatus(), size.err());
        assertTrue(size.err().contains("JGF size 'Q' is not one of A, B"), size.err());
        final LaunchedJob.Result pingPong = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "3", "--mpj", SECTION1,
            "PingPong");
        assertEquals(2, pingPong.exitStatus(), pingPong.err());
        assertTrue(pingPong.err().contains("PingPong runs on exactly 2 ranks, not 3"), pingPong.err());
    }
}
