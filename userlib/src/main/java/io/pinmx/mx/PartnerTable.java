package io.pinmx.mx;

import io.pinmx.mx.match.MatchQueue;
import io.pinmx.mx.match.UnexpectedQueue;
import io.pinmx.pin.spi.EndpointAddress;
import org.agrona.concurrent.CachedNanoClock;

import java.util.ArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Owns the endpoint's partners: the table by id (what receives name as their source) and by
 * (driver peer index, remote endpoint index) for incoming frames, and a partner's failure,
 * which completes every pending request to or from it with the reason. Partners are never
 * removed: a failed one keeps its id and a new connect makes a new partner. Guarded by the
 * endpoint lock.
 */
final class PartnerTable
{
    private final ArrayList<Partner> partners = new ArrayList<>();
    private final ArrayList<Partner[]> byPeer = new ArrayList<>();
    private final String endpointName;
    private final CachedNanoClock now;
    private final RequestPool requests;
    private final MatchQueue matchQueue;
    private final UnexpectedQueue unexpected;
    private final OutboundQueue outbound;

    PartnerTable(
        final String endpointName, final CachedNanoClock now, final RequestPool requests, final MatchQueue matchQueue,
        final UnexpectedQueue unexpected, final OutboundQueue outbound)
    {
        this.endpointName = endpointName;
        this.now = now;
        this.requests = requests;
        this.matchQueue = matchQueue;
        this.unexpected = unexpected;
        this.outbound = outbound;
    }

    int size()
    {
        return partners.size();
    }

    Partner at(final int id)
    {
        return partners.get(id);
    }

    Partner add(final EndpointAddress remote, final int peerIndex, final int connectSeq)
    {
        final Partner p = new Partner(partners.size(), remote, peerIndex, connectSeq);
        p.sendInitialSeq = ThreadLocalRandom.current().nextInt() & 0x7FFF_FFFF;
        p.lastHeardNs = now.nanoTime();
        partners.add(p);
        while (byPeer.size() <= peerIndex)
        {
            byPeer.add(null);
        }
        Partner[] slots = byPeer.get(peerIndex);
        if (null == slots)
        {
            slots = new Partner[EndpointAddress.MAX_ENDPOINT_INDEX + 1];
            byPeer.set(peerIndex, slots);
        }
        slots[remote.endpointIndex()] = p;
        return p;
    }

    /**
     * @return the latest partner at this remote endpoint, or null.
     */
    Partner find(final int peerIndex, final int endpointIndex)
    {
        if (peerIndex < 0 || peerIndex >= byPeer.size())
        {
            return null;
        }
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
    }

    /**
     * Fails every partner (the endpoint closes).
     */
    void failAll(final String reason)
    {
        for (int i = 0, n = partners.size(); i < n; i++)
        {
            fail(partners.get(i), reason);
        }
    }
}
