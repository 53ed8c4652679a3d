package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Measures the {@link CostModel} of this rank's driver against one peer, with the protocols themselves: contiguous
 * gets and puts of 8 B and 256 KiB (ts, tn), direct strided gets and puts of 64 pieces (the per-piece start-up),
 * copies of 1 MiB (tm), and zero-copy against streamed transfers of 128 KiB and 1 MiB, zero-copy ones from memory
 * allocated for each (never declared before). Each cost is the fastest of a few runs after one warm-up, so a busy
 * moment of a shared host does not become the model. Takes tens of milliseconds; the peer's application is not
 * involved (its data server serves the puts).
 */
final class Calibration
{
    static final long CALIBRATION_BYTES = 2L << 20;
    private static final long SMALL_BYTES = 8;
    private static final long LARGE_BYTES = 256 << 10;
    private static final long COPY_BYTES = 1 << 20;
    private static final int PIECES = 64;
    private static final long GET_PIECE_BYTES = 512;
    private static final long PUT_PIECE_BYTES = 2048;
    private static final long LINE_SMALL_BYTES = 128 << 10;
    private static final long LINE_LARGE_BYTES = 1 << 20;
    private static final int RUNS = 5;
    /** Rounds of every kind of transfer before anything is timed: compiled code, woken threads, warm caches. */
    private static final int WARM_UP_ROUNDS = 20;

    private final DriverTier driver;
    private final ProtocolChoice choice;
    private final RmaAllocation area;
    private final int peer;
    private final Arena arena = Arena.ofShared();
    private final RmaHandle handle = new RmaHandle(true);

    private Calibration(final DriverTier driver, final ProtocolChoice choice, final RmaAllocation area, final int peer)
    {
        this.driver = driver;
        this.choice = choice;
        this.area = area;
        this.peer = peer;
    }

    /**
     * @param area an allocation of at least {@value #CALIBRATION_BYTES} bytes on {@code peer}, reached through the
     *             driver.
     */
    static CostModel measure(final String key, final DriverTier driver, final ProtocolChoice choice,
        final RmaAllocation area, final int peer)
    {
        final StridedProtocol strided = choice.forcedStrided();
        final ContiguousProtocol contiguous = choice.forcedContiguous();
        final Calibration c = new Calibration(driver, choice, area, peer);
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

    private CostModel measure(final String key)
    {
        final MemorySegment buffer = arena.allocate(LINE_LARGE_BYTES, 4096);
        final double copyByteNs = copyNs(buffer) / COPY_BYTES;
        warmUp(buffer);
        choice.force(StridedProtocol.DIRECT, ContiguousProtocol.ZERO_COPY);
        final double getSmall = fastest(() -> get(buffer.asSlice(0, SMALL_BYTES)));
        final double getLarge = fastest(() -> get(buffer.asSlice(0, LARGE_BYTES)));
        final double putSmall = fastest(() -> put(buffer.asSlice(0, SMALL_BYTES)));
        final double putLarge = fastest(() -> put(buffer.asSlice(0, LARGE_BYTES)));
        final CostModel.Line getContiguous = line(SMALL_BYTES, getSmall, LARGE_BYTES, getLarge);
        final CostModel.Line putContiguous = line(SMALL_BYTES, putSmall, LARGE_BYTES, putLarge);
        final double getPieces = fastest(() -> stridedGet(buffer, GET_PIECE_BYTES));
        final double putPieces = fastest(() -> stridedPut(buffer, PUT_PIECE_BYTES));
        final double getPieceNs = Math.max(0, getPieces / PIECES - getContiguous.byteNs() * GET_PIECE_BYTES);
        final double putPieceNs = Math.max(0, putPieces / PIECES - putContiguous.byteNs() * PUT_PIECE_BYTES);
        final CostModel.Line getZeroCopy = line(LINE_SMALL_BYTES, fastest(() -> getFresh(LINE_SMALL_BYTES)),
            LINE_LARGE_BYTES, fastest(() -> getFresh(LINE_LARGE_BYTES)));
        final CostModel.Line putZeroCopy = line(LINE_SMALL_BYTES, fastest(() -> putFresh(LINE_SMALL_BYTES)),
            LINE_LARGE_BYTES, fastest(() -> putFresh(LINE_LARGE_BYTES)));
        choice.force(StridedProtocol.DIRECT, ContiguousProtocol.STREAM);
        final CostModel.Line getStream = line(LINE_SMALL_BYTES, fastest(() -> get(buffer.asSlice(0, LINE_SMALL_BYTES))),
            LINE_LARGE_BYTES, fastest(() -> get(buffer)));
        final CostModel.Line putStream = line(LINE_SMALL_BYTES, fastest(() -> put(buffer.asSlice(0, LINE_SMALL_BYTES))),
            LINE_LARGE_BYTES, fastest(() -> put(buffer)));
        return new CostModel(key, getContiguous, getPieceNs, putContiguous, putPieceNs, copyByteNs, getZeroCopy,
            getStream, putZeroCopy, putStream);
    }

    private void warmUp(final MemorySegment buffer)
    {
        for (int round = 0; round < WARM_UP_ROUNDS; round++)
        {
            choice.force(StridedProtocol.DIRECT, ContiguousProtocol.ZERO_COPY);
            get(buffer.asSlice(0, SMALL_BYTES));
            put(buffer.asSlice(0, SMALL_BYTES));
            stridedGet(buffer, GET_PIECE_BYTES);
            stridedPut(buffer, PUT_PIECE_BYTES);
            choice.force(StridedProtocol.PACK, ContiguousProtocol.STREAM);
            stridedGet(buffer, GET_PIECE_BYTES);
            stridedPut(buffer, PUT_PIECE_BYTES);
            get(buffer.asSlice(0, LINE_SMALL_BYTES));
            put(buffer.asSlice(0, LINE_SMALL_BYTES));
        }
    }

    /** @return the line through two measured points, its start-up and slope clamped at 0. */
    static CostModel.Line line(final long smallBytes, final double smallNs, final long largeBytes, final double largeNs)
    {
        final double byteNs = Math.max(0, (largeNs - smallNs) / (largeBytes - smallBytes));
        return new CostModel.Line(Math.max(0, smallNs - byteNs * smallBytes), byteNs);
    }

    private static double fastest(final Runnable run)
    {
        run.run();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < RUNS; i++)
        {
            final long start = System.nanoTime();
            run.run();
            best = Math.min(best, System.nanoTime() - start);
        }
        return best;
    }

    private double copyNs(final MemorySegment buffer)
    {
        final MemorySegment other = arena.allocate(COPY_BYTES, 4096);
        return fastest(() -> MemorySegment.copy(buffer, 0, other, 0, COPY_BYTES));
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
        driver.write(handle, peer, area.id(), Pieces.strided(patch, from, 0, true), patch, 0, null);
        handle.await();
        driver.fence(peer);
    }

    private void stridedGet(final MemorySegment into, final long pieceBytes)
    {
        final StridedPatch patch = StridedPatch.of(new long[] {pieceBytes, PIECES}, new long[] {2 * pieceBytes},
            new long[] {pieceBytes}, 1);
        driver.read(handle, peer, area, Pieces.strided(patch, into, 0, false), patch, 0);
        handle.await();
    }

    private void stridedPut(final MemorySegment from, final long pieceBytes)
    {
        final StridedPatch patch = StridedPatch.of(new long[] {pieceBytes, PIECES}, new long[] {pieceBytes},
            new long[] {2 * pieceBytes}, 1);
        driver.write(handle, peer, area.id(), Pieces.strided(patch, from, 0, true), patch, 0, null);
        handle.await();
        driver.fence(peer);
    }

    private void getFresh(final long bytes)
    {
        try (Arena fresh = Arena.ofShared())
        {
            get(fresh.allocate(bytes, 4096));
        }
    }

    private void putFresh(final long bytes)
    {
        try (Arena fresh = Arena.ofShared())
        {
            put(fresh.allocate(bytes, 4096));
        }
    }
}
