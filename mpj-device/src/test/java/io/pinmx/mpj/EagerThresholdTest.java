package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.EagerThreshold;
import mpjbuf.Buffer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;

/**
 * The device's eager threshold ({@link PinmxDevice#EAGER_MAX_BYTES}) at threshold - 1, threshold and threshold + 1
 * bytes of endpoint message, on both paths between two ranks of one host: the shared-memory ring
 * ({@code PINMX_SAME_HOST=1}) and UDP ({@code 0}). Sends up to it complete before their receive is posted, the one
 * past it only after; every message arrives intact.
 */
class EagerThresholdTest
{
    private static final long RUN_DEADLINE_S = 600;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "PINMX_SAME_HOST={0}")
    @ValueSource(strings = {"1", "0"})
    void sendsUpToTheThresholdAreEagerAndThePastOneRendezvous(final String sameHost) throws Exception
    {
        // A byte message's endpoint length: the device's header, MPJ's section header, then the bytes.
        final int overhead = MessageHeader.BYTES + Buffer.SECTION_OVERHEAD;
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of("PINMX_SAME_HOST", sameHost),
            "-np", "2", "--mpj", EagerThreshold.class.getName(), Integer.toString(PinmxDevice.EAGER_MAX_BYTES),
            Integer.toString(overhead));
        ProgramOutcome.assertBothRanksPassed(run, "EagerThreshold");
    }
}
