package io.pinmx.pin.user;

/**
 * Where one pull slot ({@link PullSlot}) is in its life: FREE -> SUBMITTED (an application thread queued it) ->
 * ACTIVE (the agent started it over UDP) -> FREE (done, failed or abandoned). A same-host single-copy pull goes from
 * SUBMITTED straight to FREE, since it completes inside its start.
 */
enum PullState
{
    /** In the free list: no pull, replies naming it are late ones. */
    FREE,
    /** Queued by {@code startPull}, not yet seen by the agent. */
    SUBMITTED,
    /** PULL requests out, replies expected. */
    ACTIVE
}
