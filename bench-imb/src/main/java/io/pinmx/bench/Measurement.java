package io.pinmx.bench;

/**
 * One line of a benchmark's table. Times are per repetition in microseconds across the ranks that took
 * part (equal for single-time benchmarks); a value a benchmark does not report is NaN.
 */
public record Measurement(
    long bytes, int repetitions, double tMinUsec, double tMaxUsec, double tAvgUsec, double mbytesPerSec)
{
    public static Measurement ofTime(final long bytes, final int repetitions, final double tUsec, final double mbytesPerSec)
    {
        return new Measurement(bytes, repetitions, tUsec, tUsec, tUsec, mbytesPerSec);
    }

    /**
     * @return the time compared in latency ratios: the slowest rank's.
     */
    public double latencyUsec()
    {
        return tMaxUsec;
    }
}
