package io.pinmx.pin.provider;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Threads for work no caller waits on, such as opening the node's counters file (the first Chronicle Map of a JVM
 * generates and compiles code: seconds of CPU). A thread inherits the CPU binding of the thread that starts it, and a
 * rank's threads are bound to the rank's one CPU; at normal priority such work then held that CPU while the rank's
 * own threads, woken by a frame, wait for the next scheduler tick, which makes every operation of a job's first
 * seconds milliseconds long. A background thread therefore runs under SCHED_IDLE (any other
 * thread that wakes takes the CPU from it at once) on every CPU the process may use. Where the kernel refuses
 * either, the work runs all the same, placed as the starting thread is (logged at DEBUG).
 */
public final class BackgroundThread
{
    private static final System.Logger LOG = System.getLogger(BackgroundThread.class.getName());

    private BackgroundThread()
    {
    }

    /**
     * Starts {@code task} on a daemon platform thread named {@code name}, placed as the class says.
     *
     * @return the started thread.
     */
    public static Thread start(final String name, final Runnable task)
    {
        return Thread.ofPlatform().daemon().name(name).start(() ->
        {
            stepAside(name);
            task.run();
        });
    }

    private static void stepAside(final String name)
    {
        final int errno = LibcScheduling.idlePolicyForCallingThread();
        if (0 != errno)
        {
            LOG.log(System.Logger.Level.DEBUG, () -> name + " keeps its scheduling policy: sched_setscheduler(" +
                "SCHED_IDLE) failed: " + Errno.describe(errno));
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment cpus = LibcScheduling.allocateCpuSet(arena);
            LibcScheduling.getAffinity(Libc.pid(), cpus);
            LibcScheduling.setAffinity(LibcScheduling.CALLING_THREAD, cpus);
        }
        catch (final IllegalStateException ex)
        {
            LOG.log(System.Logger.Level.DEBUG, () -> name + " keeps the CPUs of the thread that started it: " +
                ex.getMessage());
        }
    }
}
