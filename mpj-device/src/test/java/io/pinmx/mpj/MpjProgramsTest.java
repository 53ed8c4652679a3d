package io.pinmx.mpj;

import io.pinmx.mpj.programs.Collectives;
import io.pinmx.mpj.programs.Objects;
import io.pinmx.mpj.programs.PointToPoint;
import io.pinmx.mpj.programs.Reinit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The MPJ test programs run as real JVMs by {@code bin/pinmx-run --mpj} on the device, with 2 and 4 ranks: every
 * rank must finish with its "OK" line (a failed check inside a program ends its rank with the check's message).
 */
class MpjProgramsTest
{
    static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    private static final long RUN_DEADLINE_S = 300;

    @TempDir
    Path dir;

    static Stream<Arguments> programs()
    {
        return Stream.of(PointToPoint.class, Collectives.class, Objects.class, Reinit.class)
            .flatMap(c -> Stream.of(Arguments.of(c.getName(), 2), Arguments.of(c.getName(), 4)));
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("programs")
    void everyRankFinishesTheProgram(final String mainClass, final int ranks) throws Exception
    {
        final ProcessBuilder pb = new ProcessBuilder(
            List.of(LAUNCHER.toString(), "-np", Integer.toString(ranks), "--mpj", mainClass))
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        // Surefire's class path: the device's classes come ahead of mpj.jar (a system-scoped dependency).
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        final Process p = pb.start();
        if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(mainClass + " did not finish within " + RUN_DEADLINE_S + " s:\n" + Files.readString(dir.resolve("err")));
        }
        final String out = Files.readString(dir.resolve("out"));
        final String err = Files.readString(dir.resolve("err"));
        final String ok = mainClass.substring(mainClass.lastIndexOf('.') + 1) + " OK";
        assertEquals(0, p.exitValue(), err);
        assertEquals(ok, out.trim(), err);
        for (int rank = 1; rank < ranks; rank++)
        {
            final String line = "[rank " + rank + "] " + ok;
            assertTrue(err.lines().anyMatch(line::equals), "missing '" + line + "' in\n" + err);
        }
    }
}
