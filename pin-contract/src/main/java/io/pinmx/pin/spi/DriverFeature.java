package io.pinmx.pin.spi;

/**
 * What a provider can do, listed in {@link DriverInfo#features()}.
 */
public enum DriverFeature
{
    /** Frames travel in UDP datagrams. */
    UDP,
    /** Frames travel on Ethernet with EtherType 0x86DF. */
    ETHERNET,
    /** Eager frames between endpoints of one host go through shared-memory rings. */
    SAME_HOST_SHM,
    /** Pulls between endpoints of one host copy once, region to region. */
    SAME_HOST_SINGLE_COPY_PULL,
    /** Pages are pinned on demand and may be unpinned and re-pinned without telling user space. */
    ON_DEMAND_PINNING,
    /** Pinning overlaps communication; frames that outrun it are overlap misses. */
    OVERLAPPED_PINNING,
    /** Pulls are served by the driver without the serving application calling in. */
    ASYNC_PULL_SERVING,
    /**
     * The driver judges remote endpoints' liveness ({@link DriverEndpoint#checkLiveness}) and answers liveness probes
     * without the application calling in.
     */
    LIVENESS_PROBES,
    /**
     * Regions can be declared for remote writes with a key ({@link DriverEndpoint#declareRemoteRegion}) and peers'
     * puts into them are written by the driver without the target application ({@link DriverEndpoint#startPut}).
     */
    REMOTE_WRITE,
    /** Integer atomics on a peer's remote-writable region, applied by its driver ({@link DriverEndpoint#startAtomic}). */
    REMOTE_ATOMIC,
    /**
     * Peers' remote writes and atomics are applied without any thread of the target process (in the kernel), so
     * they complete while it computes, is descheduled or is stopped: a passive target.
     */
    PASSIVE_WRITES,
    /**
     * The owner of a remote-writable region can hold peers' writes and atomics into it back
     * ({@link DriverEndpoint#holdRemoteWrites}): they wait at their origins until it lets them in.
     */
    HOLD_WRITES
}
