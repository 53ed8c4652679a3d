package io.pinmx.kerneltests;

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

/**
 * Runs the passive target's benchmarks ({@link PassiveTargetBench}) over {@code lo}, kernel code against kernel code
 * in one boot, only when selected ({@code PINMX_VM_JAVA_SELECT}): its name is outside the test launchers' patterns, so
 * neither the host's build nor the VM's scan runs it (minutes under TCG). Their figures are the "# " lines the job prints; a rank that
 * fails, a fetched value out of order or a target that ran while stopped fails the run.
 */
class RmaPassiveTargetBench
{
    private static final long JOB_DEADLINE_S = 1200;
    private static final long FILE_DEADLINE_NS = TimeUnit.SECONDS.toNanos(900);
    private static final String PEER_TIMEOUT_MS = "300000";

    @TempDir
    Path dir;

    @Test
    void passiveTargetStridedPutsAndSmallOperationsStoppedAndRunning() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        new KernelRmaJob(dir, PassiveTargetBench.class.getName(), List.of("passive", dir.toString()), JOB_DEADLINE_S,
            PEER_TIMEOUT_MS).environment(RmaOptions.DRIVER_WRITES_VARIABLE, "1")
            .whileRunning(this::stopTargetWhileOriginTimes).runOverLoopback();
    }

    @Test
    void smallOperationsThroughTheDataServer() throws Exception
    {
        KernelRmaJob.requireKernelPulls();
        new KernelRmaJob(dir, PassiveTargetBench.class.getName(), List.of("server", dir.toString()), JOB_DEADLINE_S,
            PEER_TIMEOUT_MS).environment(RmaOptions.DRIVER_WRITES_VARIABLE, "0").runOverLoopback();
    }

    private void stopTargetWhileOriginTimes(final Process origin, final Process target)
        throws IOException, InterruptedException
    {
        awaitFile(PassiveTargetBench.READY, origin, target);
        StoppedProcesses.stop(target.pid());
        try
        {
            Files.createFile(dir.resolve(PassiveTargetBench.STOPPED));
            awaitFile(PassiveTargetBench.DONE, origin, target);
            assertTrue(StoppedProcesses.allThreadsStopped(target.pid()), "the target ran while it was to be stopped");
        }
        finally
        {
            StoppedProcesses.resume(target.pid());
            Files.deleteIfExists(dir.resolve(PassiveTargetBench.STOPPED));
        }
    }

    private void awaitFile(final String name, final Process origin, final Process target)
        throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + FILE_DEADLINE_NS;
        while (!Files.exists(dir.resolve(name)))
        {
            if (!origin.isAlive() || !target.isAlive())
            {
                fail("a rank ended before " + name + ": " + Files.readString(dir.resolve("rank0.err")));
            }
            if (System.nanoTime() - deadline > 0)
            {
                fail("no " + name + " in time: " + Files.readString(dir.resolve("rank0.out")));
            }
            Thread.sleep(20);
        }
    }
}
