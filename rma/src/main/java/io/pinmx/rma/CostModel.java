package io.pinmx.rma;

import java.util.Arrays;
import java.util.Locale;

/**
 * The measured costs that choose a protocol per request for operations through the driver (one per provider, host
 * and interface; {@link Calibration} measures it, {@link CostModelFile} caches it).
 * <p>
 * Strided and vector (the seeds' model): k pieces of n bytes, N = k * n, moved piece by piece cost
 * {@code k * (ts + tn * n)}, packed cost {@code ts + tn * N + 2 * tm * N}. The per-piece start-up of the direct
 * protocol is measured as the direct protocol runs (pieces in flight side by side), the start-up and per-byte cost of
 * one transfer from contiguous transfers, tm from copies. Contiguous: zero-copy and streaming are each a {@link Curve}
 * through transfers of a few sizes from memory not declared before; the cheaper at the request's size wins. (Lines
 * through 128 KiB and 4 MiB alone put 4-64 KiB gets on zero-copy where streaming took half the time: a zero-copy
 * transfer of fresh memory pays its declaration, which a line fitted to large transfers does not see.)
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
    double copyByteNs, Curve getZeroCopy, Curve getStream, Curve putZeroCopy, Curve putStream)
{
    /**
     * How much cheaper than zero-copy streaming must be predicted to be chosen (a fraction of zero-copy's time): memory
     * sent zero-copy stays declared and goes faster the next time, streamed memory does not. Small, so that when the
     * curves are right the choice costs a transfer of fresh memory at most ~10% (0.25 put 64 KiB gets on zero-copy,
     * 1.3x slower than streaming).
     */
    public static final double STREAM_MARGIN = 0.1;

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
     * A cost measured at a few sizes: between two of them it is the straight line through both; below the smallest
     * and above the largest, the nearest segment's line carried on (never falling with size, never below 0).
     *
     * @param bytes the sizes, increasing, at least two.
     * @param ns    the cost at each size.
     */
    public record Curve(long[] bytes, double[] ns)
    {
        /**
         * @throws IllegalArgumentException naming what is wrong: fewer than two sizes, sizes not increasing from 1,
         *                                  lengths that differ, a cost negative or not a number.
         */
        public Curve
        {
            if (null == bytes || null == ns || bytes.length != ns.length || bytes.length < 2)
            {
                throw new IllegalArgumentException("a cost curve needs as many costs as sizes, at least two: sizes " +
                    Arrays.toString(bytes) + ", costs " + Arrays.toString(ns));
            }
            bytes = bytes.clone();
            ns = ns.clone();
            for (int i = 0; i < bytes.length; i++)
            {
                if (bytes[i] < 1 || (i > 0 && bytes[i] <= bytes[i - 1]))
                {
                    throw new IllegalArgumentException("cost curve sizes " + Arrays.toString(bytes) +
                        " are not increasing from 1");
                }
                if (!(ns[i] >= 0) || Double.isInfinite(ns[i]))
                {
                    throw new IllegalArgumentException("cost curve cost " + ns[i] + " at " + bytes[i] +
                        " bytes is not a finite cost >= 0");
                }
            }
        }

        /** @return the cost of {@code size} bytes in ns. */
        public double at(final long size)
        {
            int i = 1;
            while (i < bytes.length - 1 && size > bytes[i])
            {
                i++;
            }
            final double slope = (ns[i] - ns[i - 1]) / (bytes[i] - bytes[i - 1]);
            if (size < bytes[0] || size > bytes[bytes.length - 1])
            {
                final int end = size < bytes[0] ? 0 : bytes.length - 1;
                return Math.max(0, ns[end] + Math.max(0, slope) * (size - bytes[end]));
            }
            return ns[i - 1] + slope * (size - bytes[i - 1]);
        }

        @Override
        public boolean equals(final Object o)
        {
            return o instanceof Curve c && Arrays.equals(bytes, c.bytes) && Arrays.equals(ns, c.ns);
        }

        @Override
        public int hashCode()
        {
            return 31 * Arrays.hashCode(bytes) + Arrays.hashCode(ns);
        }

        @Override
        public long[] bytes()
        {
            return bytes.clone();
        }

        @Override
        public double[] ns()
        {
            return ns.clone();
        }

        @Override
        public String toString()
        {
            final StringBuilder b = new StringBuilder();
            for (int i = 0; i < bytes.length; i++)
            {
                b.append(i > 0 ? ", " : "").append(String.format(Locale.ROOT, "%.1f us at ", ns[i] / 1e3))
                    .append(0 == bytes[i] % 1024 ? (bytes[i] >> 10) + " KiB" : bytes[i] + " B");
            }
            return b.toString();
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

    private static void check(final String name, final Curve curve)
    {
        if (null == curve)
        {
            throw new IllegalArgumentException("cost model has no " + name + " curve");
        }
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
     * @return STREAM for a contiguous transfer of {@code bytes} if its curve is below zero-copy's by more than
     *         {@link #STREAM_MARGIN}, else ZERO_COPY.
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
        return String.format(Locale.ROOT, "CostModel{%s: get ts %.0f ns, tn %.3f ns/B, piece %.0f ns; put ts %.0f ns, " +
            "tn %.3f ns/B, piece %.0f ns; tm %.3f ns/B; get zero-copy %s; get stream %s; put zero-copy %s; " +
            "put stream %s}", key, getContiguous.startNs(), getContiguous.byteNs(), getPieceNs, putContiguous.startNs(),
            putContiguous.byteNs(), putPieceNs, copyByteNs, getZeroCopy, getStream, putZeroCopy, putStream);
    }
}
