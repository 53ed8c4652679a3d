package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code notify} ({@link RmaFlags#notify}): each rank streams rounds into the next
 * rank's slice as a halo exchange does, every round's writes non-blocking and none waited for before the notification:
 * a contiguous put (64 B, 48 KiB that travels with its request through the driver, 256 KiB past it, in turn), a
 * strided put and a double accumulate, then the round's number notified. The next rank waits for at least that
 * number and must then see every byte and sum, before any barrier; it notifies back once it has read the round's set
 * (two sets used in turn). Then the refusals (misaligned, outside the slice, null, a rank outside the job), which
 * move nothing, and a wait for a value never reached, which ends at its deadline naming the flag.
 */
final class NotifyScenario
{
    private static final long LARGE_BYTES = 256 * 1024;
    private static final long[] PUT_BYTES = {64, 48 * 1024, LARGE_BYTES};
    private static final int STRIDED_ROWS = 16;
    private static final int STRIDED_ROW_BYTES = 256;
    private static final long STRIDED_STRIDE = 1024;
    private static final int SUMS = 512;
    private static final long STRIDED_AT = LARGE_BYTES;
    private static final long SUMS_AT = STRIDED_AT + STRIDED_ROWS * STRIDED_STRIDE;
    private static final long SET_BYTES = SUMS_AT + SUMS * Double.BYTES;
    private static final int SETS = 2;
    private static final int ROUNDS = 9;
    /** Flags: the rounds the previous rank notified, the rounds the next rank has read, one never written. */
    private static final long WRITTEN = 0;
    private static final long READ = 8;
    private static final long UNTOUCHED = 16;
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    private final Rma rma;

    NotifyScenario(final Rma rma)
    {
        this.rma = rma;
    }

    void run()
    {
        final int me = rma.rank();
        final int n = rma.size();
        final int next = (me + 1) % n;
        final int prev = (me + n - 1) % n;
        final RmaAllocation data = rma.alloc(SETS * SET_BYTES);
        final RmaAllocation flags = rma.alloc(24);
        final MemorySegment[] sources = {rma.localMemory().allocate(SET_BYTES), rma.localMemory().allocate(SET_BYTES)};
        final RmaHandle[] handles = {rma.aggregateHandle(), rma.aggregateHandle()};
        final long[] strides = {STRIDED_STRIDE};
        final long[] count = {STRIDED_ROW_BYTES, STRIDED_ROWS};
        for (int round = 1; round <= ROUNDS; round++)
        {
            final int set = round % SETS;
            final long base = set * SET_BYTES;
            if (round > SETS)
            {
                rma.flags().awaitAtLeast(flags, READ, round - SETS, DEADLINE);
            }
            handles[set].await();
            final MemorySegment source = sources[set];
            fill(source, me, round);
            rma.nbPut(source.asSlice(0, PUT_BYTES[round % PUT_BYTES.length]), data, next, base, handles[set]);
            rma.nbPutStrided(source.asSlice(STRIDED_AT), strides, data, next, base + STRIDED_AT, strides, count, 1,
                handles[set]);
            rma.nbAcc(AccumulateScale.ofDouble(1.0), source.asSlice(SUMS_AT, SUMS * Double.BYTES), data, next,
                base + SUMS_AT, handles[set]);
            rma.flags().notify(flags, next, WRITTEN, round);
            rma.flags().awaitAtLeast(flags, WRITTEN, round, DEADLINE);
            checkRound(data.local(), base, prev, round);
            data.local().asSlice(base + SUMS_AT, SUMS * Double.BYTES).fill((byte)0);
            rma.flags().notify(flags, prev, READ, round);
        }
        handles[0].await();
        handles[1].await();
        refusals(flags, next, n);
        rma.barrier();
        check(0 == flags.local().get(ValueLayout.JAVA_LONG, UNTOUCHED),
            () -> "a refused notification wrote " + flags.local().get(ValueLayout.JAVA_LONG, UNTOUCHED));
        rma.localMemory().free(sources[0]);
        rma.localMemory().free(sources[1]);
        rma.free(flags);
        rma.free(data);
    }

    private void refusals(final RmaAllocation flags, final int next, final int n)
    {
        expect(IllegalArgumentException.class, "notify flag offset 4 is not aligned to 8 bytes",
            () -> rma.flags().notify(flags, next, 4, 99));
        expect(IllegalArgumentException.class, "outside rank " + next, () -> rma.flags().notify(flags, next, 24, 99));
        expect(IllegalArgumentException.class, "the allocation is null", () -> rma.flags().notify(null, next, 0, 99));
        expect(IllegalArgumentException.class, "rank " + n, () -> rma.flags().notify(flags, n, UNTOUCHED, 99));
        expect(RmaException.class, "not at least " + (ROUNDS + 1),
            () -> rma.flags().awaitAtLeast(flags, WRITTEN, ROUNDS + 1, Duration.ofMillis(20)));
        expect(IllegalArgumentException.class, "not aligned to 8 bytes",
            () -> rma.flags().awaitAtLeast(flags, 12, 1, DEADLINE));
    }

    /** The round's contiguous bytes, strided rows and sums from {@code rank} in the set at {@code base}. */
    private static void checkRound(final MemorySegment m, final long base, final int rank, final int round)
    {
        final long putBytes = PUT_BYTES[round % PUT_BYTES.length];
        for (long i = 0; i < putBytes; i += 8)
        {
            final long at = i;
            check(m.get(ValueLayout.JAVA_LONG, base + i) == word(rank, round, i),
                () -> "round " + round + ": notified, put byte " + at + " of " + putBytes + " from rank " + rank +
                    " not there");
        }
        for (long row = 0; row < STRIDED_ROWS; row++)
        {
            for (long i = 0; i < STRIDED_ROW_BYTES; i += 8)
            {
                final long at = STRIDED_AT + row * STRIDED_STRIDE + i;
                check(m.get(ValueLayout.JAVA_LONG, base + at) == word(rank, round, at),
                    () -> "round " + round + ": notified, strided byte " + at + " from rank " + rank + " not there");
            }
        }
        for (int i = 0; i < SUMS; i++)
        {
            final double sum = m.getAtIndex(ValueLayout.JAVA_DOUBLE, (base + SUMS_AT) / Double.BYTES + i);
            final int at = i;
            check(sum == value(rank, round, i),
                () -> "round " + round + ": notified, sum " + at + " from rank " + rank + " is " + sum);
        }
    }

    private static void fill(final MemorySegment m, final int rank, final int round)
    {
        for (long i = 0; i < SUMS_AT; i += 8)
        {
            m.set(ValueLayout.JAVA_LONG, i, word(rank, round, i));
        }
        for (int i = 0; i < SUMS; i++)
        {
            m.setAtIndex(ValueLayout.JAVA_DOUBLE, SUMS_AT / Double.BYTES + i, value(rank, round, i));
        }
    }

    private static long word(final int rank, final int round, final long offset)
    {
        return (rank + 1L) << 40 | (long)round << 32 | offset;
    }

    private static double value(final int rank, final int round, final int index)
    {
        return rank * 1000.0 + round + index / 4.0;
    }
}
