package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code localmem} ({@code ARMCI_Malloc_local}, {@code ARMCI_Free_local},
 * {@code ARMCI_Copy}): local buffers are page aligned and zeroed and serve as the local side of a non-blocking put,
 * get, strided get and vector get on explicit, implicit and aggregate handles; freeing one before its handle was
 * waited for is refused naming it and changes nothing; a copy between overlapping memory moves as memmove does; bad
 * arguments are refused, naming them.
 */
final class LocalMemoryScenario
{
    private static final long BYTES = 64 * 1024;

    private final Rma rma;
    private final LocalMemory local;

    LocalMemoryScenario(final Rma rma)
    {
        this.rma = rma;
        this.local = rma.localMemory();
    }

    void run()
    {
        final int me = rma.rank();
        final int next = (me + 1) % rma.size();
        final RmaAllocation a = rma.alloc(BYTES);
        final MemorySegment out = local.allocate(BYTES);
        check(0 == out.address() % 4096 && BYTES == out.byteSize() && -1 == out.mismatch(MemorySegment.ofArray(
            new byte[(int)BYTES])), () -> "local buffer not page aligned, sized or zeroed: " + out);
        fill(out, me);
        final RmaHandle explicit = rma.handle();
        rma.nbPut(out, a, next, 0, explicit);
        expect(IllegalStateException.class, "has 1 non-blocking operations not yet waited for", () -> local.free(out));
        explicit.await();
        rma.barrier();
        final int prev = (me + rma.size() - 1) % rma.size();
        check(holds(a.local(), prev), () -> "a put from a local buffer of rank " + prev + " landed wrong");

        final MemorySegment in = local.allocate(BYTES);
        rma.nbGet(a, next, 0, in, null);
        expect(IllegalStateException.class, "not yet waited for", () -> local.free(in));
        rma.waitAll();
        check(holds(in, me), () -> "a get into a local buffer read wrong");

        // A strided get and a vector get into slices of one buffer, on one aggregate handle.
        final MemorySegment pieces = local.allocate(BYTES);
        final RmaHandle aggregate = rma.aggregateHandle();
        rma.nbGetStrided(a, next, 0, new long[] {1024}, pieces, new long[] {2048}, new long[] {512, 16}, 1, aggregate);
        rma.nbGetVector(new IoVector[] {new IoVector(pieces, new long[] {40960, 45056}, new long[] {0, 4096}, 256)},
            a, next, aggregate);
        expect(IllegalStateException.class, "has 2 non-blocking operations", () -> local.free(pieces));
        aggregate.await();
        for (int i = 0; i < 16; i++)
        {
            final int row = i;
            check(-1 == pieces.asSlice(2048L * i, 512).mismatch(out.asSlice(1024L * i, 512)),
                () -> "strided row " + row + " into a local buffer");
        }
        check(-1 == pieces.asSlice(45056, 256).mismatch(out.asSlice(4096, 256)), () -> "vector piece into a local buffer");
        local.free(pieces);
        expect(IllegalStateException.class, "closed", () -> pieces.get(ValueLayout.JAVA_BYTE, 0));

        copies(in);
        local.free(in);
        local.free(out);
        expect(IllegalArgumentException.class, "is not the start of a live local buffer", () -> local.free(out));
        expect(IllegalArgumentException.class, "-1 bytes", () -> local.allocate(-1));
        expect(IllegalArgumentException.class, "is null", () -> local.free(null));
        expect(IllegalArgumentException.class, "is not the start", () -> local.free(MemorySegment.ofArray(new byte[8])));
        final MemorySegment empty = local.allocate(0);
        check(0 == empty.byteSize() && 1 == local.buffers(), () -> "an empty local buffer: " + empty);
        local.free(empty);
        check(0 == local.buffers(), () -> local.buffers() + " local buffers left");
        rma.free(a);
    }

    /** Copies within one buffer overlapping both ways, from an allocation's slice, and the refusals. */
    private void copies(final MemorySegment buffer)
    {
        for (int i = 0; i < 100; i++)
        {
            buffer.set(ValueLayout.JAVA_BYTE, i, (byte)i);
        }
        local.copy(buffer, buffer.asSlice(10), 50);
        for (int i = 0; i < 60; i++)
        {
            final int at = i;
            final byte want = (byte)(i < 10 ? i : i - 10);
            check(want == buffer.get(ValueLayout.JAVA_BYTE, i), () -> "forward overlapping copy at " + at + ": " +
                buffer.get(ValueLayout.JAVA_BYTE, at));
        }
        local.copy(buffer.asSlice(10), buffer, 50);
        for (int i = 0; i < 50; i++)
        {
            final int at = i;
            check((byte)i == buffer.get(ValueLayout.JAVA_BYTE, i), () -> "backward overlapping copy at " + at);
        }
        final byte[] heap = new byte[8];
        local.copy(buffer.asSlice(3), MemorySegment.ofArray(heap), 8);
        check(3 == heap[0] && 10 == heap[7], () -> "copy into the heap: " + heap[0] + ".." + heap[7]);
        expect(IllegalArgumentException.class, "the source is null", () -> local.copy(null, buffer, 1));
        expect(IllegalArgumentException.class, "is read-only", () -> local.copy(buffer, buffer.asReadOnly(), 1));
        expect(IllegalArgumentException.class, "copy of 9 bytes: the source has 100000",
            () -> local.copy(MemorySegment.ofArray(new byte[100000]), MemorySegment.ofArray(heap), 9));
        expect(IllegalArgumentException.class, "copy of -1 bytes", () -> local.copy(buffer, buffer, -1));
        check(3 == heap[0] && 10 == heap[7], () -> "a refused copy wrote");
    }

    private static void fill(final MemorySegment m, final int rank)
    {
        for (long i = 0; i < m.byteSize(); i += 8)
        {
            m.set(ValueLayout.JAVA_LONG, i, rank * 1_000_003L + i);
        }
    }

    private static boolean holds(final MemorySegment m, final int rank)
    {
        for (long i = 0; i < m.byteSize(); i += 8)
        {
            if (m.get(ValueLayout.JAVA_LONG, i) != rank * 1_000_003L + i)
            {
                return false;
            }
        }
        return true;
    }
}
