package io.pinmx.kerneltests;

import io.pinmx.job.Job;
import io.pinmx.rma.ContiguousProtocol;
import io.pinmx.rma.CostModel;
import io.pinmx.rma.PassivePuts;
import io.pinmx.rma.ProtocolCounts;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.StridedProtocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The passive target's benchmarks, a program of 2 ranks on the kernel provider ({@link RmaPassiveTargetBench} starts
 * it in the VM): rank 0 times operations on rank 1, which only waits in barriers. Arguments {@code MODE DIRECTORY}:
 * <ul>
 * <li>{@code passive} (rank 1 a passive target, {@code PINMX_RMA_DRIVER_WRITES=1}): strided puts of N x N doubles
 * (rows of a {@value #MATRIX_DOUBLES}-double matrix at the target) with the module scattering each piece, the data
 * server taking them and the model's choice, the three interleaved round after round, each round in the next of the
 * six orders, so each place follows each other place equally often (a data server still spinning after its last
 * put slows what runs next; a fixed rotation always put the choice after the server), and each timed put follows an
 * untimed one to the same place; medians, the model's predictions and pick, the picked place's median and the choice's
 * against the better of the other two; then 8 B put + fence and fetch-and-add through the module with rank 1 running;
 * then rank 0 creates {@value #READY}, waits for {@value #STOPPED} (the test stopped rank 1) and times them again,
 * creates {@value #DONE} and waits until the file {@value #STOPPED} is gone (rank 1 runs again).</li>
 * <li>{@code server} (rank 1 not passive): 8 B put + fence and fetch-and-add through rank 1's data server.</li>
 * </ul>
 * Prints "# " lines with the figures and "PASSED MODE" on rank 0.
 */
public final class PassiveTargetBench
{
    static final String READY = "bench-ready";
    static final String STOPPED = "bench-stopped";
    static final String DONE = "bench-done";
    private static final int MATRIX_DOUBLES = 512;
    private static final long ROW_BYTES = (long)MATRIX_DOUBLES * Double.BYTES;
    private static final long SLICE_BYTES = MATRIX_DOUBLES * ROW_BYTES;
    /** The data server's strided protocol (auto, direct or pack; auto: its model's choice). */
    private static final String SERVER_STRIDED_PROPERTY = "pinmx.bench.serverStrided";
    /** Which puts to time: unset, N x N doubles; calibration, the calibration's scattered-put shapes. */
    private static final String SHAPES_PROPERTY = "pinmx.bench.shapes";
    private static final long PAGE_BYTES = 4096;
    private static final int[] N = {4, 16, 64, 128, 256};
    private static final int WARM_UP_ROUNDS = 15;
    private static final int ROUNDS = 24;
    private static final int SMALL_ROUNDS = 200;
    private static final long COUNTER_OFFSET = SLICE_BYTES - Long.BYTES;
    private static final long FILE_DEADLINE_S = 300;
    private static final PassivePuts[] PLACES = {PassivePuts.MODULE, PassivePuts.SERVER, PassivePuts.AUTO};
    /** Every order of the three places: round r runs them in order r modulo six. */
    private static final int[][] ORDERS = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

    private PassiveTargetBench()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String mode = args[0];
        final Path dir = Path.of(args[1]);
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job); Arena arena = Arena.ofShared())
        {
            final RmaAllocation slices = rma.alloc(SLICE_BYTES);
            rma.barrier();
            if (0 == rma.rank())
            {
                System.out.println("# " + rma.protocols().costModel());
                if ("passive".equals(mode))
                {
                    stridedPuts(rma, slices, arena);
                    small(rma, slices, arena, "module, target running");
                    final RankFiles files = new RankFiles(dir, FILE_DEADLINE_S);
                    files.create(READY);
                    files.await(STOPPED, "the test did not stop the target");
                    small(rma, slices, arena, "module, target stopped");
                    files.create(DONE);
                    files.awaitGone(STOPPED, "the test did not resume the target");
                }
                else
                {
                    small(rma, slices, arena, "data server, target running");
                }
            }
            rma.barrier();
            rma.free(slices);
            if (0 == rma.rank())
            {
                System.out.println("PASSED " + mode);
            }
        }
    }

    /**
     * Each N: every place's put + fence interleaved round after round; medians, what the model predicts for each place
     * and which it picks (and where the choice's puts went), the picked place's median against the better one's
     * (chosen/better: whether the model picked right) and the choice's own median against it (choice/best: the same
     * plus the spread of two medians of one path).
     */
    private static void stridedPuts(final Rma rma, final RmaAllocation slices, final Arena arena)
    {
        final MemorySegment source = arena.allocate((long)N[N.length - 1] * N[N.length - 1] * Double.BYTES, 4096);
        final CostModel model = rma.protocols().costModel();
        if (null == model || null == model.scatter())
        {
            throw new IllegalStateException("rank 0's cost model has no passive peer's costs: " + model);
        }
        final StridedProtocol serverStrided =
            StridedProtocol.valueOf(System.getProperty(SERVER_STRIDED_PROPERTY, "auto").toUpperCase(Locale.ROOT));
        rma.protocols().force(serverStrided, ContiguousProtocol.AUTO);
        for (final long[] shape : shapes())
        {
            stridedPut(rma, slices, source, model, (int)shape[0], shape[1], shape[2]);
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
    }

    /**
     * @return the puts timed, each {pieces, bytes a piece, target stride}: N x N doubles into rows of the matrix, or
     *         with {@value #SHAPES_PROPERTY}=calibration the shapes of rma's {@code Calibration.SCATTER_PROBES} with
     *         the pieces packed every other one and in the calibration's own layout (a page or more apart).
     */
    private static long[][] shapes()
    {
        if ("calibration".equals(System.getProperty(SHAPES_PROPERTY)))
        {
            final long[][] probes = {{1, 8}, {1, 256 << 10}, {4, 32}, {256, 32}, {32, 768}, {64, 512}, {128, 2 << 10},
                {256, 2 << 10}, {16, 16 << 10}};
            final long[][] shapes = new long[2 * probes.length][];
            for (int i = 0; i < probes.length; i++)
            {
                final long spread = 2 * probes[i][1];
                shapes[2 * i] = new long[] {probes[i][0], probes[i][1], spread};
                shapes[2 * i + 1] = new long[] {probes[i][0], probes[i][1], Math.max(spread, PAGE_BYTES)};
            }
            return shapes;
        }
        final long[][] shapes = new long[N.length][];
        for (int i = 0; i < N.length; i++)
        {
            shapes[i] = new long[] {N[i], (long)N[i] * Double.BYTES, ROW_BYTES};
        }
        return shapes;
    }

    private static void stridedPut(final Rma rma, final RmaAllocation slices, final MemorySegment source,
        final CostModel model, final int pieces, final long pieceBytes, final long targetStride)
    {
        final long[] counts = {pieceBytes, pieces};
        final long[] sourceStrides = {pieceBytes};
        final long[] targetStrides = {targetStride};
        final long[][] ns = new long[PLACES.length][ROUNDS];
        long choiceToServer = 0;
        long serverDirect = 0;
        for (int round = -WARM_UP_ROUNDS; round < ROUNDS; round++)
        {
            for (int i = 0; i < PLACES.length; i++)
            {
                final int p = ORDERS[Math.floorMod(round, ORDERS.length)][i];
                rma.protocols().forcePassivePuts(PLACES[p]);
                final long serverPutsBefore = serverPuts(rma);
                final long directBefore = rma.protocols().counts().direct();
                source.fill((byte)(round + p));
                rma.putStrided(source, sourceStrides, slices, 1, 0, targetStrides, counts, 1);
                rma.fence(1);
                final long started = System.nanoTime();
                rma.putStrided(source, sourceStrides, slices, 1, 0, targetStrides, counts, 1);
                rma.fence(1);
                if (round >= 0)
                {
                    ns[p][round] = System.nanoTime() - started;
                    choiceToServer += PassivePuts.AUTO == PLACES[p] ? serverPuts(rma) - serverPutsBefore : 0;
                    serverDirect += PassivePuts.SERVER == PLACES[p] ?
                        rma.protocols().counts().direct() - directBefore : 0;
                }
            }
        }
        rma.protocols().forcePassivePuts(PassivePuts.AUTO);
        final double module = median(ns[0]);
        final double server = median(ns[1]);
        final double auto = median(ns[2]);
        final long bytes = pieces * pieceBytes;
        final boolean picksModule = model.scatterByModule(pieces, bytes);
        final String what = ROW_BYTES == targetStride && 1 < pieces && pieceBytes == (long)pieces * Double.BYTES ?
            String.format(Locale.ROOT, "%d x %d doubles", pieces, pieces) :
            String.format(Locale.ROOT, "%d x %d B (target stride %d B)", pieces, pieceBytes, targetStride);
        System.out.printf(Locale.ROOT, "# strided put %s + fence, median of %d: module %.1f us, data server %.1f us " +
            "(%d of %d direct), model's choice %.1f us (model: module %.1f us, data server %.1f us, picks %s; " +
            "%d of %d of its puts to the data server), chosen/better %.2f, choice/best %.2f%n", what, ROUNDS,
            module / 1e3, server / 1e3, serverDirect, 2 * ROUNDS, auto / 1e3, model.scatter().at(pieces, bytes) / 1e3,
            model.served().at(pieces, bytes) / 1e3, picksModule ? "module" : "data server", choiceToServer,
            2 * ROUNDS, (picksModule ? module : server) / Math.min(module, server), auto / Math.min(module, server));
    }

    /** @return this rank's strided and vector requests its targets' data servers took (not the module's). */
    private static long serverPuts(final Rma rma)
    {
        final ProtocolCounts counts = rma.protocols().counts();
        return counts.direct() + counts.pack();
    }

    /** 8 B put + fence and int64 fetch-and-add to rank 1: medians, every fetched value checked. */
    private static void small(final Rma rma, final RmaAllocation slices, final Arena arena, final String how)
    {
        final MemorySegment word = arena.allocate(Long.BYTES, Long.BYTES);
        final long[] put = new long[SMALL_ROUNDS];
        final long[] add = new long[SMALL_ROUNDS];
        rma.values().putLong(0, slices, 1, COUNTER_OFFSET);
        rma.fence(1);
        for (int i = 0; i < SMALL_ROUNDS; i++)
        {
            word.set(ValueLayout.JAVA_LONG, 0, i);
            long started = System.nanoTime();
            rma.put(word, slices, 1, 0);
            rma.fence(1);
            put[i] = System.nanoTime() - started;
            started = System.nanoTime();
            final long old = rma.atomics().fetchAndAddLong(slices, 1, COUNTER_OFFSET, 1);
            add[i] = System.nanoTime() - started;
            if (old != i)
            {
                throw new IllegalStateException("fetch-and-add " + i + " returned " + old);
            }
        }
        System.out.printf(Locale.ROOT, "# %s, median of %d: 8 B put + fence %.1f us, fetch-and-add %.1f us%n", how,
            SMALL_ROUNDS, median(put) / 1e3, median(add) / 1e3);
    }

    private static double median(final long[] ns)
    {
        final long[] sorted = ns.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
