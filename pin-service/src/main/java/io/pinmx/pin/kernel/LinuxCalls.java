package io.pinmx.pin.kernel;

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
 * FFM downcalls to the libc calls the kernel provider needs: open, close, ioctl, mmap, munmap, poll, strerror.
 * Each call that can fail captures errno with the call (into a caller-owned capture-state segment), so the JVM
 * cannot clobber it in between. Calls return the C result; a negative result means "read {@link #errno}".
 * <p>
 * Capturing errno costs a 40-byte allocation per call in JDK 25 (measured), so the per-message ioctls (send,
 * pull, wait) go first through {@link #ioctlFast}, which captures nothing: a failed call did nothing (the module
 * validates before it acts), so it is made once more with errno captured to learn why.
 */
public final class LinuxCalls
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
    static final long POLLFD_BYTES = 8;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle OPEN = downcall("open",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
        Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = downcall("close",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle IOCTL = downcall("ioctl",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
        Linker.Option.firstVariadicArg(2));
    private static final MethodHandle IOCTL_FAST = LINKER.downcallHandle(symbol("ioctl"),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
        Linker.Option.firstVariadicArg(2));
    private static final MethodHandle MMAP = downcall("mmap",
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MUNMAP = downcall("munmap",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle POLL = downcall("poll",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(symbol("strerror"),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private LinuxCalls()
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

    static int open(final MemorySegment captureState, final MemorySegment path, final int flags)
    {
        try
        {
            return (int)OPEN.invokeExact(captureState, path, flags, 0);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("open downcall failed", t);
        }
    }

    static int close(final MemorySegment captureState, final int fd)
    {
        try
        {
            return (int)CLOSE.invokeExact(captureState, fd);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("close downcall failed", t);
        }
    }

    static int ioctl(final MemorySegment captureState, final int fd, final int request, final MemorySegment argument)
    {
        try
        {
            return (int)IOCTL.invokeExact(captureState, fd, request & 0xFFFF_FFFFL, argument);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("ioctl downcall failed", t);
        }
    }

    /**
     * ioctl without errno: allocation-free.
     *
     * @return 0 or another non-negative result on success, -1 on failure (errno unknown).
     */
    static int ioctlFast(final int fd, final int request, final MemorySegment argument)
    {
        try
        {
            return (int)IOCTL_FAST.invokeExact(fd, request & 0xFFFF_FFFFL, argument);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("ioctl downcall failed", t);
        }
    }

    /**
     * mmap(address, length, prot, flags, fd, offset).
     *
     * @return the mapped address, or {@link #MAP_FAILED}.
     */
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
            throw new IllegalStateException("mmap downcall failed", t);
        }
    }

    /**
     * munmap(address, length).
     *
     * @return 0, or -1 with errno.
     */
    public static int munmap(final MemorySegment captureState, final long address, final long length)
    {
        try
        {
            return (int)MUNMAP.invokeExact(captureState, address, length);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("munmap downcall failed", t);
        }
    }

    static int poll(final MemorySegment captureState, final MemorySegment pollFd, final int timeoutMs)
    {
        try
        {
            return (int)POLL.invokeExact(captureState, pollFd, 1L, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("poll downcall failed", t);
        }
    }

    static String strerror(final int errno)
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

    private static MemorySegment symbol(final String name)
    {
        return LINKER.defaultLookup().find(name)
            .orElseThrow(() -> new IllegalStateException("libc symbol not found: " + name));
    }

    private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor, final Linker.Option... more)
    {
        final Linker.Option[] options = new Linker.Option[more.length + 1];
        options[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(more, 0, options, 1, more.length);
        return LINKER.downcallHandle(symbol(name), descriptor, options);
    }
}
