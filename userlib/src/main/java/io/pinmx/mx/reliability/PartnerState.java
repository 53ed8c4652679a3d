package io.pinmx.mx.reliability;

/**
 * Life of a connection to one partner endpoint. A partner connects once; a partner that
 * failed (retries exhausted, refused, or restarted with a new session) is never revived:
 * a new connect creates a fresh session with fresh sequence numbers.
 */
public enum PartnerState
{
    /** Our CONNECT_REQUEST is out; waiting for the reply. */
    CONNECTING,
    /** Both session ids known; frames flow. */
    CONNECTED,
    /** Given up; every pending request to it completed with the failure. */
    FAILED;

    public boolean canMoveTo(final PartnerState next)
    {
        return switch (this)
        {
            case CONNECTING -> CONNECTED == next || FAILED == next;
            case CONNECTED -> FAILED == next;
            case FAILED -> false;
        };
    }

    /**
     * @throws IllegalStateException naming both states when the move is not legal.
     */
    public PartnerState moveTo(final PartnerState next)
    {
        if (!canMoveTo(next))
        {
            throw new IllegalStateException("partner cannot move from " + this + " to " + next);
        }
        return next;
    }
}
