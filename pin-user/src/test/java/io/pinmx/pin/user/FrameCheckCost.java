package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.wire.FrameKind;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A benchmark program, not a test: what the UDP frame check costs per served pull block, in CPU time of this thread
 * (so other load on the host inflates it less than wall time), as parts of one gathered send and its receive over
 * loopback: asking whether the payloads can be read (MADV_POPULATE_READ, and page by page), stamping the frames'
 * checks, the whole send, the receive and checking the frames received. The payloads lie in 64 MiB of 4 KiB pages,
 * then of transparent huge pages where the kernel gives them on madvise. Then single frames with a few bytes of
 * payload, sent and received, the payload an arena's or at an address from native code.
 * <p>
 * {@code java -cp pin-user/target/test-classes:CLASSPATH io.pinmx.pin.user.FrameCheckCost [PAYLOAD_BYTES [FRAMES]]},
 * default 1400 and 32 (a block over a 1500 B MTU).
 */
public final class FrameCheckCost
{
    private static final int HEADER_BYTES = 48;
    private static final long REGION_BYTES = 64L << 20;
    private static final long HUGE_PAGE_BYTES = 2L << 20;
    private static final int MADV_HUGEPAGE = 14;
    private static final int BLOCKS_A_ROUND = 1000;
    private static final int ROUNDS = 6;
    private static final int SINGLE_PAYLOAD_BYTES = 8;
    private static final int SINGLE_FRAMES_A_ROUND = 100_000;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final FrameIovecs iovecs;
    private final MemorySegment pieces;
    private final MemorySegment headers;
    private final int payloadBytes;
    private final int frames;
    private final long blockBytes;

    private FrameCheckCost(final Arena arena, final int payloadBytes, final int frames)
    {
        this.iovecs = new FrameIovecs(arena);
        this.pieces = arena.allocate(Libc.IOVEC_BYTES, 8);
        this.headers = arena.allocate((long)frames * HEADER_BYTES, 64);
        this.payloadBytes = payloadBytes;
        this.frames = frames;
        this.blockBytes = (long)payloadBytes * frames;
    }

    public static void main(final String[] args) throws Throwable
    {
        final int payloadBytes = args.length > 0 ? Integer.parseInt(args[0]) : 1400;
        final int frames = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        try (Arena arena = Arena.ofConfined();
            UdpTransport sender = open();
            UdpTransport receiver = open())
        {
            final FrameCheckCost cost = new FrameCheckCost(arena, payloadBytes, frames);
            System.out.println("# frame check cost per block of " + frames + " frames of " + payloadBytes +
                " B payload, CPU us of this thread; MADV_POPULATE_READ known: " +
                new ReadablePages(arena).populatesRead());
            for (final boolean huge : new boolean[] {false, true})
            {
                final MemorySegment region = map(arena, huge);
                for (int round = 0; round < ROUNDS; round++)
                {
                    System.out.println((huge ? "huge pages " : "4 KiB pages ") + cost.round(arena, region, sender,
                        receiver) + " load " + Files.readString(Path.of("/proc/loadavg")).trim());
                }
                Libc.munmap(Libc.allocateCaptureState(arena), region.address(), region.byteSize());
            }
            for (int round = 0; round < ROUNDS; round++)
            {
                System.out.println(cost.singleFrames(arena, sender, receiver) + " load " +
                    Files.readString(Path.of("/proc/loadavg")).trim());
            }
        }
    }

    /**
     * A TINY frame with an 8 B payload sent and received, its payload an arena's (copied behind the header) or at an
     * address from native code (its page asked, then gathered), and one with no payload.
     */
    private String singleFrames(final Arena arena, final UdpTransport sender, final UdpTransport receiver)
        throws IOException
    {
        final MemorySegment header = arena.allocate(FrameKind.TINY.headerBytes(), 8);
        final MemorySegment owned = arena.allocate(SINGLE_PAYLOAD_BYTES, 8).fill((byte)3);
        final MemorySegment fromNative = MemorySegment.ofAddress(owned.address()).reinterpret(SINGLE_PAYLOAD_BYTES);
        return String.format("%d B frame send + receive: arena's payload %.3f us, native address's %.3f us; " +
            "no payload %.3f us", SINGLE_PAYLOAD_BYTES, sendAndReceive(header, owned, sender, receiver),
            sendAndReceive(header, fromNative, sender, receiver), sendAndReceive(header, owned.asSlice(0, 0), sender,
            receiver));
    }

    private double sendAndReceive(final MemorySegment header, final MemorySegment payload, final UdpTransport sender,
        final UdpTransport receiver) throws IOException
    {
        final InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), receiver.port());
        final UdpReceiver udp = receiver.receiver();
        final FrameChecksum checksum = new FrameChecksum();
        final long start = cpuNs();
        for (int i = 0; i < SINGLE_FRAMES_A_ROUND; i++)
        {
            sender.send(header, payload, to);
            while (udp.receive() == null)
            {
                Thread.onSpinWait();
            }
            if (!checksum.matches(udp.receivedBuffer().address(), udp.receivedBytes()))
            {
                throw new IllegalStateException("a frame failed its check on loopback");
            }
        }
        return (cpuNs() - start) / 1e3 / SINGLE_FRAMES_A_ROUND;
    }

    private String round(final Arena arena, final MemorySegment region, final UdpTransport sender,
        final UdpTransport receiver) throws IOException
    {
        final ReadablePages populate = new ReadablePages(arena);
        final ReadablePages pageByPage = new ReadablePages(arena, false);
        final FrameChecksum checksum = new FrameChecksum();
        final InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), receiver.port());
        final UdpReceiver udp = receiver.receiver();
        final long asked = askEvery(region, populate);
        final long askedPageByPage = askEvery(region, pageByPage);
        long stamped = cpuNs();
        for (int i = 0; i < BLOCKS_A_ROUND; i++)
        {
            block(region, i);
            for (int k = 0; k < frames; k++)
            {
                checksum.stamp(iovecs, k);
            }
        }
        stamped = cpuNs() - stamped;
        long sent = 0;
        long received = 0;
        long checked = 0;
        for (int i = 0; i < BLOCKS_A_ROUND; i++)
        {
            block(region, i);
            final long start = cpuNs();
            final int count = sender.sendSegments(iovecs, HEADER_BYTES + payloadBytes, to);
            sent += cpuNs() - start;
            for (int got = 0; got < count; )
            {
                final long before = cpuNs();
                if (udp.receive() == null)
                {
                    continue;
                }
                final long after = cpuNs();
                final int bytes = udp.receivedBytes();
                final int segment = udp.receivedSegmentBytes();
                for (int at = 0; at < bytes; at += segment, got++)
                {
                    if (!checksum.matches(udp.receivedBuffer().address() + at, Math.min(segment, bytes - at)))
                    {
                        throw new IllegalStateException("a frame failed its check on loopback");
                    }
                }
                received += after - before;
                checked += cpuNs() - after;
            }
        }
        return String.format("send %.1f (ask %.2f [page by page %.2f] + stamp %.1f + sendmsg %.1f) | receive %.1f + " +
            "check %.1f", us(sent), us(asked), us(askedPageByPage), us(stamped), us(sent - asked - stamped),
            us(received), us(checked));
    }

    private long askEvery(final MemorySegment region, final ReadablePages pages)
    {
        final long start = cpuNs();
        for (int i = 0; i < BLOCKS_A_ROUND; i++)
        {
            block(region, i);
            pages.clear();
            for (int k = 0; k < frames; k++)
            {
                for (int entry = iovecs.firstEntry(k) + 1; entry < iovecs.firstEntry(k + 1); entry++)
                {
                    pages.add(iovecs.entryBase(entry), iovecs.entryLength(entry));
                }
            }
            if (!pages.readable())
            {
                throw new IllegalStateException("our own region is not readable");
            }
        }
        return cpuNs() - start;
    }

    private void block(final MemorySegment region, final int i)
    {
        final long at = i % (REGION_BYTES / blockBytes) * blockBytes;
        Libc.putIovec(pieces, 0, region.address() + at, blockBytes);
        iovecs.gathered(headers.address(), HEADER_BYTES, HEADER_BYTES, pieces, 1, payloadBytes, blockBytes);
    }

    private long cpuNs()
    {
        return threads.getCurrentThreadCpuTime();
    }

    private static double us(final long totalNs)
    {
        return totalNs / 1e3 / BLOCKS_A_ROUND;
    }

    private static UdpTransport open() throws IOException
    {
        return UdpTransport.open(InetAddress.getLoopbackAddress(), 0, UdpReceiver.RECEIVE_BUFFER_BYTES,
            new LossInjector(0, 1), new LossInjector(0, 1));
    }

    /** Fresh anonymous memory, 2 MiB aligned, advised MADV_HUGEPAGE before it is touched if {@code huge}. */
    private static MemorySegment map(final Arena arena, final boolean huge) throws Throwable
    {
        final MemorySegment capture = Libc.allocateCaptureState(arena);
        final long mapped = Libc.mmap(capture, 0, REGION_BYTES + HUGE_PAGE_BYTES, Libc.PROT_READ | Libc.PROT_WRITE,
            Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        if (mapped == Libc.MAP_FAILED)
        {
            throw new IllegalStateException("mmap of " + REGION_BYTES + " bytes failed: errno " + Libc.errno(capture));
        }
        final long start = (mapped + HUGE_PAGE_BYTES - 1) & -HUGE_PAGE_BYTES;
        if (huge)
        {
            final Linker linker = Linker.nativeLinker();
            final MethodHandle madvise = linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT));
            if ((int)madvise.invokeExact(start, REGION_BYTES, MADV_HUGEPAGE) != 0)
            {
                System.out.println("# MADV_HUGEPAGE refused: the huge-page rounds run on 4 KiB pages");
            }
        }
        return MemorySegment.ofAddress(start).reinterpret(REGION_BYTES).fill((byte)5);
    }
}
