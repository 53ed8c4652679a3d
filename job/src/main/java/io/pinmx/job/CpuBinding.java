package io.pinmx.job;

import io.pinmx.pin.provider.LibcScheduling;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Binds the calling thread to one CPU of those it may run on (sched_setaffinity through {@link LibcScheduling}),
 * and gives the old set back on {@link #close}.
 * <p>
 * Why: a transport whose ranks busy-poll needs one core per rank. Left to the scheduler, two ranks that met in
 * blocking socket reads during the bootstrap are woken onto the same CPU and stay there, both runnable, for
 * seconds while the other CPU idles; every message then waits for the receiver's turn on the shared core,
 * which multiplies a small message's time. MPI launchers bind ranks to cores for the same reason. Blocking
 * transports are better left unbound: the scheduler wakes a blocked receiver on the sender's core.
 */
public final class CpuBinding implements AutoCloseable
{
    private final Arena arena;
    private final MemorySegment previous;
    private final int cpu;
    private final int allowedCpus;

    private CpuBinding(final Arena arena, final MemorySegment previous, final int cpu, final int allowedCpus)
    {
        this.arena = arena;
        this.previous = previous;
        this.cpu = cpu;
        this.allowedCpus = allowedCpus;
    }

    /**
     * Binds the calling thread to the {@code index}-th (modulo their count) CPU of those it may run on now.
     *
     * @throws IllegalStateException naming the CPU, the call and errno if the kernel refuses.
     */
    public static CpuBinding bindCurrentThread(final int index)
    {
        if (index < 0)
        {
            throw new IllegalArgumentException("CPU index " + index + " is negative");
        }
        final int[] cpus = allowedCpuList();
        return bindCurrentThreadTo(cpus[index % cpus.length]);
    }

    /**
     * Binds the calling thread to {@code cpu}, one of those it may run on now.
     *
     * @throws IllegalStateException naming the CPU, the call and errno if the kernel refuses.
     */
    public static CpuBinding bindCurrentThreadTo(final int cpu)
    {
        final Arena arena = Arena.ofConfined();
        try
        {
            final MemorySegment previous = LibcScheduling.allocateCpuSet(arena);
            LibcScheduling.getAffinity(LibcScheduling.CALLING_THREAD, previous);
            final int allowed = LibcScheduling.count(previous);
            final MemorySegment mask = LibcScheduling.allocateCpuSet(arena);
            LibcScheduling.only(mask, cpu);
            try
            {
                LibcScheduling.setAffinity(LibcScheduling.CALLING_THREAD, mask);
            }
            catch (final IllegalStateException ex)
            {
                throw new IllegalStateException("binding to CPU " + cpu + ": " + ex.getMessage(), ex);
            }
            return new CpuBinding(arena, previous, cpu, allowed);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
    }

    /**
     * @return the CPUs the calling thread may run on, in ascending order.
     */
    public static int[] allowedCpuList()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment mask = LibcScheduling.allocateCpuSet(arena);
            LibcScheduling.getAffinity(LibcScheduling.CALLING_THREAD, mask);
            final int[] cpus = new int[LibcScheduling.count(mask)];
            for (int i = 0; i < cpus.length; i++)
            {
                cpus[i] = LibcScheduling.nthCpu(mask, i);
            }
            return cpus;
        }
    }

    /**
     * @return how many CPUs the calling thread may run on.
     */
    public static int allowedCpusOfThisThread()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment mask = LibcScheduling.allocateCpuSet(arena);
            LibcScheduling.getAffinity(LibcScheduling.CALLING_THREAD, mask);
            return LibcScheduling.count(mask);
        }
    }

    public int cpu()
    {
        return cpu;
    }

    public int allowedCpus()
    {
        return allowedCpus;
    }

    /**
     * Gives the thread its previous CPU set back; must run on the bound thread.
     *
     * @throws IllegalStateException naming the CPU, the call and errno if the kernel refuses.
     */
    @Override
    public void close()
    {
        try
        {
            LibcScheduling.setAffinity(LibcScheduling.CALLING_THREAD, previous);
        }
        catch (final IllegalStateException ex)
        {
            throw new IllegalStateException("restoring the CPUs of a thread bound to CPU " + cpu + ": " +
                ex.getMessage(), ex);
        }
        finally
        {
            arena.close();
        }
    }
}
