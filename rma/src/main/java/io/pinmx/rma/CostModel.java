package io.pinmx.rma;

import java.util.Arrays;
import java.util.Locale;

/**
 * The measured costs that choose a protocol per request for operations through the driver (one per provider, host
 * and interface; {@link Calibration} measures it, {@link CostModelFile} caches it).
 * <p>
 * Strided and vector, k pieces of n bytes, N = k * n (the seeds' model, {@code k * (ts + tn * n)} against
 * {@code ts + tn * N + 2 * tm * N}, with what it assumes measured instead): moved by the direct protocol they cost
 * {@code ts + tn * N + k * tp}, packed {@code ts + tn * N + tc * N}; ts and tn are one contiguous transfer's, tp (a
 * piece's own cost) and tc (a packed byte's) are measured per kind of request and per {@link SizeClass} as each
 * protocol runs, from how far apart the two protocols are at two piece sizes, which is what the choice depends on
 * (each protocol's time less one contiguous transfer's would make them small differences of noisy times). The seeds'
 * form charges every piece a whole start-up, which the direct protocol here does not pay (a put's pieces go in one
 * vector message, a get's in reads running side by side), and 2 tm from a memcpy misses what packing costs beyond
 * its copies (the chunks through the stream buffers). The choice reduces to {@code tp <= tc * n}: direct for pieces
 * of at least tp / tc bytes. Each size class has its own tp and tc because both protocols change path where a
 * request stops travelling with its data (packed: copied in with the request, then streamed in chunks; direct: a
 * vector of pieces, then pulled pieces), so one line through probes either side of that point misplaces the
 * crossing. Contiguous: zero-copy and streaming are each a {@link Curve} through transfers of a few sizes from memory
 * not declared before; the cheaper at the request's size wins. Small sizes need points of their own: a zero-copy
 * transfer of fresh memory pays its declaration, which a line fitted to large transfers does not see.
 * <p>
 * A strided or vector put to a passive target may instead be scattered by the target's driver, piece by piece
 * ({@link ModuleWrites}: the NIC-based protocol, no host CPU at the target): {@code ts + tn * N + k * tp} with its own
 * ts, tn and tp ({@link Scatter}), against the data server taking it (host-based), priced alike: the same form fitted
 * through the server's puts of the same shapes, timed in the same rounds, once on each side of the inline limit
 * ({@link Served}: past it the server's put no longer travels with its request and pays a start-up of its own).
 *
 * @param key            provider, host, interface and inline limit the costs were measured for.
 * @param getContiguous  one contiguous get: ts and tn.
 * @param putContiguous  one contiguous put: ts and tn (accumulates too).
 * @param get            a strided or vector get's tp and tc in each size class.
 * @param put            a strided or vector put's tp and tc in each size class.
 * @param acc            a strided or vector accumulate's tp and tc in each size class.
 * @param getZeroCopy    a zero-copy get of memory not declared before.
 * @param getStream      a streamed get.
 * @param putZeroCopy    a zero-copy put of memory not declared before.
 * @param putStream      a streamed put.
 * @param scatter        a put scattered by the target's driver, or null where it was not measured (no passive peer).
 * @param served         a put the passive peer's data server takes by its cheaper protocol, fitted through the same
 *                       shapes as {@code scatter} on either side of the inline limit; null exactly when
 *                       {@code scatter} is.
 */
public record CostModel(String key, Line getContiguous, Line putContiguous, Strided get, Strided put, Strided acc,
    Curve getZeroCopy, Curve getStream, Curve putZeroCopy, Curve putStream, Scatter scatter, Served served)
{
    /**
     * How much cheaper than zero-copy streaming must be predicted to be chosen (a fraction of zero-copy's time): memory
     * sent zero-copy stays declared and goes faster the next time, streamed memory does not. Small, so that when the
     * curves are right the choice costs a transfer of fresh memory at most ~5%, below the 10% the protocol sweep
     * allows, which leaves room for the curves' own error; a larger margin sends small gets zero-copy where streaming
     * is faster.
     */
    public static final double STREAM_MARGIN = 0.05;

    /** What a strided or vector request does; each kind has its own {@link Strided} costs. */
    public enum Kind
    {
        GET,
        PUT,
        ACC
    }

    /**
     * Where a strided or vector request stands against the point where both protocols change path, which the driver
     * tier decides per request.
     */
    public enum SizeClass
    {
        /**
         * A put or accumulate whose data travels with the request (packed: copied in; direct: a vector of the
         * pieces), a get whose packed answer is one chunk.
         */
        SMALL,
        /**
         * Past that: a put's pieces pulled by the target or packed into streamed chunks, a get's pieces pulled or
         * packed at the target and pulled from there.
         */
        LARGE
    }

    /**
     * One size class's costs beyond one contiguous transfer of the same bytes.
     *
     * @param pieceNs    tp: each piece the direct protocol moves.
     * @param packByteNs tc: each byte the pack protocol moves.
     */
    public record Gap(double pieceNs, double packByteNs)
    {
    }

    /**
     * A kind's costs in each size class.
     *
     * @param small the {@link SizeClass#SMALL} requests'.
     * @param large the {@link SizeClass#LARGE} requests'.
     */
    public record Strided(Gap small, Gap large)
    {
        /** @return the costs of {@code size}'s requests. */
        public Gap of(final SizeClass size)
        {
            return SizeClass.SMALL == size ? small : large;
        }
    }

    /**
     * A put the target's driver scatters: {@code startNs + byteNs * N + pieceNs * k} for k pieces of N bytes in all.
     *
     * @param startNs one put's start-up and completion (a fence).
     * @param byteNs  each byte: the copy at the origin's call, the frames, the copy at the target.
     * @param pieceNs each piece beyond that: its own entry, copy and frame boundaries.
     */
    public record Scatter(double startNs, double byteNs, double pieceNs)
    {
        /** @return the cost of k pieces of {@code totalBytes} in all, in ns. */
        public double at(final long pieces, final long totalBytes)
        {
            return startNs + byteNs * totalBytes + pieceNs * pieces;
        }
    }

    /**
     * A put the passive peer's data server takes, a {@link Scatter} fit on each side of where its put changes path:
     * up to {@code inlineBytes} of data a put travels with its request (the pieces copied in or sent as a vector),
     * past that the target pulls the pieces or the packed chunks stream, a step one line through both sides misses.
     * The limit is a strided put's (the inline limit less its request header); a vector put's header grows by its
     * piece list, so such a put a little under the limit is priced as inline though it is pulled.
     *
     * @param inlineBytes the most data a strided put carries in its request.
     * @param inline      puts of at most {@code inlineBytes}.
     * @param pulled      larger puts.
     */
    public record Served(long inlineBytes, Scatter inline, Scatter pulled)
    {
        /**
         * @throws IllegalArgumentException if a fit is missing or the limit is not positive.
         */
        public Served
        {
            if (inlineBytes < 1 || null == inline || null == pulled)
            {
                throw new IllegalArgumentException("served put of inlineBytes " + inlineBytes + ", inline " + inline +
                    ", pulled " + pulled + ": needs a positive limit and a fit on each side");
            }
        }

        /** @return the fit that prices a put of {@code totalBytes}. */
        public Scatter of(final long totalBytes)
        {
            return totalBytes <= inlineBytes ? inline : pulled;
        }

        /** @return the cost of k pieces of {@code totalBytes} in all, in ns. */
        public double at(final long pieces, final long totalBytes)
        {
            return of(totalBytes).at(pieces, totalBytes);
        }
    }

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
        check("get", get);
        check("put", put);
        check("acc", acc);
        check("getContiguous", getContiguous);
        check("putContiguous", putContiguous);
        check("getZeroCopy", getZeroCopy);
        check("getStream", getStream);
        check("putZeroCopy", putZeroCopy);
        check("putStream", putStream);
        if ((null == scatter) != (null == served))
        {
            throw new IllegalArgumentException("cost model with " + (null == scatter ? "no" : "a") + " scatter and " +
                (null == served ? "no" : "a") + " served put: a passive peer's costs come in pairs");
        }
        check("scatter", scatter);
        if (null != served)
        {
            check("served.inline", served.inline());
            check("served.pulled", served.pulled());
        }
    }

    private static void check(final String name, final Scatter scatter)
    {
        if (null != scatter)
        {
            check(name + ".startNs", scatter.startNs());
            check(name + ".byteNs", scatter.byteNs());
            check(name + ".pieceNs", scatter.pieceNs());
        }
    }

    /** A model without a passive peer's costs: every strided or vector put to a passive target is scattered. */
    public CostModel(final String key, final Line getContiguous, final Line putContiguous, final Strided get,
        final Strided put, final Strided acc, final Curve getZeroCopy, final Curve getStream, final Curve putZeroCopy,
        final Curve putStream)
    {
        this(key, getContiguous, putContiguous, get, put, acc, getZeroCopy, getStream, putZeroCopy, putStream, null,
            null);
    }

    /** @return this model with a passive peer's costs: its driver's scatter and its data server's put (or neither). */
    public CostModel withScatter(final Scatter measured, final Served measuredServed)
    {
        return new CostModel(key, getContiguous, putContiguous, get, put, acc, getZeroCopy, getStream, putZeroCopy,
            putStream, measured, measuredServed);
    }

    private static void check(final String name, final Curve curve)
    {
        if (null == curve)
        {
            throw new IllegalArgumentException("cost model has no " + name + " curve");
        }
    }

    private static void check(final String name, final Strided strided)
    {
        if (null == strided)
        {
            throw new IllegalArgumentException("cost model has no " + name + " strided costs");
        }
        for (final SizeClass size : SizeClass.values())
        {
            final Gap gap = strided.of(size);
            final String sized = name + "." + size.name().toLowerCase(Locale.ROOT);
            if (null == gap)
            {
                throw new IllegalArgumentException("cost model has no " + sized + " strided costs");
            }
            check(sized + ".pieceNs", gap.pieceNs());
            check(sized + ".packByteNs", gap.packByteNs());
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

    /** @return the direct protocol's cost in ns: ts + tn * N + k * tp. */
    public double directNs(final Kind kind, final SizeClass size, final long pieces, final long pieceBytes)
    {
        return line(kind).at(pieces * pieceBytes) + pieces * strided(kind).of(size).pieceNs();
    }

    /** @return the pack protocol's cost in ns: ts + tn * N + tc * N. */
    public double packNs(final Kind kind, final SizeClass size, final long pieces, final long pieceBytes)
    {
        final long total = pieces * pieceBytes;
        return line(kind).at(total) + strided(kind).of(size).packByteNs() * total;
    }

    /** @return the cheaper of DIRECT and PACK for k pieces of n bytes in their size class (DIRECT when equal). */
    public StridedProtocol strided(final Kind kind, final SizeClass size, final long pieces, final long pieceBytes)
    {
        return directNs(kind, size, pieces, pieceBytes) <= packNs(kind, size, pieces, pieceBytes) ?
            StridedProtocol.DIRECT : StridedProtocol.PACK;
    }

    /**
     * @return whether the target's driver scattering a put of k pieces of N bytes in all is predicted no dearer than
     *         its data server taking it, both priced by their fits through the same shapes (true too when they were
     *         not measured: the driver takes every write then).
     */
    public boolean scatterByModule(final long pieces, final long totalBytes)
    {
        return null == scatter || scatter.at(pieces, totalBytes) <= served.at(pieces, totalBytes);
    }

    private Line line(final Kind kind)
    {
        return Kind.GET == kind ? getContiguous : putContiguous;
    }

    private Strided strided(final Kind kind)
    {
        return switch (kind)
        {
            case GET -> get;
            case PUT -> put;
            case ACC -> acc;
        };
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
        return String.format(Locale.ROOT, "CostModel{%s: get ts %.0f ns, tn %.3f ns/B, %s; put ts %.0f ns, " +
            "tn %.3f ns/B, %s; acc %s; get zero-copy %s; get stream %s; put zero-copy %s; put stream %s; %s}", key,
            getContiguous.startNs(), getContiguous.byteNs(), text(get), putContiguous.startNs(), putContiguous.byteNs(),
            text(put), text(acc), getZeroCopy, getStream, putZeroCopy, putStream, null == scatter ?
                "scatter not measured" : text("scatter", scatter) + "; " + text("served inline", served.inline()) +
                "; " + text("served past " + served.inlineBytes() + " B", served.pulled()));
    }

    private static String text(final String name, final Scatter s)
    {
        return String.format(Locale.ROOT, "%s ts %.0f ns, tn %.3f ns/B, tp %.0f ns", name, s.startNs(), s.byteNs(),
            s.pieceNs());
    }

    private static String text(final Strided strided)
    {
        return String.format(Locale.ROOT, "small tp %.0f ns, tc %.3f ns/B, large tp %.0f ns, tc %.3f ns/B",
            strided.small().pieceNs(), strided.small().packByteNs(), strided.large().pieceNs(),
            strided.large().packByteNs());
    }
}
