package io.pinmx.kerneltests;

import io.pinmx.job.Job;
import io.pinmx.rma.PassivePuts;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;

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
 * untimed one to the same place; medians, and the choice's median against the better of the other two; then 8 B put + fence and
 * fetch-and-add through the module with rank 1 running; then rank 0 creates {@value #READY}, waits for
 * {@value #STOPPED} (the test stopped rank 1) and times them again, creates {@value #DONE} and waits until the file
 * {@value #STOPPED} is gone (rank 1 runs again).</li>
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
    private static final int[] N = {4, 16, 64, 256};
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

    /** Each N: every place's put + fence interleaved round after round; medians and the choice's ratio. */
    private static void stridedPuts(final Rma rma, final RmaAllocation slices, final Arena arena)
    {
        final MemorySegment source = arena.allocate((long)N[N.length - 1] * N[N.length - 1] * Double.BYTES, 4096);
        for (final int n : N)
        {
            final long[] counts = {(long)n * Double.BYTES, n};
            final long[] sourceStrides = {(long)n * Double.BYTES};
            final long[] targetStrides = {ROW_BYTES};
            final long[][] ns = new long[PLACES.length][ROUNDS];
            for (int round = -WARM_UP_ROUNDS; round < ROUNDS; round++)
            {
                for (int i = 0; i < PLACES.length; i++)
                {
                    final int p = ORDERS[Math.floorMod(round, ORDERS.length)][i];
                    rma.protocols().forcePassivePuts(PLACES[p]);
                    source.fill((byte)(round + p));
                    rma.putStrided(source, sourceStrides, slices, 1, 0, targetStrides, counts, 1);
                    rma.fence(1);
                    final long started = System.nanoTime();
                    rma.putStrided(source, sourceStrides, slices, 1, 0, targetStrides, counts, 1);
                    rma.fence(1);
                    if (round >= 0)
                    {
                        ns[p][round] = System.nanoTime() - started;
                    }
                }
            }
            rma.protocols().forcePassivePuts(PassivePuts.AUTO);
            final double module = median(ns[0]);
            final double server = median(ns[1]);
            final double auto = median(ns[2]);
            System.out.printf(Locale.ROOT, "# strided put %d x %d doubles + fence, median of %d: module %.1f us, " +
                "data server %.1f us, model's choice %.1f us, choice/best %.2f%n", n, n, ROUNDS, module / 1e3,
                server / 1e3, auto / 1e3, auto / Math.min(module, server));
        }
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
