package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code noepochs}, run with {@code PINMX_RMA_ACCESS_EPOCHS=0} on every rank: each
 * rank announced at init that it opens no access epochs, so its {@code accessBegin} is refused naming the variable
 * and leaves the slice open to the others, and gets from it (through the driver: done once their pulls are, with no
 * read of its epoch counter) bring every byte: blocking, on an explicit handle tested until done, and many on one
 * aggregate handle.
 */
final class NoEpochsScenario
{
    private static final long SLICE_BYTES = 64 * 1024;
    private static final long PIECE_BYTES = 1024;
    private static final int PIECES = 16;
    private static final long TEST_DEADLINE_NS = TimeUnit.SECONDS.toNanos(60);

    private final Rma rma;

    NoEpochsScenario(final Rma rma)
    {
        this.rma = rma;
    }

    void run()
    {
        final int me = rma.rank();
        final int next = (me + 1) % rma.size();
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final MemorySegment mine = a.local();
        for (long i = 0; i < SLICE_BYTES; i += Long.BYTES)
        {
            mine.set(ValueLayout.JAVA_LONG, i, word(me, i));
        }
        rma.barrier();
        expect(IllegalStateException.class, "announced at init that it opens none (PINMX_RMA_ACCESS_EPOCHS=0)",
            () -> rma.epochs().accessBegin(a));
        final MemorySegment into = rma.localMemory().allocate(SLICE_BYTES);
        rma.get(a, next, 0, into);
        checkWords(into, next, 0, SLICE_BYTES, "blocking get");

        into.fill((byte)0);
        final RmaHandle handle = rma.handle();
        rma.nbGet(a, next, 4096, into.asSlice(0, 4096), handle);
        final long deadline = System.nanoTime() + TEST_DEADLINE_NS;
        while (!handle.test())
        {
            check(System.nanoTime() < deadline, () -> "a get tested for 60 s is not done");
            Thread.onSpinWait();
        }
        checkWords(into, next, 4096, 4096, "tested get");

        into.fill((byte)0);
        final RmaHandle aggregate = rma.aggregateHandle();
        for (int p = 0; p < PIECES; p++)
        {
            rma.nbGet(a, next, 2 * p * PIECE_BYTES, into.asSlice(p * PIECE_BYTES, PIECE_BYTES), aggregate);
        }
        aggregate.await();
        for (int p = 0; p < PIECES; p++)
        {
            checkWords(into.asSlice(p * PIECE_BYTES, PIECE_BYTES), next, 2 * p * PIECE_BYTES, PIECE_BYTES,
                "aggregate piece " + p);
        }
        rma.barrier();
        rma.localMemory().free(into);
        rma.free(a);
    }

    private static long word(final int rank, final long offset)
    {
        return rank * 1_000_000_007L + offset;
    }

    private static void checkWords(final MemorySegment got, final int rank, final long from, final long bytes,
        final String what)
    {
        for (long i = 0; i < bytes; i += Long.BYTES)
        {
            final long at = i;
            final long value = got.get(ValueLayout.JAVA_LONG, i);
            check(value == word(rank, from + i), () -> what + ": byte " + (from + at) + " of rank " + rank +
                " read " + value + ", not " + word(rank, from + at));
        }
    }
}
