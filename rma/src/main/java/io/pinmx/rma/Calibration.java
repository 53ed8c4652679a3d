package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Measures the {@link CostModel} of this rank's driver against one peer, with the protocols themselves: contiguous gets
 * and puts of 8 B and 256 KiB (ts, tn), strided gets, puts and accumulates of 64 pieces of two sizes in each size class
 * by each protocol (tp and tc of each kind and class, from the gaps between the protocols), and zero-copy against
 * streamed transfers of {@link #CURVE_BYTES}, both from memory allocated for each (never declared before), so that
 * the curves span both where a fresh region's declaration tips the balance and where streaming falls behind. After a
 * warm-up, rounds run every probe in turn and each cost is the fastest of its rounds, so that a busy moment of a
 * shared host does not become the model. The warm-up runs the small transfers until the JIT has compiled their paths
 * at both ends: a model measured on interpreted code prices start-ups many times too high. A full measurement takes
 * seconds a rank; the peer's application is not involved (its data server serves the puts). The numbers of rounds
 * are the {@link CalibrationEffort}'s. Where the peer is a passive target, rounds of their own time puts of the
 * {@link #SCATTER_PROBES}' shapes, each with a fence, scattered by its driver and (those of several pieces) taken by
 * its data server by each strided protocol, and fit the driver's {@link CostModel.Scatter} and the server's two
 * ({@link CostModel.Served}: either side of the inline limit) through their medians ({@link ScatterFit}), so that the
 * choice between the two places compares costs measured alike.
 */
final class Calibration
{
    static final long CALIBRATION_BYTES = 4L << 20;
    private static final long SMALL_BYTES = 8;
    private static final long LARGE_BYTES = 256 << 10;
    static final int PIECES = 64;
    /** The scattered-put probe of the warm-up: pieces of a few hundred bytes, a frame each. */
    static final long SCATTER_PIECE_BYTES = 512;
    /**
     * The scattered-put probes, pieces and bytes a piece: one piece of two sizes (the driver's start-up and bytes;
     * a put of one piece always goes to the driver, so the server's fits leave them out), then at least three shapes
     * on each side of a 32 KiB inline limit for the server's two fits: 4 x 32 B, 256 x 32 B (the per-piece cost
     * alone) and 32 x 768 B inside it, 64 x 512 B (the limit, past it by the request's header), 128 x 2 KiB,
     * 256 x 2 KiB and 16 x 16 KiB (pieces of two and twelve frames, so that the per-piece cost is told from the
     * per-byte one where strided puts are) past it.
     */
    static final long[][] SCATTER_PROBES = {{1, 8}, {1, 256 << 10}, {4, 32}, {256, 32}, {32, 768}, {64, 512},
        {128, 2 << 10}, {256, 2 << 10}, {16, 16 << 10}};
    /**
     * A scattered-put probe's pieces start a page or more apart at the peer, as rows of a matrix do: pieces packed
     * closer share pages and frames, which makes the driver's many small pieces dearer than strided puts pay.
     */
    private static final long PAGE_BYTES = 4096;
    /**
     * The passive probes' rounds, each cost the median of them: the data server's path (a thread woken per request)
     * has a longer tail than the driver's (softirq), so the fastest of a few rounds would price the server further
     * below what its requests pay than the driver, and single rounds under a loaded or emulated host vary severalfold.
     */
    static final int PASSIVE_ROUNDS = 9;
    private static final AccumulateScale ONES = AccumulateScale.ofDouble(1.0);
    /**
     * A get's strided probes, {@value #PIECES} pieces of each size by each protocol, two in each {@link
     * CostModel.SizeClass}: packed answers of one chunk (4 and 16 KiB in all), then larger (32 and 256 KiB).
     */
    private static final long[][] GET_PIECE_BYTES = {{64, 256}, {512, 4096}};
    private static final long SMALLEST_PIECE_BYTES = Double.BYTES;
    /**
     * The sizes the zero-copy and streaming curves go through, a factor of 4 apart: points further apart leave the
     * straight segments between them too far from the transfers' times in the medium sizes.
     */
    static final long[] CURVE_BYTES = {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20};
    private static final long LARGEST_CURVE_BYTES = CURVE_BYTES[CURVE_BYTES.length - 1];
    /** Allocations tried for memory the endpoint has no region over, before taking one that it has. */
    private static final int MAX_FRESH_TRIES = 64;
    private static final ContiguousProtocol[] CURVE_PROTOCOLS = {ContiguousProtocol.ZERO_COPY,
        ContiguousProtocol.STREAM};
    /** In this order at each size: {@link #strided(double[], int, CostModel.Kind)} reads the probes so. */
    private static final StridedProtocol[] STRIDED_PROTOCOLS = {StridedProtocol.DIRECT, StridedProtocol.PACK};
    /**
     * Each probe runs this many times in a row and only the last is timed: the first after another kind of probe
     * finds the peer's threads backed off and would time their wake-up, not the transfer.
     */
    private static final int BACK_TO_BACK = 2;

    private final DriverTier driver;
    private final ProtocolChoice choice;
    private final RmaAllocation area;
    private final int peer;
    private final Arena arena = Arena.ofShared();
    private final RmaHandle handle = new RmaHandle(true);
    private final CalibrationEffort effort;

    private Calibration(final DriverTier driver, final ProtocolChoice choice, final RmaAllocation area, final int peer,
        final CalibrationEffort effort)
    {
        this.driver = driver;
        this.choice = choice;
        this.area = area;
        this.peer = peer;
        this.effort = effort;
    }

    /**
     * @param area an allocation of at least {@value #CALIBRATION_BYTES} bytes on {@code peer}, reached through the
     *             driver.
     */
    static CostModel measure(final String key, final DriverTier driver, final ProtocolChoice choice,
        final RmaAllocation area, final int peer, final CalibrationEffort effort)
    {
        final StridedProtocol strided = choice.forcedStrided();
        final ContiguousProtocol contiguous = choice.forcedContiguous();
        final Calibration c = new Calibration(driver, choice, area, peer, effort);
        try
        {
            return c.measure(key);
        }
        finally
        {
            choice.force(strided, contiguous);
            choice.resetCounts();
            c.arena.close();
        }
    }

    /** One timed transfer: its memory is prepared outside the time. */
    private record Probe(StridedProtocol strided, ContiguousProtocol contiguous, Supplier<MemorySegment> memory,
        Consumer<MemorySegment> transfer)
    {
    }

    private CostModel measure(final String key)
    {
        final MemorySegment buffer = arena.allocate(LARGEST_CURVE_BYTES, 4096);
        warmUp(buffer);
        final Supplier<MemorySegment> same = () -> buffer;
        final StridedProtocol direct = StridedProtocol.DIRECT;
        final ContiguousProtocol zeroCopy = ContiguousProtocol.ZERO_COPY;
        final List<Probe> probes = new ArrayList<>(List.of(
            new Probe(direct, zeroCopy, same, b -> get(b.asSlice(0, SMALL_BYTES))),
            new Probe(direct, zeroCopy, same, b -> get(b.asSlice(0, LARGE_BYTES))),
            new Probe(direct, zeroCopy, same, b -> put(b.asSlice(0, SMALL_BYTES))),
            new Probe(direct, zeroCopy, same, b -> put(b.asSlice(0, LARGE_BYTES)))));
        final int stridedFrom = probes.size();
        for (final CostModel.Kind kind : CostModel.Kind.values())
        {
            for (final CostModel.SizeClass size : CostModel.SizeClass.values())
            {
                for (final long pieceBytes : pieceBytes(kind, size))
                {
                    for (final StridedProtocol protocol : STRIDED_PROTOCOLS)
                    {
                        probes.add(new Probe(protocol, zeroCopy, same, b -> strided(kind, b, pieceBytes)));
                    }
                }
            }
        }
        final int curvesFrom = probes.size();
        for (final ContiguousProtocol protocol : CURVE_PROTOCOLS)
        {
            for (final boolean put : new boolean[] {false, true})
            {
                for (final long bytes : CURVE_BYTES)
                {
                    probes.add(new Probe(direct, protocol, () -> undeclared(bytes), put ? this::put : this::get));
                }
            }
        }
        final double[] ns = fastest(probes);
        final CostModel.Line getContiguous = line(SMALL_BYTES, ns[0], LARGE_BYTES, ns[1]);
        final CostModel.Line putContiguous = line(SMALL_BYTES, ns[2], LARGE_BYTES, ns[3]);
        final int n = CURVE_BYTES.length;
        final CostModel model = new CostModel(key, getContiguous, putContiguous,
            strided(ns, stridedFrom, CostModel.Kind.GET), strided(ns, stridedFrom, CostModel.Kind.PUT),
            strided(ns, stridedFrom, CostModel.Kind.ACC), curve(ns, curvesFrom), curve(ns, curvesFrom + 2 * n),
            curve(ns, curvesFrom + n), curve(ns, curvesFrom + 3 * n));
        return driver.takesWrites(area, peer) ? withPassivePuts(model, same) : model;
    }

    /**
     * @return the model with the passive peer's costs: each {@link #SCATTER_PROBES} shape scattered by its driver and,
     *         if it has several pieces, taken by its data server (the cheaper of its two strided protocols), side by
     *         side in every one of {@value #PASSIVE_ROUNDS} rounds; the driver's fit through every shape's median,
     *         the server's through those of its shapes on each side of the inline limit.
     */
    private CostModel withPassivePuts(final CostModel model, final Supplier<MemorySegment> same)
    {
        final List<Probe> probes = new ArrayList<>();
        final int n = SCATTER_PROBES.length;
        // Each shape's driver probe at scatterProbe[i], then (several pieces) one per strided protocol of the server.
        final int[] scatterProbe = new int[n];
        for (int i = 0; i < n; i++)
        {
            final int pieces = (int)SCATTER_PROBES[i][0];
            final long bytes = SCATTER_PROBES[i][0] * SCATTER_PROBES[i][1];
            scatterProbe[i] = probes.size();
            probes.add(new Probe(StridedProtocol.DIRECT, ContiguousProtocol.ZERO_COPY, same,
                b -> scatter(b.asSlice(0, bytes), pieces)));
            for (int p = 0; p < STRIDED_PROTOCOLS.length && 1 < pieces; p++)
            {
                probes.add(new Probe(STRIDED_PROTOCOLS[p], ContiguousProtocol.ZERO_COPY, same,
                    b -> serve(b.asSlice(0, bytes), pieces)));
            }
        }
        final double[][] rounds = timed(probes, PASSIVE_ROUNDS);
        final long[] pieces = new long[n];
        final long[] totalBytes = new long[n];
        final double[] scattered = new double[n];
        final double[] served = new double[n];
        for (int i = 0; i < n; i++)
        {
            pieces[i] = SCATTER_PROBES[i][0];
            totalBytes[i] = SCATTER_PROBES[i][0] * SCATTER_PROBES[i][1];
            scattered[i] = median(rounds[scatterProbe[i]]);
            served[i] = 1 == pieces[i] ? Double.NaN : Double.MAX_VALUE;
            for (int p = 1; 1 < pieces[i] && p <= STRIDED_PROTOCOLS.length; p++)
            {
                served[i] = Math.min(served[i], median(rounds[scatterProbe[i] + p]));
            }
        }
        final long inlineBytes = driver.inlineLimitBytes() - RequestHeader.FIXED_BYTES;
        return model.withScatter(ScatterFit.fit(pieces, totalBytes, scattered),
            served(inlineBytes, pieces, totalBytes, served));
    }

    /**
     * @param ns each probe's time through the data server, NaN for a probe it did not take (one piece).
     * @return the server's fits through its probes of at most {@code inlineBytes} and through those past it.
     * @throws IllegalArgumentException if a side has fewer than three probes.
     */
    static CostModel.Served served(final long inlineBytes, final long[] pieces, final long[] totalBytes,
        final double[] ns)
    {
        return new CostModel.Served(inlineBytes, fitSide(true, inlineBytes, pieces, totalBytes, ns),
            fitSide(false, inlineBytes, pieces, totalBytes, ns));
    }

    private static CostModel.Scatter fitSide(final boolean inline, final long inlineBytes, final long[] pieces,
        final long[] totalBytes, final double[] ns)
    {
        final int[] side = IntStream.range(0, ns.length)
            .filter(i -> !Double.isNaN(ns[i]) && inline == (totalBytes[i] <= inlineBytes)).toArray();
        return ScatterFit.fit(Arrays.stream(side).mapToLong(i -> pieces[i]).toArray(),
            Arrays.stream(side).mapToLong(i -> totalBytes[i]).toArray(),
            Arrays.stream(side).mapToDouble(i -> ns[i]).toArray());
    }

    static double median(final double[] ns)
    {
        final double[] sorted = ns.clone();
        Arrays.sort(sorted);
        final int half = sorted.length / 2;
        return 0 == sorted.length % 2 ? (sorted[half - 1] + sorted[half]) / 2 : sorted[half];
    }

    /**
     * @return a kind's two probe piece sizes in a size class. Puts and accumulates are classed by the driver's inline
     *         limit L (32 KiB unless the endpoint's rendezvous threshold is lower): L / 4 and 7/8 L in all travel with
     *         the request (past the 4 KiB that both protocols copy in alike), L and 16 L do not: one line across L
     *         misplaces the crossing. Past L the protocols part with the total, not the pieces, so the larger probe
     *         is far enough past L (16 L, not 4 L) for the cost per packed byte to show above the noise.
     */
    private long[] pieceBytes(final CostModel.Kind kind, final CostModel.SizeClass size)
    {
        if (CostModel.Kind.GET == kind)
        {
            return GET_PIECE_BYTES[size.ordinal()];
        }
        final long limit = driver.inlineLimitBytes();
        return CostModel.SizeClass.SMALL == size ? new long[] {piece(limit / 4), piece(limit * 7 / 8)} :
            new long[] {piece(limit), piece(16 * limit)};
    }

    /** @return a piece of {@value #PIECES} that make up about {@code totalBytes}, in whole doubles. */
    private static long piece(final long totalBytes)
    {
        return Math.max(SMALLEST_PIECE_BYTES, totalBytes / PIECES / SMALLEST_PIECE_BYTES * SMALLEST_PIECE_BYTES);
    }

    /**
     * @return a kind's tp and tc in each size class from its eight probes (direct and pack at each size, the small
     *         class's sizes first) among {@code ns} from {@code from}.
     */
    private CostModel.Strided strided(final double[] ns, final int from, final CostModel.Kind kind)
    {
        final int i = from + 8 * kind.ordinal();
        final long[] small = pieceBytes(kind, CostModel.SizeClass.SMALL);
        final long[] large = pieceBytes(kind, CostModel.SizeClass.LARGE);
        return new CostModel.Strided(gap(small[0], ns[i], ns[i + 1], small[1], ns[i + 2], ns[i + 3]),
            gap(large[0], ns[i + 4], ns[i + 5], large[1], ns[i + 6], ns[i + 7]));
    }

    /**
     * @return tp and tc from {@value #PIECES} pieces moved by the direct and the pack protocol at two piece sizes:
     *         the direct protocol's time less the pack protocol's is {@code k * (tp - tc * n)} in the model, whatever
     *         one contiguous transfer costs, so the two gaps give tc (how much the gap per piece shrinks per byte of
     *         piece) and tp. Clamped at 0: a gap that does not shrink with the pieces' size means no cost per packed
     *         byte, and then pack wins whenever a piece costs anything.
     */
    static CostModel.Gap gap(final long smallBytes, final double smallDirectNs, final double smallPackNs,
        final long largeBytes, final double largeDirectNs, final double largePackNs)
    {
        final double smallGapNs = (smallDirectNs - smallPackNs) / PIECES;
        final double largeGapNs = (largeDirectNs - largePackNs) / PIECES;
        final double packByteNs = Math.max(0, (smallGapNs - largeGapNs) / (largeBytes - smallBytes));
        return new CostModel.Gap(Math.max(0, smallGapNs + packByteNs * smallBytes), packByteNs);
    }

    /** @return the curve through the {@link #CURVE_BYTES} probes' times from {@code from} on. */
    private static CostModel.Curve curve(final double[] ns, final int from)
    {
        return new CostModel.Curve(CURVE_BYTES, Arrays.copyOfRange(ns, from, from + CURVE_BYTES.length));
    }

    /**
     * @return each probe's fastest time of the effort's timed rounds; a round runs every probe in turn, so that a load
     *         that changes over the calibration weighs on all of them alike.
     */
    private double[] fastest(final List<Probe> probes)
    {
        final double[][] rounds = timed(probes, effort.timedRounds);
        final double[] best = new double[probes.size()];
        for (int i = 0; i < best.length; i++)
        {
            best[i] = Arrays.stream(rounds[i]).min().orElseThrow();
        }
        return best;
    }

    /** @return each probe's time in each of {@code rounds} rounds, every probe in turn in each round. */
    private double[][] timed(final List<Probe> probes, final int rounds)
    {
        final double[][] ns = new double[probes.size()][rounds];
        for (int round = 0; round < rounds; round++)
        {
            for (int i = 0; i < probes.size(); i++)
            {
                final Probe p = probes.get(i);
                choice.force(p.strided(), p.contiguous());
                for (int untimed = 1; untimed < BACK_TO_BACK; untimed++)
                {
                    p.transfer().accept(p.memory().get());
                }
                final MemorySegment memory = p.memory().get();
                final long start = System.nanoTime();
                p.transfer().accept(memory);
                ns[i][round] = System.nanoTime() - start;
            }
        }
        return ns;
    }

    /**
     * @return memory allocated now (its pages touched) that the endpoint has no region over, as the zero-copy curves
     *         assume (memory it has goes zero-copy without the model): an allocation where a freed one was may find
     *         the region cache still holding that one's region, and a transfer of it skips the declaration. Such
     *         allocations are kept until a clean one is found, so that the next is elsewhere.
     */
    private MemorySegment undeclared(final long bytes)
    {
        final List<MemorySegment> declared = new ArrayList<>();
        MemorySegment m = fresh(bytes);
        while (driver.isDeclared(m) && declared.size() < MAX_FRESH_TRIES)
        {
            declared.add(m);
            m = fresh(bytes);
        }
        return m;
    }

    /** @return memory allocated now (its pages touched). */
    private static MemorySegment fresh(final long bytes)
    {
        final MemorySegment m = Arena.ofAuto().allocate(bytes, 4096);
        m.fill((byte)1);
        return m;
    }

    /**
     * The effort's small transfers (enough calls for the JIT's optimising tier, at FULL), then its rounds of every kind
     * of transfer, a get and a put of fresh memory by each contiguous protocol among them: woken threads, warm caches,
     * compiled paths for what the curves time. With too few rounds the curves' zero-copy puts of fresh memory still
     * run slower than they do later in a job, and medium puts go streamed where zero-copy is faster. Under TCG the
     * rounds cost minutes, hence {@link CalibrationEffort#QUICK}'s 2.
     */
    private void warmUp(final MemorySegment buffer)
    {
        choice.force(StridedProtocol.DIRECT, ContiguousProtocol.ZERO_COPY);
        for (int round = 0; round < effort.smallWarmUpRounds; round++)
        {
            get(buffer.asSlice(0, SMALL_BYTES));
            put(buffer.asSlice(0, SMALL_BYTES));
        }
        for (int round = 0; round < effort.warmUpRounds; round++)
        {
            choice.force(StridedProtocol.DIRECT, ContiguousProtocol.ZERO_COPY);
            get(buffer.asSlice(0, SMALL_BYTES));
            put(buffer.asSlice(0, SMALL_BYTES));
            for (final StridedProtocol protocol : STRIDED_PROTOCOLS)
            {
                choice.force(protocol, ContiguousProtocol.ZERO_COPY);
                for (final CostModel.Kind kind : CostModel.Kind.values())
                {
                    for (final CostModel.SizeClass size : CostModel.SizeClass.values())
                    {
                        for (final long pieceBytes : pieceBytes(kind, size))
                        {
                            strided(kind, buffer, pieceBytes);
                        }
                    }
                }
            }
            for (final ContiguousProtocol protocol : CURVE_PROTOCOLS)
            {
                choice.force(StridedProtocol.PACK, protocol);
                get(undeclared(CURVE_BYTES[2]));
                put(undeclared(CURVE_BYTES[2]));
            }
            if (driver.takesWrites(area, peer))
            {
                scatter(buffer.asSlice(0, PIECES * SCATTER_PIECE_BYTES), PIECES);
            }
        }
    }

    /** @return the line through two measured points, its start-up and slope clamped at 0. */
    static CostModel.Line line(final long smallBytes, final double smallNs, final long largeBytes, final double largeNs)
    {
        final double byteNs = Math.max(0, (largeNs - smallNs) / (largeBytes - smallBytes));
        return new CostModel.Line(Math.max(0, smallNs - byteNs * smallBytes), byteNs);
    }

    private void get(final MemorySegment into)
    {
        final StridedPatch patch = StridedPatch.contiguous(into.byteSize());
        driver.read(handle, peer, area, Pieces.strided(patch, into, 0, false), patch, 0);
        handle.await();
    }

    private void put(final MemorySegment from)
    {
        final StridedPatch patch = StridedPatch.contiguous(from.byteSize());
        driver.writeThroughServer(handle, peer, area.id(), Pieces.strided(patch, from, 0, true), patch, 0, null);
        handle.await();
        driver.fence(peer);
    }

    /** A put of {@code pieces} equal pieces of {@code from} that the peer's driver scatters ({@link #spread}). */
    private void scatter(final MemorySegment from, final int pieces)
    {
        final StridedPatch patch = spread(from, pieces);
        driver.putThroughModule(peer, area, Pieces.strided(patch, from, 0, true));
    }

    /** The same put taken by the peer's data server, waited for with a fence. */
    private void serve(final MemorySegment from, final int pieces)
    {
        final StridedPatch patch = spread(from, pieces);
        driver.writeThroughServer(handle, peer, area.id(), Pieces.strided(patch, from, 0, true), patch, 0, null);
        handle.await();
        driver.fence(peer);
    }

    /** {@code pieces} equal pieces of {@code from}, every other one of the peer's and a page or more apart there. */
    private static StridedPatch spread(final MemorySegment from, final int pieces)
    {
        final long pieceBytes = from.byteSize() / pieces;
        return 1 == pieces ? StridedPatch.contiguous(pieceBytes) : StridedPatch.of(new long[] {pieceBytes, pieces},
            new long[] {pieceBytes}, new long[] {Math.max(2 * pieceBytes, PAGE_BYTES)}, 1);
    }

    /**
     * {@value #PIECES} pieces of {@code pieceBytes}, every other one of the peer's (a put's, an accumulate's) or ours.
     */
    private void strided(final CostModel.Kind kind, final MemorySegment buffer, final long pieceBytes)
    {
        final long[] counts = {pieceBytes, PIECES};
        final long[] packed = {pieceBytes};
        final long[] spread = {2 * pieceBytes};
        if (CostModel.Kind.GET == kind)
        {
            final StridedPatch patch = StridedPatch.of(counts, spread, packed, 1);
            driver.read(handle, peer, area, Pieces.strided(patch, buffer, 0, false), patch, 0);
            handle.await();
            return;
        }
        final StridedPatch patch = StridedPatch.of(counts, packed, spread, 1);
        driver.writeThroughServer(handle, peer, area.id(), Pieces.strided(patch, buffer, 0, true), patch, 0,
            CostModel.Kind.ACC == kind ? ONES : null);
        handle.await();
        driver.fence(peer);
    }
}
