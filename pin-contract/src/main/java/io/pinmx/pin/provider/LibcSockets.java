package io.pinmx.pin.provider;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The FFM downcalls of a datagram socket the user-space driver drives itself, so it can use what the JDK's
 * DatagramChannel cannot reach: gathering sendmsg (header and payload from where they lie), UDP segmentation
 * offload (UDP_SEGMENT) and receive offload (UDP_GRO) with their control messages, and an eventfd to wake a
 * poll(2). Layouts are x86-64/aarch64 Linux (LP64).
 * <p>
 * As in {@link Libc}: setup calls capture errno; the per-frame calls (sendmsg, recvmsg) are made without capture,
 * allocation-free, and a failed sendmsg is made once more capturing errno (a failed sendmsg sent nothing). A failed
 * non-blocking recvmsg needs no errno: EAGAIN means nothing waits, and any other error (a queued ICMP error) is
 * consumed by the call that reports it.
 */
public final class LibcSockets
{
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    public static final int SOCK_DGRAM = 2;
    public static final int SOCK_NONBLOCK = 0x800;
    public static final int SOCK_CLOEXEC = 0x80000;
    public static final int SOL_SOCKET = 1;
    public static final int SO_SNDBUF = 7;
    public static final int SO_RCVBUF = 8;
    public static final int SOL_UDP = 17;
    /** setsockopt/cmsg: segment size of a UDP GSO send. */
    public static final int UDP_SEGMENT = 103;
    /** setsockopt: deliver coalesced datagrams with a cmsg giving their segment size. */
    public static final int UDP_GRO = 104;
    public static final int MSG_DONTWAIT = 0x40;
    public static final int MSG_PEEK = 0x2;
    public static final int MSG_TRUNC = 0x20;
    public static final int EFD_NONBLOCK = 0x800;
    public static final int EFD_CLOEXEC = 0x80000;
    public static final short POLLIN = 1;

    /** struct msghdr and its fields. */
    public static final long MSGHDR_BYTES = 56;
    public static final long MSG_NAME = 0;
    public static final long MSG_NAMELEN = 8;
    public static final long MSG_IOV = 16;
    public static final long MSG_IOVLEN = 24;
    public static final long MSG_CONTROL = 32;
    public static final long MSG_CONTROLLEN = 40;
    /** struct cmsghdr: header bytes (CMSG_LEN(0)), then data. */
    public static final long CMSGHDR_BYTES = 16;
    public static final long CMSG_LEVEL = 8;
    public static final long CMSG_TYPE = 12;
    /** Large enough for sockaddr_in and sockaddr_in6. */
    public static final int SOCKADDR_BYTES = 28;

    private static final FunctionDescriptor MSG_CALL = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT);
    private static final FunctionDescriptor SOCKADDR_CALL = FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT);

    private static final MethodHandle SOCKET = Libc.downcall("socket", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), Libc.CAPTURE_ERRNO);
    private static final MethodHandle SETSOCKOPT = Libc.downcall("setsockopt", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
        Libc.CAPTURE_ERRNO);
    private static final MethodHandle BIND = Libc.downcall("bind", SOCKADDR_CALL, Libc.CAPTURE_ERRNO);
    private static final MethodHandle GETSOCKNAME = Libc.downcall("getsockname", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS), Libc.CAPTURE_ERRNO);
    private static final MethodHandle SENDMSG = Libc.downcall("sendmsg", MSG_CALL);
    private static final MethodHandle SENDMSG_ERRNO = Libc.downcall("sendmsg", MSG_CALL, Libc.CAPTURE_ERRNO);
    private static final MethodHandle RECVMSG = Libc.downcall("recvmsg", MSG_CALL);
    private static final MethodHandle RECVMSG_ERRNO = Libc.downcall("recvmsg", MSG_CALL, Libc.CAPTURE_ERRNO);
    private static final MethodHandle EVENTFD = Libc.downcall("eventfd", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), Libc.CAPTURE_ERRNO);
    private static final MethodHandle READ = Libc.downcall("read", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle WRITE = Libc.downcall("write", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle POLL = Libc.downcall("poll", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    private LibcSockets()
    {
    }

    /** @return the descriptor, or -errno. */
    public static int socket(final MemorySegment captureState, final int family, final int type)
    {
        try
        {
            final int fd = (int)SOCKET.invokeExact(captureState, family, type, 0);
            return fd >= 0 ? fd : -Libc.errno(captureState);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("socket", t);
        }
    }

    /** setsockopt with an int value. @return 0 or -errno. */
    public static int setIntOption(
        final MemorySegment captureState, final MemorySegment scratchInt, final int fd, final int level, final int name,
        final int value)
    {
        scratchInt.set(ValueLayout.JAVA_INT, 0, value);
        try
        {
            final int rc = (int)SETSOCKOPT.invokeExact(captureState, fd, level, name, scratchInt, 4);
            return rc == 0 ? 0 : -Libc.errno(captureState);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("setsockopt", t);
        }
    }

    /** @return 0 or -errno. */
    public static int bind(final MemorySegment captureState, final int fd, final MemorySegment sockaddr, final int length)
    {
        try
        {
            final int rc = (int)BIND.invokeExact(captureState, fd, sockaddr, length);
            return rc == 0 ? 0 : -Libc.errno(captureState);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("bind", t);
        }
    }

    /** @param lengthInOut an int holding the buffer's size, then the address's. @return 0 or -errno. */
    public static int getsockname(
        final MemorySegment captureState, final int fd, final MemorySegment sockaddr, final MemorySegment lengthInOut)
    {
        try
        {
            final int rc = (int)GETSOCKNAME.invokeExact(captureState, fd, sockaddr, lengthInOut);
            return rc == 0 ? 0 : -Libc.errno(captureState);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("getsockname", t);
        }
    }

    /** @return bytes sent, or -errno (the call repeated once capturing errno, which may then succeed). */
    public static long sendmsg(final MemorySegment captureState, final int fd, final MemorySegment msghdr, final int flags)
    {
        try
        {
            final long n = (long)SENDMSG.invokeExact(fd, msghdr, flags);
            if (n >= 0)
            {
                return n;
            }
            final long again = (long)SENDMSG_ERRNO.invokeExact(captureState, fd, msghdr, flags);
            return again >= 0 ? again : -Libc.errno(captureState);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("sendmsg", t);
        }
    }

    /** @return bytes received, or -1 when nothing was (see the class comment). */
    public static long recvmsg(final int fd, final MemorySegment msghdr, final int flags)
    {
        try
        {
            return (long)RECVMSG.invokeExact(fd, msghdr, flags);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("recvmsg", t);
        }
    }

    /**
     * recvmsg capturing errno, for a receive whose failure must be told apart from nothing waiting (the datagram is
     * gone after any failure but EAGAIN).
     *
     * @return bytes received, or -errno.
     */
    public static long recvmsg(final MemorySegment captureState, final int fd, final MemorySegment msghdr,
        final int flags)
    {
        try
        {
            final long n = (long)RECVMSG_ERRNO.invokeExact(captureState, fd, msghdr, flags);
            return n >= 0 ? n : -Libc.errno(captureState);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("recvmsg", t);
        }
    }

    /** @return the descriptor, or -errno. */
    public static int eventfd(final MemorySegment captureState, final int flags)
    {
        try
        {
            final int fd = (int)EVENTFD.invokeExact(captureState, 0, flags);
            return fd >= 0 ? fd : -Libc.errno(captureState);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("eventfd", t);
        }
    }

    /** read(2) of {@code bytes}; @return the C result. */
    public static long read(final int fd, final MemorySegment buffer, final long bytes)
    {
        try
        {
            return (long)READ.invokeExact(fd, buffer, bytes);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("read", t);
        }
    }

    /** write(2) of {@code bytes}; @return the C result. */
    public static long write(final int fd, final MemorySegment buffer, final long bytes)
    {
        try
        {
            return (long)WRITE.invokeExact(fd, buffer, bytes);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("write", t);
        }
    }

    /** poll(2) on {@code count} struct pollfd; @return the C result (-1: interrupted or failed, nothing known). */
    public static int poll(final MemorySegment pollFds, final int count, final int timeoutMs)
    {
        try
        {
            return (int)POLL.invokeExact(pollFds, (long)count, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw Libc.failed("poll", t);
        }
    }
}
