package io.pinmx.pin.user;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.wire.FrameFlyweight;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The other JVM of {@link TwoProcessTest}: opens one user-space endpoint, echoes every received frame back to
 * its sender (addressed to the sender's endpoint and session), and obeys line commands on stdin:
 * {@code region BYTES SEED}, {@code unmapped}, {@code pull BOARD ENDPOINT SESSION_HEX REGION BYTES HANDLE},
 * {@code quit}. Answers on stdout: {@code ADDRESS}, {@code RECV}, {@code REGION}, {@code PULLED}, {@code FAILED}.
 */
public final class PeerProcess
{
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private PeerProcess()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final boolean sameHost = Boolean.parseBoolean(args[0]);
        final Arena arena = Arena.ofShared();
        final Map<Integer, MemorySegment> pullTargets = new ConcurrentHashMap<>();
        try (DriverEndpoint endpoint = new UserDriver("multi-process test").open(EndpointConfig.builder()
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withSameHost(sameHost)).build()))
        {
            final FrameFlyweight header = new FrameFlyweight();
            final MemorySegment echo = arena.allocate(64 * 1024);
            final int mySession = endpoint.address().sessionId();
            final Thread poller = new Thread(() ->
            {
                while (!Thread.currentThread().isInterrupted())
                {
                    endpoint.await(50_000_000L);
                    endpoint.poll((DriverEvent event) ->
                    {
                        if (event.type() == EventType.PULL_DONE)
                        {
                            say("PULLED " + event.pullHandle() + " " + Patterns.crc(pullTargets.get(event.pullHandle())));
                        }
                        else if (event.type() == EventType.PULL_FAILED)
                        {
                            say("FAILED " + event.pullHandle() + " " + event.error() + " " + event.errorMessage());
                        }
                        else if (event.frameLength() > 0)
                        {
                            final MemorySegment frame = event.frame();
                            header.wrap(frame, 0);
                            say("RECV " + header.kind() + " " + header.seq());
                            final int headerBytes = header.kind().headerBytes();
                            MemorySegment.copy(frame, 0, echo, 0, frame.byteSize());
                            echo.set(ValueLayout.JAVA_BYTE, FrameFlyweight.DST_ENDPOINT_OFFSET,
                                (byte)header.srcEndpoint());
                            echo.set(ValueLayout.JAVA_BYTE, FrameFlyweight.SRC_ENDPOINT_OFFSET,
                                (byte)endpoint.address().endpointIndex());
                            echo.set(U32, FrameFlyweight.DST_SESSION_OFFSET, header.srcSession());
                            echo.set(U32, FrameFlyweight.SRC_SESSION_OFFSET, mySession);
                            endpoint.send(event.peerIndex(), echo.asSlice(0, headerBytes),
                                echo.asSlice(headerBytes, frame.byteSize() - headerBytes));
                        }
                    }, 64);
                }
            }, "peer-poller");
            poller.setDaemon(true);
            poller.start();
            say("ADDRESS " + endpoint.address().board() + " " + endpoint.address().endpointIndex() + " " +
                Integer.toHexString(mySession));

            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null)
            {
                final String[] word = line.trim().split(" ");
                switch (word[0])
                {
                    case "region" ->
                    {
                        final MemorySegment region = arena.allocate(Long.parseLong(word[1]), 4096);
                        Patterns.fill(region, Long.parseLong(word[2]));
                        final int id = endpoint.declareRegion(new MemorySegment[] {region}, 1, RegionAccess.READ);
                        say("REGION " + id + " " + Patterns.crc(region));
                    }
                    case "unmapped" ->
                    {
                        final MemorySegment good = arena.allocate(64 * 1024, 4096);
                        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(64 * 1024);
                        say("REGION " + endpoint.declareRegion(new MemorySegment[] {good, unmapped}, 2,
                            RegionAccess.READ) + " 0");
                    }
                    case "pull" ->
                    {
                        final long bytes = Long.parseLong(word[5]);
                        final int handle = Integer.parseInt(word[6]);
                        final MemorySegment target = arena.allocate(bytes, 4096);
                        pullTargets.put(handle, target);
                        final int targetId = endpoint.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
                        endpoint.startPull(new PullSpec().peerIndex(endpoint.acquirePeer(BoardAddress.parse(word[1])))
                            .remoteEndpointIndex(Integer.parseInt(word[2]))
                            .remoteSessionId(Integer.parseUnsignedInt(word[3], 16))
                            .remoteRegionId(Integer.parseInt(word[4])).localRegionId(targetId)
                            .length(bytes).pullHandle(handle));
                    }
                    case "quit" ->
                    {
                        poller.interrupt();
                        return;
                    }
                    default -> say("UNKNOWN " + line);
                }
            }
        }
    }

    private static synchronized void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }
}
