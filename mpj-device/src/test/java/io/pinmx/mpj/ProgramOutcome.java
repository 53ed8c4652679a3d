package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a 2-rank job of one of {@code io.pinmx.mpj.programs} passed: exit status 0, "NAME OK" alone on rank 0's
 * stdout, and rank 1's "NAME OK" on the job's prefixed stderr.
 */
final class ProgramOutcome
{
    private ProgramOutcome()
    {
    }

    static void assertBothRanksPassed(final LaunchedJob.Result run, final String program)
    {
        assertEquals(0, run.exitStatus(), run.err());
        assertEquals(program + " OK", run.out().trim(), run.err());
        assertTrue(run.err().lines().anyMatch(("[rank 1] " + program + " OK")::equals), run.err());
    }
}
