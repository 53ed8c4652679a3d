package io.pinmx.mpj.jgf;

/**
 * What one section-2 kernel reports on rank 0: its timed seconds, the operations it counts in that time (the
 * suite's unit per kernel) and, when validation failed, why.
 *
 * @param failure null when the kernel's result validated.
 */
record Section2Result(double seconds, double operations, String unit, String failure)
{
    boolean passed()
    {
        return null == failure;
    }
}
