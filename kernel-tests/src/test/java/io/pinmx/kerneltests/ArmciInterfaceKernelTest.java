package io.pinmx.kerneltests;

import io.pinmx.rma.ArmciInterfaceScenarios;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/**
 * The parts of ARMCI's interface beyond its test suites, on pinmx.ko: rma's {@link ArmciInterfaceScenarios} as a job
 * of 2 rank JVMs on the kernel provider with the shared-memory tier off, over {@code lo} and across the veth pair
 * {@link RmaKernelTest} and {@link ArmciSuiteKernelTest} use (so the cost model measured for them is reused).
 * <p>
 * By default both jobs run {@code groups} (allocation, puts, accumulates, fetch-and-add, mutexes and reductions over a
 * group, and the refusals of a rank outside it) and {@code anywhere} (vector gets, puts and accumulates whose local
 * pieces lie in different segments, direct and packed: over the veth the gets are the module's pull frames into
 * them); across the veth also {@code manygets} (2,000 gets on one aggregate handle: pull frames held back under the
 * driver's limit) and {@code notify} (non-blocking puts the driver writes, then a notification that must land after
 * them), over {@code lo} {@code nbvalues} and {@code lockmem}, requests to the data server that cost little.
 * {@code reductions} and {@code epochs} are left out: they use only what these jobs exercise already (group
 * collectives, puts, accumulates). {@code -Darmci.kernel.interface.scenarios=A,B} (or {@code all}) in
 * {@code PINMX_VM_JAVA_OPTS} runs that list on both.
 */
@Tag(KernelDevices.CI_LANE_6_12)
class ArmciInterfaceKernelTest
{
    private static final String ALL = "nbvalues,reductions,anywhere,groups,epochs,lockmem,manygets,notify";
    private static final String OVER_THE_VETH = "anywhere,groups,manygets,notify";
    private static final String OVER_LOOPBACK = "anywhere,groups,nbvalues,lockmem";
    /** Generous: when no other rma class ran first, each rank measures its cost model, minutes on a loaded host. */
    private static final long JOB_DEADLINE_S = 900;
    /** A rank in JIT warm-up under TCG can be silent for seconds. */
    private static final String PEER_TIMEOUT_MS = "20000";

    @TempDir
    Path dir;

    @Test
    void armciInterfaceWorksOverLoopback() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job(OVER_LOOPBACK).runOverLoopback();
    }

    @Test
    void armciInterfaceWorksAcrossAVethPairBetweenNamespaces() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job(OVER_THE_VETH).runAcrossTheRmaVethPair();
    }

    private KernelRmaJob job(final String byDefault)
    {
        final String chosen = System.getProperty("armci.kernel.interface.scenarios", byDefault);
        return new KernelRmaJob(dir, ArmciInterfaceScenarios.class.getName(),
            List.of("all".equals(chosen) ? ALL : chosen), JOB_DEADLINE_S, PEER_TIMEOUT_MS);
    }
}
