package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.rma.RmaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
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
 * rma's mutexes on a passive host: a job of 3 rank JVMs on the kernel provider with the shared-memory tier off
 * ({@link KernelRmaJob}, {@link PassiveMutexRanks}), every rank a passive target. Once the host rank created its
 * mutexes and counters it is stopped with SIGSTOP (every thread in state T); the two other ranks' lock, get, put,
 * unlock cycles (by lock, tryLock and address-range locks), a refused tryLock, a hand-off to a waiter and a refused
 * unlock must all complete while it stays stopped; after SIGCONT the counters must be exact. Over {@code lo}, and
 * with {@code -Dpinmx.mutex.kernel.bridge=true} in {@code PINMX_VM_JAVA_OPTS} also with each rank in a namespace of
 * its own on a bridge (another 3-rank start-up and cost model under TCG: minutes).
 */
class RmaPassiveMutexKernelTest
{
    private static final long JOB_DEADLINE_S = 1800;
    /** Start-up and the cost model's quick measurement of 3 ranks under TCG on a loaded host, before the host is ready. */
    private static final long READY_DEADLINE_NS = TimeUnit.SECONDS.toNanos(900);
    /** Every cycle on the stopped host: tens of seconds normally, bounded for a loaded TCG guest. */
    private static final long WORKERS_DEADLINE_NS = TimeUnit.SECONDS.toNanos(600);
    /** The workers must not take the stopped host for dead meanwhile. */
    private static final String PEER_TIMEOUT_MS = "600000";

    @TempDir
    Path dir;

    @Test
    void cyclesOnAStoppedHostsMutexesCompleteOverLoopback() throws Exception
    {
        requireRemoteAtomics();
        job().runOverLoopback();
    }

    /** Every rank in a namespace of its own on a bridge: tickets, grants and wake-ups are frames across it. */
    @Test
    @EnabledIfSystemProperty(named = "pinmx.mutex.kernel.bridge", matches = "true")
    void cyclesOnAStoppedHostsMutexesCompleteAcrossABridge() throws Exception
    {
        requireRemoteAtomics();
        job().runAcrossABridge("pmxm", 215);
    }

    private KernelRmaJob job()
    {
        return new KernelRmaJob(dir, PassiveMutexRanks.class.getName(), List.of("mutex", dir.toString()),
            JOB_DEADLINE_S, PEER_TIMEOUT_MS).ranks(3).environment(RmaOptions.DRIVER_WRITES_VARIABLE, "1")
            .whileRanksRun(this::stopHostWhileWorkersCycle);
    }

    private void stopHostWhileWorkersCycle(final List<Process> ranks) throws IOException, InterruptedException
    {
        final Process host = ranks.get(PassiveMutexRanks.HOST);
        awaitFile(PassiveMutexRanks.HOST_READY, READY_DEADLINE_NS, ranks);
        StoppedProcesses.stop(host.pid());
        try
        {
            Files.createFile(dir.resolve(PassiveMutexRanks.HOST_STOPPED));
            awaitFile(PassiveMutexRanks.WORKERS_DONE, WORKERS_DEADLINE_NS, ranks);
            assertTrue(StoppedProcesses.allThreadsStopped(host.pid()),
                "the host ran while the workers' cycles completed");
        }
        finally
        {
            StoppedProcesses.resume(host.pid());
            Files.deleteIfExists(dir.resolve(PassiveMutexRanks.HOST_STOPPED));
        }
    }

    /** Waits for the file a rank creates; fails if the deadline passes or a rank ends first. */
    private void awaitFile(final String name, final long timeoutNs, final List<Process> ranks)
        throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (!Files.exists(dir.resolve(name)))
        {
            if (ranks.stream().anyMatch(r -> !r.isAlive()))
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
        final StringBuilder out = new StringBuilder(Files.readString(dir.resolve("rank0.out")));
        for (int r = 0; r < 3; r++)
        {
            out.append(Files.readString(dir.resolve("rank" + r + ".err")));
        }
        return out.toString();
    }

    private static void requireRemoteAtomics()
    {
        KernelRmaJob.requireKernelPulls();
        try (KernelEndpoint probe = (KernelEndpoint)KernelDevices.requireDevice().open(KernelDevices.config(202)))
        {
            assumeTrue(probe.info().has(DriverFeature.PASSIVE_WRITES),
                () -> "pinmx.ko lacks NET_PUT or NET_ATOMIC: " + probe.info().chosenBecause());
        }
    }
}
