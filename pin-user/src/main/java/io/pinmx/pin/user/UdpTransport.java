package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.LibcSockets;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One endpoint's UDP socket, driven through FFM ({@link LibcSockets}): the datagram payload is one MXoE frame, or a
 * run of equal-sized frames sent in one call with UDP segmentation offload ({@link #sendSegments}; the kernel cuts
 * it into datagrams, and over veth or loopback the run crosses the stack as one packet). Every frame sent carries its
 * frame check ({@link FrameChecksum}), written into a copy of its header or the header slot of its run. The socket has
 * UDP_GRO on, so such a run may also arrive whole ({@link UdpReceiver}, the receive side).
 * <p>
 * Non-blocking; an idle progress agent blocks in poll(2) on the socket and an eventfd that another thread writes to
 * wake it. A single frame whose payload an arena owns is copied whole into a staging buffer and checked there (for
 * the few bytes of most such frames a copy costs less than asking the kernel whether they can be read); any other
 * native payload is gathered from where it lies once {@link ReadablePages} says it can be read, only its header
 * copied to carry the frame check. Sends from several threads are serialised by a lock because they share the
 * message header scratch.
 */
final class UdpTransport implements AutoCloseable
{
    private static final int SOCKET_BUFFER_BYTES = 8 << 20;
    /** A run of more segments than this is sent in several calls (the kernel's limit is 64 on older kernels). */
    static final int MAX_SEGMENTS = 64;
    /** Most bytes one offloaded send carries: the largest UDP payload over IPv6 less a margin. */
    static final int MAX_SEGMENTED_BYTES = 65_000;
    /** More than any frame header with its kind part. */
    private static final int MAX_HEADER_BYTES = 128;
    private static final int IPV4_UDP_HEADER_BYTES = 28;
    private static final int IPV6_UDP_HEADER_BYTES = 48;
    /** Below this (an MTU under ~600 B) frames stay small rather than tiny; IP fragments them. */
    private static final int MIN_FITTED_PAYLOAD_BYTES = 512;
    static final int SENT = 0;
    static final int LOSS_INJECTED = 1;
    static final int SEND_BUFFER_FULL = 2;
    private static final int FAULTED = 3;
    private static final int REFUSED = -1;

    /** A full socket send buffer drains in microseconds on a live link; after this many yields the frame is lost. */
    private static final int SEND_FULL_SPINS = 1_000;
    private static final long CMSG_SPACE_INT_BYTES = LibcSockets.CMSGHDR_BYTES + 8;
    private static final long POLLFD_BYTES = 8;
    private static final long POLL_REVENTS = 6;

    /** Freed by the GC once the transport is unreachable, so a late wakeup from another thread never meets freed memory. */
    private final Arena arena = Arena.ofAuto();
    private final int fd;
    private final int maxFrameBytes;
    private final int wakeFd;
    private final int port;
    private final LossInjector txLoss;

    private final ReentrantLock sendLock = new ReentrantLock();
    private final MemorySegment sendCapture;
    private final MemorySegment sendHeader;
    private final MemorySegment sendIov;
    private final MemorySegment sendControl;
    /** A frame copied whole for its send: one with bytes on the Java heap, or whose payload an arena owns. */
    private final MemorySegment sendStaging;
    private final SockaddrCache sendAddresses;
    /** A copy of the frame header being sent, with its frame check. */
    private final MemorySegment sendFrameHeader;
    private final FrameChecksum sendChecksum = new FrameChecksum();
    /** Native memory of a caller's is read for the frame check only once a system call could read it. */
    private final ReadablePages sendPages;
    /** Offloaded sends of segments this large or larger failed (the path MTU is smaller): sent one by one. */
    private int segmentLimitBytes = Integer.MAX_VALUE;
    private int injectedLosses;
    private int offloadedSends;
    private boolean faulted;
    private volatile boolean closed;

    private final UdpReceiver receiver;

    private final MemorySegment pollFds;
    private final MemorySegment wakeValue;
    private final MemorySegment drainValue;

    private UdpTransport(
        final int fd, final int wakeFd, final int family, final int port, final int maxFrameBytes,
        final LossInjector txLoss, final LossInjector rxLoss)
    {
        this.fd = fd;
        this.wakeFd = wakeFd;
        this.port = port;
        this.maxFrameBytes = maxFrameBytes;
        this.txLoss = txLoss;
        sendCapture = Libc.allocateCaptureState(arena);
        sendHeader = arena.allocate(LibcSockets.MSGHDR_BYTES, 8);
        sendIov = arena.allocate(Libc.IOVEC_BYTES * 2, 8);
        sendControl = arena.allocate(CMSG_SPACE_INT_BYTES, 8);
        sendStaging = arena.allocate(maxFrameBytes, 8);
        sendFrameHeader = arena.allocate(MAX_HEADER_BYTES, 8);
        sendPages = new ReadablePages(arena);
        sendControl.set(ValueLayout.JAVA_LONG, 0, LibcSockets.CMSGHDR_BYTES + 2);
        sendControl.set(ValueLayout.JAVA_INT, LibcSockets.CMSG_LEVEL, LibcSockets.SOL_UDP);
        sendControl.set(ValueLayout.JAVA_INT, LibcSockets.CMSG_TYPE, LibcSockets.UDP_SEGMENT);
        sendAddresses = new SockaddrCache(arena, family);
        receiver = new UdpReceiver(arena, fd, family, maxFrameBytes, rxLoss);
        pollFds = arena.allocate(POLLFD_BYTES * 2, 8);
        pollFds.set(ValueLayout.JAVA_INT, 0, fd);
        pollFds.set(ValueLayout.JAVA_SHORT, 4, LibcSockets.POLLIN);
        pollFds.set(ValueLayout.JAVA_INT, POLLFD_BYTES, wakeFd);
        pollFds.set(ValueLayout.JAVA_SHORT, POLLFD_BYTES + 4, LibcSockets.POLLIN);
        wakeValue = arena.allocate(8, 8);
        wakeValue.set(ValueLayout.JAVA_LONG, 0, 1L);
        drainValue = arena.allocate(8, 8);
    }

    /**
     * Bind to {@code address:port} (port 0: kernel's choice).
     *
     * @throws IOException naming the address and errno if the socket cannot be made or bound.
     */
    static UdpTransport open(
        final InetAddress address, final int port, final int maxFrameBytes, final LossInjector txLoss,
        final LossInjector rxLoss) throws IOException
    {
        final int family = address instanceof Inet6Address ? LibcSockets.AF_INET6 : LibcSockets.AF_INET;
        try (Arena setup = Arena.ofConfined())
        {
            final MemorySegment capture = Libc.allocateCaptureState(setup);
            final MemorySegment scratch = setup.allocate(8, 8);
            final int fd = check(LibcSockets.socket(capture, family,
                LibcSockets.SOCK_DGRAM | LibcSockets.SOCK_NONBLOCK | LibcSockets.SOCK_CLOEXEC), "socket", address, port);
            int wakeFd = -1;
            try
            {
                wakeFd = check(LibcSockets.eventfd(capture, LibcSockets.EFD_NONBLOCK | LibcSockets.EFD_CLOEXEC),
                    "eventfd", address, port);
                // best effort, as DatagramChannel's setOption: the kernel caps them at net.core.[rw]mem_max
                LibcSockets.setIntOption(capture, scratch, fd, LibcSockets.SOL_SOCKET, LibcSockets.SO_RCVBUF,
                    SOCKET_BUFFER_BYTES);
                LibcSockets.setIntOption(capture, scratch, fd, LibcSockets.SOL_SOCKET, LibcSockets.SO_SNDBUF,
                    SOCKET_BUFFER_BYTES);
                // without it (kernels before 5.0) offloaded runs arrive cut into datagrams, which works too
                LibcSockets.setIntOption(capture, scratch, fd, LibcSockets.SOL_UDP, LibcSockets.UDP_GRO, 1);
                final MemorySegment sockaddr = setup.allocate(32, 8);
                final int length = new SockaddrCache(setup, family).write(new InetSocketAddress(address, port), sockaddr);
                check(LibcSockets.bind(capture, fd, sockaddr, length), "bind", address, port);
                scratch.set(ValueLayout.JAVA_INT, 0, 32);
                check(LibcSockets.getsockname(capture, fd, sockaddr, scratch), "getsockname", address, port);
                final int boundPort = sockaddr.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 2)
                    & 0xFFFF;
                return new UdpTransport(fd, wakeFd, family, boundPort, maxFrameBytes, txLoss, rxLoss);
            }
            catch (final IOException | RuntimeException e)
            {
                Libc.close(capture, fd);
                if (wakeFd >= 0)
                {
                    Libc.close(capture, wakeFd);
                }
                throw e;
            }
        }
    }

    private static int check(final int rc, final String call, final InetAddress address, final int port)
        throws IOException
    {
        if (rc < 0)
        {
            throw new IOException("UDP socket for " + address.getHostAddress() + ":" + port + ": " + call + " failed: " +
                Errno.describe(-rc));
        }
        return rc;
    }

    /**
     * @return the payload of a {@code kind} frame to send from a socket bound to {@code bindAddress}: at most
     *         {@code framePayloadBytes}, and one datagram within the interface's MTU where it is known (IP would
     *         fragment a larger one, and runs of such frames can go out by segmentation offload).
     */
    static int payloadWithinMtu(final int framePayloadBytes, final FrameKind kind, final InetAddress bindAddress)
    {
        return payloadWithinMtu(framePayloadBytes, kind, interfaceMtu(bindAddress), bindAddress instanceof Inet6Address);
    }

    /** @param mtu of the interface the endpoint is bound to, or -1 if unknown. */
    static int payloadWithinMtu(final int framePayloadBytes, final FrameKind kind, final int mtu, final boolean ipv6)
    {
        if (mtu <= 0)
        {
            return framePayloadBytes;
        }
        final int fit = mtu - (ipv6 ? IPV6_UDP_HEADER_BYTES : IPV4_UDP_HEADER_BYTES) - kind.headerBytes();
        return Math.min(framePayloadBytes, Math.max(MIN_FITTED_PAYLOAD_BYTES, fit));
    }

    /** @return the MTU of the interface holding {@code address}, or -1 if there is none (a wildcard) or it is unknown. */
    static int interfaceMtu(final InetAddress address)
    {
        try
        {
            final NetworkInterface nif = NetworkInterface.getByInetAddress(address);
            return nif == null ? -1 : nif.getMTU();
        }
        catch (final SocketException e)
        {
            return -1;
        }
    }

    int port()
    {
        return port;
    }

    /** The socket's receive side (agent thread only). */
    UdpReceiver receiver()
    {
        return receiver;
    }

    /**
     * Send header + payload as one datagram.
     *
     * @return {@link #SENT}, {@link #LOSS_INJECTED} or {@link #SEND_BUFFER_FULL}.
     */
    int send(final MemorySegment header, final MemorySegment payload, final InetSocketAddress to) throws IOException
    {
        return send(header, payload, 0, payload.byteSize(), to);
    }

    /** Whether a frame's header and payload can go into iovecs as they are: native, or (the payload) empty. */
    static boolean addressable(final MemorySegment header, final MemorySegment payload)
    {
        return header.isNative() && (payload.byteSize() == 0 || payload.isNative());
    }

    /** Send header + {@code payloadBytes} of {@code payload} from {@code payloadOffset} as one datagram. */
    int send(
        final MemorySegment header, final MemorySegment payload, final long payloadOffset, final long payloadBytes,
        final InetSocketAddress to) throws IOException
    {
        final long headerBytes = header.byteSize();
        if (headerBytes < FrameFlyweight.HEADER_BYTES || headerBytes > sendFrameHeader.byteSize())
        {
            throw new IllegalArgumentException("frame header of " + headerBytes + " bytes: " +
                FrameFlyweight.HEADER_BYTES + " to " + sendFrameHeader.byteSize() + " allowed");
        }
        if (headerBytes + payloadBytes > maxFrameBytes)
        {
            throw new IllegalArgumentException("frame of " + (headerBytes + payloadBytes) +
                " bytes exceeds the UDP frame maximum of " + maxFrameBytes);
        }
        if (payloadBytes > 0 && !payload.scope().isAlive())
        {
            throw new IllegalArgumentException("payload of " + payloadBytes + " bytes at 0x" +
                Long.toHexString(payload.address() + payloadOffset) + ": its arena is closed");
        }
        sendLock.lock();
        try
        {
            if (txLoss.drop())
            {
                return LOSS_INJECTED;
            }
            if (payloadBytes == 0 || !addressable(header, payload) || ReadablePages.arenaOwned(payload))
            {
                // copied behind the header and checked where it is sent from: bytes on the Java heap (iovecs take
                // addresses) and payloads an arena owns, which cost less to copy than to ask the kernel about
                MemorySegment.copy(header, 0, sendStaging, 0, headerBytes);
                MemorySegment.copy(payload, payloadOffset, sendStaging, headerBytes, payloadBytes);
                sendChecksum.stamp(sendStaging.address(), headerBytes + payloadBytes);
                Libc.putIovec(sendIov, 0, sendStaging.address(), headerBytes + payloadBytes);
                return sendLocked(to, 1, 0);
            }
            // the caller's header stays as it is: its frame check goes into a copy
            MemorySegment.copy(header, 0, sendFrameHeader, 0, headerBytes);
            final long payloadAddress = payload.address() + payloadOffset;
            if (!sendPages.clear().add(payloadAddress, payloadBytes).readable())
            {
                throw new IOException("sendmsg to " + to + ": " + Errno.describe(Errno.EFAULT));
            }
            sendChecksum.stamp(sendFrameHeader.address(), headerBytes, payloadAddress, payloadBytes);
            Libc.putIovec(sendIov, 0, sendFrameHeader.address(), headerBytes);
            Libc.putIovec(sendIov, 1, payloadAddress, payloadBytes);
            return sendLocked(to, 2, 0);
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /**
     * Send the frames of {@code frames}, each {@code segmentBytes} long but the last, with as few calls as UDP
     * segmentation offload allows; each frame is subject to loss injection on its own. A send the kernel refuses
     * whole (a segment above the path MTU) is retried frame by frame, and frames of that size are sent one by one
     * from then on. A run with a page that cannot be read (a gathered payload) is not sent and {@link #faulted} says
     * so; so is the rest of a run whose send meets one that went away since (EFAULT).
     *
     * @return frames sent; {@link #injectedLosses} says how many of the others loss injection dropped, and the rest
     *         found the send buffer full or were not sent after a fault.
     */
    int sendSegments(final FrameIovecs frames, final int segmentBytes, final InetSocketAddress to) throws IOException
    {
        sendLock.lock();
        try
        {
            injectedLosses = 0;
            offloadedSends = 0;
            faulted = false;
            final int frameCount = frames.frames();
            if (!readable(frames))
            {
                faulted = true;
                return 0;
            }
            for (int k = 0; k < frameCount; k++)
            {
                sendChecksum.stamp(frames, k);
            }
            final int perCall = segmentBytes >= segmentLimitBytes ? 1 :
                Math.min(MAX_SEGMENTS, Math.max(1, MAX_SEGMENTED_BYTES / segmentBytes));
            int sent = 0;
            int runStart = 0;
            for (int k = 0; k <= frameCount && !faulted; k++)
            {
                final boolean dropped = k < frameCount && txLoss.drop();
                if (k == frameCount || dropped || k - runStart == perCall)
                {
                    sent += sendRun(frames, runStart, k, segmentBytes, to);
                    runStart = dropped ? k + 1 : k;
                }
                if (dropped)
                {
                    injectedLosses++;
                }
            }
            return sent;
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /**
     * A run of the driver's own buffer is mapped; one that reads a caller's memory has its payloads asked about
     * (each frame's header is a copy of ours), those that follow one another in memory as one range.
     */
    private boolean readable(final FrameIovecs frames)
    {
        if (!frames.readsCallerMemory())
        {
            return true;
        }
        sendPages.clear();
        for (int k = 0, count = frames.frames(); k < count; k++)
        {
            for (int entry = frames.firstEntry(k) + 1, end = frames.firstEntry(k + 1); entry < end; entry++)
            {
                sendPages.add(frames.entryBase(entry), frames.entryLength(entry));
            }
        }
        return sendPages.readable();
    }

    /** Frames of the last {@link #sendSegments} dropped by loss injection. */
    int injectedLosses()
    {
        return injectedLosses;
    }

    /** Sends of the last {@link #sendSegments} that carried two or more frames by segmentation offload. */
    int offloadedSends()
    {
        return offloadedSends;
    }

    /** Whether the last {@link #sendSegments} stopped at a page it could not read (EFAULT). */
    boolean faulted()
    {
        return faulted;
    }

    private int sendRun(
        final FrameIovecs frames, final int from, final int to, final int segmentBytes,
        final InetSocketAddress destination) throws IOException
    {
        if (from >= to)
        {
            return 0;
        }
        if (to - from > 1)
        {
            sendControl.set(ValueLayout.JAVA_SHORT, LibcSockets.CMSGHDR_BYTES, (short)segmentBytes);
            final int status = sendFrames(frames, from, to, destination, segmentBytes);
            if (status == SENT)
            {
                offloadedSends++;
                return to - from;
            }
            if (status != REFUSED)
            {
                return 0;
            }
            segmentLimitBytes = Math.min(segmentLimitBytes, segmentBytes);
        }
        int sent = 0;
        for (int k = from; k < to && !faulted; k++)
        {
            sent += sendFrames(frames, k, k + 1, destination, 0) == SENT ? 1 : 0;
        }
        return sent;
    }

    /** @return as {@link #sendLocked}; a fault is recorded in {@link #faulted}. */
    private int sendFrames(
        final FrameIovecs frames, final int from, final int to, final InetSocketAddress destination,
        final int segmentBytes) throws IOException
    {
        final int first = frames.firstEntry(from);
        final int status = sendLocked(destination, frames.entryAddress(first), frames.firstEntry(to) - first,
            segmentBytes);
        faulted |= status == FAULTED;
        return status;
    }

    /**
     * Send {@code datagram} as it is: a datagram that is no MXoE frame (a liveness probe, with its own check).
     *
     * @return {@link #SENT} or {@link #SEND_BUFFER_FULL}.
     */
    int sendDatagram(final MemorySegment datagram, final InetSocketAddress to) throws IOException
    {
        sendLock.lock();
        try
        {
            Libc.putIovec(sendIov, 0, datagram.address(), datagram.byteSize());
            return sendLocked(to, 1, 0);
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /** Zero-length sends are doorbells: they wake a same-host receiver parked in {@link #awaitReadable}. */
    void sendDoorbell(final InetSocketAddress to) throws IOException
    {
        sendLock.lock();
        try
        {
            sendLocked(to, 0, 0);
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /** {@link #sendLocked(InetSocketAddress, long, int, int)} of {@link #sendIov}: a fault is a caller's error. */
    private int sendLocked(final InetSocketAddress to, final int iovCount, final int segmentBytes) throws IOException
    {
        final int status = sendLocked(to, sendIov.address(), iovCount, segmentBytes);
        if (status == FAULTED)
        {
            throw new IOException("sendmsg to " + to + ": " + Errno.describe(Errno.EFAULT));
        }
        return status;
    }

    /**
     * One sendmsg of the {@code iovCount} iovecs at {@code iovAddress}, offloaded in segments of {@code segmentBytes}
     * unless 0, waiting out a full send buffer for a while.
     *
     * @return {@link #SENT}, {@link #SEND_BUFFER_FULL}, {@link #FAULTED} when an iovec points at memory not mapped,
     *         or {@link #REFUSED} when an offloaded send was refused (EINVAL, EMSGSIZE, EIO: the segments do not fit
     *         the route).
     */
    private int sendLocked(final InetSocketAddress to, final long iovAddress, final int iovCount,
        final int segmentBytes) throws IOException
    {
        if (closed)
        {
            throw new IOException("UDP socket of port " + port + " is closed");
        }
        final MemorySegment name = sendAddresses.encode(to);
        sendHeader.set(ValueLayout.ADDRESS, LibcSockets.MSG_NAME, name);
        sendHeader.set(ValueLayout.JAVA_INT, LibcSockets.MSG_NAMELEN, sendAddresses.lengthOf(to));
        sendHeader.set(ValueLayout.JAVA_LONG, LibcSockets.MSG_IOV, iovAddress);
        sendHeader.set(ValueLayout.JAVA_LONG, LibcSockets.MSG_IOVLEN, iovCount);
        sendHeader.set(ValueLayout.ADDRESS, LibcSockets.MSG_CONTROL, segmentBytes > 0 ? sendControl : MemorySegment.NULL);
        sendHeader.set(ValueLayout.JAVA_LONG, LibcSockets.MSG_CONTROLLEN, segmentBytes > 0 ? CMSG_SPACE_INT_BYTES : 0);
        int spins = 0;
        while (true)
        {
            final long rc = LibcSockets.sendmsg(sendCapture, fd, sendHeader, 0);
            if (rc >= 0)
            {
                return SENT;
            }
            final int errno = (int)-rc;
            if (errno == Errno.EAGAIN || errno == Errno.ENOBUFS)
            {
                if (++spins > SEND_FULL_SPINS)
                {
                    return SEND_BUFFER_FULL;
                }
                Thread.yield();
                continue;
            }
            if (segmentBytes > 0 && (errno == Errno.EINVAL || errno == Errno.EMSGSIZE || errno == Errno.EIO))
            {
                return REFUSED;
            }
            if (errno == Errno.EFAULT)
            {
                return FAULTED;
            }
            throw new IOException("sendmsg to " + to + ": " + Errno.describe(errno));
        }
    }

    /** Block until a datagram is readable, {@link #wakeup} is called, or the timeout passes. */
    void awaitReadable(final long timeoutNs) throws IOException
    {
        if (closed)
        {
            throw new IOException("UDP socket of port " + port + " is closed");
        }
        final int timeoutMs = (int)Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
        if (LibcSockets.poll(pollFds, 2, timeoutMs) > 0 &&
            pollFds.get(ValueLayout.JAVA_SHORT, POLLFD_BYTES + POLL_REVENTS) != 0)
        {
            LibcSockets.read(wakeFd, drainValue, 8);
        }
    }

    /** Any thread: end a wait in {@link #awaitReadable}, or make the next one return at once. */
    void wakeup()
    {
        if (!closed)
        {
            LibcSockets.write(wakeFd, wakeValue, 8);
        }
    }

    @Override
    public void close()
    {
        sendLock.lock();
        try
        {
            if (closed)
            {
                return;
            }
            closed = true;
            Libc.close(sendCapture, fd);
            Libc.close(sendCapture, wakeFd);
        }
        finally
        {
            sendLock.unlock();
        }
    }
}
