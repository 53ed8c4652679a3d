package io.pinmx.job;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriverOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/**
 * A job of 2 ranks, each started on its own "host" (a network namespace of {@link VethNamespaces}, or a real one):
 * rank 0 sends a message of every size class (empty, tiny, small, medium, rendezvous up to 4 MiB) and rank 1 echoes
 * each back; both check every byte. Then each rank sends every size to itself, as an MPI rank does (its frames are
 * addressed to its own interface, which a NIC or veth never returns). Prints where each rank was reachable and by
 * which rule, {@code rank 0 echoed N bytes} and {@code rank R sent itself N bytes}. Exits non-zero (an exception
 * naming size and offset) on any mismatch.
 */
public final class CrossHostExchange
{
    /** Every size class of the endpoint library, both sides of each limit, up to a multi-block rendezvous. */
    static final long[] SIZES = {0, 1, 32, 33, 128, 129, 1500, 20_000, 32 * 1024, 32 * 1024 + 1, 1 << 20, 4 << 20};
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private CrossHostExchange()
    {
    }

    /** @return the payload bytes rank 0 sends and gets back, in total. */
    public static long echoedBytes()
    {
        long total = 0;
        for (final long size : SIZES)
        {
            total += 2 * size;
        }
        return total;
    }

    /** @return the payload bytes each rank sends itself. */
    public static long selfSentBytes()
    {
        return echoedBytes() / 2;
    }

    public static void main(final String[] args)
    {
        // The user driver publishes no node-wide counters here: nothing on this path needs Chronicle Map.
        final EndpointTuning noCounters = new EndpointTuning()
        {
            @Override
            public void driverConfig(final EndpointConfig.Builder config)
            {
                config.options(UserDriverOptions.class, UserDriverOptions.defaults().withCountersFile(null));
            }
        };
        try (Job job = Job.join(System.getenv());
            JobEndpoint ranks = JobEndpoint.open(job, System.getenv(), noCounters);
            Arena arena = Arena.ofShared())
        {
            if (2 != job.size())
            {
                throw new IllegalArgumentException("CrossHostExchange needs 2 ranks, got " + job.size());
            }
            final RankAddress reachable = ranks.reachable();
            final Partner other = ranks.partner(1 - job.rank());
            System.out.println("rank " + job.rank() + " reachable at " +
                (null == reachable.address() ? "-" : reachable.address().getHostAddress()) + " on " +
                reachable.interfaceName() + " (" + reachable.chosenBy() + "), board " + ranks.endpoint().address().board() +
                "; rank " + (1 - job.rank()) + " at board " + other.address().board());
            final Endpoint endpoint = ranks.endpoint();
            final MemorySegment out = arena.allocate(SIZES[SIZES.length - 1]);
            final MemorySegment in = arena.allocate(SIZES[SIZES.length - 1]);
            long echoed = 0;
            for (int i = 0; i < SIZES.length; i++)
            {
                final long size = SIZES[i];
                final Request received = endpoint.irecv(other.id(), i, -1L, in.asSlice(0, size));
                if (0 == job.rank())
                {
                    fill(out, size, i);
                    endpoint.send(other, i, out.asSlice(0, size), TIMEOUT);
                    check(received.awaitOrThrow(TIMEOUT).bytesTransferred(), in, size, i);
                    echoed += 2 * size;
                }
                else
                {
                    check(received.awaitOrThrow(TIMEOUT).bytesTransferred(), in, size, i);
                    endpoint.send(other, i, in.asSlice(0, size), TIMEOUT);
                }
                received.release();
            }
            if (0 == job.rank())
            {
                System.out.println("rank 0 echoed " + echoed + " bytes");
            }
            System.out.println("rank " + job.rank() + " sent itself " + sendToSelf(endpoint, endpoint.connect(
                endpoint.address(), endpoint.options().applicationKey(), TIMEOUT), out, in) + " bytes");
            // Nobody closes its endpoint while the other may still wait for an ack from it.
            job.barrier();
        }
    }

    /** Every size from this rank to itself, each received into a posted receive; @return the bytes sent. */
    private static long sendToSelf(final Endpoint endpoint, final Partner self, final MemorySegment out,
        final MemorySegment in)
    {
        long sent = 0;
        for (int i = 0; i < SIZES.length; i++)
        {
            final long size = SIZES[i];
            final int seed = SIZES.length + i;
            final Request received = endpoint.irecv(self.id(), seed, -1L, in.asSlice(0, size));
            fill(out, size, seed);
            endpoint.send(self, seed, out.asSlice(0, size), TIMEOUT);
            check(received.awaitOrThrow(TIMEOUT).bytesTransferred(), in, size, seed);
            received.release();
            sent += size;
        }
        return sent;
    }

    private static void fill(final MemorySegment buffer, final long size, final int seed)
    {
        for (long b = 0; b < size; b++)
        {
            buffer.set(ValueLayout.JAVA_BYTE, b, (byte)(b * 31 + seed));
        }
    }

    private static void check(final long received, final MemorySegment buffer, final long size, final int seed)
    {
        if (received != size)
        {
            throw new IllegalStateException("message " + seed + ": received " + received + " bytes, sent " + size);
        }
        for (long b = 0; b < size; b++)
        {
            if (buffer.get(ValueLayout.JAVA_BYTE, b) != (byte)(b * 31 + seed))
            {
                throw new IllegalStateException("message " + seed + " of " + size + " bytes differs at offset " + b);
            }
        }
    }
}
