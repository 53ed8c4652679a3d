package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * One rank of a job checking what ARMCI's own test suites (test_onesided, test_strided, test_iov, test_rmw,
 * test_mutex, test_malloc, ...) check and {@link RmaScenarios} does not: {@code ArmciSuiteScenarios
 * SCENARIO[,SCENARIO...]}. Each scenario throws on the first wrong result; rank 0 prints "PASSED SCENARIO" after each.
 * Local buffers come from the heap, a shared arena and the caller's confined arena in turn.
 */
public final class ArmciSuiteScenarios
{
    private static final long SLICE_BYTES = 1 << 16;

    private final Job job;
    private final Rma rma;
    private final Arena confined = Arena.ofConfined();
    private final Arena shared = Arena.ofShared();

    private ArmciSuiteScenarios(final Job job, final Rma rma)
    {
        this.job = job;
        this.rma = rma;
    }

    public static void main(final String[] args)
    {
        final long joining = System.nanoTime();
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job))
        {
            final ArmciSuiteScenarios s = new ArmciSuiteScenarios(job, rma);
            RmaScenarios.printStart(rma, joining);
            for (final String scenario : args[0].split(","))
            {
                final long started = System.nanoTime();
                switch (scenario)
                {
                    case "zeroslices" -> s.zeroSlices();
                    case "levels" -> s.strideLevels();
                    case "vectors" -> s.vectors();
                    case "acctypes" -> s.accumulateTypes();
                    case "tickets" -> s.tickets();
                    case "mutexes" -> s.mutexes();
                    case "handles" -> s.handles();
                    case "ordering" -> s.ordering();
                    case "badinput" -> s.badInput();
                    case "crossslice" -> s.crossSlice();
                    case "fence" -> s.fenceThenFlag();
                    case "closepending" -> s.closeWithPendingOperations();
                    default -> throw new IllegalArgumentException("unknown scenario " + scenario);
                }
                rma.barrier();
                if (0 == rma.rank())
                {
                    System.out.println("PASSED " + scenario);
                    System.out.println("# " + scenario + ": " + (System.nanoTime() - started) / 1_000_000 + " ms");
                }
            }
        }
    }

    /** Local memory of the given kind: 0 heap, 1 shared arena, 2 confined arena; 8-byte aligned, zeroed. */
    private MemorySegment local(final int kind, final long bytes)
    {
        return switch (kind % 3)
        {
            case 0 -> MemorySegment.ofArray(new long[(int)((bytes + 7) / 8)]).asSlice(0, bytes);
            case 1 -> shared.allocate(bytes, 8);
            default -> confined.allocate(bytes, 8);
        };
    }

    private static String kind(final int kind)
    {
        return switch (kind % 3)
        {
            case 0 -> "heap";
            case 1 -> "shared arena";
            default -> "confined arena";
        };
    }

    private static void fill(final MemorySegment s, final long seed)
    {
        final Random r = new Random(seed);
        for (long i = 0; i < s.byteSize(); i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(1 + r.nextInt(255)));
        }
    }

    private static boolean allZero(final MemorySegment s)
    {
        for (long i = 0; i < s.byteSize(); i++)
        {
            if (0 != s.get(ValueLayout.JAVA_BYTE, i))
            {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- test_malloc: zero-size slices

    /**
     * Rank 0 and every other even rank give 0 bytes: their slices are empty, any byte aimed at them is refused
     * naming the rank, and zero-length operations of every form on them are no-ops; every rank giving 0 is fine too.
     */
    private void zeroSlices()
    {
        final long mine = 0 == rma.rank() % 2 ? 0 : 1000L + rma.rank();
        final RmaAllocation a = rma.alloc(mine);
        final MemorySegment eight = local(1, 8);
        final MemorySegment none = local(1, 0);
        for (int r = 0; r < rma.size(); r += 2)
        {
            final int t = r;
            check(0 == a.size(t), () -> "slice of rank " + t + " is not empty");
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice", () -> rma.put(eight, a, t, 0));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice", () -> rma.get(a, t, 0, eight));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice",
                () -> rma.acc(AccumulateScale.ofLong(1), eight, a, t, 0));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice", () -> rma.atomics().fetchAndAdd(a, t, 0, 1));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice", () -> rma.atomics().swapLong(a, t, 0, 1));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice", () -> rma.values().putLong(1, a, t, 0));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice", () -> rma.values().getInt(a, t, 0));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice",
                () -> rma.putStrided(eight, new long[] {4}, a, t, 0, new long[] {4}, new long[] {4, 2}, 1));
            expect(IllegalArgumentException.class, "outside rank " + t + "'s slice",
                () -> rma.putVector(new IoVector[] {new IoVector(eight, new long[] {0}, new long[] {0}, 8)}, a, t));
            // Zero bytes: allowed, nothing happens.
            rma.put(none, a, t, 0);
            rma.get(a, t, 0, none);
            rma.acc(AccumulateScale.ofDouble(2), none, a, t, 0);
            rma.putStrided(eight, new long[] {8}, a, t, 0, new long[] {8}, new long[] {8, 0}, 1);
            rma.getVector(new IoVector[] {new IoVector(eight, new long[0], new long[0], 8)}, a, t);
        }
        // Zero-length operations on a non-empty slice, every form, through whichever tier.
        for (int r = 1; r < rma.size(); r += 2)
        {
            final RmaHandle h = rma.handle();
            rma.nbPut(none, a, r, a.size(r), h);
            h.await();
            rma.nbGet(a, r, 0, none, h);
            h.await();
            rma.putStrided(eight, new long[] {8}, a, r, 0, new long[] {8}, new long[] {0, 5}, 1);
            rma.getStrided(a, r, 0, new long[] {8}, eight, new long[] {8}, new long[] {8, 0}, 1);
            rma.accStrided(AccumulateScale.ofInt(3), eight, new long[] {8}, a, r, 0, new long[] {8},
                new long[] {4, 0}, 1);
            rma.putVector(new IoVector[] {new IoVector(eight, new long[] {0, 0}, new long[] {0, 8}, 0)}, a, r);
            rma.accVector(AccumulateScale.ofInt(1), new IoVector[0], a, r);
        }
        rma.barrier();
        check(allZero(a.local()), () -> "a zero-length or refused operation wrote to rank " + rma.rank());
        rma.free(a);
        final RmaAllocation empty = rma.alloc(0);
        for (int r = 0; r < rma.size(); r++)
        {
            final int t = r;
            check(0 == empty.size(t), () -> "all-empty allocation: rank " + t + " has bytes");
        }
        rma.put(none, empty, (rma.rank() + 1) % rma.size(), 0);
        rma.free(empty);
        // Mutexes likewise: rank 0 hosts none.
        final RmaMutexes m = rma.locks().createMutexes(rma.rank());
        expect(IllegalArgumentException.class, "rank 0 hosts 0 mutexes; there is no mutex 0", () -> m.lock(0, 0));
        rma.locks().destroyMutexes(m);
    }

    // ---------------------------------------------------------------- test_strided: 0..8 levels

    /**
     * For every stride level count 0..8: odd counts, a source packed differently from the target (and a third layout
     * to read back into), put to the next rank, get back, byte-exact, and nothing written between the pieces; local
     * memory of every kind.
     */
    private void strideLevels()
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final int next = (rma.rank() + 1) % rma.size();
        final int previous = (rma.rank() + rma.size() - 1) % rma.size();
        for (int levels = 0; levels <= StridedPatch.MAX_LEVELS; levels++)
        {
            final long[] counts = new long[levels + 1];
            final long[] src = new long[levels];
            final long[] dst = new long[levels];
            final long[] back = new long[levels];
            counts[0] = levels < 3 ? 37 : 3;
            for (int i = 1; i <= levels; i++)
            {
                counts[i] = i % 2 == 1 ? 3 : 1 + (i % 3);
            }
            for (int i = 0; i < levels; i++)
            {
                final long inner = 0 == i ? counts[0] : 0;
                src[i] = (0 == i ? counts[0] : counts[i] * src[i - 1]) + (0 == i ? 1 : 0);
                dst[i] = (0 == i ? inner + 5 : counts[i] * dst[i - 1] + 3);
                back[i] = (0 == i ? counts[0] + 2 : counts[i] * back[i - 1]);
            }
            final StridedPatch out = StridedPatch.of(counts, src, dst, levels);
            final StridedPatch in = StridedPatch.of(counts, dst, back, levels);
            check(out.targetExtentBytes() <= SLICE_BYTES / rma.size(), () -> "patch too large: " + out);
            final long at = rma.rank() * (SLICE_BYTES / rma.size());
            final int kind = levels;
            final MemorySegment source = local(kind, Math.max(1, out.sourceExtentBytes()));
            fill(source, 31L * levels + rma.rank());
            if (0 == levels)
            {
                // ARMCI passes no stride arrays for a contiguous patch.
                rma.putStrided(source, null, a, next, at, null, counts, levels);
            }
            else
            {
                rma.putStrided(source, src, a, next, at, dst, counts, levels);
            }
            final MemorySegment readBack = local(kind + 1, Math.max(1, in.targetExtentBytes()));
            rma.getStrided(a, next, at, 0 == levels ? null : dst, readBack, 0 == levels ? null : back, counts, levels);
            final long[] pieces = {0};
            final int lv = levels;
            final StridedPatch both = StridedPatch.of(counts, src, back, levels);
            both.forEachPiece((s, b, bytes) ->
            {
                pieces[0]++;
                check(MemorySegment.mismatch(source, s, s + bytes, readBack, b, b + bytes) < 0,
                    () -> lv + " levels, " + kind(kind) + " source, " + kind(kind + 1) + " destination: piece at " +
                        s + " came back different");
            });
            check(pieces[0] == out.pieces(), () -> "piece count");
            rma.barrier();
            // The previous rank's patch in this slice: its pieces as sent, zero between them.
            final MemorySegment expected = local(1, Math.max(1, out.sourceExtentBytes()));
            fill(expected, 31L * levels + previous);
            final MemorySegment region = a.local().asSlice(previous * (SLICE_BYTES / rma.size()), SLICE_BYTES / rma.size());
            final MemorySegment mask = local(1, region.byteSize());
            out.forEachPiece((s, d, bytes) ->
            {
                check(MemorySegment.mismatch(expected, s, s + bytes, region, d, d + bytes) < 0,
                    () -> lv + " levels: rank " + previous + "'s piece at " + d + " did not land");
                mask.asSlice(d, bytes).fill((byte)1);
            });
            for (long i = 0; i < region.byteSize(); i++)
            {
                final long b = i;
                check(1 == mask.get(ValueLayout.JAVA_BYTE, i) || 0 == region.get(ValueLayout.JAVA_BYTE, i),
                    () -> lv + " levels: byte " + b + " between the pieces was written");
            }
            rma.barrier();
            region.fill((byte)0);
            rma.barrier();
        }
        spreadAndDegenerateStrides(a, next);
        // Accumulate through every level count, double, source packed, target every other element.
        for (int levels = 1; levels <= StridedPatch.MAX_LEVELS; levels++)
        {
            final long[] counts = new long[levels + 1];
            final long[] src = new long[levels];
            final long[] dst = new long[levels];
            counts[0] = 16;
            for (int i = 1; i <= levels; i++)
            {
                counts[i] = 2;
            }
            for (int i = 0; i < levels; i++)
            {
                src[i] = 0 == i ? 16 : counts[i] * src[i - 1];
                dst[i] = 0 == i ? 32 : counts[i] * dst[i - 1];
            }
            final StridedPatch p = StridedPatch.of(counts, src, dst, levels);
            final MemorySegment ones = local(levels, p.sourceExtentBytes());
            for (long i = 0; i < ones.byteSize() / 8; i++)
            {
                ones.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, 1.0);
            }
            for (int t = 0; t < rma.size(); t++)
            {
                rma.accStrided(AccumulateScale.ofDouble(0.5), ones, src, a, t, 0, dst, counts, levels);
            }
            rma.barrier();
            final int lv = levels;
            final double want = 0.5 * rma.size();
            p.forEachPiece((s, d, bytes) ->
            {
                for (long e = 0; e < bytes; e += 8)
                {
                    final double got = a.local().get(ValueLayout.JAVA_DOUBLE, d + e);
                    final long at = d + e;
                    check(want == got, () -> lv + " levels accumulate: element at " + at + " is " + got + ", want " + want);
                    check(0.0 == a.local().get(ValueLayout.JAVA_DOUBLE, d + e + 16),
                        () -> lv + " levels accumulate: element between pieces at " + (at + 16) + " written");
                }
            });
            rma.barrier();
            a.local().fill((byte)0);
            rma.barrier();
        }
        rma.free(a);
    }

    /**
     * Strides ARMCI allows that do not "fit their counts" on a side only read: a source stride of 0 (one row put to
     * 5 rows, one remote row got into 4, one row accumulated onto 3), levels of count 1 with any stride, and target
     * blocks interleaved without overlap; direct and packed. Complex floats accumulated at a float-aligned offset.
     */
    private void spreadAndDegenerateStrides(final RmaAllocation a, final int next)
    {
        final long at = rma.rank() * (SLICE_BYTES / rma.size());
        final MemorySegment row = local(1, 24);
        fill(row, 5 + rma.rank());
        for (final StridedProtocol protocol : List.of(StridedProtocol.DIRECT, StridedProtocol.PACK))
        {
            rma.protocols().force(protocol, ContiguousProtocol.AUTO);
            rma.putStrided(row, new long[] {0}, a, next, at, new long[] {32}, new long[] {24, 5}, 1);
            final MemorySegment rows = local(2, 5 * 24);
            rma.getStrided(a, next, at, new long[] {32}, rows, new long[] {24}, new long[] {24, 5}, 1);
            for (int i = 0; i < 5; i++)
            {
                final int r = i;
                check(MemorySegment.mismatch(row, 0, 24, rows, 24L * i, 24L * i + 24) < 0,
                    () -> protocol + ": row put with source stride 0 did not land in row " + r);
            }
            final MemorySegment four = local(0, 4 * 24);
            rma.getStrided(a, next, at + 64, new long[] {0}, four, new long[] {24}, new long[] {24, 4}, 1);
            for (int i = 0; i < 4; i++)
            {
                final int r = i;
                check(MemorySegment.mismatch(row, 0, 24, four, 24L * i, 24L * i + 24) < 0,
                    () -> protocol + ": get with remote source stride 0 differs in row " + r);
            }
            // A level of count 1 with stride 0 under a level of 2.
            final MemorySegment back = local(1, 48);
            rma.getStrided(a, next, at, new long[] {0, 32}, back, new long[] {0, 24}, new long[] {24, 1, 2}, 2);
            check(MemorySegment.mismatch(row, 0, 24, back, 0, 24) < 0 && MemorySegment.mismatch(row, 0, 24, back, 24, 48) < 0,
                () -> protocol + ": degenerate level of count 1 with stride 0");
            // Interleaved destination blocks: 2 x 8 bytes 16 apart, the next block 24 further (no overlap).
            final MemorySegment interleaved = local(2, 48);
            rma.getStrided(a, next, at, new long[] {32, 64}, interleaved, new long[] {16, 24}, new long[] {8, 2, 2}, 2);
            check(MemorySegment.mismatch(row, 0, 8, interleaved, 0, 8) < 0 &&
                MemorySegment.mismatch(row, 0, 8, interleaved, 16, 24) < 0 &&
                MemorySegment.mismatch(row, 0, 8, interleaved, 24, 32) < 0 &&
                MemorySegment.mismatch(row, 0, 8, interleaved, 40, 48) < 0,
                () -> protocol + ": interleaved blocks");
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
        rma.barrier();
        a.local().fill((byte)0);
        rma.barrier();
        // One row of 4 longs accumulated onto 3 target rows from every rank.
        final MemorySegment longs = local(0, 32);
        for (int i = 0; i < 4; i++)
        {
            longs.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, i + 1);
        }
        rma.accStrided(AccumulateScale.ofLong(2), longs, new long[] {0}, a, next, 0, new long[] {64},
            new long[] {32, 3}, 1);
        // Complex floats at offset 1028: C aligns float complex like float.
        final MemorySegment complex = local(1, 16);
        complex.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 1);
        complex.setAtIndex(ValueLayout.JAVA_FLOAT, 1, 2);
        complex.setAtIndex(ValueLayout.JAVA_FLOAT, 2, 3);
        complex.setAtIndex(ValueLayout.JAVA_FLOAT, 3, 4);
        rma.acc(AccumulateScale.ofComplexFloat(1, 1), complex, a, next, 1028);
        rma.barrier();
        for (int r = 0; r < 3; r++)
        {
            for (int i = 0; i < 4; i++)
            {
                final long got = a.local().get(ValueLayout.JAVA_LONG, 64L * r + 8L * i);
                final long want = 2L * (i + 1);
                final int rowIndex = r;
                check(want == got, () -> "accumulate with source stride 0: row " + rowIndex + " is " + got + ", want " + want);
            }
        }
        // (1 + i)(1 + 2i) = -1 + 3i, (1 + i)(3 + 4i) = -1 + 7i
        final float[] want = {-1, 3, -1, 7};
        for (int i = 0; i < 4; i++)
        {
            final float got = a.local().get(ValueLayout.JAVA_FLOAT, 1028 + 4L * i);
            final int f = i;
            check(want[f] == got, () -> "complex float accumulate at offset 1028: float " + f + " is " + got);
        }
        rma.barrier();
        a.local().fill((byte)0);
        rma.barrier();
    }

    // ---------------------------------------------------------------- test_iov: vectors

    /**
     * A vector of 10000 8-byte pieces (every other long, in reverse order) plus groups of zero-length pieces and a
     * group of another length: put, get back, accumulate from every rank, exact at the target.
     */
    private void vectors()
    {
        final int n = 10_000;
        final RmaAllocation a = rma.alloc(2L * n * 8 * rma.size() + 4096);
        final int next = (rma.rank() + 1) % rma.size();
        final long base = rma.rank() * 2L * n * 8;
        for (int kind = 0; kind < 3; kind++)
        {
            final MemorySegment source = local(kind, n * 8L);
            final long[] local = new long[n];
            final long[] remote = new long[n];
            for (int i = 0; i < n; i++)
            {
                source.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, 1_000_000L * rma.rank() + 10L * i + kind);
                local[i] = 8L * i;
                remote[i] = base + 16L * (n - 1 - i);
            }
            final MemorySegment small = local(kind, 64);
            fill(small, kind);
            final IoVector[] put = {
                new IoVector(source, local, remote, 8),
                new IoVector(source, new long[] {0, 8, 16}, new long[] {0, 8, 8}, 0),
                new IoVector(small, new long[] {0, 32}, new long[] {2L * n * 8 * rma.size(), 2L * n * 8 * rma.size() + 100}, 32)};
            rma.putVector(put, a, next);
            final MemorySegment back = local(kind + 1, n * 8L);
            final MemorySegment smallBack = local(kind + 1, 64);
            rma.getVector(new IoVector[] {
                new IoVector(back, local, remote, 8),
                new IoVector(smallBack, new long[0], new long[0], 4),
                new IoVector(smallBack, new long[] {0, 32}, new long[] {2L * n * 8 * rma.size(), 2L * n * 8 * rma.size() + 100}, 32)},
                a, next);
            final int k = kind;
            check(MemorySegment.mismatch(source, 0, n * 8L, back, 0, n * 8L) < 0,
                () -> "vector of " + n + " pieces, " + kind(k) + " source, came back different");
            check(MemorySegment.mismatch(small, 0, 64, smallBack, 0, 64) < 0, () -> "32-byte vector group came back different");
            rma.barrier();
        }
        zeroLengthPiecesAmongOthers(a, next, 2L * n * 8 * rma.size());
        // Accumulate: every rank adds (rank + 1) to the odd longs of every target's first region.
        final MemorySegment ones = local(2, n * 8L);
        final long[] local = new long[n];
        final long[] remote = new long[n];
        for (int i = 0; i < n; i++)
        {
            ones.setAtIndex(ValueLayout.JAVA_LONG, i, 1);
            local[i] = 8L * i;
            remote[i] = 16L * i + 8;
        }
        a.local().asSlice(0, 2L * n * 8).fill((byte)0);
        rma.barrier();
        for (int t = 0; t < rma.size(); t++)
        {
            rma.accVector(AccumulateScale.ofLong(rma.rank() + 1),
                new IoVector[] {new IoVector(ones, local, remote, 8), new IoVector(ones, new long[] {0}, new long[] {0}, 0)},
                a, t);
        }
        rma.barrier();
        final long want = (long)rma.size() * (rma.size() + 1) / 2;
        for (int i = 0; i < n; i++)
        {
            final long got = a.local().get(ValueLayout.JAVA_LONG, 16L * i + 8);
            final long even = a.local().get(ValueLayout.JAVA_LONG, 16L * i);
            final int e = i;
            check(want == got && 0 == even, () -> "vector accumulate of 10000 pieces: piece " + e + " is " + got +
                " (want " + want + "), the long before it " + even);
        }
        // One vector accumulate naming every target element 3 times (72 KB of data: more than a request carries),
        // from every rank at once: each element gains 3 x every rank's scale.
        rma.barrier();
        final int distinct = 3000;
        final long[] repeatedLocal = new long[3 * distinct];
        final long[] repeatedRemote = new long[3 * distinct];
        final MemorySegment twos = local(1, 3L * distinct * 8);
        for (int i = 0; i < 3 * distinct; i++)
        {
            twos.setAtIndex(ValueLayout.JAVA_LONG, i, 2);
            repeatedLocal[i] = 8L * i;
            repeatedRemote[i] = 16L * (i % distinct);
        }
        for (int t = 0; t < rma.size(); t++)
        {
            rma.accVector(AccumulateScale.ofLong(rma.rank() + 1),
                new IoVector[] {new IoVector(twos, repeatedLocal, repeatedRemote, 8)}, a, t);
        }
        rma.barrier();
        for (int i = 0; i < distinct; i++)
        {
            final long got = a.local().get(ValueLayout.JAVA_LONG, 16L * i);
            final long wanted = 6 * want;
            final int e = i;
            check(wanted == got, () -> "vector accumulate naming element " + e + " three times: " + got + ", want " + wanted);
        }
        rma.free(a);
    }

    /**
     * Groups of zero-length pieces between groups of real ones, in one put, get and accumulate, direct and packed:
     * the real pieces move, nothing else.
     */
    private void zeroLengthPiecesAmongOthers(final RmaAllocation a, final int next, final long at)
    {
        for (final StridedProtocol protocol : List.of(StridedProtocol.DIRECT, StridedProtocol.PACK))
        {
            rma.protocols().force(protocol, ContiguousProtocol.AUTO);
            final MemorySegment data = local(2, 64);
            fill(data, 11 + rma.rank());
            final MemorySegment empty = local(0, 0);
            rma.putVector(new IoVector[] {
                new IoVector(empty, new long[] {0, 0}, new long[] {at, at + 3}, 0),
                new IoVector(data, new long[] {0, 16}, new long[] {at, at + 16}, 16),
                new IoVector(data, new long[] {64, 64, 64}, new long[] {at + 64, at, at + 1}, 0),
                new IoVector(data, new long[] {32}, new long[] {at + 32}, 32)}, a, next);
            final MemorySegment back = local(1, 64);
            rma.getVector(new IoVector[] {
                new IoVector(back, new long[] {0}, new long[] {at + 5}, 0),
                new IoVector(back, new long[] {0, 32}, new long[] {at, at + 32}, 32),
                new IoVector(back, new long[] {64}, new long[] {at}, 0)}, a, next);
            check(data.mismatch(back) < 0, () -> protocol + ": vector with zero-length groups between real ones differs");
            final MemorySegment ones = local(1, 16);
            ones.setAtIndex(ValueLayout.JAVA_LONG, 0, 1);
            ones.setAtIndex(ValueLayout.JAVA_LONG, 1, 1);
            rma.accVector(AccumulateScale.ofLong(1), new IoVector[] {
                new IoVector(ones, new long[] {0}, new long[] {at}, 0),
                new IoVector(ones, new long[] {0}, new long[] {at + 64}, 16),
                new IoVector(ones, new long[] {16, 16}, new long[] {at + 8, at + 64}, 0)}, a, next);
            final long first = rma.values().getLong(a, next, at + 64);
            final long second = rma.values().getLong(a, next, at + 72);
            final long after = rma.values().getLong(a, next, at + 80);
            check(1 == first && 1 == second && 0 == after, () -> protocol + ": vector accumulate with zero-length " +
                "groups: " + first + ", " + second + ", " + after);
            rma.putVector(new IoVector[] {new IoVector(local(1, 16), new long[] {0}, new long[] {at + 64}, 16)}, a, next);
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
        rma.barrier();
    }

    // ---------------------------------------------------------------- accumulate of every type with scales

    /**
     * Every type, scales that are not 1 (complex ones with an imaginary part), from every rank to the same elements of
     * every rank through contiguous, strided (source packed, target in two interleaved halves) and vector (reversed)
     * forms, blocking and non-blocking, from heap and native sources: each element's sum is exact.
     */
    private void accumulateTypes()
    {
        final int elements = 48;
        final int rounds = 6;
        final long region = elements * 16L;
        final RmaAllocation a = rma.alloc(ElementType.values().length * region);
        for (final ElementType type : ElementType.values())
        {
            final long base = type.ordinal() * region;
            final int eb = type.bytes();
            final AccumulateScale scale = scaleOf(type, rma.rank());
            for (int round = 0; round < rounds; round++)
            {
                final int kind = round % 2;
                final MemorySegment all = local(kind, elements * (long)eb);
                final MemorySegment evens = local(kind, elements / 2 * (long)eb);
                final MemorySegment odds = local(kind, elements / 2 * (long)eb);
                for (int e = 0; e < elements; e++)
                {
                    setValue(type, all, e, e);
                    setValue(type, 0 == e % 2 ? evens : odds, e / 2, e);
                }
                final long[] localOffsets = new long[elements];
                final long[] remoteOffsets = new long[elements];
                for (int e = 0; e < elements; e++)
                {
                    localOffsets[e] = (long)(elements - 1 - e) * eb;
                    remoteOffsets[e] = base + (long)(elements - 1 - e) * eb;
                }
                final RmaHandle aggregate = rma.aggregateHandle();
                for (int t = 0; t < rma.size(); t++)
                {
                    if (0 == round % 3)
                    {
                        rma.acc(scale, all, a, t, base);
                    }
                    else
                    {
                        rma.nbAcc(scale, all, a, t, base, 1 == round % 3 ? aggregate : null);
                    }
                    final long[] counts = {eb, elements / 2};
                    rma.accStrided(scale, evens, new long[] {eb}, a, t, base, new long[] {2L * eb}, counts, 1);
                    rma.nbAccStrided(scale, odds, new long[] {eb}, a, t, base + eb, new long[] {2L * eb}, counts, 1,
                        aggregate);
                    rma.nbAccVector(scale, new IoVector[] {new IoVector(all, localOffsets, remoteOffsets, eb)}, a, t,
                        aggregate);
                }
                aggregate.await();
                rma.waitAll();
            }
        }
        rma.barrier();
        for (final ElementType type : ElementType.values())
        {
            final long base = type.ordinal() * region;
            for (int e = 0; e < elements; e++)
            {
                // Sum over ranks of 3 forms x rounds x scale(r) * x(e).
                double wantRe = 0;
                double wantIm = 0;
                for (int r = 0; r < rma.size(); r++)
                {
                    final double[] s = scaleParts(type, r);
                    final double xr = e;
                    final double xi = isComplex(type) ? e % 3 : 0;
                    wantRe += 3.0 * rounds * (s[0] * xr - s[1] * xi);
                    wantIm += 3.0 * rounds * (s[0] * xi + s[1] * xr);
                }
                final double gotRe = getPart(type, a.local().asSlice(base), e, 0);
                final double gotIm = isComplex(type) ? getPart(type, a.local().asSlice(base), e, 1) : 0;
                final double wr = wantRe;
                final double wi = wantIm;
                final int el = e;
                check(wr == gotRe && wi == gotIm, () -> type + " element " + el + " of rank " + rma.rank() + " is (" +
                    gotRe + ", " + gotIm + "), want (" + wr + ", " + wi + ")");
            }
        }
        rma.free(a);
    }

    private static boolean isComplex(final ElementType type)
    {
        return ElementType.COMPLEX_FLOAT == type || ElementType.COMPLEX_DOUBLE == type;
    }

    /** Rank r's scale: r + 2 (integers), (r + 2) / 2 (real), (r + 2, 1 - r) (complex): exact in every type. */
    private static double[] scaleParts(final ElementType type, final int r)
    {
        return switch (type)
        {
            case INT, LONG -> new double[] {r + 2, 0};
            case FLOAT, DOUBLE -> new double[] {(r + 2) / 2.0, 0};
            default -> new double[] {r + 2, 1 - r};
        };
    }

    private static AccumulateScale scaleOf(final ElementType type, final int r)
    {
        final double[] s = scaleParts(type, r);
        return switch (type)
        {
            case INT -> AccumulateScale.ofInt((int)s[0]);
            case LONG -> AccumulateScale.ofLong((long)s[0]);
            case FLOAT -> AccumulateScale.ofFloat((float)s[0]);
            case DOUBLE -> AccumulateScale.ofDouble(s[0]);
            case COMPLEX_FLOAT -> AccumulateScale.ofComplexFloat((float)s[0], (float)s[1]);
            case COMPLEX_DOUBLE -> AccumulateScale.ofComplexDouble(s[0], s[1]);
        };
    }

    /** Element e = e (complex: e + (e mod 3) i). */
    private static void setValue(final ElementType type, final MemorySegment s, final int index, final int e)
    {
        switch (type)
        {
            case INT -> s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, index, e);
            case LONG -> s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index, e);
            case FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, index, e);
            case DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, index, e);
            case COMPLEX_FLOAT ->
            {
                s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * index, e);
                s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * index + 1, e % 3);
            }
            case COMPLEX_DOUBLE ->
            {
                s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 2L * index, e);
                s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 2L * index + 1, e % 3);
            }
        }
    }

    private static double getPart(final ElementType type, final MemorySegment s, final int e, final int part)
    {
        return switch (type)
        {
            case INT -> s.getAtIndex(ValueLayout.JAVA_INT, e);
            case LONG -> s.getAtIndex(ValueLayout.JAVA_LONG, e);
            case FLOAT -> s.getAtIndex(ValueLayout.JAVA_FLOAT, e);
            case DOUBLE -> s.getAtIndex(ValueLayout.JAVA_DOUBLE, e);
            case COMPLEX_FLOAT -> s.getAtIndex(ValueLayout.JAVA_FLOAT, 2L * e + part);
            case COMPLEX_DOUBLE -> s.getAtIndex(ValueLayout.JAVA_DOUBLE, 2L * e + part);
        };
    }

    // ---------------------------------------------------------------- test_rmw: tickets

    /**
     * Every rank takes int and long fetch-and-add tickets and swaps unique values on every rank's counters at once:
     * every ticket is unique and the counters end exact; the swapped values are all accounted for (each old value
     * returned once, the last one left in place). Misaligned and out-of-slice targets are refused.
     */
    private void tickets()
    {
        final int takes = 150;
        final RmaAllocation a = rma.alloc(64);
        final long[][] mine = new long[4][rma.size() * takes];
        int at = 0;
        for (int i = 0; i < takes; i++)
        {
            for (int t = 0; t < rma.size(); t++)
            {
                final int target = (t + rma.rank()) % rma.size();
                mine[0][at] = target * 1_000_000L + rma.atomics().fetchAndAdd(a, target, 0, 1);
                mine[1][at] = target * 1_000_000L + (rma.atomics().fetchAndAddLong(a, target, 8, 1L << 40) >> 40);
                // Swap values: 1 + origin * takes + i, unique over the job; 0 is the initial value.
                final long value = 1 + (long)rma.rank() * takes + i;
                mine[2][at] = target * 1_000_000L + rma.atomics().swap(a, target, 16, (int)value);
                mine[3][at] = target * 1_000_000L + (rma.atomics().swapLong(a, target, 24, value << 33) >> 33);
                at++;
            }
        }
        rma.barrier();
        final int total = takes * rma.size();
        check(total == a.local().get(ValueLayout.JAVA_INT, 0), () -> "int ticket counter " + a.local().get(ValueLayout.JAVA_INT, 0));
        check((long)total << 40 == a.local().get(ValueLayout.JAVA_LONG, 8), () -> "long ticket counter");
        for (int kind = 0; kind < 4; kind++)
        {
            final List<byte[]> all = gather(mine[kind]);
            for (int target = 0; target < rma.size(); target++)
            {
                final boolean[] seen = new boolean[total + 1];
                for (final byte[] rank : all)
                {
                    final ByteBuffer in = ByteBuffer.wrap(rank);
                    while (in.hasRemaining())
                    {
                        final long v = in.getLong();
                        if (v / 1_000_000L != target)
                        {
                            continue;
                        }
                        final long raw = v % 1_000_000L;
                        final long ticket = raw;
                        final int k = kind;
                        final int t = target;
                        check(ticket >= 0 && ticket <= total && !seen[(int)ticket],
                            () -> "rmw kind " + k + " on rank " + t + " returned " + ticket + " twice or out of range");
                        seen[(int)ticket] = true;
                    }
                }
                if (kind >= 2 && target == rma.rank())
                {
                    // The swaps' old values are 0 and every swapped value but the one left in place.
                    final long left = 2 == kind ? a.local().get(ValueLayout.JAVA_INT, 16) :
                        a.local().get(ValueLayout.JAVA_LONG, 24) >> 33;
                    final int k = kind;
                    check(left > 0 && left <= total && !seen[(int)left],
                        () -> "swap kind " + k + ": value left " + left + " was also returned, or none was");
                    seen[(int)left] = true;
                    for (int v = 0; v <= total; v++)
                    {
                        final int missing = v;
                        check(seen[v], () -> "swap kind " + k + ": value " + missing + " lost");
                    }
                }
            }
        }
        rma.barrier();
        final int last = rma.size() - 1;
        expect(IllegalArgumentException.class, "read-modify-write target offset 2 is not aligned to 4 bytes",
            () -> rma.atomics().fetchAndAdd(a, last, 2, 1));
        expect(IllegalArgumentException.class, "read-modify-write target offset 4 is not aligned to 8 bytes",
            () -> rma.atomics().fetchAndAddLong(a, last, 4, 1));
        expect(IllegalArgumentException.class, "read-modify-write target offset 1 is not aligned to 4 bytes",
            () -> rma.atomics().swap(a, last, 1, 1));
        expect(IllegalArgumentException.class, "read-modify-write target offset 12 is not aligned to 8 bytes",
            () -> rma.atomics().swapLong(a, last, 12, 1));
        expect(IllegalArgumentException.class, "read-modify-write target [60, 60 + 8)", () -> rma.atomics().swapLong(a, last, 60, 1));
        expect(IllegalArgumentException.class, "read-modify-write target [-8, -8 + 8)",
            () -> rma.atomics().fetchAndAddLong(a, last, -8, 1));
        rma.barrier();
        rma.free(a);
    }

    private List<byte[]> gather(final long[] values)
    {
        final ByteBuffer b = ByteBuffer.allocate(values.length * Long.BYTES);
        b.asLongBuffer().put(values);
        return job.allGather(b.array());
    }

    // ---------------------------------------------------------------- test_mutex

    /**
     * Rank r hosts r mutexes (rank 0 none); every rank takes every mutex of every rank in turn, increments the
     * counter it guards by a get and a put, and lets go: the counters end exact. Unknown mutexes, unlocks of mutexes
     * not held, relocking a held one and use after destroy are refused.
     */
    private void mutexes()
    {
        final int rounds = 12;
        final RmaMutexes m = rma.locks().createMutexes(rma.rank());
        final RmaAllocation counters = rma.alloc(8L * Math.max(1, rma.rank()));
        for (int round = 0; round < rounds; round++)
        {
            for (int h = 1; h < rma.size(); h++)
            {
                final int host = (h + rma.rank()) % rma.size();
                for (int mutex = 0; mutex < m.count(host); mutex++)
                {
                    if (0 == (round + mutex) % 2)
                    {
                        m.lock(mutex, host);
                    }
                    else
                    {
                        while (!m.tryLock(mutex, host))
                        {
                            Thread.onSpinWait();
                        }
                    }
                    final long v = rma.values().getLong(counters, host, 8L * mutex);
                    rma.values().putLong(v + 1, counters, host, 8L * mutex);
                    m.unlock(mutex, host);
                }
            }
            // Also the rank's own mutexes, which others contend for.
            for (int mutex = 0; mutex < m.count(rma.rank()); mutex++)
            {
                m.lock(mutex, rma.rank());
                final long v = counters.local().get(ValueLayout.JAVA_LONG, 8L * mutex);
                rma.values().putLong(v + 1, counters, rma.rank(), 8L * mutex);
                m.unlock(mutex, rma.rank());
            }
        }
        rma.barrier();
        for (int mutex = 0; mutex < rma.rank(); mutex++)
        {
            final long got = counters.local().get(ValueLayout.JAVA_LONG, 8L * mutex);
            final int mu = mutex;
            check((long)rounds * rma.size() == got, () -> "counter of mutex " + mu + " of rank " + rma.rank() + " is " +
                got + ", want " + (long)rounds * rma.size());
        }
        final int last = rma.size() - 1;
        expect(IllegalArgumentException.class, "there is no mutex " + last, () -> m.lock(last, last));
        expect(IllegalArgumentException.class, "there is no mutex -1", () -> m.lock(-1, last));
        expect(IllegalArgumentException.class, "there is no mutex 0", () -> m.tryLock(0, 0));
        expect(IllegalArgumentException.class, "not a rank of this job", () -> m.lock(0, rma.size()));
        expect(IllegalStateException.class, "which this rank does not hold", () -> m.unlock(0, last));
        rma.barrier();
        if (last == rma.rank())
        {
            m.lock(0, last);
            expect(IllegalStateException.class, "already held by this rank", () -> m.lock(0, last));
            check(!m.tryLock(0, last), () -> "tryLock of a mutex this rank holds succeeded");
            m.unlock(0, last);
            expect(IllegalStateException.class, "which this rank does not hold", () -> m.unlock(0, last));
        }
        rma.barrier();
        rma.locks().destroyMutexes(m);
        expect(IllegalStateException.class, "was freed", () -> m.lock(0, last));
        expect(IllegalStateException.class, "was freed", () -> m.unlock(0, last));
        rma.free(counters);
        // A negative count is refused on every rank, naming it; the ranks stay in step.
        expect(IllegalArgumentException.class, "mutex count refused on every rank (" + (16 + 8 * rma.size()) + " bytes a mutex, 8 a host): rank 0 asked for a slice of " + (8 - 16 - 8 * rma.size()) + " bytes", () -> rma.locks().createMutexes(0 == rma.rank() ? -1 : 1));
        final RmaMutexes after = rma.locks().createMutexes(1);
        rma.locks().destroyMutexes(after);
    }

    // ---------------------------------------------------------------- non-blocking handles

    /**
     * Explicit handles waited for twice, tested after completion, reused; a get's data in place once its handle
     * tests complete (without a wait); implicit handles with waitProc and waitAll; an aggregate handle over many
     * operations to every rank.
     */
    private void handles()
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final int next = (rma.rank() + 1) % rma.size();
        final long at = rma.rank() * 1024L;
        final RmaHandle h = rma.handle();
        check(h.test(), () -> "a new handle is not complete");
        h.await();
        for (int kind = 0; kind < 3; kind++)
        {
            final MemorySegment data = local(kind, 512);
            fill(data, 7L * kind + rma.rank());
            rma.nbPut(data, a, next, at, h);
            h.await();
            h.await();
            check(h.test() && h.test(), () -> "a waited handle does not test complete");
            final MemorySegment back = local(kind, 512);
            rma.nbGet(a, next, at, back, h);
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (!h.test())
            {
                check(System.nanoTime() < deadline, () -> "non-blocking get not complete within 30 s");
                Thread.onSpinWait();
            }
            final int k = kind;
            // Complete by test alone: the data is in place without a wait.
            check(MemorySegment.mismatch(data, 0, 512, back, 0, 512) < 0,
                () -> kind(k) + ": get's handle tested complete but the data is not in place");
            // Reused without a wait once it tested complete.
            final MemorySegment strided = local(kind, 512);
            rma.nbGetStrided(a, next, at, new long[] {16}, strided, new long[] {16}, new long[] {8, 32}, 1, h);
            h.await();
            for (int i = 0; i < 32; i++)
            {
                final int piece = i;
                check(MemorySegment.mismatch(data, 16L * i, 16L * i + 8, strided, 16L * i, 16L * i + 8) < 0,
                    () -> kind(k) + ": strided get piece " + piece + " differs");
            }
            h.await();
        }
        testedGetsHaveTheirData(a, next, at);
        reusedWithoutAWait(a, next, at);
        // Implicit handles.
        final MemorySegment word = local(1, 8);
        for (int t = 0; t < rma.size(); t++)
        {
            word.set(ValueLayout.JAVA_LONG, 0, 100L * rma.rank() + t);
            rma.nbPut(word, a, t, 8192 + 8L * rma.rank(), null);
            rma.waitProc(t);
        }
        final MemorySegment[] gets = new MemorySegment[rma.size()];
        rma.barrier();
        for (int t = 0; t < rma.size(); t++)
        {
            gets[t] = local(1, 8L * rma.size());
            rma.nbGet(a, t, 8192, gets[t], null);
        }
        rma.waitAll();
        rma.waitAll();
        for (int t = 0; t < rma.size(); t++)
        {
            for (int o = 0; o < rma.size(); o++)
            {
                final long got = gets[t].getAtIndex(ValueLayout.JAVA_LONG, o);
                final long want = 100L * o + t;
                check(want == got, () -> "implicit put/get: " + got + ", want " + want);
            }
        }
        // Aggregate: many operations of every form to every rank, one wait.
        rma.barrier();
        final RmaHandle aggregate = rma.aggregateHandle();
        final MemorySegment[] backs = new MemorySegment[rma.size()];
        for (int t = 0; t < rma.size(); t++)
        {
            for (int i = 0; i < 20; i++)
            {
                word.set(ValueLayout.JAVA_LONG, 0, 1);
                rma.nbAcc(AccumulateScale.ofLong(1), word, a, t, 16384, aggregate);
            }
        }
        aggregate.await();
        aggregate.await();
        rma.barrier();
        for (int t = 0; t < rma.size(); t++)
        {
            backs[t] = local(1, 8);
            rma.nbGet(a, t, 16384, backs[t], aggregate);
        }
        aggregate.await();
        for (int t = 0; t < rma.size(); t++)
        {
            final long got = backs[t].get(ValueLayout.JAVA_LONG, 0);
            check(20L * rma.size() == got, () -> "aggregate accumulates: " + got);
        }
        rma.barrier();
        rma.free(a);
        freeCompletesPendingOperations();
    }

    /**
     * Strided and vector gets (direct and packed, into every kind of memory, of few and of more pieces than one
     * endpoint message carries) completed by {@link RmaHandle#test()} alone: the data is in place when it says so.
     */
    private void testedGetsHaveTheirData(final RmaAllocation a, final int next, final long at)
    {
        final MemorySegment data = local(1, 1024);
        fill(data, 99 + rma.rank());
        rma.put(data, a, next, at);
        final RmaHandle h = rma.handle();
        for (final StridedProtocol protocol : List.of(StridedProtocol.DIRECT, StridedProtocol.PACK))
        {
            rma.protocols().force(protocol, ContiguousProtocol.AUTO);
            for (int kind = 0; kind < 3; kind++)
            {
                for (final int pieces : new int[] {4, 300})
                {
                    final MemorySegment strided = local(kind, 1024);
                    final long[] counts = {2, pieces};
                    rma.nbGetStrided(a, next, at, new long[] {3}, strided, new long[] {3}, counts, 1, h);
                    spinUntilTested(h);
                    final MemorySegment vector = local(kind + 1, 1024);
                    final long[] offsets = new long[pieces];
                    final long[] remote = new long[pieces];
                    for (int i = 0; i < pieces; i++)
                    {
                        offsets[i] = 3L * i;
                        remote[i] = at + 3L * i;
                    }
                    rma.nbGetVector(new IoVector[] {new IoVector(vector, offsets, remote, 2)}, a, next, h);
                    spinUntilTested(h);
                    for (int i = 0; i < pieces; i++)
                    {
                        final int piece = i;
                        final int k = kind;
                        check(MemorySegment.mismatch(data, 3L * i, 3L * i + 2, strided, 3L * i, 3L * i + 2) < 0,
                            () -> protocol + " strided get of " + pieces + " pieces into " + kind(k) +
                                " memory tested complete, piece " + piece + " not in place");
                        check(MemorySegment.mismatch(data, 3L * i, 3L * i + 2, vector, 3L * i, 3L * i + 2) < 0,
                            () -> protocol + " vector get of " + pieces + " pieces into " + kind(k + 1) +
                                " memory tested complete, piece " + piece + " not in place");
                    }
                }
            }
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
    }

    /**
     * An explicit handle given a second operation before the first was waited for (ARMCI allows the reuse): both
     * complete, on every tier, the first one's data in place.
     */
    private void reusedWithoutAWait(final RmaAllocation a, final int next, final long at)
    {
        final MemorySegment data = local(1, 1024);
        fill(data, 123 + rma.rank());
        final RmaHandle h = rma.handle();
        rma.nbPut(data, a, next, at, h);
        rma.nbPut(data, a, next, at, h);
        for (int kind = 0; kind < 3; kind++)
        {
            final MemorySegment first = local(kind, 1024);
            final MemorySegment second = local(kind + 1, 512);
            rma.nbGetStrided(a, next, at, new long[] {16}, first, new long[] {16}, new long[] {8, 64}, 1, h);
            rma.nbGet(a, next, at, second, h);
            h.await();
            final int k = kind;
            for (int i = 0; i < 64; i++)
            {
                final int piece = i;
                check(MemorySegment.mismatch(data, 16L * i, 16L * i + 8, first, 16L * i, 16L * i + 8) < 0,
                    () -> kind(k) + ": the first get on a reused handle, piece " + piece + ", is not in place");
            }
            check(MemorySegment.mismatch(data, 0, 512, second, 0, 512) < 0,
                () -> kind(k) + ": the second get on a reused handle differs");
        }
    }

    private static void spinUntilTested(final RmaHandle h)
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!h.test())
        {
            check(System.nanoTime() < deadline, () -> "non-blocking operation not complete within 30 s");
            Thread.onSpinWait();
        }
    }

    /**
     * Non-blocking puts and gets on explicit and aggregate handles, not waited for: a barrier makes the puts visible
     * at their targets, and a free right after the gets completes them (their handles then report success and the
     * data is in place); packed gets too.
     */
    private void freeCompletesPendingOperations()
    {
        final int next = (rma.rank() + 1) % rma.size();
        final RmaAllocation a = rma.alloc(1 << 18);
        final MemorySegment big = local(1, 1 << 17);
        fill(big, 77 + rma.rank());
        final RmaHandle put = rma.handle();
        rma.nbPut(big, a, next, 0, put);
        final RmaHandle puts = rma.aggregateHandle();
        final MemorySegment row = local(1, 8);
        fill(row, 78 + rma.rank());
        rma.nbPutStrided(row, new long[] {0}, a, next, 1 << 17, new long[] {64}, new long[] {8, 100}, 1, puts);
        rma.barrier();
        final int previous = (rma.rank() + rma.size() - 1) % rma.size();
        final MemorySegment expected = local(1, 1 << 17);
        fill(expected, 77 + previous);
        check(MemorySegment.mismatch(expected, 0, 1 << 17, a.local(), 0, 1 << 17) < 0,
            () -> "non-blocking put not waited for, then a barrier: the target does not see it");
        final MemorySegment expectedRow = local(1, 8);
        fill(expectedRow, 78 + previous);
        check(MemorySegment.mismatch(expectedRow, 0, 8, a.local(), (1 << 17) + 99 * 64, (1 << 17) + 99 * 64 + 8) < 0,
            () -> "non-blocking strided put not waited for, then a barrier: the target does not see it");
        put.await();
        puts.await();
        final RmaHandle get = rma.handle();
        final MemorySegment back = local(1, 1 << 17);
        rma.nbGet(a, next, 0, back, get);
        final RmaHandle gets = rma.aggregateHandle();
        final MemorySegment[] strided = new MemorySegment[2];
        int p = 0;
        for (final StridedProtocol protocol : List.of(StridedProtocol.DIRECT, StridedProtocol.PACK))
        {
            rma.protocols().force(protocol, ContiguousProtocol.AUTO);
            strided[p] = local(p + 1, 8 * 100);
            rma.nbGetStrided(a, next, 1 << 17, new long[] {64}, strided[p], new long[] {8}, new long[] {8, 100}, 1, gets);
            p++;
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
        rma.free(a);
        get.await();
        gets.await();
        check(MemorySegment.mismatch(big, 0, 1 << 17, back, 0, 1 << 17) < 0, () -> "get completed by a free differs");
        for (int k = 0; k < 2; k++)
        {
            for (int i = 0; i < 100; i++)
            {
                final int piece = i;
                final int kk = k;
                check(MemorySegment.mismatch(row, 0, 8, strided[k], 8L * i, 8L * i + 8) < 0,
                    () -> "strided get " + kk + " completed by a free: piece " + piece + " differs");
            }
        }
    }

    // ---------------------------------------------------------------- ordering without fences

    /**
     * Put then get of the same bytes without a fence, contiguous small and larger than a request buffer, strided and
     * vector, blocking and non-blocking put: the get sees the put. Then fence and barrier ordering of puts from every
     * rank.
     */
    private void ordering()
    {
        final RmaAllocation a = rma.alloc(1 << 20);
        final int next = (rma.rank() + 1) % rma.size();
        final long region = (1 << 20) / rma.size();
        final long at = rma.rank() * region;
        final long[] sizes = {8, 4096, 70_000, region};
        for (int round = 0; round < 8; round++)
        {
            for (final long size : sizes)
            {
                final MemorySegment data = local(round, size);
                fill(data, round * 31L + size + rma.rank());
                final MemorySegment back = local(round + 1, size);
                if (0 == round % 4)
                {
                    // A read-only view is a fine source.
                    rma.put(data.asReadOnly(), a, next, at);
                }
                else if (0 == round % 2)
                {
                    rma.put(data, a, next, at);
                }
                else
                {
                    final RmaHandle h = rma.handle();
                    rma.nbPut(data, a, next, at, h);
                    h.await();
                }
                rma.get(a, next, at, back);
                final int r = round;
                check(data.mismatch(back) < 0, () -> "round " + r + ": get of " + size +
                    " bytes after a put, no fence, saw other data");
            }
            // Strided put, vector get of the same pieces.
            final MemorySegment rows = local(round, 64 * 16);
            fill(rows, round);
            rma.putStrided(rows, new long[] {16}, a, next, at, new long[] {40}, new long[] {16, 64}, 1);
            final long[] local = new long[64];
            final long[] remote = new long[64];
            for (int i = 0; i < 64; i++)
            {
                local[i] = 16L * i;
                remote[i] = at + 40L * i;
            }
            final MemorySegment rowsBack = local(round + 2, 64 * 16);
            rma.getVector(new IoVector[] {new IoVector(rowsBack, local, remote, 16)}, a, next);
            final int r = round;
            check(rows.mismatch(rowsBack) < 0, () -> "round " + r + ": vector get after strided put differs");
        }
        // Read-only sources for strided put and accumulate.
        final MemorySegment twos = local(1, 4096);
        for (int i = 0; i < 512; i++)
        {
            twos.setAtIndex(ValueLayout.JAVA_LONG, i, 2);
        }
        rma.put(local(1, 4096), a, next, at);
        rma.accStrided(AccumulateScale.ofLong(1), twos.asReadOnly(), new long[] {64}, a, next, at, new long[] {64},
            new long[] {64, 64}, 1);
        rma.acc(AccumulateScale.ofLong(1), twos.asReadOnly(), a, next, at);
        rma.putStrided(twos.asReadOnly(), new long[] {0}, a, next, at + 4096, new long[] {8}, new long[] {8, 16}, 1);
        final MemorySegment sums = local(2, 4096 + 128);
        rma.get(a, next, at, sums);
        for (int i = 0; i < 512 + 16; i++)
        {
            final long got = sums.getAtIndex(ValueLayout.JAVA_LONG, i);
            final int e = i;
            check(i < 512 ? 4 == got : 2 == got, () -> "read-only sources: long " + e + " is " + got);
        }
        // Puts from every rank (to an allocation nobody else writes), fenced, then a barrier: every rank sees them.
        rma.free(a);
        final RmaAllocation w = rma.alloc(8L * rma.size());
        final MemorySegment word = local(1, 8);
        for (int t = 0; t < rma.size(); t++)
        {
            word.set(ValueLayout.JAVA_LONG, 0, 7L * rma.rank() + 1);
            rma.nbPut(word, w, t, 8L * rma.rank(), null);
        }
        for (int t = 0; t < rma.size(); t++)
        {
            rma.fence(t);
        }
        job.barrier();
        for (int o = 0; o < rma.size(); o++)
        {
            final long got = w.local().get(ValueLayout.JAVA_LONG, 8L * o);
            final int origin = o;
            check(7L * o + 1 == got, () -> "fenced put from rank " + origin + " not seen after a barrier: " + got);
        }
        rma.allFence();
        rma.barrier();
        rma.free(w);
    }

    // ---------------------------------------------------------------- close with operations not waited for

    /**
     * Last: non-blocking puts, accumulates and gets (direct and packed) on handles never waited for, an allocation
     * never freed, then the job closes: every rank closes cleanly (the puts done at their targets first).
     */
    private void closeWithPendingOperations()
    {
        final RmaAllocation a = rma.alloc(1 << 18);
        final int next = (rma.rank() + 1) % rma.size();
        final MemorySegment data = local(1, 1 << 17);
        fill(data, 3);
        rma.nbPut(data, a, next, 0, rma.handle());
        rma.nbAcc(AccumulateScale.ofLong(1), data.asSlice(0, 4096), a, next, 1 << 17, rma.aggregateHandle());
        rma.nbGet(a, next, 0, local(1, 1 << 17), rma.handle());
        for (final StridedProtocol protocol : List.of(StridedProtocol.DIRECT, StridedProtocol.PACK))
        {
            rma.protocols().force(protocol, ContiguousProtocol.AUTO);
            rma.nbGetStrided(a, next, 0, new long[] {64}, local(2, 64 * 100), new long[] {64}, new long[] {8, 100}, 1,
                rma.handle());
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
    }

    // ---------------------------------------------------------------- fence, then a flag to a third rank

    /**
     * The writer puts data (contiguous, strided, vector, accumulate) to the holder, fences the holder, then raises a
     * flag in the reader's slice; the reader, seeing the flag (it only watches its own memory), gets the data from
     * the holder and must see all of it. Rotated so that every rank writes, holds and reads.
     */
    private void fenceThenFlag()
    {
        final int rounds = 6;
        final RmaAllocation data = rma.alloc(8192);
        final RmaAllocation flags = rma.alloc(8L * rounds * rma.size());
        final java.lang.invoke.VarHandle flag = ValueLayout.JAVA_LONG.varHandle();
        for (int round = 0; round < rounds; round++)
        {
            final int writer = round % rma.size();
            final int holder = (writer + 1) % rma.size();
            final int reader = (writer + rma.size() - 1) % rma.size();
            final long value = 1000L * round + 1;
            final long flagAt = 8L * (round * rma.size() + writer);
            if (rma.rank() == writer)
            {
                final MemorySegment block = local(round, 4096);
                for (int i = 0; i < 512; i++)
                {
                    block.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, value + i);
                }
                rma.nbPut(block.asSlice(0, 1024), data, holder, 0, null);
                rma.putStrided(block.asSlice(1024), new long[] {16}, data, holder, 1024, new long[] {32},
                    new long[] {16, 64}, 1);
                rma.putVector(new IoVector[] {new IoVector(block, new long[] {3072, 3080}, new long[] {5000, 5008}, 8)},
                    data, holder);
                rma.acc(AccumulateScale.ofLong(1), block.asSlice(0, 8), data, holder, 6000);
                rma.fence(holder);
                rma.values().putLong(value, flags, reader, flagAt);
            }
            if (rma.rank() == reader)
            {
                final long deadline = System.nanoTime() + 60_000_000_000L;
                while (value != (long)flag.getAcquire(flags.local(), flagAt))
                {
                    final int r = round;
                    check(System.nanoTime() < deadline, () -> "round " + r + ": the flag never came");
                    Thread.onSpinWait();
                }
                final MemorySegment back = local(round + 1, 8192);
                rma.get(data, holder, 0, back);
                final int r = round;
                for (int i = 0; i < 128; i++)
                {
                    final long got = back.getAtIndex(ValueLayout.JAVA_LONG, i);
                    final long want = value + i;
                    check(want == got, () -> "round " + r + ": after fence and flag, contiguous long " + got + ", want " + want);
                }
                for (int row = 0; row < 64; row++)
                {
                    check(MemorySegment.mismatch(back, 1024 + 32L * row, 1024 + 32L * row + 16,
                        expectedBlock(value), 1024 + 16L * row, 1024 + 16L * row + 16) < 0,
                        () -> "round " + r + ": after fence and flag, a strided row is missing");
                }
                final long v0 = back.get(ValueLayout.JAVA_LONG, 5000);
                final long v1 = back.get(ValueLayout.JAVA_LONG, 5008);
                final long acc = back.get(ValueLayout.JAVA_LONG, 6000);
                final long accumulated = r == 0 ? value : 0;
                check(value + 384 == v0 && value + 385 == v1, () -> "round " + r + ": vector pieces " + v0 + ", " + v1);
                check(acc >= value, () -> "round " + r + ": accumulate not seen: " + acc + " (" + accumulated + ")");
            }
            rma.barrier();
        }
        rma.free(flags);
        rma.free(data);
    }

    private static MemorySegment expectedBlock(final long value)
    {
        final MemorySegment block = MemorySegment.ofArray(new long[512]);
        for (int i = 0; i < 512; i++)
        {
            block.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, value + i);
        }
        return block;
    }

    // ---------------------------------------------------------------- between slices (GA copying arrays)

    /**
     * Local buffers that are themselves slices of allocations (what Global Arrays does: ARMCI_Put(ptr[me], ptr[p])):
     * puts from this rank's slice, gets into it and accumulates from it, contiguous small and larger than a request
     * buffer, strided and vector; the data lands where it should on both sides.
     */
    private void crossSlice()
    {
        final long half = 1 << 18;
        final RmaAllocation a = rma.alloc(2 * half);
        final RmaAllocation b = rma.alloc(2 * half);
        final int next = (rma.rank() + 1) % rma.size();
        final int previous = (rma.rank() + rma.size() - 1) % rma.size();
        final MemorySegment mine = a.local();
        fill(mine.asSlice(0, half), 500 + rma.rank());
        rma.barrier();
        for (final long bytes : new long[] {8, 4000, 100_000, half})
        {
            // From my slice of a into next's slice of b (second half), and back from next's into my first half of b.
            rma.put(mine.asSlice(0, bytes), b, next, half);
            rma.get(b, next, half, b.local().asSlice(0, bytes));
            check(MemorySegment.mismatch(mine, 0, bytes, b.local(), 0, bytes) < 0,
                () -> bytes + " bytes from this rank's slice to the next's and back into this rank's slice differ");
            rma.barrier();
            check(MemorySegment.mismatch(b.local(), half, half + bytes, expectedOf(previous, bytes), 0, bytes) < 0,
                () -> bytes + " bytes put from rank " + previous + "'s slice did not land");
            rma.barrier();
        }
        // Strided: every other 64-byte row of my slice to rows of next's second half of b (the previous rank writes
        // mine), got back into rows of my first half.
        rma.putStrided(mine, new long[] {128}, b, next, half, new long[] {64}, new long[] {64, 512}, 1);
        rma.getStrided(b, next, half, new long[] {64}, b.local(), new long[] {128}, new long[] {64, 512}, 1);
        for (int r = 0; r < 512; r++)
        {
            final int row = r;
            check(MemorySegment.mismatch(mine, 128L * r, 128L * r + 64, b.local(), 128L * r, 128L * r + 64) < 0,
                () -> "strided row " + row + " between slices differs");
        }
        rma.barrier();
        // Accumulate from my slice: longs of value 1 at the start of a's second half, onto next's b.
        rma.barrier();
        final MemorySegment ones = mine.asSlice(half, 8 * 1024);
        for (int i = 0; i < 1024; i++)
        {
            ones.setAtIndex(ValueLayout.JAVA_LONG, i, 1);
        }
        b.local().fill((byte)0);
        rma.barrier();
        for (int t = 0; t < rma.size(); t++)
        {
            rma.acc(AccumulateScale.ofLong(3), ones, b, t, half);
        }
        final long[] local = new long[1024];
        final long[] remote = new long[1024];
        for (int i = 0; i < 1024; i++)
        {
            local[i] = 8L * i;
            remote[i] = half + 8L * i;
        }
        for (int t = 0; t < rma.size(); t++)
        {
            rma.accVector(AccumulateScale.ofLong(1), new IoVector[] {new IoVector(ones, local, remote, 8)}, b, t);
        }
        rma.barrier();
        for (int i = 0; i < 1024; i++)
        {
            final long got = b.local().get(ValueLayout.JAVA_LONG, half + 8L * i);
            final int e = i;
            check(4L * rma.size() == got, () -> "accumulate from slices: element " + e + " is " + got);
        }
        rma.free(b);
        rma.free(a);
    }

    private MemorySegment expectedOf(final int rank, final long bytes)
    {
        final MemorySegment expected = local(1, half());
        fill(expected, 500 + rank);
        return expected.asSlice(0, bytes);
    }

    private static long half()
    {
        return 1 << 18;
    }

    // ---------------------------------------------------------------- bad input

    /**
     * Out-of-slice offsets and lengths (negative, overflowing, one byte past the end), a vector whose last piece is
     * out of range, null arguments, read-only destinations, accumulate lengths and strides not whole elements, and
     * every operation on a freed allocation: each refused with an exception naming the argument, and nothing written.
     */
    private void badInput()
    {
        final RmaAllocation a = rma.alloc(4096);
        final int last = rma.size() - 1;
        final MemorySegment eight = local(1, 8);
        final MemorySegment big = local(1, 8192);
        fill(eight, 1);
        fill(big, 2);
        final AccumulateScale one = AccumulateScale.ofLong(1);
        for (int t = 0; t < rma.size(); t++)
        {
            final int target = t;
            final String outside = "outside rank " + target + "'s slice";
            expect(IllegalArgumentException.class, "put target [-1, -1 + 8) is " + outside, () -> rma.put(eight, a, target, -1));
            expect(IllegalArgumentException.class, "put target [4089, 4089 + 8) is " + outside,
                () -> rma.put(eight, a, target, 4089));
            expect(IllegalArgumentException.class, outside, () -> rma.put(eight, a, target, Long.MAX_VALUE - 2));
            expect(IllegalArgumentException.class, "put target [0, 0 + 8192)", () -> rma.put(big, a, target, 0));
            expect(IllegalArgumentException.class, "get source [4095, 4095 + 8)", () -> rma.get(a, target, 4095, eight));
            expect(IllegalArgumentException.class, "accumulate target", () -> rma.acc(one, eight, a, target, 4092));
            expect(IllegalArgumentException.class, "count[0] = 6 bytes is not a multiple of the 4-byte INT element",
                () -> rma.accStrided(AccumulateScale.ofInt(1), big, new long[] {8}, a, target, 0, new long[] {8},
                    new long[] {6, 4}, 1));
            expect(IllegalArgumentException.class, "count[0] = 12 bytes is not a multiple of the 8-byte LONG element",
                () -> rma.acc(one, big.asSlice(0, 12), a, target, 0));
            expect(IllegalArgumentException.class, "stride[0] (source 12, target 16) is not a multiple of the 8-byte",
                () -> rma.accStrided(one, big, new long[] {12}, a, target, 0, new long[] {16}, new long[] {8, 4}, 1));
            expect(IllegalArgumentException.class, "accumulate target offset 4 is not aligned to 8 bytes",
                () -> rma.acc(AccumulateScale.ofDouble(1), eight, a, target, 4));
            expect(IllegalArgumentException.class, "strided put target",
                () -> rma.putStrided(big, new long[] {16}, a, target, 0, new long[] {1024}, new long[] {8, 5}, 1));
            expect(IllegalArgumentException.class, "reaches beyond 2^63 - 1 bytes",
                () -> rma.putStrided(big, new long[] {8, 16}, a, target, 0, new long[] {Long.MAX_VALUE / 2,
                    Long.MAX_VALUE - 1}, new long[] {8, 2, 2}, 2));
            expect(IllegalArgumentException.class, "vector put target piece 2",
                () -> rma.putVector(new IoVector[] {new IoVector(big, new long[] {0, 8, 16}, new long[] {0, 8, 4090}, 8)},
                    a, target));
            expect(IllegalArgumentException.class, "vector accumulate target piece 1",
                () -> rma.accVector(one, new IoVector[] {new IoVector(big, new long[] {0}, new long[] {0}, 8),
                    new IoVector(big, new long[] {0, 8}, new long[] {8, -8}, 8)}, a, target));
            expect(IllegalArgumentException.class, "vector accumulate target offset 12 is not aligned",
                () -> rma.accVector(one, new IoVector[] {new IoVector(big, new long[] {0}, new long[] {12}, 8)}, a, target));
            expect(IllegalArgumentException.class, "source", () -> rma.put(null, a, target, 0));
            expect(IllegalArgumentException.class, "destination", () -> rma.get(a, target, 0, null));
            expect(IllegalArgumentException.class, "allocation", () -> rma.put(eight, null, target, 0));
            expect(IllegalArgumentException.class, "scale", () -> rma.acc(null, eight, a, target, 0));
            expect(IllegalArgumentException.class, "vector", () -> rma.putVector(null, a, target));
            expect(IllegalArgumentException.class, "vector", () -> rma.getVector(new IoVector[] {null}, a, target));
            expect(IllegalArgumentException.class, "count", () -> rma.putStrided(big, new long[] {8}, a, target, 0,
                new long[] {8}, null, 1));
            expect(IllegalArgumentException.class, "read-only",
                () -> rma.get(a, target, 0, local(1, 8).asReadOnly()));
            expect(IllegalArgumentException.class, "read-only",
                () -> rma.getStrided(a, target, 0, new long[] {16}, local(1, 64).asReadOnly(), new long[] {16},
                    new long[] {8, 2}, 1));
            expect(IllegalArgumentException.class, "read-only",
                () -> rma.getVector(new IoVector[] {new IoVector(local(1, 64).asReadOnly(), new long[] {0},
                    new long[] {0}, 8)}, a, target));
            expect(IllegalArgumentException.class, "not a rank of this job", () -> rma.put(eight, a, -1, 0));
            expect(IllegalArgumentException.class, "not a rank of this job", () -> rma.fence(rma.size()));
        }
        rma.barrier();
        check(allZero(a.local()), () -> "a refused call wrote to rank " + rma.rank() + "'s slice");
        rma.barrier();
        rma.free(a);
        final RmaHandle h = rma.handle();
        final String freed = "allocation " + a.id() + " was freed";
        expect(IllegalStateException.class, freed, () -> rma.put(eight, a, last, 0));
        expect(IllegalStateException.class, freed, () -> rma.nbPut(eight, a, last, 0, h));
        expect(IllegalStateException.class, freed, () -> rma.nbGet(a, last, 0, eight, null));
        expect(IllegalStateException.class, freed, () -> rma.acc(one, eight, a, last, 0));
        expect(IllegalStateException.class, freed, () -> rma.putStrided(eight, new long[] {8}, a, last, 0, new long[] {8},
            new long[] {8, 1}, 1));
        expect(IllegalStateException.class, freed,
            () -> rma.getVector(new IoVector[] {new IoVector(eight, new long[] {0}, new long[] {0}, 8)}, a, last));
        expect(IllegalStateException.class, freed, () -> rma.atomics().fetchAndAdd(a, last, 0, 1));
        expect(IllegalStateException.class, freed, () -> rma.atomics().swapLong(a, last, 0, 1));
        expect(IllegalStateException.class, freed, () -> rma.values().getLong(a, last, 0));
        expect(IllegalStateException.class, freed, () -> rma.values().putInt(1, a, last, 0));
        expect(IllegalStateException.class, freed, () -> a.local());
        expect(IllegalStateException.class, freed, () -> rma.free(a));
        check(h.test(), () -> "a handle given to a refused call is busy");
        // A null array in a reduction fails every rank, naming the rank, and leaves them in step.
        if (0 == rma.rank())
        {
            expect(IllegalArgumentException.class, "this rank gave null values", () -> rma.messages().sum((long[])null));
        }
        else
        {
            expect(RmaException.class, "rank 0 gave null values", () -> rma.messages().sum(new long[] {1}));
        }
        check(rma.size() == rma.messages().sum(new int[] {1})[0], () -> "a reduction after a refused one");
        // Still usable afterwards.
        final RmaAllocation b = rma.alloc(64);
        rma.values().putLong(5, b, last, 8L * rma.rank());
        rma.barrier();
        check(5 == rma.values().getLong(b, last, 0), () -> "allocation after refusals");
        rma.free(b);
    }
}
