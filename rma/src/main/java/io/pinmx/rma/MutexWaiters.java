package io.pinmx.rma;

import io.pinmx.mx.Partner;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The mutexes of this rank's slices as its {@link DataServer} serves them to ranks reached through the driver: the
 * same ticket locks as on the shared-memory tier ({@link RmaMutexes}), so a remote LOCK takes its ticket here at once
 * and waits in this list until now serving reaches it, when the server answers it (nobody spins over the network).
 * Owned by the server's thread.
 */
final class MutexWaiters
{
    private final ServerReplies replies;
    private final List<Waiter> waiters = new ArrayList<>();

    /** A remote LOCK whose ticket's turn has not come: answered as request {@code sequence} of {@code origin}. */
    private record Waiter(Partner origin, long sequence, MemorySegment words, long at, long ticket)
    {
    }

    MutexWaiters(final ServerReplies replies)
    {
        this.replies = replies;
    }

    /** @return whether no remote rank waits for a turn (the server then parks for longer). */
    boolean isEmpty()
    {
        return waiters.isEmpty();
    }

    /** LOCK of mutex {@code index} in {@code words}: takes the origin's ticket; answered once its turn comes. */
    void lock(final Partner origin, final long sequence, final MemorySegment words, final long index)
    {
        final long at = index * RmaMutexes.MUTEX_BYTES;
        final long ticket = SharedMemoryTier.fetchAndAdd(words, at, 1L);
        waiters.add(new Waiter(origin, sequence, words, at, ticket));
        grant();
    }

    /** @return TRY_LOCK's answer: whether mutex {@code index} was free and its next ticket is now taken. */
    boolean tryLock(final MemorySegment words, final long index)
    {
        final long at = index * RmaMutexes.MUTEX_BYTES;
        final long serving = SharedMemoryTier.loadAcquire(words, at + RmaMutexes.SERVING_OFFSET);
        return SharedMemoryTier.compareAndSet(words, at, serving, serving + 1);
    }

    /** UNLOCK of mutex {@code index}: the next ticket's turn, answered here if a remote rank holds it. */
    void unlock(final MemorySegment words, final long index)
    {
        SharedMemoryTier.fetchAndAdd(words, index * RmaMutexes.MUTEX_BYTES + RmaMutexes.SERVING_OFFSET, 1L);
        grant();
    }

    /** Answers every waiter whose turn came, whoever unlocked (a same-host rank unlocks in the host's memory). */
    void grant()
    {
        for (int i = waiters.size() - 1; i >= 0; i--)
        {
            final Waiter w = waiters.get(i);
            if (SharedMemoryTier.loadAcquire(w.words(), w.at() + RmaMutexes.SERVING_OFFSET) == w.ticket())
            {
                waiters.remove(i);
                replies.value(w.origin(), w.sequence(), 1);
            }
        }
    }
}
