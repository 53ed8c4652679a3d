package io.pinmx.mpj;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import xdev.XDevException;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.IntUnaryOperator;

/**
 * Messages a probe took out of the endpoint to read their headers (a probe must report the element count, which
 * only the header holds). To keep MPI's per-sender order, a probe takes the probed message together with every
 * earlier message of this init from the same sender, in arrival order; receives take from here before they post
 * to the endpoint. Owned by the device, used under its lock.
 */
final class ProbeStash
{
    /** Taking a probed message waits at most this long for its bytes (a rendezvous is pulled). */
    private static final Duration TAKE_TIMEOUT = Duration.ofMinutes(5);

    private final ArrayDeque<StashedMessage> messages = new ArrayDeque<>();
    private final Endpoint endpoint;
    private final int epoch;
    private final int rank;
    private final IntUnaryOperator rankOfPartner;
    private final Status probed = new Status();

    ProbeStash(final Endpoint endpoint, final int epoch, final int rank, final IntUnaryOperator rankOfPartner)
    {
        this.endpoint = endpoint;
        this.epoch = epoch;
        this.rank = rank;
        this.rankOfPartner = rankOfPartner;
    }

    /**
     * @return the first stashed message a receive from {@code sourceRank} (negative: any) would get, removed.
     */
    StashedMessage take(final int sourceRank, final int context, final int tag, final boolean anyTag)
    {
        for (final Iterator<StashedMessage> it = messages.iterator(); it.hasNext(); )
        {
            final StashedMessage m = it.next();
            if (m.matches(sourceRank, context, tag, anyTag))
            {
                it.remove();
                return m;
            }
        }
        return null;
    }

    /**
     * @param sourcePartner the endpoint's partner id of the source, or ANY_SOURCE.
     * @return the first message a receive would get, left for it, or null if there is none yet.
     */
    StashedMessage find(final int sourceRank, final int sourcePartner, final int context, final int tag,
        final boolean anyTag)
    {
        for (final StashedMessage m : messages)
        {
            if (m.matches(sourceRank, context, tag, anyTag))
            {
                return m;
            }
        }
        if (!endpoint.iprobe(sourcePartner, MatchBits.of(MatchBits.KIND_MESSAGE, epoch, context, anyTag ? 0 : tag),
            MatchBits.mask(anyTag), probed))
        {
            return null;
        }
        final int from = probed.source();
        final long epochBits = MatchBits.of(MatchBits.KIND_MESSAGE, epoch, 0, 0);
        while (endpoint.iprobe(from, epochBits, MatchBits.KIND_AND_EPOCH_MASK, probed))
        {
            final StashedMessage m = takeFromEndpoint(from, probed.matchInfo(), (int)probed.messageLength());
            messages.addLast(m);
            if (m.matches(sourceRank, context, tag, anyTag))
            {
                return m;
            }
        }
        throw new XDevException("mxdev (pinmx) rank " + rank + ": the message a probe saw from rank " +
            rankOfPartner.applyAsInt(from) + " (context " + context + ", tag " + tag + ") went missing");
    }

    private StashedMessage takeFromEndpoint(final int from, final long bits, final int length)
    {
        final byte[] bytes = new byte[length];
        try
        {
            endpoint.recv(from, bits, MatchBits.EXACT_MASK, MemorySegment.ofArray(bytes), probed, TAKE_TIMEOUT);
        }
        catch (final MxException ex)
        {
            throw new XDevException("mxdev (pinmx) rank " + rank + ": taking a probed message from " +
                PinmxRequest.peerAndMatch(rankOfPartner.applyAsInt(from), MatchBits.tag(bits), false,
                MatchBits.context(bits)) + " failed: " + ex.getMessage());
        }
        return new StashedMessage(rankOfPartner.applyAsInt(from), bits, bytes);
    }

    void clear()
    {
        messages.clear();
    }
}
