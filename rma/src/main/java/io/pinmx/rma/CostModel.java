package io.pinmx.rma;

/**
 * The measured costs that choose a protocol per request for operations through the driver (one per provider, host
 * and interface; {@link Calibration} measures it, {@link CostModelFile} caches it).
 * <p>
 * Strided and vector (the seeds' model): k pieces of n bytes, N = k * n, moved piece by piece cost
 * {@code k * (ts + tn * n)}, packed cost {@code ts + tn * N + 2 * tm * N}. The per-piece start-up of the direct
 * protocol is measured as the direct protocol runs (pieces in flight side by side), the start-up and per-byte cost of
 * one transfer from contiguous transfers, tm from copies. Contiguous: zero-copy and streaming are each a line
 * (start-up, per byte) measured from memory not declared before; the cheaper at the request's size wins.
 *
 * @param key            provider, host and interface the costs were measured for.
 * @param getContiguous  one contiguous get: ts and tn.
 * @param getPieceNs     ts per piece of a direct get.
 * @param putContiguous  one contiguous put: ts and tn.
 * @param putPieceNs     ts per piece of a direct put (accumulates too).
 * @param copyByteNs     tm: one byte copied (packing or unpacking).
 * @param getZeroCopy    a zero-copy get of memory not declared before.
 * @param getStream      a streamed get.
 * @param putZeroCopy    a zero-copy put of memory not declared before.
 * @param putStream      a streamed put.
 */
public record CostModel(String key, Line getContiguous, double getPieceNs, Line putContiguous, double putPieceNs,
    double copyByteNs, Line getZeroCopy, Line getStream, Line putZeroCopy, Line putStream)
{
    /** How much cheaper than zero-copy streaming must be predicted to be chosen (a fraction of zero-copy's time). */
    public static final double STREAM_MARGIN = 0.25;

    /**
     * A linear cost: {@code startNs + byteNs * bytes}.
     */
    public record Line(double startNs, double byteNs)
    {
        /** @return the cost of {@code bytes} in ns. */
        public double at(final long bytes)
        {
            return startNs + byteNs * bytes;
        }
    }

    /**
     * @throws IllegalArgumentException naming the first cost that is negative or not a number.
     */
    public CostModel
    {
        if (null == key || key.isEmpty())
        {
            throw new IllegalArgumentException("cost model without a key");
        }
        check("getPieceNs", getPieceNs);
        check("putPieceNs", putPieceNs);
        check("copyByteNs", copyByteNs);
        check("getContiguous", getContiguous);
        check("putContiguous", putContiguous);
        check("getZeroCopy", getZeroCopy);
        check("getStream", getStream);
        check("putZeroCopy", putZeroCopy);
        check("putStream", putStream);
    }

    private static void check(final String name, final Line line)
    {
        if (null == line)
        {
            throw new IllegalArgumentException("cost model has no " + name + " line");
        }
        check(name + ".startNs", line.startNs());
        check(name + ".byteNs", line.byteNs());
    }

    private static void check(final String name, final double value)
    {
        if (!(value >= 0) || Double.isInfinite(value))
        {
            throw new IllegalArgumentException("cost model " + name + " = " + value + " is not a finite cost >= 0");
        }
    }

    /** @return the direct protocol's cost in ns: k * (ts + tn * n). */
    public double directNs(final boolean put, final long pieces, final long pieceBytes)
    {
        final Line transfer = put ? putContiguous : getContiguous;
        return pieces * ((put ? putPieceNs : getPieceNs) + transfer.byteNs() * pieceBytes);
    }

    /** @return the pack protocol's cost in ns: ts + tn * N + 2 * tm * N. */
    public double packNs(final boolean put, final long pieces, final long pieceBytes)
    {
        final long total = pieces * pieceBytes;
        return (put ? putContiguous : getContiguous).at(total) + 2 * copyByteNs * total;
    }

    /** @return the cheaper of DIRECT and PACK for k pieces of n bytes (DIRECT when equal). */
    public StridedProtocol strided(final boolean put, final long pieces, final long pieceBytes)
    {
        return directNs(put, pieces, pieceBytes) <= packNs(put, pieces, pieceBytes) ? StridedProtocol.DIRECT :
            StridedProtocol.PACK;
    }

    /**
     * @return STREAM for a contiguous transfer of {@code bytes} if its line is below zero-copy's by more than
     *         {@link #STREAM_MARGIN}, else ZERO_COPY. The margin is there because the choice is not symmetric: a
     *         zero-copy transfer's declaration is paid once (the region cache keeps it for the next transfer of the
     *         same memory) where streaming copies every time, and the lines of calibrations a minute apart crossed
     *         within 10% of each other while streamed gets of 4-16 MiB ran 1.3-3x slower than zero-copy ones.
     */
    public ContiguousProtocol contiguous(final boolean put, final long bytes)
    {
        final double zeroCopy = (put ? putZeroCopy : getZeroCopy).at(bytes);
        final double stream = (put ? putStream : getStream).at(bytes);
        return stream < zeroCopy * (1 - STREAM_MARGIN) ? ContiguousProtocol.STREAM : ContiguousProtocol.ZERO_COPY;
    }

    @Override
    public String toString()
    {
        return String.format("CostModel{%s: get ts %.0f ns, tn %.3f ns/B, piece %.0f ns; put ts %.0f ns, tn %.3f ns/B, " +
            "piece %.0f ns; tm %.3f ns/B; get zero-copy %.0f ns + %.3f ns/B, stream %.0f ns + %.3f ns/B; put zero-copy " +
            "%.0f ns + %.3f ns/B, stream %.0f ns + %.3f ns/B}", key, getContiguous.startNs(), getContiguous.byteNs(),
            getPieceNs, putContiguous.startNs(), putContiguous.byteNs(), putPieceNs, copyByteNs, getZeroCopy.startNs(),
            getZeroCopy.byteNs(), getStream.startNs(), getStream.byteNs(), putZeroCopy.startNs(), putZeroCopy.byteNs(),
            putStream.startNs(), putStream.byteNs());
    }
}
