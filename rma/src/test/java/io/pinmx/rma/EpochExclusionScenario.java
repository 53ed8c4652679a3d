package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;

import static io.pinmx.rma.RmaScenarios.check;

/**
 * {@link ArmciInterfaceScenarios}' {@code exclusion}: rank 0 repeatedly opens an access epoch on its slice, writes a
 * work-in-progress mark over all of it, then the epoch's stamp, and checks the stamp is intact before it ends the
 * epoch; meanwhile every other rank hammers that slice with puts of its own stamp, long accumulates, fetch-and-adds
 * and gets: of the whole slice and non-blocking ones of a piece (through the driver, pulls no target thread takes
 * part in; completed by tests alone, which read the target's epoch counter without waiting for it), and of a part
 * the driver tier serves in the target's data server. No remote write may land inside an
 * epoch (rank 0 would find its stamp changed) and no get may see the mark (a half-written epoch). The hammering
 * must have reached the slice between epochs (rank 0 counts the epochs that found it changed since the last one).
 */
final class EpochExclusionScenario
{
    private static final int LONGS = 1024;
    private static final int PIECE_LONGS = 32;
    /** A blocking get this long the driver tier serves in the target's data server; longer ones are pulls. */
    private static final int SERVED_LONGS = 256;
    private static final long HAMMER_NS = 1_000_000_000L;
    private static final long INSIDE_PAUSE_NS = 100_000;
    private static final long BETWEEN_PAUSE_NS = 50_000;
    private static final long TESTS_DEADLINE_NS = 30_000_000_000L;
    private static final int MIN_EPOCHS = 10;
    private static final int MIN_HAMMER_ROUNDS = 10;
    private static final long TAG_SHIFT = 56;
    private static final long WORK_IN_PROGRESS = 0x7EL << TAG_SHIFT;
    private static final long EPOCH_TAG = 0x5AL << TAG_SHIFT;
    private static final VarHandle DONE = ValueLayout.JAVA_LONG.varHandle();

    private final Rma rma;

    EpochExclusionScenario(final Rma rma)
    {
        this.rma = rma;
    }

    void run()
    {
        final RmaAllocation slice = rma.alloc(0 == rma.rank() ? LONGS * Long.BYTES : 0);
        final RmaAllocation done = rma.alloc(0 == rma.rank() ? Long.BYTES : 0);
        if (0 == rma.rank())
        {
            fill(slice.local(), EPOCH_TAG);
        }
        rma.barrier();
        if (0 == rma.rank())
        {
            final long disturbed = epochs(slice, done);
            check(disturbed > 0, () -> "no epoch found the slice changed by the other ranks since the one before");
        }
        else
        {
            hammer(slice, done);
        }
        rma.barrier();
        rma.free(done);
        rma.free(slice);
    }

    /**
     * Rank 0: epochs until every other rank has finished hammering.
     *
     * @return the epochs that found the slice changed since the one before.
     */
    private long epochs(final RmaAllocation slice, final RmaAllocation done)
    {
        final MemorySegment mine = slice.local();
        long epochs = 0;
        long disturbed = 0;
        while ((long)DONE.getAcquire(done.local(), 0L) < rma.size() - 1 || epochs < MIN_EPOCHS)
        {
            final long stamp = EPOCH_TAG | epochs;
            rma.epochs().accessBegin(slice);
            disturbed += changedSince(mine, EPOCH_TAG | Math.max(0, epochs - 1)) ? 1 : 0;
            fill(mine, WORK_IN_PROGRESS);
            pause(INSIDE_PAUSE_NS);
            fill(mine, stamp);
            pause(INSIDE_PAUSE_NS);
            for (int i = 0; i < LONGS; i++)
            {
                final long seen = mine.getAtIndex(ValueLayout.JAVA_LONG, i);
                final int at = i;
                final long epoch = epochs;
                check(stamp == seen, () -> "epoch " + epoch + ": element " + at + " is 0x" + Long.toHexString(seen) +
                    ", rank 0 wrote 0x" + Long.toHexString(stamp) + ": a remote operation landed inside the epoch");
            }
            rma.epochs().accessEnd(slice);
            epochs++;
            // Spinning, not parked: this rank's endpoint threads, which serve the others' pulls, run at whatever point
            // the system preempts this one, mostly inside an epoch.
            pause(BETWEEN_PAUSE_NS);
        }
        return disturbed;
    }

    private static boolean changedSince(final MemorySegment longs, final long stamp)
    {
        for (int i = 0; i < LONGS; i++)
        {
            if (stamp != longs.getAtIndex(ValueLayout.JAVA_LONG, i))
            {
                return true;
            }
        }
        return false;
    }

    /** The other ranks: puts, accumulates, fetch-and-adds and gets on rank 0's slice. */
    private void hammer(final RmaAllocation slice, final RmaAllocation done)
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        final MemorySegment piece = MemorySegment.ofArray(new long[PIECE_LONGS]);
        final MemorySegment ones = MemorySegment.ofArray(new long[PIECE_LONGS]);
        fill(ones, 1);
        final MemorySegment whole = MemorySegment.ofArray(new long[LONGS]);
        final MemorySegment served = MemorySegment.ofArray(new long[SERVED_LONGS]);
        final MemorySegment nonBlocking = MemorySegment.ofArray(new long[PIECE_LONGS]);
        final RmaHandle handle = rma.handle();
        // Rank 0 epochs until every other rank says it is done, a failing one too, so that the job ends at once.
        try
        {
            final long until = System.nanoTime() + HAMMER_NS;
            long rounds = 0;
            while (System.nanoTime() < until || rounds < MIN_HAMMER_ROUNDS)
            {
                fill(piece, ((0x10L + rma.rank()) << TAG_SHIFT) | rounds);
                rma.put(piece, slice, 0, offset(random, PIECE_LONGS));
                rma.acc(AccumulateScale.ofLong(1), ones, slice, 0, offset(random, PIECE_LONGS));
                rma.atomics().fetchAndAddLong(slice, 0, offset(random, 1), 1);
                rma.nbGet(slice, 0, offset(random, PIECE_LONGS), nonBlocking, handle);
                rma.get(slice, 0, 0, whole);
                rma.get(slice, 0, offset(random, SERVED_LONGS), served);
                completeByTests(handle);
                checkNoMark(whole, "get of the whole slice");
                checkNoMark(served, "served get");
                checkNoMark(nonBlocking, "non-blocking get");
                rounds++;
            }
        }
        finally
        {
            rma.atomics().fetchAndAddLong(done, 0, 0, 1);
        }
    }

    /** As a rank that computes between tests would: the handle's get is done once a test says so. */
    private static void completeByTests(final RmaHandle handle)
    {
        final long deadline = System.nanoTime() + TESTS_DEADLINE_NS;
        while (!handle.test())
        {
            check(System.nanoTime() - deadline < 0, () -> "a non-blocking get still not done after " +
                TESTS_DEADLINE_NS / 1_000_000_000L + " s of tests");
            Thread.yield();
        }
    }

    private static long offset(final ThreadLocalRandom random, final int longs)
    {
        return (long)random.nextInt(LONGS - longs + 1) * Long.BYTES;
    }

    private void checkNoMark(final MemorySegment seen, final String what)
    {
        for (int i = 0; i < seen.byteSize() / Long.BYTES; i++)
        {
            final long value = seen.getAtIndex(ValueLayout.JAVA_LONG, i);
            final int element = i;
            check(WORK_IN_PROGRESS != (value & (0xFFL << TAG_SHIFT)), () -> "rank " + rma.rank() + "'s " + what +
                " saw element " + element + " = 0x" + Long.toHexString(value) + ": rank 0's epoch half-written");
        }
    }

    /** Every long of {@code longs} set to {@code value}. */
    static void fill(final MemorySegment longs, final long value)
    {
        for (long i = 0; i < longs.byteSize() / Long.BYTES; i++)
        {
            longs.setAtIndex(ValueLayout.JAVA_LONG, i, value);
        }
    }

    /** Spins (never parks) for {@code nanos}: the rank keeps its CPU, as a computing rank would. */
    static void pause(final long nanos)
    {
        final long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until)
        {
            Thread.onSpinWait();
        }
    }
}
