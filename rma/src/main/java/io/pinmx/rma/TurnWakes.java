package io.pinmx.rma;

import io.pinmx.mx.MxException;
import io.pinmx.mx.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The releaser's side of a hand-off on a passive host ({@link MutexTurns}): once its swap stored a waiter's turn in
 * the waiter's flag word, a message of no bytes to the waiter's endpoint ({@link RmaTags#WAKE}, the turn in its
 * sequence bits) ends the waiter's sleep in {@link TurnWait}. The sends are not waited for: a waiter that gave up
 * (its job dying) must not hold an unlock until the peer timeout, and a wake-up that is lost costs its waiter one
 * probe interval, as it finds the word at its next look. Each send is released by a later wake-up once it is done,
 * whatever its outcome (a failed one was for a waiter that is gone); the endpoint's close takes those still in
 * flight. Used by its rank's application thread only.
 */
final class TurnWakes
{
    /** A wake-up's payload: none. */
    static final MemorySegment NO_BYTES = Arena.global().allocate(0);

    private final MessagePeers peers;
    private final List<Request> inFlight = new ArrayList<>();

    /** @param peers this rank's job endpoint and its partners ({@link JobMessagePeers}). */
    TurnWakes(final MessagePeers peers)
    {
        this.peers = peers;
    }

    /** Wakes {@code rank}, whose flag word now holds {@code turn}; returns at once. */
    void wake(final int rank, final long turn)
    {
        releaseDone();
        try
        {
            inFlight.add(peers.endpoint().isend(peers.partner(rank), RmaTags.of(RmaTags.WAKE, turn), NO_BYTES));
        }
        catch (final MxException gone)
        {
            // the partner failed: a waiter that is gone needs no wake-up, and one that is not finds its word
        }
    }

    /** @return the wake-ups sent and still in flight, once those done are released. */
    int inFlight()
    {
        releaseDone();
        return inFlight.size();
    }

    private void releaseDone()
    {
        for (int i = inFlight.size() - 1; i >= 0; i--)
        {
            final Request send = inFlight.get(i);
            if (send.test())
            {
                inFlight.remove(i).release();
            }
        }
    }
}
