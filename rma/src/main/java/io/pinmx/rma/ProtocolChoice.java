package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.util.function.Predicate;

/**
 * Chooses the protocol of each request through the driver and counts the choices: the forced protocol if the options
 * force one, else the cheaper by the measured {@link CostModel} (before there is one: direct and zero-copy). Memory
 * the endpoint's progress thread cannot touch (confined to the caller's thread) is always staged: a put of it is
 * packed or streamed, a contiguous get of it streamed (a direct strided get lands in a staging buffer of its own).
 * Memory the endpoint has declared already goes zero-copy where the transfer would use its region (the tier names
 * no region of a put that travels with its request): the model weighs streaming against zero-copy from memory
 * not yet declared, whose declaration is the only cost streaming saves (without this rule, repeated gets into the
 * same buffers stream on every call whenever a calibration puts the two lines within noise of each other).
 * Used by the thread that issues operations.
 */
final class ProtocolChoice
{
    private StridedProtocol strided;
    private ContiguousProtocol contiguous;
    private CostModel model;
    private long direct;
    private long pack;
    private long zeroCopy;
    private long stream;
    private long served;

    ProtocolChoice(final StridedProtocol strided, final ContiguousProtocol contiguous)
    {
        this.strided = strided;
        this.contiguous = contiguous;
    }

    void model(final CostModel measured)
    {
        this.model = measured;
    }

    /** @return the model in use, or null before there is one. */
    CostModel model()
    {
        return model;
    }

    /**
     * Forces protocols (AUTO: the model's choice); the calibration forces each in turn.
     *
     * @throws IllegalArgumentException if either is null.
     */
    void force(final StridedProtocol s, final ContiguousProtocol c)
    {
        if (null == s || null == c)
        {
            throw new IllegalArgumentException("protocols must be given (AUTO to let the model choose): strided " +
                s + ", contiguous " + c);
        }
        this.strided = s;
        this.contiguous = c;
    }

    StridedProtocol forcedStrided()
    {
        return strided;
    }

    ContiguousProtocol forcedContiguous()
    {
        return contiguous;
    }

    /** @return DIRECT or PACK for a strided or vector request of these pieces in this size class, counted. */
    StridedProtocol strided(final CostModel.Kind kind, final CostModel.SizeClass size, final Pieces pieces)
    {
        StridedProtocol p = strided;
        if (CostModel.Kind.GET != kind && !pieces.shareable())
        {
            p = StridedProtocol.PACK;
        }
        else if (StridedProtocol.AUTO == p)
        {
            p = null == model ? StridedProtocol.DIRECT :
                model.strided(kind, size, pieces.count(), pieces.totalBytes / Math.max(1, pieces.count()));
        }
        if (StridedProtocol.DIRECT == p)
        {
            direct++;
        }
        else
        {
            pack++;
        }
        return p;
    }

    /**
     * @param declared asked only when the model would stream: whether the endpoint has the local memory declared
     *                 already and the transfer would use that region (a region cache lookup under its lock, kept off
     *                 the path of small transfers).
     * @return ZERO_COPY or STREAM for a contiguous request (one piece), counted.
     */
    ContiguousProtocol contiguous(final boolean put, final Pieces pieces, final Predicate<MemorySegment> declared)
    {
        ContiguousProtocol p = contiguous;
        if (!pieces.shareable())
        {
            p = ContiguousProtocol.STREAM;
        }
        else if (ContiguousProtocol.AUTO == p)
        {
            p = null == model ? ContiguousProtocol.ZERO_COPY : model.contiguous(put, pieces.totalBytes);
            if (ContiguousProtocol.STREAM == p && declared.test(pieces.local[0]))
            {
                p = ContiguousProtocol.ZERO_COPY;
            }
        }
        if (ContiguousProtocol.ZERO_COPY == p)
        {
            zeroCopy++;
        }
        else
        {
            stream++;
        }
        return p;
    }

    /**
     * @return whether a blocking contiguous get of {@code bytes} goes to the target's data server, counted: when it is
     *         at most {@code maxBytes} and contiguous protocols are the model's to choose.
     */
    boolean served(final long bytes, final long maxBytes)
    {
        if (ContiguousProtocol.AUTO != contiguous || bytes > maxBytes)
        {
            return false;
        }
        served++;
        return true;
    }

    ProtocolCounts counts()
    {
        return new ProtocolCounts(direct, pack, zeroCopy, stream, served);
    }

    /** Forgets the counts (after the calibration's own requests). */
    void resetCounts()
    {
        direct = 0;
        pack = 0;
        zeroCopy = 0;
        stream = 0;
        served = 0;
    }
}
