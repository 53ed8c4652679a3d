package io.pinmx.pin.user;

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
 * FFM downcalls to the few Linux calls the user-space driver needs: process_vm_readv/writev (single-copy
 * same-host pulls, and safe access to possibly unmapped memory of this process), getpid, prctl and strerror.
 * errno is captured with the call so it cannot be clobbered by the JVM in between (for process_vm_readv/writev,
 * with a repeat of a call that failed).
 */
final class LinuxSyscalls
{
    static final int EFAULT = 14;
    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int ENOMEM = 12;

    /** Bytes of one struct iovec { void *iov_base; size_t iov_len; }. */
    static final long IOVEC_BYTES = 16;

    private static final int PR_SET_PTRACER = 0x59616d61;
    private static final long PR_SET_PTRACER_ANY = -1L;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final FunctionDescriptor PROCESS_VM_RW = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_LONG);
    // Each process_vm_* call is made first without errno capture, which allocates 40 bytes per call on JDK 25
    // (PinmxAllocationTest: 19 B per rendezvous message), and again with capture only when it failed: a call
    // that returns -1 moved no byte, so repeating it changes nothing and reports its errno.
    private static final MethodHandle PROCESS_VM_READV = downcall("process_vm_readv", PROCESS_VM_RW, false);
    private static final MethodHandle PROCESS_VM_READV_ERRNO = downcall("process_vm_readv", PROCESS_VM_RW, true);
    private static final MethodHandle PROCESS_VM_WRITEV = downcall("process_vm_writev", PROCESS_VM_RW, false);
    private static final MethodHandle PROCESS_VM_WRITEV_ERRNO = downcall("process_vm_writev", PROCESS_VM_RW, true);
    private static final MethodHandle GETPID = downcall("getpid", FunctionDescriptor.of(ValueLayout.JAVA_INT), false);
    private static final MethodHandle PRCTL = downcall(
        "prctl",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
        true);
    private static final MethodHandle STRERROR = downcall(
        "strerror", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT), false);

    private static final int PID = (int)invokeInt(GETPID);
    private static int ptracerResult = Integer.MIN_VALUE;

    private LinuxSyscalls()
    {
    }

    static int pid()
    {
        return PID;
    }

    /**
     * Let any process of the same user process_vm_readv this one even under Yama ptrace_scope=1, once per
     * process. Returns 0 or the errno (EINVAL when Yama is not built in, which is fine: then only ordinary
     * same-uid ptrace rules apply).
     */
    static synchronized int allowPeersToRead()
    {
        if (ptracerResult != Integer.MIN_VALUE)
        {
            return ptracerResult;
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment captureState = allocateCaptureState(arena);
            final int rc = (int)PRCTL.invokeExact(captureState, PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0L, 0L, 0L);
            ptracerResult = rc == 0 ? 0 : errno(captureState);
            return ptracerResult;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("prctl(PR_SET_PTRACER) downcall failed", t);
        }
    }

    /**
     * process_vm_readv(pid, local, localCount, remote, remoteCount, 0).
     *
     * @return bytes transferred, or -errno.
     */
    static long readv(
        final MemorySegment captureState,
        final int pid,
        final MemorySegment localIov,
        final int localCount,
        final MemorySegment remoteIov,
        final int remoteCount)
    {
        try
        {
            final long rc = (long)PROCESS_VM_READV.invokeExact(
                pid, localIov, (long)localCount, remoteIov, (long)remoteCount, 0L);
            if (rc >= 0)
            {
                return rc;
            }
            final long again = (long)PROCESS_VM_READV_ERRNO.invokeExact(
                captureState, pid, localIov, (long)localCount, remoteIov, (long)remoteCount, 0L);
            return again >= 0 ? again : -errno(captureState);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("process_vm_readv downcall failed", t);
        }
    }

    /**
     * process_vm_writev(pid, local, localCount, remote, remoteCount, 0).
     *
     * @return bytes transferred, or -errno.
     */
    static long writev(
        final MemorySegment captureState,
        final int pid,
        final MemorySegment localIov,
        final int localCount,
        final MemorySegment remoteIov,
        final int remoteCount)
    {
        try
        {
            final long rc = (long)PROCESS_VM_WRITEV.invokeExact(
                pid, localIov, (long)localCount, remoteIov, (long)remoteCount, 0L);
            if (rc >= 0)
            {
                return rc;
            }
            final long again = (long)PROCESS_VM_WRITEV_ERRNO.invokeExact(
                captureState, pid, localIov, (long)localCount, remoteIov, (long)remoteCount, 0L);
            return again >= 0 ? again : -errno(captureState);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("process_vm_writev downcall failed", t);
        }
    }

    /** A capture-state buffer for one thread's downcalls. */
    static MemorySegment allocateCaptureState(final Arena arena)
    {
        return arena.allocate(CAPTURE_LAYOUT);
    }

    static void putIovec(final MemorySegment iovecs, final int index, final long address, final long length)
    {
        iovecs.set(ValueLayout.JAVA_LONG, index * IOVEC_BYTES, address);
        iovecs.set(ValueLayout.JAVA_LONG, index * IOVEC_BYTES + 8, length);
    }

    /** "EFAULT (Bad address)"-style name for an errno, for error messages. */
    static String errnoName(final int errno)
    {
        final String symbol = switch (errno)
        {
            case EPERM -> "EPERM";
            case ESRCH -> "ESRCH";
            case ENOMEM -> "ENOMEM";
            case EFAULT -> "EFAULT";
            case 22 -> "EINVAL";
            default -> "errno " + errno;
        };
        try
        {
            final MemorySegment text = (MemorySegment)STRERROR.invokeExact(errno);
            return symbol + " (" + text.reinterpret(256).getString(0) + ")";
        }
        catch (final Throwable t)
        {
            return symbol;
        }
    }

    private static int errno(final MemorySegment captureState)
    {
        return (int)ERRNO.get(captureState, 0L);
    }

    private static long invokeInt(final MethodHandle handle)
    {
        try
        {
            return (int)handle.invokeExact();
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("downcall failed: " + handle, t);
        }
    }

    private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor, final boolean errno)
    {
        final MemorySegment symbol = LINKER.defaultLookup().find(name)
            .orElseThrow(() -> new IllegalStateException("libc symbol not found: " + name));
        return errno ?
            LINKER.downcallHandle(symbol, descriptor, Linker.Option.captureCallState("errno")) :
            LINKER.downcallHandle(symbol, descriptor);
    }
}
