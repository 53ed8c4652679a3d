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
 * {@code -Darmci.kernel.scenarios=A,B} runs others than the default list.
 */
class ArmciSuiteKernelTest
{
    private static final String SCENARIOS = "zeroslices,levels,vectors,acctypes,tickets,mutexes,handles,ordering,fence,crossslice,badinput,closepending";
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
        job().runAcrossAVethPair("parm", 214);
    }

    private KernelRmaJob job()
    {
        return new KernelRmaJob(dir, ArmciSuiteScenarios.class.getName(),
            List.of(System.getProperty("armci.kernel.scenarios", SCENARIOS)), JOB_DEADLINE_S, PEER_TIMEOUT_MS);
    }
}
