package io.pinmx.rma;

/**
 * How a mutex on a passive host ({@link Rma#driverWrites}: its driver applies atomics without its process) is handed
 * to a waiter reached through the driver, with no CPU of the host and no polling over the network: besides the
 * ticket lock's two words, the host's slice holds a turn word per ticket modulo the job's size (at most one ticket a
 * rank is outstanding, so the outstanding ones never share a word) and one flag word of its own that others write to
 * wake it. A waiter with ticket {@code t} swaps {@link #waiting} into turn word {@code t}; the holder of {@code t - 1},
 * letting go, swaps {@link #granted} into it. Whichever swap comes second sees the other's value: the waiter that
 * finds {@code granted(t)} holds the mutex at once, the releaser that finds {@code waiting(t, rank)} swaps that value
 * into the waiter's flag word, which the waiter watches in its own memory. Values carry their ticket, so a word left
 * over from an earlier ticket never matches. The releaser's swap lands before ticket {@code t} can be granted by any
 * path, so no late swap meets a turn word reused by ticket {@code t + size}. Stateless: the layout and the encoding.
 */
final class MutexTurns
{
    /** Low bits of a turn value: the waiting rank plus one, 0 for granted. */
    static final int RANK_BITS = 24;
    static final long TURN_BYTES = Long.BYTES;
    static final long FLAG_BYTES = Long.BYTES;

    private final int ranks;

    /** @param ranks ranks of the job: the most tickets of one mutex outstanding at once. */
    MutexTurns(final int ranks)
    {
        if (ranks >= 1 << RANK_BITS)
        {
            throw new IllegalArgumentException("mutexes take at most " + ((1 << RANK_BITS) - 1) + " ranks, not " + ranks);
        }
        this.ranks = ranks;
    }

    /** @return the bytes a host of {@code count} mutexes holds: their words, their turn words and its flag. */
    long sliceBytes(final int count)
    {
        return count * bytesPerMutex() + FLAG_BYTES;
    }

    /** @return the mutexes a slice of this size holds. */
    int count(final long sliceBytes)
    {
        return (int)((sliceBytes - FLAG_BYTES) / bytesPerMutex());
    }

    long bytesPerMutex()
    {
        return RmaMutexes.MUTEX_BYTES + ranks * TURN_BYTES;
    }

    /** @return where ticket {@code ticket}'s turn word of mutex {@code mutex} is in a host's slice of {@code count}. */
    long turnOffset(final int count, final int mutex, final long ticket)
    {
        return count * RmaMutexes.MUTEX_BYTES + ((long)mutex * ranks + Math.floorMod(ticket, ranks)) * TURN_BYTES;
    }

    /** @return where the flag word of a slice of {@code sliceBytes} is. */
    static long flagOffset(final long sliceBytes)
    {
        return sliceBytes - FLAG_BYTES;
    }

    static long waiting(final long ticket, final int rank)
    {
        return ticket << RANK_BITS | (rank + 1);
    }

    static long granted(final long ticket)
    {
        return ticket << RANK_BITS;
    }

    /** @return the rank waiting for {@code ticket} that {@code turn} names, or -1 if it names none for that ticket. */
    static int waiter(final long turn, final long ticket)
    {
        final long rankPlusOne = turn & ((1L << RANK_BITS) - 1);
        return turn >>> RANK_BITS == ticket && 0 != rankPlusOne ? (int)rankPlusOne - 1 : -1;
    }
}
