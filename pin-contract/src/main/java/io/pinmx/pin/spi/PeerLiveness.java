package io.pinmx.pin.spi;

/**
 * What a driver knows, apart from the library's own silence, of whether a remote endpoint is still there: a
 * mutable answer the library reuses, filled by {@link DriverEndpoint#checkLiveness}.
 * <ul>
 *   <li>{@link State#ALIVE}: known to exist: its process runs on this host.</li>
 *   <li>{@link State#GONE}: known to be gone: its process exited, it closed the endpoint, or another endpoint now
 *       holds its address; {@link #reason()} says which.</li>
 *   <li>{@link State#UNKNOWN}: nothing exact; {@link #answeredAgoNs()} says how long ago its driver last answered a
 *       liveness probe (drivers answer probes without the remote application calling in), which the library
 *       counts as hearing from it.</li>
 * </ul>
 */
public final class PeerLiveness
{
    /** What is known. */
    public enum State
    {
        ALIVE,
        GONE,
        UNKNOWN
    }

    private State state = State.UNKNOWN;
    private int pid;
    private String reason = "";
    private long answeredAgoNs = NEVER;

    /** {@link #answeredAgoNs()} when no probe was ever answered. */
    public static final long NEVER = Long.MAX_VALUE;

    /**
     * @return what is known.
     */
    public State state()
    {
        return state;
    }

    /**
     * @return the remote endpoint's process id where the driver knows it, else 0.
     */
    public int pid()
    {
        return pid;
    }

    /**
     * @return why the endpoint is {@link State#GONE}, else empty.
     */
    public String reason()
    {
        return reason;
    }

    /**
     * @return nanoseconds since the remote driver last answered a liveness probe, or {@link #NEVER}.
     */
    public long answeredAgoNs()
    {
        return answeredAgoNs;
    }

    /** Provider side: nothing known. */
    public PeerLiveness unknown(final int knownPid)
    {
        return unknown(knownPid, NEVER);
    }

    /** Provider side: nothing exact, but its driver answered a probe {@code agoNs} ago. */
    public PeerLiveness unknown(final int knownPid, final long agoNs)
    {
        set(State.UNKNOWN, knownPid, "");
        answeredAgoNs = agoNs;
        return this;
    }

    /** Provider side: the endpoint exists. */
    public PeerLiveness alive(final int knownPid)
    {
        return set(State.ALIVE, knownPid, "");
    }

    /** Provider side: the endpoint is gone, for {@code why} (a phrase such as "its process exited"). */
    public PeerLiveness gone(final int knownPid, final String why)
    {
        return set(State.GONE, knownPid, why);
    }

    private PeerLiveness set(final State state, final int pid, final String reason)
    {
        this.state = state;
        this.pid = pid;
        this.reason = reason;
        this.answeredAgoNs = NEVER;
        return this;
    }

    @Override
    public String toString()
    {
        return state + (pid != 0 ? " pid " + pid : "") + (reason.isEmpty() ? "" : ": " + reason) +
            (answeredAgoNs != NEVER ? ", answered " + answeredAgoNs / 1_000_000 + " ms ago" : "");
    }
}
