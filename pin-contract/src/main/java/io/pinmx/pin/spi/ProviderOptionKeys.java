package io.pinmx.pin.spi;

/**
 * The keys of {@link ProviderOptions} that the providers read, so callers above the contract name an option
 * without naming a provider's class. The value type of each is given; a provider refuses another type naming
 * the key.
 */
public final class ProviderOptionKeys
{
    /** InetAddress: the host address the user driver's endpoints bind to and advertise. */
    public static final String USER_BIND_ADDRESS = "user.bindAddress";
    /** Integer: UDP port of endpoint 0 of the board; 0 lets the kernel choose. */
    public static final String USER_BASE_PORT = "user.basePort";
    /** Boolean: a progress thread per endpoint serves pulls while the application computes. */
    public static final String USER_PROGRESS_THREAD = "user.progressThread";
    /** Boolean: without a progress thread, a responder thread runs the agent when the application stops polling. */
    public static final String USER_RESPONDER = "user.responder";
    /** Boolean: shared-memory rings and single-copy pulls for peers on this host; false: UDP only. */
    public static final String USER_SAME_HOST = "user.sameHost";
    /** Path: the directory of endpoint files (a tmpfs). */
    public static final String USER_SHM_DIRECTORY = "user.shmDirectory";
    /** Integer: payload bytes of one PULL_REPLY or MEDIUM_FRAG frame at most. */
    public static final String USER_FRAME_PAYLOAD_BYTES = "user.framePayloadBytes";
    /** Integer: PULL_REPLY frames requested by one PULL. */
    public static final String USER_PULL_BLOCK_FRAMES = "user.pullBlockFrames";
    /** Integer: PULL requests outstanding per pull. */
    public static final String USER_PULL_BLOCKS_IN_FLIGHT = "user.pullBlocksInFlight";
    /** Long: a block with no reply for this many nanoseconds is requested again. */
    public static final String USER_PULL_RESEND_TIMEOUT_NS = "user.pullResendTimeoutNs";
    /** Integer: resends of one block before the pull fails. */
    public static final String USER_PULL_MAX_RETRIES = "user.pullMaxRetries";
    /** Double: fraction of outgoing UDP frames dropped on purpose (tests). */
    public static final String USER_LOSS_TX_FRACTION = "user.lossTxFraction";
    /** Double: fraction of incoming UDP frames dropped on purpose (tests). */
    public static final String USER_LOSS_RX_FRACTION = "user.lossRxFraction";
    /** Long: seed of the deterministic loss sequence. */
    public static final String USER_LOSS_SEED = "user.lossSeed";
    /** Integer: capacity of the incoming shared-memory ring (power of two). */
    public static final String USER_SHM_RING_BYTES = "user.shmRingBytes";
    /** Integer: capacity of the endpoint's event queue (power of two). */
    public static final String USER_EVENT_RING_BYTES = "user.eventRingBytes";
    /** Integer: regions per endpoint. */
    public static final String USER_MAX_REGIONS = "user.maxRegions";
    /** Long: same-host pulls of at least this many bytes are shared with the source's agent; 0: never. */
    public static final String USER_SHARED_PULL_MIN_BYTES = "user.sharedPullMinBytes";
    /** Path: the node-wide counters file endpoints publish to. */
    public static final String USER_COUNTERS_FILE = "user.countersFile";
    /** Boolean: false publishes no counters (no Chronicle Map opened by the endpoint). */
    public static final String USER_PUBLISH_COUNTERS = "user.publishCounters";
    /** Long: the progress thread's time slice in ns (Linux's custom slice); 0: the kernel's default. */
    public static final String USER_PROGRESS_SLICE_NS = "user.progressSliceNs";

    /** Path: the pinmx device file. */
    public static final String KERNEL_DEVICE = "kernel.device";
    /** String: the interface the endpoint binds to. */
    public static final String KERNEL_INTERFACE = "kernel.interface";
    /** Boolean: attach the interface to pinmx.ko when it is not yet attached. */
    public static final String KERNEL_ATTACH = "kernel.attach";
    /** String: how the endpoint's regions are pinned: default, declare, on-demand or overlapped. */
    public static final String KERNEL_PIN_MODE = "kernel.pinMode";
    /** Integer: the ABI version said in the hello (tests give another to see a mismatch reported). */
    public static final String KERNEL_ABI_VERSION = "kernel.abiVersion";
    /** Boolean: every pull goes as frames, also between endpoints of one interface. */
    public static final String KERNEL_PULLS_ON_WIRE = "kernel.pullsOnWire";

    private ProviderOptionKeys()
    {
    }
}
