package io.pinmx.job;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Binds the calling thread to one CPU of those it may run on (sched_setaffinity through FFM), and gives the old
 * set back on {@link #close}.
 * <p>
 * Why: a transport whose ranks busy-poll needs one core per rank. Left to the scheduler, two ranks that met in
 * blocking socket reads during the bootstrap are woken onto the same CPU and stay there, both runnable, for
 * seconds while the other CPU idles (seen on this 2-vCPU host with ps: both benchmark threads on cpu1); every
 * message then waits for the receiver's turn on the shared core (8 B half round trip 25-28 us instead of
 * 1.2 us). MPI launchers bind ranks to cores for the same reason. Blocking transports are better left unbound:
 * the scheduler wakes a blocked receiver on the sender's core.
 */
public final class CpuBinding implements AutoCloseable
{
    /** cpu_set_t of glibc: 1024 CPUs. */
    private static final int CPU_SET_BYTES = 128;
    private static final MethodHandle SCHED_GETAFFINITY;
    private static final MethodHandle SCHED_SETAFFINITY;
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
        CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    static
    {
        final Linker linker = Linker.nativeLinker();
        final FunctionDescriptor affinity = FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
        final Linker.Option errno = Linker.Option.captureCallState("errno");
        SCHED_GETAFFINITY = linker.downcallHandle(
            linker.defaultLookup().find("sched_getaffinity").orElseThrow(), affinity, errno);
        SCHED_SETAFFINITY = linker.downcallHandle(
            linker.defaultLookup().find("sched_setaffinity").orElseThrow(), affinity, errno);
    }

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
     * @throws IllegalStateException naming the call and errno if the kernel refuses.
     */
    public static CpuBinding bindCurrentThread(final int index)
    {
        if (index < 0)
        {
            throw new IllegalArgumentException("CPU index " + index + " is negative");
        }
        final Arena arena = Arena.ofConfined();
        try
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment previous = arena.allocate(CPU_SET_BYTES, 8);
            call(SCHED_GETAFFINITY, state, previous, "sched_getaffinity");
            final int allowed = count(previous);
            final int cpu = nthSetBit(previous, index % allowed);
            final MemorySegment mask = arena.allocate(CPU_SET_BYTES, 8);
            mask.set(ValueLayout.JAVA_LONG, (cpu / 64) * 8L, 1L << (cpu % 64));
            call(SCHED_SETAFFINITY, state, mask, "sched_setaffinity(CPU " + cpu + ")");
            return new CpuBinding(arena, previous, cpu, allowed);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
    }

    /**
     * @return how many CPUs the calling thread may run on.
     */
    public static int allowedCpusOfThisThread()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment mask = arena.allocate(CPU_SET_BYTES, 8);
            call(SCHED_GETAFFINITY, state, mask, "sched_getaffinity");
            return count(mask);
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

    /** Gives the thread its previous CPU set back; must run on the bound thread. */
    @Override
    public void close()
    {
        try
        {
            call(SCHED_SETAFFINITY, arena.allocate(CALL_STATE), previous, "sched_setaffinity(restore)");
        }
        finally
        {
            arena.close();
        }
    }

    private static int count(final MemorySegment mask)
    {
        int cpus = 0;
        for (long offset = 0; offset < CPU_SET_BYTES; offset += 8)
        {
            cpus += Long.bitCount(mask.get(ValueLayout.JAVA_LONG, offset));
        }
        return cpus;
    }

    private static int nthSetBit(final MemorySegment mask, final int n)
    {
        int seen = 0;
        for (int cpu = 0; cpu < CPU_SET_BYTES * 8; cpu++)
        {
            if (0 != (mask.get(ValueLayout.JAVA_LONG, (cpu / 64) * 8L) & (1L << (cpu % 64))) && seen++ == n)
            {
                return cpu;
            }
        }
        throw new IllegalStateException("CPU mask has fewer than " + (n + 1) + " CPUs");
    }

    private static void call(final MethodHandle handle, final MemorySegment state, final MemorySegment mask,
        final String what)
    {
        final int rc;
        try
        {
            rc = (int)handle.invokeExact(state, 0, (long)CPU_SET_BYTES, mask);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(what + ": downcall failed", t);
        }
        if (0 != rc)
        {
            throw new IllegalStateException(what + " failed: errno " + (int)ERRNO.get(state, 0L));
        }
    }
}
