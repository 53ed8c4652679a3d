package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.Collectives;
import io.pinmx.mpj.programs.Communicators;
import io.pinmx.mpj.programs.Datatypes;
import io.pinmx.mpj.programs.DirectDevice;
import io.pinmx.mpj.programs.Modes;
import io.pinmx.mpj.programs.MoreCollectives;
import io.pinmx.mpj.programs.ObjectCollectives;
import io.pinmx.mpj.programs.Objects;
import io.pinmx.mpj.programs.PointToPoint;
import io.pinmx.mpj.programs.Reinit;
import io.pinmx.mpj.programs.Traffic;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MPJ test programs run as real JVMs by {@code bin/pinmx-run --mpj} on the device, with 2 and 4 ranks: every
 * rank must finish with its "OK" line (a failed check inside a program ends its rank with the check's message).
 */
class MpjProgramsTest
{
    /** MPJ programs start several JVMs each; under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 900;

    @TempDir
    Path dir;

    static Stream<Arguments> programs()
    {
        return Stream.of(PointToPoint.class, Collectives.class, Objects.class, Reinit.class, Datatypes.class,
                Modes.class, Communicators.class, MoreCollectives.class, ObjectCollectives.class, Traffic.class,
                DirectDevice.class)
            .flatMap(c -> Stream.of(Arguments.of(c.getName(), 2), Arguments.of(c.getName(), 4)));
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("programs")
    void everyRankFinishesTheProgram(final String mainClass, final int ranks) throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", Integer.toString(ranks), "--mpj", mainClass);
        final String ok = mainClass.substring(mainClass.lastIndexOf('.') + 1) + " OK";
        assertEquals(0, run.exitStatus(), run.err());
        assertEquals(ok, run.out().trim(), run.err());
        for (int rank = 1; rank < ranks; rank++)
        {
            final String line = "[rank " + rank + "] " + ok;
            assertTrue(run.err().lines().anyMatch(line::equals), "missing '" + line + "' in\n" + run.err());
        }
    }
}
