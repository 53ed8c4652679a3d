package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.match.MatchInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Per target rank, the puts and accumulates sent to its data server since its last fence: whether there are any, and
 * the answer the first of them asked for ({@link RequestHeader#answerApplied}). While the write that asked is the last
 * one sent to the rank, that answer is the fence (the server serves one origin's requests in order), so a put + fence
 * costs one round trip, as a fetch-and-add does, not two. Owned by the thread that issues operations.
 */
final class WritesSinceFence
{
    private final Endpoint endpoint;
    private final boolean[] unfenced;
    /** Per rank, the answer the first write after a fence asked for and nobody received yet, or null. */
    private final Request[] answer;
    /** Per rank, whether the write that asked for {@link #answer} is the last write sent to it. */
    private final boolean[] answerIsLast;
    /** Where each rank's {@link #answer} is received. */
    private final MemorySegment answers;

    WritesSinceFence(final Endpoint endpoint, final int ranks)
    {
        this.endpoint = endpoint;
        this.unfenced = new boolean[ranks];
        this.answer = new Request[ranks];
        this.answerIsLast = new boolean[ranks];
        this.answers = Arena.ofAuto().allocate((long)Long.BYTES * ranks, 8);
    }

    /** @return whether a put or accumulate went to the rank's data server since its last fence. */
    boolean any(final int rank)
    {
        return unfenced[rank];
    }

    /**
     * A put or accumulate to the rank's data server is about to be sent.
     *
     * @return whether it is the first since the rank's last fence (it may then ask to be answered once applied).
     */
    boolean sending(final int rank)
    {
        final boolean first = !unfenced[rank];
        unfenced[rank] = true;
        answerIsLast[rank] = false;
        return first;
    }

    /** The write of {@code sequence} to the rank asks to be answered once applied: posts the receive of the answer. */
    void expectAnswer(final int rank, final Partner partner, final long sequence)
    {
        answer[rank] = endpoint.irecv(partner.id(), RmaTags.of(RmaTags.REPLY, sequence), MatchInfo.MASK_ALL,
            answers.asSlice((long)Long.BYTES * rank, Long.BYTES));
        answerIsLast[rank] = true;
    }

    /** @return whether the last write sent to the rank asked to be answered once applied: that answer is its fence. */
    boolean answerIsLast(final int rank)
    {
        return answerIsLast[rank];
    }

    /** The send of the last write to the rank was refused: an answer it asked for will not come, and is forgotten. */
    void refused(final int rank)
    {
        if (answerIsLast[rank])
        {
            Completions.forget(new Request[] {answer[rank]}, 0);
            answer[rank] = null;
            answerIsLast[rank] = false;
        }
    }

    /** @return the receive of the answer a write to the rank asked for, now the caller's to await, or null. */
    Request takeAnswer(final int rank)
    {
        final Request taken = answer[rank];
        answer[rank] = null;
        return taken;
    }

    /** The rank answered a fence, or the write a fence waited for: every write sent to it arrived. */
    void fenced(final int rank)
    {
        unfenced[rank] = false;
        answerIsLast[rank] = false;
    }
}
