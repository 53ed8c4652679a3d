package io.pinmx.pin.provider;

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
 * The FFM downcalls to libc both providers make: open, close, ioctl, mmap, munmap, poll (the kernel binding),
 * process_vm_readv/writev, getpid, prctl (the user-space driver), posix_fallocate (every shared file pinmx maps,
 * through {@link FileSpace}) and strerror. A call that can fail captures errno
 * into a caller-owned capture-state segment ({@link #allocateCaptureState}), so the JVM cannot clobber it between
 * the call and its read; calls return the C result, a negative one meaning "read {@link #errno}".
 * <p>
 * Capturing errno allocates 40 bytes per call on JDK 25, so the per-message calls (ioctl of send, pull and wait;
 * process_vm_readv/writev) are made first without capture, allocation-free, and only when they failed once more
 * with errno captured: a failed call did nothing (the module validates before it acts; process_vm_* returning -1
 * moved no byte), so repeating it changes nothing and tells why.
 */
public final class Libc
{
    public static final int O_RDWR = 2;
    public static final int O_CLOEXEC = 0x80000;
    public static final int PROT_READ = 1;
    public static final int PROT_WRITE = 2;
    public static final int MAP_SHARED = 1;
    public static final int MAP_PRIVATE = 2;
    public static final int MAP_FIXED = 0x10;
    public static final int MAP_ANONYMOUS = 0x20;
    public static final short POLLIN = 1;
    /** mmap's failure value, (void *)-1. */
    public static final long MAP_FAILED = -1L;
    /** Bytes of struct pollfd { int fd; short events; short revents; }. */
    public static final long POLLFD_BYTES = 8;
    /** Bytes of one struct iovec { void *iov_base; size_t iov_len; }. */
    public static final long IOVEC_BYTES = 16;

    private static final int PR_SET_PTRACER = 0x59616d61;
    private static final long PR_SET_PTRACER_ANY = -1L;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    /** Captures a downcall's errno: for every call of the provider's libc classes whose failure names it. */
    static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final Linker.Option VARIADIC_FROM_2 = Linker.Option.firstVariadicArg(2);

    private static final FunctionDescriptor IOCTL_SIGNATURE =
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
    private static final FunctionDescriptor PROCESS_VM_RW = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_LONG);

    private static final MethodHandle OPEN = downcall("open",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
        CAPTURE_ERRNO, VARIADIC_FROM_2);
    private static final MethodHandle CLOSE = downcall("close",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle IOCTL = downcall("ioctl", IOCTL_SIGNATURE, CAPTURE_ERRNO, VARIADIC_FROM_2);
    private static final MethodHandle IOCTL_FAST = downcall("ioctl", IOCTL_SIGNATURE, VARIADIC_FROM_2);
    private static final MethodHandle MMAP = downcall("mmap",
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle MUNMAP = downcall("munmap",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle POLL = downcall("poll",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
        CAPTURE_ERRNO);
    private static final MethodHandle PROCESS_VM_READV = downcall("process_vm_readv", PROCESS_VM_RW);
    private static final MethodHandle PROCESS_VM_READV_ERRNO = downcall("process_vm_readv", PROCESS_VM_RW, CAPTURE_ERRNO);
    private static final MethodHandle PROCESS_VM_WRITEV = downcall("process_vm_writev", PROCESS_VM_RW);
    private static final MethodHandle PROCESS_VM_WRITEV_ERRNO = downcall("process_vm_writev", PROCESS_VM_RW, CAPTURE_ERRNO);
    private static final MethodHandle GETPID = downcall("getpid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
    private static final MethodHandle PRCTL = downcall("prctl",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle POSIX_FALLOCATE = downcall("posix_fallocate",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle STRERROR = downcall("strerror",
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private static final int PID = getpid();
    private static int ptracerResult = Integer.MIN_VALUE;

    private Libc()
    {
    }

    /**
     * @param arena owner of the buffer.
     * @return a capture-state buffer for one thread's downcalls.
     */
    public static MemorySegment allocateCaptureState(final Arena arena)
    {
        return arena.allocate(CAPTURE_LAYOUT);
    }

    /**
     * @param captureState buffer the last failed call wrote errno to.
     * @return that errno.
     */
    public static int errno(final MemorySegment captureState)
    {
        return (int)ERRNO.get(captureState, 0L);
    }

    /** @return this process's id, read once. */
    public static int pid()
    {
        return PID;
    }

    public static int open(final MemorySegment captureState, final MemorySegment path, final int flags)
    {
        try
        {
            return (int)OPEN.invokeExact(captureState, path, flags, 0);
        }
        catch (final Throwable t)
        {
            throw failed("open", t);
        }
    }

    public static int close(final MemorySegment captureState, final int fd)
    {
        try
        {
            return (int)CLOSE.invokeExact(captureState, fd);
        }
        catch (final Throwable t)
        {
            throw failed("close", t);
        }
    }

    public static int ioctl(final MemorySegment captureState, final int fd, final int request, final MemorySegment argument)
    {
        try
        {
            return (int)IOCTL.invokeExact(captureState, fd, request & 0xFFFF_FFFFL, argument);
        }
        catch (final Throwable t)
        {
            throw failed("ioctl", t);
        }
    }

    /**
     * ioctl without errno: allocation-free.
     *
     * @return 0 or another non-negative result on success, -1 on failure (errno unknown: repeat with {@link #ioctl}).
     */
    public static int ioctlFast(final int fd, final int request, final MemorySegment argument)
    {
        try
        {
            return (int)IOCTL_FAST.invokeExact(fd, request & 0xFFFF_FFFFL, argument);
        }
        catch (final Throwable t)
        {
            throw failed("ioctl", t);
        }
    }

    /** @return the mapped address, or {@link #MAP_FAILED} with errno. */
    public static long mmap(
        final MemorySegment captureState, final long address, final long length, final int prot, final int flags,
        final int fd, final long offset)
    {
        try
        {
            return (long)MMAP.invokeExact(captureState, address, length, prot, flags, fd, offset);
        }
        catch (final Throwable t)
        {
            throw failed("mmap", t);
        }
    }

    /** @return 0, or -1 with errno. */
    public static int munmap(final MemorySegment captureState, final long address, final long length)
    {
        try
        {
            return (int)MUNMAP.invokeExact(captureState, address, length);
        }
        catch (final Throwable t)
        {
            throw failed("munmap", t);
        }
    }

    /** poll(2) on one struct pollfd. */
    public static int poll(final MemorySegment captureState, final MemorySegment pollFd, final int timeoutMs)
    {
        try
        {
            return (int)POLL.invokeExact(captureState, pollFd, 1L, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw failed("poll", t);
        }
    }

    /**
     * process_vm_readv(pid, local, localCount, remote, remoteCount, 0).
     *
     * @return bytes transferred, or -errno.
     */
    public static long readv(
        final MemorySegment captureState, final int pid, final MemorySegment localIov, final int localCount,
        final MemorySegment remoteIov, final int remoteCount)
    {
        return vmTransfer(PROCESS_VM_READV, PROCESS_VM_READV_ERRNO, "process_vm_readv", captureState, pid, localIov,
            localCount, remoteIov, remoteCount);
    }

    /**
     * process_vm_writev(pid, local, localCount, remote, remoteCount, 0).
     *
     * @return bytes transferred, or -errno.
     */
    public static long writev(
        final MemorySegment captureState, final int pid, final MemorySegment localIov, final int localCount,
        final MemorySegment remoteIov, final int remoteCount)
    {
        return vmTransfer(PROCESS_VM_WRITEV, PROCESS_VM_WRITEV_ERRNO, "process_vm_writev", captureState, pid, localIov,
            localCount, remoteIov, remoteCount);
    }

    /** One process_vm_readv/writev: the plain call, and only when it fails the call again capturing errno. */
    private static long vmTransfer(
        final MethodHandle plain, final MethodHandle capturingErrno, final String name, final MemorySegment captureState,
        final int pid, final MemorySegment localIov, final int localCount, final MemorySegment remoteIov,
        final int remoteCount)
    {
        try
        {
            final long rc = (long)plain.invokeExact(pid, localIov, (long)localCount, remoteIov, (long)remoteCount, 0L);
            if (rc >= 0)
            {
                return rc;
            }
            final long again = (long)capturingErrno.invokeExact(
                captureState, pid, localIov, (long)localCount, remoteIov, (long)remoteCount, 0L);
            return again >= 0 ? again : -errno(captureState);
        }
        catch (final Throwable t)
        {
            throw failed(name, t);
        }
    }

    /**
     * posix_fallocate(fd, offset, length): the file's blocks in that range allocated for real.
     *
     * @return 0, or the error number (posix_fallocate returns it and leaves errno alone).
     */
    public static int posixFallocate(final int fd, final long offset, final long length)
    {
        try
        {
            return (int)POSIX_FALLOCATE.invokeExact(fd, offset, length);
        }
        catch (final Throwable t)
        {
            throw failed("posix_fallocate", t);
        }
    }

    public static void putIovec(final MemorySegment iovecs, final int index, final long address, final long length)
    {
        iovecs.set(ValueLayout.JAVA_LONG, index * IOVEC_BYTES, address);
        iovecs.set(ValueLayout.JAVA_LONG, index * IOVEC_BYTES + 8, length);
    }

    /**
     * Let any process of the same user process_vm_readv this one even under Yama ptrace_scope=1, once per
     * process.
     *
     * @return 0 or the errno (EINVAL when Yama is not built in, which is fine: then only ordinary same-uid ptrace
     *         rules apply).
     */
    public static synchronized int allowPeersToRead()
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
            throw failed("prctl(PR_SET_PTRACER)", t);
        }
    }

    /** @return libc's text for an errno, or "no text". */
    public static String strerror(final int errno)
    {
        try
        {
            return ((MemorySegment)STRERROR.invokeExact(errno)).reinterpret(256).getString(0);
        }
        catch (final Throwable t)
        {
            return "no text";
        }
    }

    private static int getpid()
    {
        try
        {
            return (int)GETPID.invokeExact();
        }
        catch (final Throwable t)
        {
            throw failed("getpid", t);
        }
    }

    static IllegalStateException failed(final String call, final Throwable t)
    {
        return new IllegalStateException(call + " downcall failed", t);
    }

    static MethodHandle downcall(
        final String name, final FunctionDescriptor descriptor, final Linker.Option... options)
    {
        final MemorySegment symbol = LINKER.defaultLookup().find(name)
            .orElseThrow(() -> new IllegalStateException("libc symbol not found: " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }
}
