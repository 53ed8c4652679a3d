package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * One open file of /dev/pinmx: its file descriptor and the ioctls on it. {@link #ioctl} returns 0 or a negative
 * errno without throwing (the hot path decides what a failure means); {@link #check} throws a
 * {@link DriverException} naming the ioctl, the errno and the device path. Not thread-safe against
 * {@link #close()}: the endpoint guards that.
 */
final class PinmxDevice
{
    private final Path path;
    private final int fd;
    private boolean closed;

    private PinmxDevice(final Path path, final int fd)
    {
        this.path = path;
        this.fd = fd;
    }

    /**
     * @param path the device, normally /dev/pinmx.
     * @return the open file.
     * @throws DriverException naming the path and the errno: ENOENT when the module is not loaded.
     */
    static PinmxDevice open(final Path path)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final int fd;
        try (Arena arena = Arena.ofConfined())
        {
            fd = Libc.open(scratch.captureState, arena.allocateFrom(path.toString()),
                Libc.O_RDWR | Libc.O_CLOEXEC);
        }
        if (fd < 0)
        {
            final int errno = Libc.errno(scratch.captureState);
            throw new DriverException(errno == Errno.ENOENT ? DriverError.NO_RESOURCES : DriverError.SYSTEM, errno,
                "cannot open " + path + ": " + Errno.describe(errno) +
                (errno == Errno.ENOENT ? " (is pinmx.ko loaded?)" : ""), null);
        }
        return new PinmxDevice(path, fd);
    }

    Path path()
    {
        return path;
    }

    int fd()
    {
        return fd;
    }

    /**
     * @return 0, or -errno.
     */
    int ioctl(final IoctlScratch scratch, final int request, final MemorySegment argument)
    {
        if (Libc.ioctl(scratch.captureState, fd, request, argument) == 0)
        {
            return 0;
        }
        return -Libc.errno(scratch.captureState);
    }

    /**
     * For the per-message ioctls (send, pull, wait): an allocation-free call, and only when it fails a second,
     * errno-capturing one. Sound because these ioctls check their input before acting, so a failed call changed
     * nothing; the second call either fails the same way (its errno is the answer) or succeeds (the operation
     * happened once). PINMX_IOC_PULL pins a non-overlapped local range before it sends anything, so even its
     * EFAULT leaves nothing behind.
     *
     * @return 0, or -errno.
     */
    int ioctlHot(final IoctlScratch scratch, final int request, final MemorySegment argument)
    {
        if (Libc.ioctlFast(fd, request, argument) >= 0)
        {
            return 0;
        }
        return ioctl(scratch, request, argument);
    }

    /**
     * Run an ioctl and throw if it fails.
     *
     * @param name    the ioctl's name for the message, e.g. "PINMX_IOC_BIND".
     * @param context what was asked, e.g. "interface lo index 3".
     */
    void check(final IoctlScratch scratch, final int request, final MemorySegment argument, final String name,
        final String context)
    {
        final int rc = ioctl(scratch, request, argument);
        if (rc != 0)
        {
            throw failure(-rc, name, context);
        }
    }

    /**
     * @return an exception naming the ioctl, the errno, the device and what was asked.
     */
    DriverException failure(final int errno, final String name, final String context)
    {
        return new DriverException(kindOf(errno), errno, name + " on " + path + " (" + context + ") failed: " +
            Errno.describe(errno), null);
    }

    /**
     * Reads PINMX_IOC_INFO (allowed before hello).
     *
     * @return a struct pinmx_info in the thread's scratch; valid until its next ioctl.
     */
    MemorySegment info(final IoctlScratch scratch)
    {
        final MemorySegment info = scratch.struct(PinmxAbi.INFO.byteSize());
        check(scratch, PinmxAbi.IOC_INFO, info, "PINMX_IOC_INFO", "module description");
        return info;
    }

    /**
     * @param abiVersion the version to say hello with (PinmxAbi.ABI_VERSION unless a test simulates a mismatch).
     * @return the node-wide endpoint id.
     */
    int hello(final IoctlScratch scratch, final int abiVersion)
    {
        final MemorySegment hello = scratch.struct(PinmxAbi.HELLO.byteSize());
        hello.set(ValueLayout.JAVA_INT, PinmxAbi.HELLO_ABI_VERSION, abiVersion);
        final int rc = ioctl(scratch, PinmxAbi.IOC_HELLO, hello);
        if (rc == -Errno.EPROTONOSUPPORT)
        {
            final int moduleVersion = info(scratch).get(ValueLayout.JAVA_INT, PinmxAbi.INFO_ABI_VERSION);
            throw new DriverException(DriverError.SYSTEM, Errno.EPROTONOSUPPORT, "PINMX_IOC_HELLO on " + path +
                ": the module speaks ABI version " + moduleVersion + ", this library asked for " + abiVersion + ": " +
                Errno.describe(Errno.EPROTONOSUPPORT), null);
        }
        if (rc != 0)
        {
            throw failure(-rc, "PINMX_IOC_HELLO", "ABI version " + abiVersion);
        }
        return hello.get(ValueLayout.JAVA_INT, PinmxAbi.HELLO_ENDPOINT_ID);
    }

    /** Closes the file once; later calls do nothing. */
    void close()
    {
        if (!closed)
        {
            closed = true;
            Libc.close(IoctlScratch.get().captureState, fd);
        }
    }

    /**
     * @param errno a positive errno from an ioctl.
     * @return the contract's classification of it.
     */
    static DriverError kindOf(final int errno)
    {
        return switch (errno)
        {
            case Errno.ENOENT -> DriverError.UNKNOWN_REGION;
            case Errno.ERANGE, Errno.EOVERFLOW -> DriverError.OUT_OF_RANGE;
            case Errno.EFAULT -> DriverError.SEGMENT_FAULT;
            case Errno.ENOMEM, Errno.ENOSPC, Errno.EBUSY, Errno.EADDRINUSE, Errno.ENOBUFS -> DriverError.NO_RESOURCES;
            case Errno.EINVAL, Errno.E2BIG, Errno.EFBIG, Errno.EMSGSIZE, Errno.EPROTOTYPE, Errno.EACCES ->
                DriverError.BAD_ARGUMENT;
            case Errno.EBADF -> DriverError.ENDPOINT_CLOSED;
            default -> DriverError.SYSTEM;
        };
    }
}
