package io.pinmx.rma;

import io.pinmx.mx.MxException;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;

/**
 * The exceptions an operation through the driver ends with when its target rank or the endpoint fails, each naming
 * the rank and the endpoint's cause.
 */
final class RankFailures
{
    private RankFailures()
    {
    }

    /**
     * The endpoint refused to start an operation: the rank's partner failed (it died), or the endpoint closed or
     * stopped (a progress round failed: the message names its cause).
     */
    static RmaException refused(final int rank, final MxException ex)
    {
        return new RmaException("operation on rank " + rank + " refused: " + ex.getMessage(), ex);
    }

    static RmaException failure(final int rank, final Request r)
    {
        return new RmaException("operation on rank " + rank + " failed: " + r.status().error());
    }

    /** Releases an answer's receive that completed; throws naming the rank if it failed. */
    static void releaseAnswer(final int rank, final Request answer)
    {
        final RmaException error = RequestState.FAILED == answer.state() ? failure(rank, answer) : null;
        answer.release();
        if (null != error)
        {
            throw error;
        }
    }
}
