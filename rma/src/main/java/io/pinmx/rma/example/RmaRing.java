package io.pinmx.rma.example;

import io.pinmx.job.Job;
import io.pinmx.job.ProgramArguments;
import io.pinmx.rma.AccumulateScale;
import io.pinmx.rma.ReduceOp;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaGroup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Every rank puts its rank number into the next rank's slice, adds it to a total on rank 0 and takes a ticket
 * from a counter there; the even and the odd ranks each sum their rank numbers over a group of their own; after a
 * barrier each rank reads what it received. Run: bin/pinmx-run -np 4 io.pinmx.rma.example.RmaRing
 */
public final class RmaRing
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N io.pinmx.rma.example.RmaRing
          Each rank puts its rank number into the next rank's slice, adds it to a total on rank 0, takes a ticket
          there and sums its parity group's rank numbers; each prints what it received.
          Reads the one-sided layer's variables and the job's (docs/environment.md, bin/pinmx-run --help).
          exit status: 0 done, 1 a rank failed
        """;

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job); Arena arena = Arena.ofConfined())
        {
            final RmaAllocation slices = rma.alloc(4096);
            final int next = (rma.rank() + 1) % rma.size();
            final MemorySegment mine = arena.allocate(ValueLayout.JAVA_LONG);
            mine.set(ValueLayout.JAVA_LONG, 0, rma.rank());
            rma.put(mine, slices, next, 0);
            rma.acc(AccumulateScale.ofLong(1), mine, slices, 0, 8);
            final int ticket = rma.atomics().fetchAndAdd(slices, 0, 16, 1);
            final RmaGroup parity = rma.groups().split(rma.worldGroup(), rma.rank() % 2, rma.rank());
            final long[] paritySum = {rma.rank()};
            rma.messages().reduce(parity, ReduceOp.SUM, paritySum);
            rma.barrier();
            final long received = slices.local().get(ValueLayout.JAVA_LONG, 0);
            final long total = rma.values().getLong(slices, 0, 8);
            System.out.println("rank " + rma.rank() + " of " + rma.size() + " received " + received +
                ", ticket " + ticket + ", parity sum " + paritySum[0] + ", total " + total);
            rma.groups().free(parity);
            rma.free(slices);
        }
    }
}
