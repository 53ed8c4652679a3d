package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.ProbeWake;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;

/**
 * A blocked Probe wakes for another receive's arrival (that receive must ask for its rendezvous-sized object part
 * before its sender sends what the probe waits for): the median probe of {@link ProbeWake} returns within a quarter
 * of the heartbeat interval, the longest the device's probe waits in the endpoint with no receive pending, in both
 * progress modes.
 */
class ProbeWakeTest
{
    private static final long RUN_DEADLINE_S = 300;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "progress {0}")
    @ValueSource(strings = {"caller", "thread"})
    void aBlockedProbeWakesForAnotherReceivesArrival(final String progress) throws Exception
    {
        final long limitMs = PinmxDevice.HEARTBEAT_INTERVAL.toMillis() / 4;
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(DeviceProgress.VARIABLE, progress),
            "-np", "2", "--mpj", ProbeWake.class.getName(), Long.toString(limitMs));
        ProgramOutcome.assertBothRanksPassed(run, "ProbeWake");
    }
}
