package io.pinmx.kerneltests;

import io.pinmx.mpj.programs.Collectives;
import io.pinmx.mpj.programs.Objects;
import io.pinmx.mpj.programs.PointToPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * MPJ Express programs on pinmx.ko: {@code bin/pinmx-run -np 2 --driver kernel --mpj} runs mpj-device's test
 * programs (point-to-point at every size class to 4 MiB, collectives, object messages) and NPB IS class S with
 * two ranks over {@code lo}, each rank's device on the kernel provider.
 */
class KernelMpjTest
{
    private static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    private static final long RUN_DEADLINE_S = 900;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(classes = {PointToPoint.class, Collectives.class, Objects.class})
    void programRunsOnBothRanks(final Class<?> program) throws Exception
    {
        KernelDevices.requireDevice();
        final String ok = program.getSimpleName() + " OK";
        final String[] run = launch(program.getName());
        assertEquals(ok, run[0].trim(), run[1]);
        assertTrue(run[1].lines().anyMatch(("[rank 1] " + ok)::equals), "rank 1 did not finish:\n" + run[1]);
    }

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
        final List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "-np", "2", "--driver", "kernel",
            "--peer-timeout", "120", "--mpj", mainClass));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        // Under TCG the ranks, like this JVM, do better with C1 only and one GC thread.
        pb.environment().put("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        final Process p = pb.start();
        if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(mainClass + " did not finish within " + RUN_DEADLINE_S + " s:\n" + Files.readString(dir.resolve("err")));
        }
        final String out = Files.readString(dir.resolve("out"));
        final String err = Files.readString(dir.resolve("err"));
        assertEquals(0, p.exitValue(), out + err);
        return new String[]{out, err};
    }
}
