package io.pinmx.kerneltests;

import io.pinmx.apps.mg.MgOneSided;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * NAS MG class S one-sided ({@link MgOneSided}: halo faces moved by strided puts into the neighbours' ghost planes,
 * completed by fences) as 2 ranks on pinmx.ko with the shared-memory tier off, across a veth pair between namespaces
 * (the module's frames), and with {@code -Dpinmx.mg.kernel.loopback=true} in {@code PINMX_VM_JAVA_OPTS} also over
 * {@code lo} (its same-interface copies; ~2 more minutes of guest time): NPB's verification must succeed. Rank 0's
 * report is printed.
 */
@Tag(KernelDevices.CI_LANE_6_12)
class MgKernelTest
{
    /** Generous: when no other rma class ran first, each rank measures its cost model, minutes on a loaded host. */
    private static final long JOB_DEADLINE_S = 900;
    /** A rank in JIT warm-up under TCG can be silent for seconds. */
    private static final String PEER_TIMEOUT_MS = "20000";

    @TempDir
    Path dir;

    @Test
    @EnabledIfSystemProperty(named = "pinmx.mg.kernel.loopback", matches = "true")
    void mgClassSVerifiesOverLoopback() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job().runOverLoopback();
    }

    @Test
    void mgClassSVerifiesAcrossAVethPairBetweenNamespaces() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job().runAcrossTheRmaVethPair();
    }

    private KernelRmaJob job()
    {
        return new KernelRmaJob(dir, MgOneSided.class.getName(), List.of("S"),
            List.of(verificationLine()), JOB_DEADLINE_S, PEER_TIMEOUT_MS);
    }

    /** NPB's report line, as MgReport pads it. */
    private static String verificationLine()
    {
        return String.format(Locale.ROOT, "%-16s=%25s", "Verification", "SUCCESSFUL").trim();
    }
}
