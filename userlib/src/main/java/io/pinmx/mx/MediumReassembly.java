package io.pinmx.mx;

import io.pinmx.mx.match.UnexpectedMessage;

/**
 * The medium message now arriving from one partner: where its fragments go (a matched
 * receive or an unexpected message) and the sequence number naming it. Fragments arrive in
 * order (the receive tracker accepts strictly in order), so one message at a time suffices.
 */
final class MediumReassembly
{
    private Request request;
    private UnexpectedMessage unexpected;
    private int messageSeq;

    void intoRequest(final Request r, final int seq)
    {
        request = r;
        unexpected = null;
        messageSeq = seq;
    }

    void intoUnexpected(final UnexpectedMessage m, final int seq)
    {
        request = null;
        unexpected = m;
        messageSeq = seq;
    }

    /**
     * A receive matched the unexpected message now arriving: its later fragments go to the receive.
     */
    void redirectTo(final Request r)
    {
        request = r;
        unexpected = null;
    }

    /**
     * @return true if a later fragment of message {@code seq} has somewhere to go.
     */
    boolean continues(final int seq)
    {
        return messageSeq == seq && (null != request || null != unexpected);
    }

    Request request()
    {
        return request;
    }

    UnexpectedMessage unexpected()
    {
        return unexpected;
    }

    /**
     * @return true while a matched receive waits for fragments (a reason to expect to hear from the partner).
     */
    boolean feedsRequest()
    {
        return null != request;
    }

    void clear()
    {
        request = null;
        unexpected = null;
    }
}
