package io.pinmx.pin.user;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.spi.RemoteRegion;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A program, not a test: the round trip of one put of 8 bytes, of one fetch-and-add and of one put of
 * {@link #LARGE_PUT_BYTES} on the user driver, from start to end event, between two endpoints of this JVM, each with
 * its progress thread; same host (puts by process_vm_writev, the atomic by the target's agent through its
 * shared-memory ring) and over UDP (the large put as a window of PUT frames). Prints the median and the 90th
 * percentile in microseconds, and the large put's median in MB/s. Argument: operations per case (default 20,000;
 * a hundredth as many large puts), after a tenth as many to warm up.
 */
public final class RemoteWriteCost
{
    static final int LARGE_PUT_BYTES = 1 << 20;

    private RemoteWriteCost()
    {
    }

    public static void main(final String[] args)
    {
        final int operations = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        for (final boolean sameHost : new boolean[] {true, false})
        {
            try (Arena arena = Arena.ofShared();
                 DriverEndpoint target = open(sameHost, 0);
                 DriverEndpoint origin = open(sameHost, 1))
            {
                final MemorySegment memory = arena.allocate(LARGE_PUT_BYTES, 4096);
                final RemoteRegion region = target.declareRemoteRegion(new MemorySegment[] {memory}, 1);
                final MemorySegment source = arena.allocate(LARGE_PUT_BYTES, 8);
                final int local = origin.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
                final int peer = origin.acquirePeer(target.address().board());
                final PutSpec put = new PutSpec();
                put.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
                final AtomicSpec atomic = new AtomicSpec();
                atomic.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
                final String path = sameHost ? "same host" : "udp";
                report(path + " put 8 B", time(origin, operations, EventType.PUT_DONE,
                    h -> origin.startPut(put.source(local, h).contiguous(64, 0, 8))));
                report(path + " fetch-and-add", time(origin, operations, EventType.ATOMIC_DONE,
                    h -> origin.startAtomic(atomic.word(AtomicOp.FETCH_ADD, 8, 0, 1, 0, h))));
                final long[] large = time(origin, Math.max(20, operations / 100), EventType.PUT_DONE,
                    h -> origin.startPut(put.source(local, h).contiguous(0, 0, LARGE_PUT_BYTES)));
                report(path + " put 1 MiB", large);
                System.out.printf("%-26s median %7.1f MB/s%n", path + " put 1 MiB", LARGE_PUT_BYTES * 1e3 /
                    large[large.length / 2]);
                System.out.printf("%-26s resent %d, atomics answered again %d, load %s%n", path,
                    origin.counters().get(Counter.REMOTE_WRITES_RESENT),
                    target.counters().get(Counter.ATOMIC_DUPLICATES), loadAverage());
            }
        }
    }

    private static String loadAverage()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        }
        catch (final IOException e)
        {
            return "unknown";
        }
    }

    private interface Start
    {
        void start(int handle);
    }

    private static DriverEndpoint open(final boolean sameHost, final int index)
    {
        return new UserDriver("remote-write cost").open(EndpointConfig.builder().endpointIndex(index)
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withSameHost(sameHost)).build());
    }

    private static long[] time(final DriverEndpoint origin, final int operations, final EventType done, final Start start)
    {
        final long[] ns = new long[operations];
        final EventType[] seen = new EventType[1];
        for (int i = -operations / 10; i < operations; i++)
        {
            final long t0 = System.nanoTime();
            start.start(i);
            seen[0] = null;
            while (seen[0] == null)
            {
                origin.poll((DriverEvent e) -> seen[0] = e.type(), 1);
            }
            if (seen[0] != done)
            {
                throw new IllegalStateException("expected " + done + ", got " + seen[0]);
            }
            if (i >= 0)
            {
                ns[i] = System.nanoTime() - t0;
            }
        }
        return ns;
    }

    private static void report(final String what, final long[] ns)
    {
        Arrays.sort(ns);
        System.out.printf("%-26s median %7.1f us  p90 %7.1f us%n", what, ns[ns.length / 2] / 1e3,
            ns[ns.length * 9 / 10] / 1e3);
    }
}
