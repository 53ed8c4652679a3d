package io.pinmx.mx;

import io.pinmx.mx.match.UnexpectedMessage;
import io.pinmx.mx.reliability.PartnerState;
import io.pinmx.mx.reliability.ReceiveTracker;
import io.pinmx.mx.reliability.SendWindow;
import io.pinmx.pin.spi.EndpointAddress;

import java.util.ArrayDeque;

/**
 * One remote endpoint this endpoint talks to: its address and session, and the reliability
 * state of the session (send window, receive tracker, frames waiting for window room). The
 * {@link #id()} is what receives name as their source. Mutable fields are guarded by the
 * endpoint's progress lock.
 */
public final class Partner
{
    private final int id;
    private final EndpointAddress address;
    final int peerIndex;
    final int remoteEndpointIndex;
    int connectSeq;
    volatile PartnerState state = PartnerState.CONNECTING;
    volatile String failure;
    int remoteSessionId;
    int sendInitialSeq;
    SendWindow window;
    ReceiveTracker tracker;
    /** Requests and notices waiting for window room, oldest first. */
    final ArrayDeque<Object> pendingFrames = new ArrayDeque<>();
    /** Index of the next frame to send of the head of {@link #pendingFrames}. */
    int headNextFrame;
    /** Where fragments of the medium message now arriving go: a request or an unexpected message. */
    Request incomingRequest;
    UnexpectedMessage incomingUnexpected;
    int incomingMessageSeq;
    long lastHeardNs;
    /** True from the moment the timers saw something pending with the partner until they see nothing pending. */
    boolean waiting;
    /** When {@link #waiting} last became true: silence before it is an idle partner, not a dead one. */
    long waitingSinceNs;
    long lastKeepaliveNs;
    long connectSentNs;
    long connectDeadlineNs;
    long connectTimeoutNs;
    int connectKey;
    /** Connect sequence of the CONNECT_REQUEST this session was accepted from; a new one means a new connection. */
    int acceptedConnectSeq;
    int remoteInitialSeq;
    /** Our key was accepted by the partner (we connected, not only it to us). */
    boolean keyVerified;
    int verifiedKey;
    /** A CONNECT_REQUEST checking our key on a live session is out; the reply's status code lands here. */
    boolean verifying;
    volatile int verifyStatusCode = -1;
    /** Rendezvous sends waiting for NOTIFY plus pulls in flight: reasons to expect to hear from the partner. */
    int outstandingRendezvous;
    String lastSendError;

    Partner(final int id, final EndpointAddress address, final int peerIndex, final int connectSeq)
    {
        this.id = id;
        this.address = address;
        this.peerIndex = peerIndex;
        this.remoteEndpointIndex = address.endpointIndex();
        this.connectSeq = connectSeq;
    }

    /**
     * @return the local id naming this partner in statuses and receives.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return the remote endpoint, with its session id once connected.
     */
    public EndpointAddress address()
    {
        return new EndpointAddress(address.board(), remoteEndpointIndex, remoteSessionId);
    }

    public PartnerState state()
    {
        return state;
    }

    /**
     * @return why the partner failed, or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * Starts or stops the silence clock: silence counts only while we wait on the partner.
     *
     * @return when the partner's current silence began: the later of the last frame heard and
     *         the moment it became busy.
     */
    long silentSinceNs(final boolean waitingNow, final long nowNs)
    {
        if (waitingNow && !waiting)
        {
            waitingSinceNs = nowNs;
        }
        waiting = waitingNow;
        return lastHeardNs - waitingSinceNs >= 0 ? lastHeardNs : waitingSinceNs;
    }

    void moveTo(final PartnerState next)
    {
        state = state.moveTo(next);
    }

    String describe()
    {
        return "partner " + id + " (" + address.board() + "/" + remoteEndpointIndex +
            (remoteSessionId != 0 ? " session " + Integer.toHexString(remoteSessionId) : "") + ")";
    }

    public String toString()
    {
        return describe() + ' ' + state;
    }
}
