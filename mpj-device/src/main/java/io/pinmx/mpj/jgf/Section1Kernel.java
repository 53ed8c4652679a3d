package io.pinmx.mpj.jgf;

import mpi.Intracomm;
import mpi.MPI;

import java.util.EnumSet;
import java.util.Set;

/**
 * The operations of section 1, each with the suite's range of array sizes: {@code steps} sizes spaced evenly on a
 * log scale from {@link #SMALLEST_ELEMENTS} towards {@code largestElements}, and the element types it is run with.
 */
enum Section1Kernel
{
    PING_PONG("PingPong", 25, 5_000_000, true)
    {
        @Override
        Payload payload(final Payload.ElementType type, final int count, final int ranks)
        {
            return Payload.of(type, count, count, 0);
        }

        @Override
        void once(final Intracomm comm, final Payload p)
        {
            if (0 == comm.Rank())
            {
                comm.Ssend(p.send(), 0, p.count(), p.datatype(), 1, PING);
                comm.Recv(p.send(), 0, p.count(), p.datatype(), 1, PONG);
            }
            else
            {
                comm.Recv(p.send(), 0, p.count(), p.datatype(), 0, PING);
                comm.Ssend(p.send(), 0, p.count(), p.datatype(), 0, PONG);
            }
        }
    },
    BARRIER("Barrier", 1, 4, false)
    {
        @Override
        Payload payload(final Payload.ElementType type, final int count, final int ranks)
        {
            return Payload.of(type, 0, 0, 0);
        }

        @Override
        void once(final Intracomm comm, final Payload p)
        {
            comm.Barrier();
        }
    },
    BCAST("Bcast", 25, 5_000_000, true)
    {
        @Override
        Payload payload(final Payload.ElementType type, final int count, final int ranks)
        {
            return Payload.of(type, count, count, 0);
        }

        @Override
        void once(final Intracomm comm, final Payload p)
        {
            comm.Bcast(p.send(), 0, p.count(), p.datatype(), 0);
        }
    },
    ALLTOALL("Alltoall", 20, 1_000_000, true)
    {
        @Override
        Payload payload(final Payload.ElementType type, final int count, final int ranks)
        {
            return Payload.of(type, count, count * ranks, count * ranks);
        }

        @Override
        void once(final Intracomm comm, final Payload p)
        {
            comm.Alltoall(p.send(), 0, p.count(), p.datatype(), p.receive(), 0, p.count(), p.datatype());
        }
    },
    GATHER("Gather", 25, 5_000_000, true)
    {
        @Override
        Payload payload(final Payload.ElementType type, final int count, final int ranks)
        {
            return Payload.of(type, count, count, count * ranks);
        }

        @Override
        void once(final Intracomm comm, final Payload p)
        {
            comm.Gather(p.send(), 0, p.count(), p.datatype(), p.receive(), 0, p.count(), p.datatype(), 0);
        }
    },
    SCATTER("Scatter", 2, 5_000_000, true)
    {
        @Override
        Payload payload(final Payload.ElementType type, final int count, final int ranks)
        {
            return Payload.of(type, count, count * ranks, count);
        }

        @Override
        void once(final Intracomm comm, final Payload p)
        {
            comm.Scatter(p.send(), 0, p.count(), p.datatype(), p.receive(), 0, p.count(), p.datatype(), 0);
        }
    },
    REDUCE("Reduce", 2, 5_000_000, false)
    {
        @Override
        Payload payload(final Payload.ElementType type, final int count, final int ranks)
        {
            return Payload.of(type, count, count, count);
        }

        @Override
        void once(final Intracomm comm, final Payload p)
        {
            comm.Reduce(p.send(), 0, p.receive(), 0, p.count(), MPI.DOUBLE, MPI.SUM, 0);
        }
    };

    static final int SMALLEST_ELEMENTS = 4;
    private static final int PING = 1;
    private static final int PONG = 2;

    private final String label;
    private final int steps;
    private final int largestElements;
    private final boolean withObjects;

    Section1Kernel(final String label, final int steps, final int largestElements, final boolean withObjects)
    {
        this.label = label;
        this.steps = steps;
        this.largestElements = largestElements;
        this.withObjects = withObjects;
    }

    String label()
    {
        return label;
    }

    /** Barrier moves no data; PingPong is between ranks 0 and 1 only; the rest are collectives. */
    boolean movesData()
    {
        return this != BARRIER;
    }

    /** The collectives are followed by a barrier each time, whose cost the measurement subtracts again. */
    boolean isCollective()
    {
        return this != BARRIER && this != PING_PONG;
    }

    int steps()
    {
        return steps;
    }

    /** The suite's size of step {@code step}: log-spaced, truncated to whole elements. */
    int elements(final int step)
    {
        final double logRange = Math.log(largestElements) - Math.log(SMALLEST_ELEMENTS);
        return (int)Math.exp(Math.log(SMALLEST_ELEMENTS) + (double)step / steps * logRange);
    }

    Set<Payload.ElementType> elementTypes()
    {
        return withObjects ? EnumSet.allOf(Payload.ElementType.class) : EnumSet.of(Payload.ElementType.DOUBLE);
    }

    abstract Payload payload(Payload.ElementType type, int count, int ranks);

    /** One operation, called by every rank of the communicator. */
    abstract void once(Intracomm comm, Payload p);

    /**
     * @throws IllegalArgumentException naming the kernel and listing the kernels if there is none by that name.
     */
    static Section1Kernel named(final String name)
    {
        for (final Section1Kernel kernel : values())
        {
            if (kernel.label.equalsIgnoreCase(name))
            {
                return kernel;
            }
        }
        final StringBuilder all = new StringBuilder();
        for (final Section1Kernel kernel : values())
        {
            all.append(all.isEmpty() ? "" : ", ").append(kernel.label);
        }
        throw new IllegalArgumentException("no benchmark '" + name + "'; the benchmarks are " + all);
    }
}
