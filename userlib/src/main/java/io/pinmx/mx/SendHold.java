package io.pinmx.mx;

/**
 * Whether the send window still holds an eager send that completed before its acks: a medium send whose every
 * fragment the driver put where nothing can lose it (a same-host peer's ring) completes at once, its bytes staged
 * for a resend, while its frames wait in the window for their acks. The request is recycled only once the window
 * lets go of it, whenever its owner released it.
 */
enum SendHold
{
    /** Nothing holds the request beyond its owner. */
    NONE,
    /** Completed; frames still unacknowledged; the owner has not released it. */
    HELD,
    /** Completed and released by its owner; recycled when the last frame is acknowledged or abandoned. */
    HELD_RELEASED
}
