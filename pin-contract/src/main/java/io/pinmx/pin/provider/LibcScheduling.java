package io.pinmx.pin.provider;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The FFM downcalls that place a thread: sched_getaffinity/sched_setaffinity over glibc's {@code cpu_set_t} (1,024
 * CPUs), sched_setscheduler to SCHED_IDLE, and sched_getattr/sched_setattr (through syscall(2): glibc wraps them
 * only from 2.41) for a thread's own time slice. Linux applies each to one thread: id 0 is the calling thread, the
 * process id its first thread (the launcher's, which no pinmx code binds). Setup calls, so errno is always captured.
 */
public final class LibcScheduling
{
    /** Bytes of glibc's cpu_set_t. */
    public static final int CPU_SET_BYTES = 128;
    /** Thread id of the calling thread in the sched_* calls. */
    public static final int CALLING_THREAD = 0;
    /** Linux's policy for work that runs only where nothing else wants the CPU. */
    static final int SCHED_IDLE = 5;
    /** Shortest time slice Linux lets a fair thread ask for (sched_setattr clamps it to 0.1..100 ms). */
    public static final long MIN_SLICE_NS = 100_000;
    /** Longest time slice Linux lets a fair thread ask for. */
    public static final long MAX_SLICE_NS = 100_000_000;

    private static final int SCHED_OTHER = 0;
    private static final int SCHED_BATCH = 3;
    private static final long SYS_SCHED_SETATTR_X86_64 = 314;
    private static final long SYS_SCHED_GETATTR_X86_64 = 315;
    /** SCHED_ATTR_SIZE_VER0: struct sched_attr up to sched_period, without the utilisation clamps. */
    private static final int SCHED_ATTR_BYTES = 48;
    private static final long ATTR_SIZE_OFFSET = 0;
    private static final long ATTR_POLICY_OFFSET = 4;
    private static final long ATTR_RUNTIME_OFFSET = 24;

    private static final FunctionDescriptor AFFINITY_CALL = FunctionDescriptor.of(
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
    private static final MethodHandle SCHED_GETAFFINITY =
        Libc.downcall("sched_getaffinity", AFFINITY_CALL, Libc.CAPTURE_ERRNO);
    private static final MethodHandle SCHED_SETAFFINITY =
        Libc.downcall("sched_setaffinity", AFFINITY_CALL, Libc.CAPTURE_ERRNO);
    private static final MethodHandle SCHED_SETSCHEDULER = Libc.downcall("sched_setscheduler",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS),
        Libc.CAPTURE_ERRNO);

    /**
     * long syscall(long number, ...): here (number, pid, struct sched_attr *, size or flags, flags), each variadic
     * argument a full register, as the kernel reads them.
     */
    private static final MethodHandle SYSCALL_SCHED_ATTR = Libc.downcall("syscall",
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Libc.CAPTURE_ERRNO, Linker.Option.firstVariadicArg(1));

    private LibcScheduling()
    {
    }

    /** @return an empty CPU set owned by {@code arena}. */
    public static MemorySegment allocateCpuSet(final Arena arena)
    {
        return arena.allocate(CPU_SET_BYTES, Long.BYTES);
    }

    /**
     * Reads the CPUs thread {@code tid} may run on into {@code cpus}.
     *
     * @throws IllegalStateException naming the thread and the errno if the kernel refuses.
     */
    public static void getAffinity(final int tid, final MemorySegment cpus)
    {
        affinityCall(SCHED_GETAFFINITY, "sched_getaffinity", tid, cpus);
    }

    /**
     * Lets thread {@code tid} run on the CPUs of {@code cpus} only.
     *
     * @throws IllegalStateException naming the thread and the errno if the kernel refuses.
     */
    public static void setAffinity(final int tid, final MemorySegment cpus)
    {
        affinityCall(SCHED_SETAFFINITY, "sched_setaffinity", tid, cpus);
    }

    /**
     * Moves the calling thread to SCHED_IDLE (no privilege needed: it only lowers the thread). Threads it creates
     * inherit the policy.
     *
     * @return 0, or the errno of the refusal.
     */
    public static int idlePolicyForCallingThread()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = Libc.allocateCaptureState(arena);
            // struct sched_param { int sched_priority; }: 0, the only priority of SCHED_IDLE
            final MemorySegment param = arena.allocate(ValueLayout.JAVA_INT);
            final int rc = (int)SCHED_SETSCHEDULER.invokeExact(state, CALLING_THREAD, SCHED_IDLE, param);
            return 0 == rc ? 0 : Libc.errno(state);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("sched_setscheduler", t);
        }
    }

    /**
     * Asks the kernel to give the calling thread time slices of {@code sliceNs} (EEVDF's custom slice, Linux 6.12 on;
     * no privilege needed, the thread's nice value and policy stay). A thread with a shorter slice than the one
     * running gets an earlier virtual deadline: woken, it takes the CPU at once instead of at the end of the running
     * thread's slice, and gives it back as soon. Older kernels accept the call and keep their slices. Threads the
     * calling thread creates inherit the slice.
     *
     * @param sliceNs {@value #MIN_SLICE_NS}..{@value #MAX_SLICE_NS} ns, or 0 for the kernel's default slice.
     * @return 0, or the errno of the refusal (ENOSYS where the architecture's call numbers are not known here;
     *         EPERM where the thread is not SCHED_OTHER or SCHED_BATCH, whose slice alone this sets).
     * @throws IllegalArgumentException naming sliceNs out of range.
     */
    public static int sliceForCallingThread(final long sliceNs)
    {
        if (0 != sliceNs && (sliceNs < MIN_SLICE_NS || sliceNs > MAX_SLICE_NS))
        {
            throw new IllegalArgumentException("sliceNs = " + sliceNs + ": expected 0 (the kernel's default) or " +
                MIN_SLICE_NS + ".." + MAX_SLICE_NS);
        }
        if (!"amd64".equals(System.getProperty("os.arch")))
        {
            return Errno.ENOSYS;
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = Libc.allocateCaptureState(arena);
            final MemorySegment attr = arena.allocate(SCHED_ATTR_BYTES, Long.BYTES);
            if (0 != (long)SYSCALL_SCHED_ATTR.invokeExact(state, SYS_SCHED_GETATTR_X86_64, (long)CALLING_THREAD,
                attr, (long)SCHED_ATTR_BYTES, 0L))
            {
                return Libc.errno(state);
            }
            final int policy = attr.get(ValueLayout.JAVA_INT, ATTR_POLICY_OFFSET);
            if (SCHED_OTHER != policy && SCHED_BATCH != policy)
            {
                return Errno.EPERM;
            }
            // the policy, flags, nice and priority as read, so only the slice changes
            attr.set(ValueLayout.JAVA_INT, ATTR_SIZE_OFFSET, SCHED_ATTR_BYTES);
            attr.set(ValueLayout.JAVA_LONG, ATTR_RUNTIME_OFFSET, sliceNs);
            final long rc = (long)SYSCALL_SCHED_ATTR.invokeExact(state, SYS_SCHED_SETATTR_X86_64, (long)CALLING_THREAD,
                attr, 0L, 0L);
            return 0 == rc ? 0 : Libc.errno(state);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("sched_setattr", t);
        }
    }

    /** @return how many CPUs {@code cpus} holds. */
    public static int count(final MemorySegment cpus)
    {
        int n = 0;
        for (long offset = 0; offset < CPU_SET_BYTES; offset += Long.BYTES)
        {
            n += Long.bitCount(cpus.get(ValueLayout.JAVA_LONG, offset));
        }
        return n;
    }

    /**
     * @return the number of the {@code n}-th (from 0) CPU of {@code cpus}.
     * @throws IllegalArgumentException naming n if the set holds fewer CPUs.
     */
    public static int nthCpu(final MemorySegment cpus, final int n)
    {
        int seen = 0;
        for (int cpu = 0; cpu < CPU_SET_BYTES * Byte.SIZE; cpu++)
        {
            if (holds(cpus, cpu) && seen++ == n)
            {
                return cpu;
            }
        }
        throw new IllegalArgumentException("n = " + n + ": the CPU set holds " + count(cpus) + " CPUs");
    }

    /**
     * Makes {@code cpus} hold CPU {@code cpu} alone.
     *
     * @throws IllegalArgumentException naming cpu if a cpu_set_t cannot hold it.
     */
    public static void only(final MemorySegment cpus, final int cpu)
    {
        if (cpu < 0 || cpu >= CPU_SET_BYTES * Byte.SIZE)
        {
            throw new IllegalArgumentException("cpu = " + cpu + ": expected 0.." + (CPU_SET_BYTES * Byte.SIZE - 1));
        }
        cpus.fill((byte)0);
        cpus.set(ValueLayout.JAVA_LONG, wordOffset(cpu), bit(cpu));
    }

    private static boolean holds(final MemorySegment cpus, final int cpu)
    {
        return 0 != (cpus.get(ValueLayout.JAVA_LONG, wordOffset(cpu)) & bit(cpu));
    }

    /** @return the byte offset of the cpu_set_t word that holds {@code cpu}. */
    private static long wordOffset(final int cpu)
    {
        return (long)(cpu / Long.SIZE) * Long.BYTES;
    }

    /** @return {@code cpu}'s bit in its word. */
    private static long bit(final int cpu)
    {
        return 1L << (cpu % Long.SIZE);
    }

    private static void affinityCall(final MethodHandle call, final String name, final int tid, final MemorySegment cpus)
    {
        final int rc;
        final int errno;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = Libc.allocateCaptureState(arena);
            rc = (int)call.invokeExact(state, tid, (long)CPU_SET_BYTES, cpus);
            errno = Libc.errno(state);
        }
        catch (final Throwable t)
        {
            throw Libc.failed(name, t);
        }
        if (0 != rc)
        {
            throw new IllegalStateException(name + " of thread " + (CALLING_THREAD == tid ? "(calling)" : tid) +
                " failed: " + Errno.describe(errno));
        }
    }
}
