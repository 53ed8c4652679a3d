package io.pinmx.pin.user;

import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptions;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Set;

import static io.pinmx.pin.spi.ProviderOptionKeys.USER_BASE_PORT;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_BIND_ADDRESS;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_COUNTERS_FILE;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_EVENT_RING_BYTES;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_FRAME_PAYLOAD_BYTES;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_LOSS_RX_FRACTION;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_LOSS_SEED;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_LOSS_TX_FRACTION;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_MAX_REGIONS;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_PROGRESS_SLICE_NS;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_PROGRESS_THREAD;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_PUBLISH_COUNTERS;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_PULL_BLOCKS_IN_FLIGHT;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_PULL_BLOCK_FRAMES;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_PULL_MAX_RETRIES;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_PULL_RESEND_TIMEOUT_NS;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_RESPONDER;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_SAME_HOST;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_SHARED_PULL_MIN_BYTES;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_SHM_DIRECTORY;
import static io.pinmx.pin.spi.ProviderOptionKeys.USER_SHM_RING_BYTES;

/**
 * The user driver's options as keys of the contract: reads the keys a config gives over its typed
 * {@link UserDriverOptions} (or the defaults), refusing an unknown {@code user.} key or a value of another type
 * naming the key, and lists the options an endpoint runs with as keys for reports.
 */
final class UserProviderOptions
{
    /** Every key the user driver reads. */
    static final Set<String> KEYS = Set.of(USER_BIND_ADDRESS, USER_BASE_PORT, USER_PROGRESS_THREAD, USER_RESPONDER,
        USER_SAME_HOST, USER_SHM_DIRECTORY, USER_FRAME_PAYLOAD_BYTES, USER_PULL_BLOCK_FRAMES, USER_PULL_BLOCKS_IN_FLIGHT,
        USER_PULL_RESEND_TIMEOUT_NS, USER_PULL_MAX_RETRIES, USER_LOSS_TX_FRACTION, USER_LOSS_RX_FRACTION,
        USER_LOSS_SEED, USER_SHM_RING_BYTES, USER_EVENT_RING_BYTES, USER_MAX_REGIONS, USER_SHARED_PULL_MIN_BYTES,
        USER_COUNTERS_FILE, USER_PUBLISH_COUNTERS, USER_PROGRESS_SLICE_NS);

    private UserProviderOptions()
    {
    }

    /**
     * @param config the endpoint's config.
     * @return its typed options, or the defaults, with every {@code user.} key it gives applied.
     * @throws io.pinmx.pin.spi.DriverException BAD_ARGUMENT naming an unknown key or an ill-typed value.
     * @throws IllegalArgumentException         naming an option whose value is out of range.
     */
    static UserDriverOptions resolve(final EndpointConfig config)
    {
        final ProviderOptions keyed = config.providerOptions();
        keyed.refuseUnknown(UserDriver.NAME, KEYS);
        final UserDriverOptions base = config.options(UserDriverOptions.class).orElseGet(UserDriverOptions::defaults);
        if (keyed.keysOf(UserDriver.NAME).isEmpty())
        {
            return base;
        }
        final Path countersFile = keyed.get(USER_COUNTERS_FILE, Path.class).orElse(base.countersFile());
        return new UserDriverOptions(
            keyed.get(USER_BIND_ADDRESS, InetAddress.class).orElse(base.bindAddress()),
            keyed.get(USER_BASE_PORT, Integer.class).orElse(base.basePort()),
            keyed.get(USER_PROGRESS_THREAD, Boolean.class).orElse(base.progressThread()),
            keyed.get(USER_RESPONDER, Boolean.class).orElse(base.responder()),
            keyed.get(USER_SAME_HOST, Boolean.class).orElse(base.sameHost()),
            keyed.get(USER_SHM_DIRECTORY, Path.class).orElse(base.shmDirectory()),
            keyed.get(USER_FRAME_PAYLOAD_BYTES, Integer.class).orElse(base.framePayloadBytes()),
            keyed.get(USER_PULL_BLOCK_FRAMES, Integer.class).orElse(base.pullBlockFrames()),
            keyed.get(USER_PULL_BLOCKS_IN_FLIGHT, Integer.class).orElse(base.pullBlocksInFlight()),
            keyed.get(USER_PULL_RESEND_TIMEOUT_NS, Long.class).orElse(base.pullResendTimeoutNs()),
            keyed.get(USER_PULL_MAX_RETRIES, Integer.class).orElse(base.pullMaxRetries()),
            keyed.get(USER_LOSS_TX_FRACTION, Double.class).orElse(base.lossTxFraction()),
            keyed.get(USER_LOSS_RX_FRACTION, Double.class).orElse(base.lossRxFraction()),
            keyed.get(USER_LOSS_SEED, Long.class).orElse(base.lossSeed()),
            keyed.get(USER_SHM_RING_BYTES, Integer.class).orElse(base.shmRingBytes()),
            keyed.get(USER_EVENT_RING_BYTES, Integer.class).orElse(base.eventRingBytes()),
            keyed.get(USER_MAX_REGIONS, Integer.class).orElse(base.maxRegions()),
            keyed.get(USER_SHARED_PULL_MIN_BYTES, Long.class).orElse(base.sharedPullMinBytes()),
            keyed.get(USER_PUBLISH_COUNTERS, Boolean.class).orElse(true) ? countersFile : null,
            keyed.get(USER_PROGRESS_SLICE_NS, Long.class).orElse(base.progressSliceNs()));
    }

    /**
     * @param options what an endpoint runs with.
     * @return the same as keys.
     */
    static ProviderOptions describe(final UserDriverOptions options)
    {
        final ProviderOptions keyed = ProviderOptions.none()
            .with(USER_BIND_ADDRESS, options.bindAddress())
            .with(USER_BASE_PORT, options.basePort())
            .with(USER_PROGRESS_THREAD, options.progressThread())
            .with(USER_RESPONDER, options.responder())
            .with(USER_SAME_HOST, options.sameHost())
            .with(USER_SHM_DIRECTORY, options.shmDirectory())
            .with(USER_FRAME_PAYLOAD_BYTES, options.framePayloadBytes())
            .with(USER_PULL_BLOCK_FRAMES, options.pullBlockFrames())
            .with(USER_PULL_BLOCKS_IN_FLIGHT, options.pullBlocksInFlight())
            .with(USER_PULL_RESEND_TIMEOUT_NS, options.pullResendTimeoutNs())
            .with(USER_PULL_MAX_RETRIES, options.pullMaxRetries())
            .with(USER_LOSS_TX_FRACTION, options.lossTxFraction())
            .with(USER_LOSS_RX_FRACTION, options.lossRxFraction())
            .with(USER_LOSS_SEED, options.lossSeed())
            .with(USER_SHM_RING_BYTES, options.shmRingBytes())
            .with(USER_EVENT_RING_BYTES, options.eventRingBytes())
            .with(USER_MAX_REGIONS, options.maxRegions())
            .with(USER_SHARED_PULL_MIN_BYTES, options.sharedPullMinBytes())
            .with(USER_PUBLISH_COUNTERS, null != options.countersFile())
            .with(USER_PROGRESS_SLICE_NS, options.progressSliceNs());
        return null == options.countersFile() ? keyed : keyed.with(USER_COUNTERS_FILE, options.countersFile());
    }
}
