package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * One rank of an rma test job, started by bin/pinmx-run: {@code RmaScenarios SCENARIO[,SCENARIO...] [quick]}. Each
 * scenario checks its own results and throws on the first wrong one (the launcher then fails the job); rank 0 prints
 * "PASSED SCENARIO" after each. The progress and fault scenarios are {@link ProgressScenarios}.
 */
public final class RmaScenarios
{
    private static final long SLICE_BYTES = 1 << 16;

    private static boolean quick;

    private final Job job;
    private final Rma rma;
    private final Arena arena = Arena.ofConfined();

    private RmaScenarios(final Job job, final Rma rma)
    {
        this.job = job;
        this.rma = rma;
    }

    /**
     * {@code RmaScenarios SCENARIO[,SCENARIO...] [quick]}: the scenarios in order ("killed" ends the job and "errors"
     * leaves the ranks in different collective calls, so either comes last); "quick" runs a twentieth of the repetitions
     * (for the emulated VM). Rank 0 prints each scenario's time on a line of its own starting with '#'.
     */
    public static void main(final String[] args)
    {
        quick = args.length > 1 && "quick".equals(args[1]);
        final long joining = System.nanoTime();
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job))
        {
            printStart(rma, joining);
            final RmaScenarios s = new RmaScenarios(job, rma);
            final ProgressScenarios progress = new ProgressScenarios(rma, s.arena);
            for (final String scenario : args[0].split(","))
            {
                final long started = System.nanoTime();
                switch (scenario)
                {
                    case "strided" -> s.strided();
                    case "accumulate" -> s.accumulate();
                    case "consistency" -> s.consistency();
                    case "rmw" -> s.readModifyWrite();
                    case "handles" -> s.handlesAndShapes();
                    case "errors" -> s.errors();
                    case "unilateral" -> progress.unilateral();
                    case "progress" -> progress.progressCalls();
                    case "protocols" -> new ProtocolScenarios(rma, System.getenv()).protocols();
                    case "packArea" -> new ProtocolScenarios(rma, System.getenv()).packedGetsBeyondThePackArea();
                    case "sizeClasses" -> new ProtocolScenarios(rma, System.getenv()).sizeClasses();
                    case "killed" -> progress.killedTarget();
                    case "ondemand" -> new OnDemandMessagesScenario(rma).run();
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

    /**
     * Rank 0 prints where a slow job's time went before its scenarios (a JVM under TCG starts in seconds, and a first
     * init there measures the cost model for minutes).
     */
    static void printStart(final Rma rma, final long joiningNs)
    {
        if (0 == rma.rank())
        {
            System.out.println("# start: " + ManagementFactory.getRuntimeMXBean().getUptime() +
                " ms from JVM start to Rma.init done, " + (System.nanoTime() - joiningNs) / 1_000_000 +
                " ms of them in Job.join and Rma.init");
        }
    }

    /** @return {@code full}, or a twentieth of it (at least 2) in a quick run. */
    static int repetitions(final int full)
    {
        return quick ? Math.max(2, full / 20) : full;
    }

    static void check(final boolean ok, final Supplier<String> what)
    {
        if (!ok)
        {
            throw new AssertionError(what.get());
        }
    }

    // ---------------------------------------------------------------- strided put/get (GA's test_strided style)

    /**
     * Every rank moves random 1- to 7-dimensional patches into its own region of random ranks' slices by strided
     * put (blocking and non-blocking) and reads them back by strided get; after a barrier every target checks the
     * patches all ranks left in its slice, recomputed from the same seeds.
     */
    private void strided()
    {
        final int size = rma.size();
        final long region = SLICE_BYTES / size;
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final int trials = repetitions(40);
        for (int t = 0; t < trials; t++)
        {
            final Patch p = Patch.random(new Random(seed(rma.rank(), t)), region);
            final int target = p.target(size);
            final MemorySegment source = arena.allocate(p.sourceBytes());
            fill(source, seed(rma.rank(), t));
            final long offset = rma.rank() * region;
            if (0 == t % 2)
            {
                rma.putStrided(source, p.sourceStrides, a, target, offset, p.targetStrides, p.counts, p.levels);
            }
            else
            {
                final RmaHandle h = rma.handle();
                rma.nbPutStrided(source, p.sourceStrides, a, target, offset, p.targetStrides, p.counts, p.levels, h);
                h.await();
            }
            final MemorySegment back = arena.allocate(p.sourceBytes());
            rma.getStrided(a, target, offset, p.targetStrides, back, p.sourceStrides, p.counts, p.levels);
            final StridedPatch shape = StridedPatch.of(p.counts, p.sourceStrides, p.targetStrides, p.levels);
            final int trial = t;
            shape.forEachPiece((s, d, bytes) -> check(
                MemorySegment.mismatch(source, s, s + bytes, back, s, s + bytes) < 0,
                () -> "trial " + trial + ": strided get of " + p + " from rank " + target + " differs from the put"));
            rma.barrier();
            // The target checks every origin's patch of this trial in its own slice.
            for (int origin = 0; origin < size; origin++)
            {
                final Patch q = Patch.random(new Random(seed(origin, t)), region);
                if (q.target(size) != rma.rank())
                {
                    continue;
                }
                final MemorySegment expected = arena.allocate(q.sourceBytes());
                fill(expected, seed(origin, t));
                final MemorySegment mine = a.local();
                final long base = origin * region;
                final int from = origin;
                StridedPatch.of(q.counts, q.sourceStrides, q.targetStrides, q.levels).forEachPiece((s, d, bytes) -> check(
                    MemorySegment.mismatch(expected, s, s + bytes, mine, base + d, base + d + bytes) < 0,
                    () -> "trial " + trial + ": rank " + from + "'s strided put " + q + " did not land in rank " +
                        rma.rank() + "'s slice"));
            }
            rma.barrier();
        }
        rma.free(a);
    }

    private static long seed(final int rank, final int trial)
    {
        return 1_000_003L * rank + trial;
    }

    private static void fill(final MemorySegment s, final long seed)
    {
        final Random r = new Random(seed);
        for (long i = 0; i < s.byteSize(); i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)r.nextInt());
        }
    }

    /** A random patch of 1..7 dimensions that fits a region on both sides (the source side is packed tighter). */
    private record Patch(int levels, long[] counts, long[] sourceStrides, long[] targetStrides, long targetPick)
    {
        static Patch random(final Random r, final long region)
        {
            while (true)
            {
                final int levels = r.nextInt(7);
                final long[] counts = new long[levels + 1];
                final long[] src = new long[levels];
                final long[] dst = new long[levels];
                counts[0] = 1 + r.nextInt(levels < 2 ? 200 : 16);
                for (int i = 1; i <= levels; i++)
                {
                    counts[i] = 1 + r.nextInt(levels < 3 ? 6 : 3);
                }
                for (int i = 0; i < levels; i++)
                {
                    src[i] = (0 == i ? counts[0] : counts[i] * src[i - 1]) + r.nextInt(3);
                    dst[i] = (0 == i ? counts[0] : counts[i] * dst[i - 1]) + r.nextInt(9);
                }
                final Patch p = new Patch(levels, counts, src, dst, r.nextInt(1 << 20));
                if (StridedPatch.of(counts, src, dst, levels).targetExtentBytes() <= region)
                {
                    return p;
                }
            }
        }

        int target(final int size)
        {
            return (int)(targetPick % size);
        }

        long sourceBytes()
        {
            return Math.max(1, StridedPatch.of(counts, sourceStrides, targetStrides, levels).sourceExtentBytes());
        }

        @Override
        public String toString()
        {
            return "count " + Arrays.toString(counts) + " source strides " + Arrays.toString(sourceStrides) +
                " target strides " + Arrays.toString(targetStrides);
        }
    }

    // ---------------------------------------------------------------- accumulate

    /**
     * Every rank accumulates onto the same elements of every rank's slice through the contiguous, strided and vector
     * forms, for all six types, with values whose sums are exact in every type; every target then checks its sums.
     */
    private void accumulate()
    {
        final int elements = 64;
        final RmaAllocation a = rma.alloc(ElementType.values().length * elements * 16L);
        final int rounds = repetitions(25);
        for (final ElementType type : ElementType.values())
        {
            final long base = type.ordinal() * elements * 16L;
            final MemorySegment ones = arena.allocate(elements * (long)type.bytes(), 8);
            for (int e = 0; e < elements; e++)
            {
                Elements.set(type, ones, e, 1);
            }
            final AccumulateScale scale = Elements.scale(type, rma.rank() + 1);
            final long bytes = elements * (long)type.bytes();
            for (int round = 0; round < rounds; round++)
            {
                for (int target = 0; target < rma.size(); target++)
                {
                    rma.acc(scale, ones, a, target, base);
                    // Strided: the same elements as 8 pieces of elements/8.
                    final long piece = bytes / 8;
                    rma.accStrided(scale, ones, new long[] {piece}, a, target, base, new long[] {piece},
                        new long[] {piece, 8}, 1);
                    final long[] offsets = new long[elements];
                    final long[] remote = new long[elements];
                    for (int e = 0; e < elements; e++)
                    {
                        offsets[e] = e * (long)type.bytes();
                        remote[e] = base + e * (long)type.bytes();
                    }
                    rma.accVector(scale, new IoVector[] {new IoVector(ones, offsets, remote, type.bytes())}, a, target);
                }
            }
        }
        rma.barrier();
        // Each rank r adds 3 forms x rounds x (r + 1) to every element of every target.
        final double expected = 3.0 * rounds * rma.size() * (rma.size() + 1) / 2;
        for (final ElementType type : ElementType.values())
        {
            final long base = type.ordinal() * elements * 16L;
            final MemorySegment mine = a.local().asSlice(base);
            for (int e = 0; e < elements; e++)
            {
                final double got = Elements.get(type, mine, e);
                final int at = e;
                check(got == expected, () -> type + " element " + at + " of rank " + rma.rank() + " is " + got +
                    ", expected " + expected);
            }
        }
        rma.free(a);
    }

    // ---------------------------------------------------------------- location consistency

    /** Put, then accumulates, then get to the next rank, without a fence: the get sees the put and every accumulate. */
    private void consistency()
    {
        final RmaAllocation a = rma.alloc(SLICE_BYTES);
        final int next = (rma.rank() + 1) % rma.size();
        final long at = rma.rank() * 64L;
        final MemorySegment values = arena.allocate(64, 8);
        final MemorySegment back = arena.allocate(64, 8);
        for (int round = 0; round < repetitions(200); round++)
        {
            for (int i = 0; i < 8; i++)
            {
                values.setAtIndex(ValueLayout.JAVA_LONG, i, round * 100L + i);
            }
            rma.put(values, a, next, at);
            rma.acc(AccumulateScale.ofLong(3), values, a, next, at);
            rma.acc(AccumulateScale.ofLong(-1), values, a, next, at);
            // a blocking put or accumulate returns once its source may be reused: overwriting it changes nothing
            values.fill((byte)-1);
            rma.get(a, next, at, back);
            for (int i = 0; i < 8; i++)
            {
                final long expected = 3 * (round * 100L + i);
                final long got = back.getAtIndex(ValueLayout.JAVA_LONG, i);
                final int r = round;
                check(expected == got, () -> "round " + r + ": get after put+acc+acc saw " + got + ", expected " + expected);
            }
        }
        getBeforeLaterWrites(a, next, at);
        rma.free(a);
    }

    /**
     * A non-blocking strided get, then a strided put and a vector accumulate on the same bytes before it is waited
     * for: the get returns what was there before them; a get afterwards sees both.
     */
    private void getBeforeLaterWrites(final RmaAllocation a, final int next, final long at)
    {
        final long[] everyOtherLong = {16};
        final long[] fourLongs = {8, 4};
        final MemorySegment before = arena.allocate(64, 8);
        final MemorySegment later = arena.allocate(64, 8);
        final MemorySegment ones = arena.allocate(64, 8);
        final MemorySegment back = arena.allocate(64, 8);
        final long[] local = new long[4];
        final long[] oddLongs = new long[4];
        for (int i = 0; i < 4; i++)
        {
            ones.setAtIndex(ValueLayout.JAVA_LONG, i, 1);
            local[i] = 8L * i;
            oddLongs[i] = at + 16L * i + 8;
        }
        final IoVector addOneToOddLongs = new IoVector(ones, local, oddLongs, 8);
        for (int round = 0; round < repetitions(200); round++)
        {
            for (int i = 0; i < 8; i++)
            {
                before.setAtIndex(ValueLayout.JAVA_LONG, i, round * 1000L + i);
                later.setAtIndex(ValueLayout.JAVA_LONG, i, round * 1000L + i + 1);
            }
            rma.put(before, a, next, at);
            final RmaHandle h = rma.handle();
            rma.nbGetStrided(a, next, at, everyOtherLong, back, everyOtherLong, fourLongs, 1, h);
            rma.putStrided(later, everyOtherLong, a, next, at, everyOtherLong, fourLongs, 1);
            rma.accVector(AccumulateScale.ofLong(1), new IoVector[] {addOneToOddLongs}, a, next);
            h.await();
            final int r = round;
            for (int i = 0; i < 8; i += 2)
            {
                final long got = back.getAtIndex(ValueLayout.JAVA_LONG, i);
                final long expected = round * 1000L + i;
                check(expected == got, () -> "round " + r + ": get issued before a put saw " + got + ", expected " +
                    expected);
            }
            rma.get(a, next, at, back);
            for (int i = 0; i < 8; i++)
            {
                final long got = back.getAtIndex(ValueLayout.JAVA_LONG, i);
                final long expected = round * 1000L + i + 1;
                check(expected == got, () -> "round " + r + ": get after a strided put and a vector accumulate saw " +
                    got + ", expected " + expected);
            }
        }
    }

    // ---------------------------------------------------------------- read-modify-write and mutexes

    /**
     * Every rank hammers one int and one long fetch-and-add counter on rank 0: the finals are exact and the returned
     * old values, gathered from every rank, are each value below the final exactly once. Then a swap-based spinlock
     * and a mutex each protect a plain get/put counter that must end exact.
     */
    private void readModifyWrite()
    {
        final int increments = repetitions(2000);
        final RmaAllocation a = rma.alloc(64);
        final long[] seenInt = new long[increments];
        final long[] seenLong = new long[increments];
        for (int i = 0; i < increments; i++)
        {
            seenInt[i] = rma.atomics().fetchAndAdd(a, 0, 0, 1);
            seenLong[i] = rma.atomics().fetchAndAddLong(a, 0, 8, 1L << 33) >> 33;
        }
        rma.barrier();
        final int total = increments * rma.size();
        check(rma.values().getInt(a, 0, 0) == total, () -> "int counter " + rma.values().getInt(a, 0, 0) + ", expected " + total);
        check(rma.values().getLong(a, 0, 8) == (long)total << 33, () -> "long counter " + rma.values().getLong(a, 0, 8));
        checkPermutation(seenInt, total, "int fetch-and-add");
        checkPermutation(seenLong, total, "long fetch-and-add");

        // Swap spinlock at offset 16 protecting a counter at 24 updated by a plain get and put.
        final int criticals = repetitions(300);
        for (int i = 0; i < criticals; i++)
        {
            while (0 != rma.atomics().swap(a, 0, 16, 1))
            {
                Thread.onSpinWait();
            }
            rma.values().putLong(rma.values().getLong(a, 0, 24) + 1, a, 0, 24);
            rma.atomics().swap(a, 0, 16, 0);
        }
        final RmaMutexes mutexes = rma.locks().createMutexes(rma.rank() + 1);
        final int last = rma.size() - 1;
        for (int i = 0; i < criticals; i++)
        {
            mutexes.lock(last, last);
            rma.values().putLong(rma.values().getLong(a, 0, 32) + 1, a, 0, 32);
            mutexes.unlock(last, last);
        }
        rma.barrier();
        check(rma.values().getLong(a, 0, 24) == (long)criticals * rma.size(), () -> "swap-lock counter " + rma.values().getLong(a, 0, 24));
        check(rma.values().getLong(a, 0, 32) == (long)criticals * rma.size(), () -> "mutex counter " + rma.values().getLong(a, 0, 32));
        if (0 == rma.rank())
        {
            check(mutexes.tryLock(0, 0), () -> "free mutex 0 of rank 0 not taken by tryLock");
        }
        rma.barrier();
        if (0 != rma.rank())
        {
            check(!mutexes.tryLock(0, 0), () -> "rank " + rma.rank() + " took mutex 0 of rank 0 while rank 0 held it");
        }
        rma.barrier();
        if (0 == rma.rank())
        {
            mutexes.unlock(0, 0);
        }
        rma.barrier();
        rma.locks().destroyMutexes(mutexes);
        rma.free(a);
    }

    private void checkPermutation(final long[] mine, final int total, final String what)
    {
        final ByteBuffer b = ByteBuffer.allocate(mine.length * Long.BYTES);
        b.asLongBuffer().put(mine);
        final List<byte[]> all = job.allGather(b.array());
        final boolean[] seen = new boolean[total];
        for (final byte[] rank : all)
        {
            final ByteBuffer in = ByteBuffer.wrap(rank);
            while (in.hasRemaining())
            {
                final int v = (int)in.getLong();
                check(v >= 0 && v < total && !seen[v], () -> what + " returned " + v + " twice or out of 0.." + (total - 1));
                seen[v] = true;
            }
        }
    }

    // ---------------------------------------------------------------- handles, shapes, self

    /** Implicit and aggregate handles, zero-size and irregular slices, operations on this rank's own slice. */
    private void handlesAndShapes()
    {
        final long mineBytes = 0 == rma.rank() % 2 ? 0 : 4096L * rma.rank() + 123;
        final RmaAllocation a = rma.alloc(mineBytes);
        for (int r = 0; r < rma.size(); r++)
        {
            final long expected = 0 == r % 2 ? 0 : 4096L * r + 123;
            final int rank = r;
            check(a.size(r) == expected, () -> "slice of rank " + rank + " has " + a.size(rank) + " bytes");
        }
        check(a.local().byteSize() == mineBytes, () -> "local slice of " + a.local().byteSize() + " bytes");
        final RmaHandle aggregate = rma.aggregateHandle();
        final MemorySegment word = arena.allocate(8, 8);
        for (int r = 1; r < rma.size(); r += 2)
        {
            word.set(ValueLayout.JAVA_LONG, 0, 1000L * rma.rank() + r);
            rma.nbPut(word, a, r, 8L * rma.rank(), aggregate);
            rma.nbPut(word, a, r, a.size(r) - 8 - 8L * rma.rank(), null);
        }
        aggregate.await();
        rma.waitAll();
        rma.barrier();
        if (mineBytes > 0)
        {
            for (int origin = 0; origin < rma.size(); origin++)
            {
                final long expected = 1000L * origin + rma.rank();
                final long front = a.local().get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * origin);
                final long tail = a.local().get(ValueLayout.JAVA_LONG_UNALIGNED, mineBytes - 8 - 8L * origin);
                final int o = origin;
                check(front == expected && tail == expected, () -> "rank " + o + "'s puts to rank " + rma.rank() +
                    ": " + front + "/" + tail + ", expected " + expected);
            }
            // Self-targeted operations, with a source inside the allocation itself.
            rma.put(a.local().asSlice(0, 16), a, rma.rank(), 64);
            rma.acc(AccumulateScale.ofLong(1), a.local().asSlice(0, 8), a, rma.rank(), 64);
            check(rma.values().getLong(a, rma.rank(), 64) == 2 * a.local().get(ValueLayout.JAVA_LONG_UNALIGNED, 0),
                () -> "self put + acc");
        }
        // ARMCI's message helpers, collective over every rank.
        final int n = rma.size();
        final int[] ints = rma.messages().sum(new int[] {rma.rank(), 1, Integer.MAX_VALUE});
        check(ints[0] == n * (n - 1) / 2 && ints[1] == n && ints[2] == Integer.MAX_VALUE * n,
            () -> "int sum " + java.util.Arrays.toString(ints));
        check(rma.messages().min(new long[] {rma.rank() - 5L})[0] == -5 && rma.messages().max(new long[] {rma.rank()})[0] == n - 1,
            () -> "long min/max");
        check(rma.messages().sum(new double[] {0.5 * rma.rank()})[0] == 0.25 * n * (n - 1) &&
            rma.messages().min(new double[] {-rma.rank()})[0] == 1 - n && rma.messages().max(new int[] {-rma.rank()})[0] == 0,
            () -> "double sum/min, int max");
        final byte[] root = rma.messages().broadcast(n - 1, new byte[] {(byte)rma.rank()});
        check(1 == root.length && root[0] == n - 1, () -> "broadcast from the last rank");
        final RmaHandle explicit = rma.handle();
        rma.nbGet(a, rma.rank(), 0, arena.allocate(0), explicit);
        check(explicit.test(), () -> "zero-length get incomplete");
        explicit.await();
        rma.free(a);
    }

    // ---------------------------------------------------------------- bad input

    private void errors()
    {
        final RmaAllocation a = rma.alloc(4096);
        final MemorySegment eight = arena.allocate(8, 8);
        expect(IllegalArgumentException.class, "put target rank " + rma.size() + " is not a rank of this job",
            () -> rma.put(eight, a, rma.size(), 0));
        expect(IllegalArgumentException.class, "put target [4090, 4090 + 8) is outside rank 0's slice",
            () -> rma.put(eight, a, 0, 4090));
        expect(IllegalArgumentException.class, "stride levels 9 not in 0..8",
            () -> rma.putStrided(eight, new long[9], a, 0, 0, new long[9], new long[10], 9));
        expect(IllegalArgumentException.class, "count[1] = -1 is negative",
            () -> rma.getStrided(a, 0, 0, new long[] {8}, eight, new long[] {8}, new long[] {8, -1}, 1));
        expect(IllegalArgumentException.class, "target stride[0] = 4 does not fit its counts",
            () -> rma.putStrided(eight, new long[] {8}, a, 0, 0, new long[] {4}, new long[] {8, 2}, 1));
        expect(IllegalArgumentException.class, "count[0] = 6 bytes is not a multiple of the 4-byte INT element",
            () -> rma.accStrided(AccumulateScale.ofInt(1), eight, new long[] {8}, a, 0, 0, new long[] {8},
                new long[] {6, 1}, 1));
        expect(IllegalArgumentException.class, "count[0] = 12 bytes is not a multiple of the 8-byte DOUBLE element",
            () -> rma.acc(AccumulateScale.ofDouble(1), arena.allocate(12, 8), a, 0, 0));
        expect(IllegalArgumentException.class, "read-modify-write target offset 6 is not aligned to 4 bytes",
            () -> rma.atomics().fetchAndAdd(a, 0, 6, 1));
        expect(IllegalArgumentException.class, "put source spans",
            () -> rma.putStrided(eight, new long[] {8}, a, 0, 0, new long[] {8}, new long[] {8, 2}, 1));
        final RmaMutexes mutexes = rma.locks().createMutexes(1);
        expect(IllegalArgumentException.class, "rank 0 hosts 1 mutexes; there is no mutex 1", () -> mutexes.lock(1, 0));
        expect(IllegalStateException.class, "unlock of mutex 0 of rank 0, which this rank does not hold",
            () -> mutexes.unlock(0, 0));
        rma.locks().destroyMutexes(mutexes);
        expect(IllegalStateException.class, "was freed", () -> mutexes.lock(0, 0));
        // Nothing was written by the refused calls.
        final MemorySegment all = arena.allocate(4096);
        rma.get(a, rma.rank(), 0, all);
        check(MemorySegment.mismatch(all, 0, 4096, arena.allocate(4096), 0, 4096) < 0, () -> "a refused call wrote");
        rma.free(a);
        expect(IllegalStateException.class, "allocation " + a.id() + " was freed", () -> rma.get(a, 0, 0, eight));
        expect(IllegalStateException.class, "allocation " + a.id() + " was freed", () -> rma.free(a));
        // A collective call the ranks are not all in is detected on every rank.
        if (0 == rma.rank())
        {
            expect(RmaException.class, "collective mismatch", () -> rma.alloc(64));
        }
        else
        {
            expect(RmaException.class, "collective mismatch", () -> rma.messages().sum(new long[] {1}));
        }
    }

    static void expect(final Class<? extends RuntimeException> type, final String text, final Runnable call)
    {
        try
        {
            call.run();
        }
        catch (final RuntimeException ex)
        {
            check(type.isInstance(ex) && String.valueOf(ex.getMessage()).contains(text),
                () -> "expected " + type.getSimpleName() + " with '" + text + "', got " + ex);
            return;
        }
        throw new AssertionError("expected " + type.getSimpleName() + " with '" + text + "', nothing thrown");
    }
}
