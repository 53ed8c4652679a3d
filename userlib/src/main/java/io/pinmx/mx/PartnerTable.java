package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.match.MatchQueue;
import io.pinmx.mx.match.UnexpectedQueue;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.wire.FrameKind;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.CachedNanoClock;

import java.util.ArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Owns the endpoint's partners: the table by id (what receives name as their source), by
 * (driver peer index, remote endpoint index) for incoming frames, the partners whose timers run,
 * and a partner's failure, which completes every pending request to or from it with the reason.
 * A failed partner keeps its id (a receive naming it fails with the reason) and a new connect
 * makes a new partner. Each partner holds one reference to its driver peer entry, dropped when it
 * fails, so the driver can reclaim entries of connections that ended; a peer index whose
 * partners all failed leaves the index map. Guarded by the endpoint lock.
 */
final class PartnerTable
{
    private final ArrayList<Partner> partners = new ArrayList<>();
    private final ArrayList<Partner> active = new ArrayList<>();
    private final Int2ObjectHashMap<Partner[]> byPeer = new Int2ObjectHashMap<>();
    private final DriverEndpoint driver;
    private final String endpointName;
    private final CachedNanoClock now;
    private final RequestPool requests;
    private final MatchQueue matchQueue;
    private final UnexpectedQueue unexpected;
    private final OutboundQueue outbound;

    PartnerTable(
        final String endpointName, final DriverEndpoint driver, final CachedNanoClock now, final RequestPool requests,
        final MatchQueue matchQueue, final UnexpectedQueue unexpected, final OutboundQueue outbound)
    {
        this.endpointName = endpointName;
        this.driver = driver;
        this.now = now;
        this.requests = requests;
        this.matchQueue = matchQueue;
        this.unexpected = unexpected;
        this.outbound = outbound;
    }

    Partner at(final int id)
    {
        return partners.get(id);
    }

    /** @return how many partners are not failed: the ones whose timers run. */
    int activeCount()
    {
        return active.size();
    }

    Partner activeAt(final int index)
    {
        return active.get(index);
    }

    /**
     * @param peerIndex a driver peer index this partner now holds one reference to (the caller took it with
     *                  acquirePeer or retainPeer); released when the partner fails.
     */
    Partner add(final EndpointAddress remote, final int peerIndex, final int connectSeq)
    {
        final Partner p = new Partner(partners.size(), remote, peerIndex, connectSeq);
        p.sendInitialSeq = ThreadLocalRandom.current().nextInt() & 0x7FFF_FFFF;
        p.lastHeardNs = now.nanoTime();
        partners.add(p);
        active.add(p);
        Partner[] slots = byPeer.get(peerIndex);
        if (null == slots)
        {
            slots = new Partner[EndpointAddress.MAX_ENDPOINT_INDEX + 1];
            byPeer.put(peerIndex, slots);
        }
        slots[remote.endpointIndex()] = p;
        return p;
    }

    /**
     * @return the latest partner at this remote endpoint, or null.
     */
    Partner find(final int peerIndex, final int endpointIndex)
    {
        final Partner[] slots = byPeer.get(peerIndex);
        return null == slots ? null : slots[endpointIndex];
    }

    /**
     * @throws IllegalArgumentException naming the id if there is no such partner.
     */
    Partner byId(final int partnerId)
    {
        if (partnerId < 0 || partnerId >= partners.size())
        {
            throw new IllegalArgumentException("no partner with id " + partnerId + " (endpoint " + endpointName +
                " knows " + partners.size() + " partners)");
        }
        return partners.get(partnerId);
    }

    /**
     * Sends what the partner's window has room for; a send the driver refused outright fails the partner.
     */
    void pump(final Partner p)
    {
        outbound.pump(p);
        failIfSendPathBroken(p);
    }

    /**
     * Fails the partner if a send to it was refused in a way no resend can mend.
     *
     * @return true if it failed now.
     */
    boolean failIfSendPathBroken(final Partner p)
    {
        if (null == p.sendPathBroken || ConnectionState.FAILED == p.connection)
        {
            return false;
        }
        fail(p, "send to " + p.describe() + " failed: " + p.sendPathBroken);
        return true;
    }

    /**
     * Gives the partner up: every pending request to or from it (queued and unacknowledged
     * sends, posted receives naming it, pulls, the medium message arriving) fails with the reason.
     */
    void fail(final Partner p, final String reason)
    {
        if (ConnectionState.FAILED == p.connection)
        {
            return;
        }
        p.failure = reason;
        p.moveTo(ConnectionState.FAILED);
        active.remove(p);
        outbound.abandonAll(p, reason);
        final Request arriving = p.incoming.request();
        if (null != arriving)
        {
            requests.fail(arriving, reason);
        }
        p.incoming.clear();
        unexpected.removeAllFrom(p.id());
        for (int i = 0, n = requests.size(); i < n; i++)
        {
            final Request r = requests.at(i);
            final RequestState s = r.state;
            if (RequestState.POSTED == s && r.posted.source() == p.id())
            {
                matchQueue.remove(r.posted);
                requests.fail(r, reason);
            }
            else if ((RequestState.PULLING == s || RequestState.SENDING == s || RequestState.RECEIVING == s) &&
                r.partner == p)
            {
                requests.fail(r, reason);
            }
        }
        // last: a driver that failed refuses this, and the requests must have failed by then
        forget(p);
    }

    /**
     * Gives up a partner that died or stayed silent: as {@link #fail}, and posted receives from any source fail too,
     * since the message one of them waits for may be the partner's. (A partner that said goodbye fails by
     * {@link #fail} alone: receives from any source wait on for the others.)
     */
    void failLost(final Partner p, final String reason)
    {
        if (ConnectionState.FAILED == p.connection)
        {
            return;
        }
        fail(p, reason);
        for (int i = 0, n = requests.size(); i < n && matchQueue.postedFromAnySource() > 0; i++)
        {
            final Request r = requests.at(i);
            if (RequestState.POSTED == r.state && MatchInfo.ANY_SOURCE == r.posted.source())
            {
                matchQueue.remove(r.posted);
                requests.fail(r, "receive from any source failed: " + reason);
            }
        }
    }

    /**
     * Drops the partner's driver peer reference, and the peer index from the map once no partner
     * there is alive: the driver may then reclaim the entry and give the index to another board.
     */
    private void forget(final Partner p)
    {
        driver.releasePeer(p.peerIndex);
        final Partner[] slots = byPeer.get(p.peerIndex);
        for (final Partner other : slots)
        {
            if (null != other && ConnectionState.FAILED != other.connection)
            {
                return;
            }
        }
        byPeer.remove(p.peerIndex);
    }

    /**
     * Tells every connected partner that its connection ends (the endpoint closes): an ACK for
     * everything received, so that its sends complete, then NACK BAD_SESSION, so that it fails its
     * side at once and lets its driver reclaim our peer entry instead of keeping it for a partner
     * that will never speak again.
     */
    void sayGoodbye(final FrameSender sender)
    {
        for (int i = 0, n = active.size(); i < n; i++)
        {
            final Partner p = active.get(i);
            if (p.isConnected())
            {
                sender.sendAck(p, false);
                sender.sendNack(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId, FrameKind.ACK, 0);
            }
        }
    }

    /**
     * Fails every partner and every request still pending, receives from any source too: the endpoint closes, or
     * stopped making progress. A driver that refuses to let a peer go (it failed) does not stop the rest.
     *
     * @return the first refusal, with any later ones suppressed in it, or null.
     */
    RuntimeException failAll(final String reason)
    {
        RuntimeException refusal = null;
        for (int i = active.size() - 1; i >= 0; i--)
        {
            try
            {
                fail(active.get(i), reason);
            }
            catch (final RuntimeException ex)
            {
                refusal = withRefusal(refusal, ex);
            }
        }
        for (int i = 0, n = requests.size(); i < n; i++)
        {
            final Request r = requests.at(i);
            if (RequestState.POSTED == r.state)
            {
                matchQueue.remove(r.posted);
            }
            try
            {
                if (RequestState.FREE != r.state)
                {
                    requests.fail(r, reason);
                }
            }
            catch (final RuntimeException ex)
            {
                refusal = withRefusal(refusal, ex);
            }
        }
        return refusal;
    }

    /** The first refusal of a clean-up that goes on past refusals, later ones suppressed into it. */
    static RuntimeException withRefusal(final RuntimeException first, final RuntimeException next)
    {
        if (null == first)
        {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
