package io.pinmx.bench;

import io.pinmx.job.LaunchedJob;
import io.pinmx.job.MpirunJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * IMB PingPong with its two ranks started by Open MPI's mpirun, meeting through its PMIx server: the full table,
 * and no bootstrap file under HOME.
 */
class PmixPingPongTest
{
    private static final long RUN_DEADLINE_S = 180;
    private static final int LAST_SIZE_LOG = 4;

    @TempDir
    Path dir;

    @Test
    void pingPongPrintsEverySizeOverPmix() throws Exception
    {
        MpirunJob.assumeMpirun();
        final LaunchedJob.Result job = MpirunJob.run(dir, "", RUN_DEADLINE_S, Map.of(), 2,
            "PingPong", "-msglog", "0:" + LAST_SIZE_LOG, "-iter", "20");
        assertEquals(0, job.exitStatus(), job.err());
        final long rows = job.out().lines().filter(l -> l.matches(" +\\d+ +\\d+ +[0-9.]+ +[0-9.]+ *")).count();
        assertEquals(LAST_SIZE_LOG + 2, rows, job.out() + job.err());
        assertFalse(Files.exists(dir.resolve("home").resolve(".pinmx")), "a bootstrap file was made under HOME");
    }
}
