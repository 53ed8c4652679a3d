package io.pinmx.rma;

import io.pinmx.job.Job;

/**
 * A rank program for {@link DriverWritesLauncherTest}. {@code auto}: the peer's slice takes no driver writes, and a
 * put and a fetch-and-add to it (through its data server) land; each rank prints "DATA SERVER". {@code refused}:
 * Rma.init must be refused; each rank prints the refusal to stderr as {@code REFUSED message}. Throws on anything
 * else.
 */
public final class DriverWritesScenarios
{
    private DriverWritesScenarios()
    {
    }

    public static void main(final String[] args)
    {
        try (Job job = Job.join(System.getenv()))
        {
            switch (args[0])
            {
                case "auto" -> dataServer(job);
                case "refused" -> refused(job);
                default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
            }
        }
    }

    private static void dataServer(final Job job)
    {
        try (Rma rma = Rma.init(job))
        {
            final RmaAllocation a = rma.alloc(4096);
            final int peer = 1 - rma.rank();
            if (rma.driverWrites(a, peer) || rma.driverWrites(a, rma.rank()))
            {
                throw new IllegalStateException("rank " + rma.rank() + ": a slice takes driver writes on the user " +
                    "driver");
            }
            rma.values().putLong(7, a, peer, 8);
            final int before = rma.atomics().fetchAndAdd(a, 0, 0, 1);
            rma.barrier();
            final long put = rma.values().getLong(a, rma.rank(), 8);
            final int counter = rma.values().getInt(a, 0, 0);
            if (7 != put || 2 != counter || before < 0 || before > 1)
            {
                throw new IllegalStateException("rank " + rma.rank() + ": put " + put + ", counter " + counter +
                    ", ticket " + before);
            }
            rma.free(a);
            System.out.println("DATA SERVER");
        }
    }

    private static void refused(final Job job)
    {
        try (Rma ignored = Rma.init(job))
        {
            throw new IllegalStateException("Rma.init took PINMX_RMA_DRIVER_WRITES=1 on the user driver");
        }
        catch (final RmaException ex)
        {
            System.err.println("REFUSED " + ex.getMessage());
        }
    }
}
