package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.ArrivalWake;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;

/**
 * A blocking receive ends when its message arrives, even when the device moves the receive on between the waiter's
 * look at it and its block (with the progress thread the message can complete in that gap): every one of 4000
 * iterations of {@link ArrivalWake}'s computation, Allreduce and Alltoall ends within 90 % of the heartbeat interval,
 * which a waiter blocked on a request that is over stays blocked, in both progress modes.
 */
class ArrivalWakeTest
{
    private static final long RUN_DEADLINE_S = 300;
    private static final int ITERATIONS = 4000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "progress {0}")
    @ValueSource(strings = {"caller", "thread"})
    void everyReceiveEndsWhenItsMessageArrives(final String progress) throws Exception
    {
        final long limitMs = PinmxDevice.HEARTBEAT_INTERVAL.toMillis() * 9 / 10;
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(DeviceProgress.VARIABLE, progress),
            "-np", "2", "--mpj", ArrivalWake.class.getName(), Integer.toString(ITERATIONS), Long.toString(limitMs));
        ProgramOutcome.assertBothRanksPassed(run, "ArrivalWake");
    }
}
