package io.pinmx.rma;

import java.util.ArrayDeque;

/**
 * The direct gets of one rank whose endpoint reads may still be running, oldest first, and how many reads they hold.
 * A driver runs a bounded number of pulls at once per endpoint (the user driver 256, pinmx.ko 1024) and refuses more;
 * ARMCI lets an aggregate or implicit handle take any number of gets, so before a get starts its reads, the oldest
 * gets are completed on the caller's thread ({@link Completions.Pulls#settle()}: their data in place, a failure kept
 * for their handle's wait) until the new reads fit under {@link #MAX_READS}. Owned by the thread issuing operations.
 */
final class ReadsInFlight
{
    /**
     * Most endpoint reads of direct gets running at once: half the user driver's pull slots, so that the reads of
     * packed gets and streamed gets and the endpoint's rendezvous receives find room too.
     */
    static final int MAX_READS = 128;

    private final ArrayDeque<Completions.Pulls> gets = new ArrayDeque<>();
    private int reads;

    /**
     * Completes the oldest gets until {@code more} reads fit (all of them, when {@code more} alone reaches the
     * limit); a get already done or waited for settles at once.
     */
    void makeRoom(final int more)
    {
        while (!gets.isEmpty() && reads + more > MAX_READS)
        {
            final Completions.Pulls oldest = gets.pollFirst();
            reads -= oldest.reads();
            oldest.settle();
        }
    }

    /** Follows a get that started its reads; one of none (every piece empty) holds nothing. */
    void add(final Completions.Pulls get)
    {
        if (get.reads() > 0)
        {
            gets.addLast(get);
            reads += get.reads();
        }
    }
}
