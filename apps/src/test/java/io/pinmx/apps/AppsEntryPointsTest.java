package io.pinmx.apps;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application programs as a user meets them through {@code bin/pinmx-run}: {@code --help} prints the usage on
 * stdout and {@code --version} pinmx's version line, both from one process with exit status 0, the MPJ ones through
 * {@code --mpj} before MPI.Init. Their refusals of bad arguments are checked by each program's launcher test.
 */
class AppsEntryPointsTest
{
    private static final long DEADLINE_S = 120;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"io.pinmx.apps.mg.MgSerial, false, CLASS", "io.pinmx.apps.mg.MgOneSided, false, CLASS [put|get]",
        "io.pinmx.apps.mg.MgMessagePassing, true, CLASS", "io.pinmx.apps.spmv.SpmvOneSided, false, MODE",
        "io.pinmx.apps.matmul.SrummaOneSided, false, ORDER [CHUNK [AHEAD]]",
        "io.pinmx.apps.matmul.SummaMessagePassing, true, ORDER [CHUNK]"})
    void everyProgramAnswersHelpAndVersion(final String program, final boolean mpj, final String mentions)
        throws Exception
    {
        final LaunchedJob.Result help = LaunchedJob.run(dir, DEADLINE_S, Map.of(), command(program, mpj, "--help"));
        assertEquals(0, help.exitStatus(), help.err());
        assertTrue(help.out().startsWith("usage: bin/pinmx-run ") && help.out().contains(program), help.out());
        assertTrue(help.out().contains(mentions) && help.out().contains("exit status"), help.out());
        final LaunchedJob.Result version = LaunchedJob.run(dir, DEADLINE_S, Map.of(), command(program, mpj, "--version"));
        assertEquals(0, version.exitStatus(), version.err());
        assertTrue(version.out().matches("pinmx \\S+, ABI [0-9]+, pinmx\\.ko .*\n"), version.out());
    }

    private static String[] command(final String program, final boolean mpj, final String option)
    {
        final List<String> args = new ArrayList<>();
        if (mpj)
        {
            args.add("--mpj");
        }
        args.add(program);
        args.add(option);
        return args.toArray(String[]::new);
    }
}
