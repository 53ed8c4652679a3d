package io.pinmx.mx;

/**
 * Life of a request. Only the moves in {@link #canMoveTo} are legal; anything else is a
 * protocol bug and fails loudly rather than corrupting a buffer.
 */
public enum RequestState
{
    /** In the endpoint's pool. */
    FREE,
    /** Send waiting for its partner's connection or send window room. */
    QUEUED,
    /** Send frames out: eager waits for acks, rendezvous for the receiver's NOTIFY. */
    SENDING,
    /** Receive waiting in the match queue. */
    POSTED,
    /** Receive matched an eager message whose fragments are still arriving. */
    RECEIVING,
    /** Receive matched a rendezvous message; the driver pulls the data. */
    PULLING,
    /** Done; the status is final. */
    COMPLETED,
    /** Done with an error naming the cause; the status says how far it got. */
    FAILED,
    /** Receive withdrawn before it matched. */
    CANCELLED;

    public boolean isDone()
    {
        return COMPLETED == this || FAILED == this || CANCELLED == this;
    }

    public boolean canMoveTo(final RequestState next)
    {
        return switch (this)
        {
            case FREE -> QUEUED == next || SENDING == next || POSTED == next || RECEIVING == next ||
                PULLING == next || COMPLETED == next || FAILED == next;
            case QUEUED -> SENDING == next || FAILED == next;
            case SENDING -> COMPLETED == next || FAILED == next;
            case POSTED -> RECEIVING == next || PULLING == next || COMPLETED == next || FAILED == next ||
                CANCELLED == next;
            case RECEIVING, PULLING -> COMPLETED == next || FAILED == next;
            case COMPLETED, FAILED, CANCELLED -> FREE == next;
        };
    }
}
