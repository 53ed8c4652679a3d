package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A rank program for {@link FullDirectoryLauncherTest}: rma in a directory without room. {@code init}: Rma.init
 * must be refused; {@code alloc BYTES}: rank 1 asks for BYTES, the others for one page, and the allocation must be
 * refused; then a one-page allocation on every rank must work (a put around the ring). Each rank prints the
 * refusal to stderr as {@code REFUSED message} and throws on anything else.
 */
public final class FullDirectoryScenarios
{
    private static final long PAGE_BYTES = 4096;

    private FullDirectoryScenarios()
    {
    }

    public static void main(final String[] args)
    {
        try (Job job = Job.join(System.getenv()))
        {
            switch (args[0])
            {
                case "init" -> refusedInit(job);
                case "alloc" -> refusedAlloc(job, Long.parseLong(args[1]));
                default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
            }
        }
    }

    private static void refusedInit(final Job job)
    {
        try (Rma ignored = Rma.init(job))
        {
            throw new IllegalStateException("Rma.init succeeded in a directory without room for its control files");
        }
        catch (final RmaException ex)
        {
            System.err.println("REFUSED " + ex.getMessage());
        }
    }

    private static void refusedAlloc(final Job job, final long bytes)
    {
        try (Rma rma = Rma.init(job))
        {
            try
            {
                rma.alloc(1 == rma.rank() ? bytes : PAGE_BYTES);
                throw new IllegalStateException("an allocation of " + bytes + " bytes on rank 1 succeeded");
            }
            catch (final RmaException ex)
            {
                System.err.println("REFUSED " + ex.getMessage());
            }
            final RmaAllocation ring = rma.alloc(PAGE_BYTES);
            final MemorySegment mine = MemorySegment.ofArray(new long[] {rma.rank()});
            rma.put(mine, ring, (rma.rank() + 1) % rma.size(), 0);
            rma.barrier();
            final long received = ring.local().get(ValueLayout.JAVA_LONG, 0);
            final long previous = (rma.rank() + rma.size() - 1) % rma.size();
            if (received != previous)
            {
                throw new IllegalStateException("rank " + rma.rank() + " received " + received + ", not " + previous);
            }
            rma.free(ring);
        }
    }
}
