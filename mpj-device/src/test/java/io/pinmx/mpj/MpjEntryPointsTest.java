package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MPJ programs as a user meets them through {@code bin/pinmx-run --mpj}: {@code --help} prints the usage on
 * stdout from one process, before MPI.Init and without -np, and {@code --version} pinmx's version line; both exit 0.
 */
class MpjEntryPointsTest
{
    private static final long DEADLINE_S = 120;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"io.pinmx.mpj.npb.IntegerSort, CLASS", "io.pinmx.mpj.bench.MpjPingPong, -msglog a:b",
        "io.pinmx.mpj.bench.MpjAllreduce, -msglog a:b", "io.pinmx.mpj.bench.MpjWakeup, -compute-us N",
        "io.pinmx.mpj.bench.MpjCollectiveTimes, -op reduce|scatter",
        "io.pinmx.mpj.jgf.JgfSection1, --target-s S", "io.pinmx.mpj.jgf.JgfSection2, --size A|B"})
    void everyMpjProgramAnswersHelpAndVersion(final String program, final String mentions) throws Exception
    {
        final LaunchedJob.Result help = LaunchedJob.run(dir, DEADLINE_S, Map.of(), "--mpj", program, "--help");
        assertEquals(0, help.exitStatus(), help.err());
        assertTrue(help.out().startsWith("usage: bin/pinmx-run -np "), help.out());
        assertTrue(help.out().contains(mentions) && help.out().contains("exit status"), help.out());
        assertTrue(help.err().lines().allMatch(l -> l.startsWith("Picked up JAVA_TOOL_OPTIONS")), help.err());
        final LaunchedJob.Result version = LaunchedJob.run(dir, DEADLINE_S, Map.of(), "--mpj", program, "--version");
        assertEquals(0, version.exitStatus(), version.err());
        assertTrue(version.out().matches("pinmx \\S+, ABI [0-9]+, pinmx\\.ko .*\n"), version.out());
    }
}
