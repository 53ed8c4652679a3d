package io.pinmx.kerneltests;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.Collectives;
import io.pinmx.mpj.programs.Objects;
import io.pinmx.mpj.programs.PointToPoint;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * MPJ Express programs on pinmx.ko: {@code bin/pinmx-run -np 2 --driver kernel --mpj} runs mpj-device's test
 * programs (point-to-point at every size class to 4 MiB, collectives, object messages) and NPB IS class S with
 * two ranks over {@code lo}, each rank's device on the kernel provider. ./run-tests.sh runs the programs in the 6.1
 * lane and IS in the 6.12 lane, which has less guest time of its own.
 */
class KernelMpjTest
{
    /** MPJ programs start several JVMs each; under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 900;

    @TempDir
    Path dir;

    @Tag(KernelDevices.CI_LANE_6_1)
    @ParameterizedTest(name = "{0}")
    @ValueSource(classes = {PointToPoint.class, Collectives.class, Objects.class})
    void programRunsOnBothRanks(final Class<?> program) throws Exception
    {
        KernelDevices.requireDevice();
        // Collectives and object messages are MPJ's layers over the same point-to-point path: long variants.
        assumeTrue(program == PointToPoint.class || Boolean.getBoolean(KernelDevices.LONG_VARIANTS_PROPERTY),
            program.getSimpleName() + " runs with -D" + KernelDevices.LONG_VARIANTS_PROPERTY + "=true");
        final String ok = program.getSimpleName() + " OK";
        final String[] run = launch(program.getName());
        assertEquals(ok, run[0].trim(), run[1]);
        assertTrue(run[1].lines().anyMatch(("[rank 1] " + ok)::equals), "rank 1 did not finish:\n" + run[1]);
    }

    @Tag(KernelDevices.CI_LANE_6_12)
    @Test
    void integerSortClassSVerifies() throws Exception
    {
        KernelDevices.requireDevice();
        final String[] run = launch("io.pinmx.mpj.npb.IntegerSort", "S");
        assertTrue(run[0].lines().anyMatch(String.format(" %-16s=%25s", "Verification", "SUCCESSFUL")::equals),
            run[0] + run[1]);
    }

    /** Runs the program on 2 ranks of the kernel provider; fails unless the launcher exits 0. */
    private String[] launch(final String mainClass, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("-np", "2", "--driver", "kernel", "--peer-timeout", "120",
            "--mpj", mainClass));
        command.addAll(List.of(args));
        // Under TCG the ranks, like this JVM, do better with C1 only and one GC thread.
        final LaunchedJob.Result run = LaunchedJob.finish(LaunchedJob.start(dir, "",
            Map.of("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"), command), dir, RUN_DEADLINE_S);
        assertEquals(0, run.exitStatus(), run.out() + run.err());
        return new String[]{run.out(), run.err()};
    }
}
