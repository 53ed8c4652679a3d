package io.pinmx.apps.mg;

/**
 * What MG's slab decomposition over z needs from the ranks: ghost planes from the neighbouring slabs, a coarse level
 * assembled whole on every rank, and reductions. Every rank makes the same calls in the same order.
 */
interface SlabTransport
{
    int rank();

    int size();

    /**
     * Fills {@code grid}'s lower ghost plane with the top interior plane of rank - 1's slab and its upper ghost plane
     * with the bottom interior plane of rank + 1's (periodic in rank).
     */
    void exchangeGhostPlanes(int level, Grid grid);

    /**
     * Completes a level held whole on every rank: rank r computed interior planes {@code 1 + r * planesPerRank}
     * onwards, {@code planesPerRank} of them; afterwards every rank holds every rank's planes.
     */
    void gatherPlanes(int level, Grid whole, int planesPerRank);

    /** Element-wise sums over the ranks, every rank getting them. */
    double[] sum(double[] values);

    double max(double value);

    void barrier();

    /**
     * Called between the planes an operator computes: a transport whose neighbours may still be reading this rank's
     * planes lets its communication run.
     */
    default void progress()
    {
    }

    /** Called as the timed part starts: a transport that times its own phases starts them from zero. */
    default void startTimedPart()
    {
    }
}
