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
import io.pinmx.mpj.programs.Programs;
import io.pinmx.mpj.programs.Reinit;
import io.pinmx.mpj.programs.Traffic;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MPJ test programs run as real JVMs by {@code bin/pinmx-run --mpj} on the device, with 2 and 4 ranks: every
 * rank must finish every program with its "OK" line (a failed check inside a program ends its rank with the check's
 * message). The programs run one after another in one job per rank count ({@link Programs}), each initing and
 * finalizing MPJ itself.
 */
class MpjProgramsTest
{
    /** MPJ programs start several JVMs each; under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 900;
    private static final List<Class<?>> PROGRAMS = List.of(PointToPoint.class, Collectives.class, Objects.class,
        Reinit.class, Datatypes.class, Modes.class, Communicators.class, MoreCollectives.class,
        ObjectCollectives.class, Traffic.class, DirectDevice.class);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "every program on {0} ranks")
    @ValueSource(ints = {2, 4})
    void everyRankFinishesEveryProgram(final int ranks) throws Exception
    {
        final String mains = PROGRAMS.stream().map(Class::getName).collect(Collectors.joining(","));
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", Integer.toString(ranks),
            "--mpj", Programs.class.getName(), mains);
        final List<String> oks = PROGRAMS.stream().map(c -> c.getSimpleName() + " OK").toList();
        assertEquals(0, run.exitStatus(), run.err());
        assertEquals(oks, run.out().lines().toList(), run.err());
        for (int rank = 1; rank < ranks; rank++)
        {
            final String prefix = "[rank " + rank + "] ";
            final List<String> said = run.err().lines().filter(l -> l.startsWith(prefix) && l.endsWith(" OK")).toList();
            assertEquals(oks.stream().map(prefix::concat).toList(), said, run.err());
        }
    }
}
