package io.pinmx.apps.matmul;

import io.pinmx.rma.ReduceOp;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * SRUMMA over rma: each rank computes its block of C chunk by chunk, fetching the next chunks' A pieces (a strided
 * get: a column band of a remote A block) and B pieces (a contiguous band of rows of a remote B block) by
 * non-blocking gets, one aggregate handle per chunk, into buffer sets of their own while it multiplies the current
 * chunk (AHEAD chunks in flight; 1 is double buffering). Pieces a rank holds itself are read in place. Beside the
 * timed product, one pass makes the same gets blocking with no computing (the communication the product has to hide)
 * and one does the same unpacking and multiplying with no communication call. The communication the product did not
 * hide is its time beyond its own thread's CPU time in unpacking and multiplying: the time in communication calls and
 * the time other threads (the endpoint's progress thread serving pulls) held the rank's CPU while it multiplied. The
 * product minus the compute-only pass of the same round is a second, noisier view of the same thing: the two passes
 * differ by the speed each computes at.
 * <p>
 * A chunk is multiplied in panels of rows; between panels a rank tests the next chunk's gets and offers its CPU to its
 * communication threads ({@link Rma#progress()}), whether or not it still has gets in flight: the other ranks may
 * still be pulling from it, and through the driver its progress thread serves those pulls on the CPU this rank
 * multiplies on, a block per round trip, so without the offer each block waits for the multiply's time slice to end.
 */
final class Srumma implements AutoCloseable
{
    static final String VERSION = "one-sided rma";
    /** Chunks fetched ahead of the one being multiplied unless the command line says otherwise. */
    static final int DEFAULT_CHUNKS_AHEAD = 1;
    /** About this many multiply-adds between two tests of the gets in flight. */
    private static final long MULTIPLY_ADDS_PER_TEST = 1L << 20;
    /**
     * Rounds of each pass: the fastest product counts as the product's time, the median of the others, so a
     * disturbance in one round does not decide the figures.
     */
    static final int ROUNDS = 7;
    /** The names of the threads pinmx's layers start. */
    private static final String COMM_THREAD_PREFIX = "pinmx-";
    /** The CPU clocks of the multiplying thread and of the communication threads. */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Where each kind of communication call stands in {@link #calls()}. */
    private static final int ISSUE = 0;
    private static final int TEST = 1;
    private static final int AWAIT = 2;
    private static final int TESTS = 3;
    private static final int PROGRESS = 4;

    private final Rma rma;
    private final BlockGrid grid;
    private final int rank;
    private final int m;
    private final int n;
    private final int w;
    private final RmaAllocation a;
    private final RmaAllocation b;
    private final Arena arena = Arena.ofShared();
    /** One buffer set per chunk in flight and one for the chunk being multiplied. */
    private final int buffers;
    private final MemorySegment[] aBuffers;
    private final MemorySegment[] bBuffers;
    private final double[] aChunk;
    private final double[] bChunk;
    private final int panelRows;
    /**
     * The product's time in communication calls by kind: issuing, testing and waiting for gets, offering the CPU to
     * the communication threads.
     */
    private long issueNs;
    private long testNs;
    private long awaitNs;
    private long tests;
    private long progressNs;
    /** The product's thread's CPU time in unpacking and multiplying. */
    private long computeCpuNs;
    /** {@link #calls()} of the fastest product. */
    private double[] fastestCalls;
    /** The median over rounds of the product minus the compute-only pass of its round, seconds. */
    private double productBeyondPassSeconds;
    /** The median over rounds of the CPU time this JVM's pinmx threads took during the product, seconds. */
    private double commThreadsSeconds;
    /** This JVM's pinmx threads (the endpoint's progress thread, rma's data server...), found before the rounds. */
    private long[] commThreadIds;

    /** Collective: allocates this rank's blocks of A and B and fills them. */
    Srumma(final Rma rma, final BlockGrid grid, final int chunksAhead)
    {
        this.rma = rma;
        this.grid = grid;
        buffers = Math.max(2, Math.min(chunksAhead + 1, grid.chunks()));
        aBuffers = new MemorySegment[buffers];
        bBuffers = new MemorySegment[buffers];
        rank = rma.rank();
        m = grid.blockRows();
        n = grid.blockCols();
        w = grid.chunk();
        a = rma.alloc((long)m * n * Double.BYTES);
        b = rma.alloc((long)m * n * Double.BYTES);
        final int firstRow = grid.gridRow(rank) * m;
        final int firstCol = grid.gridCol(rank) * n;
        final MemorySegment aLocal = a.local();
        final MemorySegment bLocal = b.local();
        for (int i = 0; i < m; i++)
        {
            for (int j = 0; j < n; j++)
            {
                final long index = (long)i * n + j;
                aLocal.setAtIndex(ValueLayout.JAVA_DOUBLE, index, ClosedFormProduct.a(firstRow + i, firstCol + j));
                bLocal.setAtIndex(ValueLayout.JAVA_DOUBLE, index, ClosedFormProduct.b(firstRow + i, firstCol + j));
            }
        }
        for (int s = 0; s < buffers; s++)
        {
            aBuffers[s] = arena.allocate((long)m * w * Double.BYTES, Double.BYTES);
            bBuffers[s] = arena.allocate((long)w * n * Double.BYTES, Double.BYTES);
        }
        aChunk = new double[m * w];
        bChunk = new double[w * n];
        panelRows = (int)Math.clamp(MULTIPLY_ADDS_PER_TEST / ((long)w * n), 1, m);
    }

    /**
     * Collective: {@link #ROUNDS} rounds of the communication-only pass, the computation-only pass and the product
     * (each product checked). The product's time is its fastest round's; the transfer, the compute-only pass and the
     * communication not hidden are medians over the rounds, each rank's, then the slowest rank's.
     */
    MatmulRun run()
    {
        Dgemm.warmUp();
        final double[] c = new double[m * n];
        final long[] transferNs = new long[ROUNDS];
        final long[] computeNs = new long[ROUNDS];
        final long[] unhiddenNs = new long[ROUNDS];
        final long[] beyondPassNs = new long[ROUNDS];
        final long[] commThreadsNs = new long[ROUNDS];
        commThreadIds = Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> thread.getName().startsWith(COMM_THREAD_PREFIX)).mapToLong(Thread::threadId).toArray();
        long productNs = Long.MAX_VALUE;
        double error = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            rma.barrier();
            transferNs[round] = transfer();
            rma.barrier();
            computeNs[round] = compute(c);
            rma.barrier();
            Arrays.fill(c, 0.0);
            final long commStartNs = commThreadsCpuNs();
            final long ns = product(c);
            commThreadsNs[round] = commThreadsCpuNs() - commStartNs;
            unhiddenNs[round] = ns - computeCpuNs;
            beyondPassNs[round] = ns - computeNs[round];
            if (ns < productNs)
            {
                productNs = ns;
                fastestCalls = calls();
            }
            error = Math.max(error, new ClosedFormProduct(grid.order())
                .maxError(c, m, n, grid.gridRow(rank) * m, grid.gridCol(rank) * n));
        }
        final double waitSeconds = fastestCalls[ISSUE] + fastestCalls[TEST] + fastestCalls[AWAIT] +
            fastestCalls[PROGRESS];
        final double[] max = {productNs / 1e9, median(transferNs) / 1e9, median(computeNs) / 1e9, waitSeconds,
            median(unhiddenNs) / 1e9, median(beyondPassNs) / 1e9, median(commThreadsNs) / 1e9, error};
        rma.messages().reduce(ReduceOp.MAX, max);
        productBeyondPassSeconds = max[5];
        commThreadsSeconds = max[6];
        return new MatmulRun(grid, VERSION, max[0], max[1], max[2], max[3], max[4], max[7]);
    }

    /** The CPU time the pinmx threads have taken so far (a thread that ended counts nothing). */
    private long commThreadsCpuNs()
    {
        long sum = 0;
        for (final long id : commThreadIds)
        {
            sum += Math.max(0, THREADS.getThreadCpuTime(id));
        }
        return sum;
    }

    private static long median(final long[] rounds)
    {
        final long[] sorted = rounds.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** Every chunk's gets, blocking, nothing computed: the communication the product has to hide. */
    private long transfer()
    {
        final long start = System.nanoTime();
        for (int t = 0; t < grid.chunks(); t++)
        {
            final RmaHandle handle = fetch(t, 0);
            if (null != handle)
            {
                handle.await();
            }
        }
        return System.nanoTime() - start;
    }

    /**
     * The product's unpacking and multiplying with no communication call: remote pieces are read from the buffers
     * the transfer pass filled, so the arithmetic is on the same kind of values. C is left with no meaning.
     */
    private long compute(final double[] c)
    {
        final long start = System.nanoTime();
        final int first = grid.firstChunk(rank);
        for (int step = 0; step < grid.chunks(); step++)
        {
            unpack((first + step) % grid.chunks(), 0);
            multiply(c, null, false);
        }
        return System.nanoTime() - start;
    }

    /** The timed product into C (zeroed), gets overlapped with the multiply. */
    private long product(final double[] c)
    {
        issueNs = 0;
        testNs = 0;
        awaitNs = 0;
        tests = 0;
        progressNs = 0;
        computeCpuNs = 0;
        final long start = System.nanoTime();
        final int first = grid.firstChunk(rank);
        final int chunks = grid.chunks();
        final RmaHandle[] pending = new RmaHandle[buffers];
        for (int ahead = 0; ahead < buffers - 1 && ahead < chunks; ahead++)
        {
            pending[ahead] = timedFetch((first + ahead) % chunks, ahead);
        }
        for (int step = 0; step < chunks; step++)
        {
            final int t = (first + step) % chunks;
            final int buffer = step % buffers;
            if (null != pending[buffer])
            {
                final long waitStart = System.nanoTime();
                pending[buffer].await();
                awaitNs += System.nanoTime() - waitStart;
                pending[buffer] = null;
            }
            final int next = step + buffers - 1;
            if (next < chunks)
            {
                pending[next % buffers] = timedFetch((first + next) % chunks, next % buffers);
            }
            final long cpuStart = THREADS.getCurrentThreadCpuTime();
            unpack(t, buffer);
            multiply(c, pending[(step + 1) % buffers], true);
            computeCpuNs += THREADS.getCurrentThreadCpuTime() - cpuStart;
        }
        return System.nanoTime() - start;
    }

    /**
     * C += the current chunk's product, panel by panel; when communicating, testing the next chunk's gets (null:
     * none) between panels until they are done and offering the CPU to the communication threads after every panel
     * but the last.
     */
    private void multiply(final double[] c, final RmaHandle inFlight, final boolean communicating)
    {
        boolean done = null == inFlight;
        for (int i = 0; i < m; i += panelRows)
        {
            final int rows = Math.min(panelRows, m - i);
            Dgemm.multiplyAdd(rows, n, w, aChunk, i * w, w, bChunk, 0, n, c, i * n, n);
            final long callsCpuStart = communicating ? THREADS.getCurrentThreadCpuTime() : 0;
            if (!done)
            {
                final long testStart = System.nanoTime();
                done = inFlight.test();
                testNs += System.nanoTime() - testStart;
                tests++;
            }
            if (communicating && i + rows < m)
            {
                final long progressStart = System.nanoTime();
                rma.progress();
                progressNs += System.nanoTime() - progressStart;
            }
            if (communicating)
            {
                computeCpuNs -= THREADS.getCurrentThreadCpuTime() - callsCpuStart;
            }
        }
    }

    private RmaHandle timedFetch(final int t, final int s)
    {
        final long issueStart = System.nanoTime();
        final RmaHandle handle = fetch(t, s);
        issueNs += System.nanoTime() - issueStart;
        return handle;
    }

    /** Starts the gets of chunk t's pieces held elsewhere into buffer set s; null when this rank holds both. */
    private RmaHandle fetch(final int t, final int s)
    {
        RmaHandle handle = null;
        final int aOwner = grid.rankAt(grid.gridRow(rank), grid.aOwnerCol(t));
        if (aOwner != rank)
        {
            handle = rma.aggregateHandle();
            rma.nbGetStrided(a, aOwner, (long)grid.aLocalCol(t) * Double.BYTES, new long[] {(long)n * Double.BYTES},
                aBuffers[s], new long[] {(long)w * Double.BYTES}, new long[] {(long)w * Double.BYTES, m}, 1, handle);
        }
        final int bOwner = grid.rankAt(grid.bOwnerRow(t), grid.gridCol(rank));
        if (bOwner != rank)
        {
            handle = null == handle ? rma.aggregateHandle() : handle;
            rma.nbGet(b, bOwner, (long)grid.bLocalRow(t) * n * Double.BYTES, bBuffers[s], handle);
        }
        return handle;
    }

    /** The last product's calls: seconds issuing, testing and awaiting gets, tests, seconds offering the CPU. */
    private double[] calls()
    {
        final double[] calls = new double[PROGRESS + 1];
        calls[ISSUE] = issueNs / 1e9;
        calls[TEST] = testNs / 1e9;
        calls[AWAIT] = awaitNs / 1e9;
        calls[TESTS] = tests;
        calls[PROGRESS] = progressNs / 1e9;
        return calls;
    }

    /**
     * Collective, after {@link #run()}: the fastest product's communication calls by kind, slowest rank each: seconds
     * issuing, testing and waiting for gets, the number of tests, and seconds offering the CPU to the communication
     * threads; then the median product minus the compute-only pass of its round, and the median CPU time this JVM's
     * pinmx threads took during the product (slowest rank each).
     */
    double[] communicationPhases()
    {
        final double[] phases = Arrays.copyOf(fastestCalls, fastestCalls.length + 2);
        rma.messages().reduce(ReduceOp.MAX, phases);
        phases[fastestCalls.length] = productBeyondPassSeconds;
        phases[fastestCalls.length + 1] = commThreadsSeconds;
        return phases;
    }

    /** Copies chunk t's pieces, from buffer set s or in place, into the arrays the kernel reads. */
    private void unpack(final int t, final int s)
    {
        final boolean aMine = grid.aOwnerCol(t) == grid.gridCol(rank);
        final MemorySegment aSource = aMine ? a.local() : aBuffers[s];
        final long aRowLength = aMine ? n : w;
        final long aFirst = aMine ? grid.aLocalCol(t) : 0;
        for (int i = 0; i < m; i++)
        {
            MemorySegment.copy(aSource, ValueLayout.JAVA_DOUBLE, (i * aRowLength + aFirst) * Double.BYTES, aChunk,
                i * w, w);
        }
        final boolean bMine = grid.bOwnerRow(t) == grid.gridRow(rank);
        MemorySegment.copy(bMine ? b.local() : bBuffers[s], ValueLayout.JAVA_DOUBLE,
            bMine ? (long)grid.bLocalRow(t) * n * Double.BYTES : 0, bChunk, 0, w * n);
    }

    /** Collective. */
    @Override
    public void close()
    {
        rma.free(b);
        rma.free(a);
        arena.close();
    }
}
