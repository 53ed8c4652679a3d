package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.LibcSockets;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;

/**
 * The receive side of an endpoint's UDP socket ({@link UdpTransport}): one datagram, or one run of frames that UDP_GRO
 * kept whole ({@link #receivedSegmentBytes} says where its frames start), into its receive buffer, or scattered as a
 * plan's iovecs lay out. Checks nothing in the bytes: the dispatcher checks each frame. Agent thread only.
 */
final class UdpReceiver
{
    /** Largest datagram (and largest offloaded run) received: a UDP payload is below 64 KiB. */
    static final int RECEIVE_BUFFER_BYTES = 64 * 1024;
    /** Bytes {@link #peek} reads: more than any frame header with its kind part. */
    static final int PEEK_BYTES = 128;

    private final int fd;
    private final LossInjector rxLoss;
    private final MemorySegment receiveHeader;
    private final MemorySegment receiveCapture;
    private final MemorySegment receiveIov;
    private final MemorySegment peekIov;
    private final MemorySegment receiveName;
    private final MemorySegment receiveControl;
    private final MemorySegment receiveBuffer;
    private final SockaddrCache receiveAddresses;
    private int receivedBytes;
    private int receivedSegmentBytes;
    private boolean receiveFaulted;

    UdpReceiver(final Arena arena, final int fd, final int family, final int maxFrameBytes, final LossInjector rxLoss)
    {
        this.fd = fd;
        this.rxLoss = rxLoss;
        receiveHeader = arena.allocate(LibcSockets.MSGHDR_BYTES, 8);
        receiveCapture = Libc.allocateCaptureState(arena);
        receiveIov = arena.allocate(Libc.IOVEC_BYTES, 8);
        peekIov = arena.allocate(Libc.IOVEC_BYTES, 8);
        receiveName = arena.allocate(32, 8);
        receiveControl = arena.allocate(64, 8);
        receiveBuffer = arena.allocate(Math.max(maxFrameBytes + 1, RECEIVE_BUFFER_BYTES), 64);
        receiveAddresses = new SockaddrCache(arena, family);
        Libc.putIovec(receiveIov, 0, receiveBuffer.address(), receiveBuffer.byteSize());
        receiveHeader.set(ValueLayout.ADDRESS, LibcSockets.MSG_NAME, receiveName);
        receiveHeader.set(ValueLayout.ADDRESS, LibcSockets.MSG_CONTROL, receiveControl);
    }

    /**
     * Receive one datagram (or one offloaded run of frames) into the receive buffer, agent thread only.
     *
     * @return the source, or null if none is waiting.
     */
    InetSocketAddress receive()
    {
        while (true)
        {
            final long n = receiveWith(receiveIov.address(), 1, LibcSockets.MSG_DONTWAIT, false);
            if (n < 0)
            {
                return null;
            }
            final InetSocketAddress source = received(n);
            if (source != null)
            {
                return source;
            }
        }
    }

    /**
     * Look at the next datagram without taking it: the first {@link #PEEK_BYTES} of it land at the start of the
     * receive buffer and {@link #receivedSegmentBytes} says where its frames start. Agent thread only.
     *
     * @return its length (it may exceed the receive buffer), or -1 if none is waiting.
     */
    int peek()
    {
        Libc.putIovec(peekIov, 0, receiveBuffer.address(), PEEK_BYTES);
        final long n = receiveWith(peekIov.address(), 1, LibcSockets.MSG_DONTWAIT | LibcSockets.MSG_PEEK |
            LibcSockets.MSG_TRUNC, false);
        return n < 0 ? -1 : (int)n;
    }

    /**
     * Receive the datagram {@link #peek} saw, its bytes scattered as {@code iovecs} lists (each frame's header at
     * its place in the receive buffer, so {@link #receivedBuffer} reads as after {@link #receive}). Agent thread only.
     *
     * @return the source, or null if none is waiting, the source is not one we know (the datagram is dropped) or
     *         the datagram was lost to an iovec that points at memory not mapped ({@link #receiveFaulted}).
     */
    InetSocketAddress receive(final FrameIovecs iovecs)
    {
        final long n = receiveWith(iovecs.entryAddress(0), iovecs.entries(), LibcSockets.MSG_DONTWAIT, true);
        receiveFaulted = n == -Errno.EFAULT;
        return n < 0 ? null : received(n);
    }

    /** Whether the last {@link #receive(FrameIovecs)} lost its datagram to an unmapped page (EFAULT). */
    boolean receiveFaulted()
    {
        return receiveFaulted;
    }

    /**
     * @param captureErrno whether a failure must say why: the result is then -errno, else -1.
     * @return bytes received (the datagram's length with MSG_TRUNC), or negative when none was.
     */
    private long receiveWith(final long iovAddress, final long iovCount, final int flags, final boolean captureErrno)
    {
        receiveHeader.set(ValueLayout.JAVA_INT, LibcSockets.MSG_NAMELEN, 32);
        receiveHeader.set(ValueLayout.JAVA_LONG, LibcSockets.MSG_CONTROLLEN, receiveControl.byteSize());
        receiveHeader.set(ValueLayout.JAVA_LONG, LibcSockets.MSG_IOV, iovAddress);
        receiveHeader.set(ValueLayout.JAVA_LONG, LibcSockets.MSG_IOVLEN, iovCount);
        final long n = captureErrno ? LibcSockets.recvmsg(receiveCapture, fd, receiveHeader, flags) :
            LibcSockets.recvmsg(fd, receiveHeader, flags);
        if (n >= 0)
        {
            receivedSegmentBytes = (int)n;
            if (receiveHeader.get(ValueLayout.JAVA_LONG, LibcSockets.MSG_CONTROLLEN) >= LibcSockets.CMSGHDR_BYTES + 4 &&
                receiveControl.get(ValueLayout.JAVA_INT, LibcSockets.CMSG_LEVEL) == LibcSockets.SOL_UDP &&
                receiveControl.get(ValueLayout.JAVA_INT, LibcSockets.CMSG_TYPE) == LibcSockets.UDP_GRO)
            {
                final int segment = receiveControl.get(ValueLayout.JAVA_INT, LibcSockets.CMSGHDR_BYTES);
                if (segment > 0)
                {
                    receivedSegmentBytes = segment;
                }
            }
        }
        return n;
    }

    /** The datagram of {@code n} bytes just taken: its source, or null (and no bytes) if it is none we know. */
    private InetSocketAddress received(final long n)
    {
        receivedBytes = (int)n;
        final InetSocketAddress source = receiveAddresses.decode(receiveName,
            receiveHeader.get(ValueLayout.JAVA_INT, LibcSockets.MSG_NAMELEN));
        if (source == null)
        {
            receivedBytes = 0;
            receivedSegmentBytes = 0;
        }
        return source;
    }

    /** Bytes of the datagram (or run) last received. */
    int receivedBytes()
    {
        return receivedBytes;
    }

    /** Where the frames of the run last received start: every this many bytes (its length when a single datagram). */
    int receivedSegmentBytes()
    {
        return receivedSegmentBytes;
    }

    /** The buffer holding the datagram last received (from offset 0), valid until the next receive. */
    MemorySegment receivedBuffer()
    {
        return receiveBuffer;
    }

    /** True if the frame of the last received datagram at hand is to be dropped by loss injection. */
    boolean dropReceived()
    {
        return rxLoss.drop();
    }
}
