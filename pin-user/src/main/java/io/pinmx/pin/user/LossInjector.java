package io.pinmx.pin.user;

/**
 * Deterministic frame loss for tests: a xorshift sequence from a seed decides, frame by frame, whether to drop.
 * One per direction; each is used by one thread at a time (sends are serialised by the UDP send lock, receives
 * happen in the agent).
 */
final class LossInjector
{
    private final long threshold;
    private long state;

    LossInjector(final double fraction, final long seed)
    {
        this.threshold = fraction <= 0 ? 0 : fraction >= 1 ? Long.MAX_VALUE : (long)(fraction * Long.MAX_VALUE);
        this.state = seed == 0 ? 0x9E3779B97F4A7C15L : seed;
    }

    /** True if the next frame must be dropped. */
    boolean drop()
    {
        if (threshold == 0)
        {
            return false;
        }
        long x = state;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        state = x;
        return (x >>> 1) < threshold;
    }
}
