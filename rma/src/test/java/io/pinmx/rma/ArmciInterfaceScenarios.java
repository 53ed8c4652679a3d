package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * One rank of a job checking the parts of ARMCI's interface that Global Arrays-style codes call beyond
 * {@link ArmciSuiteScenarios}: {@code ArmciInterfaceScenarios SCENARIO[,SCENARIO...]}, scenarios {@code nbvalues}
 * (non-blocking value puts on explicit, implicit and aggregate handles), {@code reductions} (every operation of
 * ARMCI's message helpers on every type, over arrays and segments, and their refusals), {@code anywhere} (vector
 * groups whose local pieces lie in different segments, direct and packed), {@code groups} ({@link GroupScenarios}),
 * {@code epochs} (local load-modify-store of doubles in access epochs while every other rank accumulates onto them),
 * {@code exclusion} ({@link EpochExclusionScenario}: no remote operation interleaves with an epoch), {@code epochgets}
 * ({@link EpochGetsScenario}: gets finish while the target opens epochs back to back), {@code samenode}
 * ({@link SameNodeScenario}),
 * {@code lockmem} (address-range locks around get-increment-put counters, and their refusals), {@code manygets}
 * ({@link ManyGetsScenario}), {@code localmem} ({@link LocalMemoryScenario}), {@code putflag}
 * ({@link PutFlagScenario}), {@code defaultgroup} ({@link DefaultGroupScenario}), {@code scopes}
 * ({@link ScopeScenario}), {@code twosided} ({@link TwoSidedScenario}) and {@code notify} ({@link NotifyScenario}). Each throws on the first wrong result; rank
 * 0 prints "PASSED SCENARIO" and "# SCENARIO: N ms" after each.
 */
public final class ArmciInterfaceScenarios
{
    private static final long SLOT_BYTES = 64;

    private final Rma rma;
    private final Arena confined = Arena.ofConfined();
    private final Arena shared = Arena.ofShared();

    private ArmciInterfaceScenarios(final Rma rma)
    {
        this.rma = rma;
    }

    public static void main(final String[] args)
    {
        final long joining = System.nanoTime();
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job))
        {
            try
            {
                runScenarios(rma, args[0], joining);
            }
            catch (final RuntimeException | AssertionError ex)
            {
                // Rma.close is collective: a rank that failed would wait there for ranks that wait for it.
                ex.printStackTrace();
                System.exit(1);
            }
        }
    }

    private static void runScenarios(final Rma rma, final String scenarios, final long joining)
    {
        final ArmciInterfaceScenarios s = new ArmciInterfaceScenarios(rma);
        RmaScenarios.printStart(rma, joining);
        for (final String scenario : scenarios.split(","))
        {
            final long started = System.nanoTime();
            switch (scenario)
            {
                case "nbvalues" -> s.nbValues();
                case "reductions" -> s.reductions();
                case "anywhere" -> s.piecesAnywhere();
                case "groups" -> new GroupScenarios(rma).run();
                case "epochs" -> s.accessEpochs();
                case "exclusion" -> new EpochExclusionScenario(rma).run();
                case "epochgets" -> new EpochGetsScenario(rma).run();
                case "samenode" -> new SameNodeScenario(rma).run();
                case "lockmem" -> s.addressRangeLocks();
                case "manygets" -> new ManyGetsScenario(rma).run();
                case "localmem" -> new LocalMemoryScenario(rma).run();
                case "putflag" -> new PutFlagScenario(rma).run();
                case "defaultgroup" -> new DefaultGroupScenario(rma).run();
                case "scopes" -> new ScopeScenario(rma).run();
                case "twosided" -> new TwoSidedScenario(rma).run();
                case "noepochs" -> new NoEpochsScenario(rma).run();
                case "notify" -> new NotifyScenario(rma).run();
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

    // ---------------------------------------------------------------- non-blocking value puts

    /**
     * Every rank puts an int, a long, a float and a double into its own slot of every rank's slice three times: on an
     * explicit handle reused without a wait in between, without a handle (then waitAll), and on one aggregate handle
     * (many values, each copied at the call, so later calls do not change earlier ones). Refused calls write nothing.
     */
    private void nbValues()
    {
        final int n = rma.size();
        final RmaAllocation a = rma.alloc(n * 3 * SLOT_BYTES);
        final RmaHandle explicit = rma.handle();
        final RmaHandle aggregate = rma.aggregateHandle();
        for (int t = 0; t < n; t++)
        {
            for (int form = 0; form < 3; form++)
            {
                final RmaHandle h = switch (form)
                {
                    case 0 -> explicit;
                    case 1 -> null;
                    default -> aggregate;
                };
                final long at = (rma.rank() * 3L + form) * SLOT_BYTES;
                rma.values().nbPutInt(value(rma.rank(), form, t), a, t, at, h);
                rma.values().nbPutLong(value(rma.rank(), form, t) * 1_000_000_007L, a, t, at + 8, h);
                rma.values().nbPutFloat(value(rma.rank(), form, t) + 0.5f, a, t, at + 16, h);
                rma.values().nbPutDouble(value(rma.rank(), form, t) - 0.25, a, t, at + 24, h);
            }
        }
        explicit.await();
        rma.waitAll();
        aggregate.await();
        check(explicit.test() && aggregate.test(), () -> "handles not free after their waits");
        rma.barrier();
        final MemorySegment mine = a.local();
        for (int origin = 0; origin < n; origin++)
        {
            for (int form = 0; form < 3; form++)
            {
                final long at = (origin * 3L + form) * SLOT_BYTES;
                final int v = value(origin, form, rma.rank());
                final int o = origin;
                final int f = form;
                check(v == mine.get(ValueLayout.JAVA_INT, at) &&
                    v * 1_000_000_007L == mine.get(ValueLayout.JAVA_LONG, at + 8) &&
                    v + 0.5f == mine.get(ValueLayout.JAVA_FLOAT, at + 16) &&
                    v - 0.25 == mine.get(ValueLayout.JAVA_DOUBLE, at + 24),
                    () -> "value puts from rank " + o + " in form " + f + ": " + mine.get(ValueLayout.JAVA_INT, at) + ", " +
                        mine.get(ValueLayout.JAVA_LONG, at + 8) + ", " + mine.get(ValueLayout.JAVA_FLOAT, at + 16) +
                        ", " + mine.get(ValueLayout.JAVA_DOUBLE, at + 24));
            }
        }
        // A remote rank's values read back through the tier match too.
        final int next = (rma.rank() + 1) % n;
        check(value(rma.rank(), 2, next) - 0.25 == rma.values().getDouble(a, next, (rma.rank() * 3L + 2) * SLOT_BYTES + 24),
            () -> "double read back from rank " + next);
        rma.barrier();
        final long end = n * 3 * SLOT_BYTES;
        expect(IllegalArgumentException.class, "rank " + n, () -> rma.values().nbPutInt(1, a, n, 0, explicit));
        expect(IllegalArgumentException.class, "rank -1", () -> rma.values().nbPutLong(1, a, -1, 0, aggregate));
        expect(IllegalArgumentException.class, "outside rank " + next, () -> rma.values().nbPutDouble(1, a, next, end - 4, null));
        expect(IllegalArgumentException.class, "outside rank " + next, () -> rma.values().nbPutFloat(1, a, next, -4, explicit));
        check(explicit.test() && aggregate.test(), () -> "a handle given to a refused call is busy");
        rma.waitAll();
        rma.barrier();
        check(0 == mine.get(ValueLayout.JAVA_LONG, end - 8), () -> "a refused value put wrote the slice's end");
        rma.free(a);
        expect(IllegalStateException.class, "freed", () -> rma.values().nbPutInt(1, a, next, 0, explicit));
    }

    private static int value(final int origin, final int form, final int target)
    {
        return 1 + origin * 100 + form * 10 + target;
    }

    // ---------------------------------------------------------------- reductions

    /**
     * Every operation on ints, longs, floats and doubles from values every rank knows, checked against sums, products
     * and extremes computed here; the same over native and heap segments at odd offsets; then the refusals: an
     * operation a type has not (on every rank, and on one rank only), a mismatched length, partial elements, read-only
     * values, each leaving every rank's values as they were.
     */
    private void reductions()
    {
        final int n = rma.size();
        final int me = rma.rank();
        final int[] ints = {(me + 1) * (me % 2 == 0 ? 1 : -1), me + 2, 1 << me, ~(1 << me), me % 2, me + 5,
            Integer.MAX_VALUE};
        for (final ReduceOp op : ReduceOp.values())
        {
            final int[] got = ints.clone();
            rma.messages().reduce(op, got);
            for (int i = 0; i < ints.length; i++)
            {
                final long want = expected(op, i, n, Integer.SIZE);
                final int at = i;
                check((int)want == got[i], () -> op + " of ints at " + at + ": " + got[at] + ", want " + (int)want);
            }
            final long[] longs = Arrays.stream(ints).asLongStream().toArray();
            longs[6] = Long.MAX_VALUE;
            rma.messages().reduce(op, longs);
            for (int i = 0; i < longs.length; i++)
            {
                final long want = expected(op, i, n, Long.SIZE);
                final int at = i;
                check(want == longs[i], () -> op + " of longs at " + at + ": " + longs[at] + ", want " + want);
            }
        }
        for (final ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.PROD, ReduceOp.MIN, ReduceOp.MAX,
            ReduceOp.ABSMIN, ReduceOp.ABSMAX})
        {
            final double[] doubles = {(me + 1) * (me % 2 == 0 ? 1.5 : -1.5), me + 0.25};
            final float[] floats = {(float)doubles[0], (float)doubles[1]};
            rma.messages().reduce(op, doubles);
            rma.messages().reduce(op, floats);
            for (int i = 0; i < doubles.length; i++)
            {
                final double want = expectedDouble(op, i, n);
                final int at = i;
                check(want == doubles[at] && (float)want == floats[at],
                    () -> op + " of doubles/floats at " + at + ": " + doubles[at] + "/" + floats[at] + ", want " + want);
            }
        }
        // Over segments: native at an odd offset, and heap.
        final MemorySegment nativeLongs = shared.allocate(8 * 3 + 1).asSlice(1);
        final MemorySegment heapDoubles = MemorySegment.ofArray(new double[3]);
        for (int i = 0; i < 3; i++)
        {
            nativeLongs.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, (me + 1L) << (20 * i));
            heapDoubles.set(ValueLayout.JAVA_DOUBLE, 8L * i, me * (i + 1.0));
        }
        rma.messages().reduce(ReduceOp.OR, ElementType.LONG, nativeLongs);
        rma.messages().reduce(ReduceOp.MAX, ElementType.DOUBLE, heapDoubles);
        long or = 0;
        for (int r = 0; r < n; r++)
        {
            or |= r + 1L;
        }
        for (int i = 0; i < 3; i++)
        {
            final long want = or << (20 * i);
            final int at = i;
            check(want == nativeLongs.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i) &&
                (n - 1) * (i + 1.0) == heapDoubles.get(ValueLayout.JAVA_DOUBLE, 8L * i),
                () -> "segment reductions at " + at + ": " + nativeLongs.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * at) +
                    ", " + heapDoubles.get(ValueLayout.JAVA_DOUBLE, 8L * at));
        }
        reductionRefusals();
    }

    private void reductionRefusals()
    {
        final int n = rma.size();
        final int last = n - 1;
        final double[] kept = {1.5, -2.5};
        expect(IllegalArgumentException.class, "an operation its element type has not",
            () -> rma.messages().reduce(ReduceOp.OR, kept.clone()));
        final double[] mine = kept.clone();
        if (last == rma.rank())
        {
            expect(IllegalArgumentException.class, "an operation its element type has not",
                () -> rma.messages().reduce(ReduceOp.LOGICAL_AND, ElementType.FLOAT, MemorySegment.ofArray(new float[2])));
        }
        else
        {
            expect(RmaException.class, "rank " + last + " gave an operation", () -> rma.messages().reduce(ReduceOp.SUM, mine));
        }
        final long[] longs = 0 == rma.rank() ? new long[] {7, 7, 7} : new long[] {7, 7};
        expect(RmaException.class, "collective mismatch", () -> rma.messages().reduce(ReduceOp.SUM, longs));
        if (0 == rma.rank())
        {
            expect(IllegalArgumentException.class, "not whole elements",
                () -> rma.messages().reduce(ReduceOp.SUM, ElementType.INT, shared.allocate(7)));
        }
        else
        {
            expect(RmaException.class, "rank 0 gave bytes that are not whole elements",
                () -> rma.messages().reduce(ReduceOp.SUM, mine));
        }
        if (last == rma.rank())
        {
            expect(IllegalArgumentException.class, "read-only",
                () -> rma.messages().reduce(ReduceOp.MAX, ElementType.DOUBLE, MemorySegment.ofArray(mine).asReadOnly()));
        }
        else
        {
            expect(RmaException.class, "rank " + last + " gave read-only values", () -> rma.messages().reduce(ReduceOp.MAX, mine));
        }
        expect(IllegalArgumentException.class, "gave no operation", () -> rma.messages().reduce(null, mine));
        check(Arrays.equals(kept, mine) && Arrays.stream(longs).allMatch(v -> 7 == v),
            () -> "refused reductions changed the values: " + Arrays.toString(mine) + " " + Arrays.toString(longs));
        rma.messages().reduce(ReduceOp.PROD, mine);
        check(Math.pow(1.5, n) == mine[0], () -> "a reduction after refused ones: " + mine[0]);
    }

    /** Rank r's element i of the int and long arrays of {@link #reductions()}. */
    private static long input(final int r, final int i, final int bits)
    {
        return switch (i)
        {
            case 0 -> (r + 1L) * (r % 2 == 0 ? 1 : -1);
            case 1 -> r + 2L;
            case 2 -> 1L << r;
            case 3 -> 32 == bits ? ~(1 << r) : ~(1L << r);
            case 4 -> r % 2;
            case 5 -> r + 5L;
            default -> 32 == bits ? Integer.MAX_VALUE : Long.MAX_VALUE;
        };
    }

    /** The reduction of element i over n ranks, computed with plain loops (wrapping to {@code bits}). */
    private static long expected(final ReduceOp op, final int i, final int n, final int bits)
    {
        long acc = switch (op)
        {
            case SUM, OR, LOGICAL_OR -> 0;
            case PROD, LOGICAL_AND -> 1;
            case AND -> -1;
            case MIN, ABSMIN -> Long.MAX_VALUE;
            case MAX, ABSMAX -> Long.MIN_VALUE;
        };
        for (int r = 0; r < n; r++)
        {
            final long x = input(r, i, bits);
            acc = switch (op)
            {
                case SUM -> acc + x;
                case PROD -> acc * x;
                case MIN -> x < acc ? x : acc;
                case MAX -> x > acc ? x : acc;
                case ABSMIN -> Math.abs(x) < acc ? Math.abs(x) : acc;
                case ABSMAX -> Math.abs(x) > acc ? Math.abs(x) : acc;
                case OR -> acc | x;
                case AND -> acc & x;
                case LOGICAL_OR -> 0 != x ? 1 : acc;
                case LOGICAL_AND -> 0 == x ? 0 : acc;
            };
        }
        return 32 == bits ? (int)acc : acc;
    }

    private static double expectedDouble(final ReduceOp op, final int i, final int n)
    {
        double acc = switch (op)
        {
            case SUM -> 0;
            case PROD -> 1;
            case MIN, ABSMIN -> Double.MAX_VALUE;
            default -> -Double.MAX_VALUE;
        };
        for (int r = 0; r < n; r++)
        {
            final double x = 0 == i ? (r + 1) * (r % 2 == 0 ? 1.5 : -1.5) : r + 0.25;
            acc = switch (op)
            {
                case SUM -> acc + x;
                case PROD -> acc * x;
                case MIN -> x < acc ? x : acc;
                case MAX -> x > acc ? x : acc;
                case ABSMIN -> Math.abs(x) < acc ? Math.abs(x) : acc;
                default -> Math.abs(x) > acc ? Math.abs(x) : acc;
            };
        }
        return acc;
    }

    // ---------------------------------------------------------------- vectors whose local pieces are anywhere

    /**
     * Vector groups whose local pieces lie in a heap array, a shared arena, this thread's confined arena and a slice
     * of another allocation, interleaved in one group: put to the next rank, get back into pieces as scattered, and
     * long accumulate from every rank, with the strided protocol forced DIRECT and PACK in turn (the model's choice
     * too); byte-exact at both ends, nothing written between the pieces.
     */
    private void piecesAnywhere()
    {
        final int n = rma.size();
        final int me = rma.rank();
        final int next = (me + 1) % n;
        final int pieces = 24;
        final long bytes = 16;
        final RmaAllocation a = rma.alloc(4L * pieces * bytes * 2);
        final RmaAllocation other = rma.alloc(pieces * bytes * 2);
        final StridedProtocol[] protocols = {StridedProtocol.DIRECT, StridedProtocol.PACK, StridedProtocol.AUTO};
        for (int round = 0; round < protocols.length; round++)
        {
            rma.protocols().force(protocols[round], ContiguousProtocol.AUTO);
            final MemorySegment[] sources = scattered(pieces, bytes, other, round);
            final long[] remote = new long[pieces];
            for (int i = 0; i < pieces; i++)
            {
                remote[i] = (pieces - 1 - i) * 2 * bytes;
                fillPiece(sources[i], me, round, i);
            }
            rma.putVector(new IoVector[] {IoVector.ofPieces(sources, remote, bytes)}, a, next);
            rma.barrier();
            final int from = (me + n - 1) % n;
            for (int i = 0; i < pieces; i++)
            {
                final MemorySegment landed = a.local().asSlice(remote[i], 2 * bytes);
                final int at = i;
                final int r = round;
                check(pieceHolds(landed.asSlice(0, bytes), from, round, i) &&
                        0 == landed.get(ValueLayout.JAVA_LONG, bytes) && 0 == landed.get(ValueLayout.JAVA_LONG, bytes + 8),
                    () -> "piece " + at + " from rank " + from + " (" + protocols[r] + ") landed wrong");
            }
            final MemorySegment[] back = scattered(pieces, bytes, other, round + 1);
            rma.getVector(new IoVector[] {IoVector.ofPieces(back, remote, bytes)}, a, next);
            for (int i = 0; i < pieces; i++)
            {
                final int at = i;
                final int r = round;
                check(pieceHolds(back[i], me, round, i), () -> "piece " + at + " got back wrong (" + protocols[r] + ")");
            }
            // Every rank adds its pieces of longs (me + 1, i) to the same place on rank 0.
            final MemorySegment[] addends = scattered(pieces, bytes, other, round + 2);
            final long[] accRemote = new long[pieces];
            for (int i = 0; i < pieces; i++)
            {
                addends[i].set(ValueLayout.JAVA_LONG_UNALIGNED, 0, me + 1L);
                addends[i].set(ValueLayout.JAVA_LONG_UNALIGNED, 8, i);
                accRemote[i] = 2L * pieces * bytes + i * 2 * bytes;
            }
            rma.accVector(AccumulateScale.ofLong(round + 1), new IoVector[] {IoVector.ofPieces(addends, accRemote, bytes)},
                a, 0);
            rma.barrier();
            if (0 == me)
            {
                long sum = 0;
                for (int r = 0; r < n; r++)
                {
                    sum += r + 1;
                }
                long want0 = 0;
                for (int r = 0; r <= round; r++)
                {
                    want0 += (r + 1) * sum;
                }
                final long w0 = want0;
                for (int i = 0; i < pieces; i++)
                {
                    final MemorySegment s = a.local().asSlice(accRemote[i], 2 * bytes);
                    final long wantI = (round + 1) * (round + 2) / 2 * (long)n * i;
                    final int at = i;
                    check(w0 == s.get(ValueLayout.JAVA_LONG, 0) && wantI == s.get(ValueLayout.JAVA_LONG, 8) &&
                        0 == s.get(ValueLayout.JAVA_LONG, 16), () -> "accumulated piece " + at + ": " +
                        s.get(ValueLayout.JAVA_LONG, 0) + ", " + s.get(ValueLayout.JAVA_LONG, 8) + ", want " + w0 +
                        ", " + wantI);
                }
            }
            rma.barrier();
            a.local().asSlice(0, 2L * pieces * bytes).fill((byte)0);
            rma.barrier();
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
        final MemorySegment[] bad = scattered(2, bytes, other, 0);
        final MemorySegment[] readOnly = {bad[0], bad[1].asReadOnly()};
        expect(IllegalArgumentException.class, "local piece 1 is read-only",
            () -> rma.getVector(new IoVector[] {IoVector.ofPieces(readOnly, new long[] {0, 16}, bytes)}, a, next));
        expect(IllegalArgumentException.class, "local piece 1 has 8 bytes",
            () -> IoVector.ofPieces(new MemorySegment[] {bad[0], bad[1].asSlice(0, 8)}, new long[] {0, 16}, bytes));
        expect(IllegalArgumentException.class, "local piece 0 is null",
            () -> IoVector.ofPieces(new MemorySegment[] {null}, new long[] {0}, bytes));
        expect(IllegalArgumentException.class, "2 local and 1 remote",
            () -> IoVector.ofPieces(bad, new long[] {0}, bytes));
        rma.free(other);
        rma.free(a);
    }

    /** Piece i from a heap array, a shared arena, the confined arena or a slice of {@code other} in turn. */
    private MemorySegment[] scattered(final int pieces, final long bytes, final RmaAllocation other, final int shift)
    {
        final MemorySegment[] out = new MemorySegment[pieces];
        for (int i = 0; i < pieces; i++)
        {
            out[i] = switch ((i + shift) % 4)
            {
                case 0 -> MemorySegment.ofArray(new byte[(int)bytes + 3]).asSlice(3);
                case 1 -> shared.allocate(bytes);
                case 2 -> confined.allocate(bytes);
                default -> other.local().asSlice(i * 2 * bytes, bytes);
            };
            out[i].fill((byte)0);
        }
        return out;
    }

    private static void fillPiece(final MemorySegment piece, final int rank, final int round, final int i)
    {
        for (long b = 0; b < piece.byteSize(); b++)
        {
            piece.set(ValueLayout.JAVA_BYTE, b, (byte)(1 + rank * 31 + round * 7 + i * 3 + b));
        }
    }

    private static boolean pieceHolds(final MemorySegment piece, final int rank, final int round, final int i)
    {
        for (long b = 0; b < piece.byteSize(); b++)
        {
            if (piece.get(ValueLayout.JAVA_BYTE, b) != (byte)(1 + rank * 31 + round * 7 + i * 3 + b))
            {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- access epochs

    /**
     * Rank 0 adds 1 to a double of its own slice by load, a pause and store, each inside an access epoch, until every
     * other rank has accumulated 1 onto the same double a number of times and said so (an int fetch-and-add, held
     * back during an epoch like the accumulates): no update is lost. Then the refusals: a second epoch, an end on
     * another allocation or with none open, an accumulate, put or get on its own slice of the epoch's allocation and a
     * free inside the epoch; accumulates to its own slice of another allocation inside it are allowed.
     */
    private void accessEpochs()
    {
        final int rounds = 200;
        final long pauseNs = 5_000;
        final RmaAllocation a = rma.alloc(64);
        final RmaAllocation b = rma.alloc(64);
        long own = 0;
        if (0 == rma.rank())
        {
            final MemorySegment mine = a.local();
            final VarHandle done = ValueLayout.JAVA_INT.varHandle();
            while ((int)done.getAcquire(mine, 8L) < rma.size() - 1)
            {
                rma.epochs().accessBegin(a);
                final double seen = mine.get(ValueLayout.JAVA_DOUBLE, 0);
                final long until = System.nanoTime() + pauseNs;
                while (System.nanoTime() < until)
                {
                    Thread.onSpinWait();
                }
                mine.set(ValueLayout.JAVA_DOUBLE, 0, seen + 1);
                rma.epochs().accessEnd(a);
                own++;
            }
        }
        else
        {
            final MemorySegment one = MemorySegment.ofArray(new double[] {1});
            for (int i = 0; i < rounds; i++)
            {
                rma.acc(AccumulateScale.ofDouble(1), one, a, 0, 0);
            }
            rma.fence(0);
            rma.atomics().fetchAndAdd(a, 0, 8, 1);
        }
        final long ownUpdates = rma.messages().sum(new long[] {own})[0];
        rma.barrier();
        final double total = rma.values().getDouble(a, 0, 0);
        final double want = ownUpdates + (double)rounds * (rma.size() - 1);
        check(want == total, () -> "epoch updates and accumulates: " + total + ", want " + want);
        rma.barrier();
        final MemorySegment eight = MemorySegment.ofArray(new double[] {1});
        rma.epochs().accessBegin(a);
        expect(IllegalStateException.class, "is still open", () -> rma.epochs().accessBegin(b));
        expect(IllegalStateException.class, "the open epoch is on allocation " + a.id(), () -> rma.epochs().accessEnd(b));
        final double before = a.local().get(ValueLayout.JAVA_DOUBLE, 0);
        expect(IllegalStateException.class, "would wait for the epoch's end",
            () -> rma.acc(AccumulateScale.ofDouble(1), eight, a, rma.rank(), 0));
        expect(IllegalStateException.class, "would wait for the epoch's end", () -> rma.values().putDouble(7, a, rma.rank(), 0));
        expect(IllegalStateException.class, "would wait for the epoch's end", () -> rma.values().getDouble(a, rma.rank(), 0));
        expect(IllegalStateException.class, "inside its access epoch", () -> rma.free(a));
        rma.acc(AccumulateScale.ofDouble(1), eight, b, rma.rank(), 0);
        rma.acc(AccumulateScale.ofLong(3), MemorySegment.ofArray(new long[] {1}), b, rma.rank(), 8);
        rma.epochs().accessEnd(a);
        expect(IllegalStateException.class, "no epoch is open", () -> rma.epochs().accessEnd(a));
        check(3 == b.local().get(ValueLayout.JAVA_LONG, 8) && 1 == b.local().get(ValueLayout.JAVA_DOUBLE, 0) &&
            before == a.local().get(ValueLayout.JAVA_DOUBLE, 0), () -> "accumulates to itself around the refusals");
        rma.free(b);
        rma.free(a);
        expect(IllegalStateException.class, "was freed", () -> rma.epochs().accessBegin(a));
    }

    // ---------------------------------------------------------------- address-range locks

    /**
     * Every rank increments a counter in every rank's slice by get, pause and put under an address-range lock of it,
     * and a second counter in another range of the same slice: both exact. Then the refusals: a second range while
     * one is held, unlocking another range or none, a range outside the slice or the job; the lock works afterwards.
     */
    private void addressRangeLocks()
    {
        final int rounds = 20;
        final RmaAllocation a = rma.alloc(4096);
        for (int i = 0; i < rounds; i++)
        {
            for (int t = 0; t < rma.size(); t++)
            {
                for (final long at : new long[] {0, 2048})
                {
                    rma.locks().lockMemory(a, t, at, 8);
                    final long seen = rma.values().getLong(a, t, at);
                    Thread.onSpinWait();
                    rma.values().putLong(seen + 1, a, t, at);
                    rma.locks().unlockMemory(a, t, at, 8);
                }
            }
        }
        rma.barrier();
        final long want = (long)rounds * rma.size();
        check(want == a.local().get(ValueLayout.JAVA_LONG, 0) && want == a.local().get(ValueLayout.JAVA_LONG, 2048),
            () -> "counters under address-range locks: " + a.local().get(ValueLayout.JAVA_LONG, 0) + ", " +
                a.local().get(ValueLayout.JAVA_LONG, 2048) + ", want " + want);
        rma.barrier();
        final int next = (rma.rank() + 1) % rma.size();
        rma.locks().lockMemory(a, next, 64, 16);
        expect(IllegalStateException.class, "one at a time", () -> rma.locks().lockMemory(a, next, 1024, 8));
        expect(IllegalStateException.class, "this rank holds [64, +16)", () -> rma.locks().unlockMemory(a, next, 64, 8));
        rma.locks().unlockMemory(a, next, 64, 16);
        expect(IllegalStateException.class, "holds no range", () -> rma.locks().unlockMemory(a, next, 64, 16));
        expect(IllegalArgumentException.class, "outside rank " + next, () -> rma.locks().lockMemory(a, next, 4090, 8));
        expect(IllegalArgumentException.class, "rank " + rma.size(), () -> rma.locks().lockMemory(a, rma.size(), 0, 8));
        expect(IllegalArgumentException.class, "allocation is null", () -> rma.locks().lockMemory(null, next, 0, 8));
        rma.locks().lockMemory(a, next, 4088, 8);
        rma.values().putLong(rma.rank(), a, next, 4088);
        rma.locks().unlockMemory(a, next, 4088, 8);
        rma.barrier();
        final int prev = (rma.rank() + rma.size() - 1) % rma.size();
        check(prev == a.local().get(ValueLayout.JAVA_LONG, 4088), () -> "a lock after refusals");
        rma.free(a);
        expect(IllegalStateException.class, "was freed", () -> rma.locks().lockMemory(a, next, 0, 8));
    }
}
