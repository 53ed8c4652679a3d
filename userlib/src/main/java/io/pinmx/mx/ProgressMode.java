package io.pinmx.mx;

import io.pinmx.pin.provider.ThreadingMode;

/**
 * Who drives the protocol: frames only move, acks only go out and timers only fire while
 * something polls the driver. Each mode names the {@link ThreadingMode} that runs the endpoint's progress agent.
 */
public enum ProgressMode
{
    /** {@link ThreadingMode#DEDICATED}: an agent thread per endpoint polls, backing off to the driver's await. */
    THREAD(ThreadingMode.DEDICATED),
    /** {@link ThreadingMode#INVOKER}: only the application's test/wait/probe calls make progress (no thread). */
    CALLER(ThreadingMode.INVOKER);

    private final ThreadingMode threadingMode;

    ProgressMode(final ThreadingMode threadingMode)
    {
        this.threadingMode = threadingMode;
    }

    public ThreadingMode threadingMode()
    {
        return threadingMode;
    }
}
