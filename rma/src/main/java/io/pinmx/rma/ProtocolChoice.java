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
 * A strided or vector put to a passive target goes to the target's driver (scattered per piece) or to its data server
 * ({@link #scatterByModule}): the server only while it is known to answer, since a stopped target's server cannot.
 * Used by the thread that issues operations.
 */
final class ProtocolChoice
{
    private StridedProtocol strided;
    private ContiguousProtocol contiguous;
    private PassivePuts passivePuts;
    private CostModel model;
    private long direct;
    private long pack;
    private long zeroCopy;
    private long stream;
    private long served;

    ProtocolChoice(final StridedProtocol strided, final ContiguousProtocol contiguous, final PassivePuts passivePuts)
    {
        this.strided = strided;
        this.contiguous = contiguous;
        this.passivePuts = passivePuts;
    }

    /** What rank's data server a passive-put choice may take: whether it is known to answer now. */
    interface Serving
    {
        boolean answers(int rank);
    }

    /**
     * @param serving asked only when the model prefers the data server: a stopped target's server takes no put, so
     *                the driver does whenever the server is not known to answer.
     * @return whether a strided or vector put to a passive target's slice goes to the target's driver (true) or to its
     *         data server: the forced place if the options force one, else the model's cheaper while the server
     *         answers (the driver before there is a model, or one without the scatter's costs).
     */
    boolean scatterByModule(final int rank, final Pieces pieces, final Serving serving)
    {
        return switch (passivePuts)
        {
            case MODULE -> true;
            case SERVER -> false;
            case AUTO -> null == model ||
                model.scatterByModule(pieces.count(), pieces.totalBytes) ||
                !serving.answers(rank);
        };
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

    /**
     * Forces where strided and vector puts to passive targets go (AUTO: the model's choice).
     *
     * @throws IllegalArgumentException if it is null.
     */
    void forcePassivePuts(final PassivePuts where)
    {
        if (null == where)
        {
            throw new IllegalArgumentException("passive puts must be given (AUTO to let the model choose)");
        }
        this.passivePuts = where;
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
