package io.pinmx.pin.user;

/**
 * Where a {@link RemoteOp} slot is: free, handed to the agent by an application thread, or running on the agent.
 */
enum RemoteOpState
{
    /** In the free list. */
    FREE,
    /** Filled by an application thread, queued for the agent. */
    SUBMITTED,
    /** Running on the agent until its end event. */
    ACTIVE
}
