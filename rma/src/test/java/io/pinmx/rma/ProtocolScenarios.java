package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.pinmx.rma.RmaScenarios.check;

/**
 * The {@link RmaScenarios} about the driver tier's protocols, run with whatever PINMX_RMA_STRIDED and
 * PINMX_RMA_CONTIGUOUS say: every rank puts, gets and accumulates through every form — strided of 1 to 3 levels,
 * vectors (with more pieces than one message or one request carries, pieces of several lengths), contiguous transfers
 * larger than a streaming chunk, small ones that travel inline — on the next rank, and checks the bytes at both ends:
 * the origin reads its data back into zeroed memory (every piece equal, every gap still zero), the target checks its
 * slice (every piece, and nothing written outside them). Then the protocol counters: a forced protocol is the only
 * one that moved.
 */
final class ProtocolScenarios
{
    private static final long SLICE_BYTES = 2L << 20;
    /** Contiguous gets into memory only the calling thread may touch: each streams unless the data server serves it. */
    private int confinedGets;
    private static final long AREA_GET_BYTES = 512L << 10;

    private final Rma rma;
    private final Map<String, String> env;

    ProtocolScenarios(final Rma rma, final Map<String, String> env)
    {
        this.rma = rma;
        this.env = env;
    }

    /** A transfer shape: its local extent and pieces as (local offset, remote offset, bytes); a vector if no patch. */
    private record Shape(String name, long localBytes, long[][] pieces, StridedPatch patch)
    {
        static Shape strided(final String name, final long[] counts, final long[] local, final long[] remote,
            final int levels)
        {
            final StridedPatch p = StridedPatch.of(counts, local, remote, levels);
            final List<long[]> pieces = new ArrayList<>();
            p.forEachPiece((s, t, bytes) -> pieces.add(new long[] {s, t, bytes}));
            return new Shape(name, p.sourceExtentBytes(), pieces.toArray(new long[0][]), p);
        }

        /** Groups of (count, bytes, local stride, remote stride, remote start), laid out one after another locally. */
        static Shape vector(final String name, final long[][] groups)
        {
            final List<long[]> pieces = new ArrayList<>();
            long localAt = 0;
            for (final long[] g : groups)
            {
                for (int i = 0; i < g[0]; i++)
                {
                    pieces.add(new long[] {localAt + i * g[2], g[4] + i * g[3], g[1]});
                }
                localAt += g[0] * g[2];
            }
            return new Shape(name, localAt, pieces.toArray(new long[0][]), null);
        }

        IoVector[] vectorsOver(final MemorySegment local)
        {
            final List<IoVector> out = new ArrayList<>();
            int at = 0;
            while (at < pieces.length)
            {
                int end = at;
                while (end < pieces.length && pieces[end][2] == pieces[at][2])
                {
                    end++;
                }
                final long[] l = new long[end - at];
                final long[] r = new long[end - at];
                for (int i = at; i < end; i++)
                {
                    l[i - at] = pieces[i][0];
                    r[i - at] = pieces[i][1];
                }
                out.add(new IoVector(local, l, r, pieces[at][2]));
                at = end;
            }
            return out.toArray(new IoVector[0]);
        }
    }

    private static List<Shape> shapes()
    {
        return List.of(
            Shape.strided("1-level inline", new long[] {200, 40}, new long[] {200}, new long[] {256}, 1),
            Shape.strided("1-level 300 pieces", new long[] {1000, 300}, new long[] {1000}, new long[] {1024}, 1),
            Shape.strided("2-level 600 pieces", new long[] {24, 30, 20}, new long[] {24, 720}, new long[] {32, 1024}, 2),
            Shape.strided("3-level 240 pieces", new long[] {512, 8, 6, 5}, new long[] {512, 4096, 24576},
                new long[] {520, 4200, 25600}, 3),
            Shape.vector("vector inline", new long[][] {{300, 24, 24, 40, 0}}),
            Shape.vector("vector 1100 pieces", new long[][] {{1100, 96, 96, 128, 8}}),
            Shape.vector("vector of two lengths", new long[][] {{10, 4000, 4000, 4096, 0}, {50, 8, 8, 24, 65536}}),
            Shape.strided("contiguous 1 MiB + 24 B", new long[] {(1 << 20) + 24}, new long[0], new long[0], 0),
            Shape.strided("contiguous inline", new long[] {3000}, new long[0], new long[0], 0),
            // complete once copied (at most 4 KiB), and past the endpoint's rendezvous threshold yet under the
            // server's request buffer (not inline: the data follows the request)
            Shape.strided("1-level copied", new long[] {100, 16}, new long[] {100}, new long[] {128}, 1),
            Shape.strided("contiguous 40000 B", new long[] {40_000}, new long[0], new long[0], 0));
    }

    void protocols()
    {
        final int target = (rma.rank() + 1) % rma.size();
        final int origin = (rma.rank() + rma.size() - 1) % rma.size();
        int shapeIndex = 0;
        for (final Shape shape : shapes())
        {
            final long seed = 31L * shapeIndex++;
            putAndGet(shape, target, origin, seed, Arena.ofShared());
        }
        confinedContiguousGet(target);
        smallGets(target);
        fencesAnswered(target);
        accumulate(Shape.strided("int 1-level", new long[] {400, 300}, new long[] {400}, new long[] {512}, 1),
            ElementType.INT, target, origin);
        accumulate(Shape.vector("double vector", new long[][] {{1100, 16, 16, 32, 0}, {300, 800, 800, 1024, 40960}}),
            ElementType.DOUBLE, target, origin);
        accumulate(Shape.strided("double 2-level", new long[] {40, 30, 100}, new long[] {40, 1200},
            new long[] {48, 1536}, 2), ElementType.DOUBLE, target, origin);
        checkCounts(target);
    }

    /**
     * With the pack protocol forced: more packed gets in flight at once than the target's pack area holds, each
     * {@value #AREA_GET_BYTES} bytes. None is awaited (so none is released) before all are sent: the target's server
     * packs as many as its area holds for pulling and sends the rest in chunks. Every get lands byte-exact, and once
     * the origin sent the target another request the area holds nothing.
     */
    void packedGetsBeyondThePackArea()
    {
        final int target = (rma.rank() + 1) % rma.size();
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        fill(a.local(), 500 + rma.rank());
        final long[] before = rma.protocols().dataServerPackedGets();
        rma.barrier();
        final int pulledAtMost = (int)(PackArea.AREA_BYTES / AREA_GET_BYTES);
        final int gets = pulledAtMost + 4;
        final long rowBytes = 512;
        final long[] counts = {rowBytes, AREA_GET_BYTES / rowBytes};
        final MemorySegment[] into = new MemorySegment[gets];
        final RmaHandle handle = rma.aggregateHandle();
        for (int g = 0; g < gets; g++)
        {
            into[g] = Arena.ofShared().allocate(AREA_GET_BYTES, 8);
            rma.nbGetStrided(a, target, 8L * g, new long[] {2 * rowBytes}, into[g], new long[] {rowBytes}, counts, 1,
                handle);
        }
        handle.await();
        final MemorySegment theirs = Arena.ofAuto().allocate(SLICE_BYTES);
        fill(theirs, 500 + target);
        for (int g = 0; g < gets; g++)
        {
            for (long row = 0; row < counts[1]; row++)
            {
                final long from = 8L * g + row * 2 * rowBytes;
                final int got = g;
                final long r = row;
                check(MemorySegment.mismatch(theirs, from, from + rowBytes, into[g], row * rowBytes,
                    (row + 1) * rowBytes) < 0, () -> "packed get " + got + ", row " + r + " differs from rank " +
                    target + "'s slice");
            }
        }
        rma.barrier();
        final long[] after = rma.protocols().dataServerPackedGets();
        check(after[0] - before[0] == pulledAtMost && after[1] - before[1] == gets - pulledAtMost,
            () -> "rank " + rma.rank() + "'s server of " + gets + " packed gets pulled " + (after[0] - before[0]) +
                " and sent " + (after[1] - before[1]) + " in chunks; expected " + pulledAtMost + " pulled");
        // the origin tells of its last pulled part with its next request there
        check(after[2] <= AREA_GET_BYTES, () -> "rank " + rma.rank() + "'s pack area still holds " + after[2] +
            " bytes");
        rma.atomics().fetchAndAdd(a, target, 0, 1);
        rma.barrier();
        final long held = rma.protocols().dataServerPackedGets()[2];
        check(0 == held, () -> "rank " + rma.rank() + "'s pack area holds " + held + " bytes after its origin's next " +
            "request");
        rma.free(a);
    }

    /**
     * Run with a model that packs every small request and moves every large one directly, and streams every
     * contiguous transfer (the test writes it): a strided put, accumulate and get of 32 rows of 256 B (8 KiB: travels
     * with its request, one packed chunk) are packed, of 64 rows of 1 KiB (64 KiB) direct, each counted once, and the
     * bytes land: the origin reads its rows back, the target finds them in every other row, the accumulated ones
     * between. Then contiguous puts from memory the endpoint has declared: 64 KiB goes zero-copy, 16 KiB (travels with
     * its request, no region used) streams as the model says.
     */
    void sizeClasses()
    {
        contiguousPutsOfDeclaredMemory((rma.rank() + 1) % rma.size());
        final int target = (rma.rank() + 1) % rma.size();
        final int origin = (rma.rank() + rma.size() - 1) % rma.size();
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        a.local().fill((byte)0);
        rma.barrier();
        final long[][] shapes = {{256, 32, 0}, {1024, 64, 64 << 10}};
        for (final long[] shape : shapes)
        {
            final long rowBytes = shape[0];
            final long[] counts = {rowBytes, shape[1]};
            final long[] packed = {rowBytes};
            final long[] spread = {2 * rowBytes};
            final MemorySegment rows = doubles(rowBytes * shape[1], rma.rank() + rowBytes);
            final boolean small = rowBytes * shape[1] <= 8 << 10;
            final String what = shape[1] + " rows of " + rowBytes + " B";
            ProtocolCounts before = rma.protocols().counts();
            rma.putStrided(rows, packed, a, target, shape[2], spread, counts, 1);
            checkOne(before, small, "put of " + what);
            before = rma.protocols().counts();
            rma.accStrided(AccumulateScale.ofDouble(1.0), rows, packed, a, target, shape[2] + rowBytes, spread, counts,
                1);
            checkOne(before, small, "accumulate of " + what);
            final MemorySegment back = Arena.ofAuto().allocate(rows.byteSize(), 8);
            before = rma.protocols().counts();
            rma.getStrided(a, target, shape[2], spread, back, packed, counts, 1);
            checkOne(before, small, "get of " + what);
            check(MemorySegment.mismatch(rows, 0, rows.byteSize(), back, 0, back.byteSize()) < 0,
                () -> "the get of " + what + " differs from the put");
        }
        rma.barrier();
        for (final long[] shape : shapes)
        {
            final long rowBytes = shape[0];
            final MemorySegment theirs = doubles(rowBytes * shape[1], origin + rowBytes);
            for (long row = 0; row < 2 * shape[1]; row++)
            {
                final long at = shape[2] + row * rowBytes;
                final long from = row / 2 * rowBytes;
                final long r = row;
                check(MemorySegment.mismatch(a.local(), at, at + rowBytes, theirs, from, from + rowBytes) < 0,
                    () -> "rank " + rma.rank() + "'s row " + r + " of " + shape[1] + " rows of " + rowBytes +
                        " B is not rank " + origin + "'s " + (0 == r % 2 ? "put" : "accumulate"));
            }
        }
        rma.free(a);
    }

    private void contiguousPutsOfDeclaredMemory(final int target)
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final MemorySegment declared = Arena.ofShared().allocate(64 << 10, 4096);
        fill(declared, 77 + rma.rank());
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.ZERO_COPY);
        rma.put(declared, a, target, 0);
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
        for (final long bytes : new long[] {64 << 10, 16 << 10})
        {
            final ProtocolCounts before = rma.protocols().counts();
            rma.put(declared.asSlice(0, bytes), a, target, 0);
            final ProtocolCounts after = rma.protocols().counts();
            final long zeroCopy = after.zeroCopy() - before.zeroCopy();
            final long stream = after.stream() - before.stream();
            final boolean inline = bytes < 32 << 10;
            check(inline ? 1 == stream && 0 == zeroCopy : 0 == stream && 1 == zeroCopy, () -> "a put of " + bytes +
                " B from declared memory went " + zeroCopy + " zero-copy and " + stream + " streamed; expected " +
                (inline ? "streamed (no region used)" : "zero-copy"));
        }
        final MemorySegment back = Arena.ofShared().allocate(64 << 10, 8);
        rma.get(a, target, 0, back);
        check(MemorySegment.mismatch(declared, 0, declared.byteSize(), back, 0, back.byteSize()) < 0,
            () -> "rank " + target + "'s slice differs from the contiguous puts");
        rma.free(a);
    }

    /** Checks that exactly one request moved since {@code before}, packed if {@code small} else direct. */
    private void checkOne(final ProtocolCounts before, final boolean small, final String what)
    {
        final ProtocolCounts after = rma.protocols().counts();
        final long pack = after.pack() - before.pack();
        final long direct = after.direct() - before.direct();
        check(small ? 1 == pack && 0 == direct : 0 == pack && 1 == direct, () -> "the " + what + " went " + direct +
            " direct and " + pack + " packed; its size class's protocol is " + (small ? "pack" : "direct"));
    }

    /** @return {@code bytes} of doubles 1, 2, 3, ... times a seed: what an accumulate adds to zeros exactly. */
    private static MemorySegment doubles(final long bytes, final long seed)
    {
        final MemorySegment m = Arena.ofAuto().allocate(bytes, 8);
        for (long i = 0; i < bytes / Double.BYTES; i++)
        {
            m.setAtIndex(ValueLayout.JAVA_DOUBLE, i, (i + 1) * (double)seed);
        }
        return m;
    }

    private boolean isVector(final Shape shape)
    {
        return null == shape.patch();
    }

    private void putAndGet(final Shape shape, final int target, final int origin, final long seed, final Arena arena)
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final MemorySegment source = arena.allocate(shape.localBytes(), 8);
        fill(source, seed + rma.rank());
        transfer(shape, source, a, target, true);
        final MemorySegment back = arena.allocate(shape.localBytes(), 8);
        transfer(shape, back, a, target, false);
        final boolean[] covered = new boolean[(int)shape.localBytes()];
        for (final long[] p : shape.pieces())
        {
            check(MemorySegment.mismatch(source, p[0], p[0] + p[2], back, p[0], p[0] + p[2]) < 0,
                () -> shape.name() + ": the get from rank " + target + " differs from the put at local offset " + p[0]);
            for (long i = p[0]; i < p[0] + p[2]; i++)
            {
                covered[(int)i] = true;
            }
        }
        for (int i = 0; i < covered.length; i++)
        {
            final int at = i;
            check(covered[i] || 0 == back.get(ValueLayout.JAVA_BYTE, i),
                () -> shape.name() + ": the get wrote local byte " + at + " outside its pieces");
        }
        rma.barrier();
        final MemorySegment expected = Arena.ofAuto().allocate(shape.localBytes(), 8);
        fill(expected, seed + origin);
        checkSlice(shape, a.local(), origin, (p, i) -> expected.get(ValueLayout.JAVA_BYTE, p[0] + i));
        rma.barrier();
        rma.free(a);
    }

    private interface Expected
    {
        byte at(long[] piece, long i);
    }

    /** Every byte of the slice: inside a piece the expected value, elsewhere zero. */
    private void checkSlice(final Shape shape, final MemorySegment slice, final int origin, final Expected expected)
    {
        final byte[] want = new byte[(int)slice.byteSize()];
        for (final long[] p : shape.pieces())
        {
            for (long i = 0; i < p[2]; i++)
            {
                want[(int)(p[1] + i)] = expected.at(p, i);
            }
        }
        final byte[] got = slice.toArray(ValueLayout.JAVA_BYTE);
        for (int i = 0; i < want.length; i++)
        {
            final int at = i;
            check(want[i] == got[i], () -> shape.name() + ": rank " + origin + "'s put left byte " + got[at] +
                " at offset " + at + " of rank " + rma.rank() + "'s slice, expected " + want[at]);
        }
    }

    private void transfer(final Shape shape, final MemorySegment local, final RmaAllocation a, final int target,
        final boolean put)
    {
        if (isVector(shape))
        {
            if (put)
            {
                rma.putVector(shape.vectorsOver(local), a, target);
            }
            else
            {
                rma.getVector(shape.vectorsOver(local), a, target);
            }
            return;
        }
        final StridedPatch p = shape.patch();
        final long[] counts = new long[p.levels() + 1];
        final long[] localStrides = new long[p.levels()];
        final long[] remoteStrides = new long[p.levels()];
        for (int i = 0; i <= p.levels(); i++)
        {
            counts[i] = p.count(i);
        }
        for (int i = 0; i < p.levels(); i++)
        {
            localStrides[i] = p.sourceStride(i);
            remoteStrides[i] = p.targetStride(i);
        }
        if (put)
        {
            rma.putStrided(local, localStrides, a, target, 0, remoteStrides, counts, p.levels());
        }
        else
        {
            rma.getStrided(a, target, 0, remoteStrides, local, localStrides, counts, p.levels());
        }
    }

    /** A contiguous get into memory only this thread may touch: it always goes through the stream buffers. */
    private void confinedContiguousGet(final int target)
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        fill(a.local(), 77 + rma.rank());
        rma.barrier();
        try (Arena confined = Arena.ofConfined())
        {
            final MemorySegment into = confined.allocate(300 << 10);
            rma.get(a, target, 4096, into);
            confinedGets++;
            final MemorySegment expected = Arena.ofAuto().allocate(SLICE_BYTES);
            fill(expected, 77 + target);
            check(MemorySegment.mismatch(expected, 4096, 4096 + into.byteSize(), into, 0, into.byteSize()) < 0,
                () -> "contiguous get into confined memory differs from rank " + target + "'s slice");
        }
        rma.barrier();
        rma.free(a);
    }

    /**
     * Blocking gets of 1 B to just past the largest the target's data server answers, at odd offsets, into shared and
     * confined memory, each right after this rank put new bytes there: every get reads what the put before it wrote,
     * and nothing around its destination changes.
     */
    private void smallGets(final int target)
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        rma.barrier();
        final long largest = DriverTier.SERVED_GET_MAX_BYTES;
        final long[] sizes = {1, 7, 8, 9, 100, largest - 1, largest, largest + 1};
        try (Arena confined = Arena.ofConfined())
        {
            final MemorySegment source = Arena.ofShared().allocate(largest + 1);
            final MemorySegment[] into = {Arena.ofShared().allocate(largest + 3), confined.allocate(largest + 3)};
            int round = 0;
            for (final long bytes : sizes)
            {
                for (final MemorySegment destination : into)
                {
                    final long offset = 4096L * (SLICE_BYTES / 4096 / 2) + 13L * round + rma.rank();
                    fill(source, 900L + 31L * round + rma.rank());
                    destination.fill((byte)0x5a);
                    rma.put(source.asSlice(0, bytes), a, target, offset);
                    rma.get(a, target, offset, destination.asSlice(1, bytes));
                    confinedGets += destination == into[1] ? 1 : 0;
                    final long size = bytes;
                    check(MemorySegment.mismatch(source, 0, bytes, destination, 1, 1 + bytes) < 0,
                        () -> "get of " + size + " B after a put of them differs, from rank " + target);
                    check(0x5a == destination.get(ValueLayout.JAVA_BYTE, 0) &&
                        0x5a == destination.get(ValueLayout.JAVA_BYTE, 1 + bytes),
                        () -> "get of " + size + " B wrote outside its destination");
                    round++;
                }
            }
        }
        rma.barrier();
        rma.free(a);
    }

    /**
     * Each origin accumulates its values twice (scale 3) into zeroed pieces of the next rank: the target then holds
     * 6 times the origin's values exactly, nothing outside the pieces, and the origin reads the same back.
     */
    private void accumulate(final Shape shape, final ElementType type, final int target, final int origin)
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final MemorySegment source = Arena.ofShared().allocate(shape.localBytes(), 8);
        values(source, type, rma.rank());
        for (int round = 0; round < 2; round++)
        {
            final AccumulateScale scale = Elements.scale(type, 3);
            if (isVector(shape))
            {
                rma.accVector(scale, shape.vectorsOver(source), a, target);
            }
            else
            {
                final StridedPatch p = shape.patch();
                rma.accStrided(scale, source, new long[] {p.sourceStride(0), p.levels() > 1 ? p.sourceStride(1) : 0},
                    a, target, 0, new long[] {p.targetStride(0), p.levels() > 1 ? p.targetStride(1) : 0},
                    new long[] {p.count(0), p.count(1), p.levels() > 1 ? p.count(2) : 0}, p.levels());
            }
        }
        rma.barrier();
        final MemorySegment theirs = Arena.ofAuto().allocate(shape.localBytes(), 8);
        values(theirs, type, origin);
        final MemorySegment six = Arena.ofAuto().allocate(shape.localBytes(), 8);
        for (long e = 0; e < shape.localBytes() / type.bytes(); e++)
        {
            if (ElementType.INT == type)
            {
                six.set(ValueLayout.JAVA_INT, 4 * e, 6 * theirs.get(ValueLayout.JAVA_INT, 4 * e));
            }
            else
            {
                six.set(ValueLayout.JAVA_DOUBLE, 8 * e, 6 * theirs.get(ValueLayout.JAVA_DOUBLE, 8 * e));
            }
        }
        checkSlice(shape, a.local(), origin, (p, i) -> six.get(ValueLayout.JAVA_BYTE, p[0] + i));
        rma.barrier();
        rma.free(a);
    }

    private static void values(final MemorySegment s, final ElementType type, final int rank)
    {
        for (long e = 0; e < s.byteSize() / type.bytes(); e++)
        {
            final long v = (e * 7 + rank * 1000L) % 100_003;
            if (ElementType.INT == type)
            {
                s.set(ValueLayout.JAVA_INT, 4 * e, (int)v);
            }
            else
            {
                s.set(ValueLayout.JAVA_DOUBLE, 8 * e, v);
            }
        }
    }

    /**
     * A fence after one small put or accumulate to a rank is that write's answer, not a request of its own: the
     * target's server serves one request per put + fence (or accumulate + fence); after two writes, or a first one
     * too large to complete on its copy, a FENCE of its own; a fetch-and-add between a put and its fence changes
     * nothing. Each round's values are read back after its fence.
     */
    private void fencesAnswered(final int target)
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final int rounds = 40;
        final MemorySegment large = Arena.ofShared().allocate(CopiedWrites.MAX_COPIED_BYTES + 8);
        final MemorySegment back = Arena.ofShared().allocate(8L * rounds);
        // odd rounds of the first phase: a put of 0, its fence, an accumulate of the value, its fence
        final long[] expected = {3L * rounds / 2, 3L * rounds, 2L * rounds, 3L * rounds};
        final String[] phases = {"put + fence", "put + put + fence", "put + fetch-and-add + fence",
            "large put + fence"};
        for (int phase = 0; phase < phases.length; phase++)
        {
            rma.barrier();
            final long before = rma.protocols().dataServerRequests();
            rma.barrier();
            for (int i = 0; i < rounds; i++)
            {
                final long value = 1_000_000L * (phase + 1) + 100L * rma.rank() + i;
                switch (phase)
                {
                    case 0 ->
                    {
                        if (0 == i % 2)
                        {
                            rma.values().putLong(value, a, target, 8L * i);
                        }
                        else
                        {
                            final MemorySegment v = Arena.ofAuto().allocate(8, 8).fill((byte)0);
                            rma.values().putLong(0, a, target, 8L * i);
                            v.set(ValueLayout.JAVA_LONG, 0, value);
                            rma.fence(target);
                            rma.acc(AccumulateScale.ofLong(1), v, a, target, 8L * i);
                        }
                    }
                    case 1 ->
                    {
                        rma.values().putLong(-1, a, target, 8L * i);
                        rma.values().putLong(value, a, target, 8L * i);
                    }
                    case 2 ->
                    {
                        rma.values().putLong(value, a, target, 8L * i);
                        rma.atomics().fetchAndAddLong(a, target, SLICE_BYTES - 8, 1);
                    }
                    default ->
                    {
                        large.set(ValueLayout.JAVA_LONG, 0, value);
                        rma.put(large, a, target, 8L * i + 4096);
                        rma.values().putLong(value, a, target, 8L * i);
                    }
                }
                rma.fence(target);
                final long got = rma.values().getLong(a, target, 8L * i);
                final int round = i;
                final String what = phases[phase];
                check(value == got, () -> what + ", round " + round + ": read " + got + " after the fence, wrote " +
                    value);
            }
            rma.get(a, target, 0, back);
            for (int i = 0; i < rounds; i++)
            {
                final long want = 1_000_000L * (phase + 1) + 100L * rma.rank() + i;
                final long got = back.getAtIndex(ValueLayout.JAVA_LONG, i);
                final int round = i;
                final String what = phases[phase];
                check(want == got, () -> what + ": slot " + round + " holds " + got + ", want " + want);
            }
            rma.barrier();
            final long served = rma.protocols().dataServerRequests() - before;
            if (RankTier.DRIVER == rma.tier(target))
            {
                final int p = phase;
                final String what = phases[phase];
                final long reads = readsServed(target, rounds);
                check(expected[p] + reads == served, () -> "rank " + rma.rank() + "'s server served " + served +
                    " requests for " + rounds + " rounds of " + what + " (" + reads + " of them reads), want " +
                    (expected[p] + reads));
            }
        }
    }

    /** @return requests the rounds' reads add at the target: blocking small gets are its, unless one is forced. */
    private long readsServed(final int target, final int rounds)
    {
        final boolean served = "auto".equals(env.getOrDefault(RmaOptions.CONTIGUOUS_VARIABLE, "auto"));
        return served ? rounds + 1 : 0;
    }

    private static void fill(final MemorySegment s, final long seed)
    {
        final Random r = new Random(seed);
        final byte[] bytes = new byte[(int)s.byteSize()];
        r.nextBytes(bytes);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, s, 0, bytes.length);
    }

    /** A forced protocol is the only one of its kind that moved; through shared memory none did. */
    private void checkCounts(final int target)
    {
        final ProtocolCounts c = rma.protocols().counts();
        if (RankTier.SHARED_MEMORY == rma.tier(target))
        {
            check(c.equals(new ProtocolCounts(0, 0, 0, 0, 0)), () -> "through shared memory, yet counted " + c);
            return;
        }
        final String strided = env.getOrDefault(RmaOptions.STRIDED_VARIABLE, "auto");
        final String contiguous = env.getOrDefault(RmaOptions.CONTIGUOUS_VARIABLE, "auto");
        check(c.direct() + c.pack() > 0 && c.zeroCopy() + c.stream() > 0, () -> "no request counted: " + c);
        check(!"direct".equals(strided) || 0 == c.pack(), () -> "direct forced, yet " + c);
        check(!"pack".equals(strided) || 0 == c.direct(), () -> "pack forced, yet " + c);
        // The confined gets always stream; nothing else does when zero-copy is forced.
        check(!"zerocopy".equals(contiguous) || confinedGets == c.stream(), () -> "zero-copy forced, yet " + c +
            " (" + confinedGets + " confined gets)");
        check(!"stream".equals(contiguous) || 0 == c.zeroCopy(), () -> "stream forced, yet " + c);
        // Blocking gets up to the largest the data server answers are its, unless a contiguous protocol is forced.
        check("auto".equals(contiguous) ? c.served() >= 14 : 0 == c.served(), () -> "small gets, yet " + c);
        System.out.println("# rank " + rma.rank() + " protocols (" + strided + ", " + contiguous + "): " + c);
    }
}
