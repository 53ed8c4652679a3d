package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.rma.RmaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * rma on pinmx.ko with a passive target: a job of 2 rank JVMs on the kernel provider with the shared-memory tier off
 * ({@link KernelRmaJob}, {@link PassiveTargetRanks}); once the target rank allocated its slice it is stopped with
 * SIGSTOP (every thread in state T), and the origin's puts (contiguous, strided, vector), int and long accumulates,
 * fetch-and-adds and swaps (every old value checked) and a fence must all complete while it stays stopped: the module
 * applies them in softirq, no thread of the target runs. After SIGCONT the target's slice must be exactly the
 * expected image, as the target reads it and as the origin gets it. Then an access epoch on the running target holds
 * the origin's module writes back until it ends ({@link PassiveEpochCheck}). Over {@code lo} and across a veth pair.
 */
class RmaPassiveTargetKernelTest
{
    private static final long JOB_DEADLINE_S = 600;
    /** Start-up and the cost model's quick measurement under TCG, before the target says it is ready. */
    private static final long READY_DEADLINE_NS = TimeUnit.SECONDS.toNanos(400);
    /** Every operation and the fence on the stopped target: seconds normally, bounded for a loaded TCG guest. */
    private static final long ORIGIN_DEADLINE_NS = TimeUnit.SECONDS.toNanos(240);
    /** The origin must not take the stopped target for dead meanwhile. */
    private static final String PEER_TIMEOUT_MS = "300000";

    @TempDir
    Path dir;

    @Test
    void operationsOnAStoppedTargetCompleteOverLoopback() throws Exception
    {
        requireRemoteWrites();
        job().runOverLoopback();
    }

    @Test
    void operationsOnAStoppedTargetCompleteAcrossAVethPair() throws Exception
    {
        requireRemoteWrites();
        job().runAcrossTheRmaVethPair();
    }

    private KernelRmaJob job()
    {
        return new KernelRmaJob(dir, PassiveTargetRanks.class.getName(), List.of("passive", dir.toString()),
            JOB_DEADLINE_S, PEER_TIMEOUT_MS).environment(RmaOptions.DRIVER_WRITES_VARIABLE, "1")
            .whileRunning(this::stopTargetWhileOriginWorks);
    }

    private void stopTargetWhileOriginWorks(final Process origin, final Process target)
        throws IOException, InterruptedException
    {
        awaitFile(PassiveTargetRanks.TARGET_READY, READY_DEADLINE_NS, origin, target);
        StoppedProcesses.stop(target.pid());
        try
        {
            Files.createFile(dir.resolve(PassiveTargetRanks.TARGET_STOPPED));
            awaitFile(PassiveTargetRanks.ORIGIN_DONE, ORIGIN_DEADLINE_NS, origin, target);
            assertTrue(StoppedProcesses.allThreadsStopped(target.pid()),
                "the target ran while the origin's operations completed");
        }
        finally
        {
            StoppedProcesses.resume(target.pid());
            Files.deleteIfExists(dir.resolve(PassiveTargetRanks.TARGET_STOPPED));
        }
    }

    /** Waits for the file a rank creates; fails if the deadline passes or a rank ends first. */
    private void awaitFile(final String name, final long timeoutNs, final Process origin, final Process target)
        throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (!Files.exists(dir.resolve(name)))
        {
            if (!origin.isAlive() || !target.isAlive())
            {
                fail("a rank ended before " + name + ": " + ranksOutput());
            }
            if (System.nanoTime() - deadline > 0)
            {
                fail("no " + name + " within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s: " + ranksOutput());
            }
            Thread.sleep(20);
        }
    }

    private String ranksOutput() throws IOException
    {
        return Files.readString(dir.resolve("rank0.out")) + Files.readString(dir.resolve("rank0.err")) +
            Files.readString(dir.resolve("rank1.err"));
    }

    private static void requireRemoteWrites()
    {
        KernelRmaJob.requireKernelPulls();
        try (KernelEndpoint probe = (KernelEndpoint)KernelDevices.requireDevice().open(KernelDevices.config(201)))
        {
            assumeTrue(probe.info().has(DriverFeature.REMOTE_WRITE) && probe.info().has(DriverFeature.REMOTE_ATOMIC),
                () -> "pinmx.ko lacks NET_PUT or NET_ATOMIC: " + probe.info().chosenBecause());
        }
    }
}
