package io.pinmx.mx;

/**
 * Who drives the protocol: frames only move, acks only go out and timers only fire while
 * something polls the driver.
 */
public enum ProgressMode
{
    /** A progress thread per endpoint spins briefly, then backs off to the driver's await. */
    THREAD,
    /** Only the application's test/wait/probe calls make progress (no extra thread). */
    CALLER
}
