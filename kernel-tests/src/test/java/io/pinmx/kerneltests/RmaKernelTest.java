package io.pinmx.kerneltests;

import io.pinmx.rma.RmaScenarios;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/**
 * The one-sided layer on pinmx.ko: rma's {@link RmaScenarios} (strided patches, concurrent accumulates, location
 * consistency, the fetch-and-add hammer and mutex counter, unilateral progress with gets served by the module alone
 * but the small blocking contiguous ones, which the target's data server answers, a killed rank) as a job of 2 rank JVMs on the kernel provider with the shared-memory tier off, in quick mode (a
 * twentieth of the repetitions: TCG is slow). Over {@code lo} (pulls are the module's same-interface copy), and across a
 * veth pair between network namespaces with rank 1 in its own (pulls are frames served in softirq). Each job prints
 * its time in the guest.
 */
@Tag(KernelDevices.CI_LANE_6_12)
class RmaKernelTest
{
    private static final String SCENARIOS = "strided,accumulate,consistency,rmw,unilateral,killed";
    /**
     * A hang's bound, not a speed target: under TCG the jobs take minutes, most of it the cost model's calibration
     * (measured quickly here: {@code PINMX_RMA_CALIBRATION=quick}, set by {@link KernelRmaJob}), and a slow host or
     * both kernels' VMs running at once can double that.
     */
    private static final long JOB_DEADLINE_S = 600;
    /** A rank in JIT warm-up under TCG can be silent for seconds; the killed rank is noticed after this. */
    private static final String PEER_TIMEOUT_MS = "8000";

    @TempDir
    Path dir;

    @Test
    void scenariosPassOverLoopback() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job().runOverLoopback();
    }

    @Test
    void scenariosPassAcrossAVethPairBetweenNamespaces() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job().runAcrossTheRmaVethPair();
    }

    private KernelRmaJob job()
    {
        return new KernelRmaJob(dir, RmaScenarios.class.getName(), List.of(SCENARIOS, "quick"), JOB_DEADLINE_S,
            PEER_TIMEOUT_MS);
    }
}
