package io.pinmx.pin.user;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.wire.EagerFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * The main job until the endpoint library lands: two local processes exchange TINY frames over the user-space
 * driver, then this one pulls a region from the other and checks it. It starts the second JVM itself.
 * <p>
 * Usage: {@code FramePingPong [--iterations N] [--pull-bytes B] [--pulls N] [--path shm|udp]
 * [--progress poll|thread]}. With {@code poll} (default) each process has exactly one thread spinning in
 * {@code poll} (yielding after a run of empty polls), two spinning threads on two cores; with {@code thread} the
 * progress threads spin briefly, then park, and the application threads await.
 * Pull bandwidth is printed with a same-run single-thread memory copy of the same size as its baseline.
 */
public final class FramePingPong
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    private static final int EMPTY_POLLS_BEFORE_YIELD = 64;

    private final DriverEndpoint endpoint;
    private final boolean threaded;
    private final EventHandler echoHandler = this::echo;
    private final EventHandler pingHandler = this::onEvent;
    private int emptyPolls;
    private final MemorySegment frame;
    private final EagerFrame tiny = new EagerFrame();
    private final FrameFlyweight received = new FrameFlyweight();
    private int lastSeq = -1;
    private int lastPullHandle;
    private EventType lastPullType;
    private String lastPullMessage = "";

    private FramePingPong(final DriverEndpoint endpoint, final Arena arena)
    {
        this.endpoint = endpoint;
        this.threaded = endpoint.info().has(DriverFeature.ASYNC_PULL_SERVING);
        this.frame = arena.allocate(FrameKind.TINY.headerBytes() + 8L, 8);
    }

    public static void main(final String[] args) throws Exception
    {
        String role = "initiator";
        int iterations = 10_000;
        long pullBytes = 4L << 20;
        int pulls = 50;
        String path = "shm";
        String progress = "poll";
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            switch (args[i])
            {
                case "--role" -> role = args[i + 1];
                case "--iterations" -> iterations = Integer.parseInt(args[i + 1]);
                case "--pull-bytes" -> pullBytes = Long.parseLong(args[i + 1]);
                case "--pulls" -> pulls = Integer.parseInt(args[i + 1]);
                case "--path" -> path = args[i + 1];
                case "--progress" -> progress = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i] +
                    "; use --iterations N --pull-bytes B --pulls N --path shm|udp --progress poll|thread");
            }
        }
        if (!path.equals("shm") && !path.equals("udp") || !progress.equals("poll") && !progress.equals("thread"))
        {
            throw new IllegalArgumentException("--path must be shm or udp and --progress poll or thread");
        }
        final UserDriverOptions options = UserDriverOptions.defaults()
            .withSameHost(path.equals("shm")).withProgressThread(progress.equals("thread"));
        try (Arena arena = Arena.ofShared();
             DriverEndpoint endpoint = new UserDriver().open(EndpointConfig.builder()
                 .options(UserDriverOptions.class, options).build()))
        {
            final FramePingPong pingPong = new FramePingPong(endpoint, arena);
            if (role.equals("responder"))
            {
                pingPong.respond(arena, pullBytes);
            }
            else
            {
                pingPong.initiate(arena, args, iterations, pullBytes, pulls, path, progress);
            }
        }
    }

    private void initiate(
        final Arena arena, final String[] args, final int iterations, final long pullBytes, final int pulls,
        final String path, final String progress) throws Exception
    {
        final Process responder = startResponder(args);
        try
        {
            final BufferedReader fromResponder = new BufferedReader(
                new InputStreamReader(responder.getInputStream(), StandardCharsets.UTF_8));
            final String[] hello = readLine(fromResponder, "READY ").split(" ");
            final int peer = endpoint.peerIndex(BoardAddress.parse(hello[0]));
            final int peerSession = Integer.parseUnsignedInt(hello[1], 16);
            final int regionId = Integer.parseInt(hello[2]);
            final long expectedCrc = Long.parseLong(hello[3]);

            final DriverInfo info = endpoint.info();
            System.out.println("driver: " + info.providerName() + " — " + info.chosenBecause());
            System.out.println("features: " + info.features() + ", pins memory: " + info.pinsMemory() +
                ", frame payload " + info.pullReplyPayloadBytes() + " B");
            System.out.println("processes: this JVM (pid " + ProcessHandle.current().pid() + ", " + endpoint.address() +
                ") and responder JVM (pid " + responder.pid() + ", " + hello[0] + ")");
            System.out.println("path: " + (path.equals("shm") ?
                "same-host shared-memory rings for frames, one process_vm_readv per pull" :
                "UDP datagrams for frames, PULL/PULL_REPLY over UDP for pulls"));
            System.out.println("progress: " + (progress.equals("poll") ?
                "no progress threads; the application thread of each process busy-polls the endpoint, " +
                    "yielding after 64 empty polls (2 spinning threads, 2 cores)" :
                "a progress thread per endpoint (spin, yield, then park); the application thread awaits events"));

            pingPong(peer, peerSession, Math.min(1_000, iterations));
            final long startNs = System.nanoTime();
            pingPong(peer, peerSession, iterations);
            final double halfRoundTripUs = (System.nanoTime() - startNs) / 1e3 / iterations / 2;
            System.out.printf("TINY ping-pong: %d round trips, half round trip %.2f us%n", iterations, halfRoundTripUs);

            final MemorySegment target = arena.allocate(pullBytes, 4096);
            final int targetId = endpoint.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
            final PullSpec spec = new PullSpec().peerIndex(peer).remoteEndpointIndex(0).remoteSessionId(peerSession)
                .remoteRegionId(regionId).localRegionId(targetId).length(pullBytes);
            pull(spec.pullHandle(1));
            if (crc(target) != expectedCrc)
            {
                throw new IllegalStateException("pulled " + pullBytes + " bytes with checksum " + crc(target) +
                    ", the responder's region has " + expectedCrc);
            }
            final MemorySegment copySource = arena.allocate(pullBytes, 4096);
            copySource.fill((byte)1);
            double pullNs = 0;
            double copyNs = 0;
            for (int i = 0; i < pulls; i++)
            {
                final long pullStartNs = System.nanoTime();
                pull(spec.pullHandle(2 + i));
                final long copyStartNs = System.nanoTime();
                MemorySegment.copy(copySource, 0, target, 0, pullBytes);
                pullNs += copyStartNs - pullStartNs;
                copyNs += System.nanoTime() - copyStartNs;
            }
            final double pullMBps = pullBytes * (double)pulls / pullNs * 1e3;
            final double copyMBps = pullBytes * (double)pulls / copyNs * 1e3;
            System.out.printf("pull: %d x %d bytes, first one checksum-verified, %.0f MB/s; same-run memcpy of the " +
                "same size (interleaved) %.0f MB/s; ratio pull/memcpy %.3f%n",
                pulls, pullBytes, pullMBps, copyMBps, pullMBps / copyMBps);
        }
        finally
        {
            try (PrintWriter toResponder = new PrintWriter(responder.getOutputStream(), true, StandardCharsets.UTF_8))
            {
                toResponder.println("quit");
            }
            if (!responder.waitFor(10, TimeUnit.SECONDS))
            {
                responder.destroyForcibly();
            }
        }
    }

    private void pingPong(final int peer, final int peerSession, final int iterations)
    {
        for (int i = 0; i < iterations; i++)
        {
            sendTiny(peer, 0, peerSession, i);
            final long deadlineNs = System.nanoTime() + WAIT_NS;
            while (lastSeq != i)
            {
                progress(deadlineNs, "echo of TINY " + i);
            }
        }
    }

    private void pull(final PullSpec spec)
    {
        endpoint.startPull(spec);
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        while (lastPullHandle != spec.pullHandle())
        {
            progress(deadlineNs, "pull " + spec.pullHandle());
        }
        if (lastPullType != EventType.PULL_DONE)
        {
            throw new IllegalStateException("pull " + spec + " failed: " + lastPullMessage);
        }
    }

    private void progress(final long deadlineNs, final String what)
    {
        pollOnce(pingHandler);
        if (System.nanoTime() - deadlineNs > 0)
        {
            throw new IllegalStateException("no " + what + " within 30 s");
        }
    }

    private void respond(final Arena arena, final long pullBytes) throws IOException
    {
        final MemorySegment region = arena.allocate(pullBytes, 4096);
        for (long i = 0; i < pullBytes; i += 8)
        {
            region.set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
        }
        final int regionId = endpoint.declareRegion(new MemorySegment[] {region}, 1, RegionAccess.READ);
        final Thread stdinWatcher = Thread.currentThread();
        final Thread quit = new Thread(() ->
        {
            try
            {
                System.in.read();
            }
            catch (final IOException ignored)
            {
                // Parent gone: stop too.
            }
            stdinWatcher.interrupt();
        }, "quit-watcher");
        quit.setDaemon(true);
        quit.start();
        System.out.println("READY " + endpoint.address().board() + " " +
            Integer.toHexString(endpoint.address().sessionId()) + " " + regionId + " " + crc(region));
        System.out.flush();
        while (!Thread.currentThread().isInterrupted())
        {
            pollOnce(echoHandler);
        }
    }

    /**
     * With progress threads the application awaits (the driver spins, then parks); without, it busy-polls and
     * yields after a run of empty polls so that, with more runnable threads than cores, the peer gets the CPU.
     */
    private void pollOnce(final EventHandler handler)
    {
        if (threaded)
        {
            endpoint.await(TimeUnit.MILLISECONDS.toNanos(100));
        }
        if (endpoint.poll(handler, 16) > 0)
        {
            emptyPolls = 0;
        }
        else if (++emptyPolls > EMPTY_POLLS_BEFORE_YIELD)
        {
            Thread.yield();
        }
    }

    private void echo(final DriverEvent event)
    {
        if (event.type() == EventType.RECV_TINY)
        {
            received.wrap(event.frame(), 0);
            sendTiny(event.peerIndex(), received.srcEndpoint(), received.srcSession(), received.seq());
        }
    }

    private void onEvent(final DriverEvent event)
    {
        switch (event.type())
        {
            case RECV_TINY -> lastSeq = received.wrap(event.frame(), 0).seq();
            case PULL_DONE, PULL_FAILED ->
            {
                lastPullType = event.type();
                lastPullMessage = event.errorMessage().toString();
                lastPullHandle = event.pullHandle();
            }
            default ->
            {
            }
        }
    }

    private void sendTiny(final int peer, final int dstEndpoint, final int dstSession, final int seq)
    {
        tiny.wrap(frame, 0).encodeHeader(FrameKind.TINY, dstEndpoint, endpoint.address().endpointIndex(), dstSession,
            endpoint.address().sessionId(), seq, 8);
        tiny.encode(seq, 8);
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, FrameKind.TINY.headerBytes(), seq);
        endpoint.send(peer, frame.asSlice(0, FrameKind.TINY.headerBytes()), frame.asSlice(FrameKind.TINY.headerBytes(), 8));
    }

    private static Process startResponder(final String[] args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") ||
                arg.startsWith("--enable-native-access") || arg.startsWith("-D"))
            {
                command.add(arg);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FramePingPong.class.getName());
        command.addAll(List.of(args));
        command.add("--role");
        command.add("responder");
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String readLine(final BufferedReader reader, final String prefix) throws IOException
    {
        String line;
        while ((line = reader.readLine()) != null)
        {
            if (line.startsWith(prefix))
            {
                return line.substring(prefix.length());
            }
        }
        throw new IOException("responder exited before printing '" + prefix + "'");
    }

    private static long crc(final MemorySegment segment)
    {
        final CRC32 crc = new CRC32();
        crc.update(segment.asByteBuffer());
        return crc.getValue();
    }
}
