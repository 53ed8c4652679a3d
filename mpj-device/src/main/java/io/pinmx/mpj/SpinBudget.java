package io.pinmx.mpj;

/**
 * Whether a caller-mode wait polls before it blocks, judged by how the last waits ended: a poll that keeps ending
 * before its request is done only burns the core, and on a loaded host it also costs the wake-up that follows,
 * because the scheduler places a thread that used its share of the core behind those that slept. After
 * {@value #MISSES_BEFORE_BLOCKING} polls in a row that ran out, the next {@value #WAITS_BLOCKED} waits block at once;
 * then one wait polls again, and one more miss blocks the next ones again. A poll that ends with its request done
 * resets the count. Waits on a partner that answers within the poll (a ping-pong on an idle host) keep polling;
 * waits on a partner that computes, or that lost its core to other jobs, block as niodev's always do.
 * <p>
 * One per device init. MPJ calls the device from one thread at a time in practice; from several, the counts are a
 * heuristic that a race can only shift by a wait or two.
 */
final class SpinBudget
{
    static final int MISSES_BEFORE_BLOCKING = 4;
    static final int WAITS_BLOCKED = 32;

    private int misses;
    private int waitsToBlock;

    /**
     * @return true if the wait that begins now should poll first.
     */
    boolean pollNext()
    {
        if (waitsToBlock > 0)
        {
            waitsToBlock--;
            if (0 == waitsToBlock)
            {
                // The next poll is a probe: one miss blocks again.
                misses = MISSES_BEFORE_BLOCKING - 1;
            }
            return false;
        }
        return true;
    }

    /**
     * Records how a wait's poll ended.
     *
     * @param done true if its request was done within the poll.
     */
    void polled(final boolean done)
    {
        if (done)
        {
            misses = 0;
        }
        else if (++misses >= MISSES_BEFORE_BLOCKING)
        {
            misses = 0;
            waitsToBlock = WAITS_BLOCKED;
        }
    }
}
