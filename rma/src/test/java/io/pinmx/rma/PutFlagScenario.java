package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code putflag} ({@code ARMCI_Put_flag}): each rank puts a small and then a large
 * block (past what travels with a request through the driver) into the next rank's slice with a flag, in another
 * allocation and then in the same one; the next rank waits on the flag and must then see every byte, before any
 * barrier. Then the refusals (a flag overlapping the data, misaligned, outside the slice, null, a rank outside the
 * job), which move nothing, and a wait for a value never set, which ends at its deadline naming the flag.
 */
final class PutFlagScenario
{
    private static final long LARGE_BYTES = 256 * 1024;
    private static final Duration FLAG_DEADLINE = Duration.ofSeconds(120);

    private final Rma rma;

    PutFlagScenario(final Rma rma)
    {
        this.rma = rma;
    }

    void run()
    {
        final int me = rma.rank();
        final int n = rma.size();
        final int next = (me + 1) % n;
        final int prev = (me + n - 1) % n;
        final RmaAllocation data = rma.alloc(LARGE_BYTES + 64);
        final RmaAllocation flags = rma.alloc(64);
        final MemorySegment source = rma.localMemory().allocate(LARGE_BYTES);
        final long[] sizes = {64, LARGE_BYTES, LARGE_BYTES};
        for (int round = 1; round <= sizes.length; round++)
        {
            final long bytes = sizes[round - 1];
            fill(source, me, round);
            // the last round's flag lies in the data's own allocation, just past the block
            final RmaAllocation flagIn = round < sizes.length ? flags : data;
            final long flagAt = round < sizes.length ? 8 : LARGE_BYTES + 8;
            rma.flags().putFlag(source.asSlice(0, bytes), data, next, 0, flagIn, flagAt, round);
            rma.flags().awaitFlag(flagIn, flagAt, round, FLAG_DEADLINE);
            final int r = round;
            final long at = firstWrong(data.local(), bytes, prev, round);
            check(at < 0, () -> "round " + r + ": flag seen, byte " + at + " of " + bytes + " from rank " + prev +
                " not there");
            rma.barrier();
        }
        final int last = sizes.length;
        final MemorySegment eight = MemorySegment.ofArray(new long[] {-1});
        expect(IllegalArgumentException.class, "overlaps the put's bytes",
            () -> rma.flags().putFlag(eight, data, next, 0, data, 4, 99));
        expect(IllegalArgumentException.class, "put flag offset 6 is not aligned to 4 bytes",
            () -> rma.flags().putFlag(eight, data, next, 0, flags, 6, 99));
        expect(IllegalArgumentException.class, "outside rank " + next,
            () -> rma.flags().putFlag(eight, data, next, 0, flags, 64, 99));
        expect(IllegalArgumentException.class, "the allocation is null",
            () -> rma.flags().putFlag(eight, data, next, 0, null, 8, 99));
        expect(IllegalArgumentException.class, "rank " + n, () -> rma.flags().putFlag(eight, data, n, 0, flags, 8, 99));
        expect(RmaException.class, "still holds " + last, () -> rma.flags().awaitFlag(data, LARGE_BYTES + 8, 99,
            Duration.ofMillis(20)));
        expect(IllegalArgumentException.class, "not aligned", () -> rma.flags().awaitFlag(flags, 2, 1, FLAG_DEADLINE));
        rma.barrier();
        check(last == data.local().get(ValueLayout.JAVA_INT, LARGE_BYTES + 8) &&
                firstWrong(data.local(), 8, prev, last) < 0 && last - 1 == flags.local().get(ValueLayout.JAVA_INT, 8),
            () -> "a refused flagged put wrote: flag " + data.local().get(ValueLayout.JAVA_INT, LARGE_BYTES + 8));
        rma.localMemory().free(source);
        rma.free(flags);
        rma.free(data);
    }

    private static void fill(final MemorySegment m, final int rank, final int round)
    {
        for (long i = 0; i < m.byteSize(); i += 8)
        {
            m.set(ValueLayout.JAVA_LONG, i, (rank + 1L) << 40 | (long)round << 32 | i);
        }
    }

    /** @return the first offset below {@code bytes} not holding the rank's round pattern, or -1. */
    private static long firstWrong(final MemorySegment m, final long bytes, final int rank, final int round)
    {
        for (long i = 0; i < bytes; i += 8)
        {
            if (m.get(ValueLayout.JAVA_LONG, i) != ((rank + 1L) << 40 | (long)round << 32 | i))
            {
                return i;
            }
        }
        return -1;
    }
}
