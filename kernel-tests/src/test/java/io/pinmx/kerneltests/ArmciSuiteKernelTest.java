package io.pinmx.kerneltests;

import io.pinmx.rma.ArmciSuiteScenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/**
 * What ARMCI's own test suites check, on pinmx.ko: rma's {@link ArmciSuiteScenarios} as a job of 2 rank JVMs on the
 * kernel provider with the shared-memory tier off, over {@code lo} (gets are the module's same-interface copy) and
 * across a veth pair between network namespaces with rank 1 in its own (gets are pulls served as frames in softirq).
 * The veth pair is named as {@link RmaKernelTest}'s so that whichever job runs second finds the rma cost model the
 * first measured for these interfaces (in the guest's {@code ~/.cache/pinmx}) and skips the calibration.
 * {@code -Darmci.kernel.scenarios=A,B} (or {@code all}) in the guest JVM's options runs others than the default list.
 */
class ArmciSuiteKernelTest
{
    /** Every scenario (all passed on 6.12 over lo and the veth: 26 s and 37 s of scenarios in the guest). */
    private static final String ALL = "zeroslices,levels,vectors,acctypes,tickets,mutexes,handles,ordering,fence,crossslice,badinput,closepending";
    /**
     * What differs on the kernel provider, for every CI run on both kernels: gets pulled by the module (strided and
     * vector, direct and packed, 0 to 8 levels, 10000 pieces), handles completed by test alone and gets completed by
     * a free, puts then gets without a fence, fences, accumulates and read-modify-writes served by the data server
     * over the module's frames, local buffers that are exposed slices, bad input, a close with pulls outstanding.
     * Left out (argument checks and data-server requests the others already exercise): zeroslices, mutexes.
     */
    private static final String SCENARIOS = "levels,vectors,acctypes,tickets,handles,ordering,fence,crossslice,badinput,closepending";
    private static final long JOB_DEADLINE_S = 400;
    /** A rank in JIT warm-up under TCG can be silent for seconds. */
    private static final String PEER_TIMEOUT_MS = "20000";

    @TempDir
    Path dir;

    @Test
    void armciSuitePassesOverLoopback() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job().runOverLoopback();
    }

    @Test
    void armciSuitePassesAcrossAVethPairBetweenNamespaces() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job().runAcrossAVethPair("prma", 213);
    }

    private KernelRmaJob job()
    {
        return new KernelRmaJob(dir, ArmciSuiteScenarios.class.getName(),
            List.of(scenarios()), JOB_DEADLINE_S, PEER_TIMEOUT_MS);
    }

    private static String scenarios()
    {
        final String chosen = System.getProperty("armci.kernel.scenarios", SCENARIOS);
        return "all".equals(chosen) ? ALL : chosen;
    }
}
