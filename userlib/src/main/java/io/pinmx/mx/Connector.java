package io.pinmx.mx;

import io.pinmx.mx.reliability.ReceiveTracker;
import io.pinmx.mx.reliability.SendWindow;
import io.pinmx.mx.reliability.SequenceNumbers;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.wire.ConnectFrame;
import io.pinmx.pin.wire.ConnectStatus;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Owns the connect handshake and each partner's {@link ConnectionState}: CONNECT_REQUEST
 * resends until the reply or the deadline, accepting partners that connect to us (checking
 * their key), a new connection from a known endpoint replacing the old one, and checking our
 * key on a session the partner opened (CONNECTED_UNVERIFIED, VERIFYING, VERIFIED) without
 * disturbing it. Guarded by the endpoint lock; {@code connect} waits outside it.
 */
final class Connector
{
    private final EndpointOptions options;
    private final CachedNanoClock now;
    private final DriverEndpoint driver;
    private final SequenceNumbers sequences;
    private final PartnerTable partners;
    private final FrameSender sender;
    private final ConnectFrame connectIn = new ConnectFrame();

    Connector(
        final EndpointOptions options, final CachedNanoClock now, final DriverEndpoint driver,
        final SequenceNumbers sequences, final PartnerTable partners, final FrameSender sender)
    {
        this.options = options;
        this.now = now;
        this.driver = driver;
        this.sequences = sequences;
        this.partners = partners;
        this.sender = sender;
    }

    /**
     * Starts connecting to the remote endpoint, or reuses the live partner there (asking it to
     * check this key when it has not accepted it yet).
     *
     * @return the partner to wait on.
     */
    Partner begin(final EndpointAddress remote, final int peerIndex, final int applicationKey, final long timeoutNs)
    {
        final Partner existing = partners.find(peerIndex, remote.endpointIndex());
        if (null != existing && ConnectionState.FAILED != existing.connection)
        {
            // The partner holds its own reference to the peer entry; the caller's is not needed.
            driver.releasePeer(peerIndex);
            if (existing.isConnected() &&
                (ConnectionState.VERIFIED != existing.connection || existing.verifiedKey != applicationKey))
            {
                startVerify(existing, applicationKey);
            }
            return existing;
        }
        final Partner p = partners.add(remote, peerIndex, nonZeroRandom());
        p.connectKey = applicationKey;
        p.connectTimeoutNs = timeoutNs;
        p.connectDeadlineNs = now.nanoTime() + timeoutNs;
        sender.sendConnectRequest(p, now.nanoTime());
        partners.failIfSendPathBroken(p);
        return p;
    }

    /**
     * What a connected partner says of our key, for {@code connect}: resends the check meanwhile.
     *
     * @return the reply's status code, or -1 while none came.
     * @throws MxException when the deadline passes.
     */
    int verifyOutcome(final Partner p, final int applicationKey, final long deadlineNs, final Duration timeout)
    {
        switch (p.connection)
        {
            case VERIFIED ->
            {
                if (p.verifiedKey == applicationKey)
                {
                    return ConnectStatus.OK.code();
                }
                startVerify(p, applicationKey);
            }
            case CONNECTED_UNVERIFIED ->
            {
                final int refusal = p.keyRefusalCode;
                if (refusal >= 0 && p.connectKey == applicationKey)
                {
                    p.keyRefusalCode = -1;
                    return refusal;
                }
                startVerify(p, applicationKey);
            }
            case VERIFYING ->
            {
                if (p.connectKey != applicationKey)
                {
                    startVerify(p, applicationKey);
                }
                else if (System.nanoTime() - deadlineNs >= 0)
                {
                    p.moveTo(ConnectionState.CONNECTED_UNVERIFIED);
                    throw new MxException("connect to " + p.describe() + " timed out: no CONNECT_REPLY within " +
                        timeout.toMillis() + " ms");
                }
                else if (now.nanoTime() - p.connectSentNs >= options.connectResendNs)
                {
                    sender.sendConnectRequest(p, now.nanoTime());
                }
            }
            case CONNECTING, FAILED ->
            {
            }
        }
        return -1;
    }

    /**
     * A session the partner opened to us has not checked this key: ask it, without disturbing the session.
     */
    private void startVerify(final Partner p, final int applicationKey)
    {
        if (ConnectionState.VERIFYING == p.connection && p.connectKey == applicationKey)
        {
            return;
        }
        p.connectKey = applicationKey;
        p.connectSeq = nonZeroRandom();
        p.keyRefusalCode = -1;
        if (ConnectionState.VERIFYING != p.connection)
        {
            p.moveTo(ConnectionState.VERIFYING);
        }
        sender.sendConnectRequest(p, now.nanoTime());
        partners.failIfSendPathBroken(p);
    }

    /**
     * Resends a connecting partner's request, or fails it at its deadline.
     */
    void onConnectTimer(final Partner p)
    {
        final long nowNs = now.nanoTime();
        if (nowNs - p.connectDeadlineNs >= 0)
        {
            partners.fail(p, "connect to " + p.describe() + " timed out: no CONNECT_REPLY within " +
                p.connectTimeoutNs / 1_000_000 + " ms" +
                (null != p.lastSendError ? " (last send error: " + p.lastSendError + ")" : ""));
        }
        else if (nowNs - p.connectSentNs >= options.connectResendNs)
        {
            sender.sendConnectRequest(p, nowNs);
            partners.failIfSendPathBroken(p);
        }
    }

    /**
     * @return when the partner's connect request is due again, or {@code next} if sooner or none is.
     */
    long nextResendNs(final Partner p, final long next)
    {
        if (ConnectionState.CONNECTING == p.connection || ConnectionState.VERIFYING == p.connection)
        {
            return Math.min(next, p.connectSentNs + options.connectResendNs);
        }
        return next;
    }

    /**
     * @return false if the request was dropped (an invalid initial sequence number).
     */
    boolean onConnectRequest(final int peerIndex, final MemorySegment buffer, final long offset)
    {
        connectIn.wrap(buffer, offset);
        final int remoteEndpoint = connectIn.srcEndpoint();
        final int remoteSession = connectIn.srcSession();
        final int connectSeq = connectIn.connectSeq();
        final int remoteInitialSeq = connectIn.initialSeq();
        if (connectIn.appKey() != options.applicationKey)
        {
            sender.sendConnectReply(peerIndex, remoteEndpoint, remoteSession, connectSeq, 0, ConnectStatus.BAD_KEY);
            return true;
        }
        if (!sequences.isValid(remoteInitialSeq))
        {
            return false;
        }
        Partner p = partners.find(peerIndex, remoteEndpoint);
        if (null != p && p.isConnected() && p.remoteSessionId == remoteSession &&
            (p.acceptedConnectSeq == connectSeq || p.remoteInitialSeq == remoteInitialSeq))
        {
            p.acceptedConnectSeq = connectSeq;
            sender.sendConnectReply(peerIndex, remoteEndpoint, remoteSession, connectSeq, p.sendInitialSeq, ConnectStatus.OK);
            return true;
        }
        if (null != p && ConnectionState.CONNECTING == p.connection)
        {
            establish(p, remoteSession, remoteInitialSeq, ConnectionState.CONNECTED_UNVERIFIED);
        }
        else
        {
            if (null != p)
            {
                partners.fail(p, p.describe() + " connected again (session " + Integer.toHexString(remoteSession) +
                    "): the earlier connection's pending requests are abandoned");
            }
            driver.retainPeer(peerIndex);
            p = partners.add(new EndpointAddress(driver.peer(peerIndex), remoteEndpoint, 0), peerIndex, 0);
            establish(p, remoteSession, remoteInitialSeq, ConnectionState.CONNECTED_UNVERIFIED);
        }
        p.acceptedConnectSeq = connectSeq;
        sender.sendConnectReply(peerIndex, remoteEndpoint, remoteSession, connectSeq, p.sendInitialSeq, ConnectStatus.OK);
        return true;
    }

    /**
     * @return false if the reply was dropped (no connect or key check of ours is waiting for it).
     */
    boolean onConnectReply(final int peerIndex, final MemorySegment buffer, final long offset)
    {
        connectIn.wrap(buffer, offset);
        final Partner p = partners.find(peerIndex, connectIn.srcEndpoint());
        if (null != p && ConnectionState.VERIFYING == p.connection && p.connectSeq == connectIn.connectSeq())
        {
            final int code = connectIn.statusCode();
            if (ConnectStatus.OK.code() == code)
            {
                p.verifiedKey = p.connectKey;
                p.moveTo(ConnectionState.VERIFIED);
            }
            else
            {
                p.keyRefusalCode = code;
                p.moveTo(ConnectionState.CONNECTED_UNVERIFIED);
            }
            return true;
        }
        if (null == p || ConnectionState.CONNECTING != p.connection || p.connectSeq != connectIn.connectSeq())
        {
            return false;
        }
        final ConnectStatus status = connectIn.status();
        if (ConnectStatus.OK != status)
        {
            partners.fail(p, "connect to " + p.describe() + " refused: " + status +
                (ConnectStatus.BAD_KEY == status ?
                " (application key 0x" + Integer.toHexString(p.connectKey) + " is not the endpoint's)" : ""));
            return true;
        }
        if (!sequences.isValid(connectIn.initialSeq()))
        {
            return false;
        }
        p.verifiedKey = p.connectKey;
        establish(p, connectIn.srcSession(), connectIn.initialSeq(), ConnectionState.VERIFIED);
        partners.pump(p);
        return true;
    }

    private void establish(final Partner p, final int remoteSessionId, final int remoteInitialSeq, final ConnectionState next)
    {
        p.remoteSessionId = remoteSessionId;
        p.remoteInitialSeq = remoteInitialSeq;
        p.window = new SendWindow(sequences, options.sendWindowFrames, p.sendInitialSeq);
        p.holdingRefused = false;
        p.tracker = new ReceiveTracker(sequences, remoteInitialSeq, options.ackDelayNs, options.losslessAckDelayNs,
            options.ackEveryFrames);
        p.lastHeardNs = now.nanoTime();
        p.moveTo(next);
    }

    static int nonZeroRandom()
    {
        int v;
        do
        {
            v = ThreadLocalRandom.current().nextInt();
        }
        while (0 == v);
        return v;
    }
}
