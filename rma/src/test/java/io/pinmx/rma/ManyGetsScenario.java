package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.pinmx.rma.RmaScenarios.check;

/**
 * {@link ArmciInterfaceScenarios}' {@code manygets}: every rank issues {@link #GETS} 8-byte non-blocking gets of every
 * rank's slice, in reverse order, on one aggregate handle (more than a driver runs pulls at once: ARMCI's aggregate
 * handles take any number), half into shared native memory (the endpoint's threads fill it directly) and half into a
 * heap array, then waits once and checks every value; the handle is free afterwards.
 */
final class ManyGetsScenario
{
    private static final int GETS = 2_000;

    private final Rma rma;

    ManyGetsScenario(final Rma rma)
    {
        this.rma = rma;
    }

    void run()
    {
        final int n = rma.size();
        final RmaAllocation a = rma.alloc(GETS * Long.BYTES);
        for (int i = 0; i < GETS; i++)
        {
            a.local().setAtIndex(ValueLayout.JAVA_LONG, i, value(rma.rank(), i));
        }
        rma.barrier();
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment nativeHalf = arena.allocate((long)GETS / 2 * Long.BYTES, Long.BYTES);
            final long[] heapHalf = new long[GETS - GETS / 2];
            final MemorySegment heapSegment = MemorySegment.ofArray(heapHalf);
            final RmaHandle handle = rma.aggregateHandle();
            for (int g = 0; g < GETS; g++)
            {
                final MemorySegment into = g < GETS / 2 ? nativeHalf.asSlice((long)g * Long.BYTES, Long.BYTES) :
                    heapSegment.asSlice((long)(g - GETS / 2) * Long.BYTES, Long.BYTES);
                rma.nbGet(a, target(g, n), (long)(GETS - 1 - g) * Long.BYTES, into, handle);
            }
            handle.await();
            check(handle.test(), () -> "the aggregate handle is busy after its wait");
            for (int g = 0; g < GETS; g++)
            {
                final long got = g < GETS / 2 ? nativeHalf.getAtIndex(ValueLayout.JAVA_LONG, g) : heapHalf[g - GETS / 2];
                final long expected = value(target(g, n), GETS - 1 - g);
                final int which = g;
                check(expected == got, () -> "get " + which + " of " + GETS + " on one aggregate handle: " + got +
                    ", expected " + expected);
            }
        }
        rma.barrier();
        rma.free(a);
    }

    private int target(final int get, final int ranks)
    {
        return (rma.rank() + 1 + get) % ranks;
    }

    private static long value(final int rank, final int element)
    {
        return rank * 1_000_000_007L + element;
    }
}
