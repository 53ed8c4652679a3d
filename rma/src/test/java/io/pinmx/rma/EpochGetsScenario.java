package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import static io.pinmx.rma.EpochExclusionScenario.fill;
import static io.pinmx.rma.EpochExclusionScenario.pause;
import static io.pinmx.rma.RmaScenarios.check;

/**
 * {@link ArmciInterfaceScenarios}' {@code epochgets}: rank 0 opens access epochs on its slice back to back, each
 * stamping all of it, with a gap between them far shorter than a round trip; every other rank gets the whole slice
 * {@value #GETS} times in each form (into the heap: streamed; into native memory: pulled; non-blocking into native
 * memory), each seeing one epoch's stamp throughout. Through the driver a pull and the counter reads around it
 * cannot fit in such a gap: the gets must still finish (the target's data server serves a get whose pulls epochs
 * kept overlapping) while rank 0 goes on opening epochs.
 */
final class EpochGetsScenario
{
    private static final int LONGS = 1024;
    private static final int GETS = 8;
    private static final long INSIDE_PAUSE_NS = 200_000;
    private static final long GAP_NS = 5_000;
    private static final long EPOCH_TAG = 0x3CL << 56;
    private static final VarHandle DONE = ValueLayout.JAVA_LONG.varHandle();

    private final Rma rma;

    EpochGetsScenario(final Rma rma)
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
            epochs(slice, done);
        }
        else
        {
            gets(slice, done);
        }
        rma.barrier();
        rma.free(done);
        rma.free(slice);
    }

    /** Rank 0: epochs back to back until every other rank has done its gets. */
    private void epochs(final RmaAllocation slice, final RmaAllocation done)
    {
        long epochs = 0;
        while ((long)DONE.getAcquire(done.local(), 0L) < rma.size() - 1)
        {
            rma.epochs().accessBegin(slice);
            fill(slice.local(), EPOCH_TAG | ++epochs);
            pause(INSIDE_PAUSE_NS);
            rma.epochs().accessEnd(slice);
            pause(GAP_NS);
        }
    }

    /** The other ranks: gets of the whole slice in each form; a failing rank still says it is done. */
    private void gets(final RmaAllocation slice, final RmaAllocation done)
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment heap = MemorySegment.ofArray(new long[LONGS]);
            final MemorySegment nativeLongs = arena.allocate((long)LONGS * Long.BYTES, Long.BYTES);
            final RmaHandle handle = rma.handle();
            for (int i = 0; i < GETS; i++)
            {
                rma.get(slice, 0, 0, heap);
                checkOneStamp(heap, "blocking get into the heap");
                rma.get(slice, 0, 0, nativeLongs);
                checkOneStamp(nativeLongs, "blocking get into native memory");
                rma.nbGet(slice, 0, 0, nativeLongs, handle);
                handle.await();
                checkOneStamp(nativeLongs, "non-blocking get into native memory");
            }
        }
        finally
        {
            rma.atomics().fetchAndAddLong(done, 0, 0, 1);
        }
    }

    private void checkOneStamp(final MemorySegment longs, final String what)
    {
        final long first = longs.getAtIndex(ValueLayout.JAVA_LONG, 0);
        check(EPOCH_TAG == (first & (0xFFL << 56)), () -> "rank " + rma.rank() + "'s " + what + " saw 0x" +
            Long.toHexString(first) + " first, not an epoch's stamp");
        for (int i = 1; i < LONGS; i++)
        {
            final long value = longs.getAtIndex(ValueLayout.JAVA_LONG, i);
            final int element = i;
            check(first == value, () -> "rank " + rma.rank() + "'s " + what + " saw element " + element + " = 0x" +
                Long.toHexString(value) + " after 0x" + Long.toHexString(first) + ": two epochs' stamps mixed");
        }
    }
}
