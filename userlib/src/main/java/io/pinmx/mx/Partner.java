package io.pinmx.mx;

import io.pinmx.mx.reliability.PartnerState;
import io.pinmx.mx.reliability.ReceiveTracker;
import io.pinmx.mx.reliability.ResendTimer;
import io.pinmx.mx.reliability.SendWindow;
import io.pinmx.pin.provider.ProcessStatus;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.PeerLiveness;

import java.util.ArrayDeque;

/**
 * One remote endpoint this endpoint talks to: its address and session, and the reliability
 * state of the session (send window, receive tracker, frames waiting for window room, the
 * medium message arriving from it). The {@link #id()} is what receives name as their source.
 * Mutable fields are guarded by the endpoint's progress lock; the {@link PartnerTable} owns
 * the partners and the {@link Connector} moves their {@link ConnectionState}.
 */
public final class Partner
{
    private final int id;
    private final EndpointAddress address;
    final int peerIndex;
    final int remoteEndpointIndex;
    int connectSeq;
    volatile ConnectionState connection = ConnectionState.CONNECTING;
    volatile String failure;
    int remoteSessionId;
    int sendInitialSeq;
    SendWindow window;
    ReceiveTracker tracker;
    /** Requests and notices waiting for window room, oldest first. */
    final ArrayDeque<Object> pendingFrames = new ArrayDeque<>();
    /** Index of the next frame to send of the head of {@link #pendingFrames}. */
    int headNextFrame;
    /** Where fragments of the medium message now arriving go. */
    final MediumReassembly incoming = new MediumReassembly();
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
    /** The key the partner accepted from us, valid in {@link ConnectionState#VERIFIED}. */
    int verifiedKey;
    /** The status code with which the partner refused the last key check ({@link #connectKey}); -1 when none. */
    int keyRefusalCode = -1;
    /**
     * Rendezvous sends waiting for NOTIFY plus receives being declared or pulled, and one-sided reads pulling:
     * reasons to expect to hear from the partner.
     */
    int outstandingRendezvous;
    /** The last transient send error (kept for the timeout message; the frame is resent). */
    String lastSendError;
    /** The driver refused the last sequenced frame (or run) sent to the partner for now: set by each such send. */
    boolean lastSendRefused;
    /**
     * Frames from {@link #refusedFromSeq} on were refused for now (the partner's ring or socket buffer stayed full),
     * or sit behind such a frame unsent: each later frame would wait out the same full ring while this thread drains
     * nothing, so nothing new goes out to the partner until the next progress round sends them again.
     */
    boolean holdingRefused;
    int refusedFromSeq;
    /**
     * A mark of the partner's receive queue taken after the window's oldest frame went in ({@code
     * DriverEndpoint.receiveQueueWritten}), and that frame's send time then: the frame is untaken while the partner's
     * taken position ({@code receiveQueueRead}) is below the mark.
     */
    long queueMark = DriverEndpoint.NO_RECEIVE_QUEUE;
    long queueMarkSentAtNs;
    /** When the timers last saw the window untaken in the partner's receive queue ({@link ResendTimer#deadlineNs}). */
    long unreadSeenNs = ResendTimer.NEVER_SEEN_UNREAD;
    /** A send the driver refused outright (not transient): the sequence stream to the partner is broken. */
    String sendPathBroken;
    /** When the timers last asked the driver whether the partner is alive. */
    long livenessCheckedNs;
    /** What the driver said then: ALIVE keeps a silent partner we wait on from being given up. */
    PeerLiveness.State liveness = PeerLiveness.State.UNKNOWN;
    /** The partner's process id, once the driver told it; 0 before. */
    volatile int pid;
    /** What messages call the partner ("partner ID" unless named). */
    private volatile String name;
    /** The partner's process on this host as its opener told it ({@link #runsOnThisHost}), else 0. */
    volatile int localPid;
    /** That process's start time, so a reused pid is not taken for it. */
    volatile long localStartTime = ProcessStatus.EXITED;

    Partner(final int id, final EndpointAddress address, final int peerIndex, final int connectSeq)
    {
        this.id = id;
        this.address = address;
        this.peerIndex = peerIndex;
        this.remoteEndpointIndex = address.endpointIndex();
        this.connectSeq = connectSeq;
        this.name = "partner " + id;
    }

    /**
     * Names the partner in every message about it (its failures, its requests' failures), e.g. a job's "rank 3".
     *
     * @return this partner.
     * @throws IllegalArgumentException for a null or blank name.
     */
    public Partner named(final String name)
    {
        if (null == name || name.isBlank())
        {
            throw new IllegalArgumentException("partner " + id + ": a name must not be blank, was '" + name + "'");
        }
        this.name = name;
        return this;
    }

    /**
     * Tells the endpoint that the partner is process {@code pid} of this host (a job that exchanged pids and host
     * identities knows it): where the driver cannot judge the partner's liveness, the endpoint then judges it by
     * that process, exactly: a partner whose process runs is never given up for silence, one whose process exited
     * fails at once.
     *
     * @return this partner.
     * @throws IllegalArgumentException when no process {@code pid} runs here.
     */
    public Partner runsOnThisHost(final int pid)
    {
        final long startTime = ProcessStatus.startTime(pid);
        if (ProcessStatus.EXITED == startTime)
        {
            throw new IllegalArgumentException(describe() + ": no process " + pid + " runs on this host");
        }
        this.localStartTime = startTime;
        this.localPid = pid;
        this.pid = pid;
        return this;
    }

    /**
     * @return the partner's process id where the driver has told it (same host: always once it was checked;
     *         across hosts: once it answered a liveness probe), else 0.
     */
    public int pid()
    {
        return pid;
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

    /** @return whether this partner is {@code endpoint}: the endpoint connected to itself. */
    boolean is(final EndpointAddress endpoint)
    {
        return remoteEndpointIndex == endpoint.endpointIndex() && remoteSessionId == endpoint.sessionId() &&
            address.board().equals(endpoint.board());
    }

    public PartnerState state()
    {
        return connection.partnerState();
    }

    boolean isConnected()
    {
        return connection.isConnected();
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

    void moveTo(final ConnectionState next)
    {
        if (!connection.canMoveTo(next))
        {
            throw new IllegalStateException(describe() + " cannot move from " + connection + " to " + next);
        }
        connection = next;
    }

    String describe()
    {
        final int knownPid = pid;
        return name + " (" + address.board() + "/" + remoteEndpointIndex +
            (remoteSessionId != 0 ? " session " + Integer.toHexString(remoteSessionId) : "") +
            (knownPid != 0 ? ", pid " + knownPid : "") + ")";
    }

    public String toString()
    {
        return describe() + ' ' + connection;
    }
}
