package io.pinmx.pin.provider;

/**
 * Who drives a rank's progress agents ({@link ProgressRunner}), as Aeron's ThreadingMode does for its agents.
 */
public enum ThreadingMode
{
    /** An {@link org.agrona.concurrent.AgentRunner} thread per rank runs the agents, idling between duty cycles. */
    DEDICATED,
    /**
     * No thread: an {@link org.agrona.concurrent.AgentInvoker} runs a duty cycle whenever a caller's wait asks for
     * one, so a rank never has more spinning threads than the application's own.
     */
    INVOKER
}
