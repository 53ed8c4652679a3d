package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.EagerFlood;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 200 eager messages in flight from every rank to each of its 3 partners and back, 4 ranks on one host kept busy by
 * two spinning threads per CPU: the partners' shared-memory rings fill while every rank sends, and a rank whose
 * partner's ring is full must still drain its own, or each waits on the others' full rings. The job completes with
 * every message intact and no rank given up, with the device's caller-driven progress and with a progress thread.
 */
class EagerFloodTest
{
    private static final int RANKS = 4;
    private static final int PER_PARTNER = 200;
    /** Shorter than the default, so that a rank silenced by the others' full rings would be given up sooner. */
    private static final long PEER_TIMEOUT_MS = 2000;
    private static final int HOGS_PER_CPU = 2;
    private static final long RUN_DEADLINE_S = 600;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "progress {0}")
    @ValueSource(strings = {"caller", "thread"})
    void everyMessageArrivesUnderLoad(final String progress) throws Exception
    {
        final LaunchedJob.Result run;
        try (CpuHogs ignored = new CpuHogs(HOGS_PER_CPU))
        {
            run = LaunchedJob.run(dir, RUN_DEADLINE_S,
                Map.of("PINMX_PEER_TIMEOUT_MS", Long.toString(PEER_TIMEOUT_MS), DeviceProgress.VARIABLE, progress),
                "-np", Integer.toString(RANKS), "--mpj", EagerFlood.class.getName(), Integer.toString(PER_PARTNER));
        }
        assertEquals(0, run.exitStatus(), run.err());
        assertEquals("EagerFlood OK", run.out().trim(), run.err());
        run.err().lines().filter(line -> line.contains("EagerFlood: ")).forEach(System.out::println);
        for (int rank = 1; rank < RANKS; rank++)
        {
            final String line = "[rank " + rank + "] EagerFlood OK";
            assertTrue(run.err().lines().anyMatch(line::equals), "missing '" + line + "' in\n" + run.err());
        }
    }
}
