package io.pinmx.rma.protocol.bench;

import io.pinmx.job.Job;
import io.pinmx.job.JobRank;
import io.pinmx.job.ProgramArguments;
import io.pinmx.rma.ContiguousProtocol;
import io.pinmx.rma.ProtocolCounts;
import io.pinmx.rma.RankTier;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.StridedProtocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * The driver tier's protocols against each other, 2 ranks (rank 0 operates on rank 1, whose application only waits
 * in the final barrier): strided 2-D N x N doubles (rows of a 512 x 512 matrix on both sides, so that no N makes a contiguous block) for N = 8..256 with
 * the direct protocol forced, the pack protocol forced and the model's choice; contiguous 4 KiB..16 MiB with zero-copy
 * forced, streaming forced and the model's choice, each from memory allocated for it (not declared before); and a
 * strided 64 x 64 get against 64 contiguous gets of its rows. A warm-up runs first. Each point runs the three
 * settings in turn, round after round, and takes each one's median; "auto/best" is the model's choice against the
 * better forced protocol in the same run, "auto chose" what the model took (the counters say), and "chosen/best" the
 * forced time of the protocol the model took against the better one: whether the choice was right, without the
 * noise of a third median (fresh medium puts spread widely whichever protocol). The last lines count the
 * points whose choice was within 10% of the better protocol.
 * <p>
 * Run: {@code PINMX_RMA_SHARED_MEMORY=0 bin/pinmx-run -np 2 io.pinmx.rma.protocol.bench.ProtocolSweep [REPS]}, or
 * across a veth pair with {@code rma/run-protocol-sweep.sh --veth}.
 */
public final class ProtocolSweep
{
    private static final int EXIT_USAGE = 2;
    private static final int DEFAULT_REPS = 30;
    private static final String HELP = """
        usage: PINMX_RMA_SHARED_MEMORY=0 bin/pinmx-run -np 2 io.pinmx.rma.protocol.bench.ProtocolSweep [REPS]
          REPS        rounds of each point, each setting's median reported (default 30)
          -h, --help  this text
        environment (docs/environment.md): PINMX_RMA_SHARED_MEMORY=0 (rank 1 through the driver, which this measures),
          PINMX_RMA_CALIBRATION, PINMX_RMA_RECALIBRATE, PINMX_RMA_MODEL_FILE (the cost model the choices come from),
          PINMX_DRIVER, PINMX_PEER_TIMEOUT_MS, PINMX_BOOTSTRAP_TIMEOUT_MS
        exit status: 0 done, 1 the run failed, 2 bad arguments or rank count
        """;
    private static final int MATRIX = 512;
    private static final int MAX_N = 256;
    private static final long ROW_BYTES = MATRIX * Double.BYTES;
    private static final long MAX_CONTIGUOUS_BYTES = 16L << 20;
    private static final StridedProtocol[] STRIDED = {StridedProtocol.DIRECT, StridedProtocol.PACK,
        StridedProtocol.AUTO};
    /** Warm-up rounds, each every kind of operation under each setting. */
    private static final int WARM_UP_ROUNDS = 2000;
    private static final int[] WARM_UP_SIDES = {8, 64};
    private static final long[] WARM_UP_CONTIGUOUS_BYTES = {4096, 64 << 10};
    /** The bound the sweep checks: the model's choice within 10% of the better forced protocol. */
    private static final double CHOICE_TOLERANCE = 1.10;
    private static final int BOTH = -1;
    private static final ContiguousProtocol[] CONTIGUOUS = {ContiguousProtocol.ZERO_COPY, ContiguousProtocol.STREAM,
        ContiguousProtocol.AUTO};

    private final Rma rma;
    private final RmaAllocation remote;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment local;
    private final int reps;
    /** Points whose choice was within {@link #CHOICE_TOLERANCE} of the better protocol, and all points. */
    private final int[] stridedChoices = new int[2];
    private final int[] contiguousChoices = new int[2];

    private ProtocolSweep(final Rma rma, final RmaAllocation remote, final int reps)
    {
        this.rma = rma;
        this.remote = remote;
        this.reps = reps;
        this.local = arena.allocate(MAX_CONTIGUOUS_BYTES, 4096);
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, HELP))
        {
            return;
        }
        final int reps;
        try
        {
            reps = repetitions(args);
        }
        catch (final IllegalArgumentException ex)
        {
            if (reportsUsageErrors(System.getenv()))
            {
                System.err.println("ProtocolSweep: " + ex.getMessage() + " (ProtocolSweep --help lists the arguments)");
            }
            System.exit(EXIT_USAGE);
            return;
        }
        try (Job job = Job.join(System.getenv()))
        {
            if (2 != job.size())
            {
                if (0 == job.rank())
                {
                    System.err.println("ProtocolSweep: needs 2 ranks, not " + job.size() + ": bin/pinmx-run -np 2 " +
                        ProtocolSweep.class.getName());
                }
                System.exit(EXIT_USAGE);
            }
            sweep(job, reps);
        }
    }

    private static void sweep(final Job job, final int reps)
    {
        try (Rma rma = Rma.init(job))
        {
            final RmaAllocation remote = rma.alloc(MAX_CONTIGUOUS_BYTES);
            if (0 == rma.rank())
            {
                if (RankTier.DRIVER != rma.tier(1))
                {
                    System.out.println("# rank 1 is reached through shared memory: set PINMX_RMA_SHARED_MEMORY=0");
                }
                else
                {
                    new ProtocolSweep(rma, remote, reps).run();
                }
            }
            rma.barrier();
            rma.free(remote);
        }
    }

    /** @return the repetitions argument, default {@link #DEFAULT_REPS}. */
    static int repetitions(final String[] args)
    {
        if (args.length > 1)
        {
            throw new IllegalArgumentException("unexpected argument '" + args[1] + "'");
        }
        if (0 == args.length)
        {
            return DEFAULT_REPS;
        }
        try
        {
            final int reps = Integer.parseInt(args[0]);
            if (reps >= 1)
            {
                return reps;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // named below
        }
        throw new IllegalArgumentException("REPS '" + args[0] + "': expected a whole number of rounds, at least 1");
    }

    /** Rank 0 says what is wrong with the arguments every rank got (or a process outside a job). */
    private static boolean reportsUsageErrors(final Map<String, String> env)
    {
        try
        {
            return 0 == JobRank.fromEnvironment(env).rank();
        }
        catch (final IllegalArgumentException noRank)
        {
            return true;
        }
    }

    private interface Operation
    {
        void run(MemorySegment buffer);
    }

    private void run()
    {
        warmUp();
        System.out.println("# " + rma.protocols().costModel());
        System.out.println("# rank 0 on rank 1 through the driver; median of " + reps + " per point, us, after " +
            WARM_UP_ROUNDS + " warm-up rounds; progress: each rank's endpoint progress thread and rank 1's data server");
        strided("get", this::stridedGet);
        strided("put", this::stridedPut);
        strided("acc", this::stridedAcc);
        contiguous("get", b -> rma.get(remote, 1, 0, b));
        contiguous("put", b ->
        {
            rma.put(b, remote, 1, 0);
            rma.fence(1);
        });
        rowsAgainstStrided();
        System.out.println(String.format(Locale.ROOT, "# chosen within %.0f%% of the better protocol: strided %d of %d " +
            "points, contiguous %d of %d", (CHOICE_TOLERANCE - 1) * 100, stridedChoices[0], stridedChoices[1],
            contiguousChoices[0], contiguousChoices[1]));
        final ProtocolCounts counts = rma.protocols().counts();
        System.out.println("# requests by protocol (warm-up included): direct " + counts.direct() + ", pack " +
            counts.pack() + ", zero-copy " + counts.zeroCopy() + ", stream " + counts.stream());
    }

    /**
     * Runs every kind of operation under every setting until the JIT has compiled their paths at both ends: while it
     * compiles, on ranks with one CPU each, its compiler threads take that CPU from the progress thread a scheduler
     * slice at a time, and a point timed then measures the compiler, not the operation (a whole untimed sweep, a few
     * hundred calls of each path, is not enough). Small and medium shapes only:
     * the paths are the same at every size, and their calls are what the JIT counts.
     */
    private void warmUp()
    {
        for (int round = 0; round < WARM_UP_ROUNDS; round++)
        {
            for (int i = 0; i < 3; i++)
            {
                rma.protocols().force(STRIDED[i], CONTIGUOUS[i]);
                for (final int n : WARM_UP_SIDES)
                {
                    stridedGet(n);
                    stridedPut(n);
                    stridedAcc(n);
                }
                for (final long bytes : WARM_UP_CONTIGUOUS_BYTES)
                {
                    final MemorySegment fresh = Arena.ofAuto().allocate(bytes, 4096);
                    rma.get(remote, 1, 0, fresh);
                    rma.put(fresh, remote, 1, 0);
                    rma.fence(1);
                }
            }
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
    }

    private void strided(final String what, final IntConsumer op)
    {
        System.out.println("# strided " + what + " N x N doubles: N, direct, pack, auto (us), auto/best, auto chose, " +
            "chosen/best");
        for (int n = 8; n <= MAX_N; n *= 2)
        {
            final int side = n;
            final ProtocolCounts before = rma.protocols().counts();
            final double[] t = interleaved(i -> rma.protocols().force(STRIDED[i], ContiguousProtocol.AUTO), reps,
                i -> local, b -> op.accept(side));
            final long direct = rma.protocols().counts().direct() - before.direct() - (reps + 1);
            final long pack = rma.protocols().counts().pack() - before.pack() - (reps + 1);
            print(n, t, direct > 0 && pack > 0 ? BOTH : direct > 0 ? 0 : 1, STRIDED, stridedChoices);
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
    }

    private void contiguous(final String what, final Operation op)
    {
        System.out.println("# contiguous " + what + " (memory allocated for each, never declared before): bytes, " +
            "zero-copy, stream, auto (us), auto/best, auto chose, chosen/best");
        for (long bytes = 4096; bytes <= MAX_CONTIGUOUS_BYTES; bytes *= 4)
        {
            final long size = bytes;
            final int n = Math.max(3, (int)Math.min(reps, (64L << 20) / bytes));
            final ProtocolCounts before = rma.protocols().counts();
            final double[] t = interleaved(i -> rma.protocols().force(StridedProtocol.AUTO, CONTIGUOUS[i]), n, i ->
            {
                final MemorySegment fresh = Arena.ofAuto().allocate(size, 4096);
                fresh.fill((byte)i);
                return fresh;
            }, op::run);
            final long zeroCopy = rma.protocols().counts().zeroCopy() - before.zeroCopy() - (n + 1);
            final long stream = rma.protocols().counts().stream() - before.stream() - (n + 1);
            print(bytes, t, zeroCopy > 0 && stream > 0 ? BOTH : zeroCopy > 0 ? 0 : 1, CONTIGUOUS, contiguousChoices);
        }
        rma.protocols().force(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
    }

    /**
     * Prints a point; {@code chose}: the setting the model took every time, or {@link #BOTH} (then its own median
     * stands for its choice: it took zero-copy where the region cache still held a region at a fresh allocation's
     * address, freed and allocated again, and streaming elsewhere).
     */
    private static void print(final long point, final double[] t, final int chose, final Enum<?>[] settings,
        final int[] within)
    {
        final double best = Math.min(t[0], t[1]);
        final double chosen = (BOTH == chose ? t[2] : t[chose]) / best;
        within[0] += chosen <= CHOICE_TOLERANCE ? 1 : 0;
        within[1]++;
        System.out.println(String.format(Locale.ROOT, "%9d %10.1f %10.1f %10.1f %6.2f %-9s %6.2f", point, t[0], t[1],
            t[2], t[2] / best, BOTH == chose ? "both" : settings[chose].name().toLowerCase(Locale.ROOT).replace('_', '-'),
            chosen));
    }

    /**
     * Times the operation under each of the three settings in turn, {@code n} rounds after one untimed round, so
     * that a load that changes during the point weighs on all three alike; each round starts one setting later than
     * the last, so that none always follows the same one (a setting that always runs after streaming pays for the
     * caches and buffers streaming left behind).
     *
     * @return the median time of each setting, us.
     */
    private static double[] interleaved(final IntConsumer setting, final int n, final IntFunction<MemorySegment> memory,
        final Operation op)
    {
        final long[][] ns = new long[3][n];
        for (int round = -1; round < n; round++)
        {
            for (int turn = 0; turn < 3; turn++)
            {
                final int i = (turn + round + 1) % 3;
                setting.accept(i);
                final MemorySegment m = memory.apply(i);
                final long start = System.nanoTime();
                op.run(m);
                if (round >= 0)
                {
                    ns[i][round] = System.nanoTime() - start;
                }
            }
        }
        final double[] median = new double[3];
        for (int i = 0; i < 3; i++)
        {
            Arrays.sort(ns[i]);
            median[i] = ns[i][n / 2] / 1e3;
        }
        return median;
    }

    private void rowsAgainstStrided()
    {
        final int n = 64;
        final double strided = median(() -> stridedGet(n));
        final double rows = median(() ->
        {
            for (int row = 0; row < n; row++)
            {
                rma.get(remote, 1, row * ROW_BYTES, local.asSlice(row * n * (long)Double.BYTES, n * (long)Double.BYTES));
            }
        });
        System.out.println(String.format(Locale.ROOT, "# strided 64 x 64 get %.1f us, 64 contiguous gets %.1f us: " +
            "strided %.1fx faster", strided, rows, rows / strided));
    }

    private long[] counts(final int n)
    {
        return new long[] {n * (long)Double.BYTES, n};
    }

    private void stridedGet(final int n)
    {
        rma.getStrided(remote, 1, 0, new long[] {ROW_BYTES}, local, new long[] {ROW_BYTES}, counts(n), 1);
    }

    private void stridedPut(final int n)
    {
        rma.putStrided(local, new long[] {ROW_BYTES}, remote, 1, 0, new long[] {ROW_BYTES}, counts(n), 1);
        rma.fence(1);
    }

    private void stridedAcc(final int n)
    {
        rma.accStrided(io.pinmx.rma.AccumulateScale.ofDouble(1.0), local, new long[] {ROW_BYTES}, remote, 1, 0,
            new long[] {ROW_BYTES}, counts(n), 1);
        rma.fence(1);
    }

    private double median(final Runnable op)
    {
        op.run();
        final long[] ns = new long[reps];
        for (int i = 0; i < reps; i++)
        {
            final long start = System.nanoTime();
            op.run();
            ns[i] = System.nanoTime() - start;
        }
        Arrays.sort(ns);
        return ns[reps / 2] / 1e3;
    }
}
