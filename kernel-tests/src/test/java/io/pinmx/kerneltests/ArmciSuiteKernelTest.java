package io.pinmx.kerneltests;

import io.pinmx.rma.ArmciSuiteScenarios;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/**
 * What ARMCI's own test suites check, on pinmx.ko: rma's {@link ArmciSuiteScenarios} as a job of 2 rank JVMs on the
 * kernel provider with the shared-memory tier off, over {@code lo} (gets are the module's same-interface copy) and
 * across a veth pair between network namespaces with rank 1 in its own (gets are pulls served as frames in softirq).
 * The veth pair is the one every rma class uses ({@link KernelRmaJob#runAcrossTheRmaVethPair}), whose cost model the
 * first job across it in a guest measures.
 * <p>
 * CI runs this on two kernels under TCG, where a job's start-up alone takes many seconds, so by default the
 * scenarios that differ on the kernel provider are split between the two jobs: the get-heavy ones
 * across the veth, whose pulls are the module's frames, the data-server ones over {@code lo}; handles (gets completed
 * by test alone, by a free, packed and direct) and closepending (a close with pulls outstanding) on both. Left out:
 * zeroslices and mutexes (argument checks and data-server requests the others already exercise).
 * {@code -Darmci.kernel.scenarios=A,B} (or {@code all}: all twelve, which passed on 6.12 over both) in the guest
 * JVM's options ({@code PINMX_VM_JAVA_OPTS}) runs that list on both.
 */
@Tag(KernelDevices.CI_LANE_6_1)
class ArmciSuiteKernelTest
{
    private static final String ALL = "zeroslices,levels,vectors,acctypes,tickets,mutexes,handles,ordering,fence,crossslice,badinput,closepending";
    /** Strided gets of 0 to 8 levels and vector gets of 10000 pieces, direct and packed; puts then gets unfenced. */
    private static final String OVER_THE_VETH = "levels,vectors,handles,ordering,closepending";
    /** Accumulates of every type and form, fetch-and-add and swap, fences, exposed slices as buffers, bad input. */
    private static final String OVER_LOOPBACK = "acctypes,tickets,handles,fence,crossslice,badinput,closepending";
    private static final long JOB_DEADLINE_S = 400;
    /** A rank in JIT warm-up under TCG can be silent for seconds. */
    private static final String PEER_TIMEOUT_MS = "20000";

    @TempDir
    Path dir;

    @Test
    void armciSuitePassesOverLoopback() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job(OVER_LOOPBACK).runOverLoopback();
    }

    @Test
    void armciSuitePassesAcrossAVethPairBetweenNamespaces() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        job(OVER_THE_VETH).runAcrossTheRmaVethPair();
    }

    private KernelRmaJob job(final String byDefault)
    {
        final String chosen = System.getProperty("armci.kernel.scenarios", byDefault);
        return new KernelRmaJob(dir, ArmciSuiteScenarios.class.getName(), List.of("all".equals(chosen) ? ALL : chosen),
            JOB_DEADLINE_S, PEER_TIMEOUT_MS);
    }
}
