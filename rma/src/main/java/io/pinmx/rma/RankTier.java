package io.pinmx.rma;

/**
 * How this rank reaches another rank's memory.
 */
public enum RankTier
{
    /** This rank: its own slices, plain memory access. */
    SELF,
    /** A rank on this host whose slices are mapped here: copies, loads, stores and CPU atomics. */
    SHARED_MEMORY,
    /** A rank reached through the pinmx driver (another host, or the shared-memory tier switched off). */
    DRIVER
}
