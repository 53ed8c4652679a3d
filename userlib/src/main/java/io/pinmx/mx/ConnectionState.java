package io.pinmx.mx;

import io.pinmx.mx.reliability.PartnerState;

/**
 * Where the connect handshake with one partner stands, as the {@link Connector} drives it.
 * The public {@link PartnerState} is the coarse view: every state between CONNECTING and
 * FAILED is CONNECTED (frames flow); the finer states say whether our application key was
 * checked by the partner, which matters only to {@code connect}.
 */
enum ConnectionState
{
    /** Our CONNECT_REQUEST is out; waiting for the reply. */
    CONNECTING(PartnerState.CONNECTING),
    /** The partner connected to us: a session, but our key has not been checked by it. */
    CONNECTED_UNVERIFIED(PartnerState.CONNECTED),
    /** A CONNECT_REQUEST checking our key on the live session is out. */
    VERIFYING(PartnerState.CONNECTED),
    /** The partner accepted our key ({@link Partner#verifiedKey}). */
    VERIFIED(PartnerState.CONNECTED),
    /** Given up; every pending request to or from it completed with the failure. */
    FAILED(PartnerState.FAILED);

    private final PartnerState partnerState;

    ConnectionState(final PartnerState partnerState)
    {
        this.partnerState = partnerState;
    }

    PartnerState partnerState()
    {
        return partnerState;
    }

    boolean isConnected()
    {
        return PartnerState.CONNECTED == partnerState;
    }

    boolean canMoveTo(final ConnectionState next)
    {
        return switch (this)
        {
            case CONNECTING -> CONNECTED_UNVERIFIED == next || VERIFIED == next || FAILED == next;
            case CONNECTED_UNVERIFIED -> VERIFYING == next || FAILED == next;
            case VERIFYING -> CONNECTED_UNVERIFIED == next || VERIFIED == next || FAILED == next;
            case VERIFIED -> VERIFYING == next || FAILED == next;
            case FAILED -> false;
        };
    }
}
