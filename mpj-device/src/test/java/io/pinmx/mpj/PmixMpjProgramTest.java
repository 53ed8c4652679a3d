package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.job.MpirunJob;
import io.pinmx.mpj.programs.Collectives;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * An MPJ Express program on the device with its ranks started by Open MPI's mpirun (bin/pinmx-run --mpj per
 * rank), meeting through its PMIx server: every rank prints its "OK" line, nothing is made under HOME.
 */
class PmixMpjProgramTest
{
    private static final int RANKS = 2;
    private static final long RUN_DEADLINE_S = 300;

    @TempDir
    Path dir;

    @Test
    void collectivesRunsOverPmix() throws Exception
    {
        MpirunJob.assumeMpirun();
        final LaunchedJob.Result job = MpirunJob.run(dir, "", RUN_DEADLINE_S, Map.of(), RANKS, "--mpj",
            Collectives.class.getName());
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        assertEquals(RANKS, job.out().lines().filter("Collectives OK"::equals).count(), job.out() + job.err());
        assertFalse(Files.exists(dir.resolve("home").resolve(".pinmx")), "a bootstrap file was made under HOME");
    }
}
